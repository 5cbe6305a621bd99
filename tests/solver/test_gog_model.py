"""The solver's battle model plays the same battles as the engine: in random games (random and
heuristic decisions, every character), at each battle decision the model built from the engine
state has the same legal actions, and after applying the same action it equals the model of the
engine's next state (except across a reshuffle of the discard pile, whose order is random).
Quick in the suite (20 games; it was 40, 6,309 battle decisions); ``P2PCARDS_LONG=1`` plays 120
(19,013)."""

from __future__ import annotations

import os
import random

from p2pcards.bots.go_out_girl import GoOutGirlBot
from p2pcards.engine import Decide, Decision, LocalDealer, Shuffle
from p2pcards.games import new_game
from solver.go_out_girl.convert import abstract, action_map, battle_from_game
from solver.go_out_girl.model import GUARD, GUARD_A, LEAD, SHIAN, Battle, describe
from solver.go_out_girl.policy import heuristic, rollout

GAMES = 120 if os.environ.get("P2PCARDS_LONG") == "1" else 20


def test_model_in_lockstep_with_engine():
    steps = 0
    kinds: set[str] = set()
    for seed in range(GAMES):
        rng = random.Random(seed)
        n = 2 + seed % 4
        g = new_game("go-out-girl", n)
        dealer = LocalDealer(seed)
        bots = [GoOutGirlBot(q, seed * 7 + q) for q in range(n)]
        model, shuffled, battles = None, False, 0
        while (req := g.pending()) is not None:
            if isinstance(req, Decide):
                p = req.player
                legal = g.legal(p)
                assert legal, f"seed {seed}: seat {p} has no legal action in phase {g.phase}"
                if g.phase == "choose":
                    model = None
                    a = rng.choice(legal)
                else:
                    m = battle_from_game(g)
                    if model is not None and not shuffled:
                        assert model.as_dict() == m.as_dict(), f"seed {seed}: model diverged"
                    model = m
                    assert set(m.legal()) == set(action_map(g, legal)), f"seed {seed}"
                    assert heuristic(m) in m.legal(), f"seed {seed}: the playout policy is illegal"
                    a = rng.choice(legal) if rng.random() < 0.3 else bots[p].decide(g.view(p), legal)
                    ma = abstract(g, a)
                    kinds.add(ma[0])
                    assert describe(ma)
                    model.apply(ma)
                    steps += 1
                g.apply(Decision(p, a))
                shuffled = False
            else:
                shuffled |= isinstance(req, Shuffle)
                g.apply(dealer.fulfil(g, req))
            if len(g.battle_winners) > battles:
                battles = len(g.battle_winners)
                if model is not None:
                    assert model.winner == g.battle_winners[-1], f"seed {seed}: winner differs"
                model = None
    assert steps > GAMES * 250 // 3, steps  # 10,000 decisions in 120 games
    assert kinds >= {"R", "P", "G", "S", "W", "B", "X", "D", "C", "V", "K"}, kinds


def test_playout_policy_leads_a_guard_after_a_reset_that_leaves_only_guards():
    """"Shian: [...] three 2/3 cards clear any tableau, then she leads" -- and a hand of only
    Guards leads with a Guard (a pass). Regression: the playout policy had no lead to choose and
    the hint crashed."""
    b = Battle(2)
    b.char = [SHIAN, SHIAN]
    b.revealed = [True, False]
    b.hands[0][2], b.hands[0][3], b.hands[0][GUARD] = 1, 2, 2
    b.hands[1][9] = 3
    b.size = [5, 3]
    b.top = (9, 1, 2, 1)
    b.apply(("X", 1, 2))
    assert b.phase == LEAD and b.turn == 0
    assert heuristic(b) == GUARD_A and GUARD_A in b.legal()
    b.rng = random.Random(0)
    value, steps = rollout(b, 0, 200)
    assert steps > 0
