"""Red team: the in-game commands ``who`` and ``status`` printed the same thing at the plain
prompt of a local game, and ``help`` did not say ``who`` was there. Now ``who`` says who plays
each seat (you at this terminal, a bot; at a networked table who is away) and whose turn it is,
and ``status`` the game itself (the table, scores, your hand)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.usefixtures("home")


def _local_prompt(typed: list[str]) -> str:
    import io

    from p2pcards.ui.local import Quit, play_local

    out = io.StringIO()
    feed = iter(typed)
    with pytest.raises(Quit):
        play_local("go-out-girl", 3, 2, 5, {}, bot_level="easy", inp=lambda prompt: next(feed),
                   out=out)
    return out.getvalue()


def test_who_and_status_say_different_things_at_the_plain_prompt():
    """``who``: the seats (who plays each, a bot or you at this terminal) and whose turn it is.
    ``status``: the game (the battle, the field, the seats' characters and damage, your
    hand)."""
    base = _local_prompt(["quit"])
    who = _local_prompt(["who", "quit"])[len(base) - 1:]
    status = _local_prompt(["status", "quit"])[len(base) - 1:]
    assert who != status
    assert "  seat 1: Player (you, at this terminal)\n" in who
    assert "  seat 2: Bot 1 (a bot, easy)\n" in who and "  seat 3: Bot 2 (a bot, easy)\n" in who
    assert "Turn: yours." in who
    assert "Your hand:" not in who and "Battle 1" not in who
    # "wins: Player 0, Bot 1 0" read as a "Player 0" and a lone "1 0" (ux22)
    assert "Battle 1 · battles won: 0 by Player, 0 by Bot 1, 0 by Bot 2 (a match takes 2)" \
        in " ".join(status.split()) and "Your hand:" in status  # (wrapped to the width)
    assert "(a bot" not in status


def test_help_tells_who_from_status():
    from p2pcards.ui import app

    text = _local_prompt(["help", "quit"])
    assert "who     the seats: who plays each (you, a bot) and whose turn it is" in text
    assert "status  the game: the table, scores and your hand" in text
    assert "who           the seats: who plays each" in app.HELP
    assert "status        the game in words, in the log: the table, scores and your hand" \
        in app.HELP


def test_who_and_status_on_the_full_screen_table(home):
    import asyncio

    from tests.ui.test_screen import local_app

    async def go():
        lg, app = local_app("go-out-girl", 3, 4, who=None)
        app.who = lg.who
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(200):
                await pilot.pause()
                if app.legal:
                    break
            n = len(app.lines_seen)
            await pilot.press(*"who", "enter")
            await pilot.pause()
            who = app.lines_seen[n:]
            n = len(app.lines_seen)
            await pilot.press(*"status", "enter")
            await pilot.pause()
            status = app.lines_seen[n:]
        return who, status
    who, status = asyncio.run(go())
    assert who == ["  seat 1: Player (you, at this terminal)", "  seat 2: Bot 1 (a bot, easy)",
                   "  seat 3: Bot 2 (a bot, easy)", "Turn: yours."]
    assert status[0].startswith("Battle 1 · battles won:") and "(a bot" not in "\n".join(status)


def test_the_match_result_says_whose_battles_are_whose():
    """The result line after a match: "Bot 2 wins the match after 3 battles (wins: Player 0,
    Bot 1 1, Bot 2 2)" left a newcomer reading "Bot 1 1" (ux22)."""
    from p2pcards.games import new_game

    g = new_game("go-out-girl", 3, {"names": ["Player", "Bot 1", "Bot 2"]})
    g.wins = [0, 1, 2]
    g.winner, g.battle = 2, 3
    assert g.result_text() == ("Bot 2 wins the match after 3 battles (battles won: 0 by Player, "
                               "1 by Bot 1, 2 by Bot 2)")


def test_out_of_this_world_stacks_say_how_many_cards_lie_under_the_top():
    """Rulebook: "deal 5 stacks of 4 face-down cards each ... Then flip all of those stacks,
    leaving all the cards visible on top." The status line said "[2] Duct tape (Hardware 3) +3"
    and a newcomer guessed at "+3" (ux22): it says "3 under"."""
    from p2pcards.engine import Decide, Decision, LocalDealer
    from p2pcards.games import new_game

    g = new_game("out-of-this-world", 3, {"names": ["Ann", "Ben", "Cat"]})
    dealer = LocalDealer(3)
    while g.phase != "go" or not isinstance(g.pending(), Decide):
        req = g.pending()
        g.apply(Decision(req.player, g.legal(req.player)[0]) if isinstance(req, Decide)
                else dealer.fulfil(g, req))
    (line,) = [x for x in g.view(0).status(0) if x.startswith("Stacks: ")]
    assert line.count(", 3 under") == 5 and " +3" not in line, line
