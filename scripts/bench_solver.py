#!/usr/bin/env python3
"""Solver benchmark (Go Out Girl): hint latency, CP-SAT against brute force, bot strength.

* hint latency: median and p95 of the ``hint`` advice (``solver.hints``, ``num_workers=1``) over
  random positions taken from heuristic-bot games (2-5 players, every decision kind);
* the fewest-plays partition: CP-SAT against brute-force enumeration on hands of 9 to 20 cards
  (median times and their ratio; the optima must agree);
* the strong bot's share of battle wins in four-player battles against three heuristic bots
  (an equal bot gets 0.25), and against three random bots.

Prints medians and ratios with the machine's core count; ``--json`` prints one object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2pcards.bots.base import RandomBot  # noqa: E402
from p2pcards.bots.go_out_girl import GoOutGirlBot  # noqa: E402
from p2pcards.engine import Decide, Decision, LocalDealer, play  # noqa: E402
from p2pcards.games import new_game  # noqa: E402
from solver.go_out_girl.bots import StrongBot  # noqa: E402
from solver.go_out_girl.model import KYOKO, NERAI, SHIAN, TOYOKO  # noqa: E402
from solver.go_out_girl.partition import min_plays_brute, partition  # noqa: E402
from solver.hints import hinter_for  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def random_positions(count: int, seed: int = 1):
    """(view, legal) at random decisions of heuristic-bot games."""
    rng = random.Random(seed)
    out = []
    game_seed = seed * 1000
    while len(out) < count:
        n = rng.choice([2, 3, 4, 4, 5])
        g = new_game("go-out-girl", n)
        dealer = LocalDealer(game_seed)
        bots = [GoOutGirlBot(q, game_seed + q) for q in range(n)]
        game_seed += 1
        picks = 0
        while (req := g.pending()) is not None and picks < 3:
            if isinstance(req, Decide):
                p = req.player
                legal = g.legal(p)
                if len(legal) > 1 and rng.random() < 0.04:
                    out.append((g.view(p), legal))
                    picks += 1
                g.apply(Decision(p, bots[p].decide(g.view(p), legal)))
            else:
                g.apply(dealer.fulfil(g, req))
    return out[:count]


def bench_hints(count: int) -> dict:
    hinter = hinter_for("go-out-girl", seed=0)
    assert hinter is not None
    times, cpu, phases = [], [], {}
    positions = random_positions(count)
    t = time.perf_counter()
    hinter(*positions[0])  # the first hint of a session also imports OR-Tools
    first = (time.perf_counter() - t) * 1000
    for view, legal in positions:
        t, c = time.perf_counter(), time.process_time()
        text = hinter(view, legal)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        assert text and text.startswith("Hint:")
        phases[view.phase] = phases.get(view.phase, 0) + 1
    return {"gog_hint_positions": len(times), "gog_hint_median_ms": round(statistics.median(times), 1),
            "gog_hint_p95_ms": round(pct(times, 0.95), 1), "gog_hint_max_ms": round(max(times), 1),
            "gog_hint_cpu_median_ms": round(statistics.median(cpu), 1),
            "gog_hint_cpu_p95_ms": round(pct(cpu, 0.95), 1), "gog_hint_first_ms": round(first, 1),
            "gog_hint_phases": phases}


DECK = [n for n in range(1, 14) for _ in range(6)] + [0] * 8


def bench_partition(per_size: int = 20) -> dict:
    rng = random.Random(5)
    abilities = [None, NERAI, TOYOKO, SHIAN, KYOKO]
    rows = {}
    cp_all, bf_all = [], []
    for size in range(9, 21):
        cp_t, bf_t = [], []
        for i in range(per_size):
            c = [0] * 14
            for x in rng.sample(DECK, size):
                c[x] += 1
            ab = abilities[i % len(abilities)]
            t = time.perf_counter()
            p = partition(c, ab)
            cp_t.append(time.perf_counter() - t)
            t = time.perf_counter()
            b = min_plays_brute(c, ab)
            bf_t.append(time.perf_counter() - t)
            assert p.plays == b, (c, ab)
        rows[size] = {"cpsat_ms": round(statistics.median(cp_t) * 1000, 3),
                      "brute_ms": round(statistics.median(bf_t) * 1000, 3),
                      "ratio": round(statistics.median(cp_t) / statistics.median(bf_t), 2)}
        cp_all += cp_t
        bf_all += bf_t
    return {"partition_by_size": rows,
            "partition_cpsat_median_ms": round(statistics.median(cp_all) * 1000, 3),
            "partition_brute_median_ms": round(statistics.median(bf_all) * 1000, 3),
            "partition_cpsat_over_brute": round(statistics.median(cp_all) / statistics.median(bf_all), 2)}


def _matches(args: tuple[str, int, int]) -> tuple[int, int, float]:
    """Whole matches from seed ``start`` until ``battles`` battles: (battles, strong wins, s)."""
    opponent, start, battles = args
    t = time.perf_counter()
    won = played = 0
    seed = start
    while played < battles:
        seat = seed % 4
        cls = GoOutGirlBot if opponent == "heuristic" else RandomBot
        agents = [cls(q, seed * 10 + q) for q in range(4)]
        agents[seat] = StrongBot(seat, seed)
        final = play(new_game("go-out-girl", 4), agents, LocalDealer(seed))
        bw = final.outcome()["battle_winners"]
        played += len(bw)
        won += sum(1 for w in bw if w == seat)
        seed += 1
    return played, won, time.perf_counter() - t


def bench_bots(battles: int, jobs: int) -> dict:
    out = {}
    for opponent, key in (("heuristic", "gog_strong_win_share"),
                          ("random", "gog_strong_win_share_vs_random")):
        t = time.perf_counter()
        shares = [(opponent, 10_000 * j, -(-battles // jobs)) for j in range(jobs)]
        if jobs == 1:
            results = [_matches(shares[0])]
        else:
            with ProcessPoolExecutor(jobs) as ex:
                results = list(ex.map(_matches, shares))
        played = sum(r[0] for r in results)
        won = sum(r[1] for r in results)
        out[key] = round(won / played, 3)
        out[key.replace("share", "battles")] = played
        out[key.replace("win_share", "seconds")] = round(time.perf_counter() - t, 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--positions", type=int, default=200, help="hint positions (default 200)")
    ap.add_argument("--battles", type=int, default=400, help="battles per opponent (default 400)")
    ap.add_argument("--jobs", type=int, default=1, help="processes for the bot battles (default 1)")
    ap.add_argument("--skip-bots", action="store_true", help="leave out the (long) bot battles")
    args = ap.parse_args()
    out: dict = {"cores": os.cpu_count(), "num_workers": 1}
    t0 = time.perf_counter()
    out.update(bench_hints(args.positions))
    out.update(bench_partition())
    if not args.skip_bots:
        out.update(bench_bots(args.battles, args.jobs))
    out["seconds"] = round(time.perf_counter() - t0, 1)
    if args.json:
        print(json.dumps(out))
        return
    print(f"solver benchmark — {out['cores']} cores, CP-SAT num_workers=1, {out['seconds']} s")
    print(f"  hint latency over {out['gog_hint_positions']} positions: median "
          f"{out['gog_hint_median_ms']} ms, p95 {out['gog_hint_p95_ms']} ms "
          f"(target p95 ≤ 250: {'met' if out['gog_hint_p95_ms'] <= 250 else 'NOT met'}), "
          f"max {out['gog_hint_max_ms']} ms")
    print(f"    CPU time per hint: median {out['gog_hint_cpu_median_ms']} ms, p95 "
          f"{out['gog_hint_cpu_p95_ms']} ms; first hint of a session (imports OR-Tools) "
          f"{out['gog_hint_first_ms']} ms; phases {out['gog_hint_phases']}")
    print("  fewest plays, CP-SAT vs brute force (median ms per hand, ratio CP-SAT/brute):")
    for size, row in out["partition_by_size"].items():
        print(f"    {size:>2} cards: CP-SAT {row['cpsat_ms']:>7} ms  brute {row['brute_ms']:>7} ms  "
              f"ratio {row['ratio']}")
    print(f"    all sizes: CP-SAT {out['partition_cpsat_median_ms']} ms, brute "
          f"{out['partition_brute_median_ms']} ms, ratio {out['partition_cpsat_over_brute']}")
    if "gog_strong_win_share" in out:
        s = out["gog_strong_win_share"]
        print(f"  strong bot vs 3 heuristic bots: win share {s} over "
              f"{out['gog_strong_win_battles']} battles (target ≥ 0.40: "
              f"{'met' if s >= 0.40 else 'NOT met'}; an equal bot gets 0.25), "
              f"{out['gog_strong_seconds']} s")
        print(f"  strong bot vs 3 random bots:    win share {out['gog_strong_win_share_vs_random']} "
              f"over {out['gog_strong_win_battles_vs_random']} battles, "
              f"{out['gog_strong_seconds_vs_random']} s")


if __name__ == "__main__":
    main()
