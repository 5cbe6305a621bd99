"""The worst case of a hint and of a strong bot's decision (Out Of This World, The Girl and the
Robot): p50, p95 and max of wall and CPU time, and the worst positions.

``scripts/bench_solver.py`` times hints at random positions of heuristic-bot games, where hands
are small: its p95 says nothing of the tail. This script looks for the tail:

* Out Of This World: positions of heuristic-bot games at a discard (Taking Care of Things), an
  action and a take, with ``--extra`` Items moved into the deciding seat's hand from the deck,
  the discard pile and the box (known to that seat only: a built position, not one the rules
  reach easily, but a hand of 20-40 cards is what the advisor must survive). Each is timed as a
  hint (``solver.hints``) and as a ``--bot-level strong`` decision;
* The Girl and the Robot: every decision with more than one legal move of heuristic-bot games
  (``--gar-games`` of them), each timed as a hint and as a strong bot's decision.

    python scripts/bench_hint_tail.py [--seeds 3] [--extra 0,10,20,40] [--gar-games 6] [--json]

CPU time is the process's (``time.process_time``): on a loaded machine it is the figure to
compare with a budget; wall time is what a player waits.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2pcards.bots.registry import make_bot  # noqa: E402
from p2pcards.engine import Decide, Decision, LocalDealer  # noqa: E402
from p2pcards.games import new_game  # noqa: E402
from solver.hints import hinter_for  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def ootw_position(seed: int, step: str, extra: int, players: int = 4):
    """A heuristic-bot game's first decision at ``step`` with a choice, ``extra`` Items moved
    into the deciding seat's hand (see the module text); (state, seat) or (None, None)."""
    g = new_game("out-of-this-world", players)
    dealer = LocalDealer(seed)
    bots = [make_bot("out-of-this-world", q, "easy", seed * 10 + q) for q in range(players)]
    while (req := g.pending()) is not None:
        if isinstance(req, Decide):
            p = req.player
            legal = g.legal(p)
            if g.step == step and len(legal) > 1:
                break
            g.apply(Decision(p, bots[p].decide(g.view(p), legal)))
        else:
            g.apply(dealer.fulfil(g, req))
    else:
        return None, None
    pool = [s for z in ("deck", "discard", "box") for s in g.zones.get(z, [])
            if g.cdef(g.values[s]).is_item]
    for s in pool[:extra]:
        g.place(s, f"hand{p}")
        g.known[s] |= 1 << p
    return g, p


def timed(fn) -> tuple[object, float, float]:
    t, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000


def ootw_rows(seeds: int, extras: list[int], steps: list[str]) -> list[dict]:
    hinter = hinter_for("out-of-this-world", seed=0)
    assert hinter is not None
    rows = []
    for seed in range(seeds):
        for step in steps:
            for extra in extras:
                g, p = ootw_position(seed, step, extra)
                if g is None:
                    continue
                view = g.view(p)
                legal = view.legal(p)
                where = {"game": "ootw", "seed": seed, "step": step, "hand": len(g.hand(p)),
                         "legal": len(legal)}
                text, wall, cpu = timed(lambda: hinter(view, legal))  # noqa: B023
                rows.append({**where, "who": "hint", "wall_ms": wall, "cpu_ms": cpu,
                             "answer": str(text).splitlines()[0]})
                bot = make_bot("out-of-this-world", p, "strong", seed)
                act, wall, cpu = timed(lambda: bot.decide(view, legal))  # noqa: B023
                assert act in legal
                rows.append({**where, "who": "bot", "wall_ms": wall, "cpu_ms": cpu,
                             "answer": view.describe(act)})
                print(f"  ootw seed {seed} {step} hand {where['hand']}: hint {rows[-2]['cpu_ms']:.0f} "
                      f"ms CPU, strong bot {cpu:.0f} ms CPU", file=sys.stderr, flush=True)
    return rows


def gar_rows(games: int) -> list[dict]:
    hinter = hinter_for("girl-and-robot", seed=0)
    assert hinter is not None
    rows = []
    for seed in range(games):
        n = (2, 3, 4, 4)[seed % 4]
        g = new_game("girl-and-robot", n)
        dealer = LocalDealer(seed)
        bots = [make_bot("girl-and-robot", q, "easy", seed * 10 + q) for q in range(n)]
        strong = [make_bot("girl-and-robot", q, "strong", seed * 10 + q) for q in range(n)]
        while (req := g.pending()) is not None:
            if isinstance(req, Decide):
                p = req.player
                view = g.view(p)
                legal = view.legal(p)
                if len(legal) > 1:
                    where = {"game": "gar", "seed": seed, "turn": g.turns, "phase": view.phase,
                             "legal": len(legal), "players": n}
                    text, wall, cpu = timed(lambda: hinter(view, legal))  # noqa: B023
                    rows.append({**where, "who": "hint", "wall_ms": wall, "cpu_ms": cpu,
                                 "answer": str(text).splitlines()[0]})
                    act, wall, cpu = timed(lambda: strong[p].decide(view, legal))  # noqa: B023
                    assert act in legal
                    rows.append({**where, "who": "bot", "wall_ms": wall, "cpu_ms": cpu,
                                 "answer": view.describe(act)})
                g.apply(Decision(p, bots[p].decide(view, legal) if len(legal) > 1 else legal[0]))
            else:
                g.apply(dealer.fulfil(g, req))
        print(f"  gar game {seed}: {len(rows)} timings so far", file=sys.stderr, flush=True)
    return rows


def summary(rows: list[dict], worst: int) -> dict:
    out = {}
    for game in sorted({r["game"] for r in rows}):
        for who in ("hint", "bot"):
            rs = [r for r in rows if r["game"] == game and r["who"] == who]
            if not rs:
                continue
            wall = [r["wall_ms"] for r in rs]
            cpu = [r["cpu_ms"] for r in rs]
            out[f"{game}_{who}"] = {
                "n": len(rs), "wall_p50_ms": round(statistics.median(wall), 1),
                "wall_p95_ms": round(pct(wall, 0.95), 1), "wall_max_ms": round(max(wall), 1),
                "cpu_p50_ms": round(statistics.median(cpu), 1),
                "cpu_p95_ms": round(pct(cpu, 0.95), 1), "cpu_max_ms": round(max(cpu), 1),
                "worst": [{k: (round(v, 1) if isinstance(v, float) else v) for k, v in r.items()}
                          for r in sorted(rs, key=lambda r: -r["cpu_ms"])[:worst]]}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="ootw,gar", help="ootw, gar or both (default)")
    ap.add_argument("--seeds", type=int, default=3, help="Out Of This World games (default 3)")
    ap.add_argument("--extra", default="0,10,20,40",
                    help="Items moved into the hand, comma-separated (default 0,10,20,40)")
    ap.add_argument("--steps", default="discard,action,take",
                    help="Out Of This World decisions (default discard,action,take)")
    ap.add_argument("--gar-games", type=int, default=6,
                    help="The Girl and the Robot games, every decision timed (default 6)")
    ap.add_argument("--worst", type=int, default=3, help="worst positions listed (default 3)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    games = args.games.split(",")
    rows: list[dict] = []
    if "ootw" in games:
        rows += ootw_rows(args.seeds, [int(x) for x in args.extra.split(",")],
                          args.steps.split(","))
    if "gar" in games:
        rows += gar_rows(args.gar_games)
    out = summary(rows, args.worst)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    for key, s in out.items():
        print(f"{key}: {s['n']} decisions; wall p50 {s['wall_p50_ms']} ms, p95 {s['wall_p95_ms']}"
              f" ms, max {s['wall_max_ms']} ms; CPU p50 {s['cpu_p50_ms']} ms, p95 "
              f"{s['cpu_p95_ms']} ms, max {s['cpu_max_ms']} ms")
        for r in s["worst"]:
            print("   ", {k: v for k, v in r.items() if k not in ("game", "who")})


if __name__ == "__main__":
    main()
