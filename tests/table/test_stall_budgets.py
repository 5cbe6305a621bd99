"""Red team (round 3), stalling within every clock: a seat that goes away for just under the
table's wait before every step, and one that holds every deck message just inside the part of
the deck's timeout that was free. Written as the attacker, over the real mesh on 127.0.0.1,
with the clocks scaled down; plus the honest cases that must still be waited for."""

from __future__ import annotations

import asyncio
import time

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import GameInfo, play_seat
from p2pcards.table import TableStopped
from tests.mesh.helpers import AwayInSpells, close_all, make_table, run_async

pytestmark = pytest.mark.network


async def table_of(tmp, n, wait, turn_time=None):
    info = GameInfo("go-out-girl", n, {}, wait=wait, turn_time=turn_time).to_json()
    return await make_table(tmp, n, game_info=info)


@pytest.mark.slow  # (goes first: tests/conftest.py)
@run_async(timeout=120)
async def test_a_seat_away_for_just_under_the_wait_before_every_step_is_named(tmp_path):
    """Bob sends nothing at all (no heads, no envelopes) for a while before the first message
    he sends at each new table step, then comes back and sends it. Each spell away is shorter
    than the table's wait, and the game moves after each, so "away since the game last moved"
    never ran out: at the default 2:00 wait, about 2 minutes a step, hours a match, nobody
    named. Now a seat's absences add up over the match: past three times the wait in all it
    is named by every honest program (on its own clock, or, a moment short of the allowance
    when his last spell ends, by showing the other's claim)."""
    wait = 2.0
    meshes = await table_of(tmp_path, 3, wait, turn_time=3.0)
    host, bob, carol = meshes
    silent = [False]
    real_frames = bob._send_frames

    def frames(seat, fr):
        if not silent[0]:
            real_frames(seat, fr)

    bob._send_frames = frames
    tables: dict[int, object] = {}
    held = {"n": 0, "last": None}
    real_send = bob._send

    async def send(to, topic, body):
        t = tables.get(1)
        if topic in ("deck", "game") and t is not None and t.step != held["last"]:
            held["last"] = t.step
            silent[0] = True
            await asyncio.sleep(3.0)  # quiet 3 s: marked away after 1.5 s, so away ~1.5 s < 2 s
            silent[0] = False
            held["n"] += 1
            bob._link_all(force=True)  # "I am back"
        return await real_send(to, topic, body)

    bob._send = send
    said: dict[int, list[str]] = {0: [], 2: []}
    runs = [asyncio.create_task(play_seat(
        m, make_bot("go-out-girl", m.seat, "random", m.seat), bot=True,
        say=said[m.seat].append if m.seat in said else (lambda s: None),
        on_table=lambda tb, s=m.seat: tables.__setitem__(s, tb))) for m in meshes]
    try:
        results = await asyncio.gather(runs[0], runs[2], return_exceptions=True)
        assert all(isinstance(r, TableStopped) for r in results), results
        assert all("away too often" in r.reason for r in results), [r.reason for r in results]
        assert held["n"] >= 3  # several spells, each shorter than the wait
        # each program names bob on its own clock; one of them may show the other's claim
        # naming him instead, when his last spell ended a moment before its own count crossed
        # the allowance (the race test_stall_coalition met on a clean clone); never anyone else
        stops = [host.stopped, carol.stopped]
        assert all(st is not None and (st.culprit if st.culprit is not None else st.claimed) == 1
                   for st in stops), stops
        assert any(st.culprit == 1 and st.claimed is None for st in stops), stops
        # while he was away, everyone was told how much of his allowance he had used
        assert any("in all this match" in line for line in said[0] + said[2]), said[0]
    finally:
        runs[1].cancel()
        await close_all(meshes)


async def watch(fake, wait, seconds, progress):
    from p2pcards.absence import _watch_absence

    async def flicker():
        while True:
            fake.tick()
            await asyncio.sleep(0.05)

    said: list[str] = []
    task = asyncio.create_task(flicker())
    try:
        await asyncio.wait_for(_watch_absence(fake, wait, said.append, bot=False,
                                              progress=progress), seconds)
    except TimeoutError:
        pass
    finally:
        task.cancel()
    return said


@run_async(timeout=30)
async def test_a_few_short_absences_are_waited_for_and_the_same_again_and_again_are_named():
    """Two watchers side by side (the clocks are the test's waits: they overlap, each on its own
    seat and its own clock).

    Honest: a link cut once for most of the wait, then two short drop-outs, with the game moving
    in between: about 1.6 waits away in all, below the match's allowance (3 waits). Nobody is
    named, and the reminder says how much of the allowance the seat has used.

    Stalling: the same short spells, repeated (each under the wait, the game moving in
    between), run out the match's allowance: the seat is named, in words that say it was away
    too often."""
    honest = AwayInSpells([(0.0, 2.4), (3.5, 4.5), (5.5, 6.5)])
    stalling = AwayInSpells([(2.0 * i, 2.0 * i + 1.6) for i in range(7)])
    clock = time.monotonic()
    said, _ = await asyncio.gather(
        watch(honest, 3.0, 8.0, progress=lambda: int(time.monotonic() - clock)),
        watch(stalling, 2.0, 14.0, progress=lambda: int(time.monotonic() - clock)))
    assert honest.stopped is None, honest.stopped
    # the reminder tells bob apart from a look-alike name, as a line that blames him would
    assert any("waiting for bob (seat 2, FAKE-2): away" in s and "in all this match" in s
               for s in said), said
    # ...and what happens when it runs out (it said how much was used, not what then)
    assert any("in all this match; past either, the match ends naming them" in s
               for s in said), said
    assert stalling.stopped is not None and stalling.stopped.culprit == 1, stalling.stopped
    assert "away too often" in stalling.stopped.reason and "in all" in stalling.stopped.reason
    # what the screens show of it: none of his time away for the match was left at the stop
    from p2pcards.absence import match_left
    assert match_left(stalling) == {1: 0.0}, match_left(stalling)


@run_async(timeout=120)
async def test_a_seat_that_holds_every_deck_message_just_inside_the_free_part_is_named(
        tmp_path, monkeypatch):
    """Slow drip: only the part of a deck wait beyond half the deck's timeout (30 s of 60 s)
    was charged, so holding every deck message 29.5 s was free: 45-90 minutes a match, nobody
    named. Deck messages are made by programs, not people: now every wait beyond a small
    allowance (3 s a message; an honest step takes well under 1 s here, see docs/network.md)
    counts against the seat's budget over the match, and it is named when that runs out.
    Scaled: deck timeout 4 s, the drip 1.9 s (just under half of it, free before), the
    allowance 0.3 s and the budget 3 s."""
    import p2pcards.lobby as lobby

    monkeypatch.setattr(lobby, "DECK_ALLOWANCE", 0.3, raising=False)
    monkeypatch.setattr(lobby, "DECK_LATE_BUDGET", 3.0, raising=False)
    meshes = await table_of(tmp_path, 3, 120.0, turn_time=5.0)
    host, bob, carol = meshes
    real_send = bob._send

    async def dripping(to, topic, body):
        if topic == "deck":
            await asyncio.sleep(1.9)
        return await real_send(to, topic, body)

    bob._send = dripping
    runs = [asyncio.create_task(play_seat(m, make_bot("go-out-girl", m.seat, "random", m.seat),
                                          say=lambda s: None, deck_timeout=4.0, bot=True))
            for m in meshes]
    try:
        done, _ = await asyncio.wait([runs[0], runs[2]], timeout=60)
        assert len(done) == 2, "the match is still held by the drip after 60 s"
        results = [r.exception() or r.result() for r in (runs[0], runs[2])]
        assert all(isinstance(r, TableStopped) for r in results), results
        assert all(r.culprit == 1 and "late again and again" in r.reason for r in results), \
            [(r.culprit, r.reason) for r in results]
    finally:
        runs[1].cancel()
        await close_all(meshes)
