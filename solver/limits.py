"""A search's time limit and its progress reports, for the exact puzzle solvers (``p2pcards
solve``). A solver calls ``check(nodes)`` as it counts positions (every ``EVERY`` of them): past
the deadline it raises ``OutOfTime``; every ``report_every`` seconds it hands its count to
``progress`` (the command line prints it)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


class OutOfTime(RuntimeError):
    """The time limit was reached before the search finished."""


class Limit:
    EVERY = 1024  # positions between two looks at the clock (a look costs ~0.1 µs per position)

    def __init__(self, seconds: float | None = None,
                 progress: Callable[[int, float], None] | None = None, *,
                 report_every: float = 0.5, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds if seconds else None  # 0 or None: no limit
        self.progress = progress
        self.report_every = report_every
        self.clock = clock
        self.start = clock()
        self.deadline = None if self.seconds is None else self.start + self.seconds
        self._next_report = self.start + report_every

    def elapsed(self) -> float:
        return self.clock() - self.start

    def check(self, nodes: int) -> None:
        now = self.clock()
        if self.deadline is not None and now >= self.deadline:
            raise OutOfTime(f"the time limit of {self.seconds:g} s was reached")
        if self.progress is not None and now >= self._next_report:
            self._next_report = now + self.report_every
            self.progress(nodes, now - self.start)


#: Why a search stopped before its answer was proven, as the result says it.
STOPPED_TIME = "time limit"
STOPPED_SIZE = "size limit"
STOPPED_INTERRUPT = "interrupted"


def stopped_text(why: str, r: dict[str, Any]) -> str:
    """Why a search stopped before it was finished, in words."""
    if why == STOPPED_TIME:
        return f"the time limit ({r['time_limit']:g} s) was reached"
    if why == STOPPED_SIZE:
        return f"the limit of {r['node_limit']:,} positions searched was reached"
    return "it was stopped (Ctrl+C)"


def more_time(r: dict[str, Any]) -> str:
    """What might still give the answer, after a search stopped early."""
    if r["stopped"] == STOPPED_TIME:
        return "A longer --time-limit may finish it; "
    if r["stopped"] == STOPPED_INTERRUPT:
        return "Left to run, it may finish; "
    return "The position is too large for an exact answer (fewer cards make it smaller); "
