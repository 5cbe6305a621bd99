#!/usr/bin/env python3
"""Matches on a LAN of network namespaces (issue 16): hosts 10.77.0.1..N on a bridge with no
default route, each peer its own process. Needs root (namespaces are made and removed here).

Each run plays one Go Out Girl match (host on host 1, autoplaying; bots on the others) in which a
joiner is SIGKILLed at a random moment and restarted with its original command, and another
joiner's link is cut for 10 s at a random moment. The crash moments cycle through the deck steps
(0-2 s after the table fills: shuffling and dealing), a decision (after 1-10 plays) and the audit
(as the last move is narrated, 0-1 s later). A failed run's outputs are kept under ``--logs``.
``--end-cuts`` last runs (1 by default) cut a joiner's link right at the last move (when the host
narrates the winner) and check that every peer still shows the result and, once the link is
back, compares its transcript with every other.

Prints ``resume_success`` (share of runs where the crashed joiner got its seat back and the
match finished with clean audits), ``cut_survived`` (the same for the cut), ``match_wall_s``
(median), ``end_cut_result_shown`` and ``end_cut_compared`` (share of the end cuts after which
every peer compared its transcript with every other); ``--json`` prints one object. Timings are
noisy on a shared machine.
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

MOMENTS = ("deck", "decision", "audit")  # when the crash comes
ADDRESS_RE = re.compile(r"Address: (\S+)\s+Table code: (\S+)")


def _reports(procs, timeout: float, logs: list[str]) -> list[dict | None]:
    out = []
    for p in procs:
        try:
            text, err = p.communicate(timeout=timeout)
        except Exception:  # noqa: BLE001 -- a hung peer counts as a failure
            p.kill()
            text, err = p.communicate()
            logs.append(f"--- {p.args[3:]} hung\n{text}\n{err}")
            out.append(None)
            continue
        logs.append(f"--- {p.args[3:]} rc={p.returncode}\n{text}\n{err}")
        lines = [ln for ln in text.splitlines() if ln.startswith("{")]
        out.append(json.loads(lines[-1]) if p.returncode == 0 and lines else None)
    return out


def one(lan: Lan, tmp: Path, hosts: int, crash: str | None, cut: bool, end_cut: bool,
        rng: random.Random, logs: list[str]) -> dict:
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
        crash_at, cut_at = rng.randint(1, 10), rng.randint(1, 10)
        plays, crashed, cutting, full_at = 0, crash is None, not cut, None
        delay = rng.uniform(0.0, 2.0 if crash == "deck" else 1.0)
        while True:
            line = host.stdout.readline()
            if not line:
                break
            lines.append(line)
            plays += " plays " in line
            if full_at is None and "The table is full" in line:
                full_at = time.monotonic()
            due = (crash == "deck" and full_at is not None or
                   crash == "decision" and plays >= crash_at or
                   crash == "audit" and "wins the match" in line)
            if not crashed and due:
                crashed = True
                time.sleep(max(0.0, delay - (time.monotonic() - (full_at or 0.0)))
                           if crash == "deck" else delay if crash == "audit" else 0.0)
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
        reports = _reports(list(bots.values()), 300, logs)
        out = "".join(lines)
        logs.insert(0, f"--- host rc={host.returncode}\n{out}\n{host.stderr.read()}")
        ok = (host.returncode == 0 and "Audit: clean" in out and
              all(r is not None and r["verdict"]["clean"] for r in reports) and
              len({json.dumps(r["outcome"], sort_keys=True) for r in reports if r}) == 1)
        return {"ok": ok, "wall": time.monotonic() - t0, "crashed": crashed, "cut": cutting,
                "moment": crash,
                "result_shown": "Result:" in out and all(r is not None for r in reports),
                "compared": "could not compare" not in out and
                all(r is not None and r.get("compared") is True for r in reports)}
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
    ap.add_argument("--end-cuts", type=int, default=1, help="matches with a cut at the last "
                    "move (a race between the final checkpoints: use several)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--logs", default=tempfile.gettempdir() + "/p2pcards-bench-lan",
                    help="where a failed run's outputs are kept")
    args = ap.parse_args()
    # a SIGTERM ends the bench like Ctrl-C: the namespaces and the peers are removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("bench_lan: terminated"))
    rng = random.Random(args.seed)
    runs, ends = [], []
    for k in range(args.runs + args.end_cuts):
        lan = Lan(args.hosts)
        try:
            lan.up()
        except LanUnavailable as exc:
            sys.exit(f"bench_lan: no namespace LAN here ({exc})")
        try:
            with tempfile.TemporaryDirectory(prefix="p2pcards-lan-") as tmp:
                logs: list[str] = []
                if k < args.runs:
                    moment = MOMENTS[k % len(MOMENTS)]
                    r = one(lan, Path(tmp), args.hosts, moment, True, False, rng, logs)
                    runs.append(r)
                else:
                    r = one(lan, Path(tmp), args.hosts, None, False, True, rng, logs)
                    ends.append(r)
                print(f"bench_lan: run {k + 1}: {'ok' if r.get('ok') else 'FAILED'} "
                      f"({r.get('moment') or 'end cut'}, {r.get('wall', 0):.0f} s)",
                      file=sys.stderr, flush=True)
                if not r.get("ok"):
                    keep = Path(args.logs)
                    keep.mkdir(parents=True, exist_ok=True)
                    (keep / f"run{k + 1}.log").write_text("\n".join(logs))
        finally:
            lan.down()
    res = {
        "resume_success": (sum(r["ok"] and r.get("crashed", False) for r in runs) / len(runs)
                           if runs else None),
        "cut_survived": (sum(r["ok"] and r.get("cut", False) for r in runs) / len(runs)
                         if runs else None),
        "match_wall_s": (round(statistics.median(r.get("wall", 0.0) for r in runs), 1)
                         if runs else None),
        "end_cut_result_shown": bool(ends) and all(e.get("ok") and e.get("result_shown")
                                                   for e in ends),
        "end_cut_compared": (sum(bool(e.get("ok") and e.get("compared")) for e in ends)
                             / len(ends) if ends else None),
        "end_cuts": len(ends),
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
