"""Red team 19, #2, at a real table (play_seat, Go Out Girl, easy bots): the link between alice
and bob is cut both ways (bad luck), so carol, the only seat hearing both, carries all they
say to each other -- and holds each thing she carries back for a while (her relays and the
others' signed heads she forwards, each signed when sent), under the time that would mark the
other away. Timings are the tests' (ten times a real table's); the deck's allowance and
lateness budget are scaled alike (0.3 s and 3 s for 3 s and 120 s), and carol's delay is 1 s
(a real table's 4-5 s, under the 6 s that mark a seat away).

Before: each of alice and bob saw the other send its deck messages late again and again, and
named them ("bob: sent its deck messages late again and again (3 s in all beyond 0.3 s a
message ...)"), two runs of two at three seats; at four seats (dave hears everyone) alice named
bob, and bob, carol and dave named alice on her stop. carol was named by nobody. Now a seat
whose messages reach a program only through the others (``Mesh.out_of_reach``) is not charged
their lateness there (``PatientChannel._carried``): the delay may be the carrier's. At three
seats nobody names alice or bob; at four the match is played to its end (slower), nobody
named. ``P2PCARDS_LONG=1`` plays four deals of each (the suite: one, at three seats)."""

from __future__ import annotations

import asyncio
import os

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import play_seat
from p2pcards.table import TableResult, TableStopped
from protocol.mesh.common import K_RELAY
from tests.mesh.helpers import close_all, run_async
from tests.table.test_forked_move import cut_between_alice_and_bob
from tests.table.test_table_rules import honest_results, table_of

pytestmark = pytest.mark.network
ALICE, BOB, CAROL = 0, 1, 2
DELAY = 1.0
LONG = os.environ.get("P2PCARDS_LONG") == "1"
SEEDS = range(4) if LONG else range(1)


def hold_back_what_she_carries(carol) -> None:
    """carol's program: every envelope it relays to alice or bob, and every other seat's heads
    it forwards to them (``vouch``, signed when it goes), leaves ``DELAY`` seconds late."""
    loop = asyncio.get_running_loop()
    send_frames, send_ctl = carol._send_frames, carol._send_ctl

    def frames_out(seat, frames):
        if seat in (ALICE, BOB) and frames[:1] == [K_RELAY]:
            loop.call_later(DELAY, send_frames, seat, frames)
        else:
            send_frames(seat, frames)

    def ctl_out(seat, t, payload):
        if seat in (ALICE, BOB) and t == "vouch":
            loop.call_later(DELAY, send_ctl, seat, t, payload)
        else:
            send_ctl(seat, t, payload)
    carol._send_frames, carol._send_ctl = frames_out, ctl_out


@pytest.mark.slow  # (goes first: tests/conftest.py)
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("seats", [3, 4] if LONG else [3])  # four: 50 s a match, slowed
@run_async(timeout=180)
async def test_a_seat_that_delays_what_it_carries_gets_no_honest_seat_named_late(tmp_path, seats,
                                                                                  seed):
    meshes = await table_of(tmp_path, seats)
    cut_between_alice_and_bob(meshes)
    hold_back_what_she_carries(meshes[CAROL])

    def seat(m):
        return play_seat(m, make_bot("go-out-girl", m.seat, "easy", seed + m.seat),
                         say=lambda s: None, deck_timeout=30, late_after=0.3, late_budget=3.0)
    try:
        results = await honest_results(meshes, seat, liar=CAROL)
        honest = [r for i, r in enumerate(results) if i != CAROL]
        assert all(isinstance(r, (TableResult, TableStopped)) for r in honest), results
        blamed = {r.culprit for r in honest if isinstance(r, TableStopped)}
        blamed |= {m.stopped.culprit for i, m in enumerate(meshes)
                   if i != CAROL and m.stopped is not None}
        assert not blamed - {None, CAROL}, [str(r) for r in honest]
        if seats == 4:  # dave hears everyone: the match is played to its end
            assert all(isinstance(r, TableResult) for r in honest), [str(r) for r in honest]
    finally:
        await close_all(meshes)
