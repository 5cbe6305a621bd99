"""Signed, chained envelopes: the unit of everything a peer says to the table.

Wire form (one ZeroMQ frame, canonical JSON, see ``canonical``)::

    {"v": 1, "table": "<32 hex>", "from": <seat>, "seq": <1, 2, ...>, "prev": "<64 hex>",
     "to": null | <seat>, "topic": "<str>", "body": {...}          # broadcast
                                             "box": "<base64>"     # private (instead of body)
     "sig": "<base64 Ed25519 signature>"}

- ``seq`` counts *all* envelopes of the sender at this table, broadcast and private alike, from 1;
  ``prev`` is ``hash`` of the sender's envelope ``seq - 1`` (64 zeros for seq 1). Each sender
  therefore has exactly one chain.
- Every envelope, private ones included, is delivered to *every* peer. A private payload is
  encrypted so only its recipient (and its sender) can read it, but anyone can check its
  signature and its place in the chain. So every peer holds every sender's complete chain, and
  two peers can compare heads exactly: if a sender ever signed two different envelopes with the
  same ``seq``, the two envelopes together are the proof (``Equivocation``).
- ``heads`` (mesh version 6; absent from envelopes made before it, which still load) states
  what the author had accepted when it made the envelope: ``{"seqs": [n_0, ..., n_{N-1}],
  "hash": "<64 hex>"}``, ``n_s`` the seq of seat ``s``'s chain it held (its own: ``seq - 1``)
  and ``hash`` the ``heads_digest`` of those chains' hashes at those seqs. A program that
  refuses the envelope (or a later one of the author's) and holds exactly those chains knows
  the author made it from what this program holds (``Mesh.made_from_ours``).
- ``sig`` is Ed25519 over ``b"p2pcards/v1/env\\n" + canonical(envelope without "sig")``.
- ``hash`` of an envelope is SHA-256 (hex) of ``canonical(envelope with "sig")``.
- ``box`` is base64 of ``nonce(12) || ChaCha20-Poly1305 ciphertext`` of ``canonical(body)``, with
  associated data ``b"p2pcards/v1/box\\n" + canonical(header)`` where the header is the envelope
  without ``box`` and ``sig``. Its key is the envelope's own (``envelope_key``): HMAC-SHA256,
  keyed with the pair's key, of ``b"p2pcards/v1/envelope-key\\n" + canonical(header)``. The pair's
  key is HKDF-SHA256 (salt = the 16 table-id bytes, info = ``b"p2pcards/v1/box" + sender key +
  recipient key``) of the X25519 shared secret between the two identity keys converted from
  Ed25519 to X25519 (libsodium). Static-static agreement means the sender can decrypt its own
  private envelopes too, which replay after a crash needs. A key per envelope lets the recipient
  show what one box holds (its key opens that box and no other): the proof that a box holds more
  than its envelope shows (``overfull``). Records made before it (mesh version 3) sealed every
  box with the pair's key: ``open_box(..., legacy=True)`` reads those.
- A private body may not take more to hold (``opened_cost``: its values outside its strings,
  not the commas of a chat line) than its whole envelope (``held_cost``): every peer
  then counts a private envelope as twice its own cost (``envelope_cost``), so every peer holds
  the same count of every seat, the recipient included; a box that breaks the bound is named by
  its recipient with the envelope's key, which every peer checks (``protocol/evidence.py``).

Canonical JSON: ``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True,
allow_nan=False)`` encoded as ASCII; keys sorted by code point, no whitespace, non-ASCII as
``\\uXXXX`` escapes. Bodies should hold integers, strings, booleans, null, lists and objects
(floats are allowed but their text form is Python's ``repr``). Receivers reject a frame that is not
exactly the canonical encoding of what it parses to, and objects with duplicate keys.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import re
from dataclasses import dataclass, field
from json.encoder import c_make_encoder as _c_encoder  # type: ignore[attr-defined]
from json.encoder import encode_basestring_ascii as _ascii_string  # type: ignore[attr-defined]
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .identity import Identity, verify

VERSION = 1
GENESIS = "0" * 64
ENV_DOMAIN = b"p2pcards/v1/env\n"
CTL_DOMAIN = b"p2pcards/v1/ctl\n"  # the mesh's control messages (a stop: kept in a transcript)
BOX_DOMAIN = b"p2pcards/v1/box\n"
ENVKEY_DOMAIN = b"p2pcards/v1/envelope-key\n"
HEADS_DOMAIN = b"p2pcards/v1/heads\n"
MAX_TOPIC = 64

Message = dict[str, Any]


class EnvelopeError(Exception):
    """An envelope was rejected; ``reason`` says why. ``seat`` is the claimed sender if known."""

    def __init__(self, reason: str, env: Message | None = None, seat: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.env = env
        self.seat = seat


class Equivocation(EnvelopeError):
    """Two envelopes validly signed by ``seat`` that cannot both come from an honest peer: the same
    ``seq`` with different contents, or ``second`` does not chain onto ``first``."""

    def __init__(self, seat: int, first: Message, second: Message, reason: str) -> None:
        super().__init__(reason, second, seat)
        self.first = first
        self.second = second


# -- canonical encoding -----------------------------------------------------------------------


def _not_jsonable(o: Any) -> Any:
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


def canonical(obj: Any) -> bytes:
    """``json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
    allow_nan=False)`` as ASCII bytes, byte for byte: the same C encoder ``json.dumps`` builds
    for those options (a fresh one each call, so a circular value is still refused), without
    the Python layers around it. Called some 30,000 times in a four-seat match, it costs 6.6 us
    a value against 8.5 us through ``json.dumps`` (measured on a match's transcripts)."""
    try:
        chunks = _c_encoder({}, _not_jsonable, _ascii_string, None, ":", ",", True, False,
                            False)(obj, 0)
    except (TypeError, ValueError) as e:
        raise ValueError(f"not JSON-able: {e}") from None
    return "".join(chunks).encode("ascii")


def _canonical_slow(obj: Any) -> bytes:
    """``canonical`` written out with ``json.dumps`` (where there is no C encoder)."""
    try:
        text = json.dumps(
            obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
        )
    except (TypeError, ValueError) as e:
        raise ValueError(f"not JSON-able: {e}") from None
    return text.encode("ascii")


if _c_encoder is None:  # a Python built without the json module's C accelerator
    canonical = _canonical_slow  # noqa: F811


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


MAX_DEPTH = 32  # nesting of a JSON value in a frame
# items (commas, brackets and braces, counted on the bytes) in a value read off the wire: the
# largest honest envelope of a match has about 800 (a shuffle with its proof), and parsing
# costs per item (a 200 KB frame of 100,000 zeros took 130-190 ms in Python before this
# bound), so the bound caps what one frame can cost before anything is authenticated
MAX_ITEMS = 32 * 1024
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_SQUARE = bytes.maketrans(b"{}", b"[]")
_STRING = re.compile(rb'"[^"]*"')


def json_items(data: bytes) -> int:
    """An upper bound on the values in JSON text ``data``, at C speed: its commas, brackets and
    braces (inside strings too)."""
    return data.count(b",") + data.count(b"[") + data.count(b"{")


# What a seat's envelopes may cost every peer over a match, in bytes as ``held_cost`` counts
# them: a whole match of deck and game messages is a few MiB from every seat together, so a
# seat past it is flooding (with chat the table does read, say) and every peer names it
# (protocol/mesh/budget.py); a transcript holding more of one seat's is refused
# (protocol/transcript.py).
MAX_SEAT_BYTES = 64 * 1024 * 1024
# An envelope's cost: its bytes, or ``ITEM_BYTES`` for each value it holds if that is more. A
# parsed value takes 28-72 bytes of a program's memory however short its text: red team 11 sent
# chat lines padded with 16,000 empty objects, 48 KB on the wire and 1.1 MB once read, and 60 MB
# of them (within a budget of bytes) took every honest peer to 1.5 GB; a peer with 1 GB ran out,
# fell silent and was named. Honest envelopes are mostly long strings: measured on a demo
# match's transcript, their cost is 1.8 times their bytes.
ITEM_BYTES = 64


def held_cost(data: bytes) -> int:
    """What holding the envelope with these canonical bytes costs, in bytes (see ``ITEM_BYTES``)."""
    return max(len(data), ITEM_BYTES * json_items(data))


def envelope_cost(raw: bytes, to: int | None) -> int:
    """What holding an envelope costs (its canonical bytes ``raw``): a private one (``to`` a
    seat) twice its own cost, for the body its recipient opens, which may take no more to hold
    than the envelope (``overfull``). Every budget of a seat's envelopes counts this, live
    (``_accept``) and read back (``read_transcript``), and every peer counts the same: the seat
    a box is for counts no more than the others, who cannot open it (red team 12 padded boxes
    only their recipient counted, so only it could name the sender)."""
    return held_cost(raw) * (1 if to is None else 2)


def value_items(data: bytes) -> int:
    """An upper bound on the values in canonical JSON text ``data`` that, unlike ``json_items``,
    does not count what is inside strings: the commas, brackets and braces left once every
    string is cut out (escaped backslashes and quotes first, as ``_too_deep`` does), at C
    speed. A comma in a chat line costs no memory once parsed."""
    text = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    return json_items(_STRING.sub(b"", text))


def opened_cost(body: Message) -> int:
    """What holding an opened private ``body`` costs, in bytes: its canonical bytes, or
    ``ITEM_BYTES`` for each value it holds (``value_items``) if that is more."""
    data = canonical(body)
    return max(len(data), ITEM_BYTES * value_items(data))


def overfull(raw: bytes, body: Message) -> str | None:
    """Why the private ``body`` of the envelope with canonical bytes ``raw`` breaks the bound,
    in words, or ``None`` if it keeps it (it takes no more to hold than its envelope). The
    body counts its values, not the commas and brackets inside its strings (``opened_cost``):
    red team 15a's honest chat line "1,2,3,4,5,6,7,8,9,10" took "704 bytes to hold in an
    envelope of 576" when they counted, and named its sender. An honest private body (a chat
    line: three values) is never overfull: its box is its bytes and more, in base64."""
    inside, outside = opened_cost(body), held_cost(raw)
    if inside <= outside:
        return None
    return (f"a private message that takes {inside:,} bytes to hold in an envelope of "
            f"{outside:,} (padding only the seat it was for could see)")


def _too_deep(data: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON text ``data`` nests deeper than ``limit``, read on the bytes at C speed
    (exact for valid JSON; anything else fails to parse anyway). Strings are cut out (escaped
    backslashes and quotes first), the brackets kept, and innermost pairs removed one level a
    round."""
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    text = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    text = _STRING.sub(b"", text).translate(_SQUARE, _NOT_BRACKETS)
    for _ in range(limit):
        if not text:
            return False
        shorter = text.replace(b"[]", b"")
        if len(shorter) == len(text):
            return True  # unbalanced: not JSON, refused as too deep before it is parsed
        text = shorter
    return bool(text)


def parse_canonical(data: bytes, what: str = "frame", max_items: int = MAX_ITEMS) -> Message:
    """Parse a canonical JSON object; ``ValueError`` with a reason otherwise. What parsing
    would cost is bounded first, on the bytes: at most ``max_items`` items and ``MAX_DEPTH``
    levels, or it is refused unparsed."""
    if not isinstance(data, bytes):
        data = bytes(data)
    if json_items(data) > max_items:
        raise ValueError(f"{what} holds more than {max_items} items")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise ValueError(f"{what} is not ASCII JSON") from None
    if _too_deep(data):
        raise ValueError(f"{what} is nested more than {MAX_DEPTH} levels deep")
    obj = _loads(text, what, None)
    if not isinstance(obj, dict):
        raise ValueError(f"{what} is not a JSON object")
    if canonical(obj) != data:
        # An object with a key twice parses to one with it once, whose encoding is shorter:
        # never canonical. Parsed again, key by key, to say so (the parse above, without that
        # hook in Python for every object, costs three fifths as much).
        _loads(text, what, _no_duplicates)
        raise ValueError(f"{what} is not in canonical form")
    return obj


def _loads(text: str, what: str, hook: Any) -> Any:
    try:
        return json.loads(text, object_pairs_hook=hook)
    except ValueError as e:
        raise ValueError(f"{what} is not valid JSON ({str(e)[:80]})") from None
    except RecursionError:
        raise ValueError(f"{what} is nested too deeply") from None


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: Any, what: str) -> bytes:
    if not isinstance(text, str):
        raise ValueError(f"{what} is not a string")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise ValueError(f"{what} is not base64") from None
    # only the one text that encodes these bytes: the decoder ignores a last character's unused
    # bits, so "...Pw==" and "...Px==" are the same signature. An envelope's hash covers its
    # ``sig`` as text, and two texts of one signature would be two "different" envelopes with
    # one seq, each validly signed: a forged equivocation proof against an honest author.
    if b64(raw) != text:
        raise ValueError(f"{what} is not in canonical base64 (unused bits set)")
    return raw


def envelope_hash(env: Message) -> str:
    return hashlib.sha256(canonical(env)).hexdigest()


def heads_digest(hashes: list[str]) -> str:
    """The digest an envelope's ``heads`` states of the chains its author held: SHA-256 (hex)
    of ``b"p2pcards/v1/heads\\n" + canonical([hash of seat 0's chain at its stated seq, ...])``
    (64 zeros for a stated seq 0)."""
    return hashlib.sha256(HEADS_DOMAIN + canonical(hashes)).hexdigest()


def heads_hold(heads: Message, hash_at: Any) -> bool | None:
    """Whether an envelope's stated ``heads`` are exactly the chains a holder has: ``hash_at(seat,
    seq)`` gives the holder's hash of seat's chain at seq (``GENESIS`` at 0), ``None`` where it
    holds no such seq. ``None``: a stated seq not held (yet); else whether the digests agree."""
    hashes = [hash_at(s, n) for s, n in enumerate(heads["seqs"])]
    if any(h is None for h in hashes):
        return None
    return heads_digest(hashes) == heads["hash"]


def is_int(v: Any) -> bool:
    """A JSON integer: not ``true`` or ``false`` (Python's bools are ints) nor ``1.0``. Every
    number read off the wire is checked with this, so that no program reads ``true`` as ``1``
    where a verifier written from the docs would reject it."""
    return type(v) is int


_LOWER_HEX = re.compile(r"[0-9a-f]*")


def _is_hex(v: Any, n: int) -> bool:
    # a regular expression, not a test of each character: checked on every envelope's table id,
    # prev and stated heads, it was a twentieth of reading a transcript
    return isinstance(v, str) and len(v) == n and _LOWER_HEX.fullmatch(v) is not None


# -- sealing ----------------------------------------------------------------------------------


def box_key(
    me: Identity, other_key: bytes, sender_key: bytes, recipient_key: bytes, table: str
) -> bytes:
    shared = me.x25519_shared(other_key)
    return HKDF(
        algorithm=hashes.SHA256(),
        length=32,
        salt=bytes.fromhex(table),
        info=b"p2pcards/v1/box" + sender_key + recipient_key,
    ).derive(shared)


def _header(env: Message) -> Message:
    return {k: v for k, v in env.items() if k not in ("box", "sig", "body")}


def envelope_key(pair_key: bytes, env: Message) -> bytes:
    """The key of one private envelope's box, from the pair's key (``box_key``) and the
    envelope's header: shown, it opens that box and no other."""
    return hmac.new(pair_key, ENVKEY_DOMAIN + canonical(_header(env)), hashlib.sha256).digest()


def seal(
    me: Identity,
    table: str,
    seat: int,
    seq: int,
    prev: str,
    topic: str,
    body: Message,
    to: int | None = None,
    key: bytes | None = None,
    heads: Message | None = None,
) -> Message:
    """Build and sign one envelope. For a private one (``to`` set), ``key`` is the pair's key
    (``box_key``) for sender ``seat`` → recipient ``to``; the box is sealed with the envelope's
    own key (``envelope_key``). ``heads``: what the author held (``{"seqs", "hash"}``), stated
    in the envelope (``None``: stated nothing, as before mesh version 6)."""
    if not isinstance(body, dict):
        raise ValueError("a message body must be a dict")
    plain = canonical(body)  # raises ValueError if not JSON-able
    env: Message = {
        "v": VERSION,
        "table": table,
        "from": seat,
        "seq": seq,
        "prev": prev,
        "to": to,
        "topic": topic,
    }
    if heads is not None:
        env["heads"] = heads
    if to is None:
        env["body"] = json.loads(plain)
    else:
        if key is None:
            raise ValueError("a private envelope needs a box key")
        nonce = os.urandom(12)
        ct = ChaCha20Poly1305(envelope_key(key, env)).encrypt(nonce, plain,
                                                               BOX_DOMAIN + canonical(env))
        env["box"] = b64(nonce + ct)
    env["sig"] = b64(me.sign(ENV_DOMAIN + canonical(env)))
    return env


def open_box(env: Message, key: bytes, *, legacy: bool = False, own: bool = False) -> Message:
    """Decrypt a private envelope's body with the pair's key (``box_key``), or with the
    envelope's own key (``own``: ``envelope_key``, as its recipient shows it);
    ``EnvelopeError`` if that fails. ``legacy``: a box of a record made before keys per
    envelope (sealed with the pair's key itself) opens too."""
    try:
        raw = unb64(env["box"], "box")
        if len(raw) < 12 + 16:
            raise ValueError("box too short")
        ad = BOX_DOMAIN + canonical(_header(env))
        try:
            plain = ChaCha20Poly1305(key if own else envelope_key(key, env)).decrypt(
                raw[:12], raw[12:], ad)
        except InvalidTag:
            if not legacy:
                raise
            plain = ChaCha20Poly1305(key).decrypt(raw[:12], raw[12:], ad)
        body = parse_canonical(plain, "private body")
    except (ValueError, InvalidTag) as e:
        raise EnvelopeError(
            f"undecryptable private payload ({e or 'authentication failed'})", env, env.get("from")
        ) from None
    return body


# -- checking ---------------------------------------------------------------------------------


def check_shape(env: Any, seats: int) -> None:
    """Structural checks that need no key; ``EnvelopeError`` with the reason."""
    if not isinstance(env, dict):
        raise EnvelopeError("envelope is not an object")
    seat = env.get("from") if is_int(env.get("from")) else None
    base = {"v", "table", "from", "seq", "prev", "to", "topic", "sig"}
    keys = set(env)
    if "heads" in keys:  # stated since mesh version 6; optional, so old records still load
        keys.discard("heads")
        _check_heads(env, seats, seat)
    if keys == base | {"body"}:
        private = False
    elif keys == base | {"box"}:
        private = True
    else:
        raise EnvelopeError(f"envelope has fields {sorted(keys)}", env, seat)
    if env["v"] != VERSION or not is_int(env["v"]):
        raise EnvelopeError(f"unsupported envelope version {env['v']!r}", env, seat)
    if not _is_hex(env["table"], 32):
        raise EnvelopeError("table id is not 32 hex digits", env, seat)
    if seat is None or not 0 <= seat < seats:
        raise EnvelopeError(f"sender seat {env['from']!r} is not a seat of this table", env)
    if not is_int(env["seq"]) or env["seq"] < 1:
        raise EnvelopeError(f"bad sequence number {env['seq']!r}", env, seat)
    if not _is_hex(env["prev"], 64):
        raise EnvelopeError("prev is not a 64-hex hash", env, seat)
    to = env["to"]
    if private:
        if not is_int(to) or not 0 <= to < seats or to == seat:
            raise EnvelopeError(f"private envelope to bad seat {to!r}", env, seat)
        if not isinstance(env["box"], str):
            raise EnvelopeError("box is not a string", env, seat)
    else:
        if to is not None:
            raise EnvelopeError(
                "an envelope with a plain body must be a broadcast (to: null)", env, seat
            )
        if not isinstance(env["body"], dict):
            raise EnvelopeError("body is not an object", env, seat)
    if not isinstance(env["topic"], str) or not 0 < len(env["topic"]) <= MAX_TOPIC:
        raise EnvelopeError("bad topic", env, seat)
    if not isinstance(env["sig"], str):
        raise EnvelopeError("signature is not a string", env, seat)


def _check_heads(env: Message, seats: int, seat: int | None) -> None:
    """The shape of an envelope's ``heads``: ``{"seqs": [one seq per seat], "hash": 64 hex}``.
    (Its author's own entry is ``seq - 1`` from an honest program; any other is only a
    statement the author's own chain does not bear out, ``Mesh.made_from_ours``.)"""
    heads = env["heads"]
    seqs = heads.get("seqs") if isinstance(heads, dict) else None
    if not isinstance(heads, dict) or set(heads) != {"seqs", "hash"} or \
            not isinstance(seqs, list) or len(seqs) != seats or \
            not all(is_int(n) and n >= 0 for n in seqs) or not _is_hex(heads["hash"], 64):
        raise EnvelopeError("heads is not {seqs: one seq per seat, hash: 64 hex}", env, seat)


def check_signature(env: Message, public_key: bytes) -> None:
    try:
        sig = unb64(env["sig"], "signature")
    except ValueError as e:
        raise EnvelopeError(str(e), env, env.get("from")) from None
    unsigned = {k: v for k, v in env.items() if k != "sig"}
    if len(sig) != 64 or not verify(public_key, sig, ENV_DOMAIN + canonical(unsigned)):
        raise EnvelopeError(f"bad signature for seat {env['from']}", env, env["from"])


def ctl_signature_problem(msg: Message, public_key: bytes) -> str | None:
    """``None`` if the control message ``msg`` (a mesh ``heads``, ``stop``, ...) carries
    ``public_key``'s signature over the rest of it, else why not: the live mesh, a forwarded
    ``vouch`` and a transcript's signed stop all check it so."""
    try:
        sig = unb64(msg.get("sig"), "signature")
        data = CTL_DOMAIN + canonical({k: v for k, v in msg.items() if k != "sig"})
    except (TypeError, ValueError) as e:
        return f"an unreadable signature ({e})"
    return None if verify(public_key, sig, data) else "a bad signature"


def check_foreign(env: Any, table: str, seats: int, key_of: Any) -> tuple[Message, str]:
    """Shape, table and signature of an envelope handed over as evidence, not for one's own
    chain: a live program's check of a forwarded pair, and the audit's of a transcript's fault
    line. ``key_of(seat)`` is that seat's public key (raising ``EnvelopeError`` if it has none).
    The envelope and its hash."""
    check_shape(env, seats)
    if env["table"] != table:
        raise EnvelopeError("evidence from another table", env, env["from"])
    check_signature(env, key_of(env["from"]))
    return env, envelope_hash(env)


def equivocation_of(a: Message, ha: str, b: Message, hb: str) -> str | None:
    """What two envelopes, each checked by ``check_foreign`` (``ha``, ``hb``: their hashes),
    prove against their author, in words -- two different envelopes with one ``seq``, or a
    ``seq + 1`` that does not follow its ``seq`` -- or ``None`` when they prove nothing (one
    envelope twice, two authors, two places an honest chain can hold)."""
    if b["from"] != a["from"] or ha == hb:
        return None
    if a["seq"] == b["seq"]:
        return f"two different envelopes with seq {a['seq']}"
    if b["seq"] == a["seq"] + 1 and b["prev"] != ha:
        return f"seq {b['seq']} does not follow its seq {a['seq']}"
    return None


@dataclass
class Chain:
    """One sender's chain as held by one peer: every envelope by seq (index seq-1) and hashes."""

    seat: int
    envs: list[Message] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)

    @property
    def seq(self) -> int:
        return len(self.envs)

    @property
    def head(self) -> str:
        return self.hashes[-1] if self.hashes else GENESIS

    def get(self, seq: int) -> Message | None:
        return self.envs[seq - 1] if 1 <= seq <= len(self.envs) else None

    def hash_at(self, seq: int) -> str | None:
        if seq == 0:
            return GENESIS
        return self.hashes[seq - 1] if 1 <= seq <= len(self.hashes) else None

    def append(self, env: Message, h: str) -> None:
        assert env["seq"] == self.seq + 1 and env["prev"] == self.head
        self.envs.append(env)
        self.hashes.append(h)


NEW, DUPLICATE, FUTURE = "new", "duplicate", "future"


class Verifier:
    """Checks envelopes for one table against the roster's keys and every sender's chain.

    ``classify(env)`` runs every check that does not change state and says whether ``env`` is the
    sender's next envelope (NEW), one already held (DUPLICATE), or one from further ahead (FUTURE,
    signature checked, to buffer). It raises ``EnvelopeError`` with a reason for a bad envelope and
    ``Equivocation`` when the envelope and one already held are proof of a lying sender.
    ``append`` then records a NEW envelope."""

    def __init__(self, table: str, seats: int, keys: dict[int, bytes]) -> None:
        self.table = table
        self.seats = seats
        self.keys = keys
        self.chains = {s: Chain(s) for s in range(seats)}

    def classify(self, env: Any) -> tuple[str, str]:
        check_shape(env, self.seats)
        seat = env["from"]
        if env["table"] != self.table:
            raise EnvelopeError(
                f"wrong table {env['table']} (this table is {self.table})", env, seat
            )
        key = self.keys.get(seat)
        if key is None:
            raise EnvelopeError(f"seat {seat} has no key yet", env, seat)
        check_signature(env, key)
        h = envelope_hash(env)
        chain = self.chains[seat]
        seq = env["seq"]
        if seq <= chain.seq:
            held = chain.get(seq)
            assert held is not None
            if chain.hash_at(seq) == h:
                return DUPLICATE, h
            raise Equivocation(
                seat, held, env, f"seat {seat + 1} signed two different envelopes with seq {seq}"
            )
        if seq > chain.seq + 1:
            return FUTURE, h
        if env["prev"] != chain.head:
            held = chain.get(chain.seq)
            if held is None:
                raise EnvelopeError(
                    f"broken chain: seat {seat + 1} seq 1 has prev {env['prev'][:12]}…, not genesis",
                    env,
                    seat,
                )
            raise Equivocation(
                seat,
                held,
                env,
                f"broken chain: seat {seat + 1} seq {seq} does not follow its seq {seq - 1}",
            )
        return NEW, h

    def append(self, env: Message, h: str) -> None:
        self.chains[env["from"]].append(env, h)

    def heads(self) -> dict[int, tuple[int, str]]:
        return {s: (c.seq, c.head) for s, c in self.chains.items()}
