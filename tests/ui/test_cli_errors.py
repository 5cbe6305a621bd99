"""A bug in any command ends with one line on the terminal and the traceback in crash.log,
never a raw traceback."""

from __future__ import annotations

import logging

import pytest

from p2pcards import cli

pytestmark = pytest.mark.usefixtures("keep_the_loggers")


def test_an_internal_error_is_one_line_and_a_crash_log(tmp_path, monkeypatch, capsys):
    def broken_app():
        raise KeyError("boom")

    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    monkeypatch.setattr(cli, "app", broken_app)
    with pytest.raises(SystemExit) as e:
        cli.main()
    assert e.value.code == 70
    err = capsys.readouterr().err
    assert "internal error (KeyError: 'boom')" in err and "Traceback" not in err
    assert str(tmp_path / "crash.log") in err
    log = (tmp_path / "crash.log").read_text()
    assert "Traceback" in log and "broken_app" in log and "KeyError: 'boom'" in log


def test_exits_and_interrupts_pass_through(monkeypatch):
    def interrupted_app():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "app", interrupted_app)
    with pytest.raises(KeyboardInterrupt):
        cli.main()


def test_the_networks_log_lines_go_to_a_private_file_not_onto_the_screen(tmp_path, monkeypatch,
                                                                         capsys):
    """Red team: a peer advertising an address ZeroMQ refuses got the host's network loop to log
    a traceback, and with no logging set up Python prints warnings and worse on stderr: under
    the table on the player's screen. Now the mesh's lines (faults, refusals, a bug caught in a
    loop with its traceback) go to p2pcards.log in the data directory."""
    def app_that_logs():
        mesh = logging.getLogger("p2pcards.mesh")
        mesh.error("seat 0: fault by bob (seat 1): a made-up fault")
        try:
            raise ValueError("inside the network loop")
        except ValueError:
            mesh.exception("seat 0: error handling a frame")

    home = tmp_path / "home"
    monkeypatch.setenv("P2PCARDS_HOME", str(home))
    monkeypatch.setattr(cli, "app", app_that_logs)
    cli.main()
    err = capsys.readouterr().err
    assert "fault by bob" not in err and "Traceback" not in err
    path = home / "p2pcards.log"
    text = path.read_text()
    assert "fault by bob" in text and "ValueError: inside the network loop" in text
    assert path.stat().st_mode & 0o777 == 0o600 and home.stat().st_mode & 0o777 == 0o700


def test_running_out_of_memory_says_so_without_a_traceback_or_a_crash_log(tmp_path, monkeypatch,
                                                                          capsys):
    """Red team 12: under a memory cap, a MemoryError raised again inside the crash log's own
    traceback formatting reached the terminal raw. Running out of memory is not a bug to
    report: one line says what happened and that nothing was lost."""
    def hungry_app():
        raise MemoryError()

    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    monkeypatch.setattr(cli, "app", hungry_app)
    with pytest.raises(SystemExit) as e:
        cli.main()
    assert e.value.code == 71
    err = capsys.readouterr().err
    assert "ran out of memory" in err and "transcripts are kept" in err and "Traceback" not in err
    assert not (tmp_path / "crash.log").exists()


@pytest.mark.parametrize("argv", [
    ["join", "10.0.0.5:7000", "--code", "K7Q-F2M"],
    ["join", "--code=k7q f2m", "10.0.0.5:7000", "--name", "bob"],
    ["bot", "10.0.0.5:7000", "--code", "K7QF2M", "--code", "K7Q-F2M"],
])
def test_a_crash_log_leaves_the_table_code_out_and_stays_private(tmp_path, monkeypatch, capsys,
                                                                 argv):
    """docs/network.md, "What the network protects": "crash.log is private (0600) and leaves the
    code out". A player asked to send their crash.log in a report must not hand over the code of
    a table still being played (with it, anyone can connect and hold connections open): the
    command line is written there with the code hidden, however it was typed, and a crash.log
    another user could read (left 0644 by a copy or an older version) is made private."""
    def broken_app():
        raise KeyError("boom")

    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    monkeypatch.setattr(cli, "app", broken_app)
    monkeypatch.setattr("sys.argv", ["p2pcards", *argv])
    (tmp_path / "crash.log").write_text("--- an earlier crash\n")
    (tmp_path / "crash.log").chmod(0o644)
    with pytest.raises(SystemExit):
        cli.main()
    capsys.readouterr()
    log = (tmp_path / "crash.log").read_text()
    assert "10.0.0.5:7000" in log and "KeyError: 'boom'" in log  # the command line is there
    for code in ("K7Q-F2M", "K7QF2M", "k7q f2m", "K7Q", "F2M"):
        assert code.lower() not in log.lower(), log
    assert (tmp_path / "crash.log").stat().st_mode & 0o777 == 0o600
