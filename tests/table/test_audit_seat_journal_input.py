"""Red team 15a: the owner's seat journal beside a transcript (``<table>.seat``) is unsigned,
and ``p2pcards audit`` reads it. A line nested thousands deep made ``json.loads`` raise
``RecursionError``, which the reader did not catch: the audit ended in a traceback. A pipe
under the journal's name made it wait for a writer for ever (the transcript's reader refused
one, the journal's did not), and a journal of any size was read whole. Each is now a journal
that is "not used" (DAMAGED), with the rest of the audit as before."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

import p2pcards.journal as journal

from . import transcript_mutants as tm

pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    return tm.shared_game(tmp_path_factory)  # read only


def copy_of(g: tm.Game, tmp_path: Path) -> Path:
    path = tmp_path / g.path.name
    path.write_bytes(g.data)
    return path


def assert_journal_not_used(out: str, js: dict, why: str) -> None:
    assert "Traceback" not in out, out
    assert f"[DAMAGED] the owner's seat journal: {why}" in out, out
    assert js["culprit"] is None and "deck audit" in out, out


def test_a_journal_line_nested_thousands_deep_is_a_damaged_journal_not_a_traceback(
        game, tmp_path):
    path = copy_of(game, tmp_path)
    real = game.path.with_suffix(".seat").read_bytes()
    path.with_suffix(".seat").write_bytes(real + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    code, out, js = tm.cli_audit(path)
    n = real.count(b"\n") + 1
    assert_journal_not_used(out, js, f"line {n} is damaged")


def test_a_pipe_under_the_journal_s_name_is_not_waited_on(game, tmp_path):
    path = copy_of(game, tmp_path)
    os.mkfifo(path.with_suffix(".seat"))
    got: list = []
    t = threading.Thread(target=lambda: got.append(tm.cli_audit(path)), daemon=True)
    t.start()
    t.join(120)  # a guard, not a measure: the old reader waited for a writer for ever
    if t.is_alive():  # let the stuck reader go before failing
        with open(path.with_suffix(".seat"), "wb"):
            pass
        pytest.fail("p2pcards audit waited on the pipe beside the transcript")
    code, out, js = got[0]
    assert_journal_not_used(out, js, "it is not a file")


def test_a_journal_larger_than_any_table_writes_is_not_read(game, tmp_path, monkeypatch):
    path = copy_of(game, tmp_path)
    real = game.path.with_suffix(".seat").read_bytes()
    monkeypatch.setattr(journal, "MAX_JOURNAL", len(real) - 1)  # (the one reader: journal_records)
    path.with_suffix(".seat").write_bytes(real)
    code, out, js = tm.cli_audit(path)
    assert_journal_not_used(out, js, "it is larger than any seat journal a table writes")
