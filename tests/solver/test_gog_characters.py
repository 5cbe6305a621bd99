"""Face-down characters in the sampled deals follow how the seat chooses (determinize.py).

Rulebook (Go Out Girl, "Game Preparation" 5): "Each player checks their hand and chooses their
character ... place it face down in front of you." A heuristic seat chooses by its rule on its
starting hand (``policy.choose_character``), so a face-down heuristic seat is Nerai, Toyoko or
Shian on almost every hand; a deal drawing its character uniformly makes it a life-3 or life-4
character three times in eight.
"""

from __future__ import annotations

import random
from collections import Counter

from solver.go_out_girl import determinize
from solver.go_out_girl.determinize import ViewInfo, heuristic_char_prior
from solver.go_out_girl.model import KIRA, KYOKO, NERAI, NIWA, SATSUKI, SHIAN, TEN, TOYOKO
from solver.go_out_girl.position import build, parse


def test_the_prior_is_the_heuristic_choice_rule_on_random_hands():
    everyone = list(range(8))
    w = dict(zip(everyone, heuristic_char_prior(everyone), strict=True))
    assert w[NERAI] > 0.5 and w[TOYOKO] > 0.1 and w[SHIAN] > 0.1
    for ch in (NIWA, SATSUKI, TEN, KYOKO, KIRA):
        assert w[ch] < 0.05  # rarely or never chosen: the floor
    assert min(w.values()) >= determinize.PRIOR_FLOOR
    # without Nerai among the options, her share goes to the others
    rest = [ch for ch in everyone if ch != NERAI]
    w2 = dict(zip(rest, heuristic_char_prior(rest), strict=True))
    assert w2[TOYOKO] > w[TOYOKO] and w2[SHIAN] + w2[TOYOKO] + w2[KIRA] > 0.8


def _view():
    seats = [{"hand": ["2", "5", "7", "9", "G"], "character": "niwa"}]
    seats += [{"hand": 6, "damage": 1} for _ in range(3)]
    data = {"format": 1, "game": "go-out-girl", "viewer": 0, "to_move": 0, "seats": seats,
            "field": {"cards": ["10"], "owner": 2}, "deck": 20, "discard": ["3", "3", "4"]}
    return build(parse(data))


def _drawn(info: ViewInfo, seat: int, n: int = 400) -> Counter:
    r = random.Random(5)
    return Counter(info.sample(r).char[seat] for _ in range(n))


def test_heuristic_seats_draw_from_the_prior_random_seats_uniformly(monkeypatch):
    monkeypatch.setattr(determinize, "CHAR_PRIOR", True)
    info = ViewInfo(_view())
    assert info.char_known[1] is None and len(info.char_options[1]) == 8
    uniform = _drawn(info, 1)
    assert uniform[NERAI] < 100  # about 50 of 400
    info.model_characters([0.0, 0.0, 1.0, 0.0])  # seat 2 plays at random
    heur = _drawn(info, 1)
    assert heur[NERAI] > 200 and heur[TEN] + heur[KYOKO] + heur[NIWA] < 30
    assert _drawn(info, 2)[NERAI] < 100  # the random seat still chooses at random
    assert info.char_weights[0] is None  # my own character is known


def test_the_prior_can_be_switched_off(monkeypatch):
    monkeypatch.setattr(determinize, "CHAR_PRIOR", False)
    info = ViewInfo(_view())
    info.model_characters(0.0)
    assert info.char_weights == [None] * 4


def test_weighted_hidden_cards_keep_the_view_and_lean_as_the_heuristic_plays(monkeypatch):
    """With ``DAMAGE_PRIOR`` and ``HAND_PRIOR`` the deal still fits the view card for card (the
    unseen cards fill exactly the unseen slots), but a heuristic seat's face-down damage holds
    low cards and no Guard, and late in the battle its hand holds more Guards than the deck."""
    from .test_gog_hints import position
    monkeypatch.setattr(determinize, "DAMAGE_PRIOR", True)
    monkeypatch.setattr(determinize, "HAND_PRIOR", True)
    full, p = position(3, phase="turn", skip=30)
    view = full.view(p)
    info = ViewInfo(view)
    info.model_characters(0.0)
    dmg_seats = [q for q in range(4) if info.dmg_holes[q]]
    assert dmg_seats and info.stage >= 1
    r = random.Random(1)
    low = high = guards_hand = guards_deck = hand_cards = deck_cards = 0
    for _ in range(200):
        b, dmg = info.sample_with_damage(r)
        seen = empty = 0
        counts = [0] * 14
        for q in range(4):
            for n in range(14):
                counts[n] += b.hands[q][n]
            for n in dmg[q]:
                counts[n] += 1
        for n in b.deck:
            counts[n] += 1
        for n in range(14):
            seen += counts[n] + b.discard[n] + b.field[n]
            empty += counts[n] + b.discard[n] + b.field[n] > (8 if n == 0 else 6)
        assert seen == 86 and not empty
        assert b.size == [len(view.hand(q)) for q in range(4)]
        for q in dmg_seats:
            got = dmg[q][len(dmg[q]) - info.dmg_holes[q]:]
            low += sum(1 for n in got if 1 <= n <= 5)
            high += sum(1 for n in got if n == 0 or n >= 9)
        for q in range(4):
            if q != p:
                guards_hand += b.hands[q][0]
                hand_cards += b.size[q]
        guards_deck += sum(1 for n in b.deck if n == 0)
        deck_cards += len(b.deck)
    assert low > 3 * high
    assert guards_hand / hand_cards > guards_deck / max(1, deck_cards)


def test_the_priors_read_only_the_view(monkeypatch):
    """Two full states with the same view for the seat (other hidden hands, deck order, face-down
    damage and characters) give the same deals and the same advice with every prior on."""
    from solver.go_out_girl.advisor import advise

    from .test_gog_hints import position as game_at
    from .test_gog_hints import swap_hidden
    for flag in ("CHAR_PRIOR", "DAMAGE_PRIOR", "HAND_PRIOR"):
        monkeypatch.setattr(determinize, flag, True)
    rng = random.Random(7)
    for seed, skip in ((3, 30),):
        full, p = game_at(seed, phase="turn", skip=skip)
        other = swap_hidden(full, p, rng)
        v1, v2 = full.view(p), other.view(p)
        assert v1 == v2
        i1, i2 = ViewInfo(v1), ViewInfo(v2)
        i1.model_characters(0.0)
        i2.model_characters(0.0)
        assert [b.as_dict() for b in (i1.sample(random.Random(s)) for s in range(5))] == \
            [b.as_dict() for b in (i2.sample(random.Random(s)) for s in range(5))]
        a1 = advise(v1, v1.legal(p), seed=3, budget=1500)
        a2 = advise(v2, v2.legal(p), seed=3, budget=1500)
        assert a1.to_json() == a2.to_json()
