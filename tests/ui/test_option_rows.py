"""An option too long for one row went on at the list's left margin, left of the option numbers
("  1. choose Matono Nerai (life 7) — Aiming: ... [Number 6" / " ●●●]."), so its second row read
like an option of its own (walk-through ux20, the character choice at 100×30). Now it wraps under
its own text."""

from __future__ import annotations

import asyncio
import re

import pytest

from p2pcards.engine import Decide
from p2pcards.engine.dealer import LocalDealer
from p2pcards.games import new_game
from tests.ui.pilot import rendered
from tests.ui.test_screen import one_question

NUMBER = re.compile(r"^( *)(\d+)\. ")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))


def character_choice():
    state = new_game("go-out-girl", 3, {"names": ["Ann", "Bob", "Cy"]})
    dealer = LocalDealer(3)
    while not isinstance(state.pending(), Decide):
        state.apply(dealer.fulfil(state, state.pending()))
    p = state.pending().player
    view = state.view(p)
    return view, view.legal(p)


@pytest.mark.parametrize("size", [(80, 40), (100, 30)])
def test_a_long_option_wraps_under_its_own_text(size):
    view, legal = character_choice()

    async def go():
        app = one_question(view, legal)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            rows = [r[1:].rstrip() for r in rendered(app, "options")]  # 1 cell of padding
            app.exit()
            return rows

    rows = [r for r in asyncio.run(go()) if r.strip()]
    text_at = None
    continued = 0
    for row in rows:
        m = NUMBER.match(row)
        if m:
            text_at = len(m.group(0))
            continue
        assert text_at is not None, rows
        indent = len(row) - len(row.lstrip(" "))
        assert indent == text_at, (row, rows)  # under the option's text, not the numbers
        continued += 1
    assert continued, rows  # some option did wrap
