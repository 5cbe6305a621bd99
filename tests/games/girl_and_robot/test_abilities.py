"""One scenario per character ability (both sides of the four characters), each quoting it."""

from __future__ import annotations

from p2pcards.engine import Action, Reveal

from .gar_rig import Table, rig

# ---- the Girl -------------------------------------------------------------------------------


def test_girl_alone_2_bottom_cards_on_top():
    """The Girl, Alone, 2: "Reveal the bottom 2 cards of the Draw Pile to everyone, then put
    them back on top face up, in any order." """
    g = rig(["girl", "queen"], hands={0: ["ap2"]}, draw=["demon", "steal", "*", "*", "*"])
    bottom = g.zones["draw"][:2]
    t = Table(g)
    t.play(0, "ap2")
    t.act(0, "ability", id="girl_bottom2")
    assert t.requests[-1] == Reveal(tuple(bottom), (0, 1))
    assert g.phase == "order"
    t.act(0, "order", slots=[bottom[1], bottom[0]])  # the Steal on top, the Demon under it
    assert g.zones["draw"][-2:] == [bottom[0], bottom[1]]
    assert all(s in g.faceup and g.public(s) for s in bottom)
    assert t.top(2) == ["steal", "demon"] and g.points == 0


def test_girl_alone_3_cancels_the_next_players_actions():
    """The Girl, Alone, 3: "If the next player plays an Action card during their turn, its
    effects are cancelled." """
    g = rig(["girl", "queen"], hands={0: ["ap3"], 1: ["steal", "scout"]}, draw=["*"] * 6)
    t = Table(g)
    t.play(0, "ap3")
    t.act(0, "ability", id="girl_hex")
    t.end(0)
    assert g.tf["hex"]
    t.play(1, "steal", target=0)  # no effect, and no window either
    assert g.phase == "turn" and g.hand(0) != [] and t.kinds("discard")[-1] == "steal"
    assert len(g.hand(1)) == 1
    t.end(1)
    t.end(0)
    assert not g.tf["hex"]  # only that turn


def test_girl_team_1_plays_from_the_robots_hand():
    """The Girl, Team, 1: "You may play cards from the Robot's hand this turn." The Robot's
    hand is revealed to the Girl alone."""
    g = rig(["girl", "robot", "queen"], hands={0: ["ap1"], 1: ["steal", "scout"], 2: ["spy"]},
            draw=["*"] * 6)
    robot_hand = tuple(g.hand(1))
    t = Table(g, randoms=[0])
    assert not t.has(0, "play", card="steal")
    t.play(0, "ap1")
    t.act(0, "ability", id="girl_borrow")
    assert t.requests[-1] == Reveal(robot_hand, (0,))
    assert all(t.knows(0, s) for s in robot_hand) and not any(t.knows(2, s) for s in robot_hand)
    t.play(0, "steal", target=2)
    t.pass_all()
    assert t.hand_kinds(1) == ["scout"] and t.hand_kinds(0) == ["spy"]
    assert g.tf["played"] == 2  # her plays
    t.end(0)
    t.end(1)
    t.end(2)
    assert not t.has(0, "play", card="scout")  # only that turn


def test_girl_team_3_takes_the_pendant_from_the_discard_pile():
    """The Girl, Team, 3: "If the Pendant card is in the discard pile, take it." """
    g = rig(["girl", "robot", "queen"], hands={0: ["ap3"]}, discard=["steal", "pendant", "spy"],
            draw=["*"] * 4)
    t = Table(g)
    t.play(0, "ap3")
    t.act(0, "ability", id="girl_pendant")
    assert t.hand_kinds(0) == ["pendant"] and t.kinds("discard") == ["steal", "spy", "ap3"]
    g2 = rig(["girl", "robot", "queen"], hands={0: ["ap3"]}, discard=["steal"], draw=["*"] * 4)
    t2 = Table(g2)
    t2.play(0, "ap3")
    assert not t2.has(0, "ability", id="girl_pendant")


# ---- the Robot ------------------------------------------------------------------------------


def test_robot_alone_1_the_next_player_cannot_draw():
    """The Robot, Alone, 1: "The next player cannot draw any card during their turn,
    regardless of other effects." Not even the Evil Queen's double draw."""
    g = rig(["girl", "robot", "queen"], hands={1: ["ap1"], 2: ["ap1"]}, draw=["*"] * 6, turn=1)
    g.alive[0] = False
    t = Table(g)
    assert g.side(1) == "alone"
    t.play(1, "ap1")
    t.act(1, "ability", id="robot_ban")
    t.end(1)
    assert g.turn == 2 and g.tf["ban"]
    assert [a for a in t.legal(2) if a.kind == "end"] == [Action("end", draw=0)]
    t.play(2, "ap1")
    assert not t.has(2, "ability", id="queen_double")
    t.end(2, draw=0)
    assert len(g.hand(2)) == 0


def test_robot_alone_3_does_not_draw():
    """The Robot, Alone, 3: "Do not draw any card this turn." """
    g = rig(["girl", "robot", "queen"], hands={1: ["ap3"]}, draw=["*"] * 6, turn=1)
    g.alive[0] = False
    t = Table(g)
    t.play(1, "ap3")
    t.act(1, "ability", id="robot_skip")
    assert [a for a in t.legal(1) if a.kind == "end"] == [Action("end", draw=0)]
    t.end(1, draw=0)
    assert g.hand(1) == [] and g.turn == 2


def test_robot_team_2_draws_and_places_a_demon():
    """The Robot, Team, 2: "Draw 1 card. If it is a Demon, place it face up anywhere in the Draw
    Pile." No weapon is spent and nobody dies."""
    g = rig(["girl", "robot", "queen"], hands={1: ["ap2"]}, draw=["*", "*", "demon"], turn=1)
    t = Table(g)
    t.play(1, "ap2")
    t.act(1, "ability", id="robot_draw")
    t.act(1, "demon")
    assert g.phase == "position"
    t.act(1, "position", index=1)
    assert g.alive[1] and len(g.weapons(1)) == 1 and g.kind(g.zones["draw"][1]) == "demon"
    assert g.phase == "turn" and t.decider() == 1  # the turn goes on


def test_robot_team_4_chooses_who_plays_next():
    """The Robot, Team, 4: "Choose the player who plays after you. The turn order stays the
    same." """
    g = rig(["girl", "robot", "queen", "shadow"], hands={1: ["ap2", "ap2"]}, draw=["*"] * 8, turn=1)
    t = Table(g)
    t.play(1, "ap2")
    t.play(1, "ap2")
    t.act(1, "ability", id="robot_next", target=3)
    t.end(1)
    assert g.turn == 3  # not the Queen (seat 2)
    t.end(3)
    assert g.turn == 0  # the order goes on from the Shadow Robot


# ---- the Evil Queen -------------------------------------------------------------------------


def test_queen_alone_0_draws_two():
    """The Evil Queen, Alone, 0: "If the Girl and the Robot are in play, you may draw 2 cards
    instead of 1 at the end of your turn." """
    g = rig(["girl", "robot", "queen"], draw=["*"] * 6, turn=2)
    t = Table(g)
    t.act(2, "ability", id="queen_double")
    assert t.has(2, "end", draw=2)
    t.end(2, draw=2)
    assert len(g.hand(2)) == 2
    g2 = rig(["girl", "robot", "queen"], draw=["*"] * 6, turn=2)
    g2.alive[1] = False
    assert not Table(g2).has(2, "ability", id="queen_double")  # the Robot is not in play


def test_queen_alone_2_top_cards_face_up():
    """The Evil Queen, Alone, 2: "Reveal the top 2 cards of the Draw Pile to everyone, then put
    them back face up in an order of your choice." """
    g = rig(["girl", "queen"], hands={1: ["ap2"]}, draw=["*", "*", "demon", "steal"], turn=1)
    top = g.zones["draw"][-2:]
    t = Table(g)
    t.play(1, "ap2")
    t.act(1, "ability", id="queen_top2")
    assert t.requests[-1] == Reveal(tuple(top), (0, 1))
    t.act(1, "order", slots=[top[1], top[0]])  # Steal on top: she draws it; the Demon is next
    assert t.top(2) == ["steal", "demon"] and all(s in g.faceup for s in top)
    t.end(1)
    assert t.hand_kinds(1) == ["steal"]


def test_queen_alone_3_takes_the_top_action_card():
    """The Evil Queen, Alone, 3: "If the top card of the discard pile is an Action card, take
    it." """
    g = rig(["girl", "queen"], hands={1: ["ap3"], 0: ["spy"]}, discard=["steal"], draw=["*"] * 4)
    t = Table(g)
    t.play(0, "spy", target=1)
    t.pass_all()
    t.end(0)
    t.play(1, "ap3")
    t.act(1, "ability", id="queen_take")
    assert "spy" in t.hand_kinds(1) and t.kinds("discard") == ["steal", "ap3"]
    g2 = rig(["girl", "queen"], hands={1: ["ap3"]}, discard=["steal", "ap1"], draw=["*"] * 4, turn=1)
    t2 = Table(g2)
    t2.play(1, "ap3")
    assert not t2.has(1, "ability", id="queen_take")  # the top card is not an Action card


def test_queen_team_1_boosts_the_shadow_robot_once():
    """The Evil Queen, Team, 1: "The Shadow Robot starts its next turn with 2 Ability Points
    (this can only be used once)." """
    g = rig(["girl", "robot", "queen", "shadow"], hands={2: ["ap1", "ap1"]}, draw=["*"] * 8, turn=2)
    t = Table(g)
    t.play(2, "ap1")
    t.act(2, "ability", id="queen_boost")
    t.play(2, "ap1")
    assert not t.has(2, "ability", id="queen_boost")  # only once
    t.end(2)
    assert g.turn == 3 and g.points == 2
    assert t.has(3, "ability", id="shadow_destroy_all") is False  # Team side: 3 and 4 only
    t.end(3)
    t.end(0)
    t.end(1)
    t.end(2)
    assert g.turn == 3 and g.points == 0


def test_queen_team_3_moves_a_face_up_demon():
    """The Evil Queen, Team, 3: "Look for a face-up Demon in the Draw Pile and place it anywhere
    in the pile." """
    g = rig(["girl", "robot", "queen", "shadow"], hands={2: ["ap3"]},
            draw=["*", "demon", "*", "*", "*"], faceup=[1], turn=2)
    demon = g.zones["draw"][1]
    t = Table(g)
    t.play(2, "ap3")
    t.act(2, "ability", id="queen_move")
    t.act(2, "pick", slot=demon)
    t.act(2, "position", index=len(g.zones["draw"]))
    assert g.zones["draw"][-1] == demon and demon in g.faceup


# ---- the Shadow Robot -----------------------------------------------------------------------


def test_shadow_alone_3_destroys_all_weapons():
    """The Shadow Robot, Alone, 3: "Destroy all Weapons in play." A face-down weapon is shown as
    it goes to the discard pile."""
    g = rig(["girl", "robot", "queen", "shadow"], hands={3: ["ap3"]},
            weapons={0: ["basic_sword", "kings_sword"], 1: ["dagger"]}, draw=["*"] * 4, turn=3)
    g.alive[2] = False
    king = next(s for s in g.weapons(0) if g.kind(s) == "kings_sword")
    t = Table(g)
    t.play(3, "ap3")
    t.act(3, "ability", id="shadow_destroy_all")
    assert all(g.weapons(p) == [] for p in range(4))
    assert g.public(king) and g.zone_of[king] == "discard"
    assert sorted(t.kinds("discard")) == ["ap3", "basic_sword", "basic_sword", "basic_sword",
                                          "dagger", "kings_sword"]


def test_shadow_alone_5_revives_the_queen():
    """The Shadow Robot, Alone, 5: "Revive the Evil Queen. She takes the bottom 3 cards of the
    discard pile." """
    g = rig(["girl", "robot", "queen", "shadow"], hands={3: ["ap2", "ap3"]},
            discard=["steal", "spy", "trade", "scout"], weapons={2: []}, draw=["*"] * 6, turn=3)
    g.alive[2] = False
    t = Table(g)
    assert g.side(3) == "alone"
    t.play(3, "ap2")
    t.play(3, "ap3")
    t.act(3, "ability", id="shadow_revive")
    assert g.alive[2] and g.side(2) == "team" and g.side(3) == "team"
    assert t.hand_kinds(2) == ["spy", "steal", "trade"]
    t.end(3)
    assert g.turn == 0
    t.end(0)
    t.end(1)
    assert g.turn == 2  # back in the turn order


def test_shadow_team_3_makes_a_player_give_the_queen_a_card():
    """The Shadow Robot, Team, 3: "Choose a player. They must give 1 card of their choice to the
    Evil Queen." """
    g = rig(["girl", "robot", "queen", "shadow"], hands={3: ["ap3"], 0: ["steal", "evade"]},
            draw=["*"] * 4, turn=3)
    t = Table(g)
    for p in range(4):
        t.views[p].narrate()
    t.play(3, "ap3")
    assert not t.has(3, "ability", id="shadow_give", target=2)  # not the Queen herself
    t.act(3, "ability", id="shadow_give", target=0)
    assert g.phase == "choose" and t.decider() == 0
    t.act(0, "choose", slot=t.slot("steal", "hand0"))
    assert t.hand_kinds(2) == ["steal"] and t.hand_kinds(0) == ["evade"]
    s = g.hand(2)[0]
    assert t.knows(2, s) and not t.knows(3, s) and not t.knows(1, s)
    logs = {p: "\n".join(t.views[p].take_notes()) for p in range(4)}
    for p in (0, 2):  # the giver and the Queen read the card; the others do not
        assert "Seat 1 gives a card to Seat 3: Steal." in logs[p]
    for p in (1, 3):
        assert "Seat 1 gives a card to Seat 3." in logs[p] and "Steal" not in logs[p]


def test_shadow_team_4_destroys_a_face_up_weapon():
    """The Shadow Robot, Team, 4: "Destroy 1 face-up Weapon in play." """
    g = rig(["girl", "robot", "queen", "shadow"], hands={3: ["ap2", "ap2"]},
            weapons={0: ["basic_sword", "pendant"]}, draw=["*"] * 4, turn=3)
    sword, pendant = g.weapons(0)
    t = Table(g)
    t.play(3, "ap2")
    t.play(3, "ap2")
    assert not t.has(3, "ability", id="shadow_destroy_one", weapon=pendant)  # face down
    t.act(3, "ability", id="shadow_destroy_one", weapon=sword)
    assert g.weapons(0) == [pendant] and g.zone_of[sword] == "discard"


def test_cursed_owner_uses_no_ability():
    """A Cursed Sword's owner "cannot use any ability": not even for free through the Pendant."""
    g = rig(["girl", "robot", "queen"], weapons={0: ["cursed_sword", "pendant"]},
            draw=["*", "demon"])
    pendant = next(s for s in g.weapons(0) if g.kind(s) == "pendant")
    t = Table(g)
    t.end(0)  # (nothing to discard: her hand is empty)
    t.act(0, "demon")
    t.act(0, "defend", weapon=pendant)
    t.act(0, "position", index=0)
    assert g.phase == "turn" and g.turn == 1  # no free Robot ability while cursed
