#!/usr/bin/env python3
"""What connections cost a peer, with the gate (protocol/mesh/gate.py) admitting or refusing
them: a victim mesh in this process, the attacker in its own process (its CPU is not the
victim's), for ``--seconds`` each.

- ``admitted``: rounds of 100 fresh CurveZMQ connections with the code, closed after 0.3 s;
- ``refused``: the same once another process holds the address's 128 connections;
- ``tcp``: bare TCP connections made and closed (no code needed).

Prints, per case, the attempts a second, the victim's CPU (its share of one core and per
attempt) and the attacker's CPU per attempt. Run it on the code before the gate (``git stash``,
or another checkout, with ``--root``) for the figures without it. Timings are noisy on a shared
machine."""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHURN = """
import resource, sys, time
sys.path.insert(0, sys.argv[1])
import zmq
from protocol.mesh.common import Curve
address, seconds = sys.argv[2], float(sys.argv[4])
curve = Curve.from_secret(bytes.fromhex(sys.argv[3]))
ctx = zmq.Context()
ctx.set(zmq.MAX_SOCKETS, 4096)
n, end = 0, time.monotonic() + seconds
while time.monotonic() < end:
    socks = []
    for _ in range(100):
        s = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        curve.dial(s)
        s.connect(address)
        socks.append(s)
    time.sleep(0.3)  # every handshake ends (admitted, or refused and closed)
    for s in socks:
        s.close(0)
    n += 100
ctx.term()
r = resource.getrusage(resource.RUSAGE_SELF)
print(n, r.ru_utime + r.ru_stime)
"""

TCP = """
import resource, socket, sys, time
host, port = sys.argv[2].removeprefix("tcp://").rsplit(":", 1)
n, end = 0, time.monotonic() + float(sys.argv[4])
while time.monotonic() < end:
    socks = [socket.create_connection((host, int(port))) for _ in range(100)]
    for s in socks:
        s.close()
    n += 100
r = resource.getrusage(resource.RUSAGE_SELF)
print(n, r.ru_utime + r.ru_stime)
"""

HOLD = """
import sys, time
sys.path.insert(0, sys.argv[1])
import zmq
from protocol.mesh.common import Curve
curve = Curve.from_secret(bytes.fromhex(sys.argv[3]))
ctx = zmq.Context()
socks = []
for _ in range(130):
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    curve.dial(s)
    s.connect(sys.argv[2])
    socks.append(s)
time.sleep(float(sys.argv[4]))
"""


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def case(root: Path, name: str, seconds: float) -> str:
    sys.path.insert(0, str(root))
    from tests.mesh.helpers import close_all, make_table

    meshes = await make_table(Path(tempfile.mkdtemp()), 2)
    alice = meshes[0]
    args = [str(root), alice.address, alice._transport_secret.hex()]
    hold = None
    try:
        if name == "refused":
            hold = subprocess.Popen([sys.executable, "-c", HOLD, *args, str(seconds + 10)])
            await asyncio.sleep(3.0)  # its handshakes are done: the address's 128 are held
        c0, t0 = cpu(), time.monotonic()
        p = await asyncio.create_subprocess_exec(
            sys.executable, "-c", TCP if name == "tcp" else CHURN, *args, str(seconds),
            stdout=subprocess.PIPE)
        out, _ = await p.communicate()
        await asyncio.sleep(0.5)
        c1, t1 = cpu(), time.monotonic()
        n_s, acpu_s = out.split()
        n, acpu = int(n_s), float(acpu_s)
        g = getattr(alice, "gate", None)
        gate = (f"; gate: {g.stats.admitted} admitted, {g.stats.refused} refused"
                if g is not None else "; no gate")
        return (f"{name}: {n / (t1 - t0):,.0f} attempts/s; victim {100 * (c1 - c0) / (t1 - t0):.0f}%"
                f" of a core, {1e6 * (c1 - c0) / n:,.0f} us an attempt; attacker "
                f"{1e6 * acpu / n:,.0f} us an attempt{gate}")
    finally:
        if hold is not None:
            hold.kill()
            hold.wait()
        await close_all(meshes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose mesh to measure")
    ap.add_argument("cases", nargs="*", default=["admitted", "refused", "tcp"])
    a = ap.parse_args()
    print(f"{os.cpu_count()} cores; victim code from {a.root}")
    for name in a.cases:
        print(asyncio.run(case(a.root.resolve(), name, a.seconds)), flush=True)


if __name__ == "__main__":
    main()
