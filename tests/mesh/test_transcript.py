"""Transcripts are written as the game goes, read back verified, and damage is named by line."""

import json
import stat

import pytest

from protocol.envelope import canonical
from protocol.identity import Identity
from protocol.transcript import TranscriptError, find_transcripts, read_transcript

from .helpers import close_all, make_table, run_async


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A finished 3-seat table: (tmp dir, table id, [identity per seat])."""
    tmp = tmp_path_factory.mktemp("transcripts")

    @run_async()
    async def go():
        meshes = await make_table(tmp, 3, game_info={"game": "test"})
        for m in meshes:
            await m.channel.broadcast("game", {"from": m.seat})
            await m.channel.send((m.seat + 1) % 3, "deck", {"key": f"k{m.seat}"})
        for m in meshes:
            for _ in range(2):
                await m.channel.recv("game", 5)
            await m.channel.recv("deck", 5)
        meshes[0].note("seed", "abc")
        for m in meshes:
            m.finish({"winner": 1})
        await meshes[0].checkpoint(5)
        result = (
            meshes[0].table,
            [m.identity for m in meshes],
            [m.transcript_path for m in meshes],
        )
        await close_all(meshes)
        return result

    table, ids, paths = go()
    return tmp, table, ids, paths


def test_every_peer_has_a_verifiable_transcript(recorded):
    tmp, table, ids, paths = recorded
    for seat, (ident, path) in enumerate(zip(ids, paths, strict=True)):
        assert path == tmp / f"home{seat}" / "tables" / f"{table}.jsonl"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert find_transcripts(tmp / f"home{seat}") == [path]
        t = read_transcript(path, ident)
        assert (t.table, t.seat, t.seats, t.game_info) == (table, seat, 3, {"game": "test"})
        assert t.finished and t.result == {"winner": 1}
        assert [m["name"] for m in t.roster] == ["alice", "bob", "carol"]
        assert len(t.entries) == 6  # every envelope of every peer, private ones included
        assert {e.direction for e in t.entries if e.sender == seat} == {"out"}
        msgs = t.messages()
        assert (seat, None, "game", {"from": seat}) in msgs
        # private bodies: readable to and from this seat only
        for sender, to, _topic, body in msgs:
            if to is not None:
                assert (body is not None) == (seat in (sender, to))
                if body is not None:
                    assert body == {"key": f"k{sender}"}
    notes = read_transcript(paths[0]).notes
    assert len(bytes.fromhex(notes.pop("transport"))) == 32  # the connection key, for a resume
    assert notes == {"seed": "abc"}
    heads = [read_transcript(p).heads() for p in paths]
    assert heads[0] == heads[1] == heads[2]


def test_without_the_identity_private_bodies_stay_closed(recorded):
    _, _, _, paths = recorded
    t = read_transcript(paths[1])
    assert all(e.body is None for e in t.entries if e.to is not None)
    t = read_transcript(paths[1], Identity.generate())
    assert all(e.body is None for e in t.entries if e.to is not None)


def _lines(path):
    return path.read_bytes().split(b"\n")[:-1]


def _write(path, lines, tail=b"\n"):
    path.write_bytes(b"\n".join(lines) + tail)


def test_a_tampered_line_is_reported(recorded, tmp_path):
    _, _, ids, paths = recorded
    lines = _lines(paths[0])
    n = next(i for i, raw in enumerate(lines) if b'"type":"in"' in raw and b'"body"' in raw)
    rec = json.loads(lines[n])
    rec["env"]["body"]["from"] = 99
    bad = tmp_path / "tampered.jsonl"
    _write(bad, lines[:n] + [canonical(rec)] + lines[n + 1 :])
    with pytest.raises(TranscriptError) as e:
        read_transcript(bad)
    assert (
        e.value.line == n + 1
        and "bad signature" in str(e.value)
        and f"line {n + 1}" in str(e.value)
    )


def test_a_dropped_or_reordered_line_breaks_the_chain(recorded, tmp_path):
    _, _, _, paths = recorded
    lines = _lines(paths[0])
    envs = [i for i, raw in enumerate(lines) if b'"type":"out"' in raw]
    bad = tmp_path / "gap.jsonl"
    _write(bad, lines[: envs[0]] + lines[envs[0] + 1 :])
    with pytest.raises(TranscriptError, match="chain has a gap"):
        read_transcript(bad)


def test_truncated_and_damaged_files(recorded, tmp_path):
    _, _, ids, paths = recorded
    lines = _lines(paths[2])
    cut = tmp_path / "cut.jsonl"
    _write(cut, lines[:5] + [lines[5][:40]], tail=b"")
    with pytest.raises(TranscriptError) as e:
        read_transcript(cut)
    assert e.value.line == 6 and "truncated" in str(e.value)
    # crash recovery tolerates a torn last line and says where the good part ends
    t = read_transcript(cut, ids[2], tolerate_torn_tail=True)
    assert t.torn_tail and t.valid_bytes == sum(len(x) + 1 for x in lines[:5])
    garbage = tmp_path / "garbage.jsonl"
    _write(garbage, lines[:3] + [b"{not json"] + lines[4:])
    with pytest.raises(TranscriptError, match="line 4: .*damaged"):
        read_transcript(garbage)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(TranscriptError, match="empty"):
        read_transcript(empty)
    with pytest.raises(TranscriptError, match="cannot read"):
        read_transcript(tmp_path / "missing.jsonl")
    other = tmp_path / "other.jsonl"
    _write(other, [b'{"hello":"world"}'])
    with pytest.raises(TranscriptError, match="line 1: the first line is not a table record"):
        read_transcript(other)


def test_a_renamed_player_in_the_roster_is_caught(recorded, tmp_path):
    _, _, _, paths = recorded
    lines = _lines(paths[1])
    n = next(i for i, raw in enumerate(lines) if b'"type":"roster"' in raw)
    rec = json.loads(lines[n])
    rec["roster"][0]["name"] = "mallory"
    bad = tmp_path / "renamed.jsonl"
    _write(bad, lines[:n] + [canonical(rec)] + lines[n + 1 :])
    with pytest.raises(TranscriptError, match=f"line {n + 1}: .*not signed by its key"):
        read_transcript(bad)
