"""Go Out Girl: the question after a pass names what you passed on, not the table's last line.

Walked at a table of three (ux23): carol passed on alice's 12 and took a damage; by then bob's
own damage draw was the last line about someone else, and carol read "bob draws 1 card: which
card do you lay face down as damage? (1 to go)" -- as if bob's draw had done it. The rulebook:
"If you pass, you will receive damage, as shown on the cards on the tableau pile"
(go-out-girl.txt, "B. Receive Pass Damage"): the question now says whose cards those are."""

from __future__ import annotations

from p2pcards.bots.registry import make_bot
from p2pcards.engine import Decide, Decision, LocalDealer
from p2pcards.games import new_game
from p2pcards.ui.present import presenter_for


def a_damage_question(seed: int = 1):
    g = new_game("go-out-girl", 3, {"names": ["alice", "bob", "carol"]})
    dealer = LocalDealer(seed)
    bots = [make_bot("go-out-girl", q, "easy", q) for q in range(3)]
    for _ in range(5000):
        req = g.pending()
        if isinstance(req, Decide):
            if g.phase == "damage":
                return g.view(req.player), req.player
            g.apply(Decision(req.player, bots[req.player].decide(g.view(req.player),
                                                               g.legal(req.player))))
        else:
            g.apply(dealer.fulfil(g, req))
    raise AssertionError("nobody took damage")


def test_the_damage_question_names_the_play_passed_on_not_the_last_line():
    view, seat = a_damage_question()
    top = view.top
    owner = view.pname(top["owner"])
    cards = " ".join(view.card_name(view.values[s]) for s in top["slots"])
    somebody_else = next(n for i, n in enumerate(["alice", "bob", "carol"]) if i != seat)
    q = presenter_for("go-out-girl").question(view, seat, view.legal(seat),
                                              f"{somebody_else} draws 1 card.")
    assert q.startswith(f"You passed on {owner}'s {cards} ({'●' * top['damage']}): which card do "
                        "you lay face down as damage? ("), q
    assert "draws 1 card" not in q
