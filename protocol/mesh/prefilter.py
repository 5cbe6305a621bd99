"""What can be told about an envelope from its bytes, before it is parsed: whether they are an
envelope this program holds, or why they cannot be accepted.

Parsing a 42 KB envelope and checking it in full costs 1.4-2.75 ms; a seat that floods copies
of its envelope with one signature character changed, or one space added, made every copy cost
that much (red team 8). This check costs at most one Ed25519 check (0.4 ms for 42 KB on a
slow machine), and a hash of the bytes (0.04 ms) for a changed copy of an envelope we hold,
sent by its author. It never
refuses what the full checks (``parse_canonical``, ``Verifier.classify``) accept: a valid
envelope is canonical JSON with sorted keys, so it ends with the header ``TAIL`` reads (every
top-level field after "body" or "box", with the ``heads`` it states since mesh version 6), and its signature covers exactly its bytes without the
``sig`` field, which sits between ``seq`` and ``table``."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable

from ..envelope import ENV_DOMAIN, Message, Verifier, canonical
from ..identity import verify
from .common import MAX_FUTURE

TAIL = re.compile(
    rb',"from":(?P<from>0|[1-9][0-9]*),'
    rb'(?:"heads":\{"hash":"[0-9a-f]{64}","seqs":\[(?:0|[1-9][0-9]*)(?:,(?:0|[1-9][0-9]*))*\]\},)?'
    rb'"prev":"[0-9a-f]{64}",'
    rb'"seq":(?P<seq>[1-9][0-9]*),"sig":"(?P<sig>[A-Za-z0-9+/]{86}==)",'
    rb'"table":"(?P<table>[0-9a-f]{32})","to":(?:null|0|[1-9][0-9]*),'
    rb'"topic":"(?:[^"\\]|\\.)*","v":1}'
)


class Held:
    """What ``problem`` returns for the bytes of an envelope the verifier holds."""

    def __repr__(self) -> str:
        return "HELD"


HELD = Held()


def unsigned_digest(env: Message) -> bytes:
    """SHA-256 of what an envelope's signature covers (without the domain)."""
    return hashlib.sha256(canonical({k: v for k, v in env.items() if k != "sig"})).digest()


def problem(data: bytes, wire: bytes, verifier: Verifier, sender: int | None = None,
            held_unsigned: Callable[[int, int], bytes] | None = None) -> str | Held | None:
    """Why envelope bytes ``data`` (whose SHA-256 is ``wire``) cannot be accepted, in words;
    ``HELD`` if they are an envelope ``verifier`` holds; ``None`` if only the full checks can
    tell (a valid envelope, or a damaged one that still carries a valid signature).

    ``sender``: the seat of the connection they came on. Its own envelope that we hold, with
    the same content under another signature, is refused without checking that signature
    (``held_unsigned(seat, seq)``: ``unsigned_digest`` of the one we hold): it is the author's
    doing whether that signature is valid or not (an honest program signs an envelope once and
    sends it again as it was), and a valid one changes nothing (the content is the one we
    hold); a split of the table over it is found by comparing heads, with its proof."""
    i = data.rfind(b',"from":')  # a quote inside a canonical string is escaped: not there
    m = TAIL.fullmatch(data, i) if i > 0 else None
    if m is None:
        return "not an envelope in canonical form"
    table = m["table"].decode()
    if table != verifier.table:
        return f"wrong table {table} (this table is {verifier.table})"
    seat, seq = int(m["from"]), int(m["seq"])
    if seat >= verifier.seats:
        return f"sender seat {seat + 1} is not a seat of this table"
    key = verifier.keys.get(seat)
    if key is None:
        return f"seat {seat + 1} has no key yet"
    chain = verifier.chains[seat]
    if seq > chain.seq + MAX_FUTURE:  # (red team 9: signed envelopes numbered 1,000,000)
        return (f"seat {seat + 1}'s message {seq:,}, {seq - chain.seq:,} past the last one this "
                f"program holds: no program runs more than {MAX_FUTURE:,} ahead")
    held = chain.get(seq)
    if held is not None:
        if chain.hash_at(seq) == wire.hex():  # an envelope's hash is that of its bytes
            return HELD
        if held["sig"] == m["sig"].decode():  # other bytes under the signature of ours
            return (f"a changed copy of seat {seat + 1}'s message {seq}, under that "
                    "message's signature")
    unsigned = data[: m.start("sig") - 7] + data[m.end("sig") + 2:]  # '"sig":"' and '",'
    if held is not None and sender == seat and held_unsigned is not None and \
            hashlib.sha256(unsigned).digest() == held_unsigned(seat, seq):
        return f"a copy of its own message {seq} with its signature changed"
    sig = base64.b64decode(m["sig"])
    if not verify(key, sig, ENV_DOMAIN + unsigned):
        return (f"a bad signature for seat {seat + 1}'s message {seq} (or not in canonical "
                "form)")
    return None
