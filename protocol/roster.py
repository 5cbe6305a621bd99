"""The roster: who sits at which seat of a table, under which key, at which address.

A member entry is ``{"seat", "name", "key", "addr", "sig"}`` where ``key`` is the hex Ed25519
public key, ``addr`` is ``tcp://HOST:PORT`` of the member's ROUTER and ``sig`` is the member's own
signature (base64) over ``b"p2pcards/v1/entry\n" + canonical({"table", "name", "key", "addr"})``:
whoever relays an entry (the host, a transcript) cannot change a member's name or address.
The seat number is assigned by the host and is not covered.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .envelope import Message, canonical, is_int, unb64
from .identity import b32, fingerprint, public_key_from_hex, verify
from .lookalike import FOLD, draws_nothing

ENTRY_DOMAIN = b"p2pcards/v1/entry\n"
MAX_NAME = 32


def entry_payload(table: str, name: str, key_hex: str, addr: str) -> bytes:
    return ENTRY_DOMAIN + canonical({"table": table, "name": name, "key": key_hex, "addr": addr})


@dataclass(frozen=True)
class Member:
    """One seat of the roster. ``sig`` is the member's own signature over table, name, key, addr."""

    seat: int
    name: str
    key: bytes
    addr: str
    sig: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    def to_json(self) -> Message:
        return {
            "seat": self.seat,
            "name": self.name,
            "key": self.key.hex(),
            "addr": self.addr,
            "sig": self.sig,
        }

    @classmethod
    def from_json(cls, d: Any, table: str, seats: int) -> Member:
        """Parse and verify a roster entry; ``ValueError`` with a reason."""
        if not isinstance(d, dict) or set(d) != {"seat", "name", "key", "addr", "sig"}:
            raise ValueError("roster entry has the wrong fields")
        seat, name, addr = d["seat"], d["name"], d["addr"]
        if not is_int(seat) or not 0 <= seat < seats:
            raise ValueError(f"roster entry has bad seat {seat!r}")
        check_name(name)
        normalize_address(addr)
        key = public_key_from_hex(d["key"])
        sig = unb64(d["sig"], "entry signature")
        if not verify(key, sig, entry_payload(table, name, d["key"], addr)):
            raise ValueError(f"roster entry for seat {seat} is not signed by its key")
        return cls(seat, name, key, addr, d["sig"])


# Characters that read as a colon: a name may not hold one, since a chat line reads "name: text".
_COLONS = frozenset(":\u02d0\u02f8\u05c3\u0589\u2236\ua789\ufe13\ufe55\uff1a")
def check_name(name: Any) -> str:
    """A player name as every other player's screen shows it at the start of lines ("bob: hi",
    "bob left the table"): 1 to ``MAX_NAME`` printable characters that begin with a letter or a
    digit (so no name reads as the program's own "** ..." or "(...)" lines), with single spaces
    only between words, no colon, no character that draws nothing (a Hangul filler, a zero-width
    joiner: Unicode's default-ignorable characters and the blanks of protocol/lookalike.py) and
    at most two combining marks in a row."""
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name) > MAX_NAME
        or not name.isprintable()
    ):
        raise ValueError(f"a player name is 1 to {MAX_NAME} printable characters")
    if name != name.strip() or "  " in name:
        raise ValueError("a player name has no leading, trailing or double spaces")
    if any(draws_nothing(c) for c in name):
        raise ValueError("a player name holds no invisible or blank characters (a Hangul filler, "
                         "a zero-width space or joiner): they would let two names read the same")
    if unicodedata.category(name[0])[0] not in "LN":
        raise ValueError("a player name begins with a letter or a digit")
    if any(c in _COLONS or ":" in unicodedata.normalize("NFKC", c) for c in name):
        raise ValueError("a player name holds no colon (chat lines read 'name: text')")
    marks = 0
    for c in name:
        marks = marks + 1 if unicodedata.category(c)[0] == "M" else 0
        if marks > 2:
            raise ValueError("a player name has at most two combining marks in a row")
    return name


def name_skeleton(name: str) -> str:
    """What ``name`` looks like, for telling whether two names could be mistaken for each other:
    compatibility-normalised, case-folded, every character that looks like an ASCII letter or
    digit folded to it (Unicode's confusables, protocol/lookalike.py: Cyrillic, Greek, IPA,
    Cherokee, the vertical bars), then combining marks, spaces and punctuation left out ("Bob",
    "bob.", "Ｂｏｂ", "b\u043eb", "\u0185ob" and "B0B" all give "bob"; "a|ice" gives "alice")."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    text = text.translate(FOLD)
    return "".join(c for c in text if unicodedata.category(c)[0] in "LN")


def names_clash(a: str, b: str) -> bool:
    """True when one name could be taken for the other on screen: the same skeleton, or the
    words of one begin the other ("alice" and "alice left the table", "Mary" and "mary jane"),
    which would let "alice left the table: ..." pass for a line about alice."""
    wa = [w for w in (name_skeleton(x) for x in a.split()) if w]
    wb = [w for w in (name_skeleton(x) for x in b.split()) if w]
    n = min(len(wa), len(wb))
    return name_skeleton(a) == name_skeleton(b) or (n > 0 and wa[:n] == wb[:n])


def seat_number_in(name: str) -> int | None:
    """The seat number ``name`` reads as ("2", "٢", "seat 2", "Seat #2" read as 2), or ``None``."""
    sk = name_skeleton(name)
    digits = sk[4:] if sk.startswith("seat") else sk
    return int(digits) if digits.isdecimal() and len(digits) <= 9 else None


def reads_as_seat(name: str) -> bool:
    """True when ``name`` reads as a seat number: the host's ``kick 2`` and every "seat 2:" line
    would be ambiguous, so the host seats no such name."""
    return seat_number_in(name) is not None


def check_roster(members: Iterable[Member]) -> None:
    """The rules the host applies as it seats players, re-checked by every peer on the roster
    it is given (a modified host could skip them): one entry a seat, one seat a key, and no two
    names that could be taken for each other. ``ValueError`` says which rule is broken."""
    seen: dict[int, Member] = {}
    for m in members:
        if m.seat in seen:
            raise ValueError(f"seat {m.seat + 1} is given twice")
        for o in seen.values():
            if o.key == m.key:
                raise ValueError(f"one key holds seats {o.seat + 1} and {m.seat + 1}")
            if names_clash(o.name, m.name):
                raise ValueError(f"the names {o.name!r} (seat {o.seat + 1}) and {m.name!r} "
                                 f"(seat {m.seat + 1}) look alike")
        seen[m.seat] = m


def roster_digest(members: Iterable[Member]) -> str:
    """A short digest over every seat's name and key (40 bits), which the mesh's programs
    compare among themselves (``heads``): it catches a split among honest links. It is no longer
    what players read aloud: a host that holds a key in each of two views (a player it
    impersonates to the others) can find two rosters with one digest by a birthday search, about
    2^21 keys (red team 16b: 43 s of CPU, ``scripts/roster_code_collision.py``). The code players
    read is ``roster_code``, made from fresh randomness of every seat the host cannot grind."""
    data = canonical([[m.seat, m.name, m.key.hex()] for m in sorted(members, key=lambda m: m.seat)])
    s = b32(hashlib.sha256(b"p2pcards/v1/roster\n" + data).digest(), 8)
    return f"{s[:4]}-{s[4:]}"


#: the range of the deck's joint draw the roster code is made from (``DeckPeer.random``)
CODE_DRAW = 2**40
CODE_DOMAIN = b"p2pcards/v1/roster-code\n"


def roster_code(members: Iterable[Member | Message], draw: int) -> str:
    """The roster code players read aloud (``XXXX-XXXX``, 40 bits): ``SHA-256(b"p2pcards/v1/roster-code\n"
    + canonical([[seat, name, key hex], ...]) + u64be(draw))``, where ``draw`` is the value of
    the deck's joint random draw in ``[0, CODE_DRAW)`` at the start of the table (commit-reveal:
    every seat commits to a fresh nonce bound to the game description, which holds every seat's
    key, before any nonce is revealed). A host that shows two players two rosters cannot grind
    it: each player's code depends on that player's own nonce, revealed only after the host has
    committed to everything in that player's view, so the two views show one code with
    probability 2^-40 a try, and a try that fails is a table that stops (SPEC.md 5.5).
    ``members``: roster entries, or their JSON form (a record's roster line)."""
    rows = [[m.seat, m.name, m.key.hex()] if isinstance(m, Member)
            else [m.get("seat"), m.get("name"), m.get("key")] for m in members]
    rows.sort(key=lambda r: r[0] if is_int(r[0]) else -1)
    data = canonical(rows)
    s = b32(hashlib.sha256(CODE_DOMAIN + data + draw.to_bytes(8, "big")).digest(), 8)
    return f"{s[:4]}-{s[4:]}"


KEYS_DOMAIN = b"p2pcards/v1/roster-keys\n"


def keys_digest(members: Iterable[Member | Message]) -> str:
    """The full SHA-256 (hex) of every seat's key, in seat order: ``SHA-256(b"p2pcards/v1/roster-keys\n"
    + canonical([[seat, key hex], ...]))``. The deck's game description holds it (SPEC.md 2.1),
    so every seat's signed key share binds every other seat's key: a roster entry is signed by
    its own key only, and a transcript whose roster gives a seat another key no longer matches
    the other seats' signed messages. ``members``: roster entries, or their JSON form."""
    pairs = [[m.seat, m.key.hex()] if isinstance(m, Member) else [m.get("seat"), m.get("key")]
             for m in members]
    pairs.sort(key=lambda p: p[0] if is_int(p[0]) else -1)
    return hashlib.sha256(KEYS_DOMAIN + canonical(pairs)).hexdigest()


def normalize_address(text: Any) -> str:
    """``host:port`` or ``tcp://host:port`` → ``tcp://host:port``; ``ValueError`` otherwise."""
    if not isinstance(text, str):
        raise ValueError("an address looks like HOST:PORT")
    rest = text.strip()
    if rest.startswith("tcp://"):
        rest = rest[len("tcp://") :]
    host, sep, port = rest.rpartition(":")
    if (not sep or not host or not (port.isascii() and port.isdigit()) or len(port) > 5
            or not 0 < int(port) < 65536 or not _dialable_host(host)):
        raise ValueError(f"{short_text(text)} is not an address like HOST:PORT")
    return f"tcp://{host}:{int(port)}"


_LABEL = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})")


def _dialable_host(host: str) -> bool:
    """An IP address (IPv6 in brackets or bare) or a host name of ASCII letters, digits, ``-``
    and ``_`` in dot-separated labels, none starting with ``-``: what ZeroMQ dials. Everything
    else is refused here, where a peer's entry is read, and never reaches ``connect`` (which
    refuses ``-`` or ``é.lan`` with an error of its own, after the seat would have been taken)."""
    inner = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if ":" in inner:
        try:
            ipaddress.IPv6Address(inner)
        except ValueError:
            return False
        return True
    return (len(host) <= 253 and host.isascii()
            and all(_LABEL.fullmatch(label) for label in host.split(".")))


def short_text(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")
