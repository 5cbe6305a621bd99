"""The full-screen table's top line says whose turn it is. When a player puts cards in an order
of their choice (the Girl and the Robot's Manipulate: "put these cards back on the draw pile in
the order you choose"), it said "the deck · 2:06 · shuffling or dealing": a person who was being
asked, and everyone waiting for them, read that the deck was slow. Now it says whose turn it is,
as on any turn."""

from __future__ import annotations

import asyncio
import time

import pytest

from p2pcards.engine import Decide, Random, Reveal, Shuffle
from tests.ui.test_screen import local_app


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    return tmp_path


async def play_until(pilot, app, done, pauses: int = 3000) -> None:
    """Take the highlighted option at every question until ``done()``."""
    for _ in range(pauses):
        await pilot.pause()
        if done():
            return
        if app.legal:
            await pilot.press("enter")
    raise AssertionError("the game never got there")


def test_the_top_line_says_you_are_putting_cards_in_order():
    async def go():
        lg, app = local_app("girl-and-robot", 3, 5)
        async with app.run_test(size=(140, 45)) as pilot:
            await play_until(pilot, app, lambda: app._ordering is not None)
            app._tick()
            await pilot.pause()
            return app.texts["status"], app.texts["question"]
    status, question = asyncio.run(go())
    assert "in the order you choose" in question
    assert "Your turn" in status and "you are putting cards in order" in status, status
    assert "the deck" not in status and "shuffling" not in status, status


class Waiting:
    """A view whose game waits on ``req`` (another seat's request, as a networked table's is)."""

    def __init__(self, view, req) -> None:
        self.view, self.req = view, req

    def pending(self):
        return self.req

    def __getattr__(self, name):
        return getattr(self.view, name)


@pytest.mark.parametrize("req, says", [
    (Shuffle((3, 4), by=1), "Bot 1's turn (seat 2) · 0:00 · putting cards in order, privately"),
    (Shuffle((3, 4), by=1, mix=True), "the deck · 0:00 · shuffling"),
    (Shuffle((3, 4)), "the deck · 0:00 · shuffling"),
    (Reveal((3,), (0, 1)), "the deck · 0:00 · dealing or turning cards over"),
    (Random(4), "the deck · 0:00 · drawing at random"),
    (Decide(2), "Bot 2's turn (seat 3) · 0:00 · "),
])
def test_the_top_line_names_who_the_table_waits_for(req, says):
    """Another player arranging cards privately is their turn, with their name; a hand mixed
    at random, a shuffle, a deal and a joint random draw are the deck's."""
    async def go():
        lg, app = local_app("girl-and-robot", 3, 5)
        async with app.run_test(size=(140, 45)) as pilot:
            await play_until(pilot, app, lambda: app.view is not None)
            app.view = Waiting(app.view, req)
            app._turn_since = time.monotonic()
            app._tick_status()
            return app.texts["status"]
    assert says in asyncio.run(go())
