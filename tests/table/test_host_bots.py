"""The bots a host starts (``p2pcards host --bots N``) are its own processes: when the host's
program ends before the deal -- the person types ``quit`` in the lobby, presses Ctrl-C, or closes
the terminal -- they end too. They used to linger, each waiting up to its patience (1800 s) for
a table that was gone."""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from protocol.transcript import read_transcript

from .procs import ADDRESS_RE, env_for, transcript_of

pytestmark = [pytest.mark.network]


def processes_with(text: str) -> list[int]:
    """The live processes (not zombies) whose command line holds ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text in cmd and state != "Z":
            found.append(int(entry.name))
    return found


def read_until(proc: subprocess.Popen, pattern: str, timeout: float = 60) -> list[str]:
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if re.search(pattern, line):
            return lines
    proc.kill()
    raise AssertionError(f"the host never printed {pattern!r}:\n" + "".join(lines))


def gone_within(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    left = pids
    while time.monotonic() < deadline:
        left = [p for p in pids if p in processes_with(" bot ")]
        if not left:
            return []
        time.sleep(0.2)
    return left


def clean_up(host: subprocess.Popen, bots: list[int]) -> None:
    """Whatever a failed test left running: the host and the bots it started."""
    if host.poll() is None:
        host.kill()
        host.communicate()
    for pid in processes_with(" bot ") if bots else []:
        if pid in bots:
            os.kill(pid, signal.SIGKILL)


def holding_host(tmp_path: Path, *extra: str) -> tuple[int, subprocess.Popen]:
    """A person at a terminal hosting a 3-seat table with two bots (its input a terminal: it
    holds the deal); returns the terminal's master side and the host process."""
    master, slave = pty.openpty()
    host = subprocess.Popen(
        [sys.executable, "-m", "p2pcards", "host", "go-out-girl", "--players", "3", "--bots", "2",
         "--bind", "127.0.0.1", "--no-discovery", "--plain", "--name", "alice", *extra],
        env=env_for(tmp_path / "host"), stdin=slave, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True)
    os.close(slave)
    return master, host


def seated_bots(host: subprocess.Popen) -> tuple[str, list[int]]:
    """The table's address and the pids of its two bots, once both sat down."""
    lines = read_until(host, ADDRESS_RE.pattern)
    address = ADDRESS_RE.search(lines[-1]).group(1)
    read_until(host, r"bot\d .* joined at seat")
    read_until(host, r"bot\d .* joined at seat")
    bots = processes_with(f"p2pcards bot {address} ")
    assert len(bots) == 2, bots
    return address, bots


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize("how", ["quit", "ctrl-c", "terminal closed", "kill"])
def test_a_host_that_quits_before_the_deal_takes_its_bots_with_it(tmp_path, how):
    """A person at a terminal hosts a 3-seat table with two bots; both bots sit down, nobody
    else comes, and the host leaves before the deal. Within a few seconds its bots are gone."""
    master, host = holding_host(tmp_path)
    bots: list[int] = []
    try:
        address, bots = seated_bots(host)
        if how == "quit":
            os.write(master, b"quit\n")
        elif how == "ctrl-c":
            host.send_signal(signal.SIGINT)
        elif how == "terminal closed":
            host.send_signal(signal.SIGHUP)
        else:
            host.send_signal(signal.SIGTERM)
        out, err = host.communicate(timeout=30)
        assert "Traceback" not in out + err, out + err
        assert host.returncode != 0
        assert "you closed the table before the deal" in err
        assert gone_within(bots, 5.0) == [], f"bot processes still running after the host left:\n{out}\n{err}"
        # the table is over, for the record too: 'join --resume' does not offer it again
        record = read_transcript(transcript_of(tmp_path / "host"), tolerate_torn_tail=True)
        assert record.stop is not None and "closed before the deal" in record.stop["reason"]
    finally:
        os.close(master)
        clean_up(host, bots)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_a_host_killed_between_full_and_the_deal_does_not_leave_its_bots_behind(tmp_path):
    """The host's machine fails after its bots sat down but before the deal (no goodbye: its
    program cannot stop them). Nothing was dealt, so nothing waits to be resumed past the
    table's --wait: the bots give up then, saying why. They used to wait for a deal that never
    came for their whole patience (1800 s); CI caught it as 'the bots outlived the table's wait'
    when a loaded host was killed just before it dealt."""
    master, host = holding_host(tmp_path, "--wait", "2")
    bots: list[int] = []
    try:
        address, bots = seated_bots(host)
        host.kill()  # no goodbye, no end_bots
        host.communicate()
        time.sleep(1.0)
        assert sorted(processes_with(f"p2pcards bot {address} ")) == sorted(bots)
        assert gone_within(bots, 30.0) == [], "the bots waited on for a deal that never came"
    finally:
        os.close(master)
        clean_up(host, bots)


def test_a_person_who_joined_is_told_when_the_host_is_gone_before_the_deal(tmp_path):
    """The same failure seen by a person who joined: told that the host is not answering and
    for how long the table waits, then one line saying nothing was dealt (exit 1, no
    traceback) -- not 'Waiting for the table to fill...' for ever."""
    master, slave = pty.openpty()
    host = subprocess.Popen(
        [sys.executable, "-m", "p2pcards", "host", "go-out-girl", "--players", "3",
         "--bind", "127.0.0.1", "--no-discovery", "--plain", "--name", "alice", "--wait", "2"],
        env=env_for(tmp_path / "host"), stdin=slave, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True)
    os.close(slave)
    join = None
    try:
        lines = read_until(host, ADDRESS_RE.pattern)
        address, code = ADDRESS_RE.search(lines[-1]).groups()
        join = subprocess.Popen(
            [sys.executable, "-m", "p2pcards", "join", address, "--code", code, "--plain",
             "--name", "bob"], env=env_for(tmp_path / "bob"), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        read_until(host, r"bob .* joined at seat")
        seated = read_until(join, r"Waiting for the table to fill")  # bob knows he is seated
        host.kill()
        host.communicate()
        out, err = join.communicate(timeout=60)
        out = "".join(seated) + out
        assert "Traceback" not in out + err, out + err
        assert join.returncode == 1, (out, err)
        assert "alice, the host, is not answering" in out and "Waiting 2 s" in out, (out, err)
        assert "alice, the host, went away before the deal" in err and "nothing was dealt" in err, err
    finally:
        os.close(master)
        for p in (host, join):
            if p is not None and p.poll() is None:
                p.kill()
                p.communicate()


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_a_host_gone_mid_match_leaves_its_bots_to_the_table(tmp_path):
    """After the deal it is different: a host whose program ends mid-match keeps its seat
    ('join --resume' takes it back), so its bots stay at the table -- and end by themselves
    once the table has waited its --wait for the host in vain."""
    host = subprocess.Popen(
        [sys.executable, "-m", "p2pcards", "host", "go-out-girl", "--players", "3", "--bots", "2",
         "--bind", "127.0.0.1", "--no-discovery", "--autoplay", "--wait", "2"],
        env=env_for(tmp_path / "host"), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True)
    bots: list[int] = []
    try:
        lines = read_until(host, ADDRESS_RE.pattern)
        address = ADDRESS_RE.search(lines[-1]).group(1)
        read_until(host, r"The table is full")
        bots = processes_with(f"p2pcards bot {address} ")
        assert len(bots) == 2, bots
        host.kill()  # the host's machine fails mid-match: no goodbye
        host.communicate()
        time.sleep(1.0)
        assert sorted(processes_with(f"p2pcards bot {address} ")) == sorted(bots)
        assert gone_within(bots, 60.0) == [], "the bots outlived the table's wait"
    finally:
        if host.poll() is None:
            host.kill()
            host.communicate()
        for pid in processes_with(" bot "):
            if pid in bots:
                os.kill(pid, signal.SIGKILL)
