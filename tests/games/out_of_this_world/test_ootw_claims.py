"""The hidden claim of Out Of This World, "my dealt hand holds no Foe", is proven when it is
made; and a Foe shown out of a hand names its holder.

The forged declaration is the red team's move (round 7b): a seat dealt a Foe declares none. Its
own engine would refuse it, so the cheat skips its own check and sends it signed. The
full-information engine takes it unchecked, as a peer's copy does; the proof that follows names
the declarer before the game goes on."""

from __future__ import annotations

import pytest

from p2pcards.engine import Decision, Prove, Proven, RuleViolation

from .ootw_helpers import A, at_turn, dealt, decider, keys, rig, run, start


def test_declaring_no_foe_while_holding_one_names_the_declarer_at_the_declaration():
    """"If any of your cards are Foes, you must immediately place them face-up next to your
    player board and draw more cards until you have 2 Item cards in your hand."
    The red team's move: dealt the Slime Blob, the seat declares no Foe. The
    declaration is proven at once (every card in the hand is not a Foe): the full-information
    engine names the seat; a peer's copy learns only that a proof was asked for."""
    g, d, p = dealt(["slime_blob", "yo_yo"] + ["kazoo"] * 3 + ["dice"] * 3)
    assert keys(g, g.hand(p)) == ["slime_blob", "yo_yo"]
    lie = A("foes", slots=[])
    with pytest.raises(RuleViolation):
        g.clone().apply(Decision(p, lie))  # its own engine refuses it
    peer = g.view((p + 1) % 4)
    peer.apply(Decision(p, lie))  # a peer cannot tell
    g.apply(Decision(p, lie), trusted=True)
    req = g.pending()
    assert req == Prove(tuple(sorted(g.hand(p))), p, tuple(g.not_foes()))
    assert peer.pending() == req
    assert all(not g.cdef(c).is_foe for c in req.allowed)
    with pytest.raises(RuleViolation) as e:
        g.apply(d.fulfil(g, req))
    assert e.value.player == p and "declared no (more) Foes" in e.value.reason
    peer.apply(Proven(req.slots))
    assert all(peer.values[s] is None for s in req.slots)


def test_an_honest_declaration_of_no_foe_is_proven_and_the_next_seat_declares():
    """"If any of your cards are Foes, you must immediately place them face-up next to your
    player board and draw more cards until you have 2 Item cards in your hand." An honest seat declares none and proves it."""
    g, d, p = dealt(["wrench", "yo_yo"] + ["kazoo"] * 3 + ["dice"] * 3)
    g.apply(Decision(p, A("foes", slots=[])))
    assert isinstance(g.pending(), Prove)
    run(g, d)
    assert decider(g) == (p + 1) % 4 and g.step == "declare"


def test_declaring_one_foe_of_two_is_caught_at_the_last_declaration():
    """"If any of your cards are Foes, you must immediately place them face-up next to your
    player board and draw more cards until you have 2 Item cards in your hand."
    A seat dealt two Foes lays out one, draws again, and then declares none: the
    proof covers its whole hand, so the kept Foe names it."""
    g, d, p = dealt(["slime_blob", "alley_cat"] + ["yo_yo", "wrench"] + ["kazoo"] * 3 + ["dice"] * 3)
    blob = next(s for s in g.hand(p) if g.cdef(g.values[s]).key == "slime_blob")
    g.apply(Decision(p, A("foes", slots=[blob])), trusted=True)
    run(g, d)
    assert any(g.cdef(g.values[s]).is_foe for s in g.hand(p))
    g.apply(Decision(p, A("foes", slots=[])), trusted=True)
    with pytest.raises(RuleViolation) as e:
        run(g, d)
    assert e.value.player == p


@pytest.mark.parametrize("how", ["discard", "leg_it"])
def test_a_foe_shown_out_of_a_hand_names_its_holder(how):
    """"If any of your cards are Foes, you must immediately place them face-up next to your
    player board and draw more cards until you have 2 Item cards in your hand."
    A Foe never enters a hand honestly, so one shown out of a hand (here discarded,
    or thrown away with Leg it!) was kept there: every copy names the holder when it is shown.
    The red team saw a hidden Foe discarded face up and nobody noticed."""
    g, d = start(4, seed=1)
    rig(g, hands={1: ["slime_blob", "kazoo", "kazoo", "kazoo", "dice", "dice"]},
        stacks=[["wrench"], [], [], [], []])
    at_turn(g, 1)
    foe = next(s for s in g.hand(1) if g.cdef(g.values[s]).is_foe)
    if how == "leg_it":
        action = A("leg_it")
    else:  # straight to the discard down to the hand limit (5) in Taking Care of Things
        g.req = g.then = None
        g.phase, g.step, g.queue = "care", "discard", [1]
        g.decide(1)
        action = A("discard", slot=foe)
    peer = g.view(2)
    g.apply(Decision(1, action), trusted=True)
    peer.apply(Decision(1, action))
    req = g.pending()
    ev = d.fulfil(g, req)
    for copy in (g, peer):
        with pytest.raises(RuleViolation) as e:
            copy.clone().apply(ev)
        assert e.value.player == 1 and "kept the Foe" in e.value.reason
