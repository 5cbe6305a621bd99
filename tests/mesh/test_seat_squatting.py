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


async def held_table(tmp_path, t: Timings, *joiners: tuple[int, str]) -> list[Mesh]:
    """A 3-seat table whose host, alice, holds the deal, and ``joiners`` (identity index, name)
    seated at it in order: [host, *joiners]."""
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice",
                           hold=True)
    out = [host]
    for i, name in joiners:
        out.append(await Mesh.join(identity(tmp_path, i), host.address, host.code, name,
                                   bind=LOOPBACK, timings=t))
    return out


@run_async(timeout=60)
async def test_a_holding_host_removes_a_squatter_before_the_deal(tmp_path):
    t = Timings.fast()
    # mallory takes the last seat (under one of her many identities): the table is full...
    host, bob, squat = await held_table(tmp_path, t, (1, "bob"), (5, "mallory"))
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


@run_async(timeout=90)
async def test_a_joiner_restarted_before_the_deal_waits_for_the_seal_and_sees_a_removal(tmp_path):
    """Carol's program crashes while the host holds the deal and comes back (``join --resume``)
    before it. It must hold too: before, it took the table as dealt, kept bob after the host
    removed him, and once dave sat down it would have named the honest host for "a different
    roster". It must also learn a seal made while it was down."""
    t = Timings.fast()
    host, bob, carol = await held_table(tmp_path, t, (1, "bob"), (2, "carol"))
    table, live = host.table, [host, bob, carol]
    try:
        await until(lambda: host.full and bob.full and carol.full, what="full")
        await carol.close(announce=False)  # SIGKILL
        again = await Mesh.resume(identity(tmp_path, 2), table, bind=LOOPBACK, timings=t)
        live.append(again)
        assert not again.sealed
        await asyncio.sleep(1.0)
        assert not again._ready.is_set()  # nobody is dealt in while the host holds the deal
        assert host.remove(1) == "bob"
        await until(lambda: 1 not in again._members, what="carol hears of bob's removal")
        dave = await Mesh.join(identity(tmp_path, 3), host.address, host.code, "dave",
                               bind=LOOPBACK, timings=t)
        live.append(dave)
        await until(lambda: host.full and again.full and dave.full, what="full again")
        # carol goes down again; the host deals while she is away; she comes back after it
        await again.close(announce=False)
        host.seal()
        third = await Mesh.resume(identity(tmp_path, 2), table, bind=LOOPBACK, timings=t)
        live.append(third)
        meshes = [host, dave, third]
        await asyncio.gather(*(m.wait_full(10) for m in meshes))
        assert len({m.roster_digest for m in meshes}) == 1
        assert [m.name for m in third.roster] == ["alice", "dave", "carol"]
        await asyncio.wait_for(asyncio.gather(*(play(m.channel, 2) for m in meshes)), 30)
        assert all(m.stopped is None for m in meshes), [m.stopped for m in meshes]
    finally:
        await close_all(live)


@run_async(timeout=60)
async def test_a_host_restarted_before_the_deal_still_holds_it(tmp_path, monkeypatch):
    """The holding host removes a squatter, then its program crashes before the deal: back with
    ``join --resume`` it still holds (nobody is dealt in), the removed key still may not sit
    down again, and with no terminal to type 'deal' at it deals once the table is full
    (``net._wait_for_players``, as ``join --resume`` runs it for a host)."""
    from p2pcards import net

    said: list[str] = []
    monkeypatch.setattr(net, "say", said.append)
    t = Timings.fast()
    host, bob, squat = await held_table(tmp_path, t, (1, "bob"), (5, "mallory"))
    table, code, live = host.table, host.code, [host, bob, squat]
    try:
        await until(lambda: host.full and bob.full and squat.full, what="full")
        assert host.remove(2) == "mallory"
        await host.close(announce=False)
        again = await Mesh.resume(identity(tmp_path, 0), table, bind=LOOPBACK, timings=t)
        live.append(again)
        assert not again.sealed
        with pytest.raises(JoinRefused, match="removed"):
            await Mesh.join(identity(tmp_path, 5), again.address, code, "mallory",
                            bind=LOOPBACK, timings=t, home=tmp_path / "again")
        carol = await Mesh.join(identity(tmp_path, 2), again.address, code, "carol",
                                bind=LOOPBACK, timings=t)
        live.append(carol)
        await until(lambda: again.full and bob.full and carol.full, what="full again")
        await asyncio.sleep(1.0)
        assert not any(m._ready.is_set() for m in (again, bob, carol))
        await net._wait_for_players(again, None)
        assert again.sealed and said[-1] == "The table is full: alice, bob, carol"
        meshes = [again, bob, carol]
        await asyncio.gather(*(m.wait_full(10) for m in meshes))
        await asyncio.wait_for(asyncio.gather(*(play(m.channel, 2) for m in meshes)), 30)
        assert all(m.stopped is None for m in meshes)
    finally:
        await close_all(live)
