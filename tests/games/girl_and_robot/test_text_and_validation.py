"""Every legal action can be described, every seat's status drawn, and a malformed or illegal
action is refused with a RuleViolation naming its player (never a crash)."""

from __future__ import annotations

import random
import re

import pytest

from p2pcards.bots.base import RandomBot
from p2pcards.engine import Action, Decide, Decision, LocalDealer, RuleViolation, play
from p2pcards.games import new_game

from .gar_rig import Table, rig


@pytest.mark.parametrize("n", [2, 3, 4])
def test_describe_and_status_never_fail(n):
    for seed in range(6):
        st = new_game("girl-and-robot", n, {"euro": seed % 2 == 1})

        def check(s, ev):
            req = s.pending()
            if isinstance(req, Decide):
                v = s.view(req.player)
                for a in v.legal(req.player):
                    assert v.describe(a)
                for p in range(n):
                    assert s.view(p).status(p)
                assert s.view(-1).status(None)

        play(st, [RandomBot(p, seed) for p in range(n)], LocalDealer(seed), on_step=check)


def test_malformed_actions_are_refused():
    g = rig(["girl", "queen"], hands={0: ["steal", "ap2"], 1: ["spy"]}, draw=["*"] * 4)
    t = Table(g)
    bad = [Action("play"), Action("play", slot=999, card="steal", target=1),
           Action("play", slot=-1, card="steal", target=1), Action("flip", slot="x"),
           Action("position", index=3), Action("nonsense"), Action("end", draw=5),
           Action("play", slot=t.slot("steal", "hand0"), card="steal", target=0),
           Action("play", slot=t.slot("steal", "hand0"), card="dragon", target=1),
           Action("ability", id="girl_hex"), Action("show", slots=[])]
    for a in bad:
        for copy in (g, t.views[0], t.views[1]):
            with pytest.raises(RuleViolation) as e:
                copy.clone().apply(Decision(0, a))
            assert e.value.player == 0


def test_random_actions_in_every_phase_are_refused_or_applied_cleanly():
    """Fuzz: at random points of random games, a random well-formed but arbitrary action is
    accepted, in the deciding seat's copy and in the full state alike, exactly when
    it is legal."""
    rng = random.Random(5)
    kinds = ["play", "hide", "flip", "ability", "show", "ally", "unleash", "end", "pass",
             "cancel", "safe", "demon", "defend", "position", "order", "choose", "bury", "copy",
             "nocopy", "lure", "nodemon", "pick", "pendant", "waste", "direction"]
    for seed in range(8):
        st = new_game("girl-and-robot", 3)

        def fuzz(s, ev):
            req = s.pending()
            if not isinstance(req, Decide):
                return
            p = req.player
            v = s.view(p)
            candidates = [Action(rng.choice(kinds), slot=rng.randrange(s.n_cards), target=rng.randrange(3),
                                 card=rng.choice(["steal", "scout", "ap1", "basic_sword"]))]
            for a in rng.sample(s.legal(p), min(2, len(s.legal(p)))):
                if isinstance(a.get("slot"), int):  # the same action with another card of its zone
                    other = rng.choice(s.zones[s.zone_of[a.slot]])
                    candidates.append(Action(a.kind, **{**dict(a.args), "slot": other}))
            for a in candidates:
                legal = s.canonical(p, a) in s.legal(p)  # an equivalent card is accepted
                for copy in (s, v):
                    try:
                        copy.clone().apply(Decision(p, a))
                        ok = True
                    except RuleViolation as exc:
                        assert exc.player == p
                        ok = False
                    assert ok == legal, (a, s.phase)

        play(st, [RandomBot(p, seed) for p in range(3)], LocalDealer(seed), on_step=fuzz)


def test_narration_counts_and_lists_read_as_english():
    """Issue 13's polish list: "1 point", never "1 points" or "point(s)"; names listed as "A, B
    and C"; a character inside a sentence is "the Robot"; seats are numbered from 1."""
    g = rig(["girl", "robot", "queen"], hands={1: ["ap1", "ap2", "peace_treaty"], 2: ["spy"]},
            draw=["*"] * 6, turn=1)
    t = Table(g)
    t.play(1, "ap1")
    t.play(1, "ap2")
    t.act(1, "ability", id="robot_draw")
    t.pass_windows()
    t.play(1, "peace_treaty")
    t.pass_all()
    for _ in range(3):  # each player with a card chooses one
        if g.phase == "choose":
            t.act(t.decider(), "choose", slot=g.hand(t.decider())[0])
    log = "\n".join(t.log)
    assert "Seat 2 plays Ability Points 1 (1 point this turn)." in log
    assert "Seat 2 plays Ability Points 2 (3 points this turn)." in log
    assert "Seat 2 uses the Robot's ability: [2] Draw 1 card." in log
    assert "2 cards are shuffled and placed on top of the Draw Pile." in log
    assert "(s)" not in log and " 1 cards" not in log and "Seat 0" not in log

    g = new_game("girl-and-robot", 4, {"names": ["Ann", "Bo", "Cy", "Di"]})
    d = LocalDealer(2)
    g.narrate()
    while not isinstance(g.pending(), Decide):
        g.apply(d.fulfil(g, g.pending()))
    chars = next(line for line in g.take_notes() if line.startswith("Characters:"))
    seat = r"(Ann|Bo|Cy|Di) is the (Girl|Robot|Evil Queen|Shadow Robot)"
    assert re.fullmatch(rf"Characters: {seat}, {seat}, {seat} and {seat}\.", chars), chars


def test_the_status_names_the_character_cards_side():
    """Rulebook: "Each Character card has 2 sides that indicate whether they are Alone or in a
    Team." The status showed "The Girl [team]" and a dead seat's "[-]": a newcomer read "[team]"
    as the name of a team (ux22). It says "[Team side]" / "[Alone side]", and nothing for the
    dead (who are marked "dead")."""
    g = rig(["girl", "robot", "queen", "shadow"], draw=["*"] * 6)
    g.alive[3] = False
    lines = g.view(0).status(0)
    assert any(x.startswith("  Seat 1 (you): The Girl [Team side] · ") for x in lines), lines
    assert any(" [Alone side] · " in x and "Queen" in x for x in lines), lines
    dead = next(x for x in lines if "Shadow Robot" in x)
    assert "side]" not in dead and "[-]" not in dead and "dead" in dead, dead
