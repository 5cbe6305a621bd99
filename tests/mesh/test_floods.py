"""Red team, floods from a seated peer: traffic the table does read (chat) still costs every
other player disk, since every envelope is recorded in every transcript."""

from __future__ import annotations

import asyncio
import dataclasses
import os

import pytest

from .helpers import close_all, make_table, play, run_async, until

pytestmark = pytest.mark.network


@run_async(timeout=60)
async def test_a_seat_filling_everyones_transcript_with_chat_is_named(tmp_path, monkeypatch):
    """Chat lines are read (so no unread budget applies) and shown cut to 500 characters, but
    each was recorded whole at every peer: a seat could write its whole budget of 32 MiB a
    second into every other player's transcript for as long as it liked. Now a seat's recorded
    bytes are bounded (64 MiB; 1 MiB here) and a seat past them is named."""
    import protocol.mesh.chain as chain

    cap = 1_000_000
    monkeypatch.setattr(chain, "MAX_SEAT_BYTES", cap, raising=False)
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    heard = {0: 0, 2: 0}

    async def reader(m):
        while True:
            await m.channel.recv("chat")
            heard[m.seat] += 1

    readers = [asyncio.create_task(reader(m)) for m in (host, carol)]
    try:
        before = {m.seat: os.path.getsize(m.transcript_path) for m in (host, carol)}
        for _ in range(40):  # 40 chat lines of 100 kB
            if bob.stopped is not None:
                break
            await bob.channel.broadcast("chat", {"text": "x" * 100_000, "step": 0})
            await asyncio.sleep(0.01)
        await until(lambda: host.stopped is not None and carol.stopped is not None, what="stop")
        assert {host.stopped.culprit, carol.stopped.culprit} == {1}
        assert "bob sent more than" in host.stopped.reason
        for m in (host, carol):
            assert os.path.getsize(m.transcript_path) - before[m.seat] <= cap + 200_000
        assert 0 < heard[0] < 40
    finally:
        for r in readers:
            r.cancel()
        await close_all(meshes)


@run_async(timeout=90)
async def test_a_seat_asking_for_everything_again_and_again_gets_a_bounded_answer(tmp_path,
                                                                                   monkeypatch):
    """Each ``want`` is a few hundred signed bytes; answering one meant serialising and sending
    up to a thousand recorded envelopes, and changing ``start`` between asks got round the
    repeat check. 200 asks a second from a seated client stalled a table's play (measured
    with the asker in its own process). Now a seat's asks and the bytes sent again for it are
    budgeted: the answer to a flood of asks is bounded, and nobody is blamed for asking."""
    import protocol.mesh.chain as chain
    from protocol.mesh import K_ENV, K_RELAY

    # 1 MiB burst, 200 kB/s here (64 MiB and 8 MiB/s by default): about 60 of these envelopes
    monkeypatch.setattr(chain, "RESEND_BYTES", (200_000.0, 1_000_000.0), raising=False)
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        for i in range(100):  # a history of 100 envelopes of 20 kB at alice
            await host.channel.broadcast("hist", {"i": i, "pad": "y" * 20_000})
        await until(lambda: bob.verifier.chains[0].seq == 100, what="history delivered")
        sent = {"frames": 0}
        real = host._send_frames

        def spy(seat, frames):
            if seat == 1 and frames[0] in (K_ENV, K_RELAY):
                sent["frames"] += 1
            real(seat, frames)

        host._send_frames = spy
        for k in range(500):  # a burst of asks for everything, start alternating
            bob._send_ctl(0, "want", {"seat": 0 if k % 2 else 2, "start": 1 + k % 3})
        await asyncio.sleep(1.5)
        # unbudgeted, 500 asks of 100 envelopes each: up to 50,000 sends (12,573 within the
        # 1.5 s on a loaded machine); now the budget of bytes bounds it
        assert 0 < sent["frames"] <= 200, sent
        assert all(m.stopped is None for m in meshes)
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_proof_requests_are_answered_within_the_same_budget(tmp_path):
    """A ``proof?`` is answered with a signed copy of a recorded envelope: as costly as a
    resend, so a flood of them is budgeted the same way."""
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        for i in range(20):
            await host.channel.broadcast("hist", {"i": i, "pad": "y" * 20_000})
        await until(lambda: bob.verifier.chains[0].seq == 20, what="history delivered")
        answers = {"n": 0}
        real = host._send_ctl

        def spy(seat, t, payload):
            if seat == 1 and t == "proof":
                answers["n"] += 1
            real(seat, t, payload)

        host._send_ctl = spy
        host._resend_asks.clear()
        host.timings = dataclasses.replace(host.timings, resend_after=10.0)  # 10 asks/s, burst 20
        for k in range(2_000):
            bob._send_ctl(0, "proof?", {"seat": 0, "seq": 1 + k % 20})
        await asyncio.sleep(2.0)
        # unbudgeted: one signed 20 kB answer per ask (several hundred in this time, in one
        # process); budgeted: 20 at once, then 10 a second
        assert 0 < answers["n"] <= 100, answers
        assert all(m.stopped is None for m in meshes)
    finally:
        await close_all(meshes)


@run_async(timeout=120)
async def test_a_flood_from_many_connections_at_once_neither_stalls_nor_keeps_memory(tmp_path):
    """Held: someone with the code and no seat floods from 64 connections at once (each new
    connection starts with a full unauthenticated budget). The table plays on, the victim's
    memory stays bounded, nobody is blamed. ``P2PCARDS_LONG=1`` floods longer."""
    import gc

    from .test_adversary import attack, blamed, rss_mb

    long = os.environ.get("P2PCARDS_LONG") == "1"
    meshes = await make_table(tmp_path, 3)
    victim = meshes[1]
    try:
        await play(meshes[0].channel, 0)
        gc.collect()
        before = rss_mb()
        flood = asyncio.create_task(attack("many", victim.address, 8.0 if long else 2.0,
                                           meshes[0].code))
        await asyncio.sleep(0.5)
        results = await asyncio.wait_for(
            asyncio.gather(*(play(m.channel, 30 if long else 10) for m in meshes)), 90)
        assert len({r["common"] for r in results}) == 1
        assert await flood > 20
        # what the flood left: once the frames still in flight are read and dropped (queued in
        # ZeroMQ as the flood ends: tens of MB, for a moment), nothing stays
        seen = -1
        while seen != victim.budgets.dropped:
            seen = victim.budgets.dropped
            await asyncio.sleep(0.5)
        gc.collect()
        assert rss_mb() - before <= 16
        assert victim.budgets.dropped > 0
        assert blamed(meshes) == set() and all(m.stopped is None for m in meshes)
    finally:
        await close_all(meshes)
