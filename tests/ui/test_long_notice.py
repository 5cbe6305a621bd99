"""A notice longer than its share of the screen (a long hint at 80×24) is cut with a last row
that says how to read it all, and F4 (or 'more') opens the whole of it on a page: before ux23 the
notice took at most 28% of the rows and the rest of the text was simply not shown -- the "Why"
of a quarter of The Girl and the Robot's hints, never on screen at the smallest table."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.ui.app import TableApp, TextScreen
from p2pcards.ui.hints import advisor
from tests.solver.bot_games import bot_decision
from tests.ui.pilot import broken_words, rendered, screen_lines, words


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    return tmp_path


def long_hint_question():
    """A real position of The Girl and the Robot whose real hint runs to 11 rows at 78 cells
    (seat 1's 7th choice of a heuristic-bot game, seed 0): an app that asks it."""
    g, p = bot_decision("girl-and-robot", 3, 0, lambda g, p, legal: p == 0 and len(legal) > 1,
                        skip=6)
    assert g is not None
    view = g.view(p)
    names = ["Ann", "Bot 1", "Bot 2"]
    view.config["names"] = names

    async def driver(app):
        return await app.ask(view, view.legal(p))

    app = TableApp("girl-and-robot", p, driver, names=names, hinter=advisor("girl-and-robot"))
    return app, view.legal(p)


async def hint_shown(pilot, app) -> None:
    await pilot.press("f2")
    await app.hint_worker.wait()  # the hint is worked out in a thread
    await pilot.pause()


async def page_words(pilot, app) -> set[str]:
    """Every word the open page shows, scrolled from its top to its end by Page Down."""
    seen: set[str] = set()
    for _ in range(12):
        seen |= words("\n".join(screen_lines(app)))
        await pilot.press("pagedown")
        await pilot.pause()
    return seen


def test_a_long_hint_at_80x24_says_how_to_read_it_all_and_f4_shows_every_word():
    async def go():
        app, legal = long_hint_question()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await hint_shown(pilot, app)
            hint = app.texts["notice"]
            assert hint.startswith("Option ") and "Why:" in hint
            shown = rendered(app, "notice")
            assert len(shown) <= app.notice_rows == 6
            # the hint does not fit: its last row says so, and which key reads it all
            assert shown[-1].strip() == TableApp.MORE_TEXT
            assert not words(hint) <= words("\n".join(shown)), "the hint fits: not a long one"
            screen = "\n".join(screen_lines(app))
            assert "press F4 (or type 'more')" in screen
            assert "◀ hint" in screen and "a number, a move" in screen  # the table stays usable
            assert broken_words(app) == []
            # F4: every word of the hint can be read, scrolling down the page
            await pilot.press("f4")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            missing = words(hint) - await page_words(pilot, app)
            assert not missing, missing
            # Esc: back at the table, the question still open, the hinted option taken by Enter
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, TextScreen)
            assert app.texts["notice"] == hint
            hinted = app.hinted
            await pilot.press("enter")
            await pilot.pause()
        assert hinted in legal and app.result == hinted
    asyncio.run(go())


def test_more_typed_opens_the_same_page_and_a_taller_terminal_shows_the_hint_whole():
    async def go():
        app, _ = long_hint_question()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await hint_shown(pilot, app)
            hint = app.texts["notice"]
            await app.handle("more")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            assert app.screen.text.startswith(hint)
            await pilot.press("escape")
            await pilot.resize_terminal(140, 50)  # room for it all: no "more" row
            await pilot.pause()
            await pilot.pause()
            shown = rendered(app, "notice")
            assert TableApp.MORE_TEXT not in "\n".join(shown)
            assert words(hint) <= words("\n".join(shown))
            await pilot.resize_terminal(80, 24)  # and cut again, saying so
            await pilot.pause()
            await pilot.pause()
            assert rendered(app, "notice")[-1].strip() == TableApp.MORE_TEXT
    asyncio.run(go())


def test_a_stop_with_a_long_reason_still_says_how_to_leave_at_80x24():
    """The question area holds three rows; a stop's reason of two rows (a stalled program: the
    seat named by number and fingerprint) and its two rows of what now had "Press Ctrl+Q (or type
    quit) to leave" cut off. A stopped table shows no options: the question area takes the room."""
    async def go():
        app = TableApp("go-out-girl", 0, None, names=["alice", "bob", "a very long name, carol"])
        async with app.run_test(size=(80, 24)) as pilot:
            app.finish("the table stopped: a very long name, carol's program did not play its "
                       "turn within 35 s (seat 3, AK11-EVHS)", stopped=True)
            await pilot.pause()
            shown = "\n".join(rendered(app, "question"))
            assert "with no winner" in shown and "Press Ctrl+Q (or type quit) to leave." in shown
    asyncio.run(go())


def test_a_notice_cut_while_a_page_was_open_is_cut_anew_for_the_new_size():
    """The terminal enlarged while the page was open: back at the table, the notice is cut to
    the new size (here, whole again), not left as it was cut for the old one."""
    async def go():
        app, _ = long_hint_question()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await hint_shown(pilot, app)
            hint = app.texts["notice"]
            await pilot.press("f4")
            await pilot.pause()
            await pilot.resize_terminal(140, 50)
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            await pilot.pause()
            shown = "\n".join(rendered(app, "notice"))
            assert TableApp.MORE_TEXT not in shown and words(hint) <= words(shown), shown
    asyncio.run(go())
