"""A command that does not touch the network starts without loading it: ``p2pcards --help``,
``solve``, ``tables``, ``replay`` and the rest import the command line, which checks what a
player typed (``p2pcards.checks``). It named the mesh's error class through ``protocol.mesh``,
which loaded ZeroMQ, asyncio's event loop and the whole mesh (about 0.1 s of the 0.26 s that
``p2pcards --help`` took, on every command); ``MeshError`` now lives in ``protocol.errors``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_the_command_line_loads_neither_zeromq_nor_the_mesh():
    code = ("import sys, json; import p2pcards.cli; "
            "print(json.dumps(sorted(m for m in ('zmq', 'protocol.mesh') if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[2], check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_the_mesh_raises_the_same_error_the_command_line_catches():
    from protocol.errors import MeshError
    from protocol.mesh import JoinRefused
    from protocol.mesh import MeshError as MeshErrorThere

    assert MeshErrorThere is MeshError and issubclass(JoinRefused, MeshError)
