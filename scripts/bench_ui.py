#!/usr/bin/env python3
"""The full-screen table's speed, driven headless through Textual's Pilot.


* ``redraw_p95_ms``: after a peer's (bot's) move, the time from the move arriving at this seat's
  copy of the game (``apply``, as a move from the network does) to the screen having redrawn
  (the log written, the table shown, your next question if it is your turn, the next refresh
  done), p95 over every peer move of whole local games of the three games, once the first
  screen is up. Target: <= 50 ms. The CPU time of the same windows is printed beside it: on a
  loaded machine the wall time mostly measures the wait for a core.
* ``startup_s``: from starting a new Python process to the first screen of a local game drawn
  (imports, the game's set-up and Textual's first refresh). Target: <= 1.5 s.

Prints p95 and medians, wall and CPU time, per title and over all, with the machine's core count
and load average; ``--json`` prints one object; ``--quick`` plays one whole game per title
(``--games N`` plays N, default 3) and starts up three times instead of five; ``--profile FILE``
saves a cProfile of the redraw windows only. Timings on a shared, loaded machine are noisy:
read them as such, and compare CPU times.
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
MOVE_CAP = 2000  # a bound on the peer moves timed in one game (whole games are far shorter)


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


def redraws(game: str, players: int, seed: int, limit: int, profile=None) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each peer move of one game: from the move arriving at this seat's
    copy of the game (``apply``) to the screen's next refresh after the table has been shown."""
    from p2pcards.engine import Decision
    from p2pcards.ui.app import TableApp
    from p2pcards.ui.session import LocalGame

    samples: list[tuple[float, float]] = []
    arrived: list[tuple[float, float]] = []  # the peer move waiting to reach the screen

    lg = LocalGame(game, players, players - 1, seed, {}, save=False)
    apply = lg.watcher.apply

    drawn: list[bool] = []  # the first screen is up (moves before it count as start-up)

    def timed_apply(event, **kw):  # a peer's move arriving, as from the network
        if isinstance(event, Decision) and event.player != lg.seat and not arrived and drawn:
            if profile is not None:
                profile.enable()
            arrived.append((time.perf_counter(), time.process_time()))
        apply(event, **kw)

    lg.watcher.apply = timed_apply  # type: ignore[method-assign]

    class Timed(TableApp):
        def on_mount(self) -> None:  # Textual calls TableApp.on_mount too (each class's own)
            self.call_after_refresh(lambda: drawn.append(True))

        def show(self, view):
            super().show(view)
            if arrived:
                t0, c0 = arrived.pop()

                def done() -> None:
                    samples.append((time.perf_counter() - t0, time.process_time() - c0))
                    if profile is not None:
                        profile.disable()
                self.call_after_refresh(done)

    async def go() -> None:
        # peers' moves arrive as over a network, PACE apart (a bot process answers in ~10-50 ms)
        app = Timed(game, lg.seat, lg.run, names=lg.names, forced_delay=0.0, pace=PACE)
        async with app.run_test(size=(140, 45)) as pilot:
            for _ in range(100_000):
                await pilot.pause()
                if app.finished_text is not None or len(samples) >= limit:
                    break
                if app.legal:
                    await pilot.press("enter")

    asyncio.run(go())
    return samples


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))] if xs else 0.0


def ms(x: float) -> float:
    return round(1000 * x, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quick", action="store_true", help="one game per title, 3 start-ups")
    ap.add_argument("--games", type=int, default=3, help="whole games per title (default 3)")
    ap.add_argument("--profile", metavar="FILE",
                    help="save a cProfile of the redraw windows only (read it with pstats)")
    ap.add_argument("--startup-child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.startup_child:
        startup_child()
        return
    os.environ.setdefault("P2PCARDS_HOME", tempfile.mkdtemp())
    profile = None
    if args.profile:
        import cProfile
        profile = cProfile.Profile()
    load_before = os.getloadavg()[0]
    seeds = range(1, 1 + (1 if args.quick else max(1, args.games)))
    by_game: dict[str, dict] = {}
    wall: list[float] = []
    cpu: list[float] = []
    for game, n in GAMES:
        pairs = [x for s in seeds for x in redraws(game, n, s, MOVE_CAP, profile)]
        if not pairs:
            raise SystemExit(f"no peer move was timed in {game}")
        w, c = [x for x, _ in pairs], [y for _, y in pairs]
        wall += w
        cpu += c
        by_game[game] = {"p95_ms": ms(p95(w)), "median_ms": ms(statistics.median(w)),
                         "cpu_p95_ms": ms(p95(c)), "cpu_median_ms": ms(statistics.median(c)),
                         "moves": len(w)}
    if profile is not None:
        profile.dump_stats(args.profile)
    starts = [startup_once() for _ in range(3 if args.quick else 5)]
    out = {
        "cores": os.cpu_count(),
        "redraw_p95_ms": ms(p95(wall)),
        "redraw_median_ms": ms(statistics.median(wall)),
        "redraw_cpu_p95_ms": ms(p95(cpu)),
        "redraw_cpu_median_ms": ms(statistics.median(cpu)),
        "redraw_samples": len(wall),
        "games_per_title": len(seeds),
        "redraw_by_game": by_game,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "startup_s": round(statistics.median(starts), 3),
        "startup_s_runs": [round(x, 3) for x in starts],
        "targets": {"redraw_p95_ms": 50, "startup_s": 1.5},
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"bench_ui ({out['cores']} cores; load average {out['load_average'][0]} before, "
          f"{out['load_average'][1]} after: on a shared machine wall times are noisy, CPU "
          "times less so)")
    print(f"  redraw after a peer's move, {len(seeds)} whole game(s) per title: p95 "
          f"{out['redraw_p95_ms']} ms, median {out['redraw_median_ms']} ms over "
          f"{out['redraw_samples']} moves (target p95 <= 50 ms); CPU time p95 "
          f"{out['redraw_cpu_p95_ms']} ms, median {out['redraw_cpu_median_ms']} ms")
    for g, v in by_game.items():
        print(f"    {g:<18} p95 {v['p95_ms']:>6} ms  median {v['median_ms']:>6} ms  "
              f"CPU p95 {v['cpu_p95_ms']:>6} ms  median {v['cpu_median_ms']:>6} ms  "
              f"({v['moves']} moves)")
    print(f"  startup to the first screen: median {out['startup_s']} s over "
          f"{len(starts)} runs {out['startup_s_runs']} (target <= 1.5 s)")


if __name__ == "__main__":
    main()
