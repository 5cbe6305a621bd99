#!/usr/bin/env python3
"""Matches on a LAN of network namespaces (issue 16): hosts 10.77.0.1..N on a bridge with no
default route, each peer its own process. Needs root (namespaces are made and removed here).

Each run plays one Go Out Girl match (host on host 1, autoplaying; bots on hosts 2..N-1; a person
on host N: `join --plain` with its input open and nobody typing, so its seat's bot plays when the
0.3 s turn time is up) in which one peer is SIGKILLed at a random moment and comes back, and
another joiner's link is cut for 10 s at a random moment. The crashed peer cycles through a bot
(rerunning its command), the person with `join --resume`, the person with its original `join`
command, and the host with `join --resume`. The crash moments cycle through the deck steps
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
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.mesh.lan import Lan, LanUnavailable, Tapped  # noqa: E402

MOMENTS = ("deck", "decision", "audit")  # when the crash comes
# who crashes, and how it comes back: a bot rerunning its command; the person (a `join` with its
# input open, nobody typing: its seat's bot plays when the turn time is up) with `join --resume`
# or with its original command; the host with `join --resume`
TARGETS = ("bot", "person-resume", "person-rerun", "host-resume")
TURN_TIME = "0.3"  # the person's seat waits this long before its bot plays
ADDRESS_RE = re.compile(r"Address: (\S+)\s+Table code: (\S+)")


def _report(p: Tapped, logs: list[str], timeout: float) -> tuple[int | None, str]:
    """(return code, stdout) of a peer once it ends; ``None`` if it hung (then killed)."""
    try:
        rc, out, err = p.finish(timeout)
    except AssertionError as exc:  # still running: a hung peer counts as a failure
        logs.append(f"--- hung\n{exc}")
        return None, ""
    logs.append(f"--- {p.proc.args[3:]} rc={rc}\n{out}\n{err}")
    return rc, out


def _last_json(out: str) -> dict | None:
    lines = [ln for ln in out.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1]) if lines else None


def one(lan: Lan, tmp: Path, hosts: int, crash: str | None, target: str, cut: bool,
        end_cut: bool, rng: random.Random, logs: list[str]) -> dict:
    """One match: the host on host 1 (autoplaying), bots on hosts 2..N-1, a person on host N."""
    t0 = time.monotonic()

    def run(i: int, *args: str, person: bool = False) -> Tapped:
        return Tapped(lan.p2pcards(i, *args, home=tmp / f"h{i}",
                                   stdin=subprocess.PIPE if person else subprocess.DEVNULL))

    host = run(1, "host", "go-out-girl", "--players", str(hosts), "--autoplay", "--no-discovery",
               "--turn-time", TURN_TIME)
    procs = [host]
    try:
        try:
            lines = host.wait_for("Others join with", 60)
        except AssertionError:
            return {"ok": False, "why": "the host did not start"}
        address, code = next(m.groups() for ln in lines if (m := ADDRESS_RE.search(ln)))

        def bot(i: int) -> Tapped:
            return run(i, "bot", address, "--code", code, "--name", f"bot{i}", "--json")

        def person(resume: bool) -> Tapped:
            how = ("--resume",) if resume else (address, "--code", code)
            return run(hosts, "join", *how, "--name", "carol", "--plain", person=True)

        peers = {i: bot(i) for i in range(2, hosts)}
        peers[hosts] = person(False)
        procs += peers.values()
        peers[1] = host
        victim = {"bot": 2 if hosts == 3 else hosts - 1, "host-resume": 1}.get(target, hosts)
        watch = peers[hosts] if victim != hosts else host  # whose narration we follow
        crash_at, cut_at = rng.randint(1, 10), rng.randint(1, 10)
        crashed, cutting, full_at = crash is None, not cut, None
        delay = rng.uniform(0.0, 2.0 if crash == "deck" else 1.0)
        deadline = time.monotonic() + 400
        while time.monotonic() < deadline and any(p.poll() is None for p in peers.values()):
            time.sleep(0.05)
            said = list(watch.out)
            plays = sum(" plays " in ln for ln in said)
            over = any("wins the match" in ln for ln in said)
            if full_at is None and any("The table is full" in ln for ln in host.out):
                full_at = time.monotonic()
            due = (crash == "deck" and full_at is not None or
                   crash == "decision" and plays >= crash_at or crash == "audit" and over)
            if not crashed and due:
                crashed = True
                time.sleep(max(0.0, delay - (time.monotonic() - (full_at or 0.0)))
                           if crash == "deck" else delay if crash == "audit" else 0.0)
                peers[victim].proc.send_signal(signal.SIGKILL)
                peers[victim].finish(30)
                time.sleep(rng.uniform(0.2, 3.0))
                if target == "bot":
                    peers[victim] = bot(victim)
                elif target == "host-resume":
                    peers[victim] = run(1, "join", "--resume", "--name", "host", "--plain",
                                        person=True)
                else:
                    peers[victim] = person(target == "person-resume")
                procs.append(peers[victim])
            if not cutting and plays >= cut_at:
                cutting = True
                lan.cut(2)
                threading.Timer(10.0, lan.heal, (2,)).start()
            if end_cut and over:
                end_cut = False
                lan.cut(2)
                threading.Timer(10.0, lan.heal, (2,)).start()
        ended = {i: _report(p, logs, max(1.0, deadline - time.monotonic()) + 30)
                 for i, p in sorted(peers.items())}
        bots = [_last_json(out) if rc == 0 else None
                for i, (rc, out) in ended.items() if 1 < i < hosts]
        people = [out for i, (rc, out) in ended.items() if i in (1, hosts) and rc == 0]
        ok = (len(people) == 2 and all("Audit: clean" in out for out in people) and
              all(b is not None and b["verdict"]["clean"] for b in bots) and
              len({json.dumps(b["outcome"], sort_keys=True) for b in bots if b}) <= 1)
        return {"ok": ok, "wall": time.monotonic() - t0, "crashed": crashed, "cut": cutting,
                "moment": crash, "target": target,
                "result_shown": len(people) == 2 and all("Result:" in o for o in people) and
                all(b is not None for b in bots),
                "compared": all("could not compare" not in o for o in people) and
                all(b is not None and b.get("compared") is True for b in bots)}
    finally:
        for p in procs:
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
                    target = TARGETS[k % len(TARGETS)]
                    r = one(lan, Path(tmp), args.hosts, moment, target, True, False, rng, logs)
                    runs.append(r)
                else:
                    r = one(lan, Path(tmp), args.hosts, None, "", False, True, rng, logs)
                    ends.append(r)
                print(f"bench_lan: run {k + 1}: {'ok' if r.get('ok') else 'FAILED'} "
                      f"({r.get('target', '')} {r.get('moment') or 'end cut'}, {r.get('wall', 0):.0f} s)",
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
