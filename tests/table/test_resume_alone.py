"""``p2pcards join --resume`` when the others are gone: the person at the terminal is told at once
what the program is doing and whom it looks for, sees it still looking, can stop it with Ctrl-C,
and, when nobody answers, gets one line saying who could not be reached and that the seat is
saved -- never minutes of silence (the tester waited 150 s after "Seated at ..."), never a
traceback, and the record stays resumable."""

from __future__ import annotations

import asyncio
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from p2pcards.lobby import GameInfo
from protocol.mesh import Mesh, Timings
from protocol.transcript import read_transcript
from tests.mesh.helpers import LOOPBACK, NAMES, identity

from .procs import env_for, transcript_of

pytestmark = [pytest.mark.network]

WAIT = 2.0  # the table's --wait: how long it waits for an absent player


async def saved_table(tmp: Path, seats: int) -> list[Mesh]:
    """A full table of ``seats`` (alice hosts, then bob, carol...), its records on disk."""
    t = Timings.fast()
    info = GameInfo("go-out-girl", seats, {}, wait=WAIT).to_json()
    host = await Mesh.host(identity(tmp, 0), seats, bind=LOOPBACK, timings=t, name=NAMES[0],
                           game_info=info)
    meshes = [host]
    for i in range(1, seats):
        meshes.append(await Mesh.join(identity(tmp, i), host.address, host.code, NAMES[i],
                                      bind=LOOPBACK, timings=t))
    await asyncio.gather(*(m.wait_full(10) for m in meshes))
    return meshes


def gone_table(tmp: Path, seats: int = 2) -> tuple[str, str]:
    """A saved table whose every program is gone (their machines crashed): (table, host address)."""
    async def run() -> tuple[str, str]:
        meshes = await saved_table(tmp, seats)
        found = meshes[0].table, meshes[0].address.removeprefix("tcp://")
        for m in meshes:
            await m.close(announce=False)
        return found

    return asyncio.run(run())


def resume(home: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "p2pcards", "join", "--resume", "--plain",
                             "--bind", LOOPBACK], env=env_for(home), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class Lines:
    """A process's standard output, line by line, with a deadline (a reader thread: a bare
    readline would block for as long as the program stays silent, which is the bug here)."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.queue: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.queue.put(line)
        self.queue.put(None)

    def until(self, pattern: str, timeout: float = 20) -> str:
        """The first line from here on that matches ``pattern``, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.queue.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if re.search(pattern, line):
                return line
        raise AssertionError(f"nothing matching {pattern!r} within {timeout} s:\n" +
                             "".join(self.seen))

    def rest(self, timeout: float) -> tuple[str, str]:
        """Wait for the end: (all of standard output, standard error)."""
        self.proc.wait(timeout)
        err = self.proc.stderr.read()
        while (line := self.queue.get(timeout=5)) is not None:
            self.seen.append(line)
        return "".join(self.seen), err


def still_resumable(home: Path, table: str) -> None:
    t = read_transcript(transcript_of(home), tolerate_torn_tail=True)
    assert t.table == table and t.stop is None and not t.finished


def test_join_resume_gives_up_in_words_naming_whom_it_could_not_reach(tmp_path):
    """Two resumes at once, each at its own table with its own homes (each waits the look's
    10 s before it gives up: the waits overlap; they were two tests one after the other).

    Everyone gone: bob's resume says at once which table and whom it looks for, keeps saying so
    while it waits, and ends with one line: who could not be reached, and that it can be tried
    again later.

    One gone: alice's program is still there; carol's is gone for good. bob's resume hears
    alice, says so, and in the end names carol alone."""
    table, host_addr = gone_table(tmp_path / "gone")
    bob = tmp_path / "gone" / "home1"
    proc = resume(bob)
    lines = Lines(proc)
    try:
        rc3, out3, err3, table3 = asyncio.run(one_of_two_gone(tmp_path / "one"))
        # at once: which table, and whom it is looking for, where
        line = lines.until(r"Resuming table")
        assert table in line and "looking for" in line and "alice" in line and host_addr in line
        # then it keeps saying so while it waits...
        lines.until(r"still looking for alice")
        out, err = lines.rest(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # ...and ends with one line: who could not be reached, and that it can be tried again later
    assert proc.returncode == 1, (out, err)
    assert "Traceback" not in out + err, err
    errors = [ln for ln in err.splitlines() if ln.strip()]
    assert len(errors) == 1 and errors[0].startswith("error: "), err
    assert "could not reach alice" in errors[0] and host_addr in errors[0], errors[0]
    assert "join --resume" in errors[0] and "again later" in errors[0], errors[0]
    still_resumable(bob, table)
    # the one gone is named, alone
    assert rc3 == 1 and "Traceback" not in out3 + err3, (out3, err3)
    assert "alice answered" in out3, out3
    errors = [ln for ln in err3.splitlines() if ln.strip()]
    assert len(errors) == 1 and "could not reach carol" in errors[0], err3
    assert "alice" not in errors[0].split("could not reach", 1)[1].split(";")[0], errors[0]
    still_resumable(tmp_path / "one" / "home1", table3)


async def one_of_two_gone(tmp: Path) -> tuple[int, str, str, str]:
    """A table of three whose bob and carol are gone, alice's program still there; bob's
    ``join --resume`` to the end: (exit code, its output, its errors, the table)."""
    bob = tmp / "home1"
    alice, bob_mesh, carol = await saved_table(tmp, 3)
    table = alice.table
    await bob_mesh.close(announce=False)
    await carol.close(announce=False)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "p2pcards", "join", "--resume", "--plain", "--bind", LOOPBACK,
        env=env_for(bob), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await alice.close()
    return proc.returncode, out.decode(), err.decode(), table


def test_ctrl_c_while_looking_stops_at_once_and_keeps_the_seat(tmp_path):
    table, _ = gone_table(tmp_path)
    bob = tmp_path / "home1"
    proc = resume(bob)
    lines = Lines(proc)
    try:
        lines.until(r"looking for")
        proc.send_signal(signal.SIGINT)
        out, err = lines.rest(15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in out + err, err
    assert "Stopped looking for the others" in out and "join --resume" in out, out
    still_resumable(bob, table)
    # and the same command finds it again
    again = resume(bob)
    try:
        assert table in Lines(again).until(r"Resuming table")
    finally:
        again.kill()
        again.wait()


def test_join_resume_with_the_others_there_says_so_and_sits_down(tmp_path):
    """The usual case stays quick: alice's program answers, and bob's is back at the table."""
    bob = tmp_path / "home1"

    async def run() -> str:
        alice, bob_mesh = await saved_table(tmp_path, 2)
        await bob_mesh.close(announce=False)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "p2pcards", "join", "--resume", "--plain", "--bind", LOOPBACK,
            env=env_for(bob), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        seen = []
        try:
            while not any(line.startswith("Seated at") for line in seen):
                line = await asyncio.wait_for(proc.stdout.readline(), 30)
                assert line, "".join(seen)
                seen.append(line.decode())
        finally:
            proc.kill()
            await proc.wait()
            await alice.close()
        return "".join(seen)

    out = asyncio.run(run())
    assert "alice answered." in out and "Everyone answered: back at the table." in out, out
    assert "still looking" not in out and "could not reach" not in out, out
