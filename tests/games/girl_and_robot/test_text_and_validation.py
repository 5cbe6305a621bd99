"""Every legal action can be described, every seat's status drawn, and a malformed or illegal
action is refused with a RuleViolation naming its player (never a crash)."""

from __future__ import annotations

import random

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
                legal = s._canonical(p, a) in s.legal(p)  # an equivalent card is accepted
                for copy in (s, v):
                    try:
                        copy.clone().apply(Decision(p, a))
                        ok = True
                    except RuleViolation as exc:
                        assert exc.player == p
                        ok = False
                    assert ok == legal, (a, s.phase)

        play(st, [RandomBot(p, seed) for p in range(3)], LocalDealer(seed), on_step=fuzz)
