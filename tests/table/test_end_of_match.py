"""Issue 16 item 3: nothing after the last move can take the result away. The result and the
audit are recorded (the transcript marked finished) before the final checkpoint, and a checkpoint
that cannot complete says so in words and leaves the result standing."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import play_seat
from protocol.transcript import read_transcript
from tests.mesh.helpers import close_all, run_async

from .test_table_rules import table_of

pytestmark = pytest.mark.network


@run_async(timeout=180)
async def test_a_checkpoint_cut_off_after_the_last_move_keeps_the_result(tmp_path):
    meshes = await table_of(tmp_path, 2)
    said: list[list[str]] = [[], []]

    async def cut_off(*args, **kwargs):  # the link dies right after the last move
        raise TimeoutError("no checkpoint answer from alice")

    meshes[1].checkpoint = cut_off  # type: ignore[method-assign]
    try:
        results = await asyncio.gather(*(
            play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat), say=said[m.seat].append,
                      bot=True) for m in meshes))
        assert all(r.verdict is not None and r.verdict.clean for r in results)
        assert results[0].outcome == results[1].outcome
        assert results[0].compared is True and results[1].compared is False  # bot --json says so
        assert any("could not compare transcripts with" in s and "the result and audit above "
                   "stand" in s for s in said[1])
        for m in meshes:
            t = read_transcript(m.transcript_path)
            assert t.finished and t.result["outcome"] == results[0].outcome
    finally:
        await close_all(meshes)
