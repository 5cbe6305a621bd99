"""Go Out Girl, fifteenth pass: deals the seat can believe (``history.pool_exact``), the
known-policy endgame on them (``advisor.RESPOND_SOURCE``) and its guard (``RESPOND_AGREE``,
``RESPOND_Z``); the diagnostic ``believe.py`` (docs/solver-passes.md, Go Out Girl, fifteenth pass)."""

from __future__ import annotations

import random

from solver.go_out_girl import advisor
from solver.go_out_girl.advisor import _clear, advise
from solver.go_out_girl.believe import measure, next_moves
from solver.go_out_girl.convert import battle_from_game
from solver.go_out_girl.determinize import ViewInfo
from solver.go_out_girl.model import OVER
from solver.go_out_girl.policy import heuristic, tuned

from .test_gog_hints import other_hands, swap_hidden
from .test_gog_history import SEAT, _heuristic_games


def test_exact_deals_reproduce_every_recorded_turn_more_often_than_plain_ones():
    """``pool_exact`` draws each heuristic seat's hand until one reproduces every turn the
    record holds of it (the limit EPS -> 0 of ``pool_sis``): checked again with another random
    choice of the cards drawn (of seats that laid no face-down damage), nearly all its hands
    do, far more than plain deals' hands; every deal keeps each seat's hand size."""
    got = {"exact": [0, 0], "plain": [0, 0]}

    def each(g, view, rec):
        if rec.facts() < 3:
            return
        truth = battle_from_game(g)
        info = ViewInfo(view)
        n = sum(got["plain"])
        deals, ws = rec.pool_exact(info, random.Random(n), None, deals=4, tries=200)
        assert len(deals) == 4 and ws == [0.25] * 4
        plain = [info.sample(random.Random(n + i)) for i in range(4)]
        for name, ds in (("exact", deals), ("plain", plain)):
            for b in ds:
                assert b.size == truth.size
                for q in range(4):
                    # (a deal keeps no face-down damage cards: seats that laid none)
                    if (q != SEAT and any(t.scored for t in rec.turns[q])
                            and not any(t.laid for t in rec.turns[q])):
                        ok = rec.mismatches(q, b.hands[q], [], b.char[q], random.Random(7)) == 0
                        got[name][0] += ok
                        got[name][1] += 1

    _heuristic_games(range(3), each)
    exact = got["exact"][0] / got["exact"][1]
    plain = got["plain"][0] / got["plain"][1]
    assert got["exact"][1] > 100
    assert exact > 0.8 and exact > plain + 0.2, (exact, plain, got)


def test_mismatches_counts_the_turns_the_heuristic_would_not_make():
    """On the true hands of heuristic seats, every recorded turn since the seat's last draw is
    the heuristic's own move, so the true hand of a seat that has not drawn has no mismatch; a
    hand dealt at random from the view often has several, and ``stop`` ends the count as soon
    as it passes ``stop``."""
    seen = several = 0

    def each(g, view, rec):
        nonlocal seen, several
        truth = battle_from_game(g)
        deal, dmgs = ViewInfo(view).sample_with_damage(random.Random(seen))
        for q in range(4):
            if q == SEAT or not rec.turns[q] or any(t.entered for t in rec.turns[q]):
                continue
            dmg = [g.number(g.values[s]) for s in g.zones[f"dmg{q}"]]
            assert rec.mismatches(q, truth.hands[q], dmg, truth.char[q], random.Random(1)) == 0
            seen += 1
            full = rec.mismatches(q, deal.hands[q], dmgs[q], deal.char[q], random.Random(1))
            early = rec.mismatches(q, deal.hands[q], dmgs[q], deal.char[q], random.Random(1),
                                   stop=0)
            assert early == min(full, 1)
            several += full >= 2

    _heuristic_games(range(2), each)
    assert seen > 20 and several > 3, (seen, several)


def test_the_guard_leaves_the_tuned_move_only_when_the_deals_agree():
    """``RESPOND_AGREE`` 0.75: another move that is better on 3 of 4 deals is clear, one that is
    better on average because of one deal is not; ``RESPOND_Z``: a margin over the spread of
    the per-deal differences; neither set: any mean gain (the fourteenth pass's rule)."""
    one_deal = [[0.5, 0.5], [0.5, 0.5], [0.4, 0.4], [0.1, 0.9]]  # candidate 1 better on one deal
    three = [[0.5, 0.6], [0.5, 0.55], [0.4, 0.45], [0.3, 0.2]]
    old = advisor.RESPOND_AGREE, advisor.RESPOND_Z
    try:
        advisor.RESPOND_AGREE, advisor.RESPOND_Z = None, None
        assert _clear(one_deal, 1, 0) and _clear(three, 1, 0)
        advisor.RESPOND_AGREE = 0.75
        assert not _clear(one_deal, 1, 0)
        assert _clear(three, 1, 0)
        assert not _clear(three, 0, 1)  # worse on the mean: never clear
        advisor.RESPOND_AGREE, advisor.RESPOND_Z = None, 1.0
        steady = [[0.5, 0.52], [0.5, 0.53], [0.4, 0.41], [0.3, 0.32]]
        assert _clear(steady, 1, 0) and not _clear(one_deal, 1, 0)
    finally:
        advisor.RESPOND_AGREE, advisor.RESPOND_Z = old


def test_the_endgame_on_believable_deals_reads_only_the_view_and_the_record(monkeypatch):
    """``RESPOND_SOURCE`` "exact" and "sis" draw the deals from the seat's view and its record
    of the others' turns (built from its own views): two full states with the same view give
    the same advice and reason, and that reason is the known-policy endgame's."""
    monkeypatch.setattr(advisor, "RESPOND", True)
    monkeypatch.setattr(advisor, "RESPOND_AGREE", 0.75)
    rng = random.Random(3)
    found = {"exact": 0, "sis": 0}

    def each(g, view, rec):
        cards = sum(len(g.hand(q)) for q in range(4) if g.alive[q])
        legal = view.legal(SEAT)
        if cards > 20 or len(legal) < 2 or not rec.facts() or min(found.values()) >= 2:
            return
        other = swap_hidden(g, SEAT, rng)
        if other_hands(other, SEAT) == other_hands(g, SEAT):
            return
        assert other.view(SEAT) == view
        for source in found:
            monkeypatch.setattr(advisor, "RESPOND_SOURCE", source)
            a = advise(view, legal, seed=1, budget=2000, record=rec)
            b = advise(other.view(SEAT), other.view(SEAT).legal(SEAT), seed=1, budget=2000,
                       record=rec)
            assert a.text == b.text and a.reason == b.reason
            found[source] += "if the others play as the easy bots do" in a.reason

    _heuristic_games(range(4), each)
    assert min(found.values()) >= 2, found


def test_next_moves_are_the_others_first_decisions_in_the_true_battle():
    """The diagnostic's "true next move": after the seat's move, each other seat's first
    decision in the true battle is the heuristic's move on that battle, and the seats come in
    turn order until the seat decides again."""
    checked = 0

    def each(g, view, rec):
        nonlocal checked
        if checked >= 20:
            return
        truth = battle_from_game(g)
        out = next_moves(truth, SEAT, tuned(truth))
        for q, (b, a) in out.items():
            assert q != SEAT and b.turn == q and b.phase != OVER and heuristic(b) == a
        checked += 1

    _heuristic_games(range(1), each)
    assert checked == 20


def test_the_diagnostic_runs_and_keeps_its_counts():
    r = measure(range(1), deals=2, sources={"plain": None, "exact": ("exact", 50)})
    assert r["checks"]["decisions"] > 0
    rows = r["table"]
    assert any(k.startswith("exact") for k in rows) and any(k.startswith("plain") for k in rows)
    for row in rows.values():
        assert 0 <= row["right"] <= 1 and 0 <= row["next_move"] <= 1
        assert 0 <= row["all_next_moves"] <= 1


def test_since_the_last_draw_the_true_hand_always_reproduces(monkeypatch):
    """``history.EXACT_SINCE_DRAW``: counting only the turns since a seat's last draw (where the
    hand is rebuilt without guessing the cards drawn), the true hand of every heuristic seat
    reproduces all of them; counting every turn, a wrong guess of the drawn cards fails it at
    times (the fifteenth pass measured about a third of the true hands)."""
    from solver.go_out_girl import history
    fails = {False: 0, True: 0}
    seen = 0

    def each(g, view, rec):
        nonlocal seen
        truth = battle_from_game(g)
        for q in range(4):
            if q == SEAT or not rec.turns[q]:
                continue
            dmg = [g.number(g.values[s]) for s in g.zones[f"dmg{q}"]]
            seen += 1
            for flag in fails:
                monkeypatch.setattr(history, "EXACT_SINCE_DRAW", flag)
                fails[flag] += rec.mismatches(q, truth.hands[q], dmg, truth.char[q],
                                              random.Random(seen)) > 0

    _heuristic_games(range(3), each)
    assert seen > 50
    assert fails[True] == 0 and fails[False] > 0, fails


def test_follow_scores_a_move_by_the_tuned_policy_after_it():
    """``Expectimax(follow=True)`` (``advisor.RESPOND_FOLLOW``): past the candidate the seat
    plays the tuned policy, so a candidate's value is the tuned policy's average over every
    order of the deck after it (the others the known policy) -- never above the maximised
    expectimax, and below it somewhere."""
    import itertools

    from solver.go_out_girl.policy import rollout
    from solver.go_out_girl.respond import Expectimax, pool_from_deck

    from .test_gog_respond import _small
    below = 0
    for b, me in _small(20, 11):
        orders = sorted(set(itertools.permutations(b.deck)))
        cands = b.legal()
        fol = Expectimax(me, 200_000, follow=True).scores(pool_from_deck(b), cands)
        full = Expectimax(me, 200_000).scores(pool_from_deck(b), cands)
        for a in cands:
            avg = 0.0
            for order in orders:
                c = b.copy()
                c.deck = list(order)
                c.apply(a)
                avg += rollout(c, me, 10_000, heuristic, mine=tuned)[0]
            assert abs(fol[a] - avg / len(orders)) < 1e-9
            assert fol[a] <= full[a] + 1e-9
            below += fol[a] < full[a] - 1e-9
    assert below >= 1
