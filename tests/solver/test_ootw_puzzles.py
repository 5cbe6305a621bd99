"""Out Of This World positions: the example puzzles' solutions, ``solve`` and ``hint
--position`` on the command line, and clear errors for bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from p2pcards.cli import app
from solver import positions
from solver.errors import PositionError

PUZZLES = Path(__file__).resolve().parents[2] / "docs" / "puzzles" / "out-of-this-world"
EXAMPLES = sorted(p for p in PUZZLES.glob("*.json") if "viewer" not in json.loads(p.read_text()))
runner = CliRunner()


def test_there_are_example_puzzles():
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_solution(path):
    data = positions.read(path)
    claim = data["solution"]
    result, text = positions.solve(data)
    assert result["won"] == claim["won"]
    assert result["tokens_lost"] == claim["tokens_lost"]
    if "first_turn" in claim:
        assert result["plan"][0]["steps"] == claim["first_turn"]
        assert all(step in text for step in claim["first_turn"])
    if "turns" in claim:
        assert len(result["plan"]) == claim["turns"]
    assert result["first"]["engine_action"] is not None
    assert result["plan"][0]["seat"] == data["to_move"]


def test_solve_command_text_and_json():
    path = PUZZLES / "02-which-foe.json"
    r = runner.invoke(app, ["solve", str(path)])
    assert r.exit_code == 0, r.output
    assert "No plan wins this round; the best loses 1 Time token" in r.output
    r = runner.invoke(app, ["solve", str(path), "--json"])
    assert r.exit_code == 0
    out = json.loads(r.output)
    assert out["won"] is False and out["tokens_lost"] == 1
    assert out["line"][1]["action"]["kind"] == "defeat"


def test_hint_command_on_a_view():
    path = PUZZLES / "hint-view.json"
    r = runner.invoke(app, ["hint", "--position", str(path)])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Hint: take ") and "Plan:" in r.output and "Why:" in r.output
    out = json.loads(runner.invoke(app, ["hint", "--position", str(path), "--json"]).output)
    assert out["seat"] == 0 and out["text"] in r.output and out["action"]["kind"] == "take"
    # a full position works too: the hint then uses the mover's view of it
    r2 = runner.invoke(app, ["hint", "--position", str(PUZZLES / "01-smooth-talker.json")])
    assert r2.exit_code == 0 and r2.output.startswith("Hint: ")


def test_solve_refuses_a_view():
    with pytest.raises(PositionError) as e:
        positions.solve(positions.read(PUZZLES / "hint-view.json"))
    assert e.value.where == "viewer"


BASE = {"game": "out-of-this-world", "to_move": 0,
        "seats": [{"character": "Zoe", "hand": ["Kazoo"]}, {"character": "Malala"},
                  {"character": "Penny"}],
        "stacks": [["Yo-Yo"], [], [], [], []]}


def _with(**changes):
    d = json.loads(json.dumps(BASE))
    for k, v in changes.items():
        if k.startswith("seat0_"):
            d["seats"][0][k[6:]] = v
        else:
            d[k] = v
    return json.dumps(d)


@pytest.mark.parametrize("body,where", [
    (_with(adventure="moon-landing"), "adventure:"),
    (_with(seat0_hand=["Yoyo"]), "seats[0].hand[0]"),
    (_with(seat0_hand=["Slime Blob"]), "seats[0].hand[0]: Slime Blob is a Foe"),
    (_with(seat0_foes=["Kazoo"]), "seats[0].foes[0]: Kazoo is an Item"),
    (_with(seat0_character="Batman"), "seats[0].character"),
    (_with(seat0_equipped=["Walkman"], seat0_spent=["Walkman", "Walkman"]), "seats[0].spent[1]"),
    (_with(stacks=[["Yo-Yo"], [], [], []]), "stacks:"),
    (_with(stacks=[["Yo-Yo", "Kazoo", "Dice", "Wrench", "Keytar"], [], [], [], []]), "stacks[0]"),
    (_with(stacks=[["Yo-Yo", "?"], [], [], [], []]), "stacks[0][1]"),
    (_with(stacks=[[], [], [], [], []]), "stacks:"),
    (_with(time=9), "time:"),
    (_with(seat0_hand=["Metal detector", "Metal detector"]), "seats[0].hand[1]: the game has only 1"),
    (_with(to_move=3), "to_move:"),
    (_with(viewer=1), "viewer:"),
    (_with(sneaks_used=[1, 0, 0]), "sneaks_used[0]"),
])
def test_bad_files_get_a_clear_error(tmp_path, body, where):
    f = tmp_path / "bad.json"
    f.write_text(body)
    for args in (["solve", str(f)], ["hint", "--position", str(f)]):
        r = runner.invoke(app, args)
        assert r.exit_code == 2, r.output
        assert where in r.output and "Traceback" not in r.output


def test_solve_does_not_import_ortools():
    """Issue 14 item 16: ``solve`` searches the round model exactly and never uses CP-SAT, so it
    must not pay OR-Tools' import (about 1 s). Run in a fresh interpreter: the suite has
    imported it already."""
    import subprocess
    import sys

    code = ("import sys, json; from solver import positions; "
            f"r, _ = positions.solve(positions.read({str(EXAMPLES[0])!r})); "
            "print(json.dumps([r['won'], 'ortools' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2], check=True)
    won, imported = json.loads(out.stdout.strip().splitlines()[-1])
    assert won == positions.read(EXAMPLES[0])["solution"]["won"]
    assert imported is False
