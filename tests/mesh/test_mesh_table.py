"""A table forms on loopback and carries broadcast and private messages in order."""

import asyncio

import pytest

from protocol.channel import Channel, ChannelClosed
from protocol.mesh import JoinFailed, JoinRefused, Mesh, MeshError, Timings

from .helpers import LOOPBACK, close_all, identity, make_table, run_async, until


@run_async()
async def test_four_peers_form_a_table_and_talk_in_order(tmp_path):
    meshes = await make_table(tmp_path, 4, game_info={"game": "go-out-girl"})
    try:
        digests = {m.roster_digest for m in meshes}
        assert len(digests) == 1
        for i, m in enumerate(meshes):
            assert m.seat == i and m.full and m.free_seats == 0
            assert [x.name for x in m.roster] == ["alice", "bob", "carol", "dave"]
            assert m.game_info == {"game": "go-out-girl"}
            assert isinstance(m.channel, Channel)
        n = 30
        for k in range(n):  # interleave broadcasts and private messages from everyone
            for m in meshes:
                await m.channel.broadcast("b", {"k": k, "from": m.seat})
                for to in m.channel.others():
                    await m.channel.send(to, "p", {"k": k, "from": m.seat, "to": to})
        for m in meshes:
            seen = {s: [] for s in m.channel.others()}
            for _ in range(n * 3):
                sender, body = await m.channel.recv("b", 5)
                assert body["from"] == sender
                seen[sender].append(body["k"])
            assert all(v == list(range(n)) for v in seen.values())
            seen = {s: [] for s in m.channel.others()}
            for _ in range(n * 3):
                sender, body = await m.channel.recv("p", 5)
                assert body["from"] == sender and body["to"] == m.seat
                seen[sender].append(body["k"])
            assert all(v == list(range(n)) for v in seen.values())
            with pytest.raises(TimeoutError):
                await m.channel.recv("b", 0.05)
        # every peer holds every sender's full chain, private envelopes included
        heads = [m.heads() for m in meshes]
        assert all(h == heads[0] for h in heads)
        assert heads[0][0][0] == n * 4
        assert await meshes[0].checkpoint(15) == []  # generous: a loaded, shared machine
    finally:
        await close_all(meshes)


@run_async()
async def test_topics_have_their_own_inboxes(tmp_path):
    a, b = await make_table(tmp_path, 2)
    try:
        await a.channel.broadcast("deck", {"x": 1})
        await a.channel.broadcast("chat", {"y": 2})
        assert await b.channel.recv("chat", 5) == (0, {"y": 2})
        assert await b.channel.recv("deck", 5) == (0, {"x": 1})
        with pytest.raises(ValueError):
            await a.channel.send(0, "deck", {})
        with pytest.raises(ValueError):
            await a.channel.broadcast("deck", {"not json": object()})
    finally:
        await close_all([a, b])


@run_async()
async def test_wrong_or_missing_code_is_refused_and_the_table_is_unchanged(tmp_path):
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice")
    bob = await Mesh.join(
        identity(tmp_path, 1), host.address, host.code, "bob", bind=LOOPBACK, timings=t
    )
    events = host.subscribe()
    before = (host.roster, host.free_seats, list(bob.roster))
    wrong = "ZZZ-ZZZ" if host.code != "ZZZ-ZZZ" else "YYY-YYY"
    with pytest.raises(JoinRefused, match="wrong table code"):
        await Mesh.join(
            identity(tmp_path, 2), host.address, wrong, "mallory", bind=LOOPBACK, timings=t
        )
    with pytest.raises(MeshError, match="needs the table code"):
        await Mesh.join(
            identity(tmp_path, 2), host.address, None, "mallory", bind=LOOPBACK, timings=t
        )
    await asyncio.sleep(0.1)
    assert (host.roster, host.free_seats, list(bob.roster)) == before
    assert events.empty()
    with pytest.raises(JoinRefused, match="name 'Bob' is taken"):
        await Mesh.join(
            identity(tmp_path, 2), host.address, host.code, "Bob", bind=LOOPBACK, timings=t
        )
    carol = await Mesh.join(
        identity(tmp_path, 2), host.address, host.code, "carol", bind=LOOPBACK, timings=t
    )
    meshes = [host, bob, carol]
    try:
        await asyncio.gather(*(m.wait_full(5) for m in meshes))
        assert carol.seat == 2
        with pytest.raises(JoinRefused, match="full"):
            await Mesh.join(
                identity(tmp_path, 3), host.address, host.code, "dave", bind=LOOPBACK, timings=t
            )
    finally:
        await close_all(meshes)


@run_async()
async def test_joining_nowhere_fails_clearly(tmp_path):
    t = Timings(handshake_timeout=0.3)
    import socket

    with socket.socket() as s:  # a port with nobody listening
        s.bind((LOOPBACK, 0))
        port = s.getsockname()[1]
    with pytest.raises(JoinFailed, match="no answer"):
        await Mesh.join(
            identity(tmp_path, 1), f"{LOOPBACK}:{port}", "ABC-DEF", "bob", bind=LOOPBACK, timings=t
        )
    with pytest.raises(ValueError, match="HOST:PORT"):
        await Mesh.join(
            identity(tmp_path, 1), "nonsense", "ABC-DEF", "bob", bind=LOOPBACK, timings=t
        )


@run_async()
async def test_host_is_not_special_once_full(tmp_path):
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    await host.close()
    try:
        await bob.channel.broadcast("b", {"x": 1})
        await bob.channel.send(2, "p", {"y": 2})
        assert await carol.channel.recv("b", 5) == (1, {"x": 1})
        assert await carol.channel.recv("p", 5) == (1, {"y": 2})
        await until(lambda: carol.away == {0}, what="alice marked away")
        assert carol.waiting_for() == ["alice"]
        assert [e.kind for e in carol.events if e.seat == 0][-1] == "left"
    finally:
        await close_all([bob, carol])
    with pytest.raises(ChannelClosed):
        await bob.channel.recv("b", 1)
