"""The tuned playout policy of the strong Go Out Girl bot and the advisor's rule for leaving it."""

from __future__ import annotations

import random

from p2pcards.engine import Action
from solver.go_out_girl.advisor import Candidate, _beats
from solver.go_out_girl.convert import battle_from_game
from solver.go_out_girl.model import OVER
from solver.go_out_girl.policy import HEURISTIC_W, TUNED_W, heuristic, rollout, tuned, weighted
from solver.go_out_girl.tune import deal, share


def test_heuristic_weights_reproduce_the_heuristic():
    """``weighted`` with ``HEURISTIC_W`` is the heuristic bot's policy: the same choice at every
    decision (every phase) of 60 model battles, and the tuned weights differ somewhere."""
    same = differ = 0
    for seed in range(60):
        b = deal(seed)
        for _ in range(3000):
            if b.phase == OVER:
                break
            a = heuristic(b)
            assert weighted(b, HEURISTIC_W) == a
            same += 1
            differ += tuned(b) != a
            b.apply(a)
    assert same > 1000 and differ > 0


def test_tuned_policy_beats_the_heuristic_in_self_play():
    """On fixed seeds (not the tuning seeds) the tuned seat wins clearly more than the 0.25 an
    equal player gets against three heuristic seats, and the heuristic's own weights do not."""
    seeds = range(300_000, 301_500)
    assert share(TUNED_W, seeds) > 0.31
    assert abs(share(HEURISTIC_W, seeds) - 0.25) < 0.04


def test_rollout_uses_my_policy_for_my_seat_only():
    seen: set[int] = set()

    def mine(b):
        seen.add(b.turn)
        return heuristic(b)

    b = deal(5)
    value, steps = rollout(b, 2, 400, mine=mine)
    assert seen == {2} and steps > 0 and value in (0.0, 1.0)


def _cand(values: list[float]) -> Candidate:
    c = Candidate(Action("pass"), None, "x")
    for r, v in enumerate(values):
        c.values[r] = v
        c.total += v
        c.runs += 1
    return c


def test_leaving_the_tuned_move_needs_a_clear_paired_margin():
    """A move replaces the tuned policy's only when it is better on the same deals by more than
    the margin in standard errors of the paired difference."""
    rng = random.Random(1)
    base = [rng.random() for _ in range(40)]
    default = _cand(base)
    assert _beats(_cand([v + 0.05 for v in base]), default, 1.0)  # better on every deal
    noisy = _cand([v + (0.3 if r % 2 else -0.29) for r, v in enumerate(base)])  # +0.005 a deal
    assert not _beats(noisy, default, 1.0)
    assert not _beats(_cand([0.9]), _cand([0.1]), 1.0)  # one deal proves nothing


def test_heuristic_bot_leads_with_a_guard_after_a_reset_holding_only_guards():
    """Rulebook: "If you play Guard when there are no tableau cards, you will pass and
    immediately discard the card". A Shian whose Reset left only Guards in hand must lead with
    a Guard (the benchmark's battles crashed here: the heuristic bot had no play to lead)."""
    from p2pcards.bots.go_out_girl import GoOutGirlBot
    from solver.go_out_girl.position import build, parse

    data = {"format": 1, "game": "go-out-girl", "phase": "lead", "to_move": 0, "field": None,
            "seats": [{"hand": ["G", "G"], "character": "shian", "revealed": True, "damage": 1},
                      {"hand": ["5", "9", "11"], "character": "nerai", "revealed": False,
                       "damage": 0}],
            "deck": ["3", "7", "8", "10", "12", "13"], "discard": "rest"}
    g = build(parse(data))
    legal = g.legal(0)
    assert [a.kind for a in legal] == ["guard"]
    assert GoOutGirlBot(0, 1).decide(g.view(0), legal).kind == "guard"
    assert heuristic(battle_from_game(g)) == tuned(battle_from_game(g)) == ("G",)  # the model's
