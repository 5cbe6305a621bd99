"""A player who had just joined a table read "You took your seat back (seat 3): your program caught
up from its own record and the others'; the game so far follows..." whenever the host did not
hold the deal (a host whose input is a pipe or a script deals once every seat is taken): the
join took "dealt already" for "a seat taken back" (walk-through ux20, on a LAN of three hosts).
Now only a seat this machine had before is told it is back (in-process, on 127.0.0.1)."""

from __future__ import annotations

import asyncio

from p2pcards import net
from p2pcards.lobby import GameInfo
from tests.mesh.helpers import LOOPBACK, identity, run_async


@run_async(60)
async def test_a_new_seat_is_not_told_it_took_its_seat_back(tmp_path, monkeypatch):
    from protocol.mesh import Mesh, Timings

    told: list[list[str]] = []

    async def played(mesh, player, screen, resumed=False):
        told.append(net._intro(mesh, resumed))
        return None

    monkeypatch.setattr(net, "_played", played)
    monkeypatch.setattr(net, "_results", lambda mesh, result: None)
    info = GameInfo("go-out-girl", 2, {}, wait=30.0).to_json()
    host = await Mesh.host(identity(tmp_path, 0), 2, bind=LOOPBACK, timings=Timings.fast(),
                           name="alice", game_info=info)  # no hold: dealt once full
    try:
        home = str(tmp_path / "home1")
        identity(tmp_path, 1)
        join = dict(bind=LOOPBACK, resume=False, home=home)
        await net.join_table(host.address.removeprefix("tcp://"), host.code, "bob", **join)
        await host.wait_full(10)
        assert not any("back" in line for line in told[-1]), told[-1]
        # the same join command again, for the seat it has: that one is taken back
        await net.join_table(host.address.removeprefix("tcp://"), host.code, "bob", **join)
        assert told[-1][-1].startswith("You took your seat back at seat 2: "), told[-1]
    finally:
        await asyncio.wait_for(host.close(), 10)
