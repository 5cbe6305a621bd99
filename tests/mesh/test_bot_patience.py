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


@run_async(timeout=120)
async def test_a_bot_waits_for_an_absent_player_as_long_as_the_table_does(tmp_path, monkeypatch):
    real_join = Mesh.join.__func__

    async def join(cls, *args, timings=None, **kw):  # the bot's mesh too: the tests' fast timings
        return await real_join(cls, *args, timings=timings or Timings.fast(), **kw)

    monkeypatch.setattr(Mesh, "join", classmethod(join))
    info = GameInfo("go-out-girl", 3, {}, wait=8.0).to_json()
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=Timings.fast(),
                           name="alice", game_info=info)
    carol = await Mesh.join(identity(tmp_path, 1), host.address, host.code, "carol",
                            bind=LOOPBACK)
    meshes = [host, carol]
    real_send = carol._send_frames
    muted = {"on": False}

    def send_frames(seat, frames):
        if not muted["on"]:
            real_send(seat, frames)

    carol._send_frames = send_frames

    async def the_bot():
        try:
            return await bot_seat(host.address.removeprefix("tcp://"), host.code, "robo",
                                  level="easy", bind=LOOPBACK, json_result=True, patience=1.0,
                                  home=str(tmp_path / "bot"))
        except MeshError as exc:
            return exc

    bot = asyncio.create_task(the_bot())
    try:
        await host.wait_full(10)
        muted["on"] = True  # carol's link goes quiet for 4 s: half the table's wait
        await asyncio.sleep(4.0)
        muted["on"] = False
        runs = [play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat), say=lambda s: None)
                for m in meshes]
        results = await asyncio.gather(*runs, bot, return_exceptions=True)
        assert not isinstance(results[2], BaseException), results[2]  # the bot played on
        assert all(r.verdict is not None and r.verdict.clean for r in results), results
    finally:
        bot.cancel()
        await close_all(meshes)
