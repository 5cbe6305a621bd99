"""``Shuffle(slots, by=holder, mix=True)``: a hand mixed by its holder (issue 11 item 5)."""

from __future__ import annotations

import pytest

from p2pcards.engine import (
    LocalDealer,
    Shuffle,
    Shuffled,
    join_names,
    project,
    request_from_json,
    request_to_json,
)
from p2pcards.games.go_out_girl.game import Game


def test_shuffle_mix_json_round_trip():
    for req in (Shuffle((3, 1, 2), 1, mix=True), Shuffle((4, 5), 0), Shuffle((7, 8))):
        assert request_from_json(request_to_json(req)) == req
    assert request_to_json(Shuffle((1, 2), 0, mix=True))["mix"] is True
    assert request_from_json({"type": "shuffle", "slots": [1, 2], "by": 0}).mix is False
    with pytest.raises(ValueError, match="malformed request"):
        request_from_json({"type": "shuffle", "slots": [1], "by": 0, "mix": "yes"})


def _hand_state():
    s = Game.new(3)
    # a hand of three cards, one of which (slot 2) every seat knows: a gift everyone saw
    for slot in (0, 1, 2):
        s.place(slot, "hand1")
    s.known[0] = s.known[1] = 1 << 1
    s.known[2] = s.all_mask
    s.req = None
    s.request(Shuffle((0, 1, 2), 1, mix=True), "mixed_for_test")
    s._after_mixed_for_test = lambda: None  # the continuation of this bare test request
    return s


def test_mix_is_picked_by_the_dealer_without_asking_the_holder():
    s = _hand_state()
    req = s.pending()
    assert req == Shuffle((0, 1, 2), 1, mix=True)
    asked = []

    def arrange(by, slots):
        asked.append(by)
        return list(slots)

    orders = set()
    dealer = LocalDealer(5)
    for _ in range(30):
        ev = dealer.fulfil(s, req, arrange)
        orders.add(ev.values)
    assert not asked, "a mix asks nobody"
    assert len(orders) > 1, "the order is random (from the dealer's seeded RNG)"
    assert all(sorted(o) == [0, 1, 2] for o in orders)


def test_mix_leaves_only_the_holder_knowing():
    s = _hand_state()
    req = s.pending()
    before = s.clone()
    views = {p: s.view(p) for p in range(3)}
    ev = LocalDealer(1).fulfil(s, req)
    s.apply(ev)
    for p, v in views.items():
        v._after_mixed_for_test = lambda: None
        out = project(ev, req, before, p)
        assert (out.values is not None) == (p == 1)
        v.apply(out)
        assert v == s.view(p)
    assert [s.known[x] for x in (0, 1, 2)] == [1 << 1] * 3, "the gift can no longer be followed"
    assert views[0].values[:3] == [None] * 3 and views[1].values[:3] == s.values[:3]
    assert isinstance(ev, Shuffled)


def test_a_mix_needs_its_holder():
    s = Game.new(3)
    s.req = None
    with pytest.raises(AssertionError):
        s.request(Shuffle((0, 1), None, mix=True))


def test_join_names():
    assert join_names([]) == "" and join_names(["A"]) == "A"
    assert join_names(["A", "B"]) == "A and B"
    assert join_names(["Player", "Bot 1", "Bot 2"]) == "Player, Bot 1 and Bot 2"
