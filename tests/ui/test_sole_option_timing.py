"""How fast an answer comes is seen by everyone at a networked table. The full-screen table took
a sole option by itself after a second ("Only one choice: ... taken in 1 s"), so in The Girl and
the Robot, where every player is asked "let it resolve, or answer it with Cancel Action?" so that
nobody can tell who holds one, the others saw a one-second answer exactly when a player held
none (ux21, finding 15). At a networked table a sole option now waits for Enter, as a choice
among several does; a local game against bots keeps the one-second default."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.ui import netscreen
from p2pcards.ui.app import TableApp
from tests.ui.test_screen import gog_view


def test_a_sole_option_at_a_networked_table_waits_for_enter():
    view = gog_view()
    only = view.legal(0)[-1]
    seen: dict = {}

    async def driver(app):
        seen["answer"] = await app.ask(view, [only])
        await asyncio.Event().wait()

    async def go():
        app = TableApp(view.game, view.viewer, driver, names=view.config["names"],
                       forced_delay=netscreen.WAIT_FOR_ENTER)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(1.5)  # longer than the local game's second: still not taken
            seen["before"] = dict(seen)
            seen["notice"] = app.texts.get("notice", "")
            await pilot.press("enter")
            for _ in range(100):
                if "answer" in seen:
                    break
                await pilot.pause(0.02)
    asyncio.run(go())
    assert "answer" not in seen["before"]
    assert "Only one choice" in seen["notice"] and "press Enter to take it" in seen["notice"]
    assert "taken in" not in seen["notice"]
    assert seen["answer"] == only


def test_the_networked_screen_is_made_to_wait_for_enter(monkeypatch):
    made: dict = {}

    class Made(Exception):
        pass

    class Recorder(TableApp):
        def __init__(self, *a, **kw):
            made.update(kw)
            raise Made

    monkeypatch.setattr(netscreen, "TableApp", Recorder)

    async def run_seat(*a, **kw):  # never reached: the screen is not opened
        raise AssertionError

    with pytest.raises(Made):
        asyncio.run(netscreen.play_on_screen("girl-and-robot", 0, ["alice", "bob"], run_seat,
                                             who=None, hinter=None))
    assert made["forced_delay"] < 0
