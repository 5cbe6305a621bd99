"""A player who quits once is named for leaving, not for "coming and going" (ux23).

Walked at a table of three: carol typed quit (Ctrl-C twice) while the deck was opening a card,
and the game moved on in the same quarter second in which her program's goodbye came. The
absence watcher started counting her spells afresh (the game moved) with her new spell in it,
then counted that same spell again as a new one: two spells. Past the wait every screen said
"the table stopped: carol kept leaving and coming back: away 20 s in all since the game last
moved" -- of a player who left once and never came back."""

from __future__ import annotations

import asyncio
import time

from p2pcards.absence import _watch_absence
from tests.mesh.helpers import AwayInSpells, run_async


@run_async(timeout=30)
async def test_a_spell_that_begins_as_the_game_moves_is_one_departure():
    fake = AwayInSpells([(0.6, 1e9)])  # bob goes away for good, once
    t0 = fake.t0

    def progress() -> int:  # the game moves at the very moment he goes
        return 0 if time.monotonic() - t0 < 0.6 else 1

    async def watch_him():
        while True:
            fake.tick()
            await asyncio.sleep(0.01)

    task = asyncio.create_task(watch_him())
    try:
        await asyncio.wait_for(_watch_absence(fake, 2.0, lambda _: None, bot=False,
                                              progress=progress), 15)
    finally:
        task.cancel()
    assert fake.stopped.culprit == 1
    assert "coming back" not in fake.stopped.reason, fake.stopped.reason
    assert "bob was away and did not come back within 2 s" in fake.stopped.reason


class Unreached(AwayInSpells):
    """bob is heard, but our messages fail to reach his program (``unreached``), from the start."""

    def unreached(self) -> set[int]:
        return {1}


@run_async(timeout=30)
async def test_a_link_that_fails_for_a_moment_is_no_news():
    """Walked: carol's program stood still 20 s (Ctrl-Z); woken, it said at once "** waiting for
    alice (seat 1, ...): our messages do not reach their program (0 s); they run 'p2pcards join
    --resume'" -- to carol, of the players who had done nothing, while her links came back. The
    others read the same of carol, "(0 s)", a few seconds before "carol is away". A link failing
    is said once it has failed for as long as a seat is away before it is named (5 s here)."""
    fake = Unreached([])
    said: list[str] = []
    watch = asyncio.create_task(_watch_absence(fake, 20.0, said.append, bot=False))
    try:
        await asyncio.sleep(3.0)
        assert not [x for x in said if "do not reach" in x], said
        await asyncio.sleep(3.0)
        (line,) = [x for x in said if "do not reach" in x]
        assert line.startswith("** waiting for bob (seat 2, FAKE-2): our messages do not reach "
                               "their program (5 s)"), line
    finally:
        watch.cancel()
        await asyncio.gather(watch, return_exceptions=True)


def test_a_seat_away_without_a_goodbye_may_come_back_by_itself_one_that_quit_reruns():
    """Walked (ux23): carol's network dropped for 20 s; the others read "carol is away; the
    table waits for them to come back (they rerun the same join command)" and the reminders
    "...; they rerun their join command" -- as though her program were gone, and an invitation
    to start a second one for her seat while hers was reconnecting. One that quit reruns it."""
    from p2pcards.absence import _comeback

    assert _comeback(2, left=True) == "they rerun their join command"
    assert _comeback(2, left=False) == ("their program reconnects by itself, or, if it closed, "
                                        "they rerun their join command")
    assert _comeback(0, left=False).endswith("if it closed, they run 'p2pcards join --resume'")
