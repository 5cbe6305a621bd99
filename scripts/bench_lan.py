#!/usr/bin/env python3
"""Matches on a LAN of network namespaces (issue 16): hosts 10.77.0.1..N on a bridge with no
default route, each peer its own process. Needs root (namespaces are made and removed here).

Each run plays one Go Out Girl match (host on host 1, autoplaying; bots on the others) in which a
joiner is SIGKILLed at a random moment and restarted with its original command, and another
joiner's link is cut for 10 s at a random moment. A last run cuts a joiner's link right at the
last move (when the host narrates the winner) and checks every peer still shows the result.

Prints ``resume_success`` (share of runs where the crashed joiner got its seat back and the
match finished with clean audits), ``cut_survived`` (the same for the cut), ``match_wall_s``
(median), ``end_cut_result_shown``; ``--json`` prints one object. Timings are noisy on a shared
machine.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.mesh.lan import Lan, LanUnavailable  # noqa: E402

ADDRESS_RE = re.compile(r"Address: (\S+)\s+Table code: (\S+)")


def _reports(procs, timeout: float) -> list[dict | None]:
    out = []
    for p in procs:
        try:
            text, _ = p.communicate(timeout=timeout)
        except Exception:  # noqa: BLE001 -- a hung peer counts as a failure
            p.kill()
            out.append(None)
            continue
        lines = [ln for ln in text.splitlines() if ln.startswith("{")]
        out.append(json.loads(lines[-1]) if p.returncode == 0 and lines else None)
    return out


def one(lan: Lan, tmp: Path, hosts: int, crash: bool, cut: bool, end_cut: bool,
        rng: random.Random) -> dict:
    t0 = time.monotonic()
    host = lan.p2pcards(1, "host", "go-out-girl", "--players", str(hosts), "--autoplay",
                        "--no-discovery", home=tmp / "h1")
    procs = [host]
    lines: list[str] = []
    try:
        address = code = None
        while address is None:
            line = host.stdout.readline()
            if not line:
                return {"ok": False, "why": "the host did not start"}
            if m := ADDRESS_RE.search(line):
                address, code = m.groups()
        def bot(i):
            return lan.p2pcards(i, "bot", address, "--code", code, "--name", f"bot{i}",
                                "--json", home=tmp / f"h{i}")

        bots = {i: bot(i) for i in range(2, hosts + 1)}
        procs += bots.values()
        crash_at, cut_at = rng.randint(1, 30), rng.randint(1, 30)
        plays, crashed, cutting = 0, not crash, not cut
        while True:
            line = host.stdout.readline()
            if not line:
                break
            lines.append(line)
            plays += " plays " in line
            if not crashed and plays >= crash_at:
                crashed = True
                bots[hosts].send_signal(signal.SIGKILL)
                bots[hosts].wait(timeout=30)
                time.sleep(rng.uniform(0.2, 3.0))
                bots[hosts] = bot(hosts)
                procs.append(bots[hosts])
            if not cutting and plays >= cut_at:
                cutting = True
                lan.cut(2)
                threading.Timer(10.0, lan.heal, (2,)).start()
            if end_cut and "wins the match" in line:
                end_cut = False
                lan.cut(2)
                threading.Timer(10.0, lan.heal, (2,)).start()
        host.wait(timeout=300)
        reports = _reports(list(bots.values()), 300)
        out = "".join(lines)
        ok = (host.returncode == 0 and "Audit: clean" in out and
              all(r is not None and r["verdict"]["clean"] for r in reports) and
              len({json.dumps(r["outcome"], sort_keys=True) for r in reports if r}) == 1)
        return {"ok": ok, "wall": time.monotonic() - t0, "crashed": crashed, "cut": cutting,
                "result_shown": "Result:" in out and all(r is not None for r in reports)}
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--runs", type=int, default=2, help="matches with a crash and a cut "
                    "(the issue's figure is over 20)")
    ap.add_argument("--hosts", type=int, default=3, help="hosts on the LAN (the issue used 4)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    runs, end = [], None
    for k in range(args.runs + 1):
        lan = Lan(args.hosts)
        try:
            lan.up()
        except LanUnavailable as exc:
            sys.exit(f"bench_lan: no namespace LAN here ({exc})")
        try:
            with tempfile.TemporaryDirectory(prefix="p2pcards-lan-") as tmp:
                if k < args.runs:
                    runs.append(one(lan, Path(tmp), args.hosts, True, True, False, rng))
                else:
                    end = one(lan, Path(tmp), args.hosts, False, False, True, rng)
        finally:
            lan.down()
    res = {
        "resume_success": sum(r["ok"] and r.get("crashed", False) for r in runs) / len(runs),
        "cut_survived": sum(r["ok"] and r.get("cut", False) for r in runs) / len(runs),
        "match_wall_s": round(statistics.median(r.get("wall", 0.0) for r in runs), 1),
        "end_cut_result_shown": bool(end and end.get("ok") and end.get("result_shown")),
        "runs": len(runs),
        "hosts": args.hosts,
    }
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>22}: {v}")


if __name__ == "__main__":
    main()
