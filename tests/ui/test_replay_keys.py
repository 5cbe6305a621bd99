"""docs/playing.md, Looking back: "The replay opens the same screen: ← → step one move, PgUp PgDn
ten, Home End jump, q leaves." PgUp and PgDn were not pressed by any test; pressed here past
both ends, as an impatient person does."""

from __future__ import annotations

import asyncio


def test_page_keys_step_ten_and_stop_at_both_ends(replay_app):
    async def go():
        app = replay_app()
        last = len(app.frames) - 1
        assert last > 25
        async with app.run_test(size=(140, 45)) as pilot:
            await pilot.pause()
            assert app.at == 0
            await pilot.press("pagedown")
            assert app.at == 10 and app.lines_seen == app.frames[10].log
            await pilot.press("pagedown", "pageup", "pageup", "pageup")
            assert app.at == 0  # the start stays the start
            await pilot.press("end", "pageup")
            assert app.at == last - 10
            await pilot.press("pagedown", "pagedown")
            assert app.at == last and app.lines_seen == app.frames[last].log  # and the end the end
            await pilot.press("q")
    asyncio.run(go())


def test_the_status_clock_firing_as_the_replay_closes_is_not_an_error(replay_app):
    """speed2's loaded run: the replay's once-a-second status tick fired while the app was closing
    and no longer found '#status' (NoMatches, a traceback for the person who pressed q); the
    table's own tick already let it go."""
    async def go():
        app = replay_app()
        async with app.run_test(size=(140, 45)) as pilot:
            await pilot.pause()
            await pilot.press("q")
        app._tick()  # the tick that comes as the screen is gone
    asyncio.run(go())
