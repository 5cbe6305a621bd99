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
