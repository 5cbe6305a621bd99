"""A bot seat's answers, paced so that *when* they come tells nobody what the bot holds.

At a networked table every other program sees when each move arrives. A bot answers a question
with one legal option at once, and one with several after it has weighed them; a ``normal`` or
``strong`` bot then searches, for tens or hundreds of milliseconds. So the delay of its answer
said what its hidden hand allowed: in The Girl and the Robot a strong bot asked whether to
cancel an Action card answered in 0.2 ms holding no Cancel Action and in 32-114 ms holding one
(red team 24: one answer, read over the LAN, told which). ``Paced`` sends each answer no
sooner than a floor that depends only on what everyone knows -- the game, the bot's level and
the question's phase -- so that an answer that was quick waits for it:

- ``QUICK`` for every answer (the heuristic's own time is well under a millisecond, its worst
  a few: a floor of 20 ms covers it with room for a busy machine);
- ``SEARCH[game, level]`` for a question in a phase where a ``normal`` or ``strong`` bot may
  search (``searches`` on the bot's class: the phases, or ``None`` for every phase), whether or
  not it did: a sole option, or a hand that asks no search, waits as long as a search would.
  Each is above nearly every search measured at that game and level (docs/network.md).

The bot thinks in a thread of its own (``_thinking``), on a copy of its view, so that the
program's other replies are not held while it searches: a peer timing them would read the
search from them, floor or not.

The search itself is bounded by work (a count, not a clock, so a bot's choice stays a function
of its view and seed), under the floor on this machine nearly always; one that runs past the
floor is sent when it is done, and its lateness tells that a search ran long (docs/network.md,
"What the network protects, and what it does not").
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..background import start_in_thread
from ..engine import Action, GameState
from .registry import make_bot

QUICK = 0.02  # seconds: the floor of every bot answer
# seconds: the floor of an answer where the level may search, by game and level: above the
# searches' 99th percentile, and their 99.9th where that costs little (docs/network.md)
SEARCH = {("girl-and-robot", "normal"): 0.25, ("girl-and-robot", "strong"): 0.3,
          ("go-out-girl", "normal"): 0.15, ("go-out-girl", "strong"): 0.6,
          ("out-of-this-world", "normal"): 0.05, ("out-of-this-world", "strong"): 0.3}


def answer_floor(bot: Any, level: str, view: GameState | None) -> float:
    """The earliest (seconds after it is asked) a bot of ``level`` answers at a table: a
    function of the game, the level, the bot's class and the question's phase, all public."""
    floor = SEARCH.get((getattr(view, "game", None), level))
    if floor is None:
        return QUICK
    phases = getattr(bot, "searches", None)
    if phases is not None and getattr(view, "phase", None) not in phases:
        return QUICK
    return floor


class Paced:
    """``bot``'s decisions, each returned no sooner than ``answer_floor`` after it was asked,
    and its arrangements (a Manipulate's private reorder: the order it chose from the cards it
    saw) no sooner than ``QUICK``. For a networked table (``Table`` awaits them); the engine's
    local ``play`` takes the bot itself."""

    def __init__(self, bot: Any, level: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.bot, self.level, self.clock = bot, level, clock
        self.needs_view = getattr(bot, "needs_view", True)
        # a decision the table stopped waiting for (its turn time ran out) may still be
        # running when the next is asked: the bot's own state (its rng, its memory) is used by
        # one at a time
        self._one_at_a_time = threading.Lock()

    async def decide(self, view: GameState | None, legal: list[Action]) -> Action:
        mine = None if view is None else view.clone()
        return await self._paced(answer_floor(self.bot, self.level, view),
                                 lambda: self.bot.decide(mine, list(legal)))

    async def arrange(self, view: GameState, slots: tuple[int, ...]) -> Sequence[int]:
        mine = view.clone()
        return await self._paced(QUICK, lambda: self.bot.arrange(mine, slots))

    async def _paced(self, floor: float, answer: Callable[[], Any]) -> Any:
        t0 = self.clock()
        out = await _thinking(answer, self._one_at_a_time)
        left = floor - (self.clock() - t0)
        if left > 0:
            await asyncio.sleep(left)
        return out

    def __getattr__(self, name: str) -> Any:  # seat, rng, name...: the bot's own
        return getattr(self.__dict__["bot"], name)


SWITCH = 0.0005  # seconds: how soon the event loop gets Python back from a thinking bot
# bot threads running now, and the switch interval from before the first of them (``_thinking``)
_switch_users, _switch_before = 0, 0.0
_switch_lock = threading.Lock()


def _switch_short() -> None:
    global _switch_users, _switch_before
    with _switch_lock:
        if _switch_users == 0:
            _switch_before = sys.getswitchinterval()
            sys.setswitchinterval(min(_switch_before, SWITCH))
        _switch_users += 1


def _switch_back() -> None:
    global _switch_users
    with _switch_lock:
        _switch_users -= 1
        if _switch_users == 0:
            sys.setswitchinterval(_switch_before)


async def _thinking(answer: Callable[[], Any], lock: threading.Lock) -> Any:
    """``answer()`` in a daemon thread of its own, awaited, so that the event loop -- this
    program's replies to the table -- goes on while the bot thinks: a search run on the loop
    held every reply for as long as it ran, and a peer asking for this program's ``heads``
    during a question read the search's length from the reply's delay, floor or not (red team
    24: replies held 21-50 ms during a search, under 6 ms without one). Python's switch
    interval is shortened while any such thread runs (5 ms by default: a reply then waited up
    to that for the thread to let go) -- until the last of them ends, not the coroutine: an
    answer the table stopped waiting for searches on, and of two overlapping ones the first to
    end put back 5 ms under the second, which then left the short one for good (red team 25).
    A daemon thread, not the loop's executor: leaving mid-search does not wait for the search
    (as ``ui.hints.in_background``). Whatever the bot raises reaches the awaiting coroutine; a
    ``StopIteration`` (a ``next()`` that found nothing), which a future refuses, as a
    ``RuntimeError`` (red team 25: the seat waited, silently, for its turn time)."""
    def work() -> Any:
        try:
            with lock:
                return answer()
        finally:
            _switch_back()

    _switch_short()
    try:
        done = start_in_thread(work, "bot")
    except BaseException:
        _switch_back()
        raise
    return await done


def seat_bot(game: str, seat: int, level: str, seed: int | None = None) -> Paced:
    """The agent a bot seat plays with at a networked table: ``make_bot``'s, paced."""
    return Paced(make_bot(game, seat, level, seed), level)
