"""Paired strength measurement of the strong Out Of This World team: whole games on fixed seeds.

``python -m solver.out_of_this_world.paired --seeds 0 12 --out base.json`` plays the benchmark's
games (``scripts/bench_solver.py``'s ``_ootw_games``: Standard, 4 players, seed ``s``, the four
strong bots seeded ``s * 8 + seat``, ``LocalDealer(s)``) of every adventure (``--adventures`` to
choose) and writes one JSON line per game: the adventure, the seed, won, the team's points and
the CPU seconds the game took. ``--set module.NAME=value`` changes a constant of a module of
``solver.out_of_this_world`` first (``--set pimc.MARGIN=2``, ``--set bots.StrongBot.k=24``), so a
variant runs without editing the code; ``--jobs 2`` plays the games in two processes.
``--compare base.json new.json`` prints, per adventure and over all, both win counts and the
paired difference (the mean over the games both files played of the per-game difference in won,
and in team points, each with the standard error of that mean) and the CPU a game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from p2pcards.engine import LocalDealer, play
from p2pcards.games import new_game
from solver import measure
from solver.measure import mean_se

ADVENTURES = ("patrol-the-block", "birthday-bash", "hit-the-books", "night-school",
              "stained-glass", "confrontation")


def game(adventure: str, seed: int, level: str = "strong") -> dict:
    """One whole game of four bots of ``level`` (``strong``, ``plan``: bots.PlanBot, or
    ``normal``) on ``seed``, as the benchmark plays it."""
    from . import bots
    cls = {"strong": bots.StrongBot, "plan": bots.PlanBot, "normal": bots.NormalBot}[level]
    agents = [cls(p, seed * 8 + p) for p in range(4)]
    t = time.process_time()
    final = play(new_game("out-of-this-world", 4, {"adventure": adventure,
                                                  "difficulty": "standard"}),
                 agents, LocalDealer(seed))
    o = final.outcome()
    return {"adventure": adventure, "seed": seed, "won": bool(o["won"]),
            "points": sum(o["points"]), "cpu": round(time.process_time() - t, 3)}


set_constant = partial(measure.set_constant, "solver.out_of_this_world")  # --set module.NAME=value


def _work(args: tuple[list[str], str, list[tuple[str, int]]]) -> list[dict]:
    sets, level, games = args
    for spec in sets:
        set_constant(spec)
    return [game(a, s, level) for a, s in games]


def compare(a: list[dict], b: list[dict]) -> dict:
    """Per adventure and over all, on the games both played: wins of each, the paired
    difference b - a in won and in team points (mean ± standard error), CPU a game."""
    ka = {(r["adventure"], r["seed"]): r for r in a}
    kb = {(r["adventure"], r["seed"]): r for r in b}
    common = sorted(set(ka) & set(kb), key=lambda k: (ADVENTURES.index(k[0])
                                                       if k[0] in ADVENTURES else 99, k))
    out = {}
    groups = {adv: [k for k in common if k[0] == adv] for adv in dict.fromkeys(k[0] for k in common)}
    groups["all"] = common
    for name, keys in groups.items():
        if not keys:
            continue
        dw = [int(kb[k]["won"]) - int(ka[k]["won"]) for k in keys]
        dp = [kb[k]["points"] - ka[k]["points"] for k in keys]
        mw, sw = mean_se(dw)
        mp, sp = mean_se(dp)
        seeds = sorted({k[1] for k in keys})
        out[name] = {
            "games": len(keys), "seeds": f"{seeds[0]}-{seeds[-1]}",
            "a_wins": sum(ka[k]["won"] for k in keys), "b_wins": sum(kb[k]["won"] for k in keys),
            "won": f"{mw:+.3f} ± {sw:.3f}",
            "b_won_a_lost": sum(1 for x in dw if x > 0), "a_won_b_lost": sum(1 for x in dw if x < 0),
            "a_points": round(sum(ka[k]["points"] for k in keys) / len(keys), 1),
            "b_points": round(sum(kb[k]["points"] for k in keys) / len(keys), 1),
            "points": f"{mp:+.1f} ± {sp:.1f}",
            "a_cpu": round(sum(ka[k]["cpu"] for k in keys) / len(keys), 2),
            "b_cpu": round(sum(kb[k]["cpu"] for k in keys) / len(keys), 2),
        }
    return out


def table(cmp: dict) -> str:
    """The comparison as a Markdown table."""
    lines = ["| adventure | games | a wins | b wins | paired won (b - a) | b won/a won | "
             "team points a -> b | paired points | CPU a game a -> b |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, r in cmp.items():
        lines.append(f"| {name} | {r['games']} ({r['seeds']}) | {r['a_wins']} | {r['b_wins']} | "
                     f"{r['won']} | {r['b_won_a_lost']}/{r['a_won_b_lost']} | "
                     f"{r['a_points']} -> {r['b_points']} | {r['points']} | "
                     f"{r['a_cpu']} s -> {r['b_cpu']} s |")
    return "\n".join(lines)


def _load(path: str) -> list[dict]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs=2, default=(0, 12), metavar=("FIRST", "END"))
    ap.add_argument("--adventures", nargs="+", default=list(ADVENTURES), choices=ADVENTURES)
    ap.add_argument("--level", choices=("strong", "plan", "normal"), default="strong")
    ap.add_argument("--set", action="append", default=[], metavar="module.NAME=value")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None, help="append the per-game rows here (JSON lines)")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), default=None)
    ap.add_argument("--markdown", action="store_true", help="--compare as a Markdown table")
    args = ap.parse_args()
    if args.compare:
        cmp = compare(*(_load(p) for p in args.compare))
        print(table(cmp) if args.markdown else json.dumps(cmp, indent=1))
        return
    for spec in args.set:  # fail early on a misspelt name
        set_constant(spec)
    games = [(a, s) for a in args.adventures for s in range(*args.seeds)]
    done = set()
    if args.out:
        with contextlib.suppress(FileNotFoundError):
            done = {(r["adventure"], r["seed"]) for r in _load(args.out)}
    games = [g for g in games if g not in done]  # resume an interrupted run
    tasks = [(args.set, args.level, [g]) for g in games]
    f = open(args.out, "a") if args.out else None  # noqa: SIM115
    try:
        if args.jobs <= 1:
            results = map(_work, tasks)
        else:
            ex = ProcessPoolExecutor(args.jobs)
            results = ex.map(_work, tasks)
        for part in results:
            for r in part:
                line = json.dumps(r)
                print(line, flush=True)
                if f:
                    f.write(line + "\n")
                    f.flush()
    finally:
        if f:
            f.close()


if __name__ == "__main__":
    main()
