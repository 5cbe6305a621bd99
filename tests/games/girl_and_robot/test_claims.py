"""Claims about cards that stay hidden are proven the moment they are made (``Prove``).

Each forged claim is the red team's move (round 7b): a seat's own engine would refuse it, so
the cheat skips its own check and sends it signed. Here the full-information engine (tests, the
LocalDealer) takes it unchecked, as a peer's copy does; the proof that follows names the
claimant before the game goes on. The other seats' copies learn only that it was proven; on the
network, a false claim's proof cannot be made (``DeckPeer.prove``)."""

from __future__ import annotations

import pytest

from p2pcards.engine import SPECTATOR, Action, Decision, Prove, Proven, RuleViolation
from p2pcards.games.girl_and_robot.game import DEMON, FACE_DOWN_WEAPONS

from .gar_rig import Table, rig


def forge(t: Table, p: int, action: Action) -> Prove:
    """Seat p sends ``action`` though its own engine refuses it: every other copy takes it (it
    cannot tell), and so does the full state, unchecked. Returns the proof it asks for."""
    with pytest.raises(RuleViolation):
        t.views[p].clone().apply(Decision(p, action))
    t.g.apply(Decision(p, action), trusted=True)
    for q, v in t.views.items():
        if q != p:
            v.apply(Decision(p, action))
    req = t.g.pending()
    assert isinstance(req, Prove) and req.by == p
    for q, v in t.views.items():
        if q != p:
            assert v.pending() == req
    return req


def named_at_the_proof(t: Table, p: int, req: Prove) -> RuleViolation:
    """The full-information engine names seat p when the proof is applied; every other seat's
    copy learns nothing but that it was proven."""
    ev = t.dealer.fulfil(t.g, req)
    assert ev == Proven(req.slots)
    with pytest.raises(RuleViolation) as e:
        t.g.apply(ev)
    assert e.value.player == p
    for q, v in t.views.items():
        if q != p:
            assert all(v.values[s] is None for s in req.slots)
            v.apply(ev)
    return e.value


def test_a_drawn_demon_declared_safe_names_the_drawer_at_the_declaration():
    """"If you draw a Demon card, reveal it to everyone!" The red team's move: the Girl draws a
    Demon and declares it "safe". It is proven at once (the allowed cards: every card but the
    Demons) and the Girl is named before the card is mixed into her hand."""
    g = rig(["girl", "queen"], draw=["*", "demon"])
    t = Table(g)
    t.end(0, windows=False)
    while g.phase in ("ally", "aside"):
        t.act(t.decider(), "pass")
    assert g.phase == "drawn" and t.legal(0) == [Action("demon")]
    demon = g.task["slot"]
    req = forge(t, 0, Action("safe"))
    assert req.slots == (demon,)
    assert set(req.allowed) == {c for c in range(g.n_cards) if g.kind_of(c) != DEMON}
    err = named_at_the_proof(t, 0, req)
    assert "declared the card they drew safe" in err.reason


def test_an_honest_safe_is_proven_and_the_turn_goes_on():
    """"If you draw a Demon card, reveal it to everyone!" A card that is not a Demon is
    declared safe, proven, then mixed into the hand. (A Demon lies hidden in the Queen's hand,
    so the claim is not plain from the public cards.)"""
    g = rig(["girl", "queen"], hands={1: ["demon"]}, draw=["*", "*"])
    t = Table(g)
    t.end(0)  # pass_windows declares the drawn card safe
    assert any(isinstance(r, Prove) and r.by == 0 for r in t.requests)
    assert g.phase == "turn" and g.turn == 1


def test_a_safe_needs_no_proof_when_every_demon_is_face_up_elsewhere():
    """"If you draw a Demon card, reveal it to everyone!" With every Demon out of the game, face
    up, the drawn card is plainly not one: no deck operation is spent on the claim."""
    g = rig(["girl", "queen"], draw=["*", "*"])
    assert all(g.public(s) for s in range(g.n_cards) if g.kind_of(g.values[s]) == DEMON)
    t = Table(g)
    t.end(0)
    assert not any(isinstance(r, Prove) for r in t.requests)
    assert g.phase == "turn" and g.turn == 1


def test_a_card_hidden_as_a_weapon_must_be_a_kings_sword_or_a_pendant():
    """"King's Sword: Once played, place this Weapon face down." "Pendant: Once played, place
    this Weapon face down." Placing any other card face down as a weapon is named at once."""
    g = rig(["girl", "queen"], hands={0: ["steal"]}, draw=["*", "*"])
    t = Table(g)
    steal = t.slot("steal", "hand0")
    req = forge(t, 0, Action("hide", slot=steal))
    assert req.slots == (steal,)
    assert {g.kind_of(c) for c in req.allowed} == set(FACE_DOWN_WEAPONS)
    err = named_at_the_proof(t, 0, req)
    assert "King's Sword or a Pendant" in err.reason


def test_an_honest_face_down_weapon_is_proven():
    """"King's Sword: Once played, place this Weapon face down." """
    g = rig(["girl", "queen"], hands={0: ["kings_sword"]}, weapons={0: []}, draw=["*", "*"])
    t = Table(g)
    king = t.slot("kings_sword", "hand0")
    t.act(0, "hide", slot=king)
    proofs = [r for r in t.requests if isinstance(r, Prove)]
    assert proofs[-1] == Prove((king,), 0, proofs[-1].allowed)
    # the proof published every share of its ciphertext but the holder's (SPEC 5.7): the slot
    # is re-encrypted before any later opening to seats without the holder (test_reencrypt.py)
    assert g.exposed[king] == g.all_mask & ~1
    assert g.zone_of[king] == "weapons0" and not t.knows(1, king) and g.phase == "turn"


def test_lure_saying_no_demon_while_one_lies_face_down_names_the_player():
    """"Lure: Search the Draw Pile for a Demon, shuffle the pile, then place the Demon face up
    under the top 2 cards." The player who says the pile holds no Demon proves that none of its
    face-down cards is one; a Demon among them names the player at once."""
    g = rig(["girl", "queen"], hands={0: ["lure"]}, draw=["*", "demon", "*"])
    t = Table(g)
    t.play(0, "lure")
    t.pass_all()
    assert g.phase == "lure"
    req = forge(t, 0, Action("nodemon"))
    assert set(req.slots) == {s for s in g.zones["draw"] if s not in g.faceup}
    err = named_at_the_proof(t, 0, req)
    assert "holds no Demon" in err.reason


def test_lure_with_no_demon_in_the_pile_is_proven():
    """"Lure: Search the Draw Pile for a Demon, shuffle the pile..." """
    g = rig(["girl", "queen"], hands={0: ["lure"], 1: ["demon"]}, draw=["*", "*", "*"])
    t = Table(g)
    t.play(0, "lure")
    t.pass_all()
    t.act(0, "nodemon")
    assert any(isinstance(r, Prove) and r.by == 0 for r in t.requests)
    assert g.phase == "turn"


def test_lure_saying_no_demon_beside_a_face_up_demon_is_refused_by_every_copy():
    """"Lure: Search the Draw Pile for a Demon..." A face-up Demon in the pile is public: any
    copy refuses "no Demon", with no proof needed."""
    g = rig(["girl", "queen"], hands={0: ["lure"]}, draw=["*", "demon", "*"], faceup=[1])
    t = Table(g)
    t.play(0, "lure")
    t.pass_all()
    for q in (1, SPECTATOR):
        with pytest.raises(RuleViolation) as e:
            t.views[q].clone().apply(Decision(0, Action("nodemon")))
        assert e.value.player == 0


def test_a_weapon_shown_to_the_ally_and_then_placed_face_down_stays_hidden_from_the_queen():
    """"Allies ... can talk and show their cards to each other during the game." "King's Sword:
    Once played, place this Weapon face down." Showing the card to the Robot publishes the
    Girl's and the Queen's decryption shares of its ciphertext; the face-down claim publishes
    every share but the Girl's: together, every share, and the Queen (or anyone holding the
    record) read the card (red team 8). The Girl now re-encrypts the slot between the two,
    and the Robot, who was shown the card, still knows it."""
    from p2pcards.engine import Shuffle

    g = rig(["girl", "robot", "queen"], hands={0: ["kings_sword"]}, weapons={0: []},
            draw=["*", "*"])
    t = Table(g)
    king = t.slot("kings_sword", "hand0")
    t.act(0, "show", slots=[king])
    assert t.knows(1, king) and not t.knows(2, king)
    t.act(0, "hide", slot=king)
    proof = next(i for i, r in enumerate(t.requests) if isinstance(r, Prove))
    assert t.requests[proof - 1] == Shuffle((king,), 0, mix=True)
    assert g.zone_of[king] == "weapons0" and t.knows(1, king) and not t.knows(2, king)
