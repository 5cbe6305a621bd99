"""Ctrl-C in the first moment of a command -- a person who typed the wrong one and presses it at
once -- must end it as Ctrl-C does later: a line, exit status 130, never a traceback (README:
"Bad input gets a one-line reason. Should p2pcards itself ever fail, it says so in one line").

Measured (5 Dec 2026, /work/main 7297ef4): SIGINT 0.2 s after starting `p2pcards rules
go-out-girl`, `tables` or `hint --position FILE` printed a 20-line Python traceback ending in
KeyboardInterrupt, from `protocol/mesh/core.py` being imported, and the process died of the
signal (status -2). The console script's module, p2pcards/cli.py, imports the network stack at
its top, before ``main`` and its handlers run. The attack here is made repeatable: an import
hook raises KeyboardInterrupt where a SIGINT's handler would (the first import of ``typer`` or
``protocol.mesh.core``, both at the top of p2pcards/cli.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CTRL_C_DURING_IMPORT = """
import runpy, sys

class CtrlC:
    fired = False

    def find_spec(self, name, path=None, target=None):
        # the command line's framework or the network stack, whichever is imported first
        if name in ("typer", "protocol.mesh.core") and not CtrlC.fired:
            CtrlC.fired = True
            raise KeyboardInterrupt  # what SIGINT's default handler does at this moment
        return None

sys.meta_path.insert(0, CtrlC())
sys.argv = ["p2pcards", "rules", "go-out-girl", "--brief"]
runpy.run_module("p2pcards", run_name="__main__", alter_sys=True)
"""


def test_ctrl_c_while_the_program_starts_is_a_line_not_a_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "P2PCARDS_HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", CTRL_C_DURING_IMPORT], capture_output=True,
                       text=True, timeout=60, cwd=tmp_path, env=env)
    assert "Traceback" not in r.stderr, r.stderr[-400:]
    assert r.returncode == 130, (r.returncode, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_the_command_is_the_entry_point_that_catches_it():
    """The installed ``p2pcards`` command runs the same guarded entry point as ``python -m
    p2pcards`` (pyproject.toml's console script): not ``p2pcards.cli:main``, whose module
    imports are what a Ctrl-C interrupts."""
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["p2pcards"] == "p2pcards.__main__:run"
