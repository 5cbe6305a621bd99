"""Red team 11, H2 (the record's side): a transcript is read a line at a time and held only as far
as a table holds a match. ``p2pcards audit`` of a 62 MB transcript took 1.6 GB, and nothing
bounded what a crafted one could take: now a line longer than any record a table writes, or one
seat's envelopes taking more to hold than every peer accepts from one seat, is refused in one
line, before it is read further."""

from __future__ import annotations

import copy

import pytest

from protocol.envelope import MAX_SEAT_BYTES
from protocol.transcript import MAX_LINE, TranscriptError, read_transcript

from . import transcript_mutants as tm
from .test_transcript_fuzz import run_audit

pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    return tm.shared_game(tmp_path_factory)


def padded(game: tm.Game, count: int) -> bytes:
    """The game with ``count`` chat lines of seat 2's, each padded with 16,000 empty objects
    (48 KB on the wire, 1.1 MB once read), validly signed into its chain."""
    recs = tm.parse(game.lines)
    i, template = next((i, r) for i, r in enumerate(recs)
                       if r.get("type") in ("in", "out") and r["env"]["from"] == 1
                       and r["env"]["to"] is None)
    for _ in range(count):
        line = copy.deepcopy(template)
        line["env"]["topic"] = "chat"
        line["env"]["body"] = {"text": "x", "step": 0, "pad": [{}] * 16_000}
        recs.insert(i + 1, line)
    return tm.join(tm.encode(tm.resign(recs, game.identities)))


def test_a_seat_whose_messages_take_more_to_hold_than_a_table_accepts_is_refused(game, tmp_path):
    path = tmp_path / "t.jsonl"
    count = MAX_SEAT_BYTES // 2_000_000 + 2  # each is counted as about 2 MB
    path.write_bytes(padded(game, count))
    code, out = run_audit(path)
    assert code != 0 and "seat 2's messages take more than 64 MiB to hold" in out, out
    with pytest.raises(TranscriptError, match="more than any table accepts from one seat"):
        read_transcript(path, tolerate_torn_tail=True)
    # below the bound the same lines are only chat: the record reads
    path.write_bytes(padded(game, 4))
    assert len(read_transcript(path).entries) == len(read_transcript(game.path).entries) + 4


def test_a_line_longer_than_any_record_is_refused_unread(game, tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(game.lines[0] + b"\n" + b"[" + b"0," * (MAX_LINE // 2 + 10) + b"0]\n")
    code, out = run_audit(path)
    assert code != 0 and "a line longer than any record a table writes (4 MiB)" in out, out


@pytest.mark.parametrize("kind", ["note", "fault"])
def test_a_transcript_with_more_own_records_than_a_table_writes_is_refused(game, tmp_path, kind):
    """Red team 12, M1: ``note`` and ``fault`` lines are this program's own, unsigned, and were
    kept without bound: 1,000 crafted notes (50 MB on disk) took ``p2pcards audit`` to 1.2 GB
    and read "Verdict: clean"; under a memory cap, a raw traceback. A table writes a handful of
    notes and a fault or two: past 16 MiB of them (as ``held_cost`` counts), the file is
    refused in one line."""
    from protocol.transcript import MAX_OWN_BYTES

    recs = tm.parse(game.lines)
    pad = [{}] * 16_000  # about 2 MB to hold, 96 KB on disk
    count = MAX_OWN_BYTES // 2_000_000 + 2
    for i in range(count):
        junk = ({"type": "note", "key": f"junk{i}", "value": pad} if kind == "note" else
                {"type": "fault", "seat": pad, "reason": "x"})
        recs.insert(2, junk)
    path = tmp_path / "t.jsonl"
    path.write_bytes(tm.join(tm.encode(recs)))
    code, out = run_audit(path)
    assert code == 1 and "[DAMAGED]" in out, out
    assert "notes and fault records take more than 16 MiB to hold" in out, out
    with pytest.raises(TranscriptError, match="more than any table writes"):
        read_transcript(path, tolerate_torn_tail=True)
    # a few are only junk: the record reads, and the audit does not call it clean for them
    del recs[2:count]
    path.write_bytes(tm.join(tm.encode(recs)))
    assert read_transcript(path).table == read_transcript(game.path).table
