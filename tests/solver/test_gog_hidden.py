"""The hidden-card diagnostic (issue 15, thirteenth pass): the public pool reads the seat's view
alone, the features say what they claim, and the fit runs on a small sample."""

from __future__ import annotations

import random

from solver.go_out_girl import hidden, imitate
from solver.go_out_girl.model import empty_counts
from solver.go_out_girl.policy import tuned

from .test_gog_hints import position, swap_hidden
from .test_gog_imitate import _positions


def test_the_unseen_pool_reads_the_view_alone():
    """Two full states with the same view for the seat (the hidden cards and characters
    swapped) give the same pool; the pool plus what the seat sees is the whole battle deck."""
    rng = random.Random(3)
    for seed, skip in [(1, 3), (2, 9), (6, 0)]:
        full, p = position(seed, skip=skip)
        other = swap_hidden(full, p, rng)
        assert full.view(p) == other.view(p)
        pool = hidden.unseen_counts(full.view(p))
        assert pool == hidden.unseen_counts(other.view(p))
        hands = hidden.true_hands(full, p)
        assert sum(hands[p]) == 0  # the seat's own hand is never a hidden pool
        assert all(h[n] <= pool[n] for q, h in enumerate(hands) if q != p for n in range(14))


def test_a_play_no_pool_can_beat_is_flagged_and_one_they_can_is_not():
    b = next(b for b in _positions(range(60)) if b.top is None
             and any(a[0] == "P" and a[1] <= 12 for a in b.legal()))
    play = next(a for a in b.legal() if a[0] == "P" and a[1] <= 12)
    empty = empty_counts()
    assert hidden.extras(b, play, [empty])[:3] == [0.0, 1.0, 0.0]
    strong = empty_counts()
    strong[13] = 4  # four 13s: beats a single, a pair, a triple or four of anything lower
    x = hidden.extras(b, play, [strong])
    assert x[0] == 1 / 13 and x[1] == 0.0 and x[2] == 1.0
    assert hidden.extras(b, ("D", 13), [strong])[3:5] == [0.0, 1.0]  # nothing above a 13
    assert hidden.extras(b, ("D", 2), [strong])[3:5] == [1.0, 0.0]


def test_the_fit_with_extras_runs_on_a_small_sample_and_learns_a_known_choice():
    """Rows labelled by the tuned policy, with a public and a true pool: every kind fits, has
    the extras' weights, and agrees with the labels on held-out positions."""
    def rows(seeds):
        out = []
        for b in _positions(seeds):
            moves = b.legal()
            pick = tuned(b)
            unseen = [sum(b.hands[q][n] for q in range(b.n) if q != b.turn) + b.deck.count(n)
                      for n in range(14)]
            true = [h[:] if q != b.turn else empty_counts() for q, h in enumerate(b.hands)]
            out.append((b, moves, pick, {pick: (0.9, 10)}, {"unseen": unseen, "true": true}))
        return out
    train, test = rows(range(100, 150)), rows(range(200, 220))
    for kind in ("none", "public", "true"):
        w = hidden.fit(train, kind, "pick", l2=1e-2, iterations=10)
        assert len(w) == imitate.N_FEATURES + (0 if kind == "none" else hidden.N_EXTRAS)
        got = hidden.agreement(test, w, kind)
        agreed, n = got["all"]
        assert n == len(test) and agreed / n >= 0.9
        assert got["left"][1] == 0  # the labels are the tuned policy's own moves
