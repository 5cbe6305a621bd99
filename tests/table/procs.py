"""Run p2pcards peers as real OS processes on 127.0.0.1, each with its own data directory."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ADDRESS_RE = re.compile(r"Address: (\S+)\s+Table code: (\S+)")


def env_for(home: Path) -> dict[str, str]:
    return {**os.environ, "P2PCARDS_HOME": str(home), "PYTHONUNBUFFERED": "1"}


def p2pcards(*args: str, home: Path, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "p2pcards", *args], env=env_for(home),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def start_host(tmp: Path, game: str = "go-out-girl", players: int = 4, *extra: str):
    """An autoplaying host (a bot plays its seat); returns (process, address, code)."""
    proc = p2pcards("host", game, "--players", str(players), "--bind", "127.0.0.1",
                    "--autoplay", "--no-discovery", *extra, home=tmp / "host")
    deadline = time.monotonic() + 60
    lines = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = ADDRESS_RE.search(line)
        if m:
            return proc, m.group(1), m.group(2)
    proc.kill()
    raise AssertionError("the host did not print its address:\n" + "".join(lines) +
                         proc.stderr.read())


def start_bot(tmp: Path, address: str, code: str, i: int, *extra: str) -> subprocess.Popen:
    return p2pcards("bot", address, "--code", code, "--name", f"bot{i}", "--bind", "127.0.0.1",
                    "--json", *extra, home=tmp / f"bot{i}")


def bot_report(proc: subprocess.Popen, timeout: float = 240) -> dict:
    out, err = proc.communicate(timeout=timeout)
    lines = [ln for ln in out.splitlines() if ln.startswith("{")]
    assert proc.returncode == 0 and lines, f"bot failed (rc={proc.returncode}):\n{out}\n{err}"
    return json.loads(lines[-1])


def transcript_of(home: Path) -> Path:
    found = sorted((home / "tables").glob("*.jsonl"))
    assert len(found) == 1, found
    return found[0]
