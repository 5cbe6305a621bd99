"""The Girl and the Robot with four players (walk-through ux21, on a LAN): carol (the Shadow
Robot) typed "say bob, I cancel the Blind"; it went to bob, her ally, alone (rulebook: "Allies
... can talk and show their cards to each other"), but her screen said "Chat: open — type
'say ...'" and echoed "(you): bob, I cancel the Blind", as if the whole table had read it. The
chat panel and the echo now say who hears a line when it is not everyone."""

from __future__ import annotations

import asyncio

from p2pcards.ui.app import TableApp
from p2pcards.ui.present import presenter_for
from p2pcards.ui.terminal import TerminalPlayer
from tests.games.girl_and_robot.test_rules import rig


def team_view(seat: int):
    g = rig(["girl", "robot", "queen", "shadow"], hands={0: ["scout"]}, draw=["*"] * 6)
    g.config["names"] = ["alice", "bot1", "bob", "carol"]
    return g.view(seat)


def test_the_chat_panel_and_the_echo_on_the_screen_name_the_ally():
    view = team_view(3)
    sent: list[str] = []

    async def chat(text):
        sent.append(text)
        return None

    async def driver(app):
        app.chat = chat
        app.show(view)
        await asyncio.Event().wait()

    async def go():
        app = TableApp(view.game, 3, driver, names=view.config["names"])
        async with app.run_test(size=(140, 45)) as pilot:
            await pilot.pause()
            talk = app.texts["talk"]
            await app.handle("say bob, I cancel the Blind")
            await pilot.pause()
            return talk, list(app.lines_seen)
    talk, lines = asyncio.run(go())
    assert talk == "Chat: only bob hears you — type 'say ...'"
    assert sent == ["bob, I cancel the Blind"]
    assert lines[-1] == "(you, to bob only): bob, I cancel the Blind"


def test_the_plain_prompt_echo_names_the_ally_and_an_open_table_stays_plain():
    said: list[str] = []

    async def chat(text):
        return None

    async def go(view, seat):
        player = TerminalPlayer(seat, chat=chat, out=said.append)
        player.live = lambda: view
        await player.handle("say gg")
    asyncio.run(go(team_view(2), 2))
    assert said[-1] == "(you, to carol only): gg"
    # a game where everyone hears everyone: the echo as before, no rule on the panel
    from p2pcards.games import new_game
    gog = new_game("go-out-girl", 3, {"names": ["a", "b", "c"]}).view(0)
    asyncio.run(go(gog, 0))
    assert said[-1] == "(you): gg"
    assert presenter_for("go-out-girl").table_talk(gog, 0) is None


def test_after_the_match_everyone_talks_again():
    """The rulebook limits talk "during the game" ("Allies ... can talk and show their cards to
    each other during the game"). Under the result the chat panel still said "only allies talk,
    and you have no living ally" to the dead, and "only bob hears you" to the winners (ux22):
    once the game is won every seat is heard by every other, on every program alike."""
    from p2pcards.bots.registry import make_bot
    from p2pcards.engine import Decide, Decision, LocalDealer
    from p2pcards.games import new_game

    g = new_game("girl-and-robot", 4, {"names": ["alice", "bot1", "bob", "carol"]})
    dealer = LocalDealer(7)
    bots = [make_bot("girl-and-robot", q, "easy", q) for q in range(4)]
    dead_seen = False
    while (req := g.pending()) is not None:
        if isinstance(req, Decide):
            p = req.player
            g.apply(Decision(p, bots[p].decide(g.view(p), g.legal(p))))
        else:
            g.apply(dealer.fulfil(g, req))
        if g.winner is None and not all(g.alive):  # the rule still holds mid-game
            q = g.alive.index(False)
            assert g.view(q).chat_refusal(q) == "only allies talk, and you have no living ally"
            dead_seen = True
    assert g.winner is not None and dead_seen
    present = presenter_for("girl-and-robot")
    for seat in range(4):
        view = g.view(seat)
        assert view.chat_refusal(seat) is None
        assert sorted(view.chat_audience(seat)) == [p for p in range(4) if p != seat]
        assert present.table_talk(view, seat) is None  # the panel: "Chat: open — type 'say ...'"
