"""ux21: the tables folder holds, beside each transcript (``X.jsonl``), the seat's journal
(``X.seat``) and the table's lock (``X.lock``). 'p2pcards audit X.seat' said "[DAMAGED]
signatures and hash chains: ... record is not in canonical form (the line is damaged or
truncated)" of a whole file, and 'replay' the same as an error; the lock read as "the file was
cut short". Both now say what the file is and give the command on the transcript beside it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from p2pcards import cli

runner = CliRunner()

pytestmark = pytest.mark.usefixtures("keep_the_loggers")


@pytest.fixture
def tables(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path / "home"))
    d = tmp_path / "tables"
    d.mkdir()
    (d / "t1.jsonl").write_text('{"type":"table"}\n')
    (d / "t1.seat").write_text('{"kind":"seed","deck":"' + "ab" * 32 + '"}\n'
                               '{"kind":"decision","step":4,"action":{"kind":"done"}}\n')
    (d / "t1.lock").write_text("")
    (d / "lone.seat").write_text('{"kind":"seed","deck":"' + "cd" * 32 + '"}\n')
    return d


@pytest.mark.parametrize("command", ["audit", "replay"])
def test_a_seat_journal_or_a_lock_is_named_and_the_transcript_beside_it_given(tables, command):
    argv = [command] + ([] if command == "audit" else ["--plain"])
    for name, what in (("t1.seat", "is a seat's journal (its deck secret and its choices"),
                       ("t1.lock", "is the lock a running table holds on its transcript")):
        r = runner.invoke(cli.app, [*argv, str(tables / name)])
        assert r.exit_code == 2, r.output
        assert f"{tables / name} {what}" in r.output
        assert f"not a transcript; {command} the transcript: p2pcards {command} " \
               f"{tables / 't1.jsonl'}" in r.output
        assert "DAMAGED" not in r.output and "cut short" not in r.output
    r = runner.invoke(cli.app, [*argv, str(tables / "lone.seat")])
    assert r.exit_code == 2 and "('p2pcards tables' lists them)" in r.output, r.output
