"""A table's programs use three topics (``lobby.TABLE_TOPICS``: moves, the deck, chat). A message
on any other is named by every program at once: its topic is in the clear in its signed envelope,
so every peer sees the same thing, private messages included."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.lobby import TABLE_TOPICS

from .helpers import close_all, make_table, run_async, until

pytestmark = pytest.mark.network


@run_async(timeout=60)
async def test_private_messages_on_a_topic_nobody_reads_are_named_by_every_program(tmp_path):
    """Carol fills bob's memory with private messages on a topic no program reads, 300 KB each (a box of 400 KB).
    Only bob held them, unread: he named her once 16 MiB waited, and alice could only record his
    claim. Now alice and bob each name carol at her first such message."""
    meshes = await make_table(tmp_path, 3)
    for m in meshes:
        m.topics = TABLE_TOPICS  # as play_seat sets it
    alice, bob, carol = meshes
    try:
        sent = 0
        for _ in range(60):  # 18 MB: past the 16 MiB a seat may leave unread
            if carol.stopped is not None:
                break
            try:
                await carol.channel.send(bob.seat, "junk", {"pad": "x" * 300_000})
            except Exception:  # noqa: BLE001 -- the table stopped her
                break
            sent += 1
            await asyncio.sleep(0.01)
        await until(lambda: alice.stopped is not None and bob.stopped is not None, 30,
                    "alice and bob to stop")
        for m in (alice, bob):
            assert m.stopped.culprit == carol.seat and m.stopped.claimed is None, m.stopped
            assert "topic 'junk', which no program at this table uses" in m.stopped.reason
        assert sent < 10, sent
    finally:
        await close_all(meshes)
