"""Property test over the command line of the offline commands (red team 18): whatever a
person types -- unknown games, hostile numbers, control characters, paths to folders, pipes,
devices, damaged or foreign files -- the program answers with exit code 0, 1 or 2 and its own
words, never a traceback (``cli.main`` would turn one into exit 70, "an internal error").
150 command lines in the suite (about 8 s), 2,000 with ``P2PCARDS_LONG=1``."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from p2pcards import cli
from p2pcards.ui import saved
from p2pcards.ui.local import play_local

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

pytestmark = pytest.mark.usefixtures("keep_the_loggers")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A data directory holding a saved local game, and a folder of hostile paths: a folder,
    a pipe, a link to /dev/zero, empty / binary / huge / non-JSON files, a puzzle."""
    home = tmp_path_factory.mktemp("home")
    d = tmp_path_factory.mktemp("files")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("P2PCARDS_HOME", str(home))
        play_local("go-out-girl", 3, 3, 8, {}, out=io.StringIO(), save=True)
    (game,) = saved.find_local_games(str(home))
    (d / "folder").mkdir()
    os.mkfifo(d / "pipe")
    (d / "zero").symlink_to("/dev/zero")
    (d / "loop").symlink_to(d / "loop")
    (d / "dangling").symlink_to(d / "nothing-here")
    (d / "empty").write_bytes(b"")
    (d / "binary").write_bytes(b"\xff\xfe\x00\x01garbage\n")
    (d / "huge").write_bytes(b"{" + b" " * 3_000_000 + b"}\n")
    (d / "deep.json").write_text("[" * 50_000 + "]" * 50_000)
    (d / "null.json").write_text("null\n")
    (d / "obj.json").write_text('{"game": "go-out-girl", "seats": "x"}\n')
    (d / "bad.jsonl").write_text('{"type": "table"}\n{"env": 1}\n')
    shutil.copy(ROOT / "docs" / "puzzles" / "01-holy-sword.json", d / "puzzle.json")
    cut = d / "cut.game"
    cut.write_bytes(game.read_bytes()[: len(game.read_bytes()) // 2])
    paths = [str(p) for p in sorted(d.iterdir())] + [str(game), "", "-", "/", "/dev/null",
                                                       str(d / "missing"), "/proc/self/mem"]
    return home, paths


TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
               max_size=12)
NUMBER = st.one_of(st.integers(-10**30, 10**30).map(str),
                   st.sampled_from(["nan", "inf", "-inf", "1e999", "0x10", "", " ", "٣", "½"]),
                   TEXT)
GAME = st.one_of(st.sampled_from(["go-out-girl", "out-of-this-world", "girl-and-robot"]), TEXT)


def argv(paths: list[str]) -> st.SearchStrategy[list[str]]:
    path = st.one_of(st.sampled_from(paths), TEXT)
    flag = st.sampled_from(["--json", "--brief", "--spectator", "--plain", "--euro", "--act2",
                            "--help", "--nosuch"])
    num = st.tuples(st.sampled_from(["--seed", "--seat", "--time-limit", "--players", "--bots",
                                     "--time-tokens", "--forced-delay", "--pace"]), NUMBER)
    word = st.tuples(st.sampled_from(["--difficulty", "--adventure", "--bot-level",
                                      "--position"]), st.one_of(TEXT, path))
    extra = st.lists(st.one_of(flag.map(lambda f: [f]), num.map(list), word.map(list)),
                     max_size=3).map(lambda xs: [a for x in xs for a in x])
    return st.one_of(
        st.tuples(st.just(["solve"]), path.map(lambda p: [p]), extra),
        st.tuples(st.just(["hint"]), st.tuples(st.just("--position"), path).map(list), extra),
        st.tuples(st.just(["rules"]), GAME.map(lambda g: [g]), extra),
        st.tuples(st.just(["tables"]), st.just([]), extra),
        st.tuples(st.just(["replay"]), path.map(lambda p: [p]), extra),
        st.tuples(st.just(["audit"]), path.map(lambda p: [p]), extra),
        # play with its input closed: the person leaves at the first question
        st.tuples(st.just(["play"]), GAME.map(lambda g: [g]), extra),
    ).map(lambda t: [*t[0], *t[1], *t[2]])


@settings(max_examples=2000 if os.environ.get("P2PCARDS_LONG") == "1" else 150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_offline_commands_answer_every_argv_in_words(files, monkeypatch, data):
    home, paths = files
    monkeypatch.setenv("P2PCARDS_HOME", str(home))
    args = data.draw(argv(paths))
    if args[0] == "play" and "--bots" not in args:
        args += ["--bots", "1", "--players", "2"]  # a human seat: the closed input leaves it
    result = runner.invoke(cli.app, args, input="")
    shown = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert "Traceback" not in shown, (args, shown)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        (args, repr(result.exception), shown)
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, shown)
