#!/usr/bin/env python3
"""A 4-peer Go Out Girl match over loopback with bots and the mental-poker deck: this process
hosts one seat, three bot processes take the others (as ``p2pcards demo`` does).

Prints, over several matches: the match wall time (median), turn latency seen by the host while
the other seats decide (median and p95 over all turns), messages and bytes per battle (from the
host's transcript), and the share of the host's time spent in the deck service. ``--json`` prints
one object. Targets: turn latency p95 <= 50 ms; a whole match <= 30 s on this 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2pcards.demo import local_match, percentile  # noqa: E402


async def one(players: int) -> dict:
    root = Path(tempfile.mkdtemp(prefix="p2pcards-bench-"))
    try:
        m = await local_match("go-out-girl", players, "easy", root, say_=lambda s: None)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    r = m.result
    battles = (r.outcome or {}).get("battles", 1)
    busy = sum(r.timings.get(k, 0.0) for k in ("deck_s", "wait_s", "decide_s"))
    return {"ok": m.ok, "match_s": m.game_s + m.seating_s, "game_s": m.game_s,
            "latencies": r.turn_latencies, "battles": battles,
            "msgs_per_battle": m.envelopes / battles, "bytes_per_battle": m.transcript_bytes / battles,
            "deck_s": r.timings.get("deck_s", 0.0), "audit_s": r.timings.get("audit_s", 0.0),
            "deck_share": r.timings.get("deck_s", 0.0) / busy if busy else 0.0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--matches", type=int, default=3)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    runs = [asyncio.run(one(args.players)) for _ in range(args.matches)]
    lat = [x for r in runs for x in r["latencies"]]
    out = {
        "cores": os.cpu_count(), "matches": len(runs), "players": args.players,
        "all_audits_clean": all(r["ok"] for r in runs),
        "match_wall_s": round(statistics.median(r["match_s"] for r in runs), 2),
        "match_wall_s_max": round(max(r["match_s"] for r in runs), 2),
        "turn_latency_median_ms": round(1000 * percentile(lat, 0.5), 2),
        "turn_latency_p95_ms": round(1000 * percentile(lat, 0.95), 2),
        "msgs_per_battle": round(statistics.median(r["msgs_per_battle"] for r in runs)),
        "bytes_per_battle": round(statistics.median(r["bytes_per_battle"] for r in runs)),
        "deck_share_of_play": round(statistics.median(r["deck_share"] for r in runs), 3),
        "deck_s": round(statistics.median(r["deck_s"] for r in runs), 2),
        "audit_s": round(statistics.median(r["audit_s"] for r in runs), 2),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"table benchmark — {out['cores']} cores, {out['matches']} matches of Go Out Girl, "
          f"{out['players']} peers (1 host + bot processes) on 127.0.0.1")
    for k, v in out.items():
        if k in ("cores", "matches", "players"):
            continue
        target = {"turn_latency_p95_ms": " (target ≤ 50)", "match_wall_s": " (target ≤ 30)"}.get(k, "")
        print(f"  {k:26} {v}{target}")


if __name__ == "__main__":
    main()
