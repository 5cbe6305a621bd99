"""The oracle team (an upper-bound measurement that reads the full state, never a player):
following its decisions for the rest of a round reaches at least the outcome the exact planner
promises from the round's first position, whatever the random discards do -- also across its
memo, which it keeps from decision to decision (and across a Time token lost mid-round)."""

from __future__ import annotations

import random

from p2pcards.engine import Decide, Decision, LocalDealer
from solver.out_of_this_world.exact import plan
from solver.out_of_this_world.model import round_from_game
from solver.out_of_this_world.oracle import Oracle, carry, oracle_game
from solver.out_of_this_world.position import build, parse

from .ootw_solver_helpers import random_position, round_over


def play_round(g, orc: Oracle, seed: int) -> None:
    """Follow the oracle to the end of the round in progress (random discards from a seeded
    dealer); every move it makes must be legal."""
    r0 = g.round
    dealer = LocalDealer(seed)
    while not round_over(g, r0):
        req = g.pending()
        if isinstance(req, Decide):
            legal = g.legal(req.player)
            act = orc.decide(g, legal)
            assert act is not None and act in legal
            g.apply(Decision(req.player, act))
        else:
            g.apply(dealer.fulfil(g, req))


def test_oracle_reaches_the_planners_promise():
    rng = random.Random(11)
    checked = better = 0
    for i in range(60):
        g = build(parse(random_position(rng)))
        res = plan(round_from_game(g))
        time0 = g.time
        play_round(g, Oracle(cards=99, nodes=200_000), i)
        got = (g.result == "won", g.time - time0, sum(g.points(q) for q in range(g.n_players)))
        assert got >= res.outcome, f"position {i}: oracle {got} < promised {res.outcome}"
        checked += 1
        better += got > res.outcome
    assert checked == 60


def test_oracle_game_plays_to_the_end(monkeypatch):
    # the seats' other moves come from the set-plan team (PlanBot): the round search of today's
    # strong team made this test take 15 s of CPU, and what it checks is the oracle
    import solver.out_of_this_world.oracle as oracle
    from solver.out_of_this_world.bots import PlanBot
    monkeypatch.setattr(oracle, "StrongBot", PlanBot)
    won, points, exact = oracle_game("patrol-the-block", 0, cards=1, nodes=5_000)
    assert exact > 0  # the planner decided the rounds' last moves
    assert points > 0


def test_carry_score_keeps_the_win_first():
    rng = random.Random(5)
    checked = 0
    for i in range(40):
        g = build(parse(random_position(rng)))
        m = round_from_game(g)
        res = plan(m, score=carry)
        base = plan(m)
        assert res.won == base.won  # the win is first in both orders
        play_round(g, Oracle(cards=99, nodes=200_000, score=carry), i)
        assert (g.result == "won") >= res.won
        checked += 1
    assert checked == 40
