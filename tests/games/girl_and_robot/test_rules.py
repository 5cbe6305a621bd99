"""One scenario per rule of ``rules/girl-and-robot.txt`` (Basic Principles, Setup, Your Turn,
Euro Variant), each quoting the text it checks."""

from __future__ import annotations

import pytest

from p2pcards.engine import (
    SPECTATOR,
    Action,
    ConfigError,
    Decide,
    Decision,
    LocalDealer,
    Random,
    RandomValue,
    Reveal,
    Revealed,
    RuleViolation,
    Shuffle,
    project,
)
from p2pcards.games import new_game
from p2pcards.games.girl_and_robot.game import Game, arrangements

from .gar_rig import Table, rig

# ---- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n,chars", [
    (2, {"girl", "queen"}),
    (3, {"girl", "robot", "queen"}),
    (4, {"girl", "robot", "queen", "shadow"}),
])
def test_teams_by_player_count(n, chars):
    """"2 players: The Girl vs. the Evil Queen · 3 players: The Girl and the Robot vs. the Evil
    Queen · 4 players: The Girl and the Robot vs. the Evil Queen and the Shadow Robot" """
    for value in range(len(arrangements(n))):
        g = Game.new(n)
        assert g.pending() == Random(len(arrangements(n)))
        g.apply(RandomValue(value))
        assert set(g.chars) == chars
        for p in range(n):
            expected = 0 if g.chars[p] in ("girl", "robot") else 1
            assert g.team[p] == expected


def test_allies_sit_side_by_side():
    """"Allies play next to each other." Every seating the game deals puts allies in adjacent
    seats (seats form a circle), and every such seating can be dealt."""
    arr = arrangements(4)
    assert len(arr) == 16
    for chars in arr:
        for a, b in (("girl", "robot"), ("queen", "shadow")):
            i, j = chars.index(a), chars.index(b)
            assert (i - j) % 4 in (1, 3)
    assert len(arrangements(3)) == 6 and len(arrangements(2)) == 2


def test_alone_and_team_sides():
    """"Each Character card has 2 sides that indicate whether they are Alone or in a Team. If
    you play with an ally, flip your Character card to its Team side; otherwise, flip it to its
    Alone side." """
    g = rig(["girl", "robot", "queen"], hands={0: ["ap3"]}, draw=["*"] * 3)
    t = Table(g)
    assert [g.side(p) for p in range(3)] == ["team", "team", "alone"]
    t.play(0, "ap3")
    ids = {a.id for a in t.legal(0) if a.kind == "ability"}
    assert ids == {"girl_borrow"}  # team side (the Pendant is not in the discard pile)
    g2 = rig(["girl", "queen"], hands={0: ["ap3"]}, draw=["*"] * 3)
    t2 = Table(g2)
    t2.play(0, "ap3")
    assert {a.id for a in t2.legal(0) if a.kind == "ability"} == {"girl_bottom2", "girl_hex"}


def test_flip_to_alone_when_the_ally_dies():
    """"If your Ally dies at any point in the game ... Flip your Character card to its Alone
    side." """
    g = rig(["girl", "robot", "queen"], hands={1: ["scout"], 0: ["ap3"]},
            draw=["*", "*", "demon"], weapons={1: []}, turn=1)
    t = Table(g)
    assert g.side(0) == "team"
    t.end(1)  # the Robot draws the Demon with no weapon
    t.act(1, "demon")
    t.act(1, "position", index=0)  # at the bottom: the Queen draws safely
    assert not g.alive[1] and g.side(0) == "alone"
    assert g.turn == 2
    t.end(2)
    assert g.turn == 0  # the dead Robot is skipped
    t.play(0, "ap3")  # the Girl now has her Alone abilities
    assert {a.id for a in t.legal(0) if a.kind == "ability"} == {"girl_bottom2", "girl_hex"}


def test_allies_talk():
    """"Allies play next to each other. They can talk" — a seat's chat goes to its living ally
    only; a seat without one cannot chat."""
    g = rig(["girl", "robot", "queen", "shadow"])
    assert g.chat_audience(0) == [1] and g.chat_audience(2) == [3]
    assert g.chat_refusal(0) is None
    g2 = rig(["girl", "queen"])
    assert g2.chat_audience(0) == [] and g2.chat_refusal(0)
    g.alive[1] = False
    assert g.chat_audience(0) == [] and g.chat_refusal(0)


def test_allies_show_cards():
    """"They can talk and show their cards to each other during the game." Showing is an
    explicit action that reveals the chosen cards to the ally only."""
    g = rig(["girl", "robot", "queen", "shadow"], hands={0: ["steal", "scout", "ap2"]})
    t = Table(g)
    steal, scout = t.slot("steal", "hand0"), t.slot("scout", "hand0")
    assert not t.knows(1, steal)
    t.do(0, Action("show", slots=[steal, scout]))
    assert t.requests[-1] == Reveal((steal, scout), (1,))
    assert t.knows(1, steal) and t.knows(1, scout)
    assert not t.knows(2, steal) and not t.knows(3, steal)
    assert not t.knows(1, t.slot("ap2", "hand0"))
    with pytest.raises(RuleViolation):  # nothing new to show the ally
        t.do(0, Action("show", slots=[steal]))
    with pytest.raises(RuleViolation):  # opponents are not shown cards
        g.validate(2, Action("show", slots=[steal]))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n):
    """"Every player starts with 1 Basic Sword card to be placed next to their character.
    Remove all extra Basic Swords from the game. Remove the 4 Demon cards from the Deck, shuffle
    the Deck and deal 5 cards to each player. Put the Demon cards back into the Deck and
    reshuffle the Deck. Turn the Deck face down to create the Draw Pile." """
    g = new_game("girl-and-robot", n)
    d = LocalDealer(7)
    reqs = []
    while not isinstance(g.pending(), Decide):
        req = g.pending()
        reqs.append(req)
        g.apply(d.fulfil(g, req))
    swords = g._data.cards_of("basic_sword")
    for p in range(n):
        assert [g.kind(s) for s in g.weapons(p)] == ["basic_sword"]
        assert len(g.hand(p)) == 5 and all(g.kind(s) != "demon" for s in g.hand(p))
        assert all(g.known[s] == 1 << p for s in g.hand(p))
    assert sum(1 for s in g.zones["removed"] if g.kind(s) == "basic_sword") == len(swords) - n
    draw = g.zones["draw"]
    assert sum(1 for s in draw if g.kind(s) == "demon") == 4
    assert all(g.known[s] == 0 for s in draw)  # face down, nobody knows the order
    shuffles = [r for r in reqs if isinstance(r, Shuffle)]
    assert len(shuffles) == 2 and all(r.by is None for r in shuffles)
    demons = set(g._data.cards_of("demon"))
    assert not demons & set(shuffles[0].slots) and demons <= set(shuffles[1].slots)
    assert g.n_cards == 31 + 12 + 4 + 4 + 4


def test_girl_starts_and_chooses_the_turn_order():
    """"The Girl starts and chooses the turn order (clockwise or counter-clockwise)." """
    g = new_game("girl-and-robot", 4)
    d = LocalDealer(3)
    while not isinstance(g.pending(), Decide):
        g.apply(d.fulfil(g, g.pending()))
    girl = g.chars.index("girl")
    assert g.pending() == Decide(girl) and g.phase == "direction"
    g.apply(Decision(girl, Action("direction", d=-1)))
    assert g.turn == girl and g.phase == "turn" and g.turns == 1
    assert g.upcoming(3) == [(girl - 1) % 4, (girl - 2) % 4, (girl - 3) % 4]


def test_options():
    """Options: names, euro and act2; anything else is refused."""
    with pytest.raises(ConfigError, match="no option"):
        Game.new(2, {"colour": "red"})
    with pytest.raises(ConfigError, match="true or false"):
        Game.new(2, {"euro": "yes"})
    with pytest.raises(ConfigError, match="2 to 4"):
        Game.new(5)
    g = Game.new(3, {"names": ["A", "B", "C"], "euro": True, "act2": False})
    assert g.pname(1) == "B" and g.config["euro"] is True


def test_act2_left_out():
    """"Insert this card into the game only if you want to play longer." With act2=false Act II
    is removed from the game at setup."""
    g = new_game("girl-and-robot", 2, {"act2": False})
    d = LocalDealer(1)
    while not isinstance(g.pending(), Decide):
        g.apply(d.fulfil(g, g.pending()))
    assert "act_ii" in [g.kind(s) for s in g.zones["removed"]]


# ---- your turn ------------------------------------------------------------------------------


def test_any_number_of_actions_and_weapons_then_draw():
    """"During your turn you can play any number of Action cards from your hand. Cards played
    this way are placed in a Discard Pile. ... You can play any number of Weapon cards by placing
    them on the table next to your character. End your turn by drawing 1 card. You cannot play
    any cards after that." """
    g = rig(["girl", "queen"], hands={0: ["scout", "spy", "basic_sword", "dagger"], 1: ["ap1"]},
            draw=["*"] * 8)
    t = Table(g)
    t.play(0, "scout")
    t.pass_all()
    t.play(0, "spy", target=1)
    t.pass_all()
    t.play(0, "basic_sword", target=0)
    t.play(0, "dagger", target=0)
    assert t.kinds("discard") == ["scout", "spy"]
    assert sorted(t.kinds("weapons0")) == ["basic_sword", "basic_sword", "dagger"]
    t.end(0)
    assert len(g.hand(0)) == 1 and g.turn == 1  # drew, and the turn passed: no more plays
    assert t.decider() == 1


def test_ability_points_in_any_combination():
    """"You can play any combination of Ability Points cards to activate any of your
    character's abilities. Discard the Ability Points card(s) used after the effect of the
    ability resolves." Two cards pay a 3-point ability; the Evil Queen's "take the top Action
    card of the discard pile" takes the Action card, not the points cards paying for it."""
    g = rig(["girl", "robot", "queen"], hands={2: ["ap1", "ap2"]}, discard=["steal"],
            draw=["*"] * 5, turn=2)
    t = Table(g)
    t.play(2, "ap1")
    assert not t.has(2, "ability", id="queen_take")
    t.play(2, "ap2")
    t.act(2, "ability", id="queen_take")
    assert t.hand_kinds(2) == ["steal"]
    assert sorted(t.kinds("discard")) == ["ap1", "ap2"] and g.points == 0


def test_unused_points_are_lost():
    """"Unused Ability Points are lost at the end of the turn." """
    g = rig(["girl", "queen"], hands={0: ["ap3"]}, draw=["*"] * 5)
    t = Table(g)
    t.play(0, "ap3")
    assert g.points == 3
    t.end(0)
    assert g.points == 0 and t.kinds("discard") == ["ap3"]
    t.end(1)
    assert g.points == 0 and not any(a.kind == "ability" for a in t.legal(0))


def test_drawn_demon_is_revealed_and_defeated_with_a_weapon():
    """"If you draw a Demon card, reveal it to everyone! You may use one of your Weapons on the
    table to defeat it. Discard the Weapon in the discard pile and stay alive." """
    g = rig(["girl", "queen"], draw=["ap1", "ap2", "demon"])
    t = Table(g)
    t.end(0)
    demon = g.task["slot"]
    assert not t.knows(1, demon)  # seen by the drawer alone so far
    assert t.legal(0) == [Action("demon")]
    t.act(0, "demon")
    assert t.requests[-1] == Reveal((demon,), (0, 1)) and g.public(demon)
    sword = g.weapons(0)[0]
    t.act(0, "defend", weapon=sword)
    assert g.alive[0] and g.zone_of[sword] == "discard"


def test_demon_goes_back_face_up_where_the_drawer_chooses():
    """"Place the Demon card back face up anywhere in the Draw Pile in sight of the other
    players." """
    g = rig(["girl", "queen"], draw=["ap1", "ap2", "ap3", "demon"])
    t = Table(g)
    t.end(0)
    t.act(0, "demon")
    t.act(0, "defend", weapon=g.weapons(0)[0])
    assert len(t.legal(0)) == len(g.zones["draw"]) + 1  # every position
    t.act(0, "position", index=1)  # under two cards
    demon = g.zones["draw"][1]
    assert g.kind(demon) == "demon" and demon in g.faceup and g.public(demon)
    assert t.views[1].values[demon] is not None


def test_no_weapon_you_die_but_still_place_the_demon():
    """"However, if you have no Weapon on the table, you die. Place the Demon card back face up
    anywhere in the Draw Pile ... You need to do this even if you died." """
    g = rig(["girl", "queen"], draw=["*", "demon"], weapons={0: []})
    t = Table(g)
    t.end(0)
    t.act(0, "demon")
    assert g.phase == "position" and t.decider() == 0
    t.act(0, "position", index=0)
    assert not g.alive[0]
    assert g.zone_of[g.zones["draw"][0]] == "draw" and g.kind(g.zones["draw"][0]) == "demon"


def test_a_team_loses_when_all_its_members_are_dead():
    """"When playing as a team, if you and your ally both die, you lose the game." """
    g = rig(["girl", "robot", "queen"], draw=["*", "demon", "demon"], weapons={0: [], 1: []}, turn=0)
    g.alive[1] = False
    t = Table(g)
    t.end(0)
    t.act(0, "demon")
    t.act(0, "position", index=0)
    assert g.pending() is None
    assert g.outcome()["team"] == "queen" and g.outcome()["winners"] == [2]


def test_the_last_of_a_team_standing_keeps_playing():
    """One death is not a defeat while the ally lives: the game goes on."""
    g = rig(["girl", "robot", "queen"], draw=["*", "*", "demon"], weapons={1: []}, turn=1)
    t = Table(g)
    t.end(1)
    t.act(1, "demon")
    t.act(1, "position", index=0)
    assert g.pending() is not None and g.outcome() is None


def test_a_dead_allys_cards_go_to_the_discard_pile_in_any_order():
    """"If your Ally dies at any point in the game, their cards are placed into the Discard Pile
    in any order." The dead player's hand and weapons are shown to all, and the surviving ally
    chooses the order."""
    g = rig(["girl", "robot", "queen"], hands={1: ["steal", "scout", "ap2"]},
            weapons={1: ["cursed_sword"]}, draw=["*", "*", "demon"], turn=1)
    t = Table(g)
    # the Cursed Sword's owner must discard (no card played) before drawing
    t.end(1, windows=False)
    t.act(1, "choose", slot=t.slot("ap2", "hand1"))
    t.pass_windows()
    t.act(1, "demon")
    t.act(1, "defend", weapon=g.weapons(1)[0])  # the curse's sword saves the Robot once
    t.act(1, "position", index=len(g.zones["draw"]))  # on top: the Queen's
    t.end(2)  # a face-up Demon needs no declaration: everyone sees it
    t.act(2, "defend", weapon=g.weapons(2)[0])
    t.act(2, "position", index=len(g.zones["draw"]))
    t.end(0)
    t.act(0, "defend", weapon=g.weapons(0)[0])
    t.act(0, "position", index=len(g.zones["draw"]))
    t.end(1)
    t.act(1, "position", index=0)
    assert not g.alive[1]
    assert g.phase == "bury" and t.decider() == 0  # the surviving Girl orders them
    assert sorted(t.kinds("grave")) == ["scout", "steal"]
    assert all(g.public(s) for s in g.zones["grave"])  # shown to all
    t.act(0, "bury", slot=t.slot("steal", "grave"))
    assert t.kinds("discard")[-2:] == ["steal", "scout"]
    assert g.hand(1) == [] and g.weapons(1) == [] and g.turn == 2


def test_drawn_card_claim_is_checked():
    """"If you draw a Demon card, reveal it to everyone!" Declaring a drawn Demon safe is a
    violation: the full-information engine refuses it at once, it is proven at once
    (test_claims.py), and a seat that later sees the card blames the drawer too."""
    g = rig(["girl", "queen"], draw=["*", "demon"])
    t = Table(g)
    t.end(0)
    with pytest.raises(RuleViolation) as e:
        g.validate(0, Action("safe"))
    assert e.value.player == 0
    # the opponent's copy cannot tell yet, so accepts the claim; it catches it on a reveal
    v = t.views[1]
    v.validate(0, Action("safe"))
    demon = g.task["slot"]
    v.apply(Decision(0, Action("safe")))
    assert v.safe[str(demon)] == 0
    v.req = {"type": "reveal", "slots": [demon], "to": [0, 1]}
    with pytest.raises(RuleViolation) as e:
        v.apply(Revealed((demon,), (g.values[demon],)))
    assert e.value.player == 0


def test_a_played_card_must_be_what_its_player_says():
    """A card is played face up: every copy checks the revealed card against the claim."""
    g = rig(["girl", "queen"], hands={0: ["spy"], 1: ["*"]}, draw=["*"] * 3)
    t = Table(g)
    spy = t.slot("spy", "hand0")
    lie = Action("play", slot=spy, card="steal", target=1)
    with pytest.raises(RuleViolation):
        g.validate(0, lie)
    v = t.views[1]
    v.validate(0, lie)  # the Queen cannot see the card yet
    before = g.clone()
    v.apply(Decision(0, lie))
    g2 = before
    g2.apply(Decision(0, lie), trusted=True)
    req = g2.pending()
    ev = LocalDealer(0).fulfil(g2, req)
    with pytest.raises(RuleViolation) as e:
        v.apply(project(ev, req, g2, 1))
    assert e.value.player == 0


def test_face_down_weapon_claim_is_checked():
    """King's Sword and Pendant go face down: placing another card face down as a weapon is
    refused by the full-information engine, and caught by every copy when it is revealed."""
    g = rig(["girl", "queen"], hands={0: ["steal"]}, draw=["*", "demon"])
    t = Table(g)
    steal = t.slot("steal", "hand0")
    with pytest.raises(RuleViolation):
        g.validate(0, Action("hide", slot=steal))
    v = t.views[1]
    v.validate(0, Action("hide", slot=steal))  # cannot tell
    g.apply(Decision(0, Action("hide", slot=steal)), trusted=True)
    v.apply(Decision(0, Action("hide", slot=steal)))
    assert v.hidden[str(steal)] == 0
    v.req = {"type": "reveal", "slots": [steal], "to": [0, 1]}
    with pytest.raises(RuleViolation) as e:
        v.apply(Revealed((steal,), (g.values[steal],)))
    assert e.value.player == 0


def test_every_action_opens_a_cancel_window_asking_everyone():
    """"Cancel Action: ... You may play this card at any time." So every Action card played
    asks each other living player in turn, "let it resolve" first, whether or not they hold a
    Cancel Action (asking only those who do would tell everyone who does)."""
    g = rig(["girl", "robot", "queen", "shadow"], hands={0: ["scout"], 3: ["cancel_action"]},
            draw=["*"] * 6)
    t = Table(g)
    t.play(0, "scout")
    asked = []
    while g.phase == "respond":
        p = t.decider()
        asked.append(p)
        assert t.legal(p)[0] == Action("pass")
        t.act(p, "pass")
    assert asked == [1, 2, 3]
    assert t.hand_kinds(3) == ["cancel_action"]  # seat 3 could have cancelled, and passed
    assert t.kinds("discard") == ["scout"]


def test_euro_allies_share_one_life():
    """"Euro Variant: Allies share 1 life (if one ally dies, the other dies as well)." """
    g = rig(["girl", "robot", "queen", "shadow"], draw=["*", "demon"], weapons={2: [], 3: []},
            turn=2, euro=True)
    t = Table(g)
    t.end(2)
    t.act(2, "demon")
    t.act(2, "position", index=0)
    assert not g.alive[2] and not g.alive[3]
    assert g.outcome()["team"] == "girl"


def test_euro_ally_weapons():
    """"Euro Variant: An ally can use the Weapons of their ally." """
    g = rig(["girl", "robot", "queen"], draw=["*", "demon"], weapons={0: []}, euro=True)
    t = Table(g)
    t.end(0)
    t.act(0, "demon")
    robot_sword = g.weapons(1)[0]
    assert t.legal(0) == [Action("defend", weapon=robot_sword)]
    t.act(0, "defend", weapon=robot_sword)
    assert g.alive[0] and g.zone_of[robot_sword] == "discard"
    # without the variant, the ally's weapons do not help
    g2 = rig(["girl", "robot", "queen"], draw=["*", "demon"], weapons={0: []})
    t2 = Table(g2)
    t2.end(0)
    t2.act(0, "demon")
    assert g2.phase == "position"
    t2.act(0, "position", index=0)
    assert not g2.alive[0] and g2.alive[1]


def test_narration_is_public():
    """The spectator's log is written from public information only: it never names a card the
    spectator's copy does not hold."""
    g = rig(["girl", "robot", "queen"], hands={0: ["steal", "scout"], 2: ["ap1", "trade"]},
            draw=["ap1", "ap2", "evade", "demon"], turn=0)
    t = Table(g)
    t.play(0, "steal", target=2)
    t.pass_all()
    t.end(0)
    text = "\n".join(t.log)
    assert "takes a card at random" in text and "draws a card" in text
    assert "Trade" not in text and "Ability Points 1" not in text
    assert t.views[SPECTATOR].values.count(None) > 0


def test_steal_names_the_card_to_the_thief_and_the_victim_only():
    """"Steal: Choose another player. Take a card from their hand at random." Both players now
    know the card and their logs name it; the third player's log does not."""
    g = rig(["girl", "robot", "queen"], hands={0: ["steal"], 2: ["trade"]}, turn=0)
    t = Table(g)
    for p in range(3):
        t.views[p].narrate()
    t.play(0, "steal", target=2)
    t.pass_all()
    logs = {p: "\n".join(t.views[p].take_notes()) for p in range(3)}
    assert "Seat 1 takes a card at random from Seat 3's hand: Trade." in logs[0]
    assert "takes a card at random from Seat 3's hand: Trade." in logs[2]
    assert "takes a card at random from Seat 3's hand." in logs[1] and "Trade" not in logs[1]
    assert "Trade" not in "\n".join(t.log)


def test_trade_names_the_cards_to_the_traders_only():
    """"Trade: Choose another player. Each of you chooses a card from your hand if you can, then
    gives it to the other player." Each trader's log says what changed hands; the third
    player's says only that cards were traded."""
    g = rig(["girl", "robot", "queen"], hands={0: ["trade", "ap2"], 2: ["steal", "ap1"]}, turn=0)
    t = Table(g)
    for p in range(3):
        t.views[p].narrate()
    t.play(0, "trade", target=2)
    t.pass_all()
    t.act(0, "choose", slot=t.slot("ap2", "hand0"))
    t.act(2, "choose", slot=t.slot("ap1", "hand2"))
    logs = {p: "\n".join(t.views[p].take_notes()) for p in range(3)}
    line = "Seat 1 and Seat 3 trade cards: Seat 1 gives Ability Points 2 and Seat 3 gives Ability Points 1."
    assert line in logs[0] and line in logs[2]
    assert "Seat 1 and Seat 3 trade cards." in logs[1] and "Ability Points" not in logs[1]
