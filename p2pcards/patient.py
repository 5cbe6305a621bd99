"""The deck's channel at a networked table (``PatientChannel``): its timeouts run only while
every peer is present and reached, and a seat that is present and slow-drips its deck messages
is named once its lateness over the match runs over a budget."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from protocol.channel import Channel, Message
from protocol.errors import DeckTimeout
from protocol.mesh import Mesh

from .table import OWN_PAUSE

# Slow drip: deck messages are made by programs, not people, so every present wait on a seat's
# deck message beyond DECK_ALLOWANCE counts against that seat, and past DECK_LATE_BUDGET in all
# over the match it is named. Measured (commit 9075205): an honest wait took at most 0.84 s
# (median 0.03 s) with 5 seats of 126 cards in one process on 2 loaded cores; the allowance is
# over three times that.
DECK_ALLOWANCE = 3.0
DECK_LATE_BUDGET = 120.0
# a deck timeout waits for our messages to get through to a seat that says they do not (its
# heads): for at most this long in all, per seat, over the match -- a seat whose heads keep
# saying so falsely would otherwise pause every deck wait, one after another, for this long
MAX_UNREACHED_PAUSE = 300.0


class PatientChannel(Channel):
    """The mesh channel as the deck service sees it: a timeout only runs while every peer is
    present and getting our messages, so a peer whose terminal closed, or whom our messages do
    not reach (a failed resume, a one-way link), is waited for (the table pauses), while a peer
    that is present and withholds a message is named when its time is up."""

    def __init__(self, inner: Any, mesh: Mesh, *, late_after: float = DECK_ALLOWANCE,
                 late_budget: float = DECK_LATE_BUDGET) -> None:
        self.inner = inner
        self.mesh = mesh
        self.seat = inner.seat
        self.seats = inner.seats
        # Slow drip: a seat that sends every deck message just inside the timeout would hold
        # the table for the timeout times the number of deck steps. Every wait's present time
        # beyond ``late_after`` (a small allowance: a program's honest step takes well under a
        # second) counts against the seat waited on (``recv_from``; for a plain ``recv``, the
        # seat whose message ended it); past ``late_budget`` in all over the match that seat
        # is named, the moment it runs over. (Charging only beyond half the timeout left 30 s
        # a message free: 45-90 minutes a match.) A person's choice inside a deck step (a
        # private arrangement) is a decision, not lateness: that seat is in ``lenient`` while
        # it runs (only that seat: another awaited meanwhile is charged as usual). A wait is
        # for one message (``awaiting``, the deck's op and step): a seat's message for another
        # step, filed for later, does not end it (red team 14: a dripper sending a message for an
        # operation far ahead every 2.9 s ended each wait under the allowance, and was charged
        # nothing however long it held the awaited one).
        self.late_after, self.late_budget = late_after, late_budget
        self.late: dict[int, float] = {}
        self._waiting: dict[int, float] = {}  # present time of the wait under way, per awaited seat
        self._charged: dict[int, float] = {}  # of which, beyond the allowance, already charged
        self._awaiting: Any = None  # what the wait under way is for (``recv_from``'s ``awaiting``)
        self.paused_for: dict[int, float] = {}  # time paused, over the match, per unreached seat
        self.lenient: set[int] = set()  # seats whose waits are a person's decision, not lateness
        self._stood_still = 0.0  # time this channel's waits stood still (``clock``)

    def clock(self) -> float:
        """Present time: the event loop's clock less the time this channel's waits stood still
        (a peer away or unreached), so that a deadline counted on it -- the deck's, across the
        several waits of one step -- runs only while a wait's own timeout would."""
        return asyncio.get_running_loop().time() - self._stood_still

    async def send(self, to: int, topic: str, body: Message) -> None:
        await self.inner.send(to, topic, body)

    async def broadcast(self, topic: str, body: Message) -> None:
        await self.inner.broadcast(topic, body)

    async def recv(self, topic: str, timeout: float | None = None) -> tuple[int, Message]:
        return await self._wait(topic, timeout, None)

    async def recv_from(self, topic: str, senders: Sequence[int],
                        timeout: float | None = None, awaiting: Any = None) -> tuple[int, Message]:
        return await self._wait(topic, timeout, tuple(senders), awaiting)

    async def _wait(self, topic: str, timeout: float | None,
                    senders: tuple[int, ...] | None, awaiting: Any = None) -> tuple[int, Message]:
        """The next message, counting the present time waited. Waiting on known ``senders``,
        each one's wait is timed across calls (the deck calls again after filing another seat's
        message) and a seat whose lateness runs over its budget is named during the wait, on
        this program's own clock -- not only once its late message comes, so every program
        waiting on a slow-dripping seat names it itself, each within a step of the others."""
        if timeout is None:
            return await self.inner.recv(topic)
        if senders is not None:  # a wait on other seats than before ends the wait on those
            if awaiting is not None and awaiting != self._awaiting:  # a new message awaited
                self._waiting, self._charged = {}, {}
            self._awaiting = awaiting
            self._waiting = {s: self._waiting.get(s, 0.0) for s in senders}
            self._charged = {s: v for s, v in self._charged.items() if s in self._waiting}
        loop = asyncio.get_running_loop()
        left, waited = timeout, 0.0
        while True:
            step = min(left, 0.5)
            t0 = loop.time()
            try:
                got: tuple[int, Message] | None = await self.inner.recv(topic, step)
            except TimeoutError:
                got = None
            spent = loop.time() - t0
            if spent > step + OWN_PAUSE:  # this program stood still (stopped, suspended): not
                self._stood_still += spent - step  # the awaited seat's time, nor the deck's
                spent = step
            # a peer that keeps saying it lacks our messages is waited for, but not forever
            claims = [s for s in self.mesh.unreached()
                      if self.paused_for.get(s, 0.0) < MAX_UNREACHED_PAUSE]
            unreached = bool(claims)
            for s in claims:
                self.paused_for[s] = self.paused_for.get(s, 0.0) + spent
            present = not self.mesh.away and not unreached
            if not present:
                self._stood_still += spent
            if present:
                waited += spent
                if senders is not None:
                    for s in senders:
                        if s not in self.lenient and not self._carried(s):
                            self._waiting[s] = self._waiting.get(s, 0.0) + spent
            if got is not None:
                if senders is None and not self._carried(got[0]):
                    self._charge(got[0], waited)  # present time waited for this message
                elif got[0] in self._waiting:
                    self._book(got[0])  # its wait so far; told what is awaited, the wait goes on
                    if awaiting is None:  # (a message for a later step is filed, not awaited)
                        self._waiting.pop(got[0])
                        self._charged.pop(got[0], None)
                return got
            for s in senders or ():
                if self._overdue(s):
                    self._book(s)  # raises: named now, not on arrival
            if present:
                left -= step
                if left <= 0:
                    raise TimeoutError

    def _carried(self, seat: int) -> bool:
        """Whether ``seat``'s messages reach this program only through the others now (its own
        frames do not: a cut link). Their lateness is not charged to it: the seat carrying
        them may be holding each back, just under the time that would mark it away (red team
        19: carol, the only seat hearing both alice and bob, delayed what she carried between
        them, and each named the other for sending its deck messages late again and again)."""
        out_of_reach = getattr(self.mesh, "out_of_reach", None)  # a stand-in mesh: all reached
        return out_of_reach is not None and out_of_reach(seat)

    def _excess(self, seat: int) -> float:
        """The wait under way on ``seat`` beyond the allowance, not charged yet."""
        return max(0.0, self._waiting.get(seat, 0.0) - self.late_after) - self._charged.get(seat, 0.0)

    def _overdue(self, seat: int) -> bool:
        excess = self._excess(seat)
        return (seat not in self.lenient and excess > 0
                and self.late.get(seat, 0.0) + excess > self.late_budget)

    def _book(self, seat: int) -> None:
        """Charge ``seat`` what its wait under way has run beyond the allowance since last
        charged."""
        excess = self._excess(seat)
        if seat in self.lenient or excess <= 0:
            return
        self._charged[seat] = self._charged.get(seat, 0.0) + excess
        self._add_late(seat, excess)

    def _charge(self, sender: int, waited: float) -> None:
        if sender in self.lenient or waited <= self.late_after:
            return
        self._add_late(sender, waited - self.late_after)

    def _add_late(self, sender: int, more: float) -> None:
        late = self.late[sender] = self.late.get(sender, 0.0) + more
        if late > self.late_budget:
            raise DeckTimeout(sender, "deck", f"sent its deck messages late again and again "
                              f"({late:.0f} s in all beyond {self.late_after:g} s a message; at "
                              f"most {self.late_budget:.0f} s over the match)")
