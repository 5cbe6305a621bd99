"""Fuzzing the position files of ``p2pcards solve`` / ``hint --position`` (``docs/puzzles.md``).

Each example position is mutated -- keys deleted or added, values of the wrong type, unknown or
duplicated cards, too many or too few seats, out-of-range numbers, truncated or invalid JSON --
and fed to the entry points the CLI uses (``positions.read``, ``solve``, ``hint``). A mutant
must either work or be refused with a ``PositionError`` / ``ConfigError`` naming the problem:
never another exception (a traceback on the command line). The search limits are cut down here
so that a mutant that happens to be valid solves in milliseconds (with the real limits a solve is
still bounded: a position over the node limit is refused as too large). The mutants are seeded,
so every run checks the same ones: 16 of each example in the suite, 200 with ``P2PCARDS_LONG=1``.

The regression tests at the end pin the crashes this fuzzer found, and the fields it showed
were misnamed or not checked.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from typer.testing import CliRunner

from p2pcards.cli import app
from p2pcards.engine import ConfigError
from p2pcards.games.go_out_girl.data import CHARACTER_KEYS as GOG_CHARACTERS
from p2pcards.games.out_of_this_world.data import default
from solver import positions
from solver.errors import PositionError
from solver.go_out_girl import advisor as gog_advisor
from solver.go_out_girl import exact as gog_exact
from solver.go_out_girl import puzzle as gog_puzzle
from solver.out_of_this_world import exact as ootw_exact
from solver.out_of_this_world import puzzle as ootw_puzzle

DOCS = Path(__file__).resolve().parents[2] / "docs" / "puzzles"
EXAMPLES = sorted([*DOCS.glob("*.json"), *DOCS.glob("out-of-this-world/*.json")])
TEXTS = {p: p.read_text(encoding="utf-8") for p in EXAMPLES}

# small search limits: a valid mutant is solved (or refused as too large) in milliseconds
NODE_LIMIT = 2_000
HINT_BUDGET = 300
# per example: 16 in the suite (it was 40: three examples whose valid mutants are solved took
# 4 s each), 200 in the long mode
MUTANTS = 200 if os.environ.get("P2PCARDS_LONG") == "1" else 16
PLAUSIBLE_RATE = 0.5  # how often a replaced value is one that fits its field

OOTW_CHARACTERS = [side for c in default().characters for side in c.sides]
# values of every wrong kind, and some right ones in the wrong place
ODD_VALUES: list[Any] = [
    None, True, False, 0, 1, 2, 3, 4, 5, 13, 14, 40, 99, -1, -7, 10**6, 10**18, -(10**18),
    1.5, 0.0, -2.5, 1e300, float("nan"), float("inf"), "", " ", "x", "?", "G", "0", "13", "14",
    "-1", "1.5", "rest", "take", "action", "lead", "turn", "nerai", "kyoko", "Rita", "Zack",
    "patrol", "confrontation", "birthday-bash", "epic", "Yo-Yo", "Toys 3", "Slime Blob",
    "Keytar", "Mutant Mascot", "the_visitor", "Alley Cat", "\u00e9\u00e9", "x" * 300,
    [], [None], ["x"], [[]], [{}], ["G"] * 12, ["9"] * 7, ["?", "?"], ["Keytar"] * 9,
    [0, 1], {}, {"a": 1}, {"cards": []}, {"yo_yo": 1}, {"cards": ["6"], "owner": 0},
]
GOG_CARDS: list[Any] = [*(str(i) for i in range(1, 14)), "G", "g", "Guard", 7, 13, "?"]
OOTW_CARDS: list[Any] = sorted({c.key for a in default().adventures for c in default().deck(a)})
OOTW_CARDS += ["?", "Yo-Yo", "Toys 3", "Music 99", "Alley Cat"]
CARD_FIELDS = {"hand", "deck", "discard", "cards", "pile", "stacks", "equipped", "spent", "foes",
               "removed"}
SEATS = [0, 1, 2, 3, 4, 5, -1]
PLAUSIBLE: dict[str, list[Any]] = {
    "viewer": SEATS, "to_move": SEATS, "owner": SEATS, "legs": SEATS,
    "character": [*GOG_CHARACTERS, *OOTW_CHARACTERS, "Monster Hunter", "nina_ned"],
    "locked": [[c] for c in GOG_CHARACTERS] + [list(GOG_CHARACTERS[:3])],
    "damage": [0, 1, 2, 3, 4, 5, 6, 9, 10], "as": [1, 4, 6, 13, 14, 15], "count": [0, 1, 2, 3],
    "revealed": [True, False], "alive": [True, False], "no_action": [True, False],
    "phase": ["turn", "lead"], "step": ["take", "action", "discard"], "side": [0, 1, 2],
    "time": [0, 1, 2, 8, 9, 30, 31], "time_max": [0, 1, 7, 8, 30, 31],
    "sneaks_used": [[0, 0, 0], [1, 0, 0], [0, 2, 0], [0, 0, 0, 0], [9, 9, 9]],
    "adventure": [*default().adventures, "Birthday Bash", "1", "night", "", "b"],
    "difficulty": ["easier", "tough", "epic", "Epic", "hard"],
    "defeated": [{"the_visitor": 1}, {"herald": 2}, {"yo_yo": 1}, {"the_visitor": -1}],
    "field": [None, {"cards": ["6"], "owner": 1}, {"cards": ["1", "1"], "owner": 1, "as": 14},
              {"cards": ["5"], "owner": 1, "as": 6}, {"cards": ["7"], "owner": 1, "count": 2}],
}
# fields the format knows, so that a mutant can add one an example leaves out
KNOWN_KEYS = [
    "format", "game", "title", "description", "solution", "viewer", "seats", "to_move", "phase",
    "field", "deck", "discard", "adventure", "difficulty", "step", "stacks", "time", "time_max",
    "removed", "sneaks_used", "legs", "no_action", "defeated", "hand", "character", "revealed",
    "damage", "alive", "locked", "pile", "name", "side", "equipped", "spent", "foes", "cards",
    "owner", "as", "count", "bogus",
]
BAD_TEXTS = [
    b"", b"   ", b"null", b"[]", b"[1, 2]", b"\"position\"", b"42", b"true", b"{",
    b"{\"game\": }", b"\xff\xfe{}", b"{\"game\": \"go-out-girl\"}",
    b"{\"game\": \"out-of-this-world\"}", b"[" * 50_000, b"{\"a\":" * 50_000,
    b"{\"format\": " + b"9" * 5000 + b"}", b"{\"format\": NaN}", b"{\"format\": 1e999}",
    b"{\"format\": 1.0, \"game\": \"go-out-girl\"}", b"{\"game\": [\"go-out-girl\"]}",
    b"{\"game\": {\"go-out-girl\": 1}}",
]


def _slots(doc: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every place in a JSON document, as a path of keys and indexes."""
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _slots(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _slots(v, (*path, i))


def _near_key(path: tuple) -> str | None:
    """The name of the field a place belongs to (``hand`` for ``seats[1].hand[3]``)."""
    return next((k for k in reversed(path) if isinstance(k, str)), None)


def _odd(rnd: random.Random, doc: Any, path: tuple = ()) -> Any:
    """A value for a mutant at ``path``: one plausible for that field (a card of the game, a
    seat number, a character...), an odd one, or a copy of some value of the document."""
    r = rnd.random()
    key = _near_key(path)
    game = doc.get("game") if isinstance(doc, dict) else None
    if r < PLAUSIBLE_RATE and key is not None:
        if key in CARD_FIELDS:
            pool = OOTW_CARDS if game == "out-of-this-world" else GOG_CARDS
            one = rnd.choice(pool)
            if isinstance(path[-1], int) or rnd.random() < 0.3:
                return one
            return [rnd.choice(pool) for _ in range(rnd.randrange(6))]
        if key in PLAUSIBLE:
            return copy.deepcopy(rnd.choice(PLAUSIBLE[key]))
    if r < 0.85:
        return copy.deepcopy(rnd.choice(ODD_VALUES))
    return copy.deepcopy(_get(doc, rnd.choice(list(_slots(doc)))))


def _get(doc: Any, path: tuple) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _mutate_once(doc: Any, rnd: random.Random) -> Any:
    paths = list(_slots(doc))
    path = rnd.choice(paths)
    target = _get(doc, path)
    op = rnd.randrange(8)
    if op == 0 and path:  # delete
        parent = _get(doc, path[:-1])
        del parent[path[-1]]
    elif op == 1 or (op == 0 and not path):  # replace
        if not path:
            return _odd(rnd, doc)
        _get(doc, path[:-1])[path[-1]] = _odd(rnd, doc, path)
    elif op == 2 and isinstance(target, list):  # duplicate elements (cards, seats)
        if target:
            for _ in range(rnd.choice((1, 1, 2, 5))):
                target.insert(rnd.randrange(len(target) + 1), copy.deepcopy(rnd.choice(target)))
        else:
            target.append(_odd(rnd, doc, (*path, 0)))
    elif op == 3 and isinstance(target, list):  # empty it, or cut it short
        del target[rnd.randrange(len(target) + 1):]
    elif op == 4 and isinstance(target, list):  # insert an odd element
        target.insert(rnd.randrange(len(target) + 1), _odd(rnd, doc, (*path, 0)))
    elif op == 5 and isinstance(target, dict):  # add a field, known or not
        k = rnd.choice(KNOWN_KEYS)
        target[k] = _odd(rnd, doc, (*path, k))
    elif op == 6 and isinstance(target, list) and len(target) > 1:  # reorder
        rnd.shuffle(target)
    elif path:  # replace with a plausible value
        _get(doc, path[:-1])[path[-1]] = _odd(rnd, doc, path)
    return doc


def mutant(src: Path, rnd: random.Random) -> bytes:
    """The example ``src``, mutated, as the bytes of a file."""
    doc = json.loads(TEXTS[src])
    for _ in range(rnd.choice((1, 1, 1, 2, 2, 3, 5))):
        doc = _mutate_once(doc, rnd)
    text = json.dumps(doc).encode()  # NaN and Infinity stay: Python's json writes them
    r = rnd.random()
    if r < 0.04:
        text = text[: rnd.randrange(len(text) + 1)]  # a truncated file
    elif r < 0.06:
        i = rnd.randrange(len(text) + 1)
        text = text[:i] + rnd.choice([b"\xff", b",", b"}", b"\"", b"\x00"]) + text[i:]
    return text


def _capped(cls):
    """``cls`` (a solver) with its node limit capped at ``NODE_LIMIT``."""
    def make(root, node_limit=NODE_LIMIT):
        return cls(root, min(node_limit, NODE_LIMIT))
    return make


@contextmanager
def small_limits() -> Iterator[None]:
    """The solvers and the advisor with tiny budgets, entered through the usual entry points."""
    with mock.patch.object(gog_puzzle, "ExactSolver", _capped(gog_exact.ExactSolver)), \
            mock.patch.object(ootw_puzzle, "Planner", _capped(ootw_exact.Planner)), \
            mock.patch.object(gog_puzzle, "advise",
                              functools.partial(gog_advisor.advise, budget=HINT_BUDGET)):
        yield


def check(path: Path) -> None:
    """What the CLI does with a file, minus the printing: every failure must be a clean one."""
    try:
        data = positions.read(path)
    except PositionError as exc:
        assert str(exc)
        return
    for run in (lambda: positions.solve(data), lambda: positions.hint(data, 0)):
        try:
            result, text = run()
        except (PositionError, ConfigError) as exc:
            assert str(exc)
        else:
            assert isinstance(result, dict) and isinstance(text, str)
            json.dumps(result)  # --json must be able to print it


def check_bytes(text: bytes, what: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "position.json"
        path.write_bytes(text)
        with small_limits():
            try:
                check(path)
            except Exception as exc:  # name the mutant in the failure
                raise AssertionError(f"{what}: {text[:3000]!r}") from exc


@pytest.mark.parametrize("src", EXAMPLES, ids=lambda p: p.stem)
def test_mutated_positions_fail_cleanly(src):
    """MUTANTS mutants of each example (seeded: the same ones on every run)."""
    for seed in range(MUTANTS):
        rnd = random.Random(f"{src.name}:{seed}")
        check_bytes(mutant(src, rnd), f"{src.name} seed {seed}")


@pytest.mark.parametrize("text", BAD_TEXTS, ids=lambda t: repr(t[:20]))
def test_bad_files_fail_cleanly(text):
    check_bytes(text, "bad text")


# ---- the command line ----------------------------------------------------------------------
runner = CliRunner()


@pytest.mark.parametrize("src", EXAMPLES[::2], ids=lambda p: p.stem)
def test_cli_reports_bad_positions(tmp_path, src):
    """A few mutants through ``p2pcards solve`` / ``hint``: exit 0, or exit 2 with an
    ``error:`` line -- never a traceback."""
    for seed in range(3):
        text = mutant(src, random.Random(f"cli:{src.name}:{seed}"))
        path = tmp_path / f"m{seed}.json"
        path.write_bytes(text)
        with small_limits():
            for args in (["solve", str(path)], ["hint", "--position", str(path), "--json"]):
                r = runner.invoke(app, args)
                assert r.exception is None or isinstance(r.exception, SystemExit), (
                    args, text[:500], r.exception)
                assert r.exit_code in (0, 2), (args, r.output)
                if r.exit_code == 2:
                    assert r.output.startswith("error: ")


# ---- regressions: crashes the fuzzer found ---------------------------------------------------
@pytest.mark.parametrize("text,message", [
    # UnicodeDecodeError
    (b'\xff\xfe{"game": "go-out-girl"}', "bad.json is not UTF-8 text (byte 0 cannot be decoded)"),
    (b'{"title": "caf\xe9"}', "bad.json is not UTF-8 text (byte 14 cannot be decoded)"),
    # RecursionError inside json.loads
    (b"[" * 100_000, "bad.json nests lists or objects too deeply to be a position"),
    (b'{"a":' * 100_000, "bad.json nests lists or objects too deeply to be a position"),
    # ValueError: Python's 4,300-digit limit on int()
    (b'{"format": ' + b"9" * 5000 + b"}", "bad.json has a number of 5000 digits (at most 100)"),
    (b'{"game": "go-out-girl", "to_move": -' + b"1" * 4301 + b"}",
     "bad.json has a number of 4301 digits (at most 100)"),
    # not a crash, but not JSON either: Python's json reads NaN and Infinity
    (b'{"format": NaN}', "bad.json is not valid JSON (NaN is not a JSON number)"),
    (b'{"game": "go-out-girl", "to_move": -Infinity}',
     "bad.json is not valid JSON (-Infinity is not a JSON number)"),
])
def test_unreadable_files_are_refused_by_name(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_bytes(text)
    with pytest.raises(PositionError) as e:
        positions.read(path)
    message = message.replace("bad.json", str(path), 1)  # named as typed, folder and all
    assert str(e.value) == message
    r = runner.invoke(app, ["solve", str(path)])
    assert r.exit_code == 2 and r.output == f"error: bad position: {message}\n"


def test_long_numbers_within_the_limit_still_read(tmp_path):
    path = tmp_path / "p.json"
    doc = json.loads(TEXTS[DOCS / "02-akane-barrier.json"])
    doc["to_move"] = 10**99  # 100 digits: read, then refused by the field's own check
    path.write_text(json.dumps(doc))
    data = positions.read(path)
    with pytest.raises(PositionError, match=r"^to_move: must be an integer from 0 to 1, not 1"):
        positions.solve(data)


# ---- errors that named the wrong field -------------------------------------------------------
def _gog(**changes: Any) -> dict[str, Any]:
    doc = json.loads(TEXTS[DOCS / "05-no-way-through.json"])
    doc.update(changes)
    return doc


@pytest.mark.parametrize("doc,message", [
    # the ninth Guard is in the discard pile (the deck has one): the error said "seats"
    (_gog(discard=["G"] * 8), "discard[7]: 9 Guards are listed; the game has 8"),
    # seat 0 holds two 9s
    (_gog(deck=["7", "8", "2", "G", "11", "13", "9", "9", "9", "9", "9"]),
     "deck[10]: 7 9s are listed; the game has 6"),
    (_gog(field={"cards": ["9"], "owner": 1}, deck=["9", "9", "9", "9"]),
     "deck[3]: 7 9s are listed; the game has 6"),
])
def test_too_many_copies_names_the_place(doc, message):
    with pytest.raises(PositionError) as e:
        positions.solve(doc)
    assert str(e.value) == message


def test_a_position_without_its_game_says_the_game_is_missing():
    # "None has no puzzle solver" was Python's word for the missing field (ux21)
    doc = _gog()
    del doc["game"]
    with pytest.raises(PositionError) as e:
        positions.solve(doc)
    assert str(e.value) == ("game: missing: a position names its game (one of: go-out-girl, "
                            "out-of-this-world)")


def test_gog_unknown_top_level_field_is_refused():
    # a misspelt "deck" was ignored, so solve answered for an empty deck
    doc = _gog(Deck=["7", "8"])
    del doc["deck"]
    with pytest.raises(PositionError) as e:
        positions.solve(doc)
    assert str(e.value) == ("Deck: unknown field (allowed: deck, description, discard, field, "
                            "format, game, phase, seats, solution, title, to_move, viewer)")


def _ootw(**changes: Any) -> dict[str, Any]:
    doc = json.loads(TEXTS[DOCS / "out-of-this-world" / "01-smooth-talker.json"])
    doc.update(changes)
    return doc


@pytest.mark.parametrize("doc,message", [
    # the error named a field "sneaks_used[1].v" that is not in the file
    (_ootw(sneaks_used=[0, "x", 0]), "sneaks_used[1]: must be an integer from 0 to 9, not 'x'"),
    # silently read as the default adventure / difficulty
    (_ootw(adventure=[]), "adventure: must be a name, not []"),
    (_ootw(adventure=0), "adventure: must be a name, not 0"),
    (_ootw(adventure=""), "adventure: unknown adventure ''; choose one of: patrol-the-block, "
     "birthday-bash, hit-the-books, night-school, stained-glass, confrontation"),
    (_ootw(difficulty=False), "difficulty: must be a name, not False"),
    (_ootw(difficulty=""), "difficulty: '' is not one of easier, standard, tough, epic"),
    # silently accepted: an Item "defeated", or one Foe under two names (the last count won)
    (_ootw(defeated={"yo_yo": 1}), "defeated.yo_yo: Yo-Yo is an Item: only Foes are defeated"),
    (_ootw(defeated={"Alley Cat": 1, "alley_cat": 2}),
     "defeated.alley_cat: Alley Cat is listed twice"),
])
def test_ootw_fields_are_checked(doc, message):
    with pytest.raises(PositionError) as e:
        positions.solve(doc)
    assert str(e.value) == message


def test_ootw_adventure_and_difficulty_default_when_absent_or_null():
    absent = _ootw()
    del absent["adventure"]
    for doc in (absent, _ootw(adventure=None, difficulty=None)):
        result, _ = positions.solve(doc)
        assert result["won"] is True


def _view(**west: Any) -> dict[str, Any]:
    """docs/puzzles/hint-view.json with West's seat changed."""
    doc = json.loads((DOCS / "hint-view.json").read_text())
    doc["seats"][1].update(west)
    return doc


@pytest.mark.parametrize("west,message", [
    # red team 7b #4: 'hint --position' answered for a battle West had already won ...
    ({"hand": 0}, "seats[1].hand: a seat in the battle with no cards would already have won"),
    # ... and for a face-down West with more damage than any character's life
    ({"damage": 99}, "seats[1].damage: 99 reaches the life of every character the seat could "
                     "hold (at most 7), yet the seat is still in the battle"),
    ({"damage": 6, "locked": ["nerai"]}, "seats[1].damage: 6 reaches the life of every character "
                                         "the seat could hold (at most 6), yet the seat is still "
                                         "in the battle"),
])
def test_a_view_that_cannot_be_is_refused_as_a_full_position_is(west, message):
    """docs/puzzles.md: "an alive seat has cards (an empty hand would already have won)"; "A
    malformed or impossible position is refused with an error that names the field." A view's
    card count of 0 and a face-down seat's damage past every life it could have were answered."""
    with pytest.raises(PositionError) as e:
        positions.hint(_view(**west))
    assert str(e.value) == message


# ---- what a careless author's editor makes ---------------------------------------------------
@pytest.mark.parametrize("fmt", [True, 1.0, "1", [1]])
def test_a_format_that_only_looks_like_1_is_refused(tmp_path, fmt):
    """'format: 1 (optional; other values are refused)' (docs/puzzles.md): true and 1.0 were
    read as format 1, because they compare equal to it in Python."""
    path = tmp_path / "p.json"
    doc = json.loads(TEXTS[DOCS / "01-holy-sword.json"])
    doc["format"] = fmt
    path.write_text(json.dumps(doc))
    with pytest.raises(PositionError, match=r"^format: this p2pcards reads position format 1, "):
        positions.read(path)


def test_a_file_saved_with_a_byte_order_mark_reads_as_the_same_position(tmp_path):
    """Windows' Notepad saves UTF-8 with a byte order mark: the file is UTF-8 JSON, as the docs
    ask, and was refused with Python's words ("Unexpected UTF-8 BOM (decode using utf-8-sig)")."""
    path = tmp_path / "bom.json"
    text = TEXTS[DOCS / "01-holy-sword.json"]
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert positions.read(path) == json.loads(text)
    r = runner.invoke(app, ["solve", str(path)])
    assert r.exit_code == 0 and "wins by force" in r.output, r.output


def test_a_link_to_nothing_or_a_loop_of_links_is_called_that(tmp_path):
    """As 'replay' and 'audit' say it (docs/playing.md: "a loop of symbolic links or a link to a
    missing file is called that, not 'no such file'"): 'solve' said "cannot read puzzle.json: No
    such file or directory" of a link whose target had moved, and "Too many levels of symbolic
    links" of a loop."""
    dangling, loop = tmp_path / "puzzle.json", tmp_path / "loop.json"
    dangling.symlink_to(tmp_path / "moved-away.json")
    loop.symlink_to(loop)
    with pytest.raises(PositionError) as e:
        positions.read(dangling)
    assert str(e.value) == f"{dangling} is a link to {tmp_path / 'moved-away.json'}, which does not exist"
    with pytest.raises(PositionError) as e:
        positions.read(loop)
    assert str(e.value) == f"{loop} is a loop of symbolic links (each one leads back to another): no file"
    r = runner.invoke(app, ["hint", "--position", str(dangling)])
    assert r.exit_code == 2 and "which does not exist" in r.output and "Traceback" not in r.output
