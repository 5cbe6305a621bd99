#!/usr/bin/env python3
"""Solver benchmark: hint latency, CP-SAT against brute force, bot strength.

* hint latency: median and p95 of the ``hint`` advice (``solver.hints``, ``num_workers=1``) over
  random positions taken from heuristic-bot games (every decision kind), for Go Out Girl (2-5
  players), Out Of This World (3-5 players, every adventure) and The Girl and the Robot (2-4);
* Go Out Girl's fewest-plays partition: CP-SAT against brute-force enumeration on hands of 9 to
  20 cards (median times and their ratio; the optima must agree);
* Out Of This World's set plan: CP-SAT against brute-force enumeration on hands of 3 to 8 cards
  (median times and their ratio; the optima must agree -- enumeration is exponential beyond);
* the strong Go Out Girl bot's share of battle wins in four-player battles against three
  heuristic bots (an equal bot gets 0.25), and against three random bots (beside the heuristic
  bot's share in its place);
* The Girl and the Robot: the strong team's share of wins against a heuristic team (4 players,
  sides alternated; ``--quick`` plays fewer games), beside the heuristic team's on the same seeds;
* the strong Out Of This World team's win rate on Patrol the Block at Standard (4 players, the
  same seeds as ``scripts/bench_engine.py``'s heuristic team) and over all six adventures,
  beside the heuristic team's. Since the fourth pass the strong team runs the determinized round
  search at every take and action (about 6.5 s of CPU a game instead of about 1). Measured on
  two idle cores with ``--jobs 2``: 200 Patrol seeds took 670 s and 30 seeds of each adventure
  549 s (22 minutes for the Out Of This World part), so the defaults are 80 Patrol seeds and 20
  of each adventure, to keep the whole benchmark under 30 minutes;
  ``--seeds 200 --seeds-each 30`` plays the larger run. Since the sixth pass the strong Go Out
  Girl bot searches 12,000 decisions a move with a tree over its own next two decisions (about
  1 s of CPU a battle, three times before), so its battles are 600 against heuristic bots and
  400 against random ones by default; the bot games use one process per core.

Every strength figure is printed beside today's (``TODAY``: the figures before issue 15, same
seeds) and its target (``TARGETS``). Prints medians and ratios with the machine's core count;
``--json`` prints one object (with ``today`` and ``targets``). ``--quick`` runs a small sample of
everything (for iterating; its figures are noisy).
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
from p2pcards.bots.girl_and_robot import GirlAndRobotBot  # noqa: E402
from p2pcards.bots.go_out_girl import GoOutGirlBot  # noqa: E402
from p2pcards.bots.out_of_this_world import OutOfThisWorldBot  # noqa: E402
from p2pcards.engine import Decide, Decision, LocalDealer, play  # noqa: E402
from p2pcards.games import new_game  # noqa: E402
from solver.go_out_girl.bots import NormalBot, StrongBot  # noqa: E402
from solver.go_out_girl.model import KYOKO, NERAI, SHIAN, TOYOKO  # noqa: E402
from solver.go_out_girl.partition import min_plays_brute, partition  # noqa: E402
from solver.hints import hinter_for  # noqa: E402
from solver.out_of_this_world import setplan  # noqa: E402
from solver.out_of_this_world.advisor import problem  # noqa: E402
from solver.out_of_this_world.bots import StrongBot as OotwStrongBot  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


DECK = [n for n in range(1, 14) for _ in range(6)] + [0] * 8


def bench_partition(per_size: int = 20) -> dict:
    rng = random.Random(5)
    abilities = [None, NERAI, TOYOKO, SHIAN, KYOKO]
    times: dict[int, tuple[list[float], list[float]]] = {}
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
        times[size] = (cp_t, bf_t)
    return cpsat_versus_brute("partition", times)


def cpsat_versus_brute(prefix: str, times: dict[int, tuple[list[float], list[float]]]) -> dict:
    """Median CP-SAT and brute-force times (seconds in, ms out) per size and over all, and ratios."""
    def row(cp: list[float], bf: list[float]) -> dict:
        return {"cpsat_ms": round(statistics.median(cp) * 1000, 3),
                "brute_ms": round(statistics.median(bf) * 1000, 3),
                "ratio": round(statistics.median(cp) / statistics.median(bf), 2)}
    every = row([x for cp, _ in times.values() for x in cp], [x for _, bf in times.values() for x in bf])
    return {f"{prefix}_by_size": {size: row(*t) for size, t in times.items()},
            f"{prefix}_cpsat_median_ms": every["cpsat_ms"], f"{prefix}_brute_median_ms": every["brute_ms"],
            f"{prefix}_cpsat_over_brute": every["ratio"]}


GOG_LEVELS = {"strong": StrongBot, "heuristic": GoOutGirlBot, "random": RandomBot}


def _matches(args: tuple[str, str, int, int, int | None]) -> tuple[int, int, float]:
    """Whole matches from seed ``start`` until ``battles`` battles, one ``player`` bot against
    three ``opponent`` bots: (battles, the player's wins, s). ``budget``: the strong bot's
    playout budget (simulated decisions a move), if not its own."""
    player, opponent, start, battles, budget = args
    if budget is not None:
        StrongBot.budget = budget
    t = time.perf_counter()
    won = played = 0
    seed = start
    while played < battles:
        seat = seed % 4
        agents = [GOG_LEVELS[opponent](q, seed * 10 + q) for q in range(4)]
        agents[seat] = GOG_LEVELS[player](seat, seed)
        final = play(new_game("go-out-girl", 4), agents, LocalDealer(seed))
        bw = final.outcome()["battle_winners"]
        played += len(bw)
        won += sum(1 for w in bw if w == seat)
        seed += 1
    return played, won, time.perf_counter() - t


def bench_bots(battles: int, jobs: int, budget: int | None = None,
               battles_random: int | None = None) -> dict:
    out: dict = {"gog_strong_budget": budget or StrongBot.budget}
    for player, opponent, key in (("strong", "heuristic", "gog_strong_win_share"),
                                  ("strong", "random", "gog_strong_win_share_vs_random"),
                                  ("heuristic", "random", "gog_heuristic_win_share_vs_random")):
        t = time.perf_counter()
        n = battles if opponent == "heuristic" or battles_random is None else battles_random
        shares = [(player, opponent, 10_000 * j, -(-n // jobs), budget) for j in range(jobs)]
        if jobs == 1:
            results = [_matches(shares[0])]
        else:
            with ProcessPoolExecutor(jobs) as ex:
                results = list(ex.map(_matches, shares))
        played = sum(r[0] for r in results)
        won = sum(r[1] for r in results)
        out[key] = round(won / played, 3)
        out[key.replace("win_share", "share_se")] = round((won / played * (1 - won / played)
                                                          / played) ** 0.5, 3)
        out[key.replace("share", "battles")] = played
        out[key.replace("win_share", "seconds")] = round(time.perf_counter() - t, 1)
    return out


OOTW_ADVENTURES = ("patrol-the-block", "birthday-bash", "hit-the-books", "night-school",
                   "stained-glass", "confrontation")


def game_positions(game: str, count: int, seed: int, rate: float, make, options,
                   picks_per_game: int = 4) -> list:
    """(view, legal) at random decisions (more than one legal action) of heuristic-bot games."""
    rng = random.Random(seed)
    out: list = []
    game_seed = seed * 1000
    while len(out) < count:
        n, opts = options(rng)
        g = new_game(game, n, opts)
        dealer = LocalDealer(game_seed)
        bots = [make(q, game_seed + q) for q in range(n)]
        game_seed += 1
        picks = 0
        while (req := g.pending()) is not None and picks < picks_per_game:
            if isinstance(req, Decide):
                p = req.player
                v = g.view(p)
                legal = v.legal(p)
                if len(legal) > 1 and rng.random() < rate:
                    out.append((v, legal))
                    picks += 1
                g.apply(Decision(p, bots[p].decide(v, legal) if len(legal) > 1 else legal[0]))
            else:
                g.apply(dealer.fulfil(g, req))
    return out[:count]


def time_hints(prefix: str, game: str, positions: list) -> dict:
    hinter = hinter_for(game, seed=0)
    assert hinter is not None
    times, cpu, kinds = [], [], {}
    t = time.perf_counter()
    hinter(*positions[0])  # the first hint of a session also imports OR-Tools
    first = (time.perf_counter() - t) * 1000
    for view, legal in positions:
        t, c = time.perf_counter(), time.process_time()
        text = hinter(view, legal)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        assert text and text.startswith("Hint:")
        k = getattr(view, "step", None) or view.phase
        kinds[k] = kinds.get(k, 0) + 1
    return {f"{prefix}_hint_positions": len(times),
            f"{prefix}_hint_median_ms": round(statistics.median(times), 1),
            f"{prefix}_hint_p95_ms": round(pct(times, 0.95), 1),
            f"{prefix}_hint_max_ms": round(max(times), 1),
            f"{prefix}_hint_cpu_median_ms": round(statistics.median(cpu), 1),
            f"{prefix}_hint_cpu_p95_ms": round(pct(cpu, 0.95), 1),
            f"{prefix}_hint_first_ms": round(first, 1), f"{prefix}_hint_kinds": kinds}


def bench_hints(count: int) -> dict:
    def options(rng):
        return rng.choice([2, 3, 4, 4, 5]), {}
    positions = game_positions("go-out-girl", count, 1, 0.04, GoOutGirlBot, options, 3)
    return time_hints("gog", "go-out-girl", positions)


def bench_ootw_hints(count: int) -> dict:
    def options(rng):
        return rng.choice([3, 4, 4, 5]), {"adventure": rng.choice(OOTW_ADVENTURES),
                                          "difficulty": rng.choice(["standard", "tough"])}
    positions = game_positions("out-of-this-world", count, 2, 0.03, OutOfThisWorldBot, options)
    return time_hints("ootw", "out-of-this-world", positions)


def bench_gar_hints(count: int) -> dict:
    def options(rng):
        return rng.choice([2, 3, 4, 4]), {}
    positions = game_positions("girl-and-robot", count, 3, 0.05, GirlAndRobotBot, options)
    return time_hints("gar", "girl-and-robot", positions)


GAR_GAMES, GAR_QUICK_GAMES = 60, 12


def _gar_games(args: tuple[str, list[int], int]) -> list[bool]:
    """Seeded four-player games of a ``level`` team against a heuristic team, sides alternated
    (``solver.girl_and_robot.bots.team_battle``): whether the ``level`` team won each."""
    from solver.girl_and_robot.bots import StrongBot as GarStrongBot
    from solver.girl_and_robot.bots import team_battle
    level, seeds, players = args
    cls = {"strong": GarStrongBot, "heuristic": GirlAndRobotBot}[level]
    return [team_battle(seed, players, cls, GirlAndRobotBot) for seed in seeds]


def bench_gar_team(games: int, jobs: int, players: int = 4) -> dict:
    """The Girl and the Robot: the strong team's share of wins against a heuristic team (sides
    alternated, seeds 0..games-1), beside the heuristic team's share on the same seeds (today's
    figure: an equal team gets 0.5)."""
    out: dict = {}
    for level in ("strong", "heuristic"):
        t = time.perf_counter()
        shares = [(level, list(range(j, games, jobs)), players) for j in range(jobs)]
        if jobs == 1:
            results = _gar_games(shares[0])
        else:
            with ProcessPoolExecutor(jobs) as ex:
                results = [r for part in ex.map(_gar_games, shares) for r in part]
        out[f"gar_{level}_team_win_share"] = round(sum(results) / len(results), 3)
        out[f"gar_{level}_team_seconds"] = round(time.perf_counter() - t, 1)
    out["gar_team_games"] = games
    out["gar_team_players"] = players
    return out


def bench_setplan(per_size: int = 20) -> dict:
    """The set plan of real seats' views (take and action decisions), with the hand cut down to
    3..8 cards: CP-SAT against brute force."""
    rng = random.Random(9)
    views = [(v, legal) for v, legal in game_positions(
        "out-of-this-world", 150, 4, 0.05, OutOfThisWorldBot,
        lambda r: (r.choice([3, 4, 5]), {"adventure": r.choice(OOTW_ADVENTURES)}))
        if v.step in ("take", "action")]
    times: dict[int, tuple[list[float], list[float]]] = {}
    for size in range(3, 9):
        cp_t, bf_t = [], []
        while len(cp_t) < per_size:
            v, legal = rng.choice(views)
            cards = [v._cls[v.values[s]] for s in v.hand(v.viewer)]
            pool = [c for c in range(len(v._cls_card)) if v._cinfo(c).is_item]
            while len(cards) < size:
                cards.append(rng.choice(pool))
            cards = rng.sample(cards, size)
            hand: dict[int, int] = {}
            for c in cards:
                hand[c] = hand.get(c, 0) + 1
            p, _ = problem(v, hand=hand, legal=legal)
            t = time.perf_counter()
            a = setplan.solve(p)
            cp_t.append(time.perf_counter() - t)
            t = time.perf_counter()
            b = setplan.brute(p)
            bf_t.append(time.perf_counter() - t)
            assert a.value == b.value, (size, a.value, b.value)
        times[size] = (cp_t, bf_t)
    return cpsat_versus_brute("ootw_setplan", times)


OOTW_SEEDS = 80  # Patrol the Block seeds (the larger run: --seeds 200)
OOTW_SEEDS_EACH = 20  # per adventure, for the all-adventures rate (the larger run: 30)

# Today's figures: main before issue 15, the same seeds (docs/solver.md, issue 15). None: not
# measured then.
TODAY = {"gog_strong_win_share": 0.557, "gog_strong_win_share_vs_random": 0.851,
         "gog_heuristic_win_share_vs_random": 0.829, "ootw_strong_win_rate": 0.355,
         "ootw_heuristic_win_rate": 0.15, "ootw_strong_win_rate_all": 0.2,
         "gog_hint_p95_ms": 183.3, "ootw_hint_p95_ms": None}
TARGETS = {"gog_strong_win_share": 0.65, "gog_strong_win_share_vs_random": 0.92,
           "ootw_strong_win_rate": 0.60, "ootw_strong_win_rate_all": 0.60}
HINT_P95_MS = 250
# The previous whole run (e935fa2, 2 Dec 2026 07:35 UTC, same seeds; docs/solver-passes.md), after
# Stained Glass and Confrontation were recalibrated and before the determinized round search
# (issue 15, fourth pass).
OOTW_PREVIOUS_RUN = "e935fa2"
OOTW_PREVIOUS = {"ootw_strong_win_rate": (0.470, 0.035), "ootw_heuristic_win_rate": (0.185, 0.027),
                 "ootw_strong_win_rate_all": (0.283, 0.034),
                 "ootw_heuristic_win_rate_all": (0.094, None),
                 "ootw_strong_by_adventure": {"patrol-the-block": 0.433, "birthday-bash": 0.1,
                                              "hit-the-books": 0.8, "night-school": 0.067,
                                              "stained-glass": 0.133, "confrontation": 0.167},
                 "ootw_heuristic_by_adventure": {"patrol-the-block": 0.133, "birthday-bash": 0.033,
                                                 "hit-the-books": 0.333, "night-school": 0.067,
                                                 "stained-glass": 0.0, "confrontation": 0.0}}


def _ootw_games(args: tuple[str, str, list[int]]) -> list[tuple[int, bool, int]]:
    """Whole 4-player games of one adventure at Standard: (seed, won, team points)."""
    level, adventure, seeds = args
    out = []
    for seed in seeds:
        cls = OotwStrongBot if level == "strong" else OutOfThisWorldBot
        agents = [cls(p, seed * 8 + p) for p in range(4)]
        final = play(new_game("out-of-this-world", 4, {"adventure": adventure,
                                                      "difficulty": "standard"}),
                     agents, LocalDealer(seed))
        o = final.outcome()
        out.append((seed, o["won"], sum(o["points"])))
    return out


def _run_ootw(level: str, adventure: str, seeds: list[int], jobs: int) -> list:
    shares = [(level, adventure, seeds[j::jobs]) for j in range(jobs)]
    if jobs == 1:
        return _ootw_games(shares[0])
    with ProcessPoolExecutor(jobs) as ex:
        return [r for part in ex.map(_ootw_games, shares) for r in part]


def stderr(wins: int, games: int) -> float:
    """The standard error of a win rate of ``wins`` in ``games`` (binomial)."""
    p = wins / games
    return round((p * (1 - p) / games) ** 0.5, 3)


def bench_ootw_team(seeds: int, jobs: int) -> dict:
    """Patrol the Block at Standard, 4 players: the strong team beside the heuristic team."""
    out = {}
    for level in ("strong", "heuristic"):
        t = time.perf_counter()
        results = _run_ootw(level, "patrol-the-block", list(range(seeds)), jobs)
        key = f"ootw_{level}"
        out[f"{key}_win_rate"] = round(sum(r[1] for r in results) / len(results), 3)
        out[f"{key}_win_rate_se"] = stderr(sum(r[1] for r in results), len(results))
        out[f"{key}_points"] = round(sum(r[2] for r in results) / len(results), 1)
        out[f"{key}_seconds"] = round(time.perf_counter() - t, 1)
        out[f"{key}_won_seeds"] = sorted(r[0] for r in results if r[1])  # for paired comparisons
    out["ootw_team_seeds"] = seeds
    return out


def bench_ootw_all(each: int, jobs: int) -> dict:
    """Every adventure at Standard, 4 players, ``each`` seeds apiece: the strong team's and the
    heuristic team's win rates, overall and by adventure."""
    out: dict = {}
    for level in ("strong", "heuristic"):
        t = time.perf_counter()
        by: dict[str, float] = {}
        wins = games = 0
        for adv in OOTW_ADVENTURES:
            results = _run_ootw(level, adv, list(range(each)), jobs)
            by[adv] = round(sum(r[1] for r in results) / len(results), 3)
            out.setdefault(f"ootw_{level}_won_seeds_by_adventure", {})[adv] = sorted(
                r[0] for r in results if r[1])
            out.setdefault(f"ootw_{level}_by_adventure_se", {})[adv] = stderr(
                sum(r[1] for r in results), len(results))
            wins += sum(r[1] for r in results)
            games += len(results)
        out[f"ootw_{level}_win_rate_all"] = round(wins / games, 3)
        out[f"ootw_{level}_win_rate_all_se"] = stderr(wins, games)
        out[f"ootw_{level}_by_adventure"] = by
        out[f"ootw_{level}_all_seconds"] = round(time.perf_counter() - t, 1)
    out["ootw_all_seeds_each"] = each
    return out


def beside(out: dict, key: str) -> str:
    """``value (today X, target ≥ Y: met)`` for a strength figure."""
    v = out[key]
    today = TODAY.get(key)
    bits = [f"today {today}" if today is not None else "today not measured"]
    if key in TARGETS:
        bits.append(f"target ≥ {TARGETS[key]}: {'met' if v >= TARGETS[key] else 'NOT met'}")
    return f"{v} ({'; '.join(bits)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--json-out", metavar="FILE", help="also write the JSON object to FILE")
    ap.add_argument("--positions", type=int, default=200, help="hint positions (default 200)")
    ap.add_argument("--battles", type=int, default=600,
                    help="Go Out Girl battles against heuristic bots (default 600: the strong bot "
                    "searches about 1 s of CPU a battle since the sixth pass)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="processes for the bot battles (default: one per core)")
    ap.add_argument("--gog-budget", type=int, default=None,
                    help="the strong Go Out Girl bot's playout budget in the battles (default its "
                    f"own, {StrongBot.budget}, what --bot-level strong plays; the normal level's "
                    f"is {NormalBot.budget})")
    ap.add_argument("--battles-random", type=int, default=400,
                    help="Go Out Girl battles against random bots (default 400)")
    ap.add_argument("--skip-bots", action="store_true", help="leave out the (long) bot games")
    ap.add_argument("--games", default="gog,ootw,gar",
                    help="which games to benchmark (default gog,ootw,gar)")
    ap.add_argument("--seeds", type=int, default=OOTW_SEEDS,
                    help=f"Out Of This World Patrol the Block games per level (default {OOTW_SEEDS})")
    ap.add_argument("--seeds-each", type=int, default=OOTW_SEEDS_EACH,
                    help="Out Of This World games per adventure and level for the all-adventures "
                    f"rate (default {OOTW_SEEDS_EACH})")
    ap.add_argument("--gar-games", type=int, default=None,
                    help=f"The Girl and the Robot team games per level (default {GAR_GAMES}; "
                    f"{GAR_QUICK_GAMES} with --quick)")
    ap.add_argument("--quick", action="store_true",
                    help="a small sample of everything, for iterating (noisy figures)")
    args = ap.parse_args()
    per_size = 20
    if args.quick:
        args.positions, args.battles, args.seeds, args.seeds_each = 30, 40, 16, 4
        args.battles_random = 40
        per_size = 4
    games = set(args.games.split(","))
    out: dict = {"cores": os.cpu_count(), "num_workers": 1}
    t0 = time.perf_counter()
    if "gog" in games:
        out.update(bench_hints(args.positions))
        out.update(bench_partition(per_size))
    if "ootw" in games:
        out.update(bench_ootw_hints(args.positions))
        out.update(bench_setplan(per_size))
    if "gar" in games:
        out.update(bench_gar_hints(min(args.positions, 60) if args.quick else args.positions))
    if not args.skip_bots:
        if "gog" in games:
            out.update(bench_bots(args.battles, args.jobs, args.gog_budget, args.battles_random))
        if "ootw" in games:
            out.update(bench_ootw_team(args.seeds, args.jobs))
            out.update(bench_ootw_all(args.seeds_each, args.jobs))
        if "gar" in games:
            out.update(bench_gar_team(args.gar_games or (GAR_QUICK_GAMES if args.quick else GAR_GAMES),
                                      args.jobs))
    out["seconds"] = round(time.perf_counter() - t0, 1)
    out["quick"] = args.quick
    out["today"] = TODAY
    if "ootw" in games:
        out["ootw_previous"] = OOTW_PREVIOUS
        out["ootw_previous_run"] = OOTW_PREVIOUS_RUN
    out["targets"] = {**TARGETS, "hint_p95_ms": HINT_P95_MS}
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(out) + "\n")
    if args.json:
        print(json.dumps(out))
        return
    print(f"solver benchmark — {out['cores']} cores, CP-SAT num_workers=1, {out['seconds']} s")
    for prefix, name in (("gog", "Go Out Girl"), ("ootw", "Out Of This World"),
                         ("gar", "The Girl and the Robot")):
        if f"{prefix}_hint_p95_ms" not in out:
            continue
        p95 = out[f"{prefix}_hint_p95_ms"]
        kinds = out.get(f"{prefix}_hint_kinds")
        today = TODAY.get(f"{prefix}_hint_p95_ms")
        print(f"  {name} hint latency over {out[f'{prefix}_hint_positions']} positions: median "
              f"{out[f'{prefix}_hint_median_ms']} ms, p95 {p95} ms (today "
              f"{today if today is not None else 'not measured'}; target p95 ≤ {HINT_P95_MS}: "
              f"{'met' if p95 <= HINT_P95_MS else 'NOT met'}), max {out[f'{prefix}_hint_max_ms']} ms")
        print(f"    CPU time per hint: median {out[f'{prefix}_hint_cpu_median_ms']} ms, p95 "
              f"{out[f'{prefix}_hint_cpu_p95_ms']} ms; first hint of a session "
              f"{out[f'{prefix}_hint_first_ms']} ms; decisions {kinds}")
    if "partition_by_size" in out:
        print("  Go Out Girl fewest plays, CP-SAT vs brute force (median ms per hand, ratio CP-SAT/brute):")
        for size, row in out["partition_by_size"].items():
            print(f"    {size:>2} cards: CP-SAT {row['cpsat_ms']:>7} ms  brute {row['brute_ms']:>7} ms  "
                  f"ratio {row['ratio']}")
        print(f"    all sizes: CP-SAT {out['partition_cpsat_median_ms']} ms, brute "
              f"{out['partition_brute_median_ms']} ms, ratio {out['partition_cpsat_over_brute']}")
    if "ootw_setplan_by_size" in out:
        print("  Out Of This World set plan, CP-SAT vs brute force (median ms per hand, ratio CP-SAT/brute):")
        for size, row in out["ootw_setplan_by_size"].items():
            print(f"    {size:>2} cards: CP-SAT {row['cpsat_ms']:>7} ms  brute {row['brute_ms']:>8} ms  "
                  f"ratio {row['ratio']}")
        print(f"    all sizes: CP-SAT {out['ootw_setplan_cpsat_median_ms']} ms, brute "
              f"{out['ootw_setplan_brute_median_ms']} ms, ratio {out['ootw_setplan_cpsat_over_brute']}")
    if "gog_strong_win_share" in out:
        print(f"  Go Out Girl strong bot ({out['gog_strong_budget']} simulated decisions a move) "
              f"vs 3 heuristic bots: win share {beside(out, 'gog_strong_win_share')} ± "
              f"{out['gog_strong_share_se']} over {out['gog_strong_win_battles']} "
              f"battles (an equal bot gets 0.25), {out['gog_strong_seconds']} s")
        print(f"  Go Out Girl strong bot vs 3 random bots:    win share "
              f"{beside(out, 'gog_strong_win_share_vs_random')} ± "
              f"{out['gog_strong_share_se_vs_random']} over "
              f"{out['gog_strong_win_battles_vs_random']} battles, "
              f"{out['gog_strong_seconds_vs_random']} s; the heuristic bot in its place: "
              f"{beside(out, 'gog_heuristic_win_share_vs_random')}")
    if "ootw_strong_win_rate" in out:
        print(f"  Out Of This World, Patrol the Block at Standard, 4 players, {out['ootw_team_seeds']} "
              f"seeds: strong team win rate {beside(out, 'ootw_strong_win_rate')}, standard error "
              f"{out['ootw_strong_win_rate_se']} (team points "
              f"{out['ootw_strong_points']}, {out['ootw_strong_seconds']} s), heuristic team "
              f"{beside(out, 'ootw_heuristic_win_rate')} (team points "
              f"{out['ootw_heuristic_points']}, {out['ootw_heuristic_seconds']} s); previous run "
              f"({OOTW_PREVIOUS_RUN}): strong {OOTW_PREVIOUS['ootw_strong_win_rate'][0]} ± "
              f"{OOTW_PREVIOUS['ootw_strong_win_rate'][1]}, heuristic "
              f"{OOTW_PREVIOUS['ootw_heuristic_win_rate'][0]} ± "
              f"{OOTW_PREVIOUS['ootw_heuristic_win_rate'][1]}")
    if "ootw_strong_win_rate_all" in out:
        print(f"  Out Of This World, all six adventures at Standard, 4 players, "
              f"{out['ootw_all_seeds_each']} seeds each: strong team "
              f"{beside(out, 'ootw_strong_win_rate_all')}, standard error "
              f"{out['ootw_strong_win_rate_all_se']}; heuristic team "
              f"{out['ootw_heuristic_win_rate_all']} ({out['ootw_strong_all_seconds']} s + "
              f"{out['ootw_heuristic_all_seconds']} s)")
        prev = OOTW_PREVIOUS
        print(f"    previous run ({OOTW_PREVIOUS_RUN}, 30 seeds each): strong "
              f"{prev['ootw_strong_win_rate_all'][0]} ± {prev['ootw_strong_win_rate_all'][1]}, "
              f"heuristic {prev['ootw_heuristic_win_rate_all'][0]}")
        for adv in OOTW_ADVENTURES:
            print(f"    {adv:<18} strong {out['ootw_strong_by_adventure'][adv]:<5} ± "
                  f"{out['ootw_strong_by_adventure_se'][adv]:<5} heuristic "
                  f"{out['ootw_heuristic_by_adventure'][adv]:<5}  previous: strong "
                  f"{prev['ootw_strong_by_adventure'][adv]}, heuristic "
                  f"{prev['ootw_heuristic_by_adventure'][adv]}")
    if out["quick"]:
        print("  (--quick: small samples, the strength figures are noisy)")

    if "gar_strong_team_win_share" in out:
        s = out["gar_strong_team_win_share"]
        print(f"  The Girl and the Robot, {out['gar_team_players']} players, {out['gar_team_games']} "
              f"games, sides alternated: strong team vs heuristic team win share {s} (target ≥ 0.65: "
              f"{'met' if s >= 0.65 else 'NOT met'}), {out['gar_strong_team_seconds']} s; heuristic "
              f"team in its place (today): {out['gar_heuristic_team_win_share']}, "
              f"{out['gar_heuristic_team_seconds']} s")


if __name__ == "__main__":
    main()
