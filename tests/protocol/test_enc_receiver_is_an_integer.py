"""Red team 16b: an encrypted share's receiver (``enc[i].to``, SPEC.md 5.4) is a JSON integer.

SPEC.md 2 says ``true``, ``false`` and ``1.0`` are not integers, "whatever a language's ``==``
says". The receivers compared ``enc[i].to`` with ``!=`` alone, so a seat that wrote its
encrypted share for seat 1 as ``"to": true`` (or ``1.0``; seat 0 as ``false`` or ``0.0``) was
taken by every Python seat and by ``p2pcards audit`` while a verifier written from the
SPEC refuses the message: one signed record, two verdicts. Every honest seat now names the
sender at that step, and so does the audit of an honest seat's record.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import CheatDetected, PeerAborted

from .deck_helpers import adversary, first_errors, make_table


@pytest.mark.parametrize(("attacker", "value"), [(0, True), (0, 1.0), (1, False), (1, 0.0)])
def test_a_receiver_written_as_a_bool_or_float_is_named(attacker: int, value: Any) -> None:
    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["step"] == "shares" and body["enc"]:
            assert body["enc"][0]["to"] == value and type(body["enc"][0]["to"]) is int
            body["enc"][0]["to"] = value  # the same receiver, for Python's ==
        return [(None, body)]

    _, peers = make_table(3, 4, tag="enc-to", timeout=2.0, classes={attacker: adversary(tamper)})
    # open slot 0 to seats 0 and 1: each of them encrypts its share to the other
    errors = asyncio.run(first_errors(peers, [lambda p: p.shuffle([0, 1, 2, 3]),
                                              lambda p: p.open([0], [0, 1])]))
    for s in (s for s in range(3) if s != attacker):
        err = errors[s]
        if isinstance(err, PeerAborted):  # the other honest seat stopped first, naming it
            assert err.claimed == attacker, repr(err)
            continue
        assert isinstance(err, CheatDetected), f"seat {s} took the message: {err!r}"
        assert err.peer == attacker and err.step == "shares", repr(err)
    honest = 2
    rec = peers[honest].record()
    verdict = audit(rec["params"], rec["messages"]).verdict
    assert verdict.culprit == attacker and verdict.step == "shares", verdict
