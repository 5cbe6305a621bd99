"""The one interface between the protocols (deck service, table) and the transport carrying them.

A ``Channel`` is one seat's authenticated connection to the other seats of a table. Messages are
JSON-able dicts grouped by *topic* ("deck", "game", "chat", ...); each topic has its own inbox, so
one subsystem never eats another's messages. ``recv`` reports the *authenticated* sender seat: the
in-process hub knows it by construction, the ZeroMQ mesh by the envelope's signature.

``send`` is private to one seat (the mesh encrypts it to the recipient); ``broadcast`` goes to every
other seat. Delivery between any two seats is in order and exactly once; a peer that replays or
forges is the receiving protocol's to detect and name.
"""

from __future__ import annotations

import asyncio
import json
import time
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

Message = dict[str, Any]


class ChannelClosed(Exception):
    """The channel was closed while waiting."""


class TableStop(ChannelClosed):
    """The table stopped for everyone: a signed ``stop`` from seat ``by`` naming ``culprit``
    (``None``: nobody is to blame) for ``reason``. Every wait on the channel raises it.

    ``claimed`` is the seat another peer's stop named without a proof this program could check:
    that peer's word, recorded as its claim; ``culprit`` stays ``None`` then."""

    def __init__(self, culprit: int | None, reason: str, by: int | None = None,
                 claimed: int | None = None) -> None:
        super().__init__(reason)
        self.culprit = culprit
        self.reason = reason
        self.by = by
        self.claimed = claimed
        self.at = time.monotonic()  # when this program stopped (a claim's window counts from it)


#: After another peer's unproven stop naming a seat (a claim), how long this program keeps its
#: own clocks running before it takes the stop as the last word: a timeout or an absence is each
#: program's own observation, and the programs' clocks on the same seat run within a second or
#: two of each other, so a bystander that has been waiting as long sees it for itself in this
#: window and names the seat itself; one that has not, records only the stopper's claim.
CLAIM_WINDOW = 3.0


class Channel(ABC):
    seat: int
    seats: int

    @abstractmethod
    async def send(self, to: int, topic: str, body: Message) -> None:
        """Send ``body`` to seat ``to`` only."""

    @abstractmethod
    async def broadcast(self, topic: str, body: Message) -> None:
        """Send ``body`` to every other seat."""

    @abstractmethod
    async def recv(self, topic: str, timeout: float | None = None) -> tuple[int, Message]:
        """The next message on ``topic``: ``(sender seat, body)``.

        Raises ``TimeoutError`` after ``timeout`` seconds with nothing received."""

    async def recv_stamped(self, topic: str, timeout: float | None = None
                           ) -> tuple[int, Message, dict[str, int] | None]:
        """``recv``, with the sender's messages that had reached this seat before this one:
        how many on each topic. A channel delivers each sender's messages in the order it sent
        them, whatever their topics, so this says which of two messages on different topics
        (a chat line, a move) its sender sent first. ``None``: this channel cannot tell."""
        sender, body = await self.recv(topic, timeout)
        return sender, body, None

    async def recv_from(self, topic: str, senders: Sequence[int],
                        timeout: float | None = None, awaiting: Any = None) -> tuple[int, Message]:
        """``recv``, in a wait for a message from one of ``senders`` (other messages may end it
        first). A channel may time those seats on their own clock: the lobby's channel names a
        seat whose lateness runs over its budget during the wait, not only once its message
        comes. ``awaiting`` names the message waited for (the deck: its op and step): calls with
        the same one are one wait, which a sender's other messages (for a later step, filed by
        the caller) do not end. By default, ``recv``."""
        return await self.recv(topic, timeout)

    def others(self) -> list[int]:
        return [s for s in range(self.seats) if s != self.seat]


class InMemoryHub:
    """In-process transport for tests, benchmarks and local tables: ``hub.channel(seat)``.

    A body is serialised once per send (JSON, as on the wire; a broadcast is one send) and each
    recipient decodes its own copy, so no peer shares objects with another. A body that JSON
    cannot carry (bytes, a set, ...) is copied structurally instead, as before.
    ``hub.log`` records every delivery as ``(sender, recipient, topic, body)``."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self._inboxes: list[dict[str, asyncio.Queue[tuple[int, Message, dict[str, int]]]]] = [
            defaultdict(asyncio.Queue) for _ in range(seats)
        ]
        # per (recipient, sender): how many messages on each topic were delivered
        self._delivered: dict[tuple[int, int], dict[str, int]] = defaultdict(dict)
        self.log: list[tuple[int, int, str, Message]] = []
        self.channels = [MemoryChannel(self, s) for s in range(seats)]

    def channel(self, seat: int) -> MemoryChannel:
        return self.channels[seat]

    def deliver(self, sender: int, tos: list[int], topic: str, body: Message) -> None:
        """One send of ``body`` to the seats ``tos`` (one seat, or every other for a broadcast):
        serialised once, decoded per recipient."""
        try:
            data = _ENCODE(body)
        except (TypeError, ValueError):
            data = None
        for to in tos:
            copy = _copy(body) if data is None else _DECODE(data)
            self.log.append((sender, to, topic, copy))
            counts = self._delivered[(to, sender)]
            self._inboxes[to][topic].put_nowait((sender, copy, dict(counts)))
            counts[topic] = counts.get(topic, 0) + 1


class MemoryChannel(Channel):
    def __init__(self, hub: InMemoryHub, seat: int) -> None:
        self.hub = hub
        self.seat = seat
        self.seats = hub.seats

    async def send(self, to: int, topic: str, body: Message) -> None:
        if to == self.seat or not 0 <= to < self.seats:
            raise ValueError(f"seat {self.seat} cannot send to seat {to}")
        self.hub.deliver(self.seat, [to], topic, body)

    async def broadcast(self, topic: str, body: Message) -> None:
        self.hub.deliver(self.seat, self.others(), topic, body)

    async def recv(self, topic: str, timeout: float | None = None) -> tuple[int, Message]:
        sender, body, _ = await self.recv_stamped(topic, timeout)
        return sender, body

    async def recv_stamped(self, topic: str, timeout: float | None = None
                           ) -> tuple[int, Message, dict[str, int] | None]:
        queue = self.hub._inboxes[self.seat][topic]
        if not queue.empty():  # already here: no waiter task, no timer
            return queue.get_nowait()
        if timeout is None:
            return await queue.get()
        async with asyncio.timeout(timeout):  # a timer on this task, not a task of its own
            return await queue.get()


_ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False, allow_nan=False).encode
_DECODE = json.JSONDecoder().decode


def _copy(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_copy(x) for x in v]
    return v
