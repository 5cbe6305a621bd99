"""Red team 25: a bot seat thinks in a thread of its own (``bots/pacing.py``, ``_thinking``).
Written as the attacker looking for a seat that hangs or a reply that waits: what happens when
the bot's thread fails, or two of its answers overlap?

- A bot's ``decide`` that raises ``StopIteration`` (a ``next(...)`` without a default finding
  nothing, as several bots write: ``bots/go_out_girl.py``, ``bots/girl_and_robot.py``) could not
  be handed to the awaiting coroutine (``Future.set_exception`` refuses it with a ``TypeError``
  in the loop's callback): the seat waited for ever, silently, its program answering everyone
  else, until its own turn time (30 s for a bot) ran out. On the loop, before the thread, the
  same bug ended the seat at once with an error.
- Python's switch interval, shortened while the bot thinks so that the program's replies are not
  held (red team 24), was restored when the *awaiting coroutine* ended, not the thread: an answer
  the table stopped waiting for (its turn time ran out) went on searching at the 5 ms default,
  each reply meanwhile held up to that; and of two overlapping answers, the first to end put
  back 5 ms while the second still searched, and the second put back the short interval for
  good."""

from __future__ import annotations

import asyncio
import sys
import threading

import pytest

from p2pcards.bots.pacing import SWITCH, Paced, _thinking


class Broken:
    """A bot whose decision finds nothing where it expected something."""

    needs_view = False

    def decide(self, view, legal):
        return next(a for a in legal if a == "no such option")


def test_a_bot_whose_thread_raises_stopiteration_fails_at_once_not_hangs():
    async def main():
        return await asyncio.wait_for(Paced(Broken(), "easy").decide(None, ["pass"]), 3.0)

    # on main: TimeoutError after 3 s (the answer never came, nor an error)
    with pytest.raises(RuntimeError, match="StopIteration"):
        asyncio.run(main())


def test_any_other_failure_in_the_bots_thread_reaches_the_table_as_it_is():
    class Fails:
        needs_view = False

        def decide(self, view, legal):
            raise IndexError("a bug")

    async def main():
        return await asyncio.wait_for(Paced(Fails(), "easy").decide(None, ["pass"]), 3.0)

    with pytest.raises(IndexError, match="a bug"):
        asyncio.run(main())


def _search(go: threading.Event, seen: list[float]):
    def answer():
        go.wait(5.0)
        seen.append(sys.getswitchinterval())
        return "done"
    return answer


def test_a_search_the_table_stopped_waiting_for_keeps_the_short_switch_interval():
    before = sys.getswitchinterval()
    go, seen = threading.Event(), []

    async def main():
        lock = threading.Lock()
        task = asyncio.ensure_future(_thinking(_search(go, seen), lock))
        await asyncio.sleep(0.05)
        task.cancel()  # the bot's turn time ran out: the table plays the stand-in
        await asyncio.sleep(0.05)
        during = sys.getswitchinterval()  # the search goes on in its thread
        go.set()
        for _ in range(100):
            if not lock.locked() and seen:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.05)
        return during

    try:
        during = asyncio.run(main())
        # on main: 0.005 (the default) while the abandoned search still ran
        assert during == pytest.approx(min(before, SWITCH))
        assert seen == [pytest.approx(min(before, SWITCH))]
        assert sys.getswitchinterval() == pytest.approx(before)
    finally:
        sys.setswitchinterval(before)


def test_two_overlapping_answers_put_the_switch_interval_back_as_it_was():
    before = sys.getswitchinterval()
    first, second, seen = threading.Event(), threading.Event(), []

    async def main():
        a = asyncio.ensure_future(_thinking(_search(first, seen), threading.Lock()))
        b = asyncio.ensure_future(_thinking(_search(second, seen), threading.Lock()))
        await asyncio.sleep(0.05)
        first.set()  # the first ends while the second still thinks
        await a
        await asyncio.sleep(0.05)
        during = sys.getswitchinterval()
        second.set()
        await b
        return during

    try:
        during = asyncio.run(main())
        assert during == pytest.approx(min(before, SWITCH))  # on main: 0.005
        assert sys.getswitchinterval() == pytest.approx(before)  # on main: 0.0005, for good
    finally:
        sys.setswitchinterval(before)

