"""The Girl and the Robot at the plain prompt (walk-through ux20, on a LAN): a player holding no
Cancel Action was asked "let it resolve, or answer it with Cancel Action?" with one option, "let
it resolve", and questions began in lower case ("which way does play go now?") where nothing
came before them. Rulebook: "Cancel Action: ... You may play this card at any time", so every
player is asked about every Action card, holding one or not."""

from __future__ import annotations

from p2pcards.engine import Action
from p2pcards.ui.present import presenter_for
from tests.games.girl_and_robot.test_rules import Table, rig

P = presenter_for("girl-and-robot")


def test_a_player_without_cancel_action_is_told_so_and_questions_start_as_sentences():
    g = rig(["girl", "robot", "queen", "shadow"], hands={0: ["scout"], 3: ["cancel_action"]},
            draw=["*"] * 6)
    t = Table(g)
    t.play(0, "scout")
    assert g.phase == "respond"
    p = t.decider()
    view = g.view(p)
    legal = view.legal(p)
    assert {a.kind for a in legal} == {"pass"}, legal  # seat 2 holds no Cancel Action
    assert P.question(view, p, legal, "alice plays Scout.") == \
        "alice plays Scout: let it resolve (you hold no Cancel Action to answer it with)."
    assert P.question(view, p, legal, None) == \
        "Let it resolve (you hold no Cancel Action to answer it with)."
    # one who holds one is asked as before
    both = [Action("pass"), Action("cancel", slot=1)]
    assert P.question(view, p, both, "Bot 2 plays Peace Treaty.") == \
        "Bot 2 plays Peace Treaty: let it resolve, or answer it with Cancel Action?"
    assert P.question(view, p, both, None) == "Let it resolve, or answer it with Cancel Action?"
    assert P.question(view, p, [Action("direction", d=1)], None) == "Which way does play go now?"
