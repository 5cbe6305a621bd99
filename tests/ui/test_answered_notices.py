"""A notice about a question goes with it (ux21): after carol took her character on the
full-screen table, the hint for it ("Option 3: play Penny ... Why: ...") stayed below her hand
for the whole deal, and "Only one choice: ... taken in 1 s" stayed up after the table had moved
on to alice's turn, as if either were about what the screen showed next."""

from __future__ import annotations

import asyncio

from p2pcards.ui.app import TableApp
from tests.ui.test_screen import FakeAdvice, gog_view


def _after_answer(legal, *, keys, hinter=None, forced_delay=-1.0):
    """Ask one question, press ``keys``, then hold (the table moves on, nothing asked): the
    notice line and the answer, as the person sees them then."""
    view = gog_view()
    seen: dict = {}

    async def driver(app):
        seen["answer"] = await app.ask(view, legal)
        app.show(view)
        await asyncio.Event().wait()  # the others' turns: nothing asked of this seat

    async def go():
        app = TableApp(view.game, view.viewer, driver, names=view.config["names"],
                       hinter=hinter, forced_delay=forced_delay)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for key in keys:
                if key == "hint":
                    await pilot.press("f2")
                    await app.hint_worker.wait()
                    await pilot.pause()
                    seen["hinted"] = app.texts["notice"]
                else:
                    await pilot.press(key)
            for _ in range(100):
                if "answer" in seen:
                    break
                await pilot.pause(0.02)
            await pilot.pause()
            seen["notice"] = app.texts.get("notice", "")
            seen["shown"] = app.query_one("#notice").display
    asyncio.run(go())
    return seen


def test_a_hint_goes_when_its_question_is_answered():
    view = gog_view()
    legal = view.legal(0)
    target = next(a for a in legal if a.kind == "guard")
    seen = _after_answer(legal, keys=["hint", "enter"],
                         hinter=lambda v, lg: FakeAdvice(target, "play Guard"))
    assert seen["hinted"].startswith("Option ") and "play Guard" in seen["hinted"]
    assert seen["answer"] == target
    assert seen["notice"] == "" and not seen["shown"]


def test_the_only_choice_notice_goes_once_it_is_taken():
    view = gog_view()
    only = view.legal(0)[-1]
    seen = _after_answer([only], keys=[], forced_delay=0.05)
    assert seen["answer"] == only
    assert "Only one choice" not in seen["notice"] and not seen["shown"]

