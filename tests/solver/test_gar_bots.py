"""The Girl and the Robot bots: the strong bot beats the heuristic bot in a small seeded battle,
is registered for ``--bot-level strong``, and keeps its escapes where the heuristic spends them.

The battle is seeded (deals, bots and search), so its result is fixed; it is compared with the
heuristic bot in the strong bot's place on the same seeds (sides alternated). At these 12
two-player games the strong bot wins 9 and the heuristic bot 7 (counted 3 Dec 2026, seed by
seed: strong 0 1 4 5 6 7 9 10 11, heuristic 0 1 3 5 7 10 11); the test asks for a majority and
more wins than the heuristic bot. A quicker default would not keep that margin (the first 6
seeds: 4 and 4; the first 8: 6 and 5, one game apart, for a quarter less time), so the test keeps
its 12 games (about 15 s of CPU).
``scripts/bench_solver.py`` measures the four-player share on many more games."""

from __future__ import annotations

import pytest

from p2pcards.bots.girl_and_robot import GirlAndRobotBot
from p2pcards.bots.registry import make_bot
from p2pcards.engine import Action
from p2pcards.games.girl_and_robot.game import DEMON
from solver.girl_and_robot.bots import NormalBot, StrongBot, team_battle
from solver.girl_and_robot.policy import CarefulBot

from .test_gar_hints import turn_state

SEEDS = range(12)


@pytest.mark.slow  # (goes first: tests/conftest.py)
def test_strong_beats_heuristic_in_a_seeded_battle():
    strong = sum(team_battle(seed, 2, StrongBot, GirlAndRobotBot) for seed in SEEDS)
    equal = sum(team_battle(seed, 2, GirlAndRobotBot, GirlAndRobotBot) for seed in SEEDS)
    # With the rules as printed (issue 14: no self-targeted "next player", Act II out) these
    # seeds give 9 strong wins against 7 for the heuristic bot in the same seat; the benchmark
    # measures the margin over many more games (scripts/bench_solver.py --games gar).
    assert strong > len(SEEDS) // 2, (strong, equal)
    assert strong > equal, (strong, equal)


def test_levels_are_registered():
    assert isinstance(make_bot("girl-and-robot", 0, "strong", 1), StrongBot)
    assert isinstance(make_bot("girl-and-robot", 0, "normal", 1), NormalBot)
    assert type(make_bot("girl-and-robot", 0, "easy", 1)) is GirlAndRobotBot


def test_careful_player_keeps_an_evade_against_a_small_chance():
    """No weapon, no Demon known on top (a 1-in-10-ish chance), only an Evade in hand: the
    heuristic bot plays it, the careful player keeps it and draws."""
    found = 0
    for seed in range(20):
        full, p = turn_state(seed, 3, 0)
        g = full.clone()
        for w in list(g.weapons(p)) + list(g.hand(p)):
            g.place(w, "discard")
            g.known[w] = g.all_mask
        evade = next((s for s in range(g.n_cards) if g.kind(s) == "evade"
                      and g.zone_of[s] != f"hand{p}"), None)
        top = g.zones["draw"][-1]
        if evade is None or g.kind(top) == DEMON or top in g.faceup:
            continue
        g.place(evade, f"hand{p}")
        g.known[evade] |= 1 << p
        view = g.view(p)
        legal = view.legal(p)
        heuristic = GirlAndRobotBot(p, 0).decide(view, legal)
        careful = CarefulBot(p, 0).decide(view, legal)
        assert heuristic.kind == "play" and heuristic.card == "evade"
        assert careful == Action("end", draw=1), view.describe(careful)
        found += 1
    assert found >= 10, found
