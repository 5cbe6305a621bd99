"""Every peer's message is hostile: a seat that puts any JSON value at any place of any message it
sends (a field, a list entry, a proof part, nested or not) is caught at that step and named by
every honest seat, which never names another honest seat and never crashes. The one case where a
seat names nobody at once (an echo that misstates a third seat's commitment, SPEC 5.5) is
settled by that seat's own public record, which the audit reads. The audit's
counterpart is ``test_audit.py``'s property test; this one attacks the live receivers.

Quick in the suite; ``P2PCARDS_LONG=1`` tries twenty times as many."""

from __future__ import annotations

import asyncio
import os
import random
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import CheatDetected, DeckError, DeckTimeout, Equivocation, PeerAborted

from .deck_helpers import HOSTILE, adversary, at, first_errors, make_table, places

EXAMPLES = 240 if os.environ.get("P2PCARDS_LONG") == "1" else 12


@settings(max_examples=EXAMPLES, deadline=None)
@given(attacker=st.integers(0, 2), nth=st.integers(0, 5), pick=st.integers(0, 2**32),
       value=HOSTILE)
@example(attacker=0, nth=3, pick=1, value=True)  # slot 1 written as true: Python's 1 == True
def test_any_value_anywhere_in_a_message_is_named_by_every_honest_seat(
        attacker: int, nth: int, pick: int, value: Any) -> None:
    changed: list[bool] = []

    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        peer.count = getattr(peer, "count", 0) + 1
        if peer.count - 1 == nth:
            path = random.Random(pick).choice(places(body))
            old = at(body, path)
            at(body, path[:-1])[path[-1]] = value
            changed.append(value != old or type(value) is not type(old))
        return [(None, body)]

    _, peers = make_table(3, 6, tag="hostile", timeout=2.0,
                          classes={attacker: adversary(tamper)})

    errors = asyncio.run(first_errors(peers, [
        lambda p: p.shuffle(list(range(6))), lambda p: p.open([0], [1]),
        lambda p: p.open([1, 2], [0, 2]), lambda p: p.random(5), lambda p: p.open_all([3])]))
    honest = [s for s in range(3) if s != attacker]
    if not changed or not changed[0]:
        assert all(errors[s] is None for s in honest), errors  # nothing changed: play goes on
        return
    for s in honest:
        err = errors[s]
        assert isinstance(err, DeckError), f"seat {s} raised or went on: {err!r}"
        if isinstance(err, PeerAborted):  # another honest seat stopped first, naming the attacker
            assert err.peer in honest and err.claimed == attacker, repr(err)
        elif isinstance(err, Equivocation) and err.peer is None:
            # SPEC 5.5: a third seat that finds an echo misstating another seat's commitment
            # cannot tell alone which of the two lied, so it names nobody at once; the public
            # record it keeps settles it (the mesh proves any real equivocation)
            rec = peers[s].record()
            assert audit(rec["params"], rec["messages"]).verdict.culprit == attacker, repr(err)
        else:
            assert isinstance(err, (CheatDetected, DeckTimeout, Equivocation)), repr(err)
            assert err.peer == attacker, f"seat {s} named seat {err.peer}: {err!r}"
