"""Red team 14, a bot's seat: ``p2pcards bot`` gave up once some seat had been away for its
``--patience`` (30 minutes) in a row, whatever the table's own wait (``host --wait``, up to a
day). At a table that waits longer for an absent player (say an hour), carol away for 31 minutes
-- within the table's rules -- made the host's bot give up and leave; carol came back, and the
table waited for the bot, which never came, and named it "left the table and did not come back":
an honest program named, and the match lost. Now a bot waits at least as long as the table can
wait for absent players before it ends the match itself. Played over the real mesh on
127.0.0.1, scaled: a patience of 1 s, a table wait of 8 s, carol silent for 4 s."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.botseat import bot_seat
from p2pcards.lobby import GameInfo, play_seat
from protocol.mesh import Mesh, MeshError, Timings

from .helpers import LOOPBACK, close_all, identity, run_async

pytestmark = pytest.mark.network


async def _table_with_a_bot(tmp_path, monkeypatch, names: list[str], wait: float):
    """A table of ``names`` (alice the host) and a bot that joins as ``robo``, patient for 1 s,
    every mesh on the tests' fast timings. Returns the people's meshes, the set of names whose
    frames are dropped while they are in it (their link cut), and the bot's task (its result,
    or the ``MeshError`` it gave up with)."""
    real_join = Mesh.join.__func__

    async def join(cls, *args, timings=None, **kw):  # the bot's mesh too: the tests' fast timings
        return await real_join(cls, *args, timings=timings or Timings.fast(), **kw)

    monkeypatch.setattr(Mesh, "join", classmethod(join))
    info = GameInfo("go-out-girl", len(names) + 1, {}, wait=wait).to_json()
    host = await Mesh.host(identity(tmp_path, 0), len(names) + 1, bind=LOOPBACK,
                           timings=Timings.fast(), name=names[0], game_info=info)
    meshes = [host]
    for i, name in enumerate(names[1:], 1):
        meshes.append(await Mesh.join(identity(tmp_path, i), host.address, host.code, name,
                                      bind=LOOPBACK))
    muted: set[str] = set()
    for m in meshes[1:]:
        def send_frames(seat, frames, m=m, real=m._send_frames):
            if m.name not in muted:
                real(seat, frames)
        m._send_frames = send_frames

    async def the_bot():
        try:
            return await bot_seat(host.address.removeprefix("tcp://"), host.code, "robo",
                                  level="easy", bind=LOOPBACK, json_result=True, patience=1.0,
                                  home=str(tmp_path / "bot"))
        except MeshError as exc:
            return exc

    return meshes, muted, asyncio.create_task(the_bot())


async def _play_on(meshes, bot) -> None:
    """Everyone plays the match out: the bot played on (never gave up) and all audit clean."""
    runs = [play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat), say=lambda s: None)
            for m in meshes]
    results = await asyncio.gather(*runs, bot, return_exceptions=True)
    assert not isinstance(results[-1], BaseException), results[-1]  # the bot played on
    assert all(r.verdict is not None and r.verdict.clean for r in results), results


@run_async(timeout=120)
async def test_a_bot_waits_for_an_absent_player_as_long_as_the_table_does(tmp_path, monkeypatch):
    meshes, muted, bot = await _table_with_a_bot(tmp_path, monkeypatch, ["alice", "carol"], 8.0)
    try:
        await meshes[0].wait_full(10)
        muted.add("carol")  # carol's link goes quiet for 4 s: half the table's wait
        await asyncio.sleep(4.0)
        muted.discard("carol")
        await _play_on(meshes, bot)
    finally:
        bot.cancel()
        await close_all(meshes)


@run_async(timeout=120)
async def test_a_bot_waits_while_two_players_are_away_one_after_the_other(tmp_path, monkeypatch):
    """The promise is "at least as long as the table can: ... three times the table's wait for
    each other seat": the table waits for each absent seat on its own (its wait, and its
    allowance over the match), so two players away one after the other, each within the wait
    and overlapping so that someone is always away, hold a table that is within its rules for
    longer than one wait -- and the bot's clock ("some seat away, in a row") runs through both.
    A bot patient for only one wait (plus its grace) left here and was named by the table.
    Scaled: a table wait of 4 s, carol away about 3 s and dave about 3.5 s, overlapping (6.5 s
    with someone away), the bot's grace cut to 0.5 s and its own patience to 1 s."""
    import p2pcards.botseat as botseat

    monkeypatch.setattr(botseat, "TURN_GRACE", 0.5)
    meshes, muted, bot = await _table_with_a_bot(tmp_path, monkeypatch,
                                                 ["alice", "carol", "dave"], 4.0)
    host = meshes[0]
    said_away: list[float] = []
    try:
        await host.wait_full(10)
        loop = asyncio.get_running_loop()
        t0 = loop.time()

        async def watch_host():  # how long someone was away, as the table saw it
            while loop.time() - t0 < 9.0:
                if host.away:
                    said_away.append(loop.time())
                await asyncio.sleep(0.1)
        watcher = asyncio.create_task(watch_host())
        muted.add("carol")  # away from about 1.5 s to 4.5 s
        await asyncio.sleep(3.0)
        muted.add("dave")  # away from about 4.5 s to 8 s
        await asyncio.sleep(1.5)
        muted.discard("carol")
        await asyncio.sleep(3.5)
        muted.discard("dave")
        await watcher
        assert said_away and said_away[-1] - said_away[0] > 5.0, "nobody was away long enough"
        await _play_on(meshes, bot)
    finally:
        bot.cancel()
        await close_all(meshes)
