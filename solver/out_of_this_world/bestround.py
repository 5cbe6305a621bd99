"""The best-of-rounds oracle: an optimistic upper bound on what a team can win (issue 15 item 1).

It is a measurement, never a player: it reads the *full* state and, worse, the future. At the
start of every round it copies the whole game (every hand, the deck's order, the dealer's random
generator) once per team in ``TEAMS``, plays the round to its end with each copy, values each
round's end by the carry score (``carry``: won first, then Time tokens, the points toward each
seat's goal, the Foes left, the cards kept -- ``endgame.carry`` on the engine's state), and goes
on from the best copy. Each team plays the round's last two stack cards by the exact round planner
on the full state (``oracle.Oracle``) unless it says otherwise.

So the bound knows everything a whole round will bring -- the stacks under their tops, the others'
hands, the random discards and any reshuffle -- and picks, round by round, the best of several
strong ways to play it. Whatever it cannot win, no team deciding from its seats' views wins
by these policies; what it wins says how much room a better player has.

``python -m solver.out_of_this_world.bestround --each 16`` prints the wins by adventure.
"""

from __future__ import annotations

import argparse
import copy
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from p2pcards.bots.out_of_this_world import OutOfThisWorldBot
from p2pcards.engine import Decide, Decision, LocalDealer
from p2pcards.games import new_game

from .bots import NormalBot, StrongBot
from .endgame import TOKEN, carry
from .oracle import ADVENTURES, Oracle
from .reader import DEFAULT


class _FoeAverse(StrongBot):
    name = "foe-averse"
    prices = replace(DEFAULT, token_min=1600, token_max=3200, own_clear=0.1)


# (name, bot class, the exact planner on the full state in the last 2 stack cards)
TEAMS = (("strong+exact", StrongBot, True), ("normal+exact", NormalBot, True),
         ("foe-averse+exact", _FoeAverse, True), ("heuristic+exact", OutOfThisWorldBot, True))


def round_value(g) -> tuple[bool, float]:
    """The carry score of an engine state at a round's end (or the game's)."""
    goal = g.points_needed() if any(c["kind"] == "equip_points" for c in g._adv.win) else 0
    n = g.n_players
    pts = sum(min(g.points(p), goal) if goal else g.points(p) for p in range(n))
    foes = sum(len(g.foes(p)) for p in range(n))
    kept = sum(min(len(g.hand(p)), 5) for p in range(n))
    return (g.result == "won", TOKEN * g.time + pts - 3 * foes + 0.5 * kept)


def _play_round(g, dealer, bots, oracle: Oracle | None, r0: int) -> None:
    for _ in range(20_000):
        req = g.pending()
        if req is None or g.round != r0:
            return
        if isinstance(req, Decide):
            p = req.player
            legal = g.legal(p)
            act = oracle.decide(g, legal) if oracle is not None else None
            if act is None:
                act = legal[0] if len(legal) == 1 else bots[p].decide(g.view(p), legal)
            g.apply(Decision(p, act))
        else:
            g.apply(dealer.fulfil(g, req))


def bestround_game(adventure: str, seed: int, players: int = 4,
                   teams=TEAMS) -> tuple[bool, int, list[str]]:
    """One game at Standard with the benchmark's seeds: (won, team points, the team chosen for
    each round)."""
    g = new_game("out-of-this-world", players, {"adventure": adventure, "difficulty": "standard"})
    dealer = LocalDealer(seed)
    chosen: list[str] = []
    for _ in range(100):
        if g.pending() is None:
            break
        r0 = g.round
        best = None
        for name, cls, exact in teams:
            gc, dc = g.clone(), copy.deepcopy(dealer)
            bots = [cls(p, seed * 8 + p) for p in range(players)]
            _play_round(gc, dc, bots, Oracle(2, 20_000, carry) if exact else None, r0)
            v = round_value(gc)
            if best is None or v > best[0]:
                best = (v, name, gc, dc)
        assert best is not None
        _, name, g, dealer = best
        chosen.append(name)
    o = g.outcome()
    return bool(o["won"]), sum(o["points"]), chosen


def _part(args) -> list[tuple]:
    adv, seeds = args
    return [(adv, s, *bestround_game(adv, s)) for s in seeds]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--each", type=int, default=16, help="seeds 0..each-1 of each adventure")
    ap.add_argument("--first", type=int, default=0, help="the first seed")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--adventures", default=",".join(ADVENTURES))
    a = ap.parse_args()
    seeds = list(range(a.first, a.first + a.each))
    advs = a.adventures.split(",")
    tasks = [(adv, [s]) for adv in advs for s in seeds]
    total = games = 0
    with ProcessPoolExecutor(a.jobs) as ex:
        rows = list(ex.map(_part, tasks))
    for adv in advs:
        mine = [r for part in rows for r in part if r[0] == adv]
        wins = sum(r[2] for r in mine)
        total += wins
        games += len(mine)
        won = " ".join(str(r[1]) for r in mine if r[2])
        picks: dict[str, int] = {}
        for r in mine:
            for name in r[4]:
                picks[name] = picks.get(name, 0) + 1
        p = wins / len(mine)
        print(f"{adv:<18} {wins}/{len(mine)} = {p:.3f} +- {(p * (1 - p) / len(mine)) ** 0.5:.3f} "
              f"won (seeds {won or '-'}); rounds by team {picks}", flush=True)
    p = total / games
    print(f"all {total}/{games} = {p:.3f} +- {(p * (1 - p) / games) ** 0.5:.3f}")


if __name__ == "__main__":
    main()
