#!/usr/bin/env python3
"""Attacks on a table over loopback (issue 12), with the metrics the issue asks for.

The victims are meshes in this process (their RSS is this process's); every attacker without a
key runs as its own process (``tests/mesh/attacker.py``). Prints one line per metric, or one JSON
object with ``--json``. Targets: unauth_flood_rss_growth_mb <= 64, seated_flood_rss_growth_mb
<= 128, honest_join_under_hello_flood_rate >= 0.99 (over --joins joins; 100 in the full run),
stall_flood_survives true, honest_blamed false, fake_host_seats_joiner false,
quit_announced_ms <= 2000. Timings are noisy on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from protocol.envelope import b64  # noqa: E402
from protocol.mesh import JoinFailed, Mesh, MeshError, Timings  # noqa: E402
from protocol.roster import Member  # noqa: E402
from protocol.tablecode import code_key  # noqa: E402
from tests.mesh.helpers import LOOPBACK, close_all, identity, make_table, play  # noqa: E402
from tests.mesh.test_adversary import attack, blamed, rss_mb  # noqa: E402


async def unauth_flood(tmp: Path, seconds: float) -> dict:
    meshes = await make_table(tmp / "unauth", 3)
    try:
        gc.collect()
        before = rss_mb()
        flood = asyncio.create_task(attack("big", meshes[1].address, seconds, meshes[0].code))
        parts = asyncio.create_task(attack("parts", meshes[1].address, 1.0, meshes[0].code))
        nested = asyncio.create_task(attack("nested", meshes[1].address, 1.0, meshes[0].code))
        survived = True
        try:
            await asyncio.wait_for(asyncio.gather(*(play(m.channel, 40) for m in meshes)), 120)
        except (TimeoutError, AssertionError):
            survived = False
        await asyncio.gather(flood, parts, nested)
        await asyncio.sleep(0.5)
        gc.collect()
        return {"growth": rss_mb() - before, "survived": survived, "blamed": blamed(meshes)}
    finally:
        await close_all(meshes)


async def seated_flood(tmp: Path) -> dict:
    """A seated peer (its own process) floods a topic nobody reads: both victims here."""
    t = Timings.fast()
    host = await Mesh.host(identity(tmp / "seated", 0), 3, bind=LOOPBACK, timings=t, name="alice")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "tests" / "mesh" / "peer_proc.py"), "flood",
        str(tmp / "seated" / "home1"), host.address, host.code or "", "bob", "400",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    carol = None
    try:
        while not host._members.get(1):
            await asyncio.sleep(0.05)
        gc.collect()
        before = rss_mb()
        carol = await Mesh.join(identity(tmp / "seated", 2), host.address, host.code, "carol",
                                bind=LOOPBACK, timings=t)
        out, _ = await asyncio.wait_for(proc.communicate(), 120)
        for _ in range(200):
            if host.stopped is not None and carol.stopped is not None:
                break
            await asyncio.sleep(0.05)
        gc.collect()
        growth = rss_mb() - before
        # a victim names the flooder when it saw the flood itself; one stopped by the other's
        # stop first records that stop as the other's claim against the flooder (no culprit)
        culprits = {m.stopped.culprit for m in (host, carol) if m.stopped is not None}
        claims = {m.stopped.claimed for m in (host, carol) if m.stopped is not None}
        named = culprits == {1} or (1 in culprits and claims - {None} <= {1})
        return {"growth": growth / 2, "named": named, "blamed": blamed([host, carol]) - {1}}
    finally:
        if proc.returncode is None:
            proc.kill()
        await close_all([m for m in (host, carol) if m is not None])


async def joins_under_hello_flood(tmp: Path, joins: int) -> float:
    t = Timings.fast()
    host = await Mesh.host(identity(tmp / "joins", 0), 16, bind=LOOPBACK, timings=t, name="host")
    ok, seated = 0, []
    try:
        flood = asyncio.create_task(attack("hello", host.address, 3600, host.code))
        await asyncio.sleep(1.0)
        for i in range(joins):
            if len(seated) == 15:  # a full table: open the next one (the flood goes on here)
                await close_all(seated)
                seated.clear()
                await host.close()
                flood.cancel()
                host = await Mesh.host(identity(tmp / f"joins{i}", 0), 16, bind=LOOPBACK,
                                       timings=t, name="host")
                flood = asyncio.create_task(attack("hello", host.address, 3600, host.code))
                await asyncio.sleep(0.5)
            try:
                seated.append(await Mesh.join(identity(tmp / f"j{i}", 1), host.address, host.code,
                                              f"p{i}", bind=LOOPBACK, timings=t))
                ok += 1
            except MeshError:
                pass
        flood.cancel()
    finally:
        await close_all([*seated, host])
    return ok / joins


async def fake_host(tmp: Path) -> bool:
    t = Timings.fast()
    me = identity(tmp / "fake", 1)
    # the worst case: a fake that has the connection key (so it can answer) but not the code's
    # proof key; one without the code cannot even accept the connection
    fake = await Mesh.host(identity(tmp / "fake", 9), 3, bind=LOOPBACK, timings=t, name="fake",
                           code="ABC-DEF")
    fake._code_key = code_key("ZZZ-ZZZ", fake.table)
    fake._members[1] = Member(1, "bob", me.public_key, "tcp://127.0.0.1:1", b64(b"\0" * 64))
    fake.verifier.keys[1] = me.public_key
    try:
        m = await Mesh.join(me, fake.address, "ABC-DEF", "bob", bind=LOOPBACK, timings=t)
    except (JoinFailed, MeshError):
        return False
    finally:
        await fake.close()
    await m.close()
    return True


async def quit_ms(tmp: Path) -> float:
    meshes = await make_table(tmp / "quit", 3)
    host, bob, carol = meshes
    t0 = time.perf_counter()
    await bob.close()
    try:
        while not (1 in host.left and 1 in carol.left):
            if time.perf_counter() - t0 > 30:
                return float("inf")
            await asyncio.sleep(0.005)
        return 1000 * (time.perf_counter() - t0)
    finally:
        await close_all([host, carol])


async def run(args: argparse.Namespace) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="p2pcards-hostile-"))
    u = await unauth_flood(tmp, args.seconds)
    s = await seated_flood(tmp)
    rate = await joins_under_hello_flood(tmp, args.joins)
    fake = await fake_host(tmp)
    q = await quit_ms(tmp)
    return {
        "unauth_flood_rss_growth_mb": round(u["growth"], 1),
        "seated_flood_rss_growth_mb": round(s["growth"], 1),  # per victim (two in this process)
        "seated_flooder_named": s["named"],
        "honest_join_under_hello_flood_rate": round(rate, 3),
        "joins": args.joins,
        "stall_flood_survives": u["survived"],
        "honest_blamed": bool(u["blamed"] or s["blamed"]),
        "fake_host_seats_joiner": fake,
        "quit_announced_ms": round(q, 1),
        "cores": os.cpu_count(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--joins", type=int, default=20, help="honest joins under the hello flood "
                    "(the issue's figure is over 100)")
    ap.add_argument("--seconds", type=float, default=5.0, help="length of the unauthenticated flood")
    args = ap.parse_args()
    logging.disable(logging.CRITICAL)
    res = asyncio.run(run(args))
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>36}: {v}")


if __name__ == "__main__":
    main()
