"""A LAN of network namespaces for tests: hosts 10.77.0.1..N on a bridge, like
``/work/shared/tools/lan.sh`` but with names unique to this test (several can run at once) and
always removed. Needs root; ``Lan.up`` raises ``LanUnavailable`` (with the reason) otherwise."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
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

    def p2pcards(self, i: int, *args: str, home: Path, stdin: int | None = subprocess.DEVNULL
                 ) -> subprocess.Popen:
        """``p2pcards ARGS`` on host ``i``; ``stdin=subprocess.PIPE`` keeps a person's input
        open (a seat whose input ends has left the table)."""
        env = {**os.environ, "P2PCARDS_HOME": str(home), "PYTHONUNBUFFERED": "1"}
        return subprocess.Popen(
            ["ip", "netns", "exec", self.hosts[i - 1], sys.executable, "-m", "p2pcards", *args],
            env=env, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def down(self) -> None:
        for ns in reversed(self.made):  # deleting a namespace removes its veth ends too
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=20)
        self.made.clear()
