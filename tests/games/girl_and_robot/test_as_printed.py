"""Issue 14 (The Girl and the Robot, items 1-5): the rulebook's lines where p2pcards used to
read them otherwise, each with a scenario that quotes the line (the shared rulebook
``girl-and-robot.txt``)."""

from __future__ import annotations

import itertools
from pathlib import Path

from p2pcards.engine import Decide, LocalDealer, play
from p2pcards.games import new_game
from p2pcards.games.girl_and_robot.data import load

from .gar_rig import Table, rig

# ---- item 1: "the next player" is the next *other* living player -------------------------------


def test_ambush_during_your_own_extra_turn_goes_to_the_next_other_player():
    """"Ambush: [...] The next player plays 1 extra turn." The Queen, ambushed, plays Ambush
    during the first of her two turns: the extra turn goes to the Girl, who plays after her, not
    to the Queen herself (no chaining)."""
    g = rig(["girl", "queen"], hands={0: ["ambush"], 1: ["ambush"]}, draw=["*"] * 12)
    t = Table(g)
    t.play(0, "ambush")
    t.pass_all()
    t.end(0, draw=0)
    assert g.turn == 1 and g.extra == 1
    t.play(1, "ambush")
    t.pass_all()
    assert g.upcoming(4) == [1, 0, 0, 1]
    t.end(1, draw=0)
    assert g.turn == 1  # the Queen's own extra turn, no more
    assert "plays an extra turn" not in " ".join(t.log[-1:])
    t.end(1)
    assert g.turn == 0
    t.end(0)
    assert g.turn == 0  # the Girl's extra turn
    t.end(0)
    assert g.turn == 1


def test_turns_alternate_after_ambushes_in_a_three_player_game():
    """"Each player takes their turn in turn order" and "The next player plays 1 extra turn":
    however many Ambushes are played, nobody plays more than two turns in a row."""
    g = rig(["girl", "robot", "queen"], hands={0: ["ambush"], 1: ["ambush"]}, draw=["*"] * 20)
    t = Table(g)
    seen = [g.turn]
    for _ in range(8):
        p = g.turn
        if t.has(p, "play", card="ambush"):
            t.play(p, "ambush")
            t.pass_all()
        t.end(p, draw=0 if t.has(p, "end", draw=0) else 1)
        seen.append(g.turn)
    runs = [len(list(grp)) for _, grp in itertools.groupby(seen)]
    assert max(runs) == 2, seen
    assert seen[:5] == [0, 1, 1, 2, 2]


def test_provoke_during_your_own_extra_turn_provokes_the_next_other_player():
    """"Provoke: [...] The next player must play 2 cards, or else discard 2 cards during their
    turn." Played during a turn followed by her own extra turn, it provokes the Girl, who plays
    after her, never the Queen herself."""
    g = rig(["girl", "queen"], hands={0: ["ambush", "spy", "steal"], 1: ["provoke", "ap1"]},
            draw=["*"] * 12)
    t = Table(g)
    t.play(0, "ambush")
    t.pass_all()
    t.end(0, draw=0)
    t.play(1, "provoke")
    t.pass_all()
    t.end(1, draw=0)
    assert g.turn == 1 and not g.tf["provoke"]  # her own extra turn: not provoked
    t.end(1)
    assert g.turn == 0 and g.tf["provoke"]


def test_the_girls_hex_skips_her_own_extra_turn():
    """The Girl's "3: If the next player plays an Action card during their turn, its effects are
    cancelled." Used during a turn before her own extra turn, it hexes the Queen's turn."""
    g = rig(["girl", "queen"], hands={0: ["ap3"], 1: ["ambush", "steal"]}, draw=["*"] * 12)
    g.extra = 1  # the Girl was ambushed: this turn is followed by her extra turn
    t = Table(g)
    t.play(0, "ap3")
    t.act(0, "ability", id="girl_hex")
    t.end(0)
    assert g.turn == 0 and not g.tf["hex"]
    t.end(0)
    assert g.turn == 1 and g.tf["hex"]


def test_the_robots_ban_skips_its_own_extra_turn():
    """The Robot's "1: The next player cannot draw any card during their turn, regardless of
    other effects." Used before its own extra turn, the ban falls on the next other player."""
    g = rig(["queen", "robot", "girl"], hands={1: ["ap1"]}, draw=["*"] * 12, turn=1)
    g.alive[2] = False  # the Girl is dead: the Robot plays on its Alone side
    g.extra = 1  # the Robot was ambushed: this turn is followed by its extra turn
    t = Table(g)
    t.play(1, "ap1")
    t.act(1, "ability", id="robot_ban")
    t.end(1)
    assert g.turn == 1 and not g.tf["ban"]
    t.end(1)
    assert g.turn == 0 and g.tf["ban"]
    assert [a.draw for a in t.legal(0) if a.kind == "end"] == [0]


def test_the_robots_ban_falls_on_the_player_it_then_chooses():
    """The Robot's "1: The next player cannot draw any card during their turn" (through Lone Wolf)
    then its "4: Choose the player who plays after you": the next player is known when the turn
    ends, so the chosen Shadow Robot is banned, not the Queen who sits next."""
    g = rig(["girl", "robot", "queen", "shadow"], hands={1: ["lone_wolf", "ap2", "ap2"]},
            draw=["*"] * 10, turn=1)
    t = Table(g)
    t.play(1, "lone_wolf", ability="robot_ban")
    t.pass_all()
    t.play(1, "ap2")
    t.play(1, "ap2")
    t.act(1, "ability", id="robot_next", target=3)
    t.end(1)
    assert g.turn == 3 and g.tf["ban"]
    t.end(3, draw=0)
    assert g.turn == 0 and not g.tf["ban"]


def test_the_robots_choice_waits_for_its_own_extra_turn():
    """The Robot's "4: Choose the player who plays after you. The turn order stays the same."
    The chosen player plays after the Robot's own extra turn, then play goes on from them in the
    same direction (the reading docs/girl-and-robot.md states)."""
    g = rig(["girl", "robot", "queen", "shadow"], hands={1: ["ap2", "ap2"]}, draw=["*"] * 10, turn=1)
    g.extra = 1
    t = Table(g)
    t.play(1, "ap2")
    t.play(1, "ap2")
    t.act(1, "ability", id="robot_next", target=3)
    assert g.upcoming(3) == [1, 3, 0]
    t.end(1)
    assert g.turn == 1
    t.end(1)
    assert g.turn == 3
    t.end(3)
    assert g.turn == 0 and g.direction == 1


def test_the_doc_page_states_the_readings():
    """Issue 14 item 5: the doc page says which reading of the Robot's 4 is played, quoting it,
    that a cancelled Act II stays in the game, and which deck values are house values."""
    doc = " ".join((Path(__file__).parents[3] / "docs" / "girl-and-robot.md").read_text().split())
    assert ('"Choose the player who plays after you. The turn order stays the same." — is read as: '
            "the chosen player plays the next turn") in doc
    assert "cancelled Act II stays in the game" in doc
    assert '"Remove the 4 Demon cards from the Deck"' in doc and "house_totals" in doc


# ---- item 2: Act II only when asked for ----------------------------------------------------------


def test_act_ii_is_out_by_default_and_in_with_the_option():
    """"Act II: [...] Insert this card into the game only if you want to play longer." By
    default it is removed at setup; the option act2 (``--act2``) puts it in the deck."""
    act2 = load().cards_of("act_ii")
    for opts, where in (({}, "removed"), ({"act2": False}, "removed"), ({"act2": True}, "dealt")):
        g = new_game("girl-and-robot", 3, opts)
        d = LocalDealer(5)
        while not isinstance(g.pending(), Decide):
            g.apply(d.fulfil(g, g.pending()))
        zones = {g.zone_of[c] for c in act2}
        if where == "removed":
            assert zones == {"removed"}, opts
        else:
            assert "removed" not in zones and zones <= {"draw", "hand0", "hand1", "hand2"}


def test_a_cancelled_act_ii_stays_in_the_game():
    """"Act II: Remove Act II from the game, then shuffle the discard pile into the Draw Pile."
    Cancelled, its effect does not happen, removal included: it goes to the discard pile and stays
    in the game."""
    g = rig(["girl", "queen"], hands={0: ["act_ii"], 1: ["cancel_action"]}, discard=["spy"],
            draw=["*"] * 5)
    t = Table(g)
    t.play(0, "act_ii")
    t.act(1, "cancel", slot=t.slot("cancel_action", "hand1"))
    t.pass_all()
    assert t.kinds("discard") == ["spy", "act_ii", "cancel_action"]
    assert "act_ii" not in t.kinds("removed")


# ---- item 3: "Do not draw any card this turn" ----------------------------------------------------


def test_evade_stops_the_robots_two_point_draw():
    """"Evade: Do not draw any card this turn." and the Robot's "2: Draw 1 card.": after Evade
    no card is drawn that turn by any means, the Robot's ability included."""
    g = rig(["girl", "robot", "queen"], hands={1: ["evade", "ap2", "ap3"]}, draw=["*"] * 8, turn=1)
    t = Table(g)
    t.play(1, "ap2")
    assert t.has(1, "ability", id="robot_draw")
    t.play(1, "evade", direction=1)
    t.pass_all()
    assert not t.has(1, "ability", id="robot_draw")
    assert [a.draw for a in t.legal(1) if a.kind == "end"] == [0]


def test_the_robots_skip_stops_its_own_two_point_draw():
    """The Robot's Alone "3: Do not draw any card this turn." used through Lone Wolf ("Use any
    ability from the Alone side of your Character card for free") on its Team side: its Team
    "2: Draw 1 card." is then no longer offered."""
    g = rig(["girl", "robot", "queen"], hands={1: ["lone_wolf", "ap2"]}, draw=["*"] * 8, turn=1)
    t = Table(g)
    t.play(1, "ap2")
    assert t.has(1, "ability", id="robot_draw")
    t.play(1, "lone_wolf", ability="robot_skip")
    t.pass_all()
    assert g.tf["no_draw"]
    assert not t.has(1, "ability", id="robot_draw")
    hand = len(g.hand(1))
    t.end(1, draw=0)
    assert len(g.hand(1)) == hand


def test_seeded_games_still_end():
    """The fixes keep every game finite: 3-player bot games with Act II in and out all end."""
    from p2pcards.bots.registry import make_bot

    for seed in range(4):
        for act2 in (False, True):
            g = new_game("girl-and-robot", 3, {"act2": act2})
            agents = [make_bot("girl-and-robot", p, "random", seed=seed) for p in range(3)]
            final = play(g, agents, LocalDealer(seed), max_steps=20000)
            assert final.outcome() is not None
