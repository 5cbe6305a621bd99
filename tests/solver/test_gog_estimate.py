"""The leaf estimate of truncated playouts and its fitted weights (``tune.fit_estimate``)."""

from __future__ import annotations

import math

from solver.go_out_girl import tune
from solver.go_out_girl.model import OVER
from solver.go_out_girl.policy import (
    FITTED_ESTIMATE_W,
    HAND_ESTIMATE_W,
    estimate,
    heuristic,
    rating,
)


def test_the_fitted_features_are_the_ratings_features():
    """``rating`` with weights w is the features of ``tune`` dotted with w: what is fitted is
    what the playouts use."""
    checked = 0
    for seed in range(20):
        b = tune.deal(seed)
        for _ in range(25):
            if b.phase == OVER:
                break
            for w in (HAND_ESTIMATE_W, FITTED_ESTIMATE_W):
                for q in range(b.n):
                    f = tune._features(b, q)
                    r = sum(a * x for a, x in zip(w[:5], f, strict=True))
                    assert math.isclose(rating(b, q, w), r, abs_tol=1e-9)
                    checked += 1
            b.apply(heuristic(b))
    assert checked > 1000


def test_the_estimate_is_a_win_chance():
    b = tune.deal(7)
    for _ in range(20):
        b.apply(heuristic(b))
    chances = [estimate(b, q, FITTED_ESTIMATE_W) for q in range(b.n)]
    assert math.isclose(sum(chances), 1.0)
    # fewer plays needed, same everything else: a higher chance
    best = max(range(b.n), key=lambda q: rating(b, q, FITTED_ESTIMATE_W))
    assert chances[best] == max(chances)


def test_fitting_lowers_the_log_loss_on_held_out_positions():
    train = tune.positions(range(300_000, 300_600))
    test = tune.positions(range(400_000, 400_300))
    assert len(train) > 800 and len(test) > 400
    w = tune.fit_estimate(train, iterations=40)
    fitted = tune.log_loss(tune._scaled(w), test)[0]
    hand = tune.log_loss(tune._scaled(HAND_ESTIMATE_W), test)[0]
    assert fitted < hand - 0.01
