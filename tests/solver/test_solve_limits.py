"""Red team: 'p2pcards solve' on a large position searched for minutes without a word, then
refused it as a "bad position" (a five-seat Go Out Girl deal: 4 minutes, then "too large to solve
exactly"). Now the search has a time limit (``--time-limit``, 60 s by default), says that it is
searching once it takes more than a moment, and when the limit or Ctrl-C stops it, prints the
best answer found so far marked as not proven, or says that there is none (exit 1; 130 for
Ctrl-C), never a traceback. What it answers within the limit is unchanged
(``test_gog_puzzles.py``, ``test_ootw_puzzles.py``)."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from typer.testing import CliRunner

import solver.limits
from p2pcards import cli
from solver import positions
from solver.limits import Limit

from .ootw_solver_helpers import random_position
from .test_ootw_exact import replay

ROOT = Path(__file__).resolve().parents[2]

#: Five seats of ten cards each and a deck: the exact search needs minutes and more.
BIG_DEAL = {
    "format": 1, "game": "go-out-girl",
    "seats": [
        {"name": "S0", "hand": "8 11 G G 3 7 6 G 8 7", "character": "nerai"},
        {"name": "S1", "hand": "13 2 4 1 3 3 7 10 G 5", "character": "toyoko"},
        {"name": "S2", "hand": "10 4 5 13 G 7 6 12 G 1", "character": "niwa"},
        {"name": "S3", "hand": "9 2 8 5 11 12 4 5 8 2", "character": "shian"},
        {"name": "S4", "hand": "11 7 6 3 13 4 13 11 9 11", "character": "satsuki"},
    ],
    "to_move": 0, "field": None, "deck": "12 12 1 10 10 5 10 7 2 1",
}


class Ticks:
    """A clock that moves one second each time it is read: a limit of N seconds is reached at
    the N-th look (one every ``Limit.EVERY`` positions), the same on any machine."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


class TickLimit(Limit):
    def __init__(self, seconds=None, progress=None, **kw):
        super().__init__(seconds, progress, clock=Ticks(), **kw)


def ootw_position() -> dict:
    """A three-seat Out Of This World round of 57,610 positions, whose first two of three
    first moves are searched to the end within 40,000."""
    return random_position(random.Random(12), max_stack=3, max_hand=3)


@pytest.fixture
def big_deal(tmp_path):
    path = tmp_path / "big-deal.json"
    path.write_text(json.dumps(BIG_DEAL))
    return path


def _run(*args, **kw):
    env = {**os.environ, "P2PCARDS_HOME": str(kw.pop("home"))}
    return subprocess.Popen([sys.executable, "-m", "p2pcards", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env, **kw)


def test_a_time_limit_stops_a_large_search_and_says_there_is_no_answer(big_deal, tmp_path):
    p = _run("solve", str(big_deal), "--time-limit", "4", home=tmp_path)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 1, (out, err)
    assert "searching… (at most 4 s, Ctrl-C to stop)" in err  # told while it works
    assert out.startswith("No answer: the time limit (4 s) was reached before the search was "
                          "finished. Whether S0 (to move) has a forced win is not known: ")
    assert "A longer --time-limit may finish it" in out
    assert "Traceback" not in out + err and "bad position" not in out + err


def test_ctrl_c_stops_the_search_with_a_message(big_deal, tmp_path):
    p = _run("solve", str(big_deal), home=tmp_path)  # the default limit: 60 s
    try:
        ready, _, _ = select.select([p.stderr], [], [], 120)  # once it has searched a moment
        assert ready, "nothing said on standard error"
        line = p.stderr.readline()
        assert line.startswith("searching… (at most 60 s, Ctrl-C to stop)"), line
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, (out, err)
    assert out.startswith("No answer: it was stopped (Ctrl+C) before the search was finished.")
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in out + err


def test_json_says_the_answer_is_not_proven(big_deal, monkeypatch):
    monkeypatch.setattr(solver.limits, "Limit", TickLimit)
    r = CliRunner().invoke(cli.app, ["solve", str(big_deal), "--json", "--time-limit", "3"])
    assert r.exit_code == 1, r.output
    out = json.loads(r.stdout)
    assert out["proven"] is False and out["forced_win"] is None
    assert out["stopped"] == "time limit" and out["time_limit"] == 3
    assert out["first_moves"] >= 1 and "move" not in out


def test_the_best_plan_so_far_is_printed_marked_not_proven(tmp_path, monkeypatch):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(ootw_position()))
    monkeypatch.setattr(solver.limits, "Limit", TickLimit)
    r = CliRunner().invoke(cli.app, ["solve", str(path), "--time-limit", "40"])
    assert r.exit_code == 1, r.output
    assert r.stdout.startswith(
        "Not proven the best: the time limit (40 s) was reached before the search was finished. "
        "The best plan found so far (2 of the 3 first moves searched to the end; a better plan "
        "may start with one of the others):\n")
    assert "The plan, turn by turn:\n   1. Seat 2: " in r.stdout


def test_the_best_plan_so_far_is_a_real_plan_no_better_than_the_answer(monkeypatch):
    from solver.out_of_this_world import puzzle
    from solver.out_of_this_world.position import build, parse

    planners: list = []

    class Kept(puzzle.Planner):  # the planner the stopped search used: its plan is replayed
        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            planners.append(self)

    monkeypatch.setattr(puzzle, "Planner", Kept)
    data = ootw_position()
    part, _ = positions.solve(data, TickLimit(40))
    full, _ = positions.solve(data)
    assert part["proven"] is False and full["proven"] is True
    assert part["stopped"] == "time limit"
    assert (part["won"], -part["tokens_lost"], part["points"]) <= \
        (full["won"], -full["tokens_lost"], full["points"])
    # the plan plays on the engine to the outcome it claims (the same 40-tick search, not rerun)
    res = planners[0].best_so_far()
    assert replay(build(parse(data)), res.line) == res.outcome
    assert res.outcome == (part["won"], -part["tokens_lost"], part["points"])


def test_no_limit_and_a_limit_give_the_same_answer_within_it():
    for path in sorted((ROOT / "docs" / "puzzles").rglob("*.json")):
        data = positions.read(path)
        if "viewer" in data:
            continue
        plain, text = positions.solve(data)
        limited, text2 = positions.solve(data, Limit(600))
        for r in (plain, limited):
            r.pop("seconds")
        assert limited == plain and limited["proven"] is True, path.name
        assert text2.split("positions searched")[0] == text.split("positions searched")[0]


def test_progress_is_reported_while_searching():
    seen = []
    data = json.loads(json.dumps(BIG_DEAL))
    r, text = positions.solve(data, TickLimit(5, lambda n, s: seen.append((n, s)),
                                              report_every=1))
    assert r["proven"] is False and seen and all(n > 0 for n, _ in seen)


@pytest.mark.parametrize("module, puzzle, limit", [
    ("go_out_girl", "05-no-way-through.json", 10),
    ("out-of-this-world", "out-of-this-world/01-smooth-talker.json", 20)])
def test_the_size_limit_stops_a_search_the_same_way(module, puzzle, limit):
    """docs/puzzles.md: "The search also has a size limit, reported the same way": no answer
    rather than an approximate one, exit 1, and with --json "proven": false, "stopped": "size
    limit" and the limit. (The limits are 3,000,000 and 500,000 positions; cut down here so that
    the examples reach them.)"""
    import importlib

    mod = importlib.import_module(f"solver.{module.replace('-', '_')}.puzzle")
    path = ROOT / "docs" / "puzzles" / puzzle
    with mock.patch.object(mod.solve, "__defaults__", (limit,)):
        r = CliRunner().invoke(cli.app, ["solve", str(path)])
        j = CliRunner().invoke(cli.app, ["solve", str(path), "--json"])
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert f"No answer: the limit of {limit} positions searched was reached before" in r.output
    assert "wins by force" not in r.output and "The team wins" not in r.output
    assert j.exit_code == 1, j.output
    out = json.loads(j.output)
    assert out["proven"] is False and out["stopped"] == "size limit"
    assert out["node_limit"] == limit
