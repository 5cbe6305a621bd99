"""The hint in a newcomer's words (ux22): someone who has read a rulebook and README.md, asking
``hint`` at the plain prompt, met our own jargon -- "sampled deals played out", "the careful
player's move", "the set plan's move", "the carry score", "standing 0.74", "team whole" -- and odds
without what they are odds of ("the next card is a Demon"). These tests read the text the
prompt prints (``ui.hints.hint_text``) at many decisions of each game."""

from __future__ import annotations

import re
from pathlib import Path

from p2pcards.ui.hints import hint_text
from solver import positions

from .bot_games import bot_decision

#: Words of ours a player cannot know. Each was in a hint a newcomer read.
JARGON = ("sampled deals", "careful player", "heuristic", "consistent with your view",
          "set plan", "carry score", "standing 0", "standing 1", "team whole",
          "weighed by its chance", "exact search", "0.0 points better")
PUZZLES = Path(__file__).resolve().parents[2] / "docs" / "puzzles"


def plain(text: str) -> None:
    for word in JARGON:
        assert word not in text, f"{word!r} in the hint:\n{text}"


def test_go_out_girl_hints_say_what_their_figures_are():
    from solver.go_out_girl.advisor import advise
    from solver.go_out_girl.position import build, parse

    seen = []
    for seed in range(8):
        for phase in ("turn", "choose", "damage"):
            g, p = bot_decision("go-out-girl", 4, seed, lambda g, p, legal, ph=phase:
                                g.phase == ph and len(legal) > 1, skip=seed % 3)
            if g is None:
                continue
            view = g.view(p)
            legal = view.legal(p)
            seen.append(hint_text(advise(view, legal, seed=seed, budget=2000), legal))
    data = positions.read(PUZZLES / "02-akane-barrier.json")  # the endgame's exact search
    view = build(parse(data)).view(data["to_move"])
    legal = view.legal(data["to_move"])
    seen.append(hint_text(advise(view, legal, seed=0), legal))
    for text in seen:
        plain(text)
        why = text.split("Why: ", 1)[1]
        # a figure says what it counts: the battle won, over deals of the cards you cannot see
        assert ("wins the battle" in why and "of the cards you cannot see" in why
                or "only legal move" in why), text
        assert not re.search(r"\[G\]|\bG\b", text), text  # a Guard is "Guard", as in your hand
    assert any("too little more to be sure" in t for t in seen)  # the kept move's case arose
    assert any("whatever the others play" in t for t in seen)


def test_out_of_this_world_hints_name_no_plan_or_score_of_ours():
    from solver.out_of_this_world.advisor import HAND_PLAN, advise

    seen = []
    for seed in range(10, 16):
        for step in ("take", "action", "character"):
            g, p = bot_decision("out-of-this-world", 4, seed, lambda g, p, legal, st=step:
                                g.step == st and len(legal) > 1, skip=seed if step != "character"
                                else 0)
            if g is None:
                continue
            view = g.view(p)
            legal = view.legal(p)
            seen.append(hint_text(advise(view, legal), legal))
    for text in seen:
        plain(text)
    overruled = [t for t in seen if HAND_PLAN in t]
    assert overruled  # the round search overruled the hand's plan: its points are explained
    assert all("the score counts a win above all" in t for t in overruled)


def test_girl_and_robot_odds_say_which_card_and_the_playouts_what_they_count():
    from solver.girl_and_robot.advisor import advise

    seen = []
    legal_texts: dict[str, list[str]] = {}
    for seed, players, skip in [(1, 4, 2), (2, 3, 4), (3, 2, 1), (9, 4, 5), (4, 4, 0)]:
        for phase in ("turn", "ally"):
            g, p = bot_decision("girl-and-robot", players, seed, lambda g, p, legal, ph=phase:
                                g.phase == ph and len(legal) > 1, skip=skip, stride=5)
            if g is None:
                continue
            view = g.view(p)
            legal = view.legal(p)
            seen.append(hint_text(advise(view, legal, seed=0), legal))
            legal_texts[seen[-1]] = [view.describe(a) for a in legal]
    assert len(seen) >= 6
    for text in seen:
        plain(text)
        odds = text.split("Odds: ", 1)[1].split("\n", 1)[0]
        assert "Draw Pile" in odds, text  # odds of which card: the top of the Draw Pile
        why = text.split("Why: ", 1)[1]
        if "turns ahead" in why:
            assert "prospects" in why and "(1 a sure win, 0 a sure loss)" in why, text
        # the Odds line is not said twice: the reason quotes the chance alone
        assert "unaccounted for" not in why, text
        assert "1 of the 4 Demons are" not in text and "(drawn next)" not in why, text
        # a move named inside a reason is quoted: "ability: [3] Choose a player. They must
        # give 1 card ... → Bot 2 is the best use of your turn" ran on
        for a in legal_texts[text]:
            for tail in (" is the best use", " brings the chance", " saves a weapon",
                         " rather than"):
                assert f"{a}{tail}" not in why, text


def test_a_safe_draw_is_not_explained_by_the_demon_rule():
    """Drawing a card that is no Demon, a newcomer was told to "keep the card (it is not a
    Demon)" because "the rules: a Demon drawn is revealed at once" (ux22). The reason fits the
    card: rulebook, "If you draw a Demon card, reveal it to everyone!"."""
    from solver.girl_and_robot.advisor import advise

    found = {"safe": 0, "demon": 0}
    for seed in range(40):
        g, p = bot_decision("girl-and-robot", 3, seed, lambda g, p, legal:
                            g.phase == "drawn", stride=5)
        if g is None:
            continue
        view = g.view(p)
        legal = view.legal(p)
        adv = advise(view, legal, seed=0)
        found[adv.action.kind] += 1
        if adv.action.kind == "safe":
            assert adv.reason == "the card you drew is not a Demon: you keep it in your hand."
        else:
            assert "If you draw a Demon card, reveal it to everyone!" in adv.reason
        if all(found.values()):
            break
    assert found["safe"], found
