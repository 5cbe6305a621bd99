"""Go Out Girl, sixteenth pass: the others' moves in the tree as a distribution over the deals
(``tree.RESAMPLE``, ``tree.redeal``; docs/solver-passes.md, Go Out Girl, sixteenth pass): each
other seat's move taken on hidden cards dealt afresh, never on anything the seat cannot see."""

from __future__ import annotations

import random

import pytest

from solver.go_out_girl import tree
from solver.go_out_girl.advisor import _prune, advise
from solver.go_out_girl.model import empty_counts
from solver.go_out_girl.policy import heuristic, tuned
from solver.go_out_girl.tune import deal

from .test_gog_hints import other_hands, swap_hidden
from .test_gog_history import SEAT, _heuristic_games


def _hidden(b, me):
    """The multiset of the cards ``me`` cannot see: the others' hands and the deck."""
    c = empty_counts()
    for q in range(b.n):
        if q != me and b.alive[q]:
            for n in range(14):
                c[n] += b.hands[q][n]
    for n in b.deck:
        c[n] += 1
    return c


def test_redeal_deals_only_what_the_seat_cannot_see():
    """``redeal`` keeps this seat's hand, every hand's size, the deck's size, the public piles,
    the characters and the cards this seat knows are in a hand; it moves the other hidden cards
    between the others' hands and the deck, and does move them."""
    moved = 0
    for s in range(30):
        b = deal(s)
        me = s % 4
        fixed = [empty_counts() for _ in range(4)]
        q = (me + 1) % 4
        known = next(n for n in range(14) if b.hands[q][n])
        fixed[q][known] = 1  # a card this seat gave q: it knows it is there
        before = b.copy()
        tree.redeal(b, me, random.Random(s), fixed)
        assert b.hands[me] == before.hands[me]
        assert b.size == before.size and [sum(h) for h in b.hands] == b.size
        assert len(b.deck) == len(before.deck)
        assert _hidden(b, me) == _hidden(before, me)
        assert b.hands[q][known] >= 1
        assert (b.discard, b.field, b.char, b.damage, b.top, b.turn, b.phase) == (
            before.discard, before.field, before.char, before.damage, before.top, before.turn,
            before.phase)
        moved += other_hands_changed(b, before, me)
    assert moved >= 28


def other_hands_changed(b, before, me) -> bool:
    return any(b.hands[q] != before.hands[q] for q in range(b.n) if q != me)


def test_off_the_playout_is_unchanged_and_on_it_her_move_varies():
    """With ``resample`` None the playout is the same whatever the deal's later reshuffles;
    with "tree" the others' replies to the root move come from hands dealt afresh, so over
    seeds of the playout's generator, on one deal, they differ (one deal: always the same)."""
    for s in range(4):
        plain, fresh = set(), set()
        for r in range(12):
            for mode, got in ((None, plain), ("tree", fresh)):
                b = deal(s)
                me = b.turn
                b.apply(tuned(b))  # the root move
                tree.playout(b, me, tree.Node(), 3, _prune, tuned, heuristic,
                             noise=[0.0] * 4, rng=random.Random(r), depth=2, resample=mode)
                got.add(b.key())
        assert len(plain) == 1
        assert len(fresh) > 1


@pytest.mark.parametrize("mode", ["tree", "all"])
def test_resample_scope(monkeypatch, mode):
    """"tree": the hidden cards are dealt afresh only before this seat's decision after its
    last in-tree one; "all": at the others' decisions all through the playout."""
    state = {"mine": 0}
    at: list[int] = []
    real = tree.redeal

    def spy(b, me, rng, fixed=None):
        at.append(state["mine"])
        real(b, me, rng, fixed)

    monkeypatch.setattr(tree, "redeal", spy)
    for s in range(10):
        b = deal(s)
        me = b.turn
        b.apply(tuned(b))
        real_apply = b.apply

        def apply(a, b=b, me=me, real_apply=real_apply):
            if b.turn == me:
                state["mine"] += 1
            real_apply(a)
        state["mine"] = 0
        tree.playout(_Spy(b, apply), me, tree.Node(), 30, _prune, tuned, heuristic,
                     noise=[0.0] * 4, rng=random.Random(s), depth=2, resample=mode)
    assert at
    if mode == "tree":
        assert max(at) <= 2
    else:
        assert max(at) > 2


class _Spy:
    """A battle whose ``apply`` is wrapped (to count this seat's decisions)."""

    def __init__(self, b, apply):
        object.__setattr__(self, "_b", b)
        object.__setattr__(self, "apply", apply)

    def __getattr__(self, name):
        return getattr(self._b, name)

    def __setattr__(self, name, value):
        setattr(self._b, name, value)


@pytest.mark.parametrize("observe", [True, "lead"])
def test_observe_keys_the_nodes_by_the_pile_the_seat_faces(observe):
    """``observe``: under the root and under each in-tree move, a node per (top, phase) the
    seat faces at its next decision ("lead": per whether it leads, and the phase) -- the
    others' replies branch the tree, each branch visited as often as the deals (and their
    hands dealt afresh) produce it; values back up."""
    branched = 0
    for s in range(6):
        root = tree.Node()
        total = 0.0
        n = 0
        for r in range(60):
            b = deal(s)
            me = b.turn
            while (m := tuned(b))[0] != "P":
                b.apply(m)  # reveal first: the root move is a play the others reply to
            b.apply(m)
            v, _ = tree.playout(b, me, root, 30, _prune, tuned, heuristic, noise=[0.0] * 4,
                                rng=random.Random(r), depth=2, resample="tree", observe=observe)
            total += v
            n += 1
        assert not root.stats  # the root is a hub: its nodes hold the statistics
        for (top, phase), node in root.children.items():
            if observe == "lead":
                assert top in (True, False)
            else:
                assert top is None or len(top) == 2
            assert isinstance(phase, int)
            assert node.visits == sum(st[0] for st in node.stats.values())
            for hub in node.children.values():
                assert not hub.stats
                assert sum(c.visits for c in hub.children.values()) <= node.visits
        assert sum(c.visits for c in root.children.values()) <= n
        branched += len(root.children) > 1
    assert branched >= (3 if observe is True else 1)


@pytest.mark.parametrize("mode,observe", [("tree", False), ("all", False), (None, True),
                                          ("tree", True), (None, "lead")])
def test_resampled_tree_reads_only_the_view_and_the_record(monkeypatch, mode, observe):
    """Two full states with the same view and record give the same advice with the others'
    moves taken on hands dealt afresh, or the tree keyed by what the seat faces (in heuristic
    games, seat 0's turn decisions)."""
    monkeypatch.setattr(tree, "RESAMPLE", mode)
    monkeypatch.setattr(tree, "OBSERVE", observe)
    rng = random.Random(11)
    done = []

    def each(g, view, rec):
        legal = view.legal(SEAT)
        if len(legal) < 2 or len(done) >= 3 or rng.random() < 0.7:
            return
        other = swap_hidden(g, SEAT, rng)
        if other_hands(other, SEAT) == other_hands(g, SEAT):
            return
        assert other.view(SEAT) == view
        a = advise(view, legal, seed=3, budget=1500, tree_depth=2, record=rec)
        b = advise(other.view(SEAT), other.view(SEAT).legal(SEAT), seed=3, budget=1500,
                   tree_depth=2, record=rec)
        assert a.to_json() == b.to_json()
        done.append(a)

    _heuristic_games(range(3), each)
    assert len(done) == 3
