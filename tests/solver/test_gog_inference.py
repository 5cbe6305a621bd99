"""Opponent hand inference: deals are weighted by the refusals the seat saw on the field.

Off by default (``advisor.INFER``): measured, it did not beat plain sampling.

Rulebook (Go Out Girl, "Turn"): "On your turn, you can either A. Play or B. Pass." and "When all
players except the person who played the tableau pile have passed consecutively, discard all
cards in the center field." So while a pile is still on the field, every seat between its owner
and the seat to move has had its turn on it and did not beat it ("Can Play: Same number of cards
as Tableau pile, but higher number.").
"""

from __future__ import annotations

import random

from solver.go_out_girl.determinize import DECLINE_ALPHA, ViewInfo, declined_seats, would_beat
from solver.go_out_girl.position import build, parse

from .test_gog_hints import position, swap_hidden


def _view(field_owner: int, field: list[str], seat3_hand=None, to_move: int = 0):
    """Four seats, seat ``to_move`` to move; the others' hands hidden (9 cards each) unless
    ``seat3_hand`` lists seat 3's cards (for the full state)."""
    seats = [{"hand": ["2", "5", "7", "9", "G"], "character": "niwa"}]
    seats += [{"hand": 9, "damage": 1} for _ in range(3)]
    data = {"format": 1, "game": "go-out-girl", "viewer": 0, "to_move": to_move,
            "seats": seats, "field": {"cards": field, "owner": field_owner}, "deck": 20,
            "discard": ["3", "3", "4"]}
    if seat3_hand is not None:
        del data["viewer"]
        full_seats = []
        for q, s in enumerate(seats):
            if q == 0:
                full_seats.append(s)
            elif q == 3:
                full_seats.append({"hand": seat3_hand, "character": "satsuki", "damage": 1})
            else:
                full_seats.append({"hand": ["1", "2"], "character": "niwa", "damage": 1})
        data["seats"] = full_seats
        data["deck"] = ["6", "6"]
        return build(parse(data))
    return build(parse(data))


def test_the_seats_between_the_piles_owner_and_me_declined_it():
    assert declined_seats(_view(1, ["10"])) == [2, 3]
    assert declined_seats(_view(2, ["10"])) == [3]
    assert declined_seats(_view(3, ["10"])) == []


def test_would_beat_follows_the_models_rule():
    """The heuristic bot beats a pile when it holds the same number of cards of a higher number
    (without a Guard, even with a 13 it would rather keep); a single higher card does not beat a
    pair."""
    pair = _view(2, ["10", "10"], ["11", "11", "2", "3", "5", "7"])
    single = _view(2, ["10", "10"], ["11", "12", "13", "2", "3", "5"])
    only13 = _view(2, ["10"], ["13", "2", "3", "5", "7", "8"])
    from solver.go_out_girl.convert import battle_from_game
    assert would_beat(battle_from_game(pair), 3)
    assert not would_beat(battle_from_game(single), 3)
    assert would_beat(battle_from_game(only13), 3)


def _beaters(b, q: int, above: int) -> int:
    return sum(b.hands[q][n] for n in range(above + 1, 13))


def test_inferred_deals_give_the_declining_seat_fewer_beating_cards():
    view = _view(2, ["10"])  # seat 3 did not beat a single 10
    info = ViewInfo(view)
    assert info.declined == [3]
    plain = [info.sample(random.Random(s)) for s in range(300)]
    inferred = [info.sample_inferred(random.Random(s)) for s in range(300)]
    share_plain = sum(would_beat(b, 3) for b in plain) / 300
    share_inferred = sum(would_beat(b, 3) for b in inferred) / 300
    assert share_plain > 0.5  # 9 hidden cards out of ~60: an 11, 12 or 13 is likely
    # rejection sampling draws from the prior times the likelihood: a deal where seat 3 would
    # have beaten the 10 keeps weight DECLINE_ALPHA (nearly exact with 12 tries)
    a = DECLINE_ALPHA
    posterior = share_plain * a / (share_plain * a + 1 - share_plain)
    assert abs(share_inferred - posterior) < 0.1
    assert share_inferred < share_plain - 0.2
    hard = [info.sample_inferred(random.Random(s), tries=60, alpha=0.0) for s in range(100)]
    assert sum(would_beat(b, 3) for b in hard) <= 5  # with alpha 0 nearly every deal agrees
    # seat 1 (the one after me, who has not had its turn on this pile) is not conditioned
    assert abs(sum(_beaters(b, 1, 10) for b in inferred) / 300
               - sum(_beaters(b, 1, 10) for b in plain) / 300) < 0.6
    # the inference changes only which deals are drawn: every deal still agrees with the view
    for b in inferred:
        assert b.size == [5, 9, 9, 9] and b.top == (10, 1, 1, 2)


def test_inference_reads_only_the_view():
    """Two full states with the same view for the seat (hidden cards and characters swapped)
    give the same inferred deals and the same refusals."""
    rng = random.Random(3)
    found = 0
    for seed in range(30, 60):
        full, p = position(seed, phase="turn", skip=seed % 7)
        if not declined_seats(full.view(p)):
            continue
        other = swap_hidden(full, p, rng)
        v1, v2 = full.view(p), other.view(p)
        assert v1 == v2
        i1, i2 = ViewInfo(v1), ViewInfo(v2)
        assert i1.declined == i2.declined
        for s in range(5):
            b1 = i1.sample_inferred(random.Random(s))
            b2 = i2.sample_inferred(random.Random(s))
            assert (b1.hands, b1.deck, b1.char) == (b2.hands, b2.deck, b2.char)
        found += 1
        if found == 4:
            break
    assert found == 4


def test_advice_with_inference_reads_only_the_view(monkeypatch):
    """With ``advisor.INFER`` on (off by default: it did not measure better), the advice from
    two full states with the same view is the same."""
    from solver.go_out_girl import advisor

    monkeypatch.setattr(advisor, "INFER", True)
    rng = random.Random(4)
    for seed in range(30, 60):
        full, p = position(seed, phase="turn", skip=seed % 7)
        if declined_seats(full.view(p)):
            break
    other = swap_hidden(full, p, rng)
    v1, v2 = full.view(p), other.view(p)
    a1 = advisor.advise(v1, v1.legal(p), seed=2, budget=3000)
    a2 = advisor.advise(v2, v2.legal(p), seed=2, budget=3000)
    assert a1.to_json() == a2.to_json()
