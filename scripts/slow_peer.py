#!/usr/bin/env python3
"""An honest peer on a slow machine: does the table wait for it, or name it?

Plays one autoplaying match on 127.0.0.1 (a host and bots, each its own process) with the last
bot's process held to PERCENT of one core by a Linux cgroup (v1 ``cpu`` controller, so it needs
root and /sys/fs/cgroup/cpu), and prints the wall time and each bot's verdict. The deck's
lateness clock (docs/network.md, "Nobody can slow the deck down for long either") must not name
a seat that is merely slow.

    .venv/bin/python scripts/slow_peer.py [GAME] [PLAYERS] [PERCENT]   (default go-out-girl 5 3)
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "table"))
import procs  # noqa: E402


def main() -> int:
    game = sys.argv[1] if len(sys.argv) > 1 else "go-out-girl"
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    pct = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    cg = Path(f"/sys/fs/cgroup/cpu/p2pcards-slow{pct}")
    try:
        cg.mkdir(exist_ok=True)
        (cg / "cpu.cfs_period_us").write_text("100000")
        (cg / "cpu.cfs_quota_us").write_text(str(pct * 1000))
    except OSError as exc:
        print(f"cannot make a cgroup with a CPU cap at {cg} ({exc.strerror or exc}): this needs "
              "root and the cgroup v1 cpu controller", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="p2pcards-slow-"))
    t0 = time.monotonic()
    host, addr, code = procs.start_host(tmp, game, players)
    bots = []
    for i in range(1, players):
        b = procs.start_bot(tmp, addr, code, i)
        if i == players - 1:
            (cg / "cgroup.procs").write_text(str(b.pid))
        bots.append(b)
    named = False
    for i, b in enumerate(bots, 1):
        r = procs.bot_report(b, timeout=3600)
        v = r["verdict"]
        named |= v["culprit"] is not None
        slow = " (the slow one)" if i == players - 1 else ""
        print(f"bot{i}{slow}: clean={v['clean']} culprit={v['culprit']} steps={r['steps']} "
              f"deck {r['timings']['deck_s']:.1f} s")
    host.communicate(timeout=120)
    print(f"{game}, {players} seats, one held to {pct} % of a core: {time.monotonic() - t0:.1f} s; "
          f"{'someone was NAMED' if named else 'nobody named'}")
    print(json.dumps({"game": game, "players": players, "percent": pct, "named": named}))
    return 1 if named else 0


if __name__ == "__main__":
    sys.exit(main())
