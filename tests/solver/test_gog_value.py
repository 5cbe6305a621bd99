"""The learned leaf value (solver/go_out_girl/value.py, issue 15 eleventh pass): a function of the
model state alone, deterministic and pure Python; life left is worth something in it (what the
second pass's fit lacked); its fitting script runs on a small sample; and ``policy.LEAF_VALUE``
switches it into the estimate every cut playout -- flat or in the tree -- is scored by."""

from __future__ import annotations

import math
import random
import subprocess
import sys

from solver.go_out_girl import paired, policy, tree, value
from solver.go_out_girl.advisor import _prune
from solver.go_out_girl.model import LIFE, OVER
from solver.go_out_girl.policy import heuristic, rollout, tuned
from solver.go_out_girl.tune import deal


def _midgame(seed: int, steps: int = 20):
    b = deal(seed)
    for _ in range(steps):
        if b.phase == OVER:
            break
        b.apply(heuristic(b))
    return b


def test_the_value_is_a_function_of_the_state_and_leaves_it_alone():
    seen = set()
    for s in range(30):
        b = _midgame(s, 5 + s)
        if b.phase == OVER:
            continue
        before = b.as_dict()
        for me in range(b.n):
            v = value.estimate(b, me)
            assert 0.0 <= v <= 1.0
            assert v == value.estimate(b.copy(), me)  # same state, same value
            assert not b.alive[me] or 0.0 < v < 1.0
            seen.add(round(v, 3))
        assert b.as_dict() == before
    assert len(seen) > 20  # it does look at the position


def test_the_value_of_a_finished_battle_or_an_eliminated_seat():
    b = _midgame(3)
    b.alive[2] = False
    assert value.estimate(b, 2) == 0.0
    b.phase, b.winner = OVER, 1
    assert value.estimate(b, 1) == 1.0 and value.estimate(b, 0) == 0.0


def test_the_weights_match_the_features():
    assert len(value.W_FREE) == len(value.W_LIFE) == len(value.W_NOCHAR) == value.N_FEATURES
    assert len(value.features(_midgame(1), 0, 0)) == value.N_FEATURES


def test_the_weight_set_is_chosen_by_its_constant(monkeypatch):
    """``value.WEIGHTS`` picks the fitted set the estimate uses; ``W_LIFE`` prices life as the
    hand-set estimate does (its weights over its temperature)."""
    b = _midgame(2)
    for name, price in value.LIFE_PRICE.items():
        assert value.W_LIFE[value.FEATURE_NAMES.index(name)] == price
    assert value.LIFE_PRICE["life"] == round(policy.HAND_ESTIMATE_W[2] / policy.HAND_ESTIMATE_W[5], 3)
    free = value.estimate(b, 0)
    assert free == value.estimate(b, 0, value.W_FREE)
    monkeypatch.setattr(value, "WEIGHTS", "life")
    assert value.estimate(b, 0) == value.estimate(b, 0, value.W_LIFE) != free
    monkeypatch.setattr(value, "WEIGHTS", "nochar")
    assert value.estimate(b, 0) == value.estimate(b, 0, value.W_NOCHAR) != free


def test_without_the_character_weights_the_character_counts_only_through_the_position():
    """``W_NOCHAR``: two seats alike but for their face-down character (its life and ability
    not in play: same damage, life above 4, abilities that do not change the fewest plays) are rated alike -- the
    character's own weight in ``W_FREE`` is the worth of the hands the heuristic picks it for,
    which made the search pick Kira at 141 of 200 first choices."""
    for name in value.NO_CHARACTER:
        assert value.W_NOCHAR[value.FEATURE_NAMES.index(name)] == 0.0
    b = _midgame(6, 0)
    b.damage = [0] * b.n
    b.revealed = [False] * b.n
    nochar, free = set(), set()
    for ch in (1, 2, 4):  # Toyoko, Niwa, Satsuki: life 5, 5, 6; abilities that change no plays
        b.char[1] = ch
        nochar.add(value.rating(b, 1, 0, value.W_NOCHAR))
        free.add(value.rating(b, 1, 0, value.W_FREE))
    assert len(nochar) == 1 and len(free) > 1


def test_life_lost_lowers_the_value():
    """The cost of a pass shows: the same position with a seat's life lower (one damage more,
    still alive, 4 or less left) is worth less to it -- the second pass's fitted estimate valued life at
    nothing (``policy.FITTED_ESTIMATE_W``), and the search walked into eliminations."""
    checked = 0
    for s in range(40):
        b = _midgame(s, 10 + s % 20)
        if b.phase == OVER:
            continue
        for me in range(b.n):
            if not b.alive[me] or not 2 <= LIFE[b.char[me]] - b.damage[me] <= 4:
                continue  # life counts up to 4 (a seat with more is as safe as with 4)
            c = b.copy()
            c.damage[me] += 1
            assert value.estimate(c, me) < value.estimate(b, me)
            checked += 1
    assert checked > 30


def test_the_runtime_value_needs_no_numpy():
    """The fitted weights are a constant in the code; evaluating them is pure Python (numpy is
    for fitting only)."""
    code = ("import sys; from solver.go_out_girl import value, tune; "
            "b = tune.deal(5); value.estimate(b, 0); print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_fitting_runs_on_a_small_sample_and_beats_no_information():
    train = value.positions(range(700_000, 700_150), per_battle=2)
    test = value.positions(range(800_000, 800_080), per_battle=2)
    assert len(train) > 150 and len(test) > 80
    for feats, y, hand in train:
        assert 2 <= len(feats) <= 4 and 0 <= y < len(feats) and len(hand) == len(feats)
        assert feats[0][value.FEATURE_NAMES.index("me")] == 1.0  # the searching seat first
    w = value.fit(train, l2=0.05)
    assert len(w) == value.N_FEATURES
    uniform = value.log_loss([0.0] * value.N_FEATURES, test)
    assert value.log_loss(w, test) < uniform - 0.05
    held = value.fit(train, l2=0.05, fixed=value.LIFE_PRICE)  # life held, the rest fitted
    for name, price in value.LIFE_PRICE.items():
        assert held[value.FEATURE_NAMES.index(name)] == price
    assert value.log_loss(held, test) < uniform - 0.05


def test_the_switch_reaches_the_estimate_flat_and_in_the_tree(monkeypatch):
    b = _midgame(11)
    hand = policy.estimate(b, 0)
    assert hand != value.estimate(b, 0)
    paired.set_constant("policy.LEAF_VALUE=True")  # how paired.py --set selects it
    try:
        assert policy.LEAF_VALUE is True
        assert policy.estimate(b, 0) == value.estimate(b, 0)
        assert policy.estimate(b, 0, policy.HAND_ESTIMATE_W) == hand  # explicit weights win
        calls = []
        real = value.estimate

        def counting(bb, me, w=None):
            calls.append(me)
            return real(bb, me, w)

        monkeypatch.setattr(value, "estimate", counting)
        v, steps = rollout(deal(4), 0, 8, mine=tuned)
        assert steps == 8 and calls == [0] and 0.0 < v < 1.0
        calls.clear()
        tree.playout(deal(4), 1, tree.Node(), 8, _prune, tuned, heuristic,
                     noise=[0.0] * 4, rng=random.Random(1), depth=2)
        assert calls == [1]
    finally:
        policy.LEAF_VALUE = False
    assert math.isclose(policy.estimate(b, 0), hand)
