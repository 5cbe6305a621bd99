"""Red team (round 3, #7): mallory (no code, no seat) answers on the LAN under EXACTLY the honest
host's instance name ("alice <fp>"); mDNS is unauthenticated. Written as the attacker, on
127.0.0.1 only (zeroconf bound to the loopback interface); skipped where that cannot bind."""

from __future__ import annotations

import asyncio
import socket

import pytest

from protocol.discovery import SERVICE_TYPE, TableInfo, browse, encode_txt, instance_name
from protocol.mesh import Mesh, MeshError

from .helpers import identity, run_async, until

LO = ["127.0.0.1"]


async def spoof(name: str, port: int, fp: str, repeat: bool):
    """Mallory's answer under ``name``: her own server name, the given port and fingerprint."""
    from zeroconf import IPVersion
    from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

    zc = AsyncZeroconf(interfaces=LO, ip_version=IPVersion.V4Only)
    info = AsyncServiceInfo(SERVICE_TYPE, f"{name}.{SERVICE_TYPE}",
                            addresses=[socket.inet_aton("127.0.0.1")], port=port,
                            properties=encode_txt("go-out-girl", 2, 3, fp),
                            server="mallory.local.")
    try:
        await zc.async_register_service(info, cooperating_responders=True, strict=False)
    except BaseException:
        await zc.async_close()
        raise

    async def again_and_again():  # so hers is the last answer a lookup hears
        while repeat:
            await asyncio.sleep(0.3)
            await zc.async_update_service(info)

    return zc, info, asyncio.create_task(again_and_again())


async def advertised_alice(tmp_path):
    """Alice's table, holding the deal and announced on 127.0.0.1 as ``host`` announces it:
    (her mesh, the announcement, her identity); the test is skipped where zeroconf cannot bind."""
    from p2pcards import net

    me = identity(tmp_path, 0)
    alice = await Mesh.host(me, 3, bind="127.0.0.1", name="alice", hold=True,
                            game_info={"game": "go-out-girl", "players": 3, "options": {}})
    ad = await net._advertise(alice, "go-out-girl", 3, me, "127.0.0.1")
    if ad is None:
        await alice.close()
        pytest.skip("zeroconf cannot bind to 127.0.0.1 here")
    return alice, ad, me


async def alice_and_mallory(tmp_path, mode: str, repeat: bool = False):

    alice, ad, me = await advertised_alice(tmp_path)
    name = instance_name("alice", me.fingerprint)
    fp, port = ("ZZZZ-ZZZZ", alice.port) if mode == "fake" else (me.fingerprint, 40999)
    try:
        mallory = await spoof(name, port, fp, repeat)
    except BaseException:
        await ad.close()
        await alice.close()
        raise
    return alice, ad, mallory, name, me.fingerprint


async def look(name: str, want: int) -> list[TableInfo]:
    """The entries listed under ``name`` (a few looks: under load a responder can be slow)."""
    found: list[TableInfo] = []
    for _ in range(6):
        found = [t for t in await browse(1.5, interfaces=LO) if t.name == name]
        if len(found) >= want:
            break
    return found


async def withdraw(mallory) -> None:
    """Mallory stops: her repeating task ends, her goodbyes are sent (zeroconf returns the task
    that sends them; closing first sent none) and her zeroconf is closed, whatever fails."""
    zc, info, repeating = mallory
    repeating.cancel()
    try:
        await asyncio.gather(repeating, return_exceptions=True)
        sent = await zc.async_unregister_service(info)
        await asyncio.wait_for(sent, 3.0)
    finally:
        await zc.async_close()


async def end(alice, ad, mallory):
    try:
        await withdraw(mallory)
    finally:
        try:
            await ad.close()
        finally:
            await alice.close()


@run_async(90)
async def test_an_answer_with_another_fingerprint_under_the_hosts_name_is_refused(tmp_path):
    """Mallory answers under alice's name with alice's address and a fake fingerprint. The list
    showed one line, with whichever fingerprint answered last; the joiner, seated at alice's
    real table, was then told that alice's table "is not the table it claims to be". An answer
    whose fingerprint is not the one in its own name is refused: the one line left is alice's,
    with her fingerprint.

    Mallory's repeated answer also has alice's very PTR record, so every PTR query of a browse
    carried it as a known answer and alice's responder never answered it; the browse then found
    mallory's SRV, TXT and A records in its cache and asked nobody. After the first look alice's
    table went unlisted (in nine browses out of ten, back to back on 127.0.0.1). Now the browse
    asks every name's SRV and TXT records of the network itself."""
    alice, ad, mallory, name, fp = await alice_and_mallory(tmp_path, "fake", repeat=True)
    try:
        listed = 0
        for _ in range(4):  # mallory's answer is never listed; alice's is
            found = [t for t in await browse(1.5, interfaces=LO) if t.name == name]
            assert [t.fingerprint for t in found] in ([fp], []), found
            for t in found:
                listed += 1
                assert t.address == alice.address.removeprefix("tcp://")
                assert "announcements under one name" not in str(t)
        assert listed >= 3, f"alice's table listed in {listed} browses of 4"  # (a loaded machine)
    finally:
        await end(alice, ad, mallory)


@run_async(90)
async def test_two_answers_under_one_name_are_both_listed_marked_and_never_taken_silently(
        tmp_path, monkeypatch, capsys):
    """Mallory answers under alice's name with alice's fingerprint and her own address. The
    list showed one line (the last answer) and a joiner with nobody at the terminal silently
    went to mallory's address. Now both are listed, each marked, and nobody is sent to either
    without a person choosing."""
    from p2pcards import net

    alice, ad, mallory, name, fp = await alice_and_mallory(tmp_path, "addr")
    try:
        monkeypatch.setattr("sys.stdin.isatty", lambda: False)
        monkeypatch.setattr(net, "BROWSE_SECONDS", 1.5)

        async def pick():
            for _ in range(4):
                capsys.readouterr()
                picked = await net._pick_table("127.0.0.1")
                out = capsys.readouterr().out
                if "one of 2 announcements" in out:
                    break
            return picked, out

        # the looks and join's looks side by side (they took 3 s each, one after the other)
        found, (picked, out) = await asyncio.gather(look(name, 2), pick())
        assert sorted(t.port for t in found) == sorted([alice.port, 40999]), found
        assert all(t.conflict == 2 and "one of 2 announcements under one name" in str(t)
                   for t in found)
        assert picked is None, picked
        assert "announced more than once under one name" in out
    finally:
        await end(alice, ad, mallory)


@run_async(60)
async def test_a_forged_announcement_is_blamed_not_the_table_and_the_seat_is_freed(tmp_path):
    """The joiner picked an announcement whose fingerprint is not the key of the table at its
    address. The words blame the announcement, not the table there; the joiner leaves with a
    signed bye before the deal, and a host holding the deal frees the seat (the seat stayed
    taken), without barring the joiner's key: it can sit down again by the right address."""
    from p2pcards import net, resume

    me = identity(tmp_path, 0)
    alice = await Mesh.host(me, 3, bind="127.0.0.1", name="alice", hold=True,
                            game_info={"game": "go-out-girl", "players": 3, "options": {}})

    async def nothing_typed():
        await asyncio.Event().wait()
        yield ""

    lobby = asyncio.create_task(net._wait_for_players(alice, None, nothing_typed()))
    addr = alice.address.removeprefix("tcp://")
    forged = TableInfo(name=f"alice {me.fingerprint}", host="127.0.0.1", port=alice.port,
                       game="go-out-girl", free=2, seats=3, version="1", fingerprint="ZZZZ-ZZZZ")
    joe = identity(tmp_path, 1)
    try:
        m = await Mesh.join(joe, addr, alice.code, "joe", bind="127.0.0.1")
        await until(lambda: alice.free_seats == 1, what="joe seated")
        with pytest.raises(MeshError) as caught:
            await net._check_announced(m, forged)
        words = str(caught.value)
        assert "announcement" in words and "wrong or forged" in words, words
        assert "not the table it claims" not in words
        await until(lambda: alice.free_seats == 2, timeout=10, what="alice frees joe's seat")
        again = await resume._join_or_record(joe, addr, alice.code, "joe", "127.0.0.1",
                                             str(tmp_path / "home1"))
        assert isinstance(again, Mesh) and again.seat >= 1
        await again.close()
    finally:
        lobby.cancel()
        await alice.close()
