"""The tree over the seat's own next decisions (solver/go_out_girl/tree.py): the selection rule,
that a depth of 0 is the flat playout, that the tree reads only deals drawn from the view, and
that the strong bot passes its depth to the advisor."""

from __future__ import annotations

import random

from solver.go_out_girl import bots as solver_bots
from solver.go_out_girl import tree
from solver.go_out_girl.advisor import _prune, advise
from solver.go_out_girl.policy import heuristic, rollout, tuned
from solver.go_out_girl.tune import deal

from .test_gog_hints import other_hands, position, swap_hidden

A, B, C = ("P", 3, 1, ((3, 1),)), ("P", 5, 1, ((5, 1),)), ("P", 9, 1, ((9, 1),))


def test_select_tries_the_policy_first_then_follows_the_values():
    node = tree.Node()
    assert node.select([A, B, C], B) == B  # the tuned policy's move before any other
    node.stats[B][:2] = [1, 1.0]
    assert node.select([A, B, C], B) == A  # then the untried ones, in the pruned order
    node.stats[A][:2] = [1, 0.0]
    assert node.select([A, B, C], B) == C
    node.stats[C][:2] = [1, 0.0]
    for a in (A, B, C):  # a long history: B wins 0.6, A 0.4, C 0.1, each tried 200 times
        node.stats[a][0] = 200
        node.stats[a][2] = 600
    node.stats[A][1], node.stats[B][1], node.stats[C][1] = 80.0, 120.0, 20.0
    assert node.select([A, B, C], B) == B
    node.stats[A][1] = 150.0  # A now wins 0.75: clearly better than the policy's move
    assert node.select([A, B, C], B) == A
    assert node.stats[A][2] == 602  # availability counts every time an action could be chosen
    assert node.select([B, C], B) == B  # A not available in this deal: never chosen
    assert node.stats[A][2] == 602


def test_select_prefers_the_policy_on_close_values():
    """The progressive bias keeps the tuned policy's move against one only slightly better."""
    node = tree.Node()
    node.stats = {A: [10, 5.2, 30], B: [10, 5.0, 30]}
    assert node.select([A, B], B) == B
    node.stats = {A: [10, 5.2, 30], B: [10, 5.0, 30]}
    assert node.select([A, B], A) == A


def test_depth_zero_is_the_flat_playout():
    """With no in-tree decision the playout is ``policy.rollout`` move for move."""
    for s in range(6):
        b1, b2 = deal(s), deal(s)
        r1 = rollout(b1, 0, 30, noise=[0.0, 0.3, 0.0, 1.0], rng=random.Random(s), mine=tuned)
        r2 = tree.playout(b2, 0, tree.Node(), 30, _prune, tuned, heuristic,
                          noise=[0.0, 0.3, 0.0, 1.0], rng=random.Random(s), depth=0)
        assert r1 == r2
        assert b1.key() == b2.key()


def test_tree_backs_values_up_and_grows_one_node_a_playout():
    root = tree.Node()
    total = 0.0
    for s in range(40):
        v, steps = tree.playout(deal(s), 0, root, 30, _prune, tuned, heuristic,
                                noise=[0.0] * 4, rng=random.Random(s), depth=2)
        assert 0.0 <= v <= 1.0 and 0 < steps <= 30
        total += v
    assert root.visits == 40
    assert sum(st[0] for st in root.stats.values()) == 40
    assert abs(sum(st[1] for st in root.stats.values()) - total) < 1e-9
    assert len(root.children) <= 40 and root.children
    for a, child in root.children.items():  # a child's visits are playouts through its action
        assert child.visits <= root.stats[a][0]


def test_tree_search_reads_the_view_only():
    """The advice with the tree is the same for two full states with the same view."""
    rng = random.Random(7)
    for seed, phase, skip in [(1, "turn", 3), (3, "damage", 1), (6, "turn", 0)]:
        full, p = position(seed, phase=phase, skip=skip)
        other = swap_hidden(full, p, rng)
        assert other_hands(other, p) != other_hands(full, p)
        v1, v2 = full.view(p), other.view(p)
        a1 = advise(v1, v1.legal(p), seed=5, budget=3000, tree_depth=2)
        a2 = advise(v2, v2.legal(p), seed=5, budget=3000, tree_depth=2)
        assert a1.action in v1.legal(p)
        assert a1.to_json() == a2.to_json()
        if len(a1.candidates) > 1:
            assert any(c.node is not None and c.node.visits for c in a1.candidates)


def test_strong_bot_passes_its_tree_depth(monkeypatch):
    """The strong level searches with the tree (``STRONG_TREE_DEPTH``), the normal level flat;
    ``TREE_DEPTH`` overrides both."""
    seen = []

    def fake_advise(view, legal, **kw):
        seen.append(kw["tree_depth"])
        return type("A", (), {"action": legal[0]})()

    monkeypatch.setattr(solver_bots, "advise", fake_advise)
    full, p = position(2, phase="turn", skip=8)
    view = full.view(p)
    solver_bots.StrongBot(p, 0).decide(view, view.legal(p))
    solver_bots.NormalBot(p, 0).decide(view, view.legal(p))
    monkeypatch.setattr(solver_bots, "TREE_DEPTH", 0)
    solver_bots.StrongBot(p, 0).decide(view, view.legal(p))
    assert seen == [solver_bots.STRONG_TREE_DEPTH, 0, 0]
    assert solver_bots.STRONG_TREE_DEPTH > 0
