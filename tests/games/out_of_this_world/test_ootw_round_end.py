"""Taking Care of Things, running out of deck, and table talk. Each test quotes its rule."""

from __future__ import annotations

from p2pcards.engine import Random, Shuffle

from .ootw_helpers import A, RiggedDealer, act, at_turn, decider, keys, rig, start, take


def end_round(g, d, p, key="kazoo"):
    """Seat p takes the last card of the stacks (named ``key``) and ends the turn."""
    take(g, p, key, d)
    if g.step == "action":
        act(g, p, A("done"), d)
    return g


def test_victory_check_each_player_has_enough_points():
    """"Check for victory. ... 4 players: Each player must have at least 25 points worth of
    equipped Items." (spent Items count too)"""
    g, d = start(4, seed=1)
    eq = ["rc_car", "home_console", "metal_detector", "walkman"]  # 8 points each
    rig(g, equipped={0: eq[:3] + ["yo_yo"], 1: ["swiss_army_knife", "crowbar", "crowbar", "duct_tape"],
                     2: ["joystick", "joystick", "holy_water_pistol", "spray_paints"],
                     3: ["keytar", "keytar", "keytar", "dice", "dice"]},
        spent=["swiss_army_knife"], stacks=[["kazoo"], [], [], [], []], foes={1: ["slime_blob"]})
    assert [g.points(p) for p in range(4)] == [27, 25, 25, 24]
    at_turn(g, 3)
    end_round(g, d, 3)
    assert g.result is None and g.time == 7  # 24 < 25: no win; one Foe: one token
    g, d = start(4, seed=1)
    rig(g, equipped={0: eq[:3] + ["yo_yo"], 1: ["swiss_army_knife", "crowbar", "crowbar", "duct_tape"],
                     2: ["joystick", "joystick", "holy_water_pistol", "spray_paints"],
                     3: ["keytar", "keytar", "keytar", "dice", "harmonica"]},
        spent=["swiss_army_knife"], stacks=[["kazoo"], [], [], [], []], foes={1: ["slime_blob"]})
    at_turn(g, 3)
    end_round(g, d, 3)
    assert g.result == "won" and g.pending() is None and g.time == 8
    assert g.outcome()["won"] and g.outcome()["points"] == [27, 25, 25, 25]


def test_time_tokens_lost_equal_the_foes_of_the_player_with_the_most():
    """"Determine which player(s) currently has the most Foes in front of them. You must discard
    a number of Time tokens from the Time Tracker equal to the number of Foes they have." """
    g, d = start(4, seed=1)
    rig(g, foes={0: ["slime_blob", "alley_cat"], 1: ["rusty_robot", "glitch_gremlin"],
                 2: ["static_ghost"]}, stacks=[["kazoo"], [], [], [], []])
    at_turn(g, 3)
    end_round(g, d, 3)
    assert g.time == 6


def test_losing_the_last_time_token_loses():
    """"If you must discard the last Time token, you immediately lose the game!" """
    g, d = start(4, seed=1)
    rig(g, foes={2: ["slime_blob", "static_ghost"]}, hands={1: ["kazoo"] * 3 + ["dice"] * 3 + ["wrench"]},
        stacks=[["wrench"], [], [], [], []], time=2)
    at_turn(g, 3)
    end_round(g, d, 3, "wrench")
    assert g.time == 0 and g.result == "lost" and g.pending() is None
    assert len(g.hand(1)) == 7  # the game ended before discarding down
    assert not g.outcome()["won"]


def test_discard_down_to_five():
    """"each player who has more than 5 cards in their hand must discard until they only have 5
    cards." The player chooses, one card at a time; discards are shown to all."""
    g, d = start(4, seed=1, chars=["zoe_zack", "rita_rick", "nina_ned", "malala_bart"])
    rig(g, hands={1: ["kazoo", "kazoo", "dice", "dice", "wrench", "crowbar", "keytar"],
                  2: ["yo_yo"] * 3}, stacks=[["mixtape"], [], [], [], []])
    at_turn(g, 3)
    end_round(g, d, 3, "mixtape")
    assert g.phase == "care" and g.step == "discard" and decider(g) == 1
    crowbar = next(s for s in g.hand(1) if g.cdef(g.values[s]).key == "crowbar")
    act(g, 1, A("discard", slot=crowbar), d)
    assert g.known[crowbar] == g.all_mask and decider(g) == 1
    act(g, 1, g.legal(1)[0], d)
    assert len(g.hand(1)) == 5 and g.phase == "go" and g.round == 2


def test_pack_rat_and_equipped_items_raise_the_hand_limit():
    """House character Pack Rat discards down to 7; the Backpack (wild) adds 2 while equipped."""
    g, d = start(4, seed=1, chars=["penny_percy", "rita_rick", "nina_ned", "malala_bart"])
    rig(g, hands={0: ["kazoo"] * 3 + ["dice"] * 3 + ["yo_yo"] * 2, 1: ["trading_cards"] + ["wrench"] * 3 +
                  ["bike_lock"] * 3 + ["harmonica"] * 2},
        equipped={1: ["backpack"]}, stacks=[["mixtape"], [], [], [], []])
    assert (g.hand_limit(0), g.hand_limit(1), g.hand_limit(2)) == (7, 7, 5)
    at_turn(g, 3)
    end_round(g, d, 3, "mixtape")
    assert decider(g) == 0
    act(g, 0, g.legal(0)[0], d)
    for _ in range(2):
        assert decider(g) == 1
        act(g, 1, g.legal(1)[0], d)
    assert (len(g.hand(0)), len(g.hand(1))) == (7, 7) and g.round == 2


def test_vocal_player_token_passes_left():
    """"Pass the Vocal Player Token. The next round will begin with the player to the left of
    the current Vocal Player": the round's first player moves on one seat (issue 14 item 7; see
    the doc page), whoever took the last card."""
    g, d = start(4, seed=1)
    rig(g, stacks=[["mixtape"], [], [], [], []])
    g.first = 1  # seat 1 started this round
    at_turn(g, 2)
    end_round(g, d, 2, "mixtape")
    assert g.round == 2 and decider(g) == 2 and g.vocal == 2 and g.first == 2


def test_deck_runs_out_additions_go_in_and_the_discard_pile_is_reshuffled():
    """"If the Adventure deck runs out of cards, add any cards that the Adventure card
    instructs you to add then thoroughly shuffle the discard pile and place it face-down on the
    table, creating a new Adventure deck." Birthday Bash: "When deck runs out, add: 1×
    "Enthralled Friend" foe (only the first time). 1 random Difficult Foe." """
    d = RiggedDealer(3)
    g, _ = start(4, dealer=d, adventure="birthday-bash")
    assert keys(g, g.zones["aside"]) == ["enthralled_friend"]
    discard = ["kazoo"] * 3 + ["dice"] * 3 + ["wrench"] * 3 + ["yo_yo"] * 3 + ["keytar"] * 3 + ["mixtape"] * 3
    rig(g, stacks=[["harmonica"], [], [], [], []], discard=discard + ["crowbar", "crowbar", "bike_lock"])
    for s in list(g.zones["deck"])[5:]:
        g.place(s, "removed")  # leave 5 cards in the deck
    g.make_public(g.zones["removed"])
    at_turn(g, 0)
    d.log.clear()
    end_round(g, d, 0, "harmonica")
    assert g.runouts == 1 and g.round == 2
    assert [type(r).__name__ for r in d.log].count("Shuffle") == 1
    assert any(isinstance(r, Random) and r.n == 4 for r in d.log)  # the random Difficult Foe
    assert g.zones["aside"] == [] and g.zones["discard"] == []
    difficult = {c.key for c in g._data.difficult_foes}
    in_play = keys(g, [s for i in range(5) for s in g.stack(i)] + g.zones["deck"])
    assert in_play.count("enthralled_friend") == 1
    assert sum(k in difficult for k in in_play) == 1
    assert sum(len(g.stack(i)) for i in range(5)) == 20
    # the new deck is unknown to everyone; the stacks' tops are known to all
    assert all(g.known[s] == 0 for s in g.zones["deck"])
    # a second run-out adds another random Difficult Foe, but no more Enthralled Friend
    rig(g, stacks=[["harmonica"], [], [], [], []], discard=discard + ["crowbar", "crowbar", "bike_lock"])
    for s in list(g.zones["deck"]):
        g.place(s, "removed")
    g.make_public(g.zones["removed"])
    at_turn(g, 0)
    d.log.clear()
    end_round(g, d, 0, "harmonica")
    assert g.runouts == 2
    assert [r.n for r in d.log if isinstance(r, Random)] == [3]
    assert sum(isinstance(r, Shuffle) for r in d.log) == 1
    assert keys(g, g.zones["aside"]) == []


def test_only_the_vocal_player_may_talk_during_go_for_it():
    """"During the Go For It! phase each round, only the Vocal Player is allowed to
    communicate." and "You can discuss normally during the Gear Up! and Taking Care of Things
    phases" """
    g, d = start(4, seed=1)
    rig(g, stacks=[["kazoo"], ["dice"], [], [], []])
    at_turn(g, 1)
    assert g.chat_refusal(1) is None
    refusal = g.chat_refusal(2)
    assert refusal and "Vocal Player" in refusal and "Ben" in refusal
    assert all(g.chat_refusal(p) for p in (0, 3))
    g.phase = "care"
    assert all(g.chat_refusal(p) is None for p in range(4))


def test_easier_lets_everyone_talk():
    """"Easier ... everyone may communicate all the time." """
    g, d = start(4, seed=1, difficulty="easier")
    rig(g, stacks=[["kazoo"], [], [], [], []])
    at_turn(g, 1)
    assert all(g.chat_refusal(p) is None for p in range(4))


def test_walkie_talkie_lets_its_owner_talk():
    """House wild item Walkie-talkie: "While equipped: you may talk during Go For It! even when
    you are not the Vocal Player." """
    g, d = start(4, seed=1)
    rig(g, equipped={3: ["walkie_talkie"]}, stacks=[["kazoo"], [], [], [], []])
    at_turn(g, 1)
    assert g.chat_refusal(3) is None and g.chat_refusal(2) is not None


def test_deck_exhausted_loses():
    """House rule: if the deck and discard pile cannot give a single card at Gear Up!, the
    adventure is lost (nothing is left to find)."""
    g, d = start(3, seed=1)
    rig(g, stacks=[["kazoo"], [], [], [], []])
    for s in list(g.zones["deck"]):
        g.place(s, "removed")
    g.make_public(g.zones["removed"])
    at_turn(g, 0)
    end_round(g, d, 0)
    assert g.result == "lost" and "exhausted" in g.reason
