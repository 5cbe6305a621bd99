"""Full-history inference: the others' turns this battle, rebuilt from one seat's successive views,
weigh the deals the search plays out (``solver/go_out_girl/history.py``).

Rulebook (Go Out Girl, "Turn"): "On your turn, you can either A. Play or B. Pass." -- "From your
hand, play the same number of cards as the current tableau pile but with a higher number" -- "If
you are unable to play or don't want to play, you can choose to pass. If you pass, you will
receive damage [...] For each damage icon shown, draw a card from the deck and add it to your
hand. Then select cards from your hand equal to the number of damage received and place them face
down next to your character." So between two of a seat's turns every other seat in the battle has
had one turn: it played (its cards go face up on the field), played a Guard, or passed (drew and
laid as many cards face down), and the slots that moved say which.
"""

from __future__ import annotations

import random

import pytest

from p2pcards.bots.go_out_girl import GoOutGirlBot
from p2pcards.engine import Decide, Decision, LocalDealer
from p2pcards.games import new_game
from solver.go_out_girl.convert import battle_from_game
from solver.go_out_girl.determinize import ViewInfo
from solver.go_out_girl.history import EPS, BattleRecord, Turn, _likelihood
from solver.go_out_girl.model import Battle

SEAT = 0


def _heuristic_games(seeds, each):
    """Four heuristic bots; seat 0's record reads seat 0's views at its decisions; ``each(g,
    view, record)`` runs at every one of them in a battle phase (the full state ``g`` only to
    check against)."""
    for seed in seeds:
        g = new_game("go-out-girl", 4)
        dealer = LocalDealer(seed)
        bots = [GoOutGirlBot(q, seed * 10 + q) for q in range(4)]
        rec = BattleRecord(SEAT, 4)
        while (req := g.pending()) is not None:
            if not isinstance(req, Decide):
                g.apply(dealer.fulfil(g, req))
                continue
            p = req.player
            view = g.view(p)
            if p == SEAT:
                rec.observe(view)
                if view.phase in ("turn", "lead"):
                    each(g, view, rec)
            g.apply(Decision(p, bots[p].decide(view, view.legal(p))))


def test_every_turn_since_the_last_draw_is_the_heuristics_own_move_on_the_true_hand():
    """Rebuilt backwards from the true deal, each recorded turn of a heuristic seat with no draw
    after it is exactly the heuristic's choice (likelihood 1): the record has the right pile,
    the right hand and the right move. Over 8 games of heuristic bots."""
    checked = {"P": 0, "S": 0, "G": 0}
    wrong = []

    def each(g, view, rec):
        truth = battle_from_game(g)
        for q, turns in enumerate(rec.turns):
            if q == SEAT:
                continue
            h = truth.hands[q][:]
            dmg = [g.number(g.values[s]) for s in g.zones[f"dmg{q}"]]
            for t in reversed(turns):
                if t.entered:
                    break  # the cards drawn cannot be told apart: stop there
                for k in range(14):
                    h[k] += t.out[k]
                for i in t.laid:
                    h[dmg[i]] += 1
                if t.scored:
                    if _likelihood(4, truth.char[q], q, h[:], t, 0.0) != 1.0:
                        wrong.append((g.battle, t))
                    checked[t.kind] = checked.get(t.kind, 0) + 1

    _heuristic_games(range(8), each)
    assert not wrong, wrong[:3]
    assert checked["P"] > 100 and checked["G"] > 5, checked


def test_the_record_holds_only_what_the_seat_saw():
    """The record is built from views: no card value it keeps is one the seat may not know."""
    def each(g, view, rec):
        snap = rec.prev
        for s, v in enumerate(snap.values):
            if v is not None:
                assert g.knows(SEAT, s), s

    _heuristic_games(range(2), each)


def test_a_pass_on_a_single_10_makes_hands_holding_an_11_to_13_unlikely():
    """Rulebook: "Can Play: Same number of cards as Tableau pile, but higher number." The
    heuristic bot beats a pile whenever it can (keeping a 13 only on a pile of damage 1 with more
    than 4 cards), so a recorded pass on a single 10 scores ``EPS`` for a hand with a single 11
    and 1 for a hand with nothing above 10."""
    b = Battle(4)
    b.char[1] = 0  # Nerai, life 7
    t = Turn(seat=1, kind="S", top=(10, 1, 1, 0), damage=0, revealed=False, reveals=False)
    hand = [0] * 14
    for n in (2, 3, 5, 7, 9):
        hand[n] += 1
    assert _likelihood(4, b.char[1], 1, hand[:], t, 0.0) == 1.0
    hand[11] += 1
    assert _likelihood(4, b.char[1], 1, hand[:], t, 0.0) == EPS
    # a seat the table memory finds random keeps the pass possible
    assert _likelihood(4, b.char[1], 1, hand[:], t, 1.0) > 0.1


@pytest.mark.parametrize("sis", [False, True])
def test_inferred_deals_are_closer_to_the_true_hands_than_plain_ones(sis):
    """At seat 0's turns in heuristic games, the deals weighted by the record (or built seat by
    seat, ``pool_sis``) put more of each other seat's true hand right than plain deals (the
    measured gain is small: docs/solver.md). Every deal keeps each seat's hand size and the 86
    battle cards."""
    plain = weighted = 0.0
    n = 0

    def each(g, view, rec):
        nonlocal plain, weighted, n
        if rec.facts() < 3:
            return
        truth = battle_from_game(g)
        info = ViewInfo(view)
        if sis:
            deals, ws = rec.pool_sis(info, random.Random(n), None, deals=6, tries=16)
            base = [info.sample(random.Random(1000 + n + i)) for i in range(12)]
        else:
            deals, ws = rec.pool(info, random.Random(n), None, 32)
            base = deals
        for b in deals:
            assert b.size == truth.size
            total = [sum(h[k] for h in b.hands) + b.deck.count(k) + b.discard[k] + b.field[k]
                     for k in range(14)]
            dmg = sum(len(g.zones[f"dmg{q}"]) for q in range(4))
            assert sum(total) + dmg == 86
        for q in range(1, 4):
            if not g.alive[q] or not truth.size[q]:
                continue
            real = truth.hands[q]

            def right(b, q=q, real=real):
                return sum(min(a, r) for a, r in zip(b.hands[q], real, strict=True)) / sum(real)
            plain += sum(right(b) for b in base) / len(base)
            weighted += sum(w * right(b) for b, w in zip(deals, ws, strict=True))
            n += 1

    _heuristic_games(range(2), each)
    assert n > 40
    assert weighted / n > plain / n + 0.005, (weighted / n, plain / n)
