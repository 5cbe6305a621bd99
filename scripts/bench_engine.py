#!/usr/bin/env python3
"""Engine throughput: full games played by bots in one process with the trusted local dealer.

Prints medians over repeated runs, with the machine's core count; ``--json`` prints one object.
Each game contributes one entry to BENCHES: a function returning a dict of figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2pcards.bots.base import RandomBot  # noqa: E402
from p2pcards.bots.registry import make_bot  # noqa: E402
from p2pcards.engine import LocalDealer, play  # noqa: E402
from p2pcards.games import new_game  # noqa: E402

RUNS = 5


def median_rate(fn, runs: int = RUNS) -> tuple[float, list[float]]:
    rates = []
    for r in range(runs):
        count, seconds = fn(r)
        rates.append(count / seconds)
    return statistics.median(rates), rates


def gog_battles(run: int, seconds: float = 1.0) -> tuple[int, float]:
    """Random-bot Go Out Girl matches with 4 players for about ``seconds``; counts battles."""
    battles, seed = 0, run * 100_000
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = new_game("go-out-girl", 4)
        final = play(state, [RandomBot(p, seed * 8 + p) for p in range(4)], LocalDealer(seed))
        battles += final.outcome()["battles"]
        seed += 1
    return battles, time.perf_counter() - t0


def bench_go_out_girl() -> dict:
    rate, rates = median_rate(gog_battles)
    return {"gog_battles_per_s": round(rate, 1), "gog_battles_per_s_runs": [round(r, 1) for r in rates]}


def gar_games(run: int, seconds: float = 1.0) -> tuple[int, float, int]:
    """Heuristic-bot games of The Girl and the Robot with 4 players for about ``seconds``;
    returns (games, seconds, turns played)."""
    from p2pcards.bots.girl_and_robot import GirlAndRobotBot

    games, turns, seed = 0, 0, run * 100_000
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = new_game("girl-and-robot", 4)
        final = play(state, [GirlAndRobotBot(p, seed * 8 + p) for p in range(4)], LocalDealer(seed))
        games += 1
        turns += final.outcome()["turns"]
        seed += 1
    return games, time.perf_counter() - t0, turns


def bench_girl_and_robot() -> dict:
    rates, total_games, total_turns = [], 0, 0
    for r in range(RUNS):
        games, seconds, turns = gar_games(r)
        rates.append(games / seconds)
        total_games += games
        total_turns += turns
    return {"gar_games_per_s": round(statistics.median(rates), 1),
            "gar_games_per_s_runs": [round(r, 1) for r in rates],
            "gar_avg_turns_per_game": round(total_turns / total_games, 1)}


def ootw_team(seed: int, players: int = 4, options: dict | None = None):
    """One full Out Of This World game played by the heuristic bots (each from its own view)."""
    state = new_game("out-of-this-world", players, options or {})
    bots = [make_bot("out-of-this-world", p, "easy", seed * 8 + p) for p in range(players)]
    return play(state, bots, LocalDealer(seed))


def ootw_games(run: int, seconds: float = 1.0) -> tuple[int, float]:
    """Full 4-player heuristic-bot games (Patrol the Block, Standard) for about ``seconds``."""
    games, seed = 0, run * 100_000
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        ootw_team(seed)
        games += 1
        seed += 1
    return games, time.perf_counter() - t0


WIN_RATE_SEEDS = 200


def bench_out_of_this_world() -> dict:
    rate, rates = median_rate(ootw_games)
    wins = sum(ootw_team(seed, 4, {"adventure": "patrol-the-block", "difficulty": "standard"})
               .outcome()["won"] for seed in range(WIN_RATE_SEEDS))
    return {"ootw_games_per_s": round(rate, 2), "ootw_games_per_s_runs": [round(r, 2) for r in rates],
            "ootw_heuristic_win_rate": round(wins / WIN_RATE_SEEDS, 3),
            "ootw_heuristic_win_rate_seeds": WIN_RATE_SEEDS}


BENCHES = [bench_go_out_girl, bench_out_of_this_world, bench_girl_and_robot]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    out: dict = {"cores": os.cpu_count(), "runs": RUNS}
    for bench in BENCHES:
        out.update(bench())
    if args.json:
        print(json.dumps(out))
        return
    print(f"engine benchmark — {out['cores']} cores, median of {RUNS} runs")
    targets = {"gog_battles_per_s": 200, "ootw_games_per_s": 5}
    for k, v in out.items():
        if k in ("cores", "runs") or k.endswith(("_runs", "_seeds")):
            continue
        t = f"   (target ≥ {targets[k]}: {'met' if v >= targets[k] else 'NOT met'})" if k in targets else ""
        if k == "ootw_heuristic_win_rate":
            t = (f"   (Patrol the Block, Standard, {out['ootw_heuristic_win_rate_seeds']} seeds: "
                 "the baseline for the solver)")
        print(f"  {k:32} {v}{t}")


if __name__ == "__main__":
    main()
