"""The Girl and the Robot hints use the seat's view alone: two full states with the same view for
the seat and different hidden cards give the same hint; with a Demon likely and no weapon, the
advice escapes the draw."""

from __future__ import annotations

import random

from p2pcards.engine import Action
from p2pcards.games.girl_and_robot.game import DEMON
from solver.girl_and_robot.advisor import advise, death_after
from solver.girl_and_robot.odds import odds
from solver.hints import hinter_for

from .bot_games import bot_decision


def turn_state(seed: int, players: int, skip: int):
    g, p = bot_decision("girl-and-robot", players, seed, lambda g, p, legal:
                        g.phase == "turn" and g.turn == p and len(legal) > 1, skip=skip, stride=5)
    assert g is not None, "no such turn"
    return g, p


def swap_hidden(full, seat: int, rng: random.Random):
    """Deal the cards ``seat`` has not seen again: the Draw Pile's unknown cards among
    themselves, the others' unknown hand cards among themselves (no Demon enters a hand)."""
    other = full.clone()
    hidden = [s for s in range(other.n_cards) if not other.knows(seat, s)]
    for zone_test in (lambda z: z == "draw", lambda z: z.startswith("hand")):
        slots = [s for s in hidden if zone_test(other.zone_of[s])]
        vals = [other.values[s] for s in slots]
        rng.shuffle(vals)
        for s, v in zip(slots, vals, strict=True):
            other.values[s] = v
    return other


def test_same_view_same_hint():
    rng = random.Random(2)
    hinter = hinter_for("girl-and-robot", seed=3)
    assert hinter is not None
    checked = 0
    for seed, players, skip in [(1, 4, 2), (2, 3, 4), (3, 2, 1), (5, 4, 6), (8, 3, 3)]:
        full, p = turn_state(seed, players, skip)
        other = swap_hidden(full, p, rng)
        assert other != full
        v1, v2 = full.view(p), other.view(p)
        assert v1 == v2
        h1, h2 = hinter(v1, v1.legal(p)), hinter(v2, v2.legal(p))
        assert h1 == h2 and h1.startswith("Hint: ") and "Odds:" in h1
        assert advise(v1, v1.legal(p)).to_json() == advise(v2, v2.legal(p)).to_json()
        checked += 1
    assert checked == 5


def test_escapes_a_likely_demon_without_a_weapon():
    """No weapon, a face-up Demon on top, Evade in hand: the advice is to Evade."""
    for seed in range(40):
        full, p = turn_state(seed, 3, 0)
        g = full.clone()
        demon = next(s for s in g.zones["draw"] if g.kind(s) == DEMON)
        g.place(demon, "draw")  # on top
        g.faceup.append(demon)
        g.known[demon] = g.all_mask
        for w in list(g.weapons(p)):
            g.place(w, "discard")
            g.known[w] = g.all_mask
        evade = next((s for s in range(g.n_cards) if g.kind(s) == "evade"
                      and g.zone_of[s] != f"hand{p}"), None)
        if evade is None:
            continue
        g.place(evade, f"hand{p}")
        g.known[evade] |= 1 << p
        view = g.view(p)
        legal = view.legal(p)
        assert odds(view).top == 1
        a = advise(view, legal)
        assert a.death == 0 and death_after(view, odds(view), a.action, p) == 0
        assert a.action.kind in ("play", "ability", "end") and a.action != Action("end", draw=1)
        assert "Demon" in a.reason
        return
    raise AssertionError("no position found")


def test_a_deal_with_a_demon_makes_the_draw_harmless():
    """After A Deal with a Demon, a Demon drawn this turn is set aside ("if you draw a Demon
    during this turn, set it aside on the table"): the draw cannot kill, whatever is on top."""
    for seed in range(40):
        full, p = turn_state(seed, 3, 0)
        g = full.clone()
        demon = next(s for s in g.zones["draw"] if g.kind(s) == DEMON)
        g.place(demon, "draw")  # on top, face up
        g.faceup.append(demon)
        g.known[demon] = g.all_mask
        for w in list(g.weapons(p)):
            g.place(w, "discard")
            g.known[w] = g.all_mask
        g.tf["deal"] = True
        view = g.view(p)
        o = odds(view)
        assert o.top == 1
        assert death_after(view, o, Action("end", draw=1), p) == 0
        a = advise(view, view.legal(p), deep=False)
        assert a.death == 0 and "A Deal with a Demon" in a.reason
        return
