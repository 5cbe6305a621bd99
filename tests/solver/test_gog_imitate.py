"""The oracle's imitation (issue 15, twelfth pass): it reads only the seat's view, is
deterministic, its fit runs on a small sample, and its switches reach the search."""

from __future__ import annotations

import random
import subprocess
import sys

from solver.go_out_girl import advisor, imitate, paired
from solver.go_out_girl.determinize import ViewInfo
from solver.go_out_girl.model import OVER
from solver.go_out_girl.policy import heuristic, tuned
from solver.go_out_girl.tune import deal

from .test_gog_hints import position, swap_hidden


def _positions(seeds, steps=(6, 14, 25)) -> list:
    """Model battles played by the heuristic, kept at a few decisions with a choice."""
    out = []
    for seed in seeds:
        b = deal(seed)
        for i in range(max(steps) + 1):
            if b.phase == OVER:
                break
            if i in steps and len(b.legal()) > 1:
                out.append(b.copy())
            b.apply(heuristic(b))
    return out


def _scramble(b, rng: random.Random):
    """The same position for the seat to move with everything it cannot see changed: the
    others' hands (same sizes) and the deck redealt from their cards, their unrevealed
    characters."""
    o = b.copy()
    me = o.turn
    cards = [n for q in range(o.n) if q != me for n in range(14) for _ in range(o.hands[q][n])]
    cards += o.deck
    rng.shuffle(cards)
    for q in range(o.n):
        if q != me:
            o.hands[q] = [0] * 14
            for n in cards[:o.size[q]]:
                o.hands[q][n] += 1
            cards = cards[o.size[q]:]
            if not o.revealed[q]:
                o.char[q] = rng.choice([c for c in range(8) if c != o.char[q]])
    o.deck = cards
    return o


def test_the_policy_reads_only_the_seats_own_part_of_the_position():
    rng = random.Random(2)
    checked = 0
    for b in _positions(range(40)):
        o = _scramble(b, rng)
        assert o.hands != b.hands or o.char != b.char
        moves = b.legal()
        assert o.legal() == moves
        assert imitate.scores(o, moves) == imitate.scores(b, moves)
        assert imitate.policy(o) == imitate.policy(b)
        checked += len(set(imitate.scores(b, moves))) > 1  # the weights tell moves apart
    assert checked > 60


def test_two_full_states_with_the_same_view_get_the_same_scores():
    """At the engine: deals drawn from two full states with one view (the hidden cards and
    characters swapped) score every legal move alike."""
    rng = random.Random(7)
    for seed, skip in [(1, 3), (2, 9), (6, 0)]:
        full, p = position(seed, skip=skip)
        other = swap_hidden(full, p, rng)
        assert full.view(p) == other.view(p)
        b1 = ViewInfo(full.view(p)).sample(random.Random(1))
        b2 = ViewInfo(other.view(p)).sample(random.Random(2))
        assert b1.hands[p] == b2.hands[p] and b1.turn == b2.turn == p
        assert imitate.scores(b1, b1.legal()) == imitate.scores(b2, b2.legal())


def test_the_policy_is_deterministic_and_leaves_the_position_alone():
    for b in _positions(range(10)):
        before = b.as_dict()
        a = imitate.policy(b)
        assert a in b.legal()
        assert b.as_dict() == before
        assert all(imitate.policy(b) == a for _ in range(3))


def test_the_fit_runs_on_a_tiny_sample_and_learns_a_known_choice():
    """Rows labelled by the tuned policy: the fit puts its weight on the tuned move's feature and
    agrees with the labels on held-out positions; every label mode runs."""
    def rows(seeds):
        out = []
        for b in _positions(seeds):
            moves = b.legal()
            pick = tuned(b)
            out.append((b, moves, pick, {a: (0.9 if a == pick else 0.4, 10) for a in moves[:4]}
                        | {pick: (0.9, 10)}))
        return out
    train, test = rows(range(100, 160)), rows(range(200, 230))
    w = imitate.fit(train, "pick", l2=1e-2, iterations=10)
    assert len(w) == imitate.N_FEATURES
    assert w[imitate.N_MOVE + imitate.EXTRA_NAMES.index("tuned")] > 1.0
    saved = imitate.W
    try:
        imitate.W = tuple(w)
        assert imitate.agreement(test, imitate.policy) >= 0.9
    finally:
        imitate.W = saved
    for label in ("best", "soft"):
        assert len(imitate.fit(train[:20], label, iterations=3)) == imitate.N_FEATURES


def test_the_switches_reach_the_playouts_the_tree_and_the_root(monkeypatch):
    full, p = next((g, q) for g, q in (position(s, skip=k) for s in (2, 3, 4) for k in (0, 4))
                   if len(g.view(q).legal(q)) >= 6)
    view = full.view(p)
    legal = view.legal(p)
    calls = []
    real = imitate.policy

    def counting(b):
        calls.append(b.turn)
        return real(b)

    monkeypatch.setattr(imitate, "policy", counting)
    wide = advisor.advise(view, legal, seed=3, budget=600)
    assert calls == []  # off by default
    paired.set_constant("imitate.PLAYOUT=True")  # as paired.py --set selects it
    try:
        for depth in (0, 2):  # the flat search's playouts and the tree's
            calls.clear()
            advisor.advise(view, legal, seed=3, budget=600, tree_depth=depth)
            assert len(calls) > 20 and set(calls) == {p}  # the seat's own moves only
    finally:
        imitate.PLAYOUT = False
    paired.set_constant("imitate.TREE=True")  # the tree's first alternative only
    try:
        calls.clear()
        advisor.advise(view, legal, seed=3, budget=600, tree_depth=0)
        assert calls == []  # the flat search has no tree
        advisor.advise(view, legal, seed=3, budget=3000, tree_depth=2)  # nodes widen
        assert calls and set(calls) == {p}
    finally:
        imitate.TREE = False
    monkeypatch.setattr(imitate, "TOPK", 2)
    narrow = advisor.advise(view, legal, seed=3, budget=600)
    assert 2 <= len(narrow.candidates) <= 3 < len(wide.candidates)


def test_the_policy_needs_no_numpy_at_run_time():
    code = ("import sys; from solver.go_out_girl import imitate, tune; "
            "imitate.policy(tune.deal(5)); print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
