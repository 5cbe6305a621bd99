"""A transcript's ``fault`` lines, checked the way a live program checks evidence it is handed.

A ``fault`` line is written by the transcript's own program and is not signed: anyone who can
edit the file can add one. What makes it evidence is the signed envelopes it holds, and the
mesh already has the check for that: ``ChainMixin._on_evidence`` (``protocol/mesh/chain.py``),
which a live program runs on a pair another peer forwards to it -- each envelope's shape, table
and signature (one spelling of it) against the author's key, the same author, different hashes,
and one place in the author's chain (the same ``seq``, or a ``seq + 1`` that does not follow).
A transcript is exactly such a forwarder, so the reader runs that very check on each fault line,
through ``_Evidence`` below, and does not write a second one.

The mesh imports ``protocol.transcript``, so ``protocol.transcript`` imports this module only
when a file holds a fault line.
"""

from __future__ import annotations

from dataclasses import dataclass

from .envelope import EnvelopeError, Message, is_int
from .mesh.chain import ChainMixin


@dataclass(frozen=True)
class _Key:
    key: bytes


class _Keys(dict[int, _Key]):
    """The roster's keys as the mesh's ``_members``; a seat without one is refused in words."""

    def __missing__(self, seat: int) -> _Key:
        raise EnvelopeError(f"seat {seat + 1} has no key in the roster", None, seat)


class _Evidence(ChainMixin):
    """The mesh's own evidence check, run on a transcript line: ``ChainMixin._on_evidence`` and
    ``_check_foreign`` unchanged, with what they read of a live mesh (table, seats, members'
    keys) taken from the transcript, and their two outcomes (a proven equivocation, a refusal)
    kept here instead of stopping a table or writing a log line."""

    def __init__(self, table: str, seats: int, keys: dict[int, bytes]) -> None:
        self.table = table
        self.seats = seats
        self._members = _Keys({s: _Key(k) for s, k in keys.items()})
        self.proven: int | None = None
        self.refused = ""

    def _drop(self, reason: str, level: int = 0) -> None:
        self.refused = reason

    def _equivocation(self, seat: int, first: Message, second: Message, reason: str) -> None:
        self.proven = seat


def check_fault(rec: Message, table: str, seats: int, keys: dict[int, bytes]) -> str | None:
    """``None`` if the fault line ``rec`` holds the proof it claims against its ``seat``, else why
    not, in words.

    - ``first`` and ``second``: an equivocation proof, checked by the mesh's evidence check; it
      must prove the seat the line names.
    - ``first`` alone: a message the program judged at the time (``ChainMixin._fault``: a
      private message on a topic every seat must get, a private payload it could not open); it
      must be an envelope validly signed by that seat. What was wrong with it is the program's
      own finding, for the audit to weigh; the signature only shows the seat sent it.
    """
    seat, first, second = rec.get("seat"), rec.get("first"), rec.get("second")
    if not (is_int(seat) and 0 <= seat < seats):
        return f"it names no seat of this table ({seat!r:.20})"
    if first is None:
        return "it holds no signed message"
    check = _Evidence(table, seats, keys)
    for which, env in (("its first message", first), ("its second message", second)):
        if env is None:
            continue
        try:
            check._check_foreign(env)
        except EnvelopeError as e:
            return f"{which} does not verify ({e.reason})"
        if env["from"] != seat:
            return f"{which} is signed by seat {env['from'] + 1}, not by the seat the line names"
    if second is None:
        return None
    check._on_evidence(seat, {"first": first, "second": second})
    if check.proven is None:
        return ("its two messages are no proof: they are the same message, or two that can "
                "both come from an honest program (different places in its chain)")
    return None

