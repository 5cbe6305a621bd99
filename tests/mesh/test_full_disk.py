"""A seat whose disk fills (or turns read-only) in the middle of a match (red team 18): its
transcript cannot keep what arrives, so the program stops playing with an ``OSError`` naming
the file -- the command line says it in words and how to take the seat back -- instead of
dropping the message with a line in the log and waiting for it for ever. A line cut short by
the full disk is never followed by another (the record stays readable up to it)."""

from __future__ import annotations

import asyncio
import errno

import pytest

from protocol.transcript import TranscriptWriter

from .helpers import close_all, make_table, run_async


class FullDisk:
    """A file object on a disk that takes ``room`` more bytes, then no more."""

    def __init__(self, room: int = 0) -> None:
        self.room, self.closed, self.taken = room, False, b""

    def write(self, data) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        n = min(self.room, len(data))
        self.taken += bytes(data[:n])
        self.room -= n
        return n

    def close(self) -> None:
        self.closed = True


@run_async(40)
async def test_a_message_that_cannot_be_recorded_stops_the_seat_in_words(tmp_path):
    alice, bob = await make_table(tmp_path, 2)
    try:
        bob.transcript._f = FullDisk()
        await alice.channel.broadcast("round", {"r": 0})
        with pytest.raises(OSError) as got:  # before the fix: dropped, and a wait for ever
            await asyncio.wait_for(bob.channel.recv("round"), 10)
        assert got.value.errno == errno.ENOSPC
        assert got.value.filename == str(bob.transcript_path)
        with pytest.raises(OSError):  # every later wait on the table says the same
            await bob.channel.recv("other", 1)
    finally:
        await close_all([alice, bob])


def test_a_line_cut_short_is_finished_or_followed_by_nothing(tmp_path):
    path = tmp_path / "t.jsonl"
    w = TranscriptWriter(path)
    w.write({"type": "table", "n": 1})
    real = w._f
    w._f = FullDisk(room=5)
    with pytest.raises(OSError) as got:
        w.write({"type": "note", "key": "x", "value": "y" * 40})
    assert got.value.errno == errno.ENOSPC and got.value.filename == str(path)
    w._f = real  # the disk has room again: still nothing after the cut line
    with pytest.raises(OSError):
        w.write({"type": "note", "key": "z", "value": 1})
    w.close()
    assert path.read_bytes().count(b"\n") == 1


def test_a_short_write_is_completed(tmp_path):
    """An unbuffered write may take part of a line and return how much: the rest follows
    (the old writer ignored the count, and the next record went onto the cut line)."""
    path = tmp_path / "t.jsonl"
    w = TranscriptWriter(path)

    class Short:
        closed = False

        def write(self, data) -> int:
            n = max(1, len(data) // 3)
            with path.open("ab") as f:
                f.write(bytes(data[:n]))
            return n

    w._f = Short()
    w.write({"type": "table", "seats": 2})
    w.write({"type": "note", "key": "k", "value": "v"})
    assert [line.count(b"{") for line in path.read_bytes().splitlines()] == [1, 1]
    assert path.read_bytes().endswith(b"}\n")
