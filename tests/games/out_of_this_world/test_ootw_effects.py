"""Foes' effects, Items' abilities and the adventures' special rules, as the engine interprets
the card data's effect vocabulary. Each test quotes the card or rule it checks."""

from __future__ import annotations

import pytest

from p2pcards.engine import Decision, Random, RuleViolation

from .ootw_helpers import A, act, at_turn, decider, find, keys, rig, run, slot, start, take

CHARS = ["penny_percy", "zoe_zack", "rita_rick", "nina_ned"]


def test_escaped_equipment_roams_left_at_the_end_of_its_owners_turn():
    """Escaped Equipment: "ROAMING: At end of turn, move this Foe to the player on your left." """
    g, d = start(4, seed=1, chars=CHARS, adventure="hit-the-books")
    rig(g, foes={1: ["escaped_equipment"]}, stacks=[["kazoo"], ["dice"], ["wrench"], [], []])
    ee = slot(g, "escaped_equipment", "foes1")
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    act(g, 0, A("done"), d)
    assert g.zone_of[ee] == "foes1"  # not at the end of someone else's turn
    take(g, 1, "dice", d)
    act(g, 1, A("done"), d)
    assert g.zone_of[ee] == "foes2"
    act(g, 2, A("leg_it"), d)  # legging it is still a turn: it roams on
    assert g.zone_of[ee] == "foes3"


def test_escaped_equipment_set_twice_removes_it_from_the_game():
    """Escaped Equipment: "When defeating this Foe, you may play its set twice to remove it from
    the game." (its set: "any one Toy card, one Gaming card plus one other card")"""
    g, d = start(4, seed=1, chars=CHARS, adventure="hit-the-books")
    rig(g, hands={0: ["yo_yo", "dice", "kazoo", "toy_soldiers", "trading_cards"]},
        foes={0: ["escaped_equipment"]}, stacks=[["harmonica"], ["wrench"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "harmonica", d)
    ee = slot(g, "escaped_equipment", "foes0")
    once = [a for a in g.legal(0) if a.kind == "defeat" and not a.get("twice")]
    twice = [a for a in g.legal(0) if a.kind == "defeat" and a.get("twice")]
    assert once and twice and all(len(a.slots) == 6 for a in twice)
    assert all(len(a.slots) == 3 for a in once)
    act(g, 0, twice[0], d)
    assert g.zone_of[ee] == "removed" and g.defeated == {"escaped_equipment": 1}


def test_set_twice_only_for_foes_that_say_so():
    """Only a Foe whose card says so may be played twice."""
    g, d = start(4, seed=1, chars=CHARS)
    rig(g, hands={0: ["kazoo", "dice", "wrench", "yo_yo"]}, foes={0: ["slime_blob"]},
        stacks=[["keytar"], ["duct_tape"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "keytar", d)
    blob = slot(g, "slime_blob", "foes0")
    assert not [a for a in g.legal(0) if a.get("twice")]
    hand = sorted(g.hand(0))[:4]
    with pytest.raises(RuleViolation, match="twice"):
        act(g, 0, A("defeat", foe=blob, slots=hand, twice=True), d)


def test_school_keys_remove_one_of_your_escaped_equipment():
    """School keys: "SPEND: Remove one of your "Escaped Equipment" Foes from the game." and
    Hit the Books starts with a chosen player's School keys equipped."""
    g, d = start(4, seed=1, chars=CHARS, adventure="hit-the-books", starter=0)
    assert keys(g, g.equipped(0)) == ["school_keys"]
    rig(g, equipped={0: ["school_keys"]}, foes={0: ["escaped_equipment", "slime_blob"],
                                                1: ["escaped_equipment"]},
        stacks=[["kazoo"], ["wrench"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    keys_slot = slot(g, "school_keys", "equip0")
    spends = [a for a in g.legal(0) if a.kind == "spend"]
    mine = slot(g, "escaped_equipment", "foes0")
    assert spends == [A("spend", item=keys_slot, foe=mine)]  # only one of *your* Escaped Equipment
    act(g, 0, spends[0], d)
    assert g.zone_of[mine] == "removed" and keys_slot in g.spent


def test_possessed_doll_discards_a_random_card_when_taken():
    """Possessed Doll (house): "When taken: discard a random card from your hand." The card is
    picked by joint randomness and shown to all."""
    g, d = start(4, seed=1, chars=CHARS)
    rig(g, hands={0: ["kazoo", "dice", "wrench"]}, stacks=[["possessed_doll"], ["crowbar"], [], [], []])
    at_turn(g, 0)
    g.apply(Decision(0, A("take", stack=0)))
    assert g.pending() == Random(3)
    run(g, d)
    assert len(g.hand(0)) == 2 and len(g.zones["discard"]) == 1
    assert g.known[g.zones["discard"][0]] == g.all_mask and g.step == "action"


def test_creepy_clown_makes_the_player_on_the_left_discard():
    """Creepy Clown (house): "When taken: the player on your left discards a random card." """
    g, d = start(4, seed=1, chars=CHARS)
    rig(g, hands={2: ["kazoo"], 1: ["dice"]}, stacks=[["creepy_clown"], ["crowbar"], [], [], []])
    at_turn(g, 1)
    take(g, 1, "creepy_clown", d)
    assert g.hand(2) == [] and keys(g, g.hand(1)) == ["dice"]


def test_pinball_wizard_takes_the_action_away():
    """Pinball Wizard (house): "When taken: you take no action this turn." """
    g, d = start(4, seed=1, chars=CHARS)
    rig(g, hands={0: ["kazoo"] * 3}, stacks=[["pinball_wizard"], ["crowbar"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "pinball_wizard", d)
    assert decider(g) == 1 and g.step == "take"


def test_while_in_play_restrictions():
    """Haunted Jukebox: "you cannot Pass"; Vampire Babysitter: "you cannot Equip"; Glitch
    Gremlin: "you cannot Spend"; Garage Golem: "you cannot Leg it!" (house)"""
    g, d = start(4, seed=1, chars=CHARS)
    rig(g, hands={0: ["kazoo", "kazoo", "kazoo", "harmonica"]},
        foes={0: ["haunted_jukebox", "vampire_babysitter", "glitch_gremlin", "garage_golem"]},
        equipped={0: ["walkman"]}, stacks=[["mixtape"], ["crowbar"], [], [], []], time=4)
    at_turn(g, 0)
    assert A("leg_it") not in g.legal(0)
    take(g, 0, "mixtape", d)
    kinds = {a.kind for a in g.legal(0)}
    assert kinds == {"defeat", "done"}
    kz = sorted(g.hand(0))[:2]
    with pytest.raises(RuleViolation, match="Pass"):
        act(g, 0, A("pass", slots=kz, give=kz[0], to=1), d)
    with pytest.raises(RuleViolation, match="Spend"):
        act(g, 0, A("spend", item=slot(g, "walkman", "equip0")), d)


def test_static_ghost_lowers_the_hand_limit():
    """Static Ghost (house): "While in front of you: discard down to 3 cards instead of 5." """
    g, d = start(4, seed=1, chars=CHARS)
    rig(g, hands={1: ["kazoo", "dice", "wrench", "yo_yo"]}, foes={1: ["static_ghost"]},
        stacks=[["crowbar"], [], [], [], []])
    assert g.hand_limit(1) == 3
    at_turn(g, 0)
    take(g, 0, "crowbar", d)
    act(g, 0, A("done"), d)
    assert g.step == "discard" and decider(g) == 1


def test_mutant_mascot_counts_as_two_foes():
    """Mutant Mascot (house): "Counts as 2 Foes when Time tokens are lost." """
    g, d = start(4, seed=1, chars=CHARS)
    rig(g, foes={1: ["mutant_mascot"], 2: ["slime_blob", "alley_cat"]}, stacks=[["crowbar"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "crowbar", d)
    act(g, 0, A("done"), d)
    assert g.time == 6


def test_end_of_round_effects():
    """Rusty Robot (house): "In Taking Care of Things (if you have not won): discard a random
    card from your hand." """
    g, d = start(4, seed=1, chars=CHARS)
    rig(g, hands={2: ["kazoo", "dice"]}, foes={2: ["rusty_robot"]}, stacks=[["crowbar"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "crowbar", d)
    act(g, 0, A("done"), d)
    assert len(g.hand(2)) == 1 and g.round == 2


def test_mall_phantom_on_defeat_hits_the_left_player():
    """Mall Phantom (house): "When defeated: the player on your left discards a random card." """
    g, d = start(4, seed=1, chars=CHARS)
    rig(g, hands={0: ["wrench", "yo_yo"], 1: ["kazoo"]}, foes={0: ["mall_phantom"]},
        stacks=[["crowbar"], ["dice"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "crowbar", d)
    act(g, 0, find(g.legal(0), "defeat"), d)
    assert g.hand(1) == [] and keys(g, g.hand(0)) == ["crowbar"]


def test_tinkerer_equips_any_card_and_smooth_talker_passes_any():
    """House characters: Tinkerer "may equip any card of the set, not only the lowest"; Smooth
    Talker chooses "which card of the pair to hand over, even if they only share a type"."""
    g, d = start(4, seed=1, chars=["zoe_zack", "rita_rick", "penny_percy", "nina_ned"])
    rig(g, hands={0: ["yo_yo", "holy_water_pistol", "rc_car"], 1: ["kazoo", "electric_guitar"]},
        stacks=[["dice"], ["wrench"], ["crowbar"], [], []])
    at_turn(g, 0)
    take(g, 0, "dice", d)
    rc = slot(g, "rc_car", "hand0")
    act(g, 0, find(g.legal(0), "equip", keep=rc), d)
    assert g.points(0) == 8
    take(g, 1, "wrench", d)
    eg = slot(g, "electric_guitar", "hand1")
    act(g, 1, find(g.legal(1), "pass", give=eg, to=3), d)
    assert keys(g, g.hand(3)) == ["electric_guitar"]


def test_magic_8_ball_looks_at_a_stack():
    """Magic 8-Ball (house): "SPEND: Look at every card of one stack." Only the spender learns
    the face-down cards."""
    g, d = start(4, seed=1, chars=CHARS)
    rig(g, equipped={0: ["magic_8_ball"]}, stacks=[["kazoo"], ["dice", "wrench", "crowbar"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    act(g, 0, A("spend", item=slot(g, "magic_8_ball", "equip0"), stack=1), d)
    under = g.stack(1)[:-1]
    assert all(g.knows(0, s) and not g.knows(1, s) for s in under)
    assert all(g.view(0).values[s] is not None and g.view(2).values[s] is None for s in under)


def test_birthday_bash_setup_exactly_as_printed():
    """Birthday Bash: "Starting cards: 2× "Enthralled Friend" foe shuffled into deck. When deck
    runs out, add: 1× "Enthralled Friend" foe (only the first time). 1 random Difficult Foe.
    Win condition: Equip enough items (30/25/21 pts each)." """
    g, d = start(4, seed=2, adventure="birthday-bash")
    friends = [s for s in range(g.n_cards) if g.cdef(g.values[s]).key == "enthralled_friend"]
    assert len(friends) == 3
    assert sum(g.zone_of[s] == "aside" for s in friends) == 1
    assert not [s for s in range(g.n_cards) if g.cdef(g.values[s]).difficult and g.zone_of[s] != "box"]
    assert [c["kind"] for c in g._adv.win] == ["equip_points"] and g.points_needed() == 25


def test_hit_the_books_needs_every_escaped_equipment_gone():
    """Hit the Books (house adventure): win with enough points and no Escaped Equipment in
    front of any player."""
    g, d = start(3, seed=2, adventure="hit-the-books")
    eq = {p: ["rc_car", "home_console", "metal_detector", "keytar", "walkman"] if p == 0 else
          ["crowbar", "crowbar", "joystick", "joystick", "electric_guitar"] if p == 1 else
          ["swiss_army_knife", "backpack", "skateboard", "holy_water_pistol", "board_game"]
          for p in range(3)}
    rig(g, equipped=eq, foes={1: ["escaped_equipment"]}, stacks=[["kazoo"], [], [], [], []])
    assert all(g.points(p) >= 30 for p in range(3))
    assert not g.won()
    g.place(slot(g, "escaped_equipment", "foes1"), "removed")
    assert g.won()


def test_confrontation_needs_the_visitor_defeated():
    """Confrontation (house adventure): win with enough points and The Visitor defeated."""
    g, d = start(3, seed=2, adventure="confrontation")
    assert keys(g, g.zones["aside"]) == ["the_visitor"]
    eq = {p: ["rc_car", "home_console", "metal_detector", "keytar", "walkman"] if p == 0 else
          ["crowbar", "crowbar", "joystick", "joystick", "electric_guitar"] if p == 1 else
          ["swiss_army_knife", "backpack", "skateboard", "holy_water_pistol", "board_game"]
          for p in range(3)}
    rig(g, equipped=eq, stacks=[["kazoo"], [], [], [], []])
    assert not g.won()
    g.defeated["the_visitor"] = 1
    assert g.won()


def test_stained_glass_needs_both_shards_equipped():
    """Stained Glass (house adventure): both Stained glass shards must be equipped to win."""
    g, d = start(3, seed=2, adventure="stained-glass")
    eq = {p: ["rc_car", "home_console", "metal_detector", "keytar", "walkman"] if p == 0 else
          ["crowbar", "crowbar", "joystick", "joystick", "electric_guitar"] if p == 1 else
          ["swiss_army_knife", "backpack", "skateboard", "holy_water_pistol", "board_game"]
          for p in range(3)}
    eq[2] = eq[2] + ["glass_shard"]
    rig(g, equipped=eq, stacks=[["kazoo"], [], [], [], []])
    assert not g.won()
    rig(g, equipped={**eq, 1: eq[1] + ["glass_shard"]}, stacks=[["kazoo"], [], [], [], []])
    assert g.won()


def test_herald_costs_time_at_the_round_end_not_when_taken():
    """Herald of the Visitor (house, recalibrated in issue 15): "defeat with Music + Gaming -- In
    Taking Care of Things (if you have not won): lose 1 Time token." Taking it costs nothing at
    once; kept to the round's end it costs its token besides the Time the Foes cost."""
    g, d = start(4, seed=1, chars=CHARS, adventure="confrontation")
    rig(g, hands={0: ["kazoo", "dice", "wrench"]}, stacks=[["herald"], ["crowbar"], [], [], []])
    at_turn(g, 0)
    t0 = g.time
    take(g, 0, "herald", d)
    assert g.time == t0, "no Time is lost when a Herald is taken"
    herald = slot(g, "herald", "foes0")
    defeats = [a for a in g.legal(0) if a.kind == "defeat"]
    assert defeats and all(sorted(keys(g, a.slots)) == ["dice", "kazoo"] for a in defeats)
    act(g, 0, A("done"), d)
    take(g, 1, "crowbar", d)
    act(g, 1, A("done"), d)
    assert g.zone_of[herald] == "foes0" and g.round == 2
    assert g.time == t0 - 1 - 1  # its own token, then 1 for the most Foes in front of one player


def test_gargoyle_is_defeated_with_hardware_and_any_card():
    """Gargoyle (house, recalibrated in issue 15): "defeat with Hardware + any -- Counts as 2
    Foes when Time tokens are lost." """
    g, d = start(4, seed=1, chars=CHARS, adventure="stained-glass")
    rig(g, hands={0: ["wrench", "kazoo", "dice"]}, foes={0: ["gargoyle"]},
        stacks=[["yo_yo"], ["crowbar"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "yo_yo", d)
    sets = {tuple(sorted(keys(g, a.slots))) for a in g.legal(0) if a.kind == "defeat"}
    assert sets == {("kazoo", "wrench"), ("dice", "wrench"), ("wrench", "yo_yo")}


def test_night_school_has_seven_time_tokens():
    """Night School (house adventure): "Start with 7 Time tokens." """
    g, d = start(3, seed=2, adventure="night-school")
    assert g.time == 7


def test_discard_and_move_foe_spends():
    """Swiss army knife (house): "SPEND: Discard one of your Foes (even a Difficult Foe)."
    Skateboard (house): "SPEND: Move one of your Foes to the player on your left." Ritual candle
    (house, Confrontation): "SPEND: Discard one Foe in front of any player (not a Difficult Foe)." """
    g, d = start(4, seed=1, chars=CHARS, adventure="confrontation")
    rig(g, equipped={0: ["swiss_army_knife", "skateboard", "ritual_candle"]},
        foes={0: ["vampire_babysitter", "slime_blob"], 2: ["alley_cat", "poltergeist"]},
        stacks=[["kazoo"], ["dice"], ["wrench"], ["crowbar"], ["yo_yo"]])
    knife, board, candle = (slot(g, k, "equip0") for k in ("swiss_army_knife", "skateboard", "ritual_candle"))
    vb, blob = slot(g, "vampire_babysitter", "foes0"), slot(g, "slime_blob", "foes0")
    cat = slot(g, "alley_cat", "foes2")
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    spends = {(a.item, a.foe) for a in g.legal(0) if a.kind == "spend"}
    assert spends == {(knife, vb), (knife, blob), (board, vb), (board, blob),
                      (candle, blob), (candle, cat)}
    act(g, 0, A("spend", item=knife, foe=vb), d)
    assert g.zone_of[vb] == "discard" and g.defeated == {}
    take(g, 1, "dice", d)
    act(g, 1, A("done"), d)
    take(g, 2, "wrench", d)
    assert not [a for a in g.legal(2) if a.kind == "spend"], "seat 0's Items are seat 0's to Spend"
    act(g, 2, A("done"), d)
    take(g, 3, "crowbar", d)
    act(g, 3, A("done"), d)
    take(g, 0, "yo_yo", d)
    act(g, 0, A("spend", item=board, foe=blob), d)
    assert g.zone_of[blob] == "foes1" and g.spent == [knife, board]
