"""Red team 18: the terminal and the disk. Each test plays a case as the tester did and failed
before its fix: a data folder named with an unknown ``~user``, a terminal that cannot show a
card's symbol, a full disk at a networked seat, a data folder whose ``tables`` cannot be used,
an identity key others can read, a transcript this user cannot read."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from p2pcards import cli, environment

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.usefixtures("keep_the_loggers")


def run_main(*args: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess:
    """``p2pcards ARGS`` as the console script runs it, on this checkout's code."""
    return subprocess.run([sys.executable, "-c", "from p2pcards.cli import main; main()", *args],
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env}, input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


@pytest.mark.parametrize("args", [["rules", "go-out-girl", "--brief"], ["tables"]])
def test_a_data_folder_under_an_unknown_users_home_is_one_line(tmp_path, args):
    """``P2PCARDS_HOME=~nosuchuser/cards``: every command, even ``rules``, printed Python's
    traceback (RuntimeError: Could not determine home directory)."""
    r = run_main(*args, env={"P2PCARDS_HOME": "~nosuchuser18/cards"})
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 2
    assert "P2PCARDS_HOME is '~nosuchuser18/cards'" in r.stderr
    assert "give a full path" in r.stderr


def test_a_terminal_that_cannot_show_a_cards_symbol_still_plays(tmp_path):
    """A terminal whose encoding has no ``●`` (ASCII here, as a Latin-1 one): the game
    stopped at the first Go Out Girl card with "an internal error (UnicodeEncodeError)"."""
    r = run_main("play", "go-out-girl", "--bots", "4", "--seed", "3",
                 env={"P2PCARDS_HOME": str(tmp_path), "PYTHONIOENCODING": "ascii"})
    assert "internal error" not in r.stderr, r.stderr
    assert r.returncode == 0 and "Result:" in r.stdout


def test_a_full_disk_at_a_networked_seat_says_which_file_and_how_to_come_back(capsys):
    """It said only "error: [Errno 28] No space left on device"."""
    async def full():
        raise OSError(errno.ENOSPC, "No space left on device", "/data/tables/t.jsonl")

    with pytest.raises(typer.Exit) as got:
        cli._network_errors(full)()
    assert got.value.exit_code == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "cannot write this seat's record /data/tables/t.jsonl: No space left on device" in err
    assert "your seat is kept: free some space, then run the same command again" in err
    with pytest.raises(typer.Exit):
        cli._network_errors(full, cli.HOST_AGAIN)()
    assert "'p2pcards join --resume' takes your seat back" in capsys.readouterr().err


def test_an_identity_key_others_can_read_is_made_private_and_the_player_told(home):
    """The key signs as this player; at mode 0644 any user of the machine could copy it. The
    old code wrote a line in p2pcards.log that nobody reads and left the mode as it was."""
    from typer.testing import CliRunner

    from protocol.identity import Identity

    Identity.load_or_create(str(home))
    key = home / "identity.pem"
    key.chmod(0o644)
    r = CliRunner().invoke(cli.app, ["join", "--resume"])
    out = " ".join(r.output.split())
    assert f"Warning: your identity key {key} could be read by other users of this machine " \
           "(mode 644); it is private now (0600)" in out, out
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    r = CliRunner().invoke(cli.app, ["join", "--resume"])  # once private: nothing to say
    assert "Warning" not in r.output


def no_override(args: list[str]) -> list[str]:
    """``args`` run so that file permissions apply: as root, without the capabilities that
    override them (root reads a mode-000 file anyway)."""
    import shutil

    if os.geteuid() != 0:
        return args
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permissions cannot be tested")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *args]


def run_limited(*args: str, home: Path) -> subprocess.CompletedProcess:
    return subprocess.run(no_override([sys.executable, "-c", "from p2pcards.cli import main; "
                                       "main()", *args]),
                          env={**os.environ, "PYTHONPATH": str(ROOT), "P2PCARDS_HOME": str(home)},
                          capture_output=True, text=True, timeout=120, cwd=ROOT, stdin=subprocess.DEVNULL)


def test_tables_says_a_tables_file_is_in_the_way_not_no_saved_games(home):
    """``tables/`` a file (or a link to nothing): "No saved games yet", and ``play`` said
    "cannot save the game in .../tables: File exists"."""
    (home / "tables").write_text("not a folder")
    r = run_limited("tables", home=home)
    assert r.returncode == 2 and "No saved games" not in r.stdout
    assert f"the saved games are kept in {home / 'tables'}, but that is a file, not a folder: " \
           "move it aside" in " ".join(r.stderr.split())
    r = run_limited("play", "go-out-girl", "--bots", "3", home=home)
    assert r.returncode == 2 and "File exists" not in r.stderr
    assert "but that is a file, not a folder: move it aside; the game is not started" in \
        " ".join(r.stderr.split())


def test_tables_says_the_saved_games_cannot_be_listed(home):
    """A ``tables/`` this user cannot read (mode 000): "No saved games yet", as if they were
    gone."""
    import io

    from p2pcards.ui.local import play_local
    play_local("go-out-girl", 2, 2, 1, {}, out=io.StringIO(), save=True)
    (home / "tables").chmod(0)
    try:
        r = run_limited("tables", home=home)
    finally:
        (home / "tables").chmod(0o700)
    assert "No saved games" not in r.stdout and r.returncode == 2
    assert f"cannot list the saved games in {home / 'tables'}: Permission denied" in \
        " ".join(r.stderr.split())


def test_audit_of_a_transcript_this_user_cannot_read_says_so_not_damaged(home, tmp_path):
    """It printed "[DAMAGED] ... Verdict: damaged record" (exit 1) for a whole file with
    mode 000; replay and solve already said "Permission denied"."""
    t = tmp_path / "t.jsonl"
    t.write_text('{"type": "table"}\n')
    t.chmod(0)
    r = run_limited("audit", str(t), home=home)
    assert r.returncode == 2 and "DAMAGED" not in r.stdout + r.stderr
    assert f"cannot read {t}: Permission denied" in " ".join(r.stderr.split())


@pytest.mark.parametrize("how, words, code", [
    ("sigint", "Interrupted: the game stopped before its end (saved: ", 130),
    ("eof", "You left the game (saved: ", 0),
])
def test_leaving_a_plain_game_says_where_it_is_kept(home, how, words, code):
    """Ctrl-C at the plain prompt said only "Interrupted." and input that ended only "You
    left the game." (the full-screen table names the saved file and 'p2pcards replay')."""
    import signal
    import time

    p = subprocess.Popen([sys.executable, "-c", "from p2pcards.cli import main; main()", "play",
                          "go-out-girl", "--players", "2", "--bots", "1", "--seed", "5"],
                         env={**os.environ, "PYTHONPATH": str(ROOT), "P2PCARDS_HOME": str(home),
                              "PYTHONUNBUFFERED": "1"},
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not list((home / "tables").glob("*.game")) and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1)  # at the first question
        if how == "sigint":
            p.send_signal(signal.SIGINT)
            time.sleep(1)
        out, err = p.communicate(input="", timeout=60)  # (the input ends here)
    finally:
        if p.poll() is None:
            p.kill()
    (game,) = (home / "tables").glob("*.game")
    assert p.returncode == code, err
    shown = " ".join(out.split())
    assert f"{words}{game}" in shown, shown[-400:]
    if how == "sigint":
        assert "'p2pcards replay' steps through it" in shown


def test_a_saved_game_far_too_large_is_listed_unreadable_unread(home):
    """A 165 MB ``.game`` (a sound header, then millions of lines) took ``tables`` 51 s and
    1 GB of memory to list, and ``replay`` as long; now its size is checked before reading."""
    from typer.testing import CliRunner

    from p2pcards.ui import saved

    (home / "tables").mkdir()
    big = home / "tables" / "local-big-go-out-girl.game"
    big.write_text('{"format": "p2pcards-local-game"}\n')
    with big.open("ab") as f:  # sparse: no time or disk spent making it
        f.truncate(saved.MAX_BYTES + 1)
    r = CliRunner().invoke(cli.app, ["tables"])
    assert "far more than any saved game" in r.output, r.output
    r = CliRunner().invoke(cli.app, ["replay", str(big)])
    assert r.exit_code == 2 and "far more than any saved game" in r.stderr


@pytest.mark.parametrize("command", ["join", "bot"])
def test_ctrl_c_before_join_has_a_seat_does_not_promise_one_back(home, command):
    """Ctrl-C while ``join`` (or ``bot``) waited on a table that does not answer said "Run the
    same command again to take your seat back": there was no seat."""
    import signal
    import socket
    import time

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()  # takes the connection, never says a word
    port = silent.getsockname()[1]
    p = subprocess.Popen([sys.executable, "-c", "from p2pcards.cli import main; main()", command,
                          f"127.0.0.1:{port}", "--code", "ABC-DEF", "--bind", "127.0.0.1"],
                         env={**os.environ, "PYTHONPATH": str(ROOT), "P2PCARDS_HOME": str(home),
                              "PYTHONUNBUFFERED": "1"},
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 30
        while not (home / "identity.pem").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.5)  # joining, well within the 10 s the join waits for an answer
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        silent.close()
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    assert "take your seat back" not in out
    assert "Interrupted before you had a seat: there is none to take back." in out


def test_join_resume_with_only_a_damaged_record_says_it_is_damaged(home):
    """A seat's transcript damaged in the middle (an edit, a bad disk): ``join --resume`` said
    "there is no unfinished table to resume on this machine", as if nothing were there."""
    from typer.testing import CliRunner

    (home / "tables").mkdir()
    bad = home / "tables" / ("ab" * 16 + ".jsonl")
    bad.write_text('{"type": "table"}\n{"type": "xx"}\n')
    r = CliRunner().invoke(cli.app, ["join", "--resume"])
    err = " ".join(r.stderr.split())
    assert r.exit_code == 1 and "no unfinished table to resume on this machine" not in err
    assert f"there is no unfinished table to resume that can be read: the record {bad} is " \
           "damaged (" in err and "'p2pcards tables' lists the records" in err, err


def test_no_home_folder_at_all_is_one_line(monkeypatch, tmp_path):
    """No ``HOME`` and no entry for this user in the password database (a container's odd
    user): every command printed a traceback ("could not determine the home directory")."""
    r = subprocess.run(
        [sys.executable, "-c", "import pwd, sys\n"
         "def nobody(uid): raise KeyError(uid)\n"
         "pwd.getpwuid = nobody\n"
         "from p2pcards.cli import main; sys.argv[1:] = ['rules', 'go-out-girl']; main()"],
        env={k: v for k, v in {**os.environ, "PYTHONPATH": str(ROOT)}.items()
             if k not in ("HOME", "P2PCARDS_HOME", "XDG_DATA_HOME")},
        capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert "Traceback" not in r.stderr and r.returncode == 2, r.stderr
    assert "p2pcards cannot tell where your home folder is" in r.stderr
    assert "set HOME, or P2PCARDS_HOME to a folder" in " ".join(r.stderr.split())


@pytest.mark.parametrize("option, value", [("--pace", "inf"), ("--forced-delay", "nan"),
                                           ("--forced-delay", "inf")])
def test_seconds_that_are_not_a_number_are_refused(home, option, value):
    """``--pace inf`` left the bots never moving on the full-screen table, ``--forced-delay
    inf`` showed "taken in inf s" for ever; both were taken."""
    from typer.testing import CliRunner

    r = CliRunner().invoke(cli.app, ["play", "go-out-girl", option, value], input="")
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '{option}': {value} is not a number of seconds" in r.stderr


@pytest.mark.parametrize("argv, option, words", [
    (["solve", "--time-limit", "nan", "x.json"], "--time-limit", "nan is not a number of seconds"),
    (["solve", "--time-limit", "-1", "x.json"], "--time-limit", "-1 is negative"),
    (["play", "go-out-girl", "--pace", "nan"], "--pace", "nan is not a number of seconds"),
    (["play", "go-out-girl", "--pace", "-0.5"], "--pace", "-0.5 is negative")])
def test_seconds_that_cannot_be_negative_say_which_is_wrong(home, argv, option, words):
    """``solve --time-limit nan`` was refused as "should be greater than or equal to 0"
    (typer's bound, which NaN fails): the words now say what is wrong with the value."""
    from typer.testing import CliRunner

    r = CliRunner().invoke(cli.app, argv, input="")
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '{option}': {words}" in r.stderr


def test_ctrl_c_in_a_demo_does_not_promise_a_seat(monkeypatch, capsys):
    """Ctrl-C during ``demo`` said "Run the same command again to take your seat back": a
    demo has no seat, and running it again plays a new game."""
    import p2pcards.demo

    async def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(p2pcards.demo, "run_demo", interrupted)
    with pytest.raises(typer.Exit) as got:
        cli.demo("go-out-girl", 2, "easy")
    assert got.value.exit_code == 130
    out = capsys.readouterr().out
    assert "take your seat back" not in out
    assert "Interrupted. The demo has no seat to take back: 'p2pcards demo' plays a new game." in out


def test_a_seat_task_that_fails_as_it_is_cancelled_is_read_not_printed():
    """Leaving mid-deal (Ctrl-C, or a resumed seat that left): the deck's task, cancelled
    while it sent, ended with ChannelClosed on the closed mesh, and asyncio printed "Task
    exception was never retrieved" and its traceback on the terminal (2 of 4 runs on main)."""
    import asyncio
    import gc

    from p2pcards.lobby import cancel_quietly
    from protocol.channel import ChannelClosed

    unread: list[dict] = []

    async def deck_step():
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            raise ChannelClosed() from None  # its message could not be sent any more

    async def seat():
        asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: unread.append(ctx))
        task = asyncio.create_task(deck_step())
        await asyncio.sleep(0)
        cancel_quietly(task)
        await asyncio.sleep(0.05)
        del task
        gc.collect()

    asyncio.run(seat())
    assert not [c for c in unread if "never retrieved" in c.get("message", "")], unread


def test_asyncios_own_reports_go_to_the_log_file_not_the_terminal(home, capsys):
    """Whatever asyncio reports (a task's unread error, with its traceback) is kept in
    p2pcards.log: on the terminal it was a traceback under the game."""
    import logging

    environment.log_to_file()
    try:
        raise ChannelClosedLike("after the seat stopped")
    except ChannelClosedLike:
        logging.getLogger("asyncio").error("Task exception was never retrieved", exc_info=True)
    assert "Traceback" not in capsys.readouterr().err
    assert "Task exception was never retrieved" in (home / "p2pcards.log").read_text()


class ChannelClosedLike(Exception):
    pass
