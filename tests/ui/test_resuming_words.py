"""``join --resume`` said "Resuming table 03804c... (seat 2 of 3): looking for ...": a hex id
where a person expects something they recognise. It now names the game, when the table
started, their seat, and the record's file as 'p2pcards tables' lists it; the players follow
(whom it looks for)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from p2pcards import journal, resume
from p2pcards.ui.waiting import when_text

TABLE = "aaf6943c2e592e49456b4e1b824e8d10"


def resumed_words(monkeypatch, tmp_path, game: str, created: float, roster: list) -> str:
    path = Path(tmp_path) / "tables" / f"{TABLE}.jsonl"
    me = SimpleNamespace(key_hex="k1")
    record = SimpleNamespace(key="k1", finished=False, stop=None, roster=roster, seat=1,
                             seats=3, table=TABLE, created=created, path=path,
                             game_info={"game": game, "players": 3, "options": {}})
    said: list[str] = []

    class Reached(Exception):
        pass

    async def contacted(*args, **kwargs):
        raise Reached

    monkeypatch.setattr(resume, "find_transcripts", lambda home: [path])
    monkeypatch.setattr(resume, "read_transcript", lambda *a, **k: record)
    monkeypatch.setattr(journal, "journal_lost", lambda t: None)
    monkeypatch.setattr(resume.Mesh, "resume", contacted)
    monkeypatch.setattr(resume, "say", said.append)
    with pytest.raises(Reached):
        asyncio.run(resume._resume_latest(me, str(tmp_path), "127.0.0.1"))
    (line,) = said
    return line


def test_resume_names_the_game_when_it_started_and_the_seat_not_a_hex_id(monkeypatch, tmp_path):
    roster = [{"seat": 0, "name": "alice", "addr": "tcp://10.77.0.1:44801"},
              {"seat": 1, "name": "bob", "addr": "tcp://10.77.0.2:35565"},
              {"seat": 2, "name": "carol", "addr": "tcp://10.77.0.3:35409"}]
    started = time.time() - 60
    line = resumed_words(monkeypatch, tmp_path, "go-out-girl", started, roster)
    assert line == (f"Resuming table: Go Out Girl, started {when_text(started)}, you in seat 2 "
                    f"of 3 (its record: {TABLE}.jsonl): looking for the other players: alice "
                    "(the host, at 10.77.0.1:44801), carol (at 10.77.0.3:35409)..."), line
    assert not line.startswith(f"Resuming table {TABLE}")
    alone = resumed_words(monkeypatch, tmp_path, "girl-and-robot", started, roster[1:2])
    assert alone.startswith("Resuming table: The Girl and the Robot, started ")
    assert alone.endswith(".jsonl); nobody else is seated yet."), alone


def test_when_a_table_started_in_words():
    import datetime

    now = datetime.datetime(2026, 12, 5, 0, 40).timestamp()
    at = datetime.datetime
    assert when_text(at(2026, 12, 5, 0, 3).timestamp(), now) == "today at 00:03"
    assert when_text(at(2026, 12, 4, 23, 59).timestamp(), now) == "yesterday at 23:59"
    assert when_text(at(2026, 11, 28, 14, 5).timestamp(), now) == "on 28 Nov at 14:05"
    assert when_text(at(2025, 12, 24, 9, 30).timestamp(), now) == "on 24 Dec 2025 at 09:30"
    assert when_text(1e300, now) == ""  # no time a record can hold
