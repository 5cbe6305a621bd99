"""One scenario per Action card and Weapon card, each quoting the card's text, with the deck
requests that carry its hidden information."""

from __future__ import annotations

import pytest

from p2pcards.engine import Action, Random, Reveal, Shuffle

from .gar_rig import Table, rig

# ---- Action cards ---------------------------------------------------------------------------


def test_a_deal_with_a_demon():
    """"A Deal with a Demon: After playing this card, if you draw a Demon during this turn, set
    it aside on the table. Place the Demon face up anywhere in the Draw Pile during any other
    turn" — here just before the opponent's draw."""
    g = rig(["girl", "queen"], hands={0: ["deal_with_demon"]}, draw=["*", "*", "*", "demon"])
    t = Table(g)
    t.play(0, "deal_with_demon")
    t.pass_all()
    t.end(0)
    t.act(0, "demon")
    demon = g.zones["aside0"][0]
    assert g.alive[0] and g.kind(demon) == "demon" and len(g.weapons(0)) == 1
    assert not t.has(1, "unleash")  # not the Queen's to place
    t.act(1, "end", draw=1)
    assert g.phase == "aside" and t.decider() == 0  # asked before the Queen draws
    t.act(0, "unleash")
    t.act(0, "position", index=len(g.zones["draw"]))  # on top, face up
    assert g.phase == "defend" and t.decider() == 1  # the Queen drew it
    assert g.zones["aside0"] == []


def test_a_deal_with_a_demon_not_during_the_same_turn():
    """"Place the Demon face up anywhere in the Draw Pile during any other turn": not during the
    turn it was set aside."""
    g = rig(["girl", "queen"], hands={0: ["deal_with_demon", "deal_with_demon"]},
            draw=["*", "*", "demon", "*", "demon"])
    t = Table(g)
    t.play(0, "deal_with_demon")
    t.pass_all()
    t.end(0)
    t.act(0, "demon")
    assert g.turn == 1 and not t.has(0, "unleash")
    t.end(1)
    assert g.turn == 0 and t.has(0, "unleash")  # a later turn of its owner


def test_a_deal_with_a_demon_placed_when_its_owner_dies():
    """"... or if you die." """
    g = rig(["girl", "robot", "queen"], hands={0: ["spy"]}, draw=["*", "*", "demon"],
            weapons={0: []})
    d = g._data.cards_of("demon")[1]
    g.place(d, "aside0")
    g.known[d] = g.all_mask
    g.aside_turn[str(d)] = 0
    t = Table(g)
    t.end(0)
    t.act(0, "demon")
    t.act(0, "position", index=0)  # the drawn Demon first
    assert not g.alive[0] and g.phase == "position" and t.decider() == 0
    t.act(0, "position", index=len(g.zones["draw"]))
    assert g.zones["aside0"] == [] and d in g.faceup and g.zones["draw"][-1] == d


def test_act_ii():
    """"Act II: Remove Act II from the game, then shuffle the discard pile into the Draw Pile."
    A face-up card of the Draw Pile stays face up, at a random position."""
    g = rig(["girl", "queen"], hands={0: ["act_ii"]}, discard=["steal", "spy", "trade"],
            draw=["*", "*", "demon", "*"], faceup=[2])
    up = g.zones["draw"][2]
    t = Table(g, randoms=[0])
    t.play(0, "act_ii")
    t.pass_all()
    assert t.kinds("removed").count("act_ii") == 1 and g.zones["discard"] == []
    draw = g.zones["draw"]
    assert len(draw) == 7 and draw[0] == up and up in g.faceup and g.public(up)
    shuffle = next(r for r in t.requests if isinstance(r, Shuffle))
    assert len(shuffle.slots) == 6 and up not in shuffle.slots and shuffle.by is None
    assert Random(7) in t.requests
    assert all(g.known[s] == 0 for s in draw if s != up)


def test_ambush():
    """"Ambush: You may choose not to draw any card this turn. The next player plays 1 extra
    turn." """
    g = rig(["girl", "queen"], hands={0: ["ambush"]}, draw=["*"] * 8)
    t = Table(g)
    t.play(0, "ambush")
    t.pass_all()
    assert t.has(0, "end", draw=0) and t.has(0, "end", draw=1)
    t.end(0, draw=0)
    assert g.hand(0) == [] and g.turn == 1
    t.end(1)
    assert g.turn == 1  # the extra turn
    t.end(1)
    assert g.turn == 0


def test_blind():
    """"Blind: Choose a player. They must shuffle their hand, then keep playing with those cards
    face down on the table until they draw a card." The hand is shuffled with by=None: not even
    its owner knows which card is which."""
    g = rig(["girl", "queen"], hands={0: ["blind"], 1: ["basic_sword", "spy", "ap2"]},
            draw=["*"] * 6)
    t = Table(g)
    hand = tuple(g.hand(1))
    t.play(0, "blind", target=1)
    t.pass_all()
    assert Shuffle(hand, None) in t.requests
    assert not any(t.knows(p, s) for p in (0, 1) for s in hand) and g.blind[1]
    t.end(0)
    legal = t.legal(1)
    assert {a.slot for a in legal if a.kind == "flip"} == set(hand)
    assert not any(a.kind == "play" for a in legal)  # nothing known to play normally
    first = g.hand(1)[0]
    t.act(1, "flip", slot=first)
    assert g.public(first) and g.phase == "flipped"
    t.do(1, t.legal(1)[0])  # a turned-over card must be played
    t.pass_all()
    t.end(1)
    assert not g.blind[1]
    assert all(t.knows(1, s) for s in g.hand(1))  # drawing ends it: she sees her cards again


def test_cancel_action():
    """"Cancel Action: Cancel the effect of an Action card that has just been played. You may
    play this card at any time." The Queen cancels the Girl's Steal during the Girl's turn."""
    g = rig(["girl", "queen"], hands={0: ["steal"], 1: ["cancel_action", "spy"]}, draw=["*"] * 4)
    t = Table(g)
    t.play(0, "steal", target=1)
    assert t.decider() == 1 and t.legal(1)[0] == Action("pass")
    t.act(1, "cancel")
    assert t.decider() == 0  # the Cancel Action opens its own window
    t.act(0, "pass")
    assert t.hand_kinds(1) == ["spy"] and g.hand(0) == []
    assert t.kinds("discard") == ["steal", "cancel_action"]
    assert g.phase == "turn" and t.decider() == 0


def test_cancel_action_can_be_cancelled():
    """A Cancel Action is an Action card too: the Robot cancels the Queen's Cancel Action, so
    the Girl's Steal resolves."""
    g = rig(["girl", "robot", "queen"], hands={0: ["steal"], 1: ["cancel_action"],
                                               2: ["cancel_action", "spy"]}, draw=["*"] * 4)
    t = Table(g, randoms=[0])
    t.play(0, "steal", target=2)
    t.act(1, "pass")
    t.act(2, "cancel")
    assert t.decider() == 0
    t.act(0, "pass")
    t.act(1, "cancel")
    t.act(2, "pass")
    t.act(0, "pass")
    assert t.hand_kinds(0) == ["spy"]  # the Steal resolved
    assert sorted(t.kinds("discard")) == ["cancel_action", "cancel_action", "steal"]


def test_evade():
    """"Evade: Do not draw any card this turn. You may choose a new turn order (clockwise or
    counter-clockwise)." """
    g = rig(["girl", "robot", "queen"], hands={0: ["evade"]}, draw=["*"] * 6)
    t = Table(g)
    assert t.has(0, "play", card="evade", direction=1) and t.has(0, "play", card="evade", direction=-1)
    t.play(0, "evade", direction=-1)
    t.pass_all()
    assert [a for a in t.legal(0) if a.kind == "end"] == [Action("end", draw=0)]
    t.end(0, draw=0)
    assert g.hand(0) == [] and g.turn == 2 and g.direction == -1


def test_grave_digger():
    """"Grave Digger: Draw from the top of the discard pile instead of the Draw Pile this turn.
    Discard this card at the end of your turn, after your draw phase." """
    g = rig(["girl", "queen"], hands={0: ["grave_digger"]}, discard=["steal", "spy"],
            draw=["*", "demon"])
    t = Table(g)
    t.play(0, "grave_digger")
    t.pass_all()
    assert t.kinds("held") == ["grave_digger"]
    t.end(0)
    assert t.hand_kinds(0) == ["spy"] and g.alive[0]
    assert t.kinds("discard") == ["steal", "grave_digger"]
    assert t.top() == ["demon"]


def test_lone_wolf():
    """"Lone Wolf: Use any ability from the Alone side of your Character card for free." The
    Robot, on its Team side, skips its draw with its Alone 3-point ability, with no points."""
    g = rig(["girl", "robot", "queen"], hands={1: ["lone_wolf"]}, draw=["*"] * 5, turn=1)
    t = Table(g)
    assert g.side(1) == "team" and g.points == 0
    assert {a.ability for a in t.legal(1) if a.get("card") == "lone_wolf"} == {"robot_ban", "robot_skip"}
    t.play(1, "lone_wolf", ability="robot_skip")
    t.pass_all()
    assert [a for a in t.legal(1) if a.kind == "end"] == [Action("end", draw=0)]


def test_lone_wolf_is_discarded_after_the_ability():
    """"Discard this card after the effect of the ability is resolved." The Evil Queen's "take
    the top Action card of the discard pile" through Lone Wolf takes the card under it."""
    g = rig(["girl", "robot", "queen", "shadow"], hands={2: ["lone_wolf"]}, discard=["steal"],
            draw=["*"] * 5, turn=2)
    t = Table(g)
    t.play(2, "lone_wolf", ability="queen_take")
    t.pass_all()
    assert t.hand_kinds(2) == ["steal"] and t.kinds("discard") == ["lone_wolf"]


def test_lure():
    """"Lure: Search the Draw Pile for a Demon, shuffle the pile, then place the Demon face up
    under the top 2 cards." The search shows the pile to its player alone; the shuffle keeps
    the face-up cards face up."""
    g = rig(["girl", "queen"], hands={0: ["lure"]},
            draw=["*", "demon", "*", "*", "demon", "*", "*"], faceup=[4])
    draw = g.zones["draw"]
    hidden_demon, up = draw[1], draw[4]
    down = tuple(s for s in draw if s != up)
    t = Table(g, randoms=[2])
    t.play(0, "lure")
    t.pass_all()
    assert t.requests[-1] == Reveal(down, (0,))
    assert all(t.knows(0, s) for s in down) and not any(t.knows(1, s) for s in down)
    assert t.has(0, "lure", slot=hidden_demon) and t.has(0, "lure", slot=up)
    t.act(0, "lure", slot=hidden_demon)
    draw = g.zones["draw"]
    assert draw[-3] == hidden_demon and hidden_demon in g.faceup and g.public(hidden_demon)
    assert draw[2] == up and up in g.faceup  # the other face-up Demon, at Random position 2
    assert not any(t.knows(0, s) for s in draw if s not in g.faceup)  # shuffled


def test_magic_mirror():
    """"Magic Mirror: Choose a player. They must reveal their hand to everyone this turn. Copy
    the effect of one of their Action cards as if you played it. This card stays in their
    hand." The Girl copies the Queen's Steal."""
    g = rig(["girl", "robot", "queen"], hands={0: ["magic_mirror"], 2: ["steal", "ap2", "spy"]},
            draw=["*"] * 4)
    t = Table(g, randoms=[1])
    t.play(0, "magic_mirror", target=2)
    t.pass_all()
    assert all(t.knows(1, s) for s in g.hand(2))  # revealed to everyone
    assert t.has(0, "copy", card="spy", target=2) and t.has(0, "nocopy")
    assert not t.has(0, "copy", card="magic_mirror")
    t.act(0, "copy", card="steal", target=2)
    assert t.hand_kinds(0) == ["ap2"]
    assert t.hand_kinds(2) == ["spy", "steal"]  # the copied card stays
    assert t.kinds("discard") == ["magic_mirror"]


def test_manipulate():
    """"Manipulate: Look at the top 3 cards of the Draw Pile, then put them back face down in an
    order of your choice." A Reveal to its player, then a private reorder Shuffle(by=player):
    that seat alone knows the new order."""
    g = rig(["girl", "queen"], hands={0: ["manipulate"]}, draw=["*", "*", "*", "demon"])
    top3 = tuple(g.zones["draw"][-3:])
    demon = g.zones["draw"][-1]

    def arrange(by, slots):
        assert by == 0
        rest = [s for s in slots if s != demon]
        return [demon] + rest  # the Demon goes to the deepest of the three

    t = Table(g, arrange=arrange)
    t.play(0, "manipulate")
    t.pass_all()
    assert Reveal(top3, (0,)) in t.requests and Shuffle(top3, 0) in t.requests
    assert t.top(3)[2] == "demon" and g.zones["draw"][-3] == top3[0]
    assert all(t.knows(0, s) for s in top3) and not any(t.knows(1, s) for s in top3)
    assert not any(s in g.faceup for s in top3)


def test_manipulate_keeps_face_up_cards_in_place():
    """A face-up card among the top 3 stays face up where it is; Manipulate reorders the
    face-down ones."""
    g = rig(["girl", "queen"], hands={0: ["manipulate"]}, draw=["*", "*", "demon", "*"],
            faceup=[2])
    up = g.zones["draw"][2]
    t = Table(g)
    t.play(0, "manipulate")
    t.pass_all()
    shuffle = next(r for r in t.requests if isinstance(r, Shuffle))
    assert up not in shuffle.slots and len(shuffle.slots) == 2 and shuffle.by == 0
    assert g.zones["draw"][2] == up and up in g.faceup


def test_manipulate_scout_smoke_bomb_during_the_allys_turn():
    """"If you have an ally, you may play this card during their turn." (Manipulate, Scout,
    Smoke Bomb.) The Robot is asked before the Girl's draw, and plays Scout then passes."""
    g = rig(["girl", "robot", "queen"], hands={1: ["scout", "steal"]}, draw=["*"] * 6)
    t = Table(g)
    t.act(0, "end", draw=1)
    assert g.phase == "ally" and t.decider() == 1
    assert t.legal(1)[0] == Action("pass") and t.has(1, "play", card="scout")
    assert not t.has(1, "play", card="steal")
    t.play(1, "scout")
    t.pass_all()
    assert g.phase == "ally" and t.decider() == 1
    assert all(t.knows(1, s) for s in g.zones["draw"][-5:])
    t.act(1, "pass")
    t.pass_windows()
    assert g.turn == 1


def test_calling_on_the_ally():
    """The player whose turn it is may also call on their ally during the turn (once)."""
    g = rig(["girl", "robot", "queen"], hands={1: ["smoke_bomb"]}, draw=["*"] * 6)
    t = Table(g)
    t.act(0, "ally")
    assert g.phase == "ally" and t.decider() == 1
    t.play(1, "smoke_bomb")
    t.pass_all()
    t.act(1, "pass")
    assert g.phase == "turn" and t.decider() == 0 and not t.has(0, "ally")


def test_peace_treaty():
    """"Peace Treaty: Each player chooses 1 card from their hand if they can. Shuffle these cards
    and place them on top of the Draw Pile." """
    g = rig(["girl", "robot", "queen"], hands={0: ["peace_treaty", "steal"], 2: ["trade", "ap1"]},
            draw=["demon", "*"])
    t = Table(g)
    t.play(0, "peace_treaty")
    t.pass_all()
    assert t.decider() == 0
    t.act(0, "choose", slot=t.slot("steal", "hand0"))
    # the Robot has no card and is skipped
    assert t.decider() == 2
    t.act(2, "choose", slot=t.slot("trade", "hand2"))
    chosen = [r for r in t.requests if isinstance(r, Shuffle)][-1]
    assert chosen.by is None and len(chosen.slots) == 2
    assert sorted(t.top(2)) == ["steal", "trade"]
    assert not any(t.knows(p, s) for p in range(3) for s in g.zones["draw"][-2:])


def test_provoke():
    """"Provoke: You may choose not to draw any card this turn. The next player must play 2
    cards, or else discard 2 cards during their turn." The Queen plays one card, so she
    discards one."""
    g = rig(["girl", "queen"], hands={0: ["provoke"], 1: ["spy", "steal", "ap1"]}, draw=["*"] * 6)
    t = Table(g)
    t.play(0, "provoke")
    t.pass_all()
    assert t.has(0, "end", draw=0)
    t.end(0, draw=0)
    assert g.tf["provoke"]
    t.play(1, "ap1")
    t.act(1, "end", draw=1)
    assert g.phase == "choose" and t.decider() == 1
    t.act(1, "choose", slot=t.slot("spy", "hand1"))
    assert t.kinds("discard")[-1] == "spy"
    t.pass_windows()
    assert g.turn == 0 and len(g.hand(1)) == 2


def test_scout():
    """"Scout: Look at the next 5 cards of the Draw Pile without changing their order." """
    g = rig(["girl", "queen"], hands={0: ["scout"]}, draw=["*"] * 7)
    before = list(g.zones["draw"])
    t = Table(g)
    t.play(0, "scout")
    t.pass_all()
    assert t.requests[-1] == Reveal(tuple(before[-5:]), (0,))
    assert g.zones["draw"] == before
    assert all(t.knows(0, s) for s in before[-5:]) and not any(t.knows(0, s) for s in before[:2])
    assert not any(t.knows(1, s) for s in before)


def test_smoke_bomb():
    """"Smoke Bomb: Shuffle the Draw Pile." Its face-down cards are shuffled by the deck
    service; a face-up Demon goes back at a random position, still face up."""
    g = rig(["girl", "queen"], hands={0: ["smoke_bomb"]}, draw=["*", "*", "*", "demon", "*"],
            faceup=[3])
    up = g.zones["draw"][3]
    t = Table(g, randoms=[0])
    t.play(0, "smoke_bomb")
    t.pass_all()
    shuffle = next(r for r in t.requests if isinstance(r, Shuffle))
    assert len(shuffle.slots) == 4 and up not in shuffle.slots and Random(5) in t.requests
    assert g.zones["draw"][0] == up and up in g.faceup


def test_spy():
    """"Spy: Choose a player. They must play with their cards face up on the table until they
    draw a card." A card they receive meanwhile is shown too; the card they draw is not."""
    g = rig(["girl", "robot", "queen"], hands={0: ["spy", "trade", "ap2"], 2: ["steal", "ap1"]},
            draw=["*"] * 6)
    t = Table(g)
    t.play(0, "spy", target=2)
    t.pass_all()
    assert all(g.public(s) for s in g.hand(2)) and g.spied[2]
    t.play(0, "trade", target=2)
    t.pass_all()
    t.act(0, "choose", slot=t.slot("ap2", "hand0"))
    t.act(2, "choose", slot=t.slot("ap1", "hand2"))
    got = t.slot("ap2", "hand2")
    assert g.public(got)  # received while spied: face up
    assert t.knows(1, t.slot("ap1", "hand0"))  # it lay face up on the spied Queen's table
    t.end(0)
    t.end(1)
    t.end(2)
    assert not g.spied[2]
    drawn = g.hand(2)[-1]
    assert not t.knows(0, drawn) and t.knows(2, drawn)


def test_steal():
    """"Steal: Choose another player. Take a card from their hand at random." The random card is
    a joint Random(len(hand)) picking a slot of the public hand order."""
    g = rig(["girl", "robot", "queen"], hands={0: ["steal"], 2: ["spy", "trade", "ap2"]},
            draw=["*"] * 5)
    hand = list(g.hand(2))
    t = Table(g, randoms=[1])
    assert not t.has(0, "play", card="steal", target=1)  # the Robot has no card
    t.play(0, "steal", target=2)
    t.pass_all()
    assert Random(3) in t.requests
    assert g.hand(0) == [hand[1]] and t.hand_kinds(0) == ["trade"]
    assert t.knows(0, hand[1]) and t.knows(2, hand[1]) and not t.knows(1, hand[1])


def test_trade():
    """"Trade: Choose another player. Each of you chooses a card from your hand if you can, then
    gives it to the other player." """
    g = rig(["girl", "robot", "queen"], hands={0: ["trade", "steal"], 2: ["spy", "ap2"]},
            draw=["*"] * 5)
    t = Table(g)
    t.play(0, "trade", target=2)
    t.pass_all()
    t.act(0, "choose", slot=t.slot("steal", "hand0"))
    assert t.decider() == 2 and not t.knows(2, t.slot("steal", "hand0"))
    t.act(2, "choose", slot=t.slot("spy", "hand2"))
    assert t.hand_kinds(0) == ["spy"] and t.hand_kinds(2) == ["ap2", "steal"]
    spy, steal = t.slot("spy", "hand0"), t.slot("steal", "hand2")
    assert t.knows(0, spy) and t.knows(2, steal) and not t.knows(1, spy) and not t.knows(1, steal)


def test_trade_with_an_empty_hand():
    """"... if you can": with nothing left to give, the Girl only receives."""
    g = rig(["girl", "queen"], hands={0: ["trade"], 1: ["spy"]}, draw=["*"] * 3)
    t = Table(g)
    t.play(0, "trade", target=1)
    t.pass_all()
    t.act(1, "choose", slot=t.slot("spy", "hand1"))
    assert t.hand_kinds(0) == ["spy"] and g.hand(1) == []


def test_weapon_tax():
    """"Weapon Tax: If another player has more Weapons than you on the table, take one and place
    it next to your character." A face-down weapon can be taken; its new owner looks at it."""
    g = rig(["girl", "queen"], hands={0: ["weapon_tax", "weapon_tax"]},
            weapons={0: ["basic_sword"], 1: ["basic_sword", "kings_sword"]}, draw=["*"] * 3)
    king = next(s for s in g.weapons(1) if g.kind(s) == "kings_sword")
    sword = next(s for s in g.weapons(1) if g.kind(s) == "basic_sword")
    t = Table(g)
    assert t.has(0, "play", card="weapon_tax", target=1, weapon=king)
    t.play(0, "weapon_tax", target=1, weapon=king)
    t.pass_all()
    assert g.zone_of[king] == "weapons0" and str(king) in g.hidden and t.knows(0, king)
    assert g.zone_of[sword] == "weapons1"
    assert not t.has(0, "play", card="weapon_tax")  # now the Girl has more than the Queen


def test_weapon_tax_needs_more_weapons():
    """Weapon Tax needs a player with more Weapons than you."""
    g = rig(["girl", "queen"], hands={0: ["weapon_tax"]}, draw=["*"] * 3)
    t = Table(g)
    assert not t.has(0, "play", card="weapon_tax")


# ---- Weapon cards ---------------------------------------------------------------------------


def test_basic_sword():
    """"Every player starts with 1 Basic Sword card to be placed next to their character." A
    Basic Sword back in play (after Act II) is placed next to its player's character."""
    g = rig(["girl", "queen"], hands={0: ["basic_sword"]}, draw=["*", "demon"], weapons={0: []})
    t = Table(g)
    assert [a for a in t.legal(0) if a.get("card") == "basic_sword"] == [
        Action("play", slot=t.slot("basic_sword", "hand0"), card="basic_sword", target=0)]
    t.play(0, "basic_sword", target=0)
    t.end(0)
    t.act(0, "demon")
    t.act(0, "defend", weapon=g.weapons(0)[0])
    assert g.alive[0] and g.weapons(0) == []


def test_cursed_sword():
    """"Cursed Sword: You may place this Weapon on any character in play. Its owner cannot use
    any ability and must play a card, or else discard a card, each turn." """
    g = rig(["girl", "robot", "queen"], hands={0: ["cursed_sword"], 2: ["ap3", "lone_wolf", "spy"]},
            draw=["*"] * 8)
    t = Table(g)
    assert {a.target for a in t.legal(0) if a.get("card") == "cursed_sword"} == {0, 1, 2}
    t.play(0, "cursed_sword", target=2)
    t.end(0)
    t.end(1)
    assert g.cursed(2)
    t.play(2, "ap3")
    assert not any(a.kind == "ability" for a in t.legal(2))
    assert not t.has(2, "play", card="lone_wolf")
    t.end(2)  # she played a card: no discard
    assert g.turn == 0 and len(g.hand(2)) == 3
    t.end(0)
    t.end(1)
    t.act(2, "end", draw=1)  # nothing played this turn: discard one
    assert g.phase == "choose" and t.decider() == 2
    t.act(2, "choose", slot=t.slot("spy", "hand2"))
    assert t.kinds("discard")[-1] == "spy"


def test_dagger():
    """"Dagger: You may place this Weapon on an ally's character instead of your own. This
    Weapon cannot be taken with the Weapon Tax card." """
    g = rig(["girl", "robot", "queen"], hands={0: ["dagger"], 2: ["weapon_tax"]},
            weapons={1: [], 2: []}, draw=["*"] * 6)
    t = Table(g)
    assert {a.target for a in t.legal(0) if a.get("card") == "dagger"} == {0, 1}
    t.play(0, "dagger", target=1)
    dagger = g.weapons(1)[0]
    assert g.kind(dagger) == "dagger"
    t.end(0)
    t.end(1)
    taxes = [a for a in t.legal(2) if a.get("card") == "weapon_tax"]
    assert taxes and all(a.weapon != dagger for a in taxes)
    assert {a.target for a in taxes} == {0}


def test_kings_sword():
    """"King's Sword: Once played, place this Weapon face down. After defeating a Demon, turn
    this card face up so that it can be used one more time." """
    g = rig(["girl", "queen"], hands={0: ["kings_sword"]}, weapons={0: []},
            draw=["*", "demon", "*", "demon"])
    t = Table(g)
    king = t.slot("kings_sword", "hand0")
    t.act(0, "hide", slot=king)
    assert g.zone_of[king] == "weapons0" and not t.knows(1, king)
    assert "face-down weapon" in " ".join(t.views[1].status(1))
    t.end(0)
    t.act(0, "demon")
    t.act(0, "defend", weapon=king)
    assert g.public(king) and g.zone_of[king] == "weapons0" and king in g.king_used
    t.act(0, "position", index=0)
    t.end(1)
    t.end(0)
    t.act(0, "demon")
    t.act(0, "defend", weapon=king)  # the second time it is discarded
    assert g.zone_of[king] == "discard" and g.alive[0]


def test_pendant():
    """"Pendant: Once played, place this Weapon face down. After defeating a Demon and
    discarding this card, if the Robot is in play, you may use one of its abilities for free."
    The Girl uses the Robot's "choose the player who plays after you" (4)."""
    g = rig(["girl", "robot", "queen"], hands={0: ["pendant"]}, weapons={0: []},
            draw=["*", "*", "demon"])
    t = Table(g)
    pendant = t.slot("pendant", "hand0")
    t.act(0, "hide", slot=pendant)
    t.end(0)
    t.act(0, "demon")
    t.act(0, "defend", weapon=pendant)
    assert g.zone_of[pendant] == "discard"
    t.act(0, "position", index=0)
    assert g.phase == "pendant" and t.legal(0)[0] == Action("pass")
    ids = {a.id for a in t.legal(0) if a.kind == "pendant"}
    assert ids == {"robot_draw", "robot_next"}  # the Robot's Team side, for free
    t.act(0, "pendant", id="robot_next", target=2)
    assert g.turn == 2  # the Queen plays next instead of the Robot


def test_pendant_without_the_robot():
    """"... if the Robot is in play": with two players there is no free ability."""
    g = rig(["girl", "queen"], hands={0: ["pendant"]}, weapons={0: []}, draw=["*", "demon"])
    t = Table(g)
    t.act(0, "hide", slot=t.slot("pendant", "hand0"))
    t.end(0)
    t.act(0, "demon")
    t.act(0, "defend", weapon=g.weapons(0)[0])
    t.act(0, "position", index=0)
    assert g.turn == 1 and g.phase == "turn"


@pytest.mark.parametrize("kind", ["kings_sword", "pendant"])
def test_face_down_weapons_are_hidden_claims(kind):
    """King's Sword and Pendant are placed face down: the opponent sees "a face-down weapon"
    only, and the Shadow Robot's "destroy 1 face-up Weapon" cannot target it."""
    g = rig(["girl", "robot", "queen", "shadow"], hands={0: [kind], 3: ["ap2", "ap2"]},
            draw=["*"] * 6)
    t = Table(g)
    s = t.slot(kind, "hand0")
    t.act(0, "hide", slot=s)
    assert not t.knows(2, s) and not t.knows(3, s) and not t.knows(1, s)
    g.turn = 3
    assert {"weapon": s} not in g.ability_variants(3, "shadow_destroy_one")


def test_lure_without_a_demon():
    """"Lure: Search the Draw Pile for a Demon, shuffle the pile..." With every Demon set aside
    there is none to take: the pile is still shuffled. Saying so while a Demon is there is
    refused by the full-information engine (the audit)."""
    g = rig(["girl", "queen"], hands={0: ["lure"]}, draw=["*", "*", "*"])
    t = Table(g)
    t.play(0, "lure")
    t.pass_all()
    assert t.legal(0) == [Action("nodemon")]
    t.act(0, "nodemon")
    assert any(isinstance(r, Shuffle) for r in t.requests) and g.phase == "turn"
    g2 = rig(["girl", "queen"], hands={0: ["lure"]}, draw=["*", "demon", "*"])
    t2 = Table(g2)
    t2.play(0, "lure")
    t2.pass_all()
    from p2pcards.engine import RuleViolation
    with pytest.raises(RuleViolation):
        g2.validate(0, Action("nodemon"))
