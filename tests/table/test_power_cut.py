"""Red team 19, #3: bad luck with no cheat at all. bob's machine loses power just after his
program sent a move (3 seats, play_seat, Go Out Girl, the tests' timings). What the program had
written but the system had not yet put on the disk is lost: here, the lines of that move and
what followed (the seat journal's decision, the record's envelope); the others hold the move.
``join --resume`` then re-ran the game from what was left, bob's bot chose again (another
move), his program sent it under the same number, and every program named bob: "bob sent
different messages to different players (seat 2 signed two different envelopes with seq 12)"
(one run of two with random bots; every run here, where the second choice differs).

Now a seat's choices are on the disk before they are sent (``SeatJournal.append`` syncs), and
so is every envelope a re-run would not make again byte for byte (``Mesh.remade_topics``: a
chat line, a private box, and since red team 20 every envelope, each stating the heads its
program held, which a re-run holds otherwise). The power
cut is played by keeping of each file what was synced, or (the system writing back what it
holds in time) what was written before the move."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from p2pcards.lobby import GameInfo, play_seat
from protocol.mesh import Mesh
from protocol.mesh.common import Timings
from tests.mesh.helpers import LOOPBACK, close_all, identity, run_async
from tests.mesh.test_one_sided_link import seat_three, stops

pytestmark = [pytest.mark.network,
              pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")]
BOB = 1


class Picks:
    """A bot that takes the first legal action (``last``: the last), noting how many it had."""

    needs_view = False

    def __init__(self, last: bool = False) -> None:
        self.last, self.options = last, 0

    def decide(self, view, legal):
        self.options = len(legal)
        return legal[-1] if self.last else legal[0]

    def arrange(self, view, slots):
        return list(slots)


def watch_syncs(monkeypatch) -> dict[str, int]:
    """Each file's size at its last sync (``fsync``/``fdatasync``), by path."""
    synced: dict[str, int] = {}
    for name in ("fsync", "fdatasync"):
        real = getattr(os, name, None)
        if real is None:
            continue

        def sync(fd, real=real):
            real(fd)
            synced[os.readlink(f"/proc/self/fd/{fd}")] = os.fstat(fd).st_size
        monkeypatch.setattr(os, name, sync)
    return synced


def power_cut(path: Path, synced: dict[str, int], last_line: bytes) -> int:
    """Keep of ``path`` what was synced, or what was written before its last line holding
    ``last_line`` if that is more (the system wrote back the rest in time). Lines cut."""
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if last_line in line)
    keep = max(synced.get(str(path), 0), len(b"".join(lines[:last])))
    path.write_bytes(data[:keep])
    return len(data[keep:].splitlines())


@run_async(timeout=180)
async def test_a_power_cut_right_after_a_move_does_not_get_the_seat_named(tmp_path, monkeypatch):
    synced = watch_syncs(monkeypatch)
    info = GameInfo("go-out-girl", 3, {}, wait=20.0, turn_time=3.0).to_json()
    meshes = await seat_three(tmp_path, {}, info)
    await asyncio.gather(*(m.wait_full(10) for m in meshes))
    bob, first = meshes[BOB], Picks()
    moved = asyncio.Event()
    send_env = bob._send_env

    def sent(to, topic, body):  # the power goes right after a move chosen among several
        env = send_env(to, topic, body)
        if topic == "game" and first.options > 1:
            moved.set()
        return env
    bob._send_env = sent

    def play(m, player):
        return asyncio.create_task(play_seat(m, player, say=lambda s: None, bot=True,
                                             deck_timeout=5.0))
    runs = {m.name: play(m, first if m is bob else Picks()) for m in meshes}
    bob2 = None
    try:
        await asyncio.wait_for(moved.wait(), 60)
        runs["bob"].cancel()
        await asyncio.gather(runs["bob"], return_exceptions=True)
        await bob.close(announce=False)
        record = bob.transcript_path
        assert record is not None
        move = [ln for ln in record.read_bytes().splitlines() if b'"topic":"game"' in ln][-1]
        power_cut(record, synced, b'"topic":"game"')
        # the move's envelope states bob's heads, which a re-run could not state again byte for
        # byte: it was on the disk before it went (red team 20), and the cut keeps it
        assert move in record.read_bytes().splitlines()
        power_cut(record.with_suffix(".seat"), synced, b'"decision"')
        bob2 = await Mesh.resume(identity(tmp_path, BOB), bob.table, bind=LOOPBACK,
                                 timings=Timings.fast(), home=tmp_path / f"home{BOB}")
        runs["bob"] = play(bob2, Picks(last=True))  # would choose otherwise now
        everyone = [m for m in meshes if m is not bob] + [bob2]
        results = await asyncio.gather(*runs.values(), return_exceptions=True)
        assert not stops(everyone), stops(everyone)
        assert all(not isinstance(r, BaseException) for r in results), results
    finally:
        for r in runs.values():
            r.cancel()
        await asyncio.gather(*runs.values(), return_exceptions=True)
        await close_all([m for m in meshes if m is not bob] + ([bob2] if bob2 else []))
