"""Out Of This World's chat panel (under the log) is three rows at most: on a LAN at 140×45 it
read "Chat: During Go For It! only the Vocal Player may talk, and that is alice now; you may
talk on your own turn (table talk is free only on Easier, this game is" -- cut there (ux21).
The rulebook: "During this phase, you can only speak during your turn, when you are holding the
Vocal Player token." The panel now says it in words that fit, naming who holds the token."""

from __future__ import annotations

import asyncio

import pytest
from rich.text import Text

from p2pcards.bots.registry import make_bot
from p2pcards.engine.dealer import LocalDealer, play
from p2pcards.games import new_game
from p2pcards.ui.app import TableApp


class Found(Exception):
    pass


def go_for_it_view():
    """Seat 1's view in Go For It!, on another player's turn (Standard: table talk restricted)."""
    s = new_game("out-of-this-world", 3, {"names": ["alice", "bob", "carol"]})
    live = s.view(0)

    def step(state, event):
        if live.phase == "go" and live.turn != 0 and live.chat_refusal(0) is not None:
            raise Found(live.clone())
    with pytest.raises(Found) as got:
        play(s, [make_bot("out-of-this-world", p, "random", p) for p in range(3)],
             LocalDealer(3), copies={0: live}, on_step=step)
    return got.value.args[0]


@pytest.mark.parametrize("size", [(80, 24), (140, 45)])
def test_the_chat_rule_fits_its_panel_and_names_the_vocal_player(size):
    view = go_for_it_view()
    holder = view.pname(view.turn)

    async def driver(app):
        app.chat = lambda text: None
        app.show(view)
        await asyncio.Event().wait()

    async def go():
        app = TableApp(view.game, 0, driver, names=view.config["names"])
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.pause()
            talk = app.query_one("#talk")
            text = app.texts["talk"]
            rows = len(Text(text).wrap(app.console, talk.content_region.width))
            return text, rows, talk.content_region.height
    text, rows, shown = asyncio.run(go())
    assert rows <= shown <= 3, (text, rows, shown)
    assert text.startswith("Chat: only the Vocal Player, ") and holder in text
    assert "on your turn" in text
