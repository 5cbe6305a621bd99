"""Red team, the lobby: someone who knows a table's code (a player told it, say) opens a table of
their own and announces it on the LAN under the real host's name and fingerprint."""

from __future__ import annotations

import pytest

from p2pcards import net
from protocol.discovery import TableInfo
from protocol.mesh import Mesh, MeshError

from .helpers import LOOPBACK, close_all, identity, run_async

pytestmark = pytest.mark.network


async def join_through_a_lure(tmp_path, monkeypatch, real, lure_host):
    """Bob joins with ``real``'s code through a LAN announcement of alice's name and fingerprint
    that points at ``lure_host``'s address; alice's fingerprint and the refusal raised."""
    alice_fp = identity(tmp_path, 0).fingerprint
    host, port = lure_host.address.removeprefix("tcp://").split(":")
    lure = TableInfo(f"alice {alice_fp}", host, int(port), "go-out-girl", 2, 3, "1", alice_fp)

    async def pick(bind):
        return lure

    monkeypatch.setattr(net, "_pick_table", pick)
    with pytest.raises(MeshError) as info:
        await net.join_table(None, real.code, "bob", bind=LOOPBACK, resume=False,
                             home=str(tmp_path / "home1"))
    return alice_fp, info


@run_async(timeout=60)
async def test_a_table_picked_from_the_lan_list_must_be_hosted_by_the_announced_key(tmp_path,
                                                                              monkeypatch):
    real = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, name="alice")
    fake = await Mesh.host(identity(tmp_path, 9), 3, bind=LOOPBACK, name="alice", code=real.code)
    try:
        alice_fp, info = await join_through_a_lure(tmp_path, monkeypatch, real, fake)
        # the announcement is what lied (a table at that address with another host's key): it
        # is blamed, never the table the person reached
        assert "wrong or forged" in str(info.value)
        assert alice_fp in str(info.value)
        # the real table, picked with the same announcement, seats bob as usual
        host, port = real.address.removeprefix("tcp://").split(":")
        honest = TableInfo(f"alice {alice_fp}", host, int(port), "go-out-girl", 2, 3, "1",
                           alice_fp)
        mesh = await Mesh.join(identity(tmp_path, 1), honest.address, real.code, "bob",
                               bind=LOOPBACK)
        await net._check_announced(mesh, honest)  # no error
        await mesh.close()
    finally:
        await close_all([real, fake])


def test_the_lan_list_shows_each_table_on_one_line(monkeypatch, capsys):
    """An mDNS announcement is anyone's to make: its instance name cannot add lines to the list."""
    t = TableInfo("alice\n  2. bob: go-out-girl, 3 of 3 seats free, at 10.0.0.9:7000\x1b[2J",
                  "10.0.0.5", 7000, "go-out-girl", 1, 3, "1", "AAAA-AAAA")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)

    async def browse(*a, **k):
        return [t]

    import protocol.discovery
    monkeypatch.setattr(protocol.discovery, "browse", browse)
    import asyncio
    picked = asyncio.run(net._pick_table("127.0.0.1"))
    out = capsys.readouterr().out
    assert picked is t
    listed = [line for line in out.splitlines() if line.startswith("  ")]
    assert len(listed) == 1 and "\x1b" not in out and "\\n  2. bob" in listed[0]


@run_async(timeout=60)
async def test_a_full_table_and_a_wrong_version_are_refused_and_change_nothing(tmp_path):
    import asyncio
    import json

    import zmq
    import zmq.asyncio

    from protocol.envelope import canonical
    from protocol.mesh import JoinRefused

    from .helpers import make_table, raw_dealer

    meshes = await make_table(tmp_path, 2)
    host = meshes[0]
    try:
        with pytest.raises(JoinRefused) as info:
            await Mesh.join(identity(tmp_path, 7), host.address, host.code, "mallory",
                            bind=LOOPBACK)
        assert "full" in info.value.reason
        # a hello from another protocol version, its version a long string: a short refusal
        # (one of 100 kB is not even read: a connection without a seat sends at most 8 KiB)
        ctx = zmq.asyncio.Context()
        sock = raw_dealer(ctx, host)
        try:
            hello = {"t": "hello", "v": "9" * 100_000, "name": "mallory"}
            await sock.send_multipart([b"hs", canonical(hello)])
            hello = {"t": "hello", "v": "9" * 6_000, "name": "mallory"}
            await sock.send_multipart([b"hs", canonical(hello)])
            kind, data = await asyncio.wait_for(sock.recv_multipart(), 10)
            reply = json.loads(data)
            assert reply["t"] == "refused" and "version" in reply["reason"]
            assert len(reply["reason"]) < 200
            with pytest.raises(TimeoutError):  # one answer: the large hello got none
                await asyncio.wait_for(sock.recv_multipart(), 0.5)
        finally:
            sock.close(0)
            ctx.term()
        assert [m.name for m in host.roster] == ["alice", "bob"]
        assert all(m.stopped is None for m in meshes)
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_modified_host_seating_look_alike_names_is_refused_by_every_joiner(
        tmp_path, monkeypatch):
    """The host's client skips its name check and seats "ALlCE" beside "alice". The joiners
    used to take the roster they were given; each now re-checks it (protocol/roster.py's rules):
    the newcomer refuses the table in one line naming the host, and alice, already seated, stops
    the table before any card is dealt, naming the host."""
    import protocol.mesh.handshake as hs
    from protocol.mesh import Timings
    from protocol.mesh.common import JoinFailed

    monkeypatch.setattr(hs, "names_clash", lambda a, b: False)  # only the host's check uses it
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="bob")
    alice = await Mesh.join(identity(tmp_path, 1), host.address, host.code, "alice",
                            bind=LOOPBACK, timings=t)
    try:
        with pytest.raises(JoinFailed) as info:
            await Mesh.join(identity(tmp_path, 2), host.address, host.code, "ALlCE",
                            bind=LOOPBACK, timings=t)
        msg = str(info.value)
        assert "\n" not in msg and "refusing the table" in msg and "'bob'" in msg
        assert identity(tmp_path, 0).fingerprint in msg and "look alike" in msg
        with pytest.raises(MeshError) as info:
            await alice.wait_full(10)
        assert "the host 'bob'" in str(info.value) and "look alike" in str(info.value)
        assert alice.stopped is not None and alice.stopped.culprit == 0
        assert "ALlCE" not in [m.name for m in alice.roster]
    finally:
        await close_all([host, alice])


def test_the_roster_rules_every_peer_checks():
    from protocol.roster import Member, check_roster

    def m(seat, name, key):
        return Member(seat, name, bytes([key]) * 32, "tcp://127.0.0.1:1", "")

    check_roster([m(0, "bob", 1), m(1, "alice", 2), m(2, "carol", 3)])
    for bad, why in [([m(0, "bob", 1), m(1, "B0B", 2)], "look alike"),
                     ([m(0, "bob", 1), m(1, "alice", 1)], "one key holds"),
                     ([m(0, "bob", 1), m(0, "alice", 2)], "given twice"),
                     ([m(0, "mary", 1), m(1, "mary jane", 2)], "look alike")]:
        with pytest.raises(ValueError, match=why):
            check_roster(bad)


@run_async(timeout=60)
async def test_a_lure_to_a_strangers_table_is_not_called_a_wrong_code(tmp_path, monkeypatch):
    """Red team 15b: a stranger on the LAN, without the code, announces alice's name and
    fingerprint pointing at a table of their own. The person picks it and types the right code:
    the stranger's table refuses the connection, and the person was told only "wrong table
    code" -- so they re-typed a right code, and never learned the announcement was the lie."""
    real = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, name="alice")
    stranger = await Mesh.host(identity(tmp_path, 9), 3, bind=LOOPBACK, name="alice")
    try:
        alice_fp, info = await join_through_a_lure(tmp_path, monkeypatch, real, stranger)
        said = str(info.value)
        assert "not your host's table" in said and "anyone on the LAN" in said
        assert alice_fp in said and stranger.address.removeprefix("tcp://") in said
        assert "p2pcards join HOST:PORT" in said
    finally:
        await close_all([real, stranger])
