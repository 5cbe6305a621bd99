"""The Girl and the Robot: the Demon odds of a seat's view equal exhaustive enumeration of every
deal of the cards that seat has not seen, consistent with what the rules tell (no Demon stays in
a hand, a face-down weapon is a King's Sword or a Pendant)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations

from p2pcards.games.girl_and_robot.data import FACE_DOWN_WEAPONS
from p2pcards.games.girl_and_robot.game import DEMON
from solver.girl_and_robot.odds import odds

from .bot_games import bot_decision


def turn_state(seed: int, players: int, skip: int):
    """A full state at a seat's own turn (after ``skip`` such turns), or ``(None, None)``."""
    return bot_decision("girl-and-robot", players, seed, lambda g, p, legal:
                        g.phase == "turn" and g.turn == p and bool(g.zones["draw"]),
                        skip=skip, stride=5)


def small_view(g, p: int, rng: random.Random, pile_unknown: int, other_unknown: int):
    """Tell seat p every card but a few: ``pile_unknown`` of the Draw Pile (always among the top
    cards, so the odds matter) and ``other_unknown`` in the others' hands and face-down weapons."""
    g = g.clone()
    draw = g.zones["draw"]
    down = [s for s in reversed(draw) if s not in g.faceup]
    keep = set(down[:pile_unknown])
    others = [s for q in range(g.n_players) if q != p
              for s in g.hand(q) + [w for w in g.weapons(q) if str(w) in g.hidden]]
    rng.shuffle(others)
    keep |= set(others[:other_unknown])
    for s in range(g.n_cards):
        if s not in keep:
            g.known[s] |= 1 << p
        else:
            g.known[s] &= ~(1 << p)
    return g, g.view(p)


def enumerate_odds(full, view, depths: tuple[int, ...]) -> Fraction:
    """The share of the consistent deals with a Demon at one of ``depths`` of the pile."""
    unknown = [s for s in range(view.n_cards) if view.values[s] is None]
    kinds = [full.kind(s) for s in unknown]
    draw = view.zones["draw"]
    targets = [draw[-1 - d] for d in depths]
    good = total = 0
    for perm in set(permutations(kinds)):
        ok = True
        for s, k in zip(unknown, perm, strict=True):
            z = view.zone_of[s]
            if k == DEMON and z != "draw":
                ok = False
                break
            if z.startswith("weapons") and str(s) in view.hidden and k not in FACE_DOWN_WEAPONS:
                ok = False
                break
        if not ok:
            continue
        total += 1
        good += any((perm[unknown.index(t)] if t in unknown else view.kind(t)) == DEMON
                    for t in targets)
    return Fraction(good, total)


def test_odds_match_exhaustive_enumeration():
    rng = random.Random(4)
    checked = nonzero = 0
    for seed in range(40):
        g, p = turn_state(seed, 2 + seed % 3, skip=seed % 7)
        if g is None or len(g.zones["draw"]) < 4:
            continue
        full, view = small_view(g, p, rng, pile_unknown=rng.randint(2, 5),
                                other_unknown=rng.randint(0, 3))
        o = odds(view)
        for depth in range(min(4, len(view.zones["draw"]))):
            want = enumerate_odds(full, view, (depth,))
            assert o.at(depth) == want, (seed, depth, o.at(depth), want)
            checked += 1
            nonzero += want > 0
        # the chance of a Demon among the next two cards, by the same enumeration
        assert o.within(2) == enumerate_odds(full, view, (0, 1))
    assert checked >= 100, checked
    assert nonzero >= 20, nonzero


def test_everything_known_gives_certainty():
    g, p = turn_state(3, 4, skip=5)
    o = odds(g)  # the full state knows every card
    assert o.hidden == 0 and o.unknown == 0
    top = g.zones["draw"][-1]
    assert o.top == (1 if g.kind(top) == DEMON else 0)
