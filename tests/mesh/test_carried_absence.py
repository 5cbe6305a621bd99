"""An honest player reached only through a withholding carrier is never named (docs/network.md,
"Leaving, waiting, and the clock": "A player your program hears only through others").

Three seats at the tests' timings (a seat is marked away 1.5 s after the last word of it), the
link between alice and bob cut both ways, carol the only path between them. Carol withholds
alice's words from bob, so bob's forwarded word never echoes a recent one of alice's (the echo
starved): at alice, honest bob is waited for as away, his messages carried all along. Alice
cannot tell that from bob leaving. Before, past the table's wait her program ended the match
naming bob ("bob was away and did not come back within 0:02"); now it names nobody and says
why, naming the carrier.

The other side, as the attacker: bob, a staller, cuts his own sends to alice (so that she hears
him only through carol, and names nobody), then stalls. Carol hears him directly and names him:
the cheat is still caught by the honest program that hears him, and alice shows carol's stop as
carol's claim, naming nobody herself. At four seats the same holds for every program that hears
him directly."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.absence import _watch_absence
from p2pcards.audit import audit_transcript
from tests.mesh.helpers import close_all, make_table, run_async, short_claim_window, until
from tests.mesh.test_hoarded_presence import bob_heard_only_through_carol
from tests.table.test_forked_move import cut_between_alice_and_bob

pytestmark = [pytest.mark.network, pytest.mark.slow]  # waits on timers: goes first (tests/conftest.py)
ALICE, BOB, CAROL, DAVE = range(4)
WAIT = 2.0  # the table's wait (seconds)


def watch(meshes, seats, said):
    return [asyncio.create_task(_watch_absence(meshes[s], WAIT, said[s].append, bot=True))
            for s in seats]


@run_async(timeout=60)
async def test_an_honest_seat_whose_carrier_starves_its_echo_is_not_named(tmp_path):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    said: dict[int, list[str]] = {s: [] for s in range(3)}
    tasks = []
    try:
        await bob_heard_only_through_carol(meshes)
        real_send = carol._send_frames

        def starve(seat, frames):  # alice's words never reach bob; all else is carried
            if seat == BOB and b'"t":"vouch"' in frames[-1] and b'"from":0' in frames[-1]:
                return
            real_send(seat, frames)

        carol._send_frames = starve
        tasks = watch(meshes, (ALICE, BOB), said)
        await until(lambda: BOB in alice.away, 8.0, "bob away at alice")
        # bob's messages are carried to alice all along: he is there
        await bob.channel.broadcast("hist", {"i": 1})
        await until(lambda: alice.verifier.chains[BOB].seq == bob.verifier.chains[BOB].seq, 5.0,
                    "bob's message at alice")
        # the wait, and the moment more given to the seats that hear the one away directly
        # (away_after, 1.5 s): some 4 s from here; give it 15. (Bob hears alice only through
        # carol too, and carol withholds her words from him altogether: at bob, alice is away
        # as well, and his program may be the first to stop, naming nobody for the same reason)
        await until(lambda: all(m.stopped is not None for m in meshes), 15.0,
                    "the match to stop everywhere")
        first = next(m for m in meshes if m.stopped.by == m.seat)
        st = first.stopped
        gone = "bob" if first.seat == ALICE else "alice"
        # on main: alice's program stopped the match "bob was away and did not come back within
        # 2 s", naming bob (or bob's, naming alice)
        assert st.culprit is None, st
        assert f"{gone} was away" in st.reason and "only through carol" in st.reason, st.reason
        assert f"cannot tell {gone} leaving from carol not passing {gone}'s messages on" \
            in st.reason, st.reason
        assert st.reason.endswith("the match ends naming nobody"), st.reason
        await asyncio.sleep(0.5)
        for m in meshes:  # nobody names alice or bob, nor shows a claim that does
            assert m.stopped.culprit is None and m.stopped.claimed is None, (m.seat, m.stopped)
            stops = [e for e in m.events if e.kind == "stop"]
            assert stops and all(e.seat is None for e in stops), (m.seat, stops)
        # the record and its audit say the same: a stop naming nobody, with the stopper's reason
        rep = audit_transcript(str(first.transcript_path))
        assert rep.to_json()["culprit"] is None
        line = [d for w, ok, d in rep.checks if w == "the table stopped"]
        assert line and line[0].startswith(st.reason) and "no culprit recorded" in line[0], line
    finally:
        for t in tasks:
            t.cancel()
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_carrier_starving_the_echo_from_the_cut_on_gets_nobody_named_once_moves_pass(
        tmp_path):
    """Carol starves the echo from the very moment the link is cut (no word of bob's shows
    alice that he heard one of hers since), but the game goes on: bob's and alice's moves are
    carried, and each states what its author held. Bob's next move states alice's move made
    after the cut: his program was there, and reached her only through carol. On main alice's
    program named bob; now nobody is named, at either end."""
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    said: dict[int, list[str]] = {s: [] for s in range(3)}
    tasks = []
    try:
        await asyncio.sleep(1.0)
        real_send = carol._send_frames

        def starve(seat, frames):  # neither's words reach the other: only their messages
            if seat in (ALICE, BOB) and b'"t":"vouch"' in frames[-1]:
                return
            real_send(seat, frames)

        carol._send_frames = starve
        cut_between_alice_and_bob(meshes)
        tasks = watch(meshes, (ALICE, BOB), said)
        await asyncio.sleep(1.0)  # the link down for a while: then the moves go on
        for mover, other in ((alice, bob), (bob, alice), (alice, bob)):
            await mover.channel.broadcast("hist", {"i": mover.seat})
            await until(lambda m=mover, o=other: o.verifier.chains[m.seat].seq
                        == m.verifier.chains[m.seat].seq, 5.0, "the move carried")
        await until(lambda: all(m.stopped is not None for m in meshes), 15.0,
                    "the match to stop everywhere")
        for m in meshes:  # on main: alice named bob, or bob named alice
            assert m.stopped.culprit is None and m.stopped.claimed is None, (m.seat, m.stopped)
        first = next(m for m in meshes if m.stopped.by == m.seat)
        assert "only through carol" in first.stopped.reason, first.stopped.reason
    finally:
        for t in tasks:
            t.cancel()
        await close_all(meshes)


async def _staller_cuts_alice_then_stalls(tmp_path, monkeypatch, n: int) -> None:
    short_claim_window(monkeypatch)
    meshes = await make_table(tmp_path, n)
    alice, bob = meshes[ALICE], meshes[BOB]
    said: dict[int, list[str]] = {s: [] for s in range(n)}
    tasks = []
    try:
        real_send = bob._send_frames
        bob._send_frames = lambda seat, frames: None if seat == ALICE else real_send(seat, frames)
        # alice hears bob through the others now (his word forwarded, fresh): not away
        await until(lambda: BOB in alice._quiet_seats(), 8.0, "bob quiet at alice")
        await asyncio.sleep(1.0)
        assert BOB not in alice.away
        tasks = watch(meshes, [s for s in range(n) if s != BOB], said)
        bob._send_frames = lambda seat, frames: None  # ... and now bob stalls
        await until(lambda: all(m.stopped is not None for m in meshes if m.seat != BOB), 15.0,
                    "every honest program to stop the match")
        honest = [m for m in meshes if m.seat not in (ALICE, BOB)]
        # every program that hears bob directly names him itself (its own count, or a claim it
        # checks and finds itself)
        named = [m.seat for m in honest if m.stopped.culprit == BOB]
        assert named, [(m.seat, m.stopped) for m in honest]
        for m in honest:
            assert m.stopped.culprit == BOB or m.stopped.claimed == BOB, (m.seat, m.stopped)
        # alice never names him herself: she shows a direct hearer's claim, or names nobody
        assert alice.stopped.culprit is None, alice.stopped
        assert "bob" in alice.stopped.reason, alice.stopped
    finally:
        for t in tasks:
            t.cancel()
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_staller_heard_only_through_others_at_one_program_is_named_by_the_one_hearing_him(
        tmp_path, monkeypatch):
    await _staller_cuts_alice_then_stalls(tmp_path, monkeypatch, 3)


@run_async(timeout=60)
async def test_at_four_seats_every_program_hearing_the_staller_directly_names_him(
        tmp_path, monkeypatch):
    await _staller_cuts_alice_then_stalls(tmp_path, monkeypatch, 4)


@run_async(timeout=60)
async def test_a_seat_that_went_away_on_a_working_link_is_still_named(tmp_path):
    """What the rule leaves as it was: bob's own frames reached alice to the end (no cut), and
    he stalls: alice names him past the wait, as before."""
    meshes = await make_table(tmp_path, 3)
    alice, bob = meshes[ALICE], meshes[BOB]
    said: dict[int, list[str]] = {s: [] for s in range(3)}
    tasks = []
    try:
        await asyncio.sleep(1.0)
        tasks = watch(meshes, (ALICE,), said)
        bob._send_frames = lambda seat, frames: None
        await until(lambda: alice.stopped is not None, 15.0, "alice's program to stop the match")
        assert alice.stopped.culprit == BOB, alice.stopped
    finally:
        for t in tasks:
            t.cancel()
        await close_all(meshes)

