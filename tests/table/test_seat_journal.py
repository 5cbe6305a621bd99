"""The seat journal (a seat's secrets and own decisions, for recovery) survives a crash in the
middle of a write, and a damaged journal stops with a clear message instead of a traceback."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.engine import ConfigError
from p2pcards.journal import SeatJournal
from p2pcards.table import Table, TableStopped


def test_a_torn_last_line_is_dropped_and_the_journal_goes_on(tmp_path):
    path = tmp_path / "t.seat"
    path.write_text('{"kind":"seed","deck":"00ff"}\n{"kind":"decision","step":3}\n{"kind":"dec')
    j = SeatJournal(path)
    assert [r["kind"] for r in j.records] == ["seed", "decision"]
    assert j.seed() == bytes.fromhex("00ff")
    j.append({"kind": "decision", "step": 4})
    j.close()
    again = SeatJournal(path)  # the new record did not land on the torn line
    assert [r.get("step") for r in again.records] == [None, 3, 4]
    again.close()


@pytest.mark.parametrize("text, words", [
    ('{"kind":"seed","deck":"00"}\n{"kind":\n{"kind":"decision"}\n', "line 2 is damaged"),
    ('[1, 2]\n', "line 1 is damaged"),
    ('{"kind":"seed","deck":"not hex"}\n', "the deck seed is damaged"),
    ('{"kind":"seed"}\n', "the deck seed is damaged"),
    (b'\xff\xfe\n', "line 1 is damaged"),
    # a line nested thousands deep: json.loads raises RecursionError, which was a traceback
    ('{"kind":"seed","deck":"00"}\n' + "[" * 100_000 + "]" * 100_000 + "\n", "line 2 is damaged"),
])
def test_a_damaged_journal_is_a_clear_error(tmp_path, text, words):
    path = tmp_path / "t.seat"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    with pytest.raises(ConfigError, match=words):
        SeatJournal(path).seed()


def test_a_journal_that_is_a_pipe_is_a_clear_error_not_a_wait(tmp_path):
    """A pipe under the journal's name would make reading it wait for a writer for ever (the
    program hung before its table began); it is refused as not a journal (red team 15a found it
    in the audit's reader; the seat's own reader had it too)."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    path = tmp_path / "t.seat"
    os.mkfifo(path)
    pool = ThreadPoolExecutor(1)  # (the old code waited for ever: judged after 5 s, not joined)
    for open_it in (SeatJournal, SeatJournal.read_only):
        with pytest.raises(ConfigError, match="not a file"):
            pool.submit(open_it, path).result(timeout=5)
    pool.shutdown(wait=False)


@pytest.mark.parametrize("record", [
    {"kind": "decision", "step": 0, "action": "garbage"},
    {"kind": "decision", "step": 0},
    {"kind": "arrange", "step": 0, "order": [5, "x"]},
    {"kind": "arrange", "step": 0, "order": [5, 6, 9]},
])
def test_a_damaged_journal_record_stops_the_table_naming_it(record):
    t = Table("go-out-girl", 2, {}, 0, None, None, None, resume=[record])  # type: ignore[arg-type]

    async def resume_one():
        if record["kind"] == "decision":
            await t._my_decision()
        else:
            await t._arrange(0, (5, 6, 7))
    with pytest.raises(TableStopped, match="this seat's journal is damaged"):
        asyncio.run(resume_one())
