"""Red team, floods from a seated peer: traffic the table does read (chat) still costs every
other player disk, since every envelope is recorded in every transcript."""

from __future__ import annotations

import asyncio
import os

import pytest

from .helpers import close_all, make_table, run_async, until

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
