"""Red-team findings on the command line's own words (tables, replay, solve, errors): each test
plays the case as the tester did and failed before its fix."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from p2pcards import cli
from p2pcards.ui import saved
from p2pcards.ui.local import play_local

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("keep_the_loggers")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A finished local Go Out Girl game, watched (every seat a bot), played once for the module
    (each of the 30 damaged-header cases played it again): its saved file."""
    home = tmp_path_factory.mktemp("played")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("P2PCARDS_HOME", str(home))
        play_local("go-out-girl", 3, 3, 8, {}, out=io.StringIO(), save=True)
    (path,) = saved.find_local_games(str(home))
    return path


@pytest.fixture
def game(home, played):
    """That game's file, copied into this test's own data directory."""
    path = saved.tables_dir(str(home)) / played.name
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(played, path)
    assert saved.find_local_games() == [path]
    return path


def _damage_header(path, **fields):
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head.update(fields)
    lines[0] = json.dumps(head)
    path.write_text("\n".join(lines) + "\n")


DAMAGED_HEADERS = [
    ({"seat": "x"}, "seat is \"x\""),
    ({"seat": [1]}, "seat is [1]"),
    ({"seat": True}, "seat is true"),
    ({"seat": 1.5}, "seat is 1.5"),
    ({"seat": 9}, "seat is 9"),
    ({"created": 1e300}, "created is 1e+300"),
    ({"created": float("nan")}, "created is NaN"),
    ({"created": "yesterday"}, "created is \"yesterday\""),
    ({"names": ["a"]}, "1 names for 3 players"),
    ({"names": "abc"}, "names is \"abc\""),
    ({"names": ["\x1b[2Jx", 5, None]}, "not a list of names"),
    ({"players": 10**30}, "players is 1000000000000000000000000000000"),
    ({"options": [["x", 1]]}, "options is"),
    ({"game": ["go-out-girl"]}, "game is"),
    ({"game": "nosuch"}, "unknown game 'nosuch'"),
]


@pytest.mark.parametrize(("fields", "reason"), DAMAGED_HEADERS)
def test_tables_lists_a_damaged_local_game_as_unreadable_and_lists_the_rest(home, game, fields,
                                                                            reason):
    """Red team: one local .game file whose header says "seat": "x" (or a list, a bool, a
    float), "created": 1e300 or NaN, or fewer names than players made 'p2pcards tables' an
    internal error (exit 70) that listed nothing."""
    other = home / "tables" / "local-damaged.game"
    other.write_text(game.read_text())
    _damage_header(other, **fields)
    r = runner.invoke(cli.app, ["tables"])
    assert r.exit_code == 0, r.output
    assert r.exception is None
    assert f"{other}\n    unreadable: {other}: line 1 is damaged (" in r.output
    assert reason in r.output
    assert "\x1b" not in r.output
    assert "go-out-girl  local, watched  [Bot 1, Bot 2, Bot 3]  finished" in r.output
    assert str(game) in r.output


@pytest.mark.parametrize(("fields", "reason"), DAMAGED_HEADERS)
def test_replay_of_a_damaged_header_says_line_1_is_damaged(game, fields, reason):
    """Red team: 'p2pcards replay' on these files gave IndexError, TypeError or
    KeyError('handTrue'); a header saying "seat": 9 gave "--seat must be between 1 and 4"
    though no --seat was given."""
    _damage_header(game, **fields)
    r = runner.invoke(cli.app, ["replay", str(game), "--plain"])
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "line 1 is damaged (" in r.output and reason in r.output
    assert "--seat" not in r.output


def test_a_sound_header_still_reads(game):
    g = saved.read(game)
    assert g.players == 3 and g.seat is None and g.names == ["Bot 1", "Bot 2", "Bot 3"]


def test_a_data_directory_that_is_a_file_is_one_line_not_a_traceback(tmp_path, monkeypatch):
    """Red team: P2PCARDS_HOME=<a file> p2pcards play go-out-girl --bots 4 --plain printed a full
    Python traceback (the recorder's mkdir was unguarded, and crash.log could not be written
    either, so the traceback went onto the screen)."""
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    monkeypatch.setenv("P2PCARDS_HOME", str(afile))
    r = runner.invoke(cli.app, ["play", "go-out-girl", "--bots", "4", "--plain", "--seed", "1"])
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert f"cannot create the p2pcards data directory {afile}" in r.output
    assert "Traceback" not in r.output and "Bot 1" not in r.output  # no game played unsaved
    assert afile.read_text() == "not a folder"


def test_a_crash_with_no_writable_crash_log_prints_no_traceback(tmp_path, monkeypatch, capsys):
    """Red team: when crash.log cannot be written, the crash log (environment.crash_log) wrote the raw traceback on the
    screen. Now one line, and the traceback in a private temporary file it names."""
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("P2PCARDS_HOME", str(afile))
    monkeypatch.setattr("tempfile.tempdir", str(tmp))

    def broken_app():
        raise KeyError("boom")

    monkeypatch.setattr(cli, "app", broken_app)
    with pytest.raises(SystemExit) as e:
        cli.main()
    assert e.value.code == 70
    err = capsys.readouterr().err
    assert "Traceback" not in err and "broken_app" not in err
    assert len(err.strip().splitlines()) == 1
    (log,) = tmp.glob("p2pcards-crash-*.log")
    assert str(log) in err and "crash.log cannot be written" in err
    assert "KeyError: 'boom'" in log.read_text() and log.stat().st_mode & 0o777 == 0o600


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["rules", "go-out-girl"], ["tables"], ["--help"]])
def test_output_that_cannot_be_written_is_said_so_not_an_internal_error(tmp_path, args):
    """Red team: 'p2pcards rules go-out-girl > /dev/full' was "internal error ... please report
    ... 'p2pcards join --resume' takes a seat back" (exit 70, a crash.log entry)."""
    env = {**os.environ, "P2PCARDS_HOME": str(tmp_path)}
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "p2pcards", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    assert r.returncode == 74, r.stderr
    assert r.stderr == "error: cannot write output: No space left on device\n"
    assert not (tmp_path / "crash.log").exists()


@pytest.mark.parametrize(("argv", "hint"), [(["p2pcards", "tables"], False),
                                            (["p2pcards", "replay", "x.game"], False),
                                            (["p2pcards", "join", "--resume"], True),
                                            (["p2pcards", "host", "go-out-girl"], True),
                                            (["p2pcards", "bot", "1.2.3.4:5"], True)])
def test_the_resume_hint_follows_an_internal_error_only_where_there_is_a_seat(
        tmp_path, monkeypatch, capsys, argv, hint):
    """Red team: "'p2pcards join --resume' takes a seat back" followed every internal error,
    whatever the command."""
    def broken_app():
        raise KeyError("boom")

    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    monkeypatch.setattr(cli, "app", broken_app)
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as e:
        cli.main()
    assert e.value.code == 70
    err = capsys.readouterr().err
    assert "internal error (KeyError: 'boom')" in err
    assert ("join --resume" in err) is hint


def test_an_os_error_that_is_not_the_output_is_still_an_internal_error(tmp_path, monkeypatch,
                                                                       capsys):
    def broken_app():
        raise OSError(28, "No space left on device")

    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    monkeypatch.setattr(cli, "app", broken_app)
    with pytest.raises(SystemExit) as e:
        cli.main()
    assert e.value.code == 70 and "internal error" in capsys.readouterr().err


PUZZLE = {"format": 1, "game": "go-out-girl", "title": "T\u001b]0;pwned\u0007\u001b[2J",
          "seats": [{"hand": ["G", "1", "6", "10"], "character": "kira", "revealed": False,
                     "damage": 1, "name": "A\rB\u001b[31m"},
                    {"hand": ["2", "1"], "character": "toyoko", "revealed": False, "damage": 4,
                     "name": "Toyoko"}],
          "to_move": 0, "field": {"cards": ["6"], "owner": 1},
          "deck": ["9", "6", "4", "5", "2", "G", "6", "8", "7", "12", "9", "3"],
          "discard": "rest"}


@pytest.mark.parametrize("command", [["solve"], ["hint", "--position"]])
def test_a_puzzles_title_and_seat_names_cannot_drive_the_terminal(tmp_path, command):
    """Red team: 'p2pcards solve titleesc.json | cat -v' showed the title's escape codes (set
    the window title, clear the screen) and a seat name's \\r and colour code, raw."""
    f = tmp_path / "titleesc.json"
    f.write_text(json.dumps(PUZZLE))
    r = runner.invoke(cli.app, [*command, str(f)])
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.output and "\r" not in r.output and "\x07" not in r.output
    if command == ["solve"]:
        assert "A\\rB\\x1b[31m (to move) wins by force" in r.output
        assert r.output.startswith("T\\x1b]0;pwned\\x07\\x1b[2J\n")


def test_a_typed_move_that_could_be_many_options_lists_them_all(home):
    """Red team: the plain prompt's "'play' could be:" list silently dropped every option after
    the eighth (found[:8]): here 'play 9 9', 'play 10', 'play 10 10' and 'play 13'."""
    from p2pcards.ui.local import Quit

    answers = iter(["1", "play", "quit"])
    out = io.StringIO()
    with pytest.raises(Quit):
        play_local("go-out-girl", 2, 1, 3, {}, inp=lambda p: next(answers), out=out)
    text = out.getvalue()
    said = text[text.index("'play' could be"):].split("Type the number.")[0].replace("\n", " ")
    said = " ".join(said.split())
    assert "any of 12:" in said
    for option in ["2. play 1", "10. play 9 9", "11. play 10", "12. play 10 10", "13. play 13"]:
        assert option in said, said


def test_card_lookup_says_how_many_names_it_leaves_out():
    """Like the 'could be' list: 'card e' named 8 of the matching cards and dropped the rest
    without a word."""
    from p2pcards.ui.present import lookup, presenter_for

    p = presenter_for("out-of-this-world")
    near = [n for n in p.card_names() if "e" in n.lower()]
    assert len(near) > 8
    said = lookup(p, "e")
    assert f"and {len(near) - 8} more" in said


@pytest.fixture(scope="module")
def net_game(tmp_path_factory):
    """A real two-peer game over loopback, its transcript and the owner's seat journal."""
    from tests.table import transcript_mutants as tm

    return tm.shared_game(tmp_path_factory)


# in the worker that plays the audit tests' shared game (tm.shared_game), not a game of its own
@pytest.mark.xdist_group("shared-game")
def test_replay_seat_1_without_the_seat_journal_says_the_journal_is_missing(net_game, home):
    """Red team: 'replay FILE --seat 1' on a networked transcript copied without its .seat
    journal said "a networked game replays as its owner's seat, seat 1 (with good.seat), or as
    a spectator" -- seat 1 is what was asked for; the journal is what is missing."""
    import shutil

    alone = home / "copied" / net_game.path.name
    alone.parent.mkdir()
    shutil.copy(net_game.path, alone)
    for seat in ("1", "2"):
        r = runner.invoke(cli.app, ["replay", str(alone), "--seat", seat, "--plain"])
        assert r.exit_code == 2, r.output
        journal = alone.with_suffix(".seat").name
        assert f"its seat journal {journal} is missing" in r.output
        assert "--spectator" in r.output
    r = runner.invoke(cli.app, ["replay", str(alone), "--spectator", "--plain"])
    assert r.exit_code == 0 and "as a spectator" in r.output
    # with the journal, another seat is still refused, in the old words
    r = runner.invoke(cli.app, ["replay", str(net_game.path), "--seat", "2", "--plain"])
    assert r.exit_code == 2 and "replays as its owner's seat, seat 1," in r.output
    assert "missing" not in r.output


def _cut_short(path):
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[: len(lines) // 2]) + "\n")


def test_a_local_game_cut_short_replays_saying_so_in_line_mode(game):
    """Red team: a local game cut short (a crash, a kill) replayed as if complete: no word that
    the record stops early and the game never ended."""
    _cut_short(game)
    r = runner.invoke(cli.app, ["replay", str(game), "--plain"])
    assert r.exit_code == 0, r.output
    first = r.output.splitlines()[0]
    assert "unfinished: the record stops early" in first
    assert "The record stops here: this game was cut short before its end (no result)." \
        in r.output
    assert "Result:" not in r.output


def test_a_finished_game_replays_without_the_note(game):
    r = runner.invoke(cli.app, ["replay", str(game), "--plain"])
    assert r.exit_code == 0 and "unfinished" not in r.output and "cut short" not in r.output
    assert "Result:" in r.output


def test_a_local_game_cut_short_says_so_on_the_replay_screen(game):
    import asyncio

    from p2pcards.ui.replay_screen import ReplayApp

    _cut_short(game)
    g = saved.read(game)
    frames = saved.frames(g, None)

    async def go():
        app = ReplayApp(g.game, None, frames, names=g.names)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert "unfinished record" in app.texts["status"]
            await pilot.press("end")
            await pilot.pause()
            assert "the record stops here, the game unfinished" in app.texts["question"]
            assert app.lines_seen[-1] == saved.UNFINISHED
            await pilot.press("q")
    asyncio.run(go())


def test_replay_or_audit_of_a_puzzle_says_it_is_a_puzzle(home):
    """Red team: 'p2pcards replay puzzle.json' said "line 1: record is not valid JSON" about a
    perfectly good JSON file: it is no saved game or transcript, it is a puzzle."""
    f = home / "good.json"
    f.write_text(json.dumps(PUZZLE, indent=2))
    for command in (["replay", str(f), "--plain"], ["replay", str(f), "--spectator", "--plain"],
                    ["audit", str(f)]):
        r = runner.invoke(cli.app, command)
        assert r.exit_code == 2, r.output
        assert "it looks like a puzzle (p2pcards solve " in r.output
        assert "not valid JSON" not in r.output and "NOT clean" not in r.output
    other = home / "list.json"
    other.write_text("[1, 2]\n")
    r = runner.invoke(cli.app, ["replay", str(other), "--plain"])
    assert r.exit_code == 2 and f"{other} is not a saved game or a transcript (line 1:" in r.output


def test_solve_of_a_saved_game_points_to_replay(game):
    r = runner.invoke(cli.app, ["solve", str(game)])
    assert r.exit_code == 2
    assert f"{game} is a saved game, not a position: step through it with p2pcards replay" \
        in r.output


@pytest.mark.parametrize("command", [["replay", ""], ["audit", ""], ["solve", ""],
                                     ["hint", "--position", ""]])
def test_an_empty_file_name_is_no_file_given(home, command):
    """Red team: 'audit ""' said " is a folder, not a transcript", 'replay ""' and 'solve ""'
    "cannot read .: Is a directory"."""
    r = runner.invoke(cli.app, command)
    assert r.exit_code == 2, r.output
    assert r.output.startswith("error: no file given")


def test_names_in_a_saved_game_cannot_drive_the_terminal_in_line_mode(home, game):
    """A local game's names (and a result line) are text anyone can write into the file: the
    plain replay printed them raw, escape codes and all."""
    _damage_header(game, names=["\x1b[2JEvil", "Bot 2", "Bot 3"])
    lines = game.read_text().splitlines()
    last = json.loads(lines[-1])
    last["text"] = "Bot 1 wins\x1b]0;x\x07"
    lines[-1] = json.dumps(last)
    game.write_text("\n".join(lines) + "\n")
    for command in (["replay", str(game), "--plain"], ["tables"]):
        r = runner.invoke(cli.app, command)
        assert r.exit_code == 0, r.output
        assert "\x1b" not in r.output and "\x07" not in r.output
        assert "\\x1b[2JEvil" in r.output


class _FillsUp:
    """A record file on a disk that fills up after ``room`` lines."""

    def __init__(self, f, room: int) -> None:
        self.f, self.room = f, room

    def write(self, text: str) -> int:
        if self.room <= 0:
            raise OSError(28, "No space left on device")
        self.room -= 1
        return self.f.write(text)

    def flush(self) -> None:
        self.f.flush()

    @property
    def closed(self) -> bool:
        return self.f.closed

    def close(self) -> None:
        self.f.close()


def test_a_full_disk_during_a_game_stops_the_record_not_the_game(home, monkeypatch):
    """The product's rule, nothing is lost: a record that cannot be written any more (a disk
    filling up mid-game) was an OSError out of the recorder that ended the game being played.
    Now the game plays on, and the player is told where the record stopped."""
    real_init = saved.Recorder.__init__

    def init(self, *a, **k):
        real_init(self, *a, **k)
        self._f = _FillsUp(self._f, 20)

    monkeypatch.setattr(saved.Recorder, "__init__", init)
    out = io.StringIO()
    final = play_local("go-out-girl", 3, 3, 8, {}, out=out, save=True)
    assert final.pending() is None  # the game went on to its end
    assert "The record of this game stopped after 20 steps" in out.getvalue()
    assert "No space left on device" in out.getvalue()
    (path,) = saved.find_local_games()
    g = saved.read(path)
    assert len(g.events) == 20 and not g.finished
    assert saved.unfinished(saved.frames(g, None))


def test_a_full_disk_before_the_game_does_not_start_it(home, monkeypatch):
    real_open = saved.Path.open

    def full_open(self, *a, **k):
        f = real_open(self, *a, **k)
        return _FillsUp(f, 0) if self.suffix == ".game" else f

    monkeypatch.setattr(saved.Path, "open", full_open)
    r = runner.invoke(cli.app, ["play", "go-out-girl", "--bots", "4", "--plain", "--seed", "1"])
    assert r.exit_code == 2, r.output
    assert "cannot save the game in" in r.output and "No space left on device" in r.output
    assert "the game is not started" in r.output and "Bot 1" not in r.output


@pytest.mark.parametrize("command", [["replay", "{}", "--plain"], ["audit", "{}"], ["solve", "{}"],
                                     ["hint", "--position", "{}"], ["tables"]])
def test_a_pipe_given_or_saved_is_refused_in_words_not_waited_on(home, tmp_path, command):
    """Red team 13, L1: 'solve', 'hint --position', 'audit' and 'replay' of a named pipe waited
    on it for ever, silent; so did 'tables' and 'join --resume' with a pipe among the saved
    games; 'solve /dev/zero' read until the memory was gone."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    tables = saved.tables_dir(str(home))
    tables.mkdir(parents=True, exist_ok=True)
    os.mkfifo(tables / "x.jsonl")
    os.mkfifo(tables / "local-1-go-out-girl.game")
    args = [a.replace("{}", str(fifo)) for a in command]
    out = subprocess.run([sys.executable, "-m", "p2pcards", *args], capture_output=True,
                         text=True, timeout=60, stdin=subprocess.DEVNULL,
                         env={**os.environ, "P2PCARDS_HOME": str(home)})
    if command == ["tables"]:
        assert out.returncode == 0 and "No saved games yet" in out.stdout, out
    else:
        assert out.returncode == 2 and "is not a file" in out.stderr, out
        assert "Traceback" not in out.stderr


def test_a_position_too_big_to_be_one_is_refused_unread(tmp_path):
    big = tmp_path / "big.json"
    big.write_text("[" + "0," * (1 << 20) + "0]")
    for path, words in (("/dev/zero", "is not a file"), (big, "too big to be a position")):
        out = subprocess.run([sys.executable, "-m", "p2pcards", "solve", str(path)],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and words in out.stderr, out
        assert str(path) in " ".join(out.stderr.split()), out  # the file as typed, folder and all
