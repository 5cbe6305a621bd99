"""Red team: a terminal smaller than 80×24 lost the top line of the full-screen table (whose
turn it is) with no word of warning; the screen scrolled or clipped what did not fit. Now the
table says what is wrong in place of a clipped screen, and comes back when the window is
enlarged."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.ui.app import TextScreen
from tests.ui.pilot import broken_words, screen_lines
from tests.ui.test_screen import gog_view, local_app, one_question


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    return tmp_path


async def reach_a_question(pilot, app) -> None:
    for _ in range(400):
        await pilot.pause()
        if app.legal and len(app.lines_seen) > 8 and len(app.legal) > 1:
            return
        if app.legal:
            await pilot.press("enter")
    raise AssertionError("the game reached no question")


def shown(app) -> str:
    return "\n".join(screen_lines(app))


SIZES = [(60, 18), (79, 24), (80, 23), (40, 12)]


def test_a_terminal_made_small_says_so_and_the_table_comes_back_when_enlarged():
    """Each size too small (narrow, short, both), one after another in one game: each time the
    notice replaces the table, the table comes back whole when enlarged and plays on, and the
    notice comes back when the terminal shrinks again. (One game for the four sizes, not one
    game each: the game before the first question took most of the time.)"""

    async def go():
        lg, app = local_app("go-out-girl", 3, 11)
        async with app.run_test(size=(100, 30)) as pilot:
            for w, h in SIZES:
                await reach_a_question(pilot, app)
                await shrink_and_enlarge(pilot, app, w, h)
                await pilot.resize_terminal(100, 30)
                await pilot.pause()
    asyncio.run(go())


async def shrink_and_enlarge(pilot, app, w: int, h: int) -> None:
    await pilot.resize_terminal(w, h)
    await pilot.pause()
    await pilot.pause()
    text = shown(app)
    # the notice, in place of a clipped table, with whose turn it is
    assert f"The terminal is {w}×{h}" in " ".join(text.split()), text
    assert "needs at least 80×24" in " ".join(text.split())
    assert "Your turn" in text
    assert "a number, a move" not in text, "no half-drawn table under the notice"
    # the game waits for you: nothing was taken meanwhile
    assert app._pending is not None and not app._pending.done()
    seen = len(app.lines_seen)
    # enlarged: the table again, whole, from its top line down
    await pilot.resize_terminal(100, 30)
    await pilot.pause()
    await pilot.pause()
    lines = screen_lines(app)
    assert lines[0].strip().startswith("Your turn"), lines[0]
    assert "a number, a move" in "\n".join(lines)
    assert "needs at least" not in "\n".join(lines)
    assert broken_words(app) == []
    assert app.focused is app.query_one("#input"), "typing goes to the input again"
    asked = app._pending
    await pilot.press("1", "enter")  # and it plays on
    await pilot.pause()
    if app.group is not None:  # option 1 was a group of plays: take its first
        await pilot.press("enter")
    for _ in range(100):
        await pilot.pause()
        if len(app.lines_seen) > seen:
            break
        if app.legal and app._pending is not asked:  # a further question first (more damage)
            await pilot.press("enter")
    assert asked.done() and len(app.lines_seen) > seen, (w, h)
    # smaller again: the notice again
    await pilot.resize_terminal(w, h)
    await pilot.pause()
    await pilot.pause()
    assert "needs at least 80×24" in " ".join(shown(app).split()), (w, h)


def test_a_terminal_small_from_the_start_says_so_with_whose_turn_it_is():
    async def go():
        lg, app = local_app("go-out-girl", 3, 11)
        async with app.run_test(size=(60, 18)) as pilot:
            for _ in range(100):
                await pilot.pause()
                if app.legal:
                    break
            await pilot.pause()
            text = " ".join(shown(app).split())
            assert "The terminal is 60×18; the table needs at least 80×24 — enlarge the " \
                   "window." in text, text
            assert "Your turn" in text and "Ctrl+Q leaves the table" in text
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.pause()
            assert screen_lines(app)[0].strip().startswith("Your turn")
            assert broken_words(app) == []
    asyncio.run(go())


def test_exactly_80_by_24_is_the_table():
    async def go():
        lg, app = local_app("go-out-girl", 3, 11)
        async with app.run_test(size=(80, 24)) as pilot:
            await reach_a_question(pilot, app)
            await pilot.pause()
            text = shown(app)
            assert "needs at least" not in text
            assert screen_lines(app)[0].strip().startswith("Your turn")
    asyncio.run(go())


def test_a_page_open_when_the_terminal_shrinks_is_there_again_after():
    view = gog_view()

    async def go():
        app = one_question(view, view.legal(0))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("f3")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            await pilot.resize_terminal(50, 15)
            await pilot.pause()
            assert "needs at least 80×24" in " ".join(shown(app).split())
            await pilot.press("f1")  # no page opens over the notice
            await pilot.pause()
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            assert isinstance(app.screen, TextScreen) and "card NAME" in app.screen.text
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, TextScreen)
    asyncio.run(go())


def test_a_replay_in_a_small_terminal_says_so_and_how_to_leave(replay_app):
    async def go():
        app = replay_app()
        async with app.run_test(size=(70, 20)) as pilot:
            await pilot.pause()
            text = " ".join(shown(app).split())
            assert "needs at least 80×24" in text and "q leaves the replay." in text
            assert "Replay as a spectator" in text
            await pilot.press("q")
            await pilot.pause()
        return app.is_running
    assert asyncio.run(go()) is False
