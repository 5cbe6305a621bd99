"""Red team 15b: digits ``int`` cannot read. ``str.isdigit`` says yes to a superscript '²' or a
circled '①' (and to five thousand digits), ``int`` refuses them with a ValueError: typed at the
network game's prompt it ended the input loop (the player could type nothing more, the table
waited on them), at the full-screen table and the local prompt it was a traceback. Each now gets
the usual one line and the prompt again."""

from __future__ import annotations

import asyncio
import io

import pytest

from p2pcards.ui import arrange as arrange_ui
from p2pcards.ui.local import PromptHuman
from tests.games.go_out_girl.rig import setup
from tests.ui.test_ctrl_c import first_question
from tests.ui.test_prompts import Manipulating, asked_at_the_network_prompt, scripted
from tests.ui.test_screen import local_app

ODD = ("\u00b2", "\u2460", "1" * 5000)  # ², ①, and more digits than int reads by default


def test_the_local_prompt_says_not_a_choice_and_asks_again():
    s, _ = setup(3, {0: "5 9", 1: "7", 2: "3"})
    view = s.view(0)
    out = io.StringIO()
    legal = view.legal(0)
    assert PromptHuman(0, inp=scripted(*ODD, "2"), out=out).decide(view, legal) == legal[1]
    assert out.getvalue().count("Not a choice") == len(ODD)


def test_an_arrangement_with_odd_digits_is_not_an_order():
    for typed in ODD:
        assert isinstance(arrange_ui.parse(typed, (10, 11, 12)), str)
        assert isinstance(arrange_ui.parse(f"1 {typed}", (10, 11, 12)), str)


def test_the_network_prompt_keeps_reading_after_odd_digits():
    async def main():
        lines: list[str] = []

        async def chat(text):
            return None

        p, feed, loop_task, legal, decision = await asked_at_the_network_prompt(
            lines, chat=chat, who=lambda: [])
        for text in (*ODD, "2"):
            await feed.put(text)
        done, _ = await asyncio.wait({decision, loop_task}, timeout=10,
                                     return_when=asyncio.FIRST_COMPLETED)
        assert loop_task not in done, f"the input loop ended: {loop_task.exception()!r}"
        assert decision in done and decision.result() == legal[1]
        assert sum("Not a choice" in ln for ln in lines) == len(ODD)
        # inside an arrangement too
        order = asyncio.create_task(p.arrange(Manipulating(), (10, 11, 12)))
        while not any("Put them back" in ln for ln in lines):
            await asyncio.sleep(0.01)
        await feed.put("\u00b2")
        while not any("Not an order" in ln for ln in lines):
            await asyncio.sleep(0.01)
        await feed.put("3 2 1")
        assert await asyncio.wait_for(order, 10) == [12, 11, 10]
        assert not loop_task.done()
        await feed.put("quit")
        await asyncio.wait_for(loop_task, 10)

    asyncio.run(main())


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    return tmp_path


def test_the_full_screen_table_says_not_a_choice(home):
    async def go():
        _, app = local_app("go-out-girl", 3, 4)
        async with app.run_test(size=(100, 30)) as pilot:
            await first_question(pilot, app)
            for typed in ("\u00b2", "\u2460"):
                await app.handle(typed)
                await pilot.pause()
                assert "Not a choice" in app.texts["notice"], typed
            assert app.is_running and not app._pending.done()
            await pilot.press(*"quit", "enter")
            await pilot.pause()

    asyncio.run(go())
