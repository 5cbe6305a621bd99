"""``hint`` (F2) while putting cards in order (Manipulate), ux21 on a LAN: the screen put "Hints
are given when it is your turn to choose." in place of how to type the order -- while it was
her turn to choose one. Now it says there is no hint for an order, and the instructions stay."""

from __future__ import annotations

import asyncio

from p2pcards.ui.app import TableApp
from p2pcards.ui.hints import NO_ORDER_HINT
from tests.ui.test_prompts import Manipulating, asked_at_the_network_prompt
from tests.ui.test_screen import gog_view


def test_on_the_screen_the_order_instructions_stay_and_no_hint_is_explained():
    view = gog_view()
    slots = tuple(view.zones["hand0"][:3])

    async def driver(app):
        return await app.ask_order(view, slots, "Put them back in the order you choose.")

    async def go():
        app = TableApp(view.game, 0, driver, names=view.config["names"])
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            before = app.texts["notice"]
            await pilot.press("f2")
            await pilot.pause()
            return before, app.texts["notice"]
    before, after = asyncio.run(go())
    assert "Type the cards' numbers" in before
    assert after == f"{NO_ORDER_HINT}\n{before}"
    assert "your turn" not in after


def test_at_the_plain_prompt_hint_while_ordering_says_so():
    async def main():
        lines: list[str] = []
        p, feed, loop_task, legal, decision = await asked_at_the_network_prompt(lines)
        await feed.put("1")
        await asyncio.wait_for(decision, 5)
        order = asyncio.create_task(p.arrange(Manipulating(), (10, 11, 12)))
        while not any("Put them back" in ln for ln in lines):
            await asyncio.sleep(0.01)
        await feed.put("hint")
        while not any(NO_ORDER_HINT in ln for ln in lines):
            await asyncio.sleep(0.01)
        await feed.put("3 2 1")
        assert await asyncio.wait_for(order, 5) == [12, 11, 10]
        loop_task.cancel()
        return lines
    lines = asyncio.run(asyncio.wait_for(main(), 10))
    assert not any("hints are given when it is your turn" in ln for ln in lines)
