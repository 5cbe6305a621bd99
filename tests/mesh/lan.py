"""A LAN of network namespaces for tests: hosts 10.77.0.1..N on a bridge, like
``/work/shared/tools/lan.sh`` but with names unique to this test (several can run at once) and
always removed. Needs root; ``Lan.up`` raises ``LanUnavailable`` (with the reason) otherwise."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path


class LanUnavailable(Exception):
    pass


def _ip(*args: str) -> None:
    r = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)
    if r.returncode != 0:
        raise LanUnavailable(f"'ip {' '.join(args)}' failed: {r.stderr.strip()[:200]}")


class Lan:
    def __init__(self, n: int) -> None:
        self.n = n
        self.tag = secrets.token_hex(3)  # names stay under the 15 characters of an interface
        self.bridge = f"p2t{self.tag}b"
        self.hosts = [f"p2t{self.tag}h{i}" for i in range(1, n + 1)]
        self.made: list[str] = []

    def addr(self, i: int) -> str:
        return f"10.77.0.{i}"

    def up(self) -> Lan:
        if os.geteuid() != 0:
            raise LanUnavailable("network namespaces need root")
        try:
            _ip("netns", "add", self.bridge)
            self.made.append(self.bridge)
            self._in(self.bridge, "link", "add", "br0", "type", "bridge")
            self._in(self.bridge, "link", "set", "br0", "up")
            for i, h in enumerate(self.hosts, 1):
                _ip("netns", "add", h)
                self.made.append(h)
                v, b = f"q{self.tag}v{i}", f"q{self.tag}b{i}"
                _ip("link", "add", v, "type", "veth", "peer", "name", b)
                _ip("link", "set", v, "netns", h)
                _ip("link", "set", b, "netns", self.bridge)
                self._in(self.bridge, "link", "set", b, "master", "br0")
                self._in(self.bridge, "link", "set", b, "up")
                self._in(h, "link", "set", "lo", "up")
                self._in(h, "link", "set", v, "name", "eth0")
                self._in(h, "addr", "add", f"{self.addr(i)}/24", "dev", "eth0")
                self._in(h, "link", "set", "eth0", "up")
        except (LanUnavailable, OSError, subprocess.SubprocessError) as exc:
            self.down()
            raise LanUnavailable(str(exc)) from None
        return self

    def _in(self, ns: str, *args: str) -> None:
        _ip("netns", "exec", ns, "ip", *args)

    def cut(self, i: int) -> None:
        self._in(self.bridge, "link", "set", f"q{self.tag}b{i}", "down")

    def heal(self, i: int) -> None:
        self._in(self.bridge, "link", "set", f"q{self.tag}b{i}", "up")

    def p2pcards(self, i: int, *args: str, home: Path, stdin: int | None = subprocess.DEVNULL,
                 away_after: float | None = None) -> subprocess.Popen:
        """``p2pcards ARGS`` on host ``i``; ``stdin=subprocess.PIPE`` keeps a person's input
        open (a seat whose input ends has left the table); ``away_after`` sets the program's away
        time (``P2PCARDS_AWAY_AFTER``; 6 s without it)."""
        env = {**os.environ, "P2PCARDS_HOME": str(home), "PYTHONUNBUFFERED": "1"}
        if away_after is not None:
            env["P2PCARDS_AWAY_AFTER"] = str(away_after)
        return subprocess.Popen(
            ["ip", "netns", "exec", self.hosts[i - 1], sys.executable, "-m", "p2pcards", *args],
            env=env, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def down(self) -> None:
        for ns in reversed(self.made):  # deleting a namespace removes its veth ends too
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=20)
        self.made.clear()


class Tapped:
    """A peer process whose stdout and stderr are read all the time by two threads (a peer never
    blocks on a full pipe while the test waits on another), with bounded waits on what it says."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.out: list[str] = []
        self.err: list[str] = []
        self._cond = threading.Condition()
        self._open = 2
        for stream, sink in ((proc.stdout, self.out), (proc.stderr, self.err)):
            threading.Thread(target=self._pump, args=(stream, sink), daemon=True).start()

    def _pump(self, stream, sink: list[str]) -> None:
        for line in stream:
            with self._cond:
                sink.append(line)
                self._cond.notify_all()
        with self._cond:
            self._open -= 1
            self._cond.notify_all()

    def wait_for(self, pattern: str, timeout: float, count: int = 1) -> list[str]:
        """Every stdout line so far once ``count`` of them contain ``pattern`` (a substring or a
        regular expression); fails with what the peer said if it ends or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        rx = re.compile(pattern)
        with self._cond:
            while True:
                if sum(pattern in ln or bool(rx.search(ln)) for ln in self.out) >= count:
                    return list(self.out)
                left = deadline - time.monotonic()
                if left <= 0 or self._open == 0:
                    break
                self._cond.wait(min(left, 1.0))
        raise AssertionError(f"never saw {pattern!r} ({'ended' if self._open == 0 else 'timed out'})"
                             f":\n{self.text()}")

    def finish(self, timeout: float) -> tuple[int, str, str]:
        """Wait for the peer to end: (return code, stdout, stderr); fails with what it said (and
        kills it) if it is still running after ``timeout``."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
            raise AssertionError(f"still running after {timeout:g} s:\n{self.text()}") from None
        with self._cond:  # the pipes close with the process: wait for the last lines
            end = time.monotonic() + 10
            while self._open and time.monotonic() < end:
                self._cond.wait(1.0)
            return self.proc.returncode, "".join(self.out), "".join(self.err)

    def text(self) -> str:
        return f"{self.proc.args[3:]}\n{''.join(self.out[-60:])}\n--- stderr\n{''.join(self.err[-40:])}"

    def poll(self) -> int | None:
        return self.proc.poll()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
