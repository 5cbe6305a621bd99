"""An oracle team for Out Of This World: an upper-bound measurement, not a player.

It reads the *full* state -- every hand and the order of the stacks -- which no seat may see, so
it is never a bot or a hint; it answers "how often could a team win that knew everything?" on
the benchmark's seeds, so that the strong team's figure can be read against it (issue 15 item 1).

At each Go For It! decision the oracle runs the exact round planner (``exact.Planner``) on the
full state when the stacks hold at most ``cards`` cards and the search fits in ``nodes``
positions, and plays the first move of its principal line: the whole table plays the rest of the
round as one team, with every card known. Earlier in the round (or when the planner refuses) the
seat plays the strong bot's move from its own view. The planner's memo is kept for the rest of
the round (its keys are whole states), so later decisions of the round cost almost nothing.

``python -m solver.out_of_this_world.oracle --each 20 --cards 8`` prints the wins by adventure.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor

from p2pcards.engine import Decide, Decision, LocalDealer
from p2pcards.games import new_game

from .bots import StrongBot
from .endgame import carry
from .exact import Planner, TooBig
from .model import action_map, round_from_game

ADVENTURES = ("patrol-the-block", "birthday-bash", "hit-the-books", "night-school",
              "stained-glass", "confrontation")


class Oracle:
    """Full-information decisions for every seat of one game (see the module's docstring)."""

    def __init__(self, cards: int = 8, nodes: int = 60_000, score=None) -> None:
        self.score = score  # the planner's value of a round's end (None: its outcome)
        self.cards = cards
        self.nodes = nodes
        self.planner: Planner | None = None
        self.round = -1  # the round the planner's memo belongs to
        self.exact = 0  # decisions taken by the planner
        self.refused = 0  # decisions where the planner refused (too big)
        self.refused_at = 10**9
        self.time0 = 0

    def decide(self, g, legal):
        """The planner's move in the full state ``g``, or None (not an exact decision)."""
        if g.phase != "go" or g.step not in ("take", "action", "give"):
            return None
        left = sum(len(g.stack(i)) for i in range(g.n_stacks))
        if g.round != self.round:
            self.planner = None  # a new round: the memo's outcomes are relative to its start
            self.refused_at = 10**9
            self.round = g.round
        if left > self.cards or left >= self.refused_at:
            return None
        m = round_from_game(g)
        if self.planner is None:
            self.planner = Planner(m, self.nodes, self.score)
            self.time0 = m.time0
        # the memo's outcomes count Time from the planner's first root (a Herald taken since
        # then has already cost its token): keep the same origin
        m.time0 = self.time0
        pl = self.planner
        try:
            sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
            best = pl.value(m)
            line = pl.line(m, best)
        except TooBig:
            self.planner = None
            self.refused += 1
            self.refused_at = left  # try again only once fewer cards are left
            return None
        if not line or line[0].chance:
            return None
        act = action_map(g, legal).get(line[0].action)
        if act is not None:
            self.exact += 1
        return act


def oracle_game(adventure: str, seed: int, cards: int = 8, nodes: int = 60_000,
                players: int = 4, score=None) -> tuple[bool, int, int]:
    """One game at Standard with the benchmark's seeds: (won, team points, exact decisions)."""
    g = new_game("out-of-this-world", players, {"adventure": adventure, "difficulty": "standard"})
    dealer = LocalDealer(seed)
    bots = [StrongBot(p, seed * 8 + p) for p in range(players)]
    orc = Oracle(cards, nodes, score)
    for _ in range(200_000):
        req = g.pending()
        if req is None:
            break
        if isinstance(req, Decide):
            p = req.player
            legal = g.legal(p)
            act = orc.decide(g, legal)
            if act is None:
                act = legal[0] if len(legal) == 1 else bots[p].decide(g.view(p), legal)
            g.apply(Decision(p, act))
        else:
            g.apply(dealer.fulfil(g, req))
    o = g.outcome()
    return bool(o["won"]), sum(o["points"]), orc.exact


def _part(args) -> list[tuple[str, int, bool, int, int]]:
    adv, seeds, cards, nodes, score, endgame = args
    StrongBot.endgame = endgame
    fn = carry if score == "carry" else None
    return [(adv, s, *oracle_game(adv, s, cards, nodes, score=fn)) for s in seeds]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--each", type=int, default=20, help="seeds 0..each-1 of each adventure")
    ap.add_argument("--first", type=int, default=0, help="the first seed")
    ap.add_argument("--cards", type=int, default=8, help="plan exactly from this many stack cards")
    ap.add_argument("--nodes", type=int, default=60_000, help="the planner's node limit")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--score", choices=("outcome", "carry"), default="outcome",
                    help="the planner's value of a round's end (default its outcome: won, Time, "
                    "team points; carry: also what carries over to the next round)")
    ap.add_argument("--adventures", default=",".join(ADVENTURES))
    ap.add_argument("--no-endgame", action="store_true",
                    help="the strong bot without its own last-turns planner (as before it)")
    a = ap.parse_args()
    seeds = list(range(a.first, a.first + a.each))
    tasks = [(adv, seeds[j::a.jobs], a.cards, a.nodes, a.score,
              not a.no_endgame) for adv in a.adventures.split(",")
             for j in range(a.jobs)]
    with ProcessPoolExecutor(a.jobs) as ex:
        rows = [r for part in ex.map(_part, tasks) for r in part]
    total = 0
    for adv in a.adventures.split(","):
        mine = [r for r in rows if r[0] == adv]
        wins = sum(r[2] for r in mine)
        total += wins
        won = " ".join(str(r[1]) for r in sorted(mine, key=lambda r: r[1]) if r[2])
        print(f"{adv:<18} {wins}/{len(mine)} won (seeds {won or '-'}); exact decisions "
              f"{sum(r[4] for r in mine)}", flush=True)
    print(f"all {total}/{len(rows)} = {total / len(rows):.3f}")


if __name__ == "__main__":
    main()
