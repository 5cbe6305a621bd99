"""Gear Up! and Go For It!: the stacks, taking a card, Leg it!, and the actions Pass, Equip,
Defeat and Spend. Each test quotes the rule it checks."""

from __future__ import annotations

import pytest

from p2pcards.engine import Decision, LocalDealer, Reveal, RuleViolation, project

from .ootw_helpers import (
    A,
    RiggedDealer,
    act,
    at_turn,
    decider,
    find,
    keys,
    rig,
    run,
    slot,
    start,
    take,
)


def test_gear_up_deals_five_stacks_of_four_with_the_tops_open():
    """"deal 5 stacks of 4 face-down cards each ... Then flip all of those stacks, leaving all
    the cards visible on top." """
    g, _ = start(4, seed=11)
    for i in range(5):
        z = g.stack(i)
        assert len(z) == 4
        assert g.known[z[-1]] == g.all_mask
        assert all(g.known[s] == 0 for s in z[:-1])
        for p in range(4):
            v = g.view(p)
            assert v.values[z[-1]] is not None and all(v.values[s] is None for s in z[:-1])


def test_turns_go_clockwise_from_the_vocal_player_and_the_token_moves_left():
    """"Starting with the Vocal Player, you will take turns (going clockwise around the table)
    ... When you finish your turn, pass the Vocal Player token to the player on your left." """
    g, d = start(4, seed=4)
    first = g.vocal
    assert decider(g) == first and g.turn == first
    for k in range(1, 6):
        p = decider(g)
        act(g, p, g.legal(p)[0], d)  # take the first card allowed
        if g.step == "action":
            act(g, p, A("done"), d)
        assert g.vocal == g.turn == (first + k) % 4 == decider(g)


def test_a_visible_foe_must_be_taken_and_goes_in_front_of_the_taker():
    """"If there are any Foes visible on the stacks, you must take one of them and place it to
    the right of your Character card." """
    g, d = start(4, seed=1)
    rig(g, hands={0: ["yo_yo"]}, stacks=[["kazoo", "dice"], ["rusty_robot"], ["wrench"], [], []])
    at_turn(g, 0)
    assert g.legal(0) == [A("take", stack=1), A("leg_it")]
    with pytest.raises(RuleViolation):
        act(g, 0, A("take", stack=0), d)
    take(g, 0, "rusty_robot", d)
    assert keys(g, g.foes(0)) == ["rusty_robot"] and keys(g, g.hand(0)) == ["yo_yo"]


def test_an_item_goes_to_the_hand_and_the_new_top_is_turned_face_up():
    """"If you take an item card, put it into your hand." and each stack's new top card is
    turned face up for everyone."""
    g, d = start(4, seed=1)
    rig(g, stacks=[["kazoo", "dice"], ["wrench"], [], [], []])
    at_turn(g, 0)
    assert g.legal(0) == [A("take", stack=0), A("take", stack=1), A("leg_it")]
    kazoo = g.stack(0)[0]
    assert g.known[kazoo] == 0
    g.apply(Decision(0, A("take", stack=0)))
    assert g.pending() == Reveal((kazoo,), (0, 1, 2, 3))
    run(g, d)
    assert keys(g, g.hand(0)) == ["dice"] and g.known[kazoo] == g.all_mask
    assert g.step == "action"


def test_no_hand_limit_during_go_for_it():
    """"There is no hand limit during this phase of the game." """
    g, d = start(3, seed=1)
    rig(g, hands={0: ["yo_yo", "kazoo", "dice", "wrench", "crowbar", "keytar"]},
        stacks=[["bike_lock"], ["joystick"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "bike_lock", d)
    assert len(g.hand(0)) == 7 and g.step == "action"


def test_leg_it_discards_the_whole_hand_instead_of_the_turn():
    """"you can Leg It! and forgo your whole turn by discarding your entire hand of cards ...
    running away does not remove any Foes from the draw piles" """
    g, d = start(4, seed=1)
    rig(g, hands={0: ["yo_yo", "kazoo"]}, stacks=[["slime_blob"], ["wrench"], [], [], []])
    at_turn(g, 0)
    hand = list(g.hand(0))
    act(g, 0, A("leg_it"), d)
    assert g.hand(0) == [] and sorted(g.zones["discard"]) == sorted(hand)
    assert all(g.known[s] == g.all_mask for s in hand)  # the discard pile is face up
    assert keys(g, [g.stack(0)[-1]]) == ["slime_blob"] and g.foes(0) == []
    assert decider(g) == 1 and g.step == "take"


def test_leg_it_with_an_empty_hand_and_the_full_lap_house_rule():
    """"You can even run away if you don't have any cards in your hand." House rule: once
    every player in turn has legged it, the next player must take a card."""
    g, d = start(3, seed=1)
    rig(g, stacks=[["slime_blob"], [], [], [], []])
    at_turn(g, 0)
    for p in (0, 1, 2):
        assert A("leg_it") in g.legal(p)
        act(g, p, A("leg_it"), d)
    assert decider(g) == 0 and g.legal(0) == [A("take", stack=0)]


def test_pass_same_type_gives_the_lower_card_to_any_other_player():
    """"If both cards are the same type, you may give the lower-valued card to any other player
    of your choice. ... The card you pass goes into the receiving player's hand. The other
    card is discarded." """
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["yo_yo", "holy_water_pistol"]}, stacks=[["kazoo"], ["dice"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    yo, hwp = slot(g, "yo_yo", "hand0"), slot(g, "holy_water_pistol", "hand0")
    passes = [a for a in g.legal(0) if a.kind == "pass" and set(a.slots) == {yo, hwp}]
    assert {(a.give, a.to) for a in passes} == {(yo, 1), (yo, 2), (yo, 3)}
    with pytest.raises(RuleViolation):
        act(g, 0, A("pass", slots=sorted([yo, hwp]), give=hwp, to=2), d)
    act(g, 0, A("pass", slots=sorted([yo, hwp]), give=yo, to=2), d)
    assert keys(g, g.hand(2)) == ["yo_yo"] and keys(g, g.zones["discard"]) == ["holy_water_pistol"]
    assert g.known[yo] == g.all_mask  # the set was played openly
    assert decider(g) == 1  # one action, then the turn ends


def test_pass_same_value_lets_the_player_choose_the_card():
    """"If both cards have the same value, you choose which one to hand over." """
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["toy_soldiers", "spray_paints"]}, stacks=[["kazoo"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    ts, sp = slot(g, "toy_soldiers", "hand0"), slot(g, "spray_paints", "hand0")
    gives = {a.give for a in g.legal(0) if a.kind == "pass" and set(a.slots) == {ts, sp}}
    assert gives == {ts, sp}
    act(g, 0, A("pass", slots=sorted([ts, sp]), give=sp, to=3), d)
    assert keys(g, g.hand(3)) == ["spray_paints"]


def test_pass_needs_same_value_or_type_and_a_cheat_is_named_at_the_reveal():
    """"you must play 2 Item cards from your hand that have the same value or the same type."
    A peer cannot see the cards before they are played; the reveal to all exposes a cheat."""
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["yo_yo", "keytar"]}, stacks=[["kazoo"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    yo, kt = slot(g, "yo_yo", "hand0"), slot(g, "keytar", "hand0")
    cheat = A("pass", slots=sorted([yo, kt]), give=yo, to=1)
    assert cheat not in g.legal(0)
    with pytest.raises(RuleViolation):
        g.validate(0, cheat)
    peer = g.view(1)
    peer.apply(Decision(0, cheat))  # the peer's copy cannot tell yet
    before = g.clone()
    g.apply(Decision(0, cheat), trusted=True)
    req = g.pending()
    ev = d.fulfil(g, req)
    with pytest.raises(RuleViolation) as exc:
        peer.apply(project(ev, req, before, 1))
    assert exc.value.player == 0


def test_wild_items_count_as_any_type_in_sets():
    """"The four cards with star icons are wild cards. They may be played in sets as if they
    were any colour." """
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["yo_yo", "walkie_talkie", "crowbar"]}, stacks=[["dice"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "dice", d)
    yo, wt, cb, dc = (slot(g, k, "hand0") for k in ("yo_yo", "walkie_talkie", "crowbar", "dice"))
    legal = g.legal(0)
    assert find(legal, "pass", slots=tuple(sorted([yo, wt])), give=yo)  # Toy 3 + wild 5
    assert find(legal, "pass", slots=tuple(sorted([wt, cb])), give=wt)  # wild 5 + Hardware 7
    assert not [a for a in legal if a.kind == "pass" and set(a.slots) == {yo, cb}]
    assert not [a for a in legal if a.kind == "equip" and set(a.slots) == {yo, cb, dc}]


def test_equip_three_cards_equips_the_lowest():
    """"In order to equip an Item card, you must play 3 Item cards from your hand that have the
    same value or the same type. This allows you to equip the lowest-valued card in the set."
    "The other two cards are discarded." """
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["dice", "joystick", "home_console", "kazoo"]}, stacks=[["wrench"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "wrench", d)
    dc, js, hc = (slot(g, k, "hand0") for k in ("dice", "joystick", "home_console"))
    trio = tuple(sorted([dc, js, hc]))
    assert [a.keep for a in g.legal(0) if a.kind == "equip" and a.slots == trio] == [dc]
    with pytest.raises(RuleViolation):
        act(g, 0, A("equip", slots=list(trio), keep=hc), d)
    act(g, 0, A("equip", slots=list(trio), keep=dc), d)
    assert keys(g, g.equipped(0)) == ["dice"] and g.points(0) == 3
    assert keys(g, g.zones["discard"]) == ["home_console", "joystick"]


def test_equip_ties_for_lowest_let_the_player_choose():
    """"If multiple cards share the lowest value, you may choose which one to equip." """
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["mixtape", "wrench", "arcade_tokens"]}, stacks=[["kazoo"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    equips = [a for a in g.legal(0) if a.kind == "equip"]
    assert len(equips) == 3 and len({a.keep for a in equips}) == 3
    act(g, 0, find(equips, "equip", keep=slot(g, "wrench", "hand0")), d)
    assert keys(g, g.equipped(0)) == ["wrench"]


def test_equivalent_cards_are_accepted_for_the_canonical_ones():
    """Legal lists name one card of each kind; playing an identical copy is the same action."""
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["kazoo", "kazoo", "kazoo"]}, stacks=[["dice"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "dice", d)
    a, b, c = sorted(s for s in g.hand(0) if g.cdef(g.values[s]).key == "kazoo")
    act(g, 0, A("equip", slots=[c, b, a], keep=c), d)
    assert g.equipped(0) == [c]


def test_defeat_own_foe_with_its_set():
    """"You can defeat a Foe and remove it from play by playing the specific set of item cards
    from your hand listed on that Foe. ... The Item cards you play to defeat a Foe are
    discarded, along with the Foe itself." """
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["duct_tape", "yo_yo"]}, foes={0: ["mall_phantom"], 1: ["slime_blob"]},
        stacks=[["kazoo"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    defeats = [a for a in g.legal(0) if a.kind == "defeat"]
    mp = slot(g, "mall_phantom", "foes0")
    assert {a.foe for a in defeats} == {mp}  # "You can only defeat your own Foes"
    assert keys(g, find(defeats, "defeat", foe=mp).slots) == ["duct_tape", "yo_yo"]
    with pytest.raises(RuleViolation, match="own Foes"):
        act(g, 0, A("defeat", foe=slot(g, "slime_blob", "foes1"),
                    slots=sorted([slot(g, "kazoo", "hand0"), slot(g, "yo_yo", "hand0")])), d)
    act(g, 0, find(defeats, "defeat", foe=mp), d)
    assert g.foes(0) == [] and keys(g, g.zones["discard"])[:3] == ["duct_tape", "mall_phantom", "yo_yo"]
    assert g.defeated == {"mall_phantom": 1}


def test_defeat_needs_exactly_the_vulnerability():
    """The set must match the Foe's vulnerability; wilds stand in for any type."""
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["kazoo", "skateboard", "dice"]}, foes={0: ["garage_golem"]},
        stacks=[["harmonica"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "harmonica", d)
    gg = slot(g, "garage_golem", "foes0")
    sets = {tuple(keys(g, a.slots)) for a in g.legal(0) if a.kind == "defeat" and a.foe == gg}
    # Hardware + Music: the wild Skateboard is the Hardware, with a Music card
    assert sets == {("harmonica", "skateboard"), ("kazoo", "skateboard")}


def test_monster_hunter_defeats_other_players_foes():
    """"You can only defeat your own Foes (though note that Malala and Bart have Character
    Abilities that specifically allow them to defeat other players' Foes)." """
    g, d = start(4, seed=1, chars=["malala_bart", "zoe_zack", "rita_rick", "nina_ned"])
    rig(g, hands={0: ["kazoo", "dice"]}, foes={2: ["slime_blob"]}, stacks=[["wrench"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "wrench", d)
    blob = slot(g, "slime_blob", "foes2")
    a = find(g.legal(0), "defeat", foe=blob)
    act(g, 0, a, d)
    assert g.foes(2) == [] and g.zone_of[blob] == "discard"


def test_spend_an_equipped_items_ability_once_and_it_still_counts():
    """"These abilities can be used once during the game as long as the card has been
    previously equipped by one of the players. ... It still contributes points towards winning
    the game (it is still equipped), but its ability can not be used again." """
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, equipped={0: ["walkman"]}, stacks=[["kazoo"], ["dice"], ["wrench"], [], []], time=5)
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    wm = slot(g, "walkman", "equip0")
    spend = A("spend", item=wm)
    assert spend in g.legal(0)
    act(g, 0, spend, d)
    assert g.time == 6 and g.spent == [wm] and g.points(0) == 8
    at_turn(g, 0)
    take(g, 0, "dice", d)
    assert spend not in g.legal(0)


def test_a_spend_needs_a_target():
    """House rule: a Spend needs a target — the Walkman cannot bring back a Time token that was
    never lost, the Boombox needs one of your (non-Difficult) Foes."""
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, equipped={0: ["walkman", "boombox"]}, foes={0: ["vampire_babysitter"], 2: ["slime_blob"]},
        stacks=[["kazoo"], ["dice"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    assert not [a for a in g.legal(0) if a.kind == "spend"]
    g.time = 7
    assert [a for a in g.legal(0) if a.kind == "spend"] == [A("spend", item=slot(g, "walkman", "equip0"))]


def test_slingshot_gives_the_whole_hand_away_one_card_at_a_time():
    """Slingshot: "SPEND: Give all your hand cards to other players." The receivers see their
    cards; nobody else does."""
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["kazoo", "dice"]}, equipped={0: ["slingshot"]},
        stacks=[["wrench"], ["crowbar"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "wrench", d)
    act(g, 0, A("spend", item=slot(g, "slingshot", "equip0")), d)
    assert g.step == "give" and decider(g) == 0
    for to in (1, 2, 3):
        a = g.legal(0)[0]
        a = A("give", slot=a.slot, to=to)
        act(g, 0, a, d)
        s = a.slot
        assert g.zone_of[s] == f"hand{to}"
        assert g.knows(to, s) and g.knows(0, s)
        if g.cdef(g.values[s]).key != "wrench":  # the taken card was public already
            assert not any(g.knows(q, s) for q in range(4) if q not in (0, to))
    assert g.hand(0) == [] and decider(g) == 1


def test_one_action_per_turn_then_the_turn_ends():
    """"first you MUST take 1 card, then you MAY take 1 action." """
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["kazoo", "kazoo", "kazoo", "dice", "dice"]}, stacks=[["dice"], ["yo_yo"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "dice", d)
    assert g.legal(0)[-1] == A("done")
    act(g, 0, next(a for a in g.legal(0) if a.kind == "equip"), d)
    assert decider(g) == 1 and g.step == "take"


def test_stacks_empty_at_the_end_of_a_turn_ends_go_for_it():
    """"If, at the end of any players turn, all 5 stacks are empty, the Go For It! phase
    ends" """
    g, d = start(4, seed=1)
    rig(g, stacks=[["kazoo"], [], [], [], []], deck=[])
    at_turn(g, 2)
    take(g, 2, "kazoo", d)
    act(g, 2, A("done"), d)
    assert g.round == 2 and g.phase == "go"  # Taking Care of Things ran and a new round began


def test_views_compute_the_same_legal_actions():
    """A seat's own copy computes its legal actions from what it knows, and they equal the
    full-information engine's."""
    g, d = start(4, seed=8, chars=["malala_bart", "zoe_zack", "rita_rick", "nina_ned"])
    rig(g, hands={0: ["kazoo", "dice", "walkie_talkie", "keytar", "board_game"]},
        foes={0: ["slime_blob"], 2: ["static_ghost"]}, equipped={3: ["boombox"]},
        stacks=[["wrench"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "wrench", d)
    mine = g.view(0)
    assert mine.legal(0) == g.legal(0)
    assert len(mine.legal(0)) > 20
    assert g.view(1).legal(0) == []  # another seat cannot list them


def test_sneaky_takes_an_item_past_a_foe_once_a_round():
    """House character Sneaky: "Once per round, you may take an Item from the stacks even while
    a Foe is visible." """
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, stacks=[["slime_blob"], ["kazoo"], ["dice"], [], []])
    at_turn(g, 0)
    assert A("take", stack=1, sneak=True) in g.legal(0)
    act(g, 0, A("take", stack=1, sneak=True), d)
    act(g, 0, A("done"), d)
    at_turn(g, 0)
    assert g.legal(0) == [A("take", stack=0), A("leg_it")]


def test_the_dealer_can_rig_stacks():
    """(helper check) a rigged shuffle puts chosen cards on top of the deck."""
    d = RiggedDealer(0, tops=[["rc_car", "keytar"]])
    g, _ = start(3, dealer=d, seed=0)
    assert isinstance(d, LocalDealer)
    first = g.vocal
    assert keys(g, g.hand(first)) == ["keytar", "rc_car"]
