"""A chat line cannot be dated back (red team 13, M1). A line carries the game step its sender
dated it at, and each seat judges it by the table-talk rule of that step (issue 14 item 9); the
channel delivers a sender's lines and moves in the order it sent them, so a receiver sees where
among the sender's moves a line really came. Over real loopback meshes: a modified program that
dates its lines back to a step before its own move is refused by every other seat, and an honest
line said the instant after one's own move is heard."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import play_seat
from tests.mesh.helpers import NAMES, close_all, run_async, until

from .test_table_rules import table_of

pytestmark = pytest.mark.network


async def _play(meshes, game, heard, tables=None):
    """Every seat's game with easy bots, side by side; what each seat's table says goes to
    ``heard[seat]``."""
    def seat(m):
        return play_seat(m, make_bot(game, m.seat, "easy", m.seat), say=heard[m.seat].append,
                         deck_timeout=10.0,
                         on_table=None if tables is None else (lambda t: tables.__setitem__(t.seat, t)))
    return [asyncio.create_task(seat(m)) for m in meshes]


async def _stop(runs) -> None:
    for r in runs:
        r.cancel()
    await asyncio.gather(*runs, return_exceptions=True)


@run_async(timeout=120)
async def test_lines_a_program_dates_back_before_its_own_moves_are_refused_everywhere(tmp_path):
    """Out Of This World: "During this phase, you can only speak during your turn, when you are
    holding the Vocal Player token." Carol's program is modified: after each move it sends, it
    sends every other seat a line dated at that move's step -- a step at which it was her move,
    so she may talk there -- to go on talking through the others' turns. Every other seat
    refuses each line, naming her program, and shows none of them."""
    meshes = await table_of(tmp_path, 3, "out-of-this-world")
    liar = meshes[2]
    real = liar.channel.broadcast
    lines: list[int] = []

    async def broadcast(topic, body):
        await real(topic, body)
        if topic == "game" and len(lines) < 3:
            lines.append(body["step"])
            for p in (0, 1):
                await liar.channel.send(p, "chat", {"text": f"dated back {len(lines)}",
                                                    "step": body["step"]})
    liar.channel.broadcast = broadcast
    heard: dict[int, list[str]] = {0: [], 1: [], 2: []}
    runs = await _play(meshes, "out-of-this-world", heard)
    try:
        def refused(seat):
            return [h for h in heard[seat] if "a chat line from carol was refused" in h]
        await until(lambda: all(len(refused(s)) >= 3 for s in (0, 1)) or any(r.done() for r in runs),
                    timeout=90, what="both honest seats judge carol's three lines")
        for s in (0, 1):
            assert len(refused(s)) == 3, (s, heard[s])
            assert all("carol's program dated it at game step" in h
                       and "a line cannot be dated back" in h for h in refused(s)), refused(s)
            assert not [h for h in heard[s] if h.startswith("carol: ")], heard[s]
    finally:
        await _stop(runs)
        await close_all(meshes)


@run_async(timeout=120)
async def test_a_line_said_the_instant_after_ones_own_move_is_heard(tmp_path):
    """Alice says a line the instant after her move, while her move is still on its way (the
    broadcast not yet returned, her game still at the move's step): it is dated after the move,
    as every seat receives it, and bob hears it -- an honest line is never taken for one dated
    back (Go Out Girl: table talk is free)."""
    meshes = await table_of(tmp_path, 2)
    real = meshes[0].channel.broadcast
    tables: dict = {}
    said: list[asyncio.Task] = []

    async def broadcast(topic, body):
        await real(topic, body)
        if topic == "game" and len(said) < 3:
            said.append(asyncio.create_task(tables[0].send_chat(f"after my move {len(said) + 1}")))
            await asyncio.sleep(0.05)  # the line is said while the move is under way
    meshes[0].channel.broadcast = broadcast
    heard: dict[int, list[str]] = {0: [], 1: []}
    runs = await _play(meshes, "go-out-girl", heard, tables)
    try:
        def chat(h):
            return h.startswith(f"{NAMES[0]} (seat 1): ") or "chat line" in h
        await until(lambda: len([h for h in heard[1] if chat(h)]) >= 3 or any(r.done() for r in runs),
                    timeout=90, what="bob hears alice's three lines")
        assert [await s for s in said] == [None, None, None]
        assert [h for h in heard[1] if chat(h)] == [f"{NAMES[0]} (seat 1): after my move {i}" for i in (1, 2, 3)]
    finally:
        await _stop(runs)
        await close_all(meshes)
