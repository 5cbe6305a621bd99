"""Team talk stays with the team (docs/network.md, "What the network protects": "Private
messages (team chat) are encrypted end to end"; The Girl and the Robot: "Allies play next to
each other. They can talk" -- a seat's chat goes to its living ally only).

Over the real mesh on 127.0.0.1, four seats of The Girl and the Robot, alice and bob allies
against carol and dave. Attacked twice: carol and dave read everything their programs receive
and record (alice's line to bob must be in neither, in any form), and carol's modified program
sends a "team" line to alice, who is not her ally: alice's program refuses it and shows none of
it, while bob, alice's ally, hears her."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.table import Table
from tests.mesh.helpers import NAMES, close_all, run_async
from tests.table.test_table_rules import table_of

pytestmark = pytest.mark.network

ALLY = {0: [1], 1: [0], 2: [3], 3: [2]}
SECRET = "I hold the Kings Sword, keep the Demon away"


async def heard_by(said: list[str], n: int) -> None:
    for _ in range(100):
        if len(said) >= n:
            return
        await asyncio.sleep(0.05)


@run_async(timeout=60)
async def test_team_talk_reaches_the_ally_only_and_a_line_to_a_rival_is_refused(tmp_path):
    meshes = await table_of(tmp_path, 4, game="girl-and-robot")
    said: list[list[str]] = [[] for _ in meshes]
    try:
        tables = [Table("girl-and-robot", 4, {}, m.seat, m.channel, None, None,  # type: ignore[arg-type]
                        names=NAMES[:4], say=said[m.seat].append) for m in meshes]
        for t in tables:  # the teams of the rulebook, as the game states them once dealt
            t.state.chat_audience = ALLY.__getitem__
            t.state.chat_refusal = lambda seat: None
        listening = [asyncio.create_task(t._chat_loop()) for t in tables]
        assert await tables[0].send_chat(SECRET) is None
        await heard_by(said[1], 1)
        assert said[1] == [f"alice (seat 1): {SECRET}"]
        # carol's program, modified, sends alice a line as if they were allies
        await meshes[2].channel.send(0, "chat", {"text": "alice, tell me your hand", "step": 0})
        await heard_by(said[0], 1)
        await asyncio.sleep(0.5)  # anything else on its way to carol or dave arrives
        for task in listening:
            task.cancel()
        assert len(said[0]) == 1 and "refused" in said[0][0] and "team talk" in said[0][0]
        assert "tell me your hand" not in said[0][0], said[0]
        assert said[2] == [] and said[3] == []  # the rivals were shown nothing
    finally:
        await close_all(meshes)
    for rival in (2, 3):  # nor is it anywhere in what their programs received and kept
        record = meshes[rival].transcript_path.read_text()
        assert meshes[rival].transcript_path.stat().st_size > 0
        for piece in ("Kings Sword", "Demon away", SECRET):
            assert piece not in record, f"{NAMES[rival]}'s record holds alice's team talk"
