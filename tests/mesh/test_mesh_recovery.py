"""Peers go away and come back: the table waits, the restarted peer replays its transcript, and
whatever it missed (or recorded but never got out) is resent. Nothing is lost."""

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from protocol.mesh import K_ENV, Mesh, ReplayDivergence, Timings
from protocol.transcript import read_transcript

from .helpers import LOOPBACK, close_all, identity, make_table, play, run_async, until

ROUNDS = 10
CRASH_AT = 4


@run_async(40)
async def test_crashed_peer_resumes_from_its_transcript_and_nothing_is_lost(tmp_path):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    events = alice.subscribe()
    crashed = asyncio.Event()
    swallowed_frames = []

    async def carol_hook(r):
        if r == CRASH_AT - 1:  # from now on carol's envelopes reach her transcript but not the wire

            def lost(seat, frames):
                if frames[0] == K_ENV:
                    swallowed_frames.append(frames)

            carol._send_frames = lost
        if r == CRASH_AT:
            crashed.set()
            await asyncio.sleep(3600)  # the process dies here

    others = [asyncio.create_task(play(m.channel, ROUNDS)) for m in (alice, bob)]
    victim = asyncio.create_task(play(carol.channel, ROUNDS, carol_hook))
    await crashed.wait()
    victim.cancel()
    await carol.close(announce=False)  # no goodbye, like SIGKILL
    assert swallowed_frames  # round CRASH_AT of carol never left
    await until(lambda: alice.away == {2} and bob.away == {2}, what="carol marked away")
    assert alice.waiting_for() == ["carol"]
    assert not any(t.done() for t in others)  # the table waits for her

    again = await Mesh.resume(
        identity(tmp_path, 2), alice.table, bind=LOOPBACK, timings=Timings.fast()
    )
    assert again.address == carol.address  # same port, free again
    assert again.channel.replaying
    assert [b["r"] for _, b in again.channel.recorded("round")] == list(range(CRASH_AT + 1))
    result = await play(again.channel, ROUNDS)
    assert not again.channel.replaying and again.replay.swallowed == 2 * (CRASH_AT + 1)
    results = await asyncio.gather(*others)
    assert results[0]["common"] == results[1]["common"] == result["common"]
    await until(lambda: not alice.away and not bob.away, what="carol back")
    kinds = []
    while not events.empty():
        ev = events.get_nowait()
        if ev.seat == 2:
            kinds.append(ev.kind)
    assert kinds[-2:] == ["away", "back"]  # (a loaded machine may add an earlier pair)
    meshes = [alice, bob, again]
    try:
        assert await alice.checkpoint(5) == []
        heads = [m.heads() for m in meshes]
        assert heads[0] == heads[1] == heads[2]
        # every transcript verifies and holds every envelope exactly once
        for m in meshes:
            t = read_transcript(m.transcript_path, m.identity)
            assert len(t.entries) == 3 * 2 * ROUNDS
            assert t.heads() == {s: h for s, h in heads[0].items()}
    finally:
        await close_all(meshes)


@run_async(40)
async def test_host_restarts_on_a_new_port_and_the_others_follow(tmp_path):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    crashed = asyncio.Event()

    async def alice_hook(r):
        if r == CRASH_AT:
            crashed.set()
            await asyncio.sleep(3600)

    others = [asyncio.create_task(play(m.channel, ROUNDS)) for m in (bob, carol)]
    victim = asyncio.create_task(play(alice.channel, ROUNDS, alice_hook))
    await crashed.wait()
    victim.cancel()
    old_port = alice.port
    await alice.close(announce=False)
    squatter = socket.socket()
    squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    squatter.bind((LOOPBACK, old_port))  # the old port is taken now
    squatter.listen()
    try:
        again = await Mesh.resume(
            identity(tmp_path, 0),
            transcript=alice.transcript_path,
            bind=LOOPBACK,
            timings=Timings.fast(),
        )
        assert again.port != old_port
        result = await play(again.channel, ROUNDS)
        results = await asyncio.gather(*others)
        assert results[0]["common"] == results[1]["common"] == result["common"]
        assert bob.roster[0].addr == again.address == carol.roster[0].addr
    finally:
        squatter.close()
        await close_all([again, bob, carol])


@run_async(20)
async def test_replay_checks_what_is_resent(tmp_path):
    meshes = await make_table(tmp_path, 2)
    alice, bob = meshes
    await bob.channel.broadcast("game", {"move": "pass"})
    await bob.channel.send(0, "deck", {"key": 42})
    await alice.channel.recv("game", 5)
    await bob.close(announce=False)
    again = await Mesh.resume(
        identity(tmp_path, 1), alice.table, bind=LOOPBACK, timings=Timings.fast()
    )
    try:
        # the table can read the human's recorded decisions before re-running them
        assert again.channel.pending_replay("game") == [(None, {"move": "pass"})]
        assert again.channel.pending_replay("deck") == [(0, {"key": 42})]
        await again.channel.broadcast("game", {"move": "pass"})  # identical: swallowed
        assert again.channel.pending_replay("game") == []
        with pytest.raises(ReplayDivergence, match="diverged on topic 'deck'"):
            await again.channel.send(0, "deck", {"key": 43})
        await again.channel.send(0, "deck", {"key": 42})
        assert not again.channel.replaying
        await again.channel.broadcast("game", {"move": "play"})  # now live
        assert await alice.channel.recv("deck", 5) == (1, {"key": 42})
        assert await alice.channel.recv("game", 5) == (1, {"move": "play"})
        assert alice.verifier.chains[1].seq == 3
    finally:
        await close_all([alice, again])


@run_async(20)
async def test_rejoining_through_join_resumes(tmp_path):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    await carol.channel.broadcast("game", {"x": 1})
    await carol.close(announce=False)
    again = await Mesh.join(  # the original join command (with the code), through bob
        identity(tmp_path, 2), bob.address, alice.code, "carol", bind=LOOPBACK, timings=Timings.fast()
    )
    try:
        assert again.seat == 2 and again.channel.pending_replay("game") == [(None, {"x": 1})]
        await again.channel.broadcast("game", {"x": 1})
        await again.channel.broadcast("game", {"x": 2})
        for m in (alice, bob):
            assert [await m.channel.recv("game", 5) for _ in range(2)] == [
                (2, {"x": 1}),
                (2, {"x": 2}),
            ]
    finally:
        await close_all([alice, bob, again])


PEER = Path(__file__).with_name("peer_proc.py")


async def _spawn(*args):
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(PEER),
        *map(str, args),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def _line(proc, prefix):
    while True:
        raw = await asyncio.wait_for(proc.stdout.readline(), 20)
        if not raw:
            err = (await proc.stderr.read()).decode()
            raise AssertionError(f"peer process ended before {prefix!r}:\n{err}")
        line = raw.decode().strip()
        if line.startswith(prefix):
            return line


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@run_async(50)
async def test_a_peer_killed_with_sigkill_restarts_in_a_new_process(tmp_path):
    t = Timings.fast()
    alice = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice")
    bob = await Mesh.join(
        identity(tmp_path, 1), alice.address, alice.code, "bob", bind=LOOPBACK, timings=t
    )
    home = tmp_path / "home2"
    proc = await _spawn("join", home, alice.address, alice.code, "carol", ROUNDS)
    try:
        await asyncio.gather(alice.wait_full(10), bob.wait_full(10))
        others = [asyncio.create_task(play(m.channel, ROUNDS)) for m in (alice, bob)]
        await _line(proc, f"round {CRASH_AT}")
        os.kill(proc.pid, signal.SIGKILL)
        await proc.wait()
        await until(lambda: alice.away == {2}, what="carol away")
        proc = await _spawn("resume", home, alice.table, ROUNDS)
        done = await _line(proc, "done")
        results = await asyncio.gather(*others)
        assert done.split()[1] == results[0]["common"] == results[1]["common"]
        assert (await proc.wait()) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await close_all([alice, bob])


@run_async(30)
async def test_what_an_away_author_sent_is_relayed_by_the_others(tmp_path):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    await carol.close(announce=False)  # carol is down...
    await bob.channel.broadcast("game", {"n": 1})  # ...while bob talks to her
    await bob.channel.send(2, "deck", {"key": "for carol"})
    assert await alice.channel.recv("game", 5) == (1, {"n": 1})
    await until(lambda: alice.verifier.chains[1].seq == 2, what="alice holds bob's envelopes")
    await bob.close(announce=False)  # and then bob goes down too
    again = await Mesh.resume(
        identity(tmp_path, 2), alice.table, bind=LOOPBACK, timings=Timings.fast()
    )
    try:
        # bob does not answer, so alice relays his envelopes (signed by him, readable only by
        # carol); carol asks her at once if bob is already marked away, else at her second ask
        assert await again.channel.recv("game", 10) == (1, {"n": 1})
        assert await again.channel.recv("deck", 10) == (1, {"key": "for carol"})
        await until(lambda: 1 in again.away, what="bob marked away")
    finally:
        await close_all([alice, again])


@run_async(30)
async def test_host_crash_before_the_table_is_full(tmp_path):
    t = Timings.fast()
    alice = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice")
    bob = await Mesh.join(
        identity(tmp_path, 1), alice.address, alice.code, "bob", bind=LOOPBACK, timings=t
    )
    code, address = alice.code, alice.address
    await alice.close(announce=False)
    alice = await Mesh.resume(identity(tmp_path, 0), alice.table, bind=LOOPBACK, timings=t)
    assert alice.address == address and alice.code == code and alice.free_seats == 1
    carol = await Mesh.join(identity(tmp_path, 2), address, code, "carol", bind=LOOPBACK, timings=t)
    meshes = [alice, bob, carol]
    try:
        await asyncio.gather(*(m.wait_full(5) for m in meshes))
        await carol.channel.broadcast("game", {"hi": 1})
        assert await bob.channel.recv("game", 5) == (2, {"hi": 1})
    finally:
        await close_all(meshes)


@run_async(30)
async def test_a_joiner_that_lost_everything_before_the_start_gets_its_seat_back(tmp_path):
    t = Timings.fast()
    alice = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice")
    bob = await Mesh.join(
        identity(tmp_path, 1), alice.address, alice.code, "bob", bind=LOOPBACK, timings=t
    )
    await bob.close(announce=False)
    bob.transcript_path.unlink()
    bob = await Mesh.join(
        identity(tmp_path, 1), alice.address, alice.code, "bob", bind=LOOPBACK, timings=t
    )
    carol = await Mesh.join(
        identity(tmp_path, 2), alice.address, alice.code, "carol", bind=LOOPBACK, timings=t
    )
    meshes = [alice, bob, carol]
    try:
        await asyncio.gather(*(m.wait_full(5) for m in meshes))
        assert [m.seat for m in meshes] == [0, 1, 2]
        await bob.channel.send(2, "deck", {"k": 1})
        assert await carol.channel.recv("deck", 5) == (1, {"k": 1})
    finally:
        await close_all(meshes)


@run_async(30)
async def test_a_seat_resumed_twice_from_one_data_directory_is_refused_the_second_time(tmp_path):
    """Tester: two `join --resume` at once from one data directory both appended to the seat's
    transcript, and the second one's crash recovery cut the first one's last line: the record
    no longer read ("envelope seat 2 seq 28 is duplicate") and the seat could not be resumed.
    Now the transcript is locked while a program plays it; the second is refused in words, and
    the record stays whole."""
    from protocol.mesh import MeshError
    from protocol.transcript import read_transcript

    meshes = await make_table(tmp_path, 2)
    alice, bob = meshes
    await bob.close(announce=False)  # bob's program crashes
    first = await Mesh.resume(identity(tmp_path, 1), alice.table, bind=LOOPBACK,
                              timings=Timings.fast())
    try:
        with pytest.raises(MeshError, match="already open in another p2pcards"):
            await Mesh.resume(identity(tmp_path, 1), alice.table, bind=LOOPBACK,
                              timings=Timings.fast())
        await first.channel.broadcast("game", {"n": 1})
        assert await alice.channel.recv("game", 5) == (1, {"n": 1})
        read_transcript(first.transcript_path)  # whole: every line reads, in order
    finally:
        await first.close(announce=False)
    again = await Mesh.resume(identity(tmp_path, 1), alice.table, bind=LOOPBACK,
                              timings=Timings.fast())  # the lock went with the first program
    await close_all([alice, again])


@run_async(30)
async def test_a_frame_read_on_waking_is_not_given_the_stall_again(tmp_path):
    """The liveness tick forgives this program's own stall (stopped, suspended) to every seat by
    moving its last-heard time on by the stall. Measured in the real-process pause test
    (tests/table/test_own_pause.py), a woken program read its peers' queued frames before its
    tick ran in 3 runs of 18: those seats, heard after the stall, were moved on by it too, 6.5 s
    into the future, so one that left right after would have been marked away 6.5 s late.
    Scaled, in one tick: alice's loop stood still 6.5 s; bob's frame was read on waking, before
    the tick, carol's just before the stall. Carol is moved on by the stall, bob not past now,
    and bob, silent from then on, is marked away after the usual 1.5 s."""
    import time

    meshes = await make_table(tmp_path, 3)
    try:
        a, t = meshes[0], meshes[0].timings
        now = time.monotonic()  # (no await below: alice's own tick loop cannot run between)
        a._last_tick = now - 6.5 - t.tick
        a._last_heard[1] = a._direct_at[1] = now
        a._last_heard[2] = before = now - 6.6
        a._tick(now)
        assert a._last_heard[1] <= now and a._direct_at[1] <= now
        assert abs(a._last_heard[2] - (before + 6.5)) < 1e-6
        then = now + t.away_after + 0.1
        a._last_tick = then - t.tick
        a._tick(then)
        assert 1 in a.away
    finally:
        await close_all(meshes)
