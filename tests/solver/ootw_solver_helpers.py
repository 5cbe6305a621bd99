"""Shared helpers for the Out Of This World solver tests: random small positions, and an
exhaustive search on the engine itself (no model, no memo) to check the planner against."""

from __future__ import annotations

import random
from typing import Any

from p2pcards.engine import Decide, Decision, LocalDealer, Random, RandomValue
from p2pcards.games.out_of_this_world.data import default

ADVENTURES = ["patrol-the-block", "birthday-bash", "hit-the-books", "confrontation",
              "night-school", "stained-glass"]


def random_position(rng: random.Random, max_stack: int = 2, max_hand: int = 2) -> dict[str, Any]:
    """A full-information 3-player position near the end of a round: a few cards in the
    stacks, small hands, players close to their goal, some Foes, a few Time tokens."""
    d = default()
    adv = rng.choice(ADVENTURES)
    deck = list(d.deck(adv))
    copies: dict[str, int] = {}
    for c in deck:
        copies[c.key] = copies.get(c.key, 0) + 1
    items = [c for c in deck if c.is_item]
    foes = [c for c in deck if c.is_foe]
    used: dict[str, int] = {}

    def pick(pool):
        while True:
            c = rng.choice(pool)
            if used.get(c.key, 0) < copies[c.key]:
                used[c.key] = used.get(c.key, 0) + 1
                return c

    n = 3
    chars = rng.sample([c.key for c in d.characters], n)
    goal = d.points[n]
    seats = []
    for q in range(n):
        hand = [pick(items).key for _ in range(rng.randint(0, max_hand))]
        target = goal - rng.choice([0, 0, 0, 3, 4, 5, 6, 8, 12])
        eq, pts = [], 0
        while pts < target:
            c = pick(items)
            eq.append(c.key)
            pts += c.value
        spent = [k for k in eq if next(c for c in deck if c.key == k).spend() and rng.random() < 0.3]
        fo = [pick(foes).key for _ in range(rng.choice([0, 0, 1, 1, 2]))]
        seats.append({"character": chars[q], "hand": hand, "equipped": eq, "spent": spent,
                      "foes": fo})
    stacks: list[list[str]] = [[] for _ in range(5)]
    for _ in range(rng.randint(1, max_stack)):
        stacks[rng.randrange(5)].append(pick(deck).key)
    tm = rng.randint(1, 3)
    return {"game": "out-of-this-world", "adventure": adv, "seats": seats,
            "to_move": rng.randrange(n), "stacks": stacks, "time": tm,
            "time_max": rng.choice([tm, 8])}


def round_over(g, r0: int) -> bool:
    return (g.result is not None or g.round != r0
            or (g.phase == "care" and isinstance(g.pending(), Decide)))


def engine_value(g, r0: int, time0: int, dealer: LocalDealer, counter: list[int] | None = None):
    """The best outcome (won, -tokens lost, team points) of the rest of the round, by
    exhaustive search on the engine: every decision of every seat is the team's, every random
    discard during Go For It! the adversary's."""
    if counter is not None:
        counter[0] += 1
    while True:
        if round_over(g, r0):
            return (g.result == "won", g.time - time0, sum(g.points(q) for q in range(g.n_players)))
        req = g.pending()
        if isinstance(req, Decide):
            best = None
            for a in g.legal(req.player):
                c = g.clone()
                c.apply(Decision(req.player, a), trusted=True)
                v = engine_value(c, r0, time0, dealer, counter)
                if best is None or v > best:
                    best = v
            return best
        if isinstance(req, Random) and g.phase == "go":
            worst = None
            for x in range(req.n):
                c = g.clone()
                c.apply(RandomValue(x))
                v = engine_value(c, r0, time0, dealer, counter)
                if worst is None or v < worst:
                    worst = v
            return worst
        if isinstance(req, Random):  # the end of round's discards: after the victory check
            g.apply(RandomValue(0))
            continue
        g.apply(dealer.fulfil(g, req))
