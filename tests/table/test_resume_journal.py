"""Red team 6b #5: ``join --resume`` with this seat's journal missing, empty or a folder said
"Everyone answered: back at the table.", then ended on a 1,000-character "re-run diverged on
topic 'deck'" dump (``SeatJournal.seed`` quietly made a new deck secret), or on "[Errno 21] Is a
directory". The journal holds the seat's deck secret: without it the seat cannot be taken back.
That is now said in words, naming the file, before the table is contacted."""

from __future__ import annotations

import asyncio
import shutil

import pytest

import p2pcards.resume as resume
from p2pcards.journal import SeatJournal, journal_lost
from p2pcards.lobby import GameInfo, play_seat
from protocol.mesh import MeshError
from protocol.transcript import read_transcript
from tests.mesh.helpers import identity, make_table
from tests.ui.test_net_screen import Holding

pytestmark = [pytest.mark.network]


async def dealt_then_crashed(tmp):
    """A 2-seat table dealt, then both programs gone without a word: bob's record on disk."""
    meshes = await make_table(tmp, 2, game_info=GameInfo("go-out-girl", 2, {}).to_json())
    tables = {}
    runs = [asyncio.create_task(play_seat(m, Holding(m.seat), say=lambda line: None,
                                          on_table=lambda t, s=m.seat: tables.__setitem__(s, t)))
            for m in meshes]
    try:
        for _ in range(600):
            await asyncio.sleep(0.05)
            if 1 in tables and tables[1].state.hand(1):
                break
        else:
            pytest.fail("no deal")
    finally:
        for r in runs:
            r.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        for m in meshes:
            await m.close(announce=False)
    return meshes[1].transcript_path


def test_resume_without_the_seat_journal_says_so_before_contacting_the_table(tmp_path,
                                                                               monkeypatch):
    path = asyncio.run(asyncio.wait_for(dealt_then_crashed(tmp_path), 120))
    seat = path.with_suffix(".seat")
    assert SeatJournal.read_only(seat).has_seed()
    assert journal_lost(read_transcript(path, tolerate_torn_tail=True)) is None  # all there
    kept = path.with_name("kept.seat")
    shutil.copy(seat, kept)
    said: list[str] = []
    monkeypatch.setattr(resume, "say", said.append)

    def resume_fails() -> str:
        said.clear()
        with pytest.raises(MeshError) as info:
            asyncio.run(resume._resume_latest(identity(tmp_path, 1), str(tmp_path / "home1"),
                                           "127.0.0.1"))
        assert not any("Resuming" in s for s in said), said  # nothing was sent to the table
        return str(info.value)

    seat.unlink()  # missing
    msg = resume_fails()
    assert f"this seat's journal ({seat}) is missing" in msg
    assert "deck secret" in msg and "cannot be taken back" in msg and len(msg) < 400
    assert not seat.exists()  # nothing made in its place

    seat.write_bytes(b"")  # empty
    assert "is empty" in resume_fails()

    lines = [x for x in kept.read_text().splitlines() if '"seed"' not in x]  # the seed line gone
    seat.write_text("".join(x + "\n" for x in lines) + '{"kind":"decision","step":0}\n')
    assert "holds no deck secret" in resume_fails()

    seat.unlink()
    seat.mkdir()  # a folder in its place
    msg = resume_fails()
    assert "is a folder" in msg and "Errno" not in msg and str(seat) in msg


def test_the_same_join_command_rerun_without_the_journal_says_so_too(tmp_path):
    """The seat is also taken back by rerunning the same join command (no --resume): that path
    reaches ``play_seat``, which made a new deck secret there. It now refuses in the same words."""
    from p2pcards.engine import ConfigError

    path = asyncio.run(asyncio.wait_for(dealt_then_crashed(tmp_path), 120))
    t = read_transcript(path, tolerate_torn_tail=True)
    path.with_suffix(".seat").unlink()

    class Rejoined:  # the mesh as a rerun join has it, seated again
        seat, seats, game_info, transcript_path = 1, 2, t.game_info, path
        public_topics = None

        async def wait_full(self, timeout=None):
            return None

        def name_of(self, s):
            return ["alice", "bob"][s]

    with pytest.raises(ConfigError) as info:
        asyncio.run(play_seat(Rejoined(), Holding(1), say=lambda line: None))
    assert "journal" in str(info.value) and "is missing" in str(info.value)
    assert "cannot be taken back" in str(info.value)
    assert not path.with_suffix(".seat").exists()  # no new secret written in its place
