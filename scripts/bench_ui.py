#!/usr/bin/env python3
"""The full-screen table's speed, driven headless through Textual's Pilot.


* ``redraw_p95_ms``: after a peer's (bot's) move, the time from the move reaching the screen to
  the screen having redrawn (the log written, the table shown, the next refresh done), p95 over
  every peer move of local games of the three games. Target: <= 50 ms.
* ``startup_s``: from starting a new Python process to the first screen of a local game drawn
  (imports, the game's set-up and Textual's first refresh). Target: <= 1.5 s.

Prints medians and the machine's core count; ``--json`` prints one object; ``--quick`` plays
one small game per title and starts up three times instead of five. Timings on a shared,
loaded machine are noisy: read them as such.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAMES = (("go-out-girl", 3), ("out-of-this-world", 3), ("girl-and-robot", 3))
PACE = 0.05  # seconds between peers' moves


def startup_child() -> None:
    """Run inside a fresh process: draw the first screen, print the wall clock, exit."""
    from p2pcards.ui.app import TableApp
    from p2pcards.ui.session import LocalGame

    async def go() -> None:
        lg = LocalGame("go-out-girl", 3, 2, 1, {}, save=False)
        app = TableApp("go-out-girl", lg.seat, lg.run, names=lg.names)
        async with app.run_test(size=(140, 45)) as pilot:
            for _ in range(1000):
                await pilot.pause()
                if app.view is not None and app.legal:
                    break
            print(json.dumps({"ready": time.time()}), flush=True)
            app.exit(None)

    asyncio.run(go())


def startup_once() -> float:
    t0 = time.time()
    out = subprocess.run([sys.executable, __file__, "--startup-child"], capture_output=True,
                         text=True, timeout=120, env={**os.environ, "P2PCARDS_HOME": tempfile.mkdtemp()})
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        raise SystemExit(f"the startup child failed: {out.stderr.strip()[-400:]}")
    return json.loads(lines[-1])["ready"] - t0


def redraws(game: str, players: int, seed: int, limit: int) -> list[float]:
    from p2pcards.engine import Decide
    from p2pcards.ui.app import TableApp
    from p2pcards.ui.session import LocalGame

    samples: list[float] = []
    cpu: list[float] = []

    class Timed(TableApp):
        def show(self, view):  # a peer's move reaching the screen
            req = view.pending()
            peer = isinstance(req, Decide) and req.player != self.seat or not isinstance(req, Decide)
            t0, c0 = time.perf_counter(), time.process_time()
            super().show(view)
            if peer and self.lines_seen:
                def done() -> None:
                    samples.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
                self.call_after_refresh(done)

    async def go() -> None:
        lg = LocalGame(game, players, players - 1, seed, {}, save=False)
        # peers' moves arrive as over a network, PACE apart (a bot process answers in ~10-50 ms)
        app = Timed(game, lg.seat, lg.run, names=lg.names, forced_delay=0.0, pace=PACE)
        async with app.run_test(size=(140, 45)) as pilot:
            for _ in range(20000):
                await pilot.pause()
                if app.finished_text is not None or len(samples) >= limit:
                    break
                if app.legal:
                    await pilot.press("enter")

    asyncio.run(go())
    return list(zip(samples, cpu, strict=False))


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))] if xs else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quick", action="store_true", help="one game per title, 3 start-ups")
    ap.add_argument("--startup-child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.startup_child:
        startup_child()
        return
    os.environ.setdefault("P2PCARDS_HOME", tempfile.mkdtemp())
    per_game: dict[str, list[float]] = {}
    cpu: list[float] = []
    seeds = (1,) if args.quick else (1, 2, 3)
    for game, n in GAMES:
        pairs = [x for s in seeds for x in redraws(game, n, s, 60 if args.quick else 400)]
        per_game[game] = [w for w, _ in pairs]
        cpu += [c for _, c in pairs]
    every = [x for xs in per_game.values() for x in xs]
    starts = [startup_once() for _ in range(3 if args.quick else 5)]
    out = {
        "cores": os.cpu_count(),
        "redraw_p95_ms": round(1000 * p95(every), 1),
        "redraw_median_ms": round(1000 * statistics.median(every), 1),
        "redraw_samples": len(every),
        "redraw_cpu_p95_ms": round(1000 * p95(cpu), 1),
        "load_average": round(os.getloadavg()[0], 1),
        "redraw_p95_ms_by_game": {g: round(1000 * p95(xs), 1) for g, xs in per_game.items()},
        "startup_s": round(statistics.median(starts), 3),
        "startup_s_runs": [round(x, 3) for x in starts],
        "targets": {"redraw_p95_ms": 50, "startup_s": 1.5},
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"bench_ui ({out['cores']} cores; shared machine: timings are noisy)")
    print(f"  redraw after a peer's move: p95 {out['redraw_p95_ms']} ms, median "
          f"{out['redraw_median_ms']} ms over {out['redraw_samples']} moves (target <= 50 ms); "
          f"CPU time p95 {out['redraw_cpu_p95_ms']} ms; load average {out['load_average']}")
    for g, v in out["redraw_p95_ms_by_game"].items():
        print(f"    {g}: p95 {v} ms")
    print(f"  startup to the first screen: median {out['startup_s']} s over "
          f"{len(starts)} runs {out['startup_s_runs']} (target <= 1.5 s)")


if __name__ == "__main__":
    main()
