"""Red team 14, stalling with moves sent ahead: the player to move never plays the step the table
is at, but sends, just inside the others' turn limit each time, a move for a later step. Each such
move used to start the others' clock on the turn afresh (up to ``MAX_AHEAD`` = 10,000 steps ahead:
over a month at the default 330 s a turn), and nobody was ever named. Written as the attacker, a
modified client over the real mesh on 127.0.0.1."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import GameInfo, play_seat
from p2pcards.table import TableStopped

from .helpers import close_all, make_table, run_async

pytestmark = pytest.mark.network

AHEAD_EVERY = 2.0  # the attacker's pace: a move for a later step every 2 s (the limit is 3 s)
AHEAD_MOST = 8  # then it stops (so that the old code ends too, 8 turn limits later)


@run_async(timeout=90)
async def test_moves_for_later_steps_do_not_restart_the_clock_on_a_turn(tmp_path, monkeypatch):
    import p2pcards.lobby as lobby
    import protocol.mesh.channel as mesh_channel

    monkeypatch.setattr(lobby, "TURN_GRACE", 2.0)  # the others wait 1 s + 2 s for a move
    monkeypatch.setattr(lobby, "CLAIM_WINDOW", 6.0)  # (as in test_stalling: a loaded machine)
    monkeypatch.setattr(mesh_channel, "CLAIM_WINDOW", 6.0)
    info = GameInfo("go-out-girl", 3, {}, wait=120.0, turn_time=1.0).to_json()
    meshes = await make_table(tmp_path, 3, game_info=info)
    host, bob, carol = meshes
    real_broadcast = bob.channel.broadcast
    ahead: list[int] = []  # the steps bob sent moves for, ahead of the table
    stopped_after: list[int] = []  # how many moves ahead bob had sent when the table stopped
    tasks: list[asyncio.Task] = []

    async def keep_ahead(move: dict) -> None:
        for k in range(1, AHEAD_MOST + 1):
            await asyncio.sleep(AHEAD_EVERY)
            if runs[0].done() or runs[2].done():
                return
            ahead.append(move["step"] + k)
            await real_broadcast("game", {**move, "step": move["step"] + k})

    async def broadcast(topic, body):
        if topic != "game":
            return await real_broadcast(topic, body)
        if not tasks:  # bob's first move is never sent; moves for the steps after it are
            tasks.append(asyncio.create_task(keep_ahead(body)))

    bob.channel.broadcast = broadcast
    bob.stop = lambda *a, **k: None  # bob's program never stops the table (its own clocks run out)
    runs = [asyncio.create_task(play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                                          say=lambda s: None)) for m in meshes]

    async def watch() -> None:
        while not (runs[0].done() or runs[2].done()):
            await asyncio.sleep(0.05)
        stopped_after.append(len(ahead))

    watcher = asyncio.create_task(watch())
    try:
        results = await asyncio.gather(runs[0], runs[2], return_exceptions=True)
        await watcher
        assert all(isinstance(r, TableStopped) for r in results), results
        assert all(r.culprit == 1 and "bob's program did not play its turn" in r.reason
                   for r in results), results
        # bob is named on the turn's own limit (3 s, one move ahead sent at 2 s), not after
        # every move ahead he cared to send (the old code: after all 8, some 19 s later)
        assert stopped_after[0] < AHEAD_MOST // 2, (stopped_after, ahead)
    finally:
        for t in (*tasks, *runs, watcher):
            t.cancel()
        await close_all(meshes)


@run_async(timeout=30)
async def test_deck_messages_for_later_operations_do_not_restart_a_drippers_clock():
    """The deck's slow-drip clock had the same fault. A wait on a seat's deck message beyond
    ``DECK_ALLOWANCE`` (3 s) counts against it, past ``DECK_LATE_BUDGET`` (120 s) over the
    match it is named; but every message of the seat's ended its wait, and the deck, having
    filed a message for a later operation (up to 64 ahead, checked only once reached), waited
    again from naught. A dripper holding each message just under the deck's minute and sending
    every 2.9 s a message for an operation far ahead was charged nothing: 59 s a message, some
    90 minutes a match, named by nobody. Scaled: an allowance of 0.2 s and a budget of 1 s; the
    dripper holds its key share 2 s, sending a message for a later operation every 0.15 s.
    Now the wait is the awaited message's (its operation and step) and the dripper is named
    during it, as in ``test_stalling``."""
    from p2pcards.lobby import PatientChannel
    from protocol.deck import DeckPeer
    from protocol.errors import DeckTimeout
    from protocol.params import TOPIC
    from protocol.steps import envelope
    from tests.protocol.deck_helpers import SPEC, TABLE, MeshLikeHub, seed

    from .test_stalling import _Present

    ahead_sent: list[int] = []

    class Dripper(DeckPeer):
        async def _bcast(self, op, desc, step, /, **fields):
            body = envelope(op, desc, step, self.seat, **fields)
            for k in range(13):  # 13 x 0.15 s: about 2 s
                await asyncio.sleep(0.15)
                ahead_sent.append(op + 20 + k)
                await self.ch.broadcast(TOPIC, {**body, "op": op + 20 + k})
            return await super()._bcast(op, desc, step, **fields)

    hub = MeshLikeHub(2)
    honest = DeckPeer(PatientChannel(hub.channel(0), _Present(), late_after=0.2, late_budget=1.0),
                      TABLE, SPEC, 8, seed(0), timeout=10.0)
    dripper = Dripper(hub.channel(1), TABLE, SPEC, 8, seed(1), timeout=10.0)
    drip = asyncio.create_task(dripper.start())
    try:
        with pytest.raises(DeckTimeout) as named:
            await honest.start()
        assert named.value.peer == 1 and "late again and again" in named.value.reason
        # named during the wait (1.2 s in), not after the 2 s the dripper held its share
        assert len(ahead_sent) < 13, ahead_sent
    finally:
        drip.cancel()
        await asyncio.gather(drip, return_exceptions=True)
