"""Shian's Reset that leaves only Guards in hand (found while building the solver).

"Then, play a new tableau card from your hand" — a Guard is a card, and "If you play Guard when
there are no tableau cards, you will pass ... and it will be the next player's turn with no
tableau cards." So she may lead with the Guard, which hands the empty field on."""

from __future__ import annotations

from p2pcards.engine import Decide, Decision, LocalDealer
from solver.go_out_girl.position import build, parse


def test_reset_leaving_only_guards_can_still_lead():
    g = build(parse({
        "format": 1, "game": "go-out-girl", "to_move": 0,
        "seats": [{"hand": ["2", "2", "3", "G"], "character": "shian", "revealed": True},
                  {"hand": ["9", "9"], "character": "nerai"},
                  {"hand": ["5", "5"], "character": "ten"}],
        "field": {"cards": ["8"], "owner": 2}, "deck": ["4", "4", "4"]}))
    reset = next(a for a in g.legal(0) if a.kind == "reset")
    g.apply(Decision(0, reset))
    dealer = LocalDealer(0)
    while not isinstance(g.pending(), Decide):
        g.apply(dealer.fulfil(g, g.pending()))
    assert g.phase == "lead"
    # the rulebook: a Guard with no tableau passes, and the next player leads
    assert [a.kind for a in g.legal(0)] == ["guard"]
    g.apply(Decision(0, g.legal(0)[0]))
    while not isinstance(g.pending(), Decide):
        g.apply(dealer.fulfil(g, g.pending()))
    assert g.top is None and g.pending() == Decide(1), "the next player leads on an empty field"
