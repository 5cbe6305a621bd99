"""The example puzzles' solutions, and the ``solve`` / ``hint --position`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from p2pcards.cli import app
from solver import positions
from solver.errors import PositionError

PUZZLES = Path(__file__).resolve().parents[2] / "docs" / "puzzles"
EXAMPLES = sorted(p for p in PUZZLES.glob("*.json") if "viewer" not in json.loads(p.read_text()))
runner = CliRunner()


def test_there_are_example_puzzles():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_solution(path):
    data = positions.read(path)
    claim = data["solution"]
    result, text = positions.solve(data)
    assert result["forced_win"] == claim["forced_win"]
    if claim["forced_win"]:
        assert result["move"]["text"] == claim["move"]
        assert claim["move"] in text
        assert result["line"][0]["seat"] == data["to_move"]
        assert result["move"]["engine_action"] is not None


def test_solve_command_text_and_json():
    path = PUZZLES / "02-akane-barrier.json"
    r = runner.invoke(app, ["solve", str(path)])
    assert r.exit_code == 0, r.output
    assert "wins by force" in r.output and "Akane Barrier" in r.output
    r = runner.invoke(app, ["solve", str(path), "--json"])
    assert r.exit_code == 0
    out = json.loads(r.output)
    assert out["forced_win"] is True and out["move"]["kind"] == "barrier"


def test_the_solved_line_reads_as_a_player_writes_it():
    """A newcomer read "Principal line (the others resisting longest):" and "Rival lays G face
    down as damage" two lines above "Ichio plays Guard" (ux22): a Guard is "Guard", as in every
    hand on the screen, and the line says what it is."""
    r = runner.invoke(app, ["solve", str(PUZZLES / "01-holy-sword.json")])
    assert r.exit_code == 0, r.output
    assert "The winning line, move by move (the others holding out as long as they can):" \
        in r.output
    assert "Rival lays Guard face down as damage" in r.output
    assert "Principal" not in r.output and " G " not in r.output


def test_hint_command_on_a_view(tmp_path):
    path = PUZZLES / "hint-view.json"
    r = runner.invoke(app, ["hint", "--position", str(path)])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Hint: ") and "Plan:" in r.output
    r2 = runner.invoke(app, ["hint", "--position", str(path), "--json"])
    out = json.loads(r2.output)
    assert out["seat"] == 0 and out["text"] in r.output
    # a full position works too: the hint then uses the mover's view of it
    r3 = runner.invoke(app, ["hint", "--position", str(PUZZLES / "04-high-card-first.json")])
    assert r3.exit_code == 0 and r3.output.startswith("Hint: ")


@pytest.mark.parametrize("body,where", [
    ("{", "stops before its JSON is complete (line 1): the file is cut short, or a bracket or "
          "brace is not closed"),
    ("", "is empty: a position is a JSON object"),  # "not valid JSON (line 1: Expecting value)"
    ('{"game": "go-out-girl", "seats": [', "stops before its JSON is complete"),
    ('{"game": go-out-girl}', "not valid JSON (line 1: Expecting value)"),
    ('{"game": "chess"}', "game:"),
    ('{"format": 2, "game": "go-out-girl"}', "format:"),
    ('{"game": "go-out-girl", "seats": [{"hand": ["9"], "character": "nerai"}, '
     '{"hand": ["Q"], "character": "ten"}], "to_move": 0}', "seats[1].hand[0]"),
    ('{"game": "go-out-girl", "viewer": 0, "seats": [{"hand": ["9"], "character": "nerai"}, '
     '{"hand": 3, "character": "ten"}], "to_move": 0, "deck": 10}', "seats[1].character"),
    ('{"game": "go-out-girl", "viewer": 0, "seats": [{"hand": ["9"], "character": "nerai"}, '
     '{"hand": 3}], "to_move": 0, "deck": 90}', "deck:"),
])
def test_bad_files_get_a_clear_error(tmp_path, body, where):
    f = tmp_path / "bad.json"
    f.write_text(body)
    for args in (["solve", str(f)], ["hint", "--position", str(f)]):
        r = runner.invoke(app, args)
        assert r.exit_code == 2
        assert where in r.output and "Traceback" not in r.output
        assert r.exception is None or isinstance(r.exception, SystemExit)


def test_solve_refuses_a_view():
    with pytest.raises(PositionError) as e:
        positions.solve(positions.read(PUZZLES / "hint-view.json"))
    assert e.value.where == "viewer"


def test_a_one_card_reshuffle_is_the_same_as_a_one_card_deck():
    base = {"format": 1, "game": "go-out-girl", "to_move": 0,
            "seats": [{"hand": ["3", "5"], "character": "nerai", "damage": 5},
                      {"hand": ["9", "9", "2"], "character": "kira", "damage": 0}],
            "field": {"cards": ["12"], "owner": 1}}
    a, _ = positions.solve({**base, "deck": ["13"], "discard": []})
    b, _ = positions.solve({**base, "deck": [], "discard": ["13"]})
    assert a["forced_win"] == b["forced_win"]
    assert [s["text"] for s in a.get("line", [])] == [s["text"] for s in b.get("line", [])
                                                      if "reshuffled" not in s["text"]]
