"""docs/playing.md, Choosing: "A single forced option is shown with a notice and taken after a
second (--forced-delay SECONDS; a negative value waits for Enter)". The first half is tested in
test_screen.py; this is the second: with a negative delay nothing is taken by itself, however
long the person looks away, and Enter takes it."""

from __future__ import annotations

import asyncio

from tests.ui.test_screen import gog_view, one_question


def test_a_negative_forced_delay_waits_for_enter():
    view = gog_view()
    only = view.legal(0)[-1]

    async def go():
        app = one_question(view, [only], forced_delay=-1.0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.pause(1.2)  # longer than the default delay of a second
            assert app.result is None, "taken without Enter"
            assert "taken in" not in app.texts.get("notice", "")
            await pilot.press("enter")
            for _ in range(100):
                if app.result is not None:
                    break
                await pilot.pause(0.02)
            return app.result
    assert asyncio.run(go()) == only
