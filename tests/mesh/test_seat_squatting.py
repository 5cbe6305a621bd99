"""Red team, seat squatting: one holder of the code takes seats under several identities. A
host at a terminal holds the deal: it sees who is seated (name and fingerprint) and may remove
a seat before it deals; the removed identity may not sit down again at that table."""

from __future__ import annotations

import asyncio

import pytest

from protocol.mesh import Mesh, MeshError, Timings
from protocol.mesh.common import JoinRefused

from .helpers import LOOPBACK, close_all, identity, play, run_async, until

pytestmark = pytest.mark.network


@run_async(timeout=60)
async def test_a_holding_host_removes_a_squatter_before_the_deal(tmp_path):
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice",
                           hold=True)
    bob = await Mesh.join(identity(tmp_path, 1), host.address, host.code, "bob", bind=LOOPBACK,
                          timings=t)
    # mallory takes the last seat (under one of her many identities): the table is full...
    squat = await Mesh.join(identity(tmp_path, 5), host.address, host.code, "mallory",
                            bind=LOOPBACK, timings=t)
    meshes = [host, bob]
    try:
        await until(lambda: host.full and bob.full and squat.full, what="full")
        await asyncio.sleep(0.5)
        # ...but nobody is dealt in while the host holds the deal
        assert not any(m._ready.is_set() for m in (host, bob, squat))
        assert host.remove(2) == "mallory"
        with pytest.raises(MeshError) as info:
            await squat.wait_full(10)
        assert "the host 'alice'" in str(info.value) and "removed you" in str(info.value)
        assert squat.stopped is not None and squat.stopped.culprit is None
        await until(lambda: 2 not in bob._members, what="bob forgets mallory")
        assert [e.name for e in bob.events if e.kind == "removed"] == ["mallory"]
        # the removed identity may not sit down again; someone else takes the seat
        with pytest.raises(JoinRefused, match="removed"):
            await Mesh.join(identity(tmp_path, 5), host.address, host.code, "mallory",
                            bind=LOOPBACK, timings=t, home=tmp_path / "again")
        carol = await Mesh.join(identity(tmp_path, 2), host.address, host.code, "carol",
                                bind=LOOPBACK, timings=t)
        meshes.append(carol)
        assert carol.seat == 2
        await until(lambda: host.full and bob.full and carol.full, what="full again")
        with pytest.raises(TimeoutError):
            await host.wait_full(0.5)
        host.seal()
        await asyncio.gather(*(m.wait_full(10) for m in meshes))
        assert len({m.roster_digest for m in meshes}) == 1
        assert [m.name for m in bob.roster] == ["alice", "bob", "carol"]
        await asyncio.wait_for(asyncio.gather(*(play(m.channel, 2) for m in meshes)), 20)
        with pytest.raises(MeshError):
            host.remove(1)  # once dealt, no more
    finally:
        await close_all([*meshes, squat])


@run_async(timeout=60)
async def test_the_host_at_the_lobby_prompt_sees_the_seats_kicks_and_deals(tmp_path, monkeypatch):
    """The line prompt of ``p2pcards host`` at a terminal, driven with typed lines: 'who' lists
    names and fingerprints, 'kick 3' frees mallory's seat, a bad 'kick' gets one line, and 'deal'
    deals only once the table is full again."""
    from p2pcards import net

    said: list[str] = []
    monkeypatch.setattr(net, "say", said.append)
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice",
                           hold=True)
    meshes = [host]
    joiners: list[Mesh] = []

    async def typed():
        joiners.append(await Mesh.join(identity(tmp_path, 1), host.address, host.code, "bob",
                                       bind=LOOPBACK, timings=t))
        joiners.append(await Mesh.join(identity(tmp_path, 5), host.address, host.code,
                                       "mallory", bind=LOOPBACK, timings=t))
        await until(lambda: host.full, what="full")
        yield "who"
        yield "kick zed"
        yield "kick 3"
        yield "deal"  # not full: it waits
        joiners.append(await Mesh.join(identity(tmp_path, 2), host.address, host.code, "carol",
                                       bind=LOOPBACK, timings=t))
        await until(lambda: host.full, what="full again")
        yield ""

    try:
        await net._wait_for_players(host, None, typed())
        meshes += [joiners[0], joiners[2]]
        await asyncio.gather(*(m.wait_full(10) for m in meshes))
        text = "\n".join(said)
        assert f"seat 3: mallory [{identity(tmp_path, 5).fingerprint}]" in text
        assert "nobody to remove: 'zed'" in text
        assert "mallory is removed from seat 3" in text
        assert said[-1] == "The table is full: alice, bob, carol"
        with pytest.raises(MeshError, match="removed you"):
            await joiners[1].wait_full(1)
    finally:
        await close_all([*meshes, *joiners[1:2]])
