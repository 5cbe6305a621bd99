"""A ``kill -INT`` to a full-screen local game ended it with "Result: unfinished", as if the game
had ended without a winner; a ``kill`` (SIGTERM) or a terminal window closed (SIGHUP) killed the
process outright and left the terminal in the table's screen mode (mouse reporting on, the
alternate screen). Now each of them leaves the table as ``quit`` does: the terminal restored,
"You left the game" and where it is saved, the record closed as unfinished."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time

import pytest

from p2pcards.ui import saved


def run_in_a_terminal(home, argv: list[str], signal_after: bytes, sig: int) -> tuple[int, str]:
    """Run ``python -m p2pcards argv`` in a pseudo-terminal; once ``signal_after`` has been
    drawn, send ``sig``; return (exit status, everything the terminal showed)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: a player's terminal
        env = dict(os.environ, TERM="xterm-256color", P2PCARDS_HOME=str(home), COLUMNS="100",
                   LINES="30")
        os.execve(sys.executable, [sys.executable, "-m", "p2pcards", *argv], env)
    out = b""
    sent = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        if not sent and signal_after in out:
            time.sleep(0.5)
            os.kill(pid, sig)
            sent = True
    else:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert sent, out[-2000:]
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=["INT", "TERM", "HUP"])
def test_a_signal_to_the_full_screen_table_leaves_as_quit_does(tmp_path, sig):
    code, shown = run_in_a_terminal(tmp_path, ["play", "go-out-girl", "--players", "3", "--seed", "4"],
                                    b"choose", sig)
    tail = shown[-600:]
    assert "Result: unfinished" not in tail
    assert "You left the game (saved: " in tail, tail
    assert code == 0, (code, tail)
    assert "\x1b[?1049l" in tail, "the terminal is given back its normal screen"
    games = list((tmp_path / "tables").glob("*.game"))
    assert len(games) == 1 and not saved.read(games[0]).finished  # kept, closed as unfinished
