"""The roster: who sits at which seat of a table, under which key, at which address.

A member entry is ``{"seat", "name", "key", "addr", "sig"}`` where ``key`` is the hex Ed25519
public key, ``addr`` is ``tcp://HOST:PORT`` of the member's ROUTER and ``sig`` is the member's own
signature (base64) over ``b"p2pcards/v1/entry\n" + canonical({"table", "name", "key", "addr"})``:
whoever relays an entry (the host, a transcript) cannot change a member's name or address.
The seat number is assigned by the host and is not covered.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .envelope import Message, canonical, unb64
from .identity import b32, fingerprint, public_key_from_hex, verify

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
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            raise ValueError(f"roster entry has bad seat {seat!r}")
        check_name(name)
        normalize_address(addr)
        key = public_key_from_hex(d["key"])
        sig = unb64(d["sig"], "entry signature")
        if not verify(key, sig, entry_payload(table, name, d["key"], addr)):
            raise ValueError(f"roster entry for seat {seat} is not signed by its key")
        return cls(seat, name, key, addr, d["sig"])


def check_name(name: Any) -> str:
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name) > MAX_NAME
        or not name.isprintable()
    ):
        raise ValueError(f"a player name is 1 to {MAX_NAME} printable characters")
    return name


def roster_digest(members: Iterable[Member]) -> str:
    """A short code over every seat's name and key: if all players see the same digest, nobody
    (the host included) has shown different players different tables."""
    data = canonical([[m.seat, m.name, m.key.hex()] for m in sorted(members, key=lambda m: m.seat)])
    s = b32(hashlib.sha256(b"p2pcards/v1/roster\n" + data).digest(), 8)
    return f"{s[:4]}-{s[4:]}"


def normalize_address(text: Any) -> str:
    """``host:port`` or ``tcp://host:port`` → ``tcp://host:port``; ``ValueError`` otherwise."""
    if not isinstance(text, str):
        raise ValueError("an address looks like HOST:PORT")
    rest = text.strip()
    if rest.startswith("tcp://"):
        rest = rest[len("tcp://") :]
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{text!r} is not an address like HOST:PORT")
    if any(c.isspace() or c in "/*" for c in host):
        raise ValueError(f"{text!r} is not an address like HOST:PORT")
    return f"tcp://{host}:{int(port)}"
