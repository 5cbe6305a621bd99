"""What the table sees of the mesh: ``MeshChannel`` (a ``protocol.channel.Channel``) and the
``Replay`` a resumed peer's re-run is checked against."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..channel import CLAIM_WINDOW, Channel, ChannelClosed, TableStop
from ..envelope import (
    Message,
    canonical,
)
from .common import (
    ReplayDivergence,
)

if TYPE_CHECKING:
    from .core import Mesh


@dataclass
class Replay:
    """What a restarted peer recorded sending, per topic, for its re-run to be checked against.

    ``recorded[topic]`` is every ``(to, body)`` the transcript shows sent on that topic (``to`` None
    for a broadcast), in order; ``pending(topic)`` is the part the re-run has not re-sent yet."""

    recorded: dict[str, list[tuple[int | None, Message]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    _queue: dict[str, deque[tuple[int | None, bytes, int]]] = field(
        default_factory=lambda: defaultdict(deque)
    )
    swallowed: int = 0

    def add(self, topic: str, to: int | None, body: Message, seq: int) -> None:
        self.recorded[topic].append((to, body))
        self._queue[topic].append((to, canonical(body), seq))

    @property
    def active(self) -> bool:
        return any(self._queue.values())

    def pending(self, topic: str) -> list[tuple[int | None, Message]]:
        q = self._queue.get(topic)
        if not q:
            return []
        return self.recorded[topic][len(self.recorded[topic]) - len(q) :]

    def match(self, topic: str, to: int | None, body: Message) -> bool:
        """True if this send is the next recorded one on ``topic`` (swallow it); False if the
        topic's record is used up (send live); ``ReplayDivergence`` if it differs."""
        q = self._queue.get(topic)
        if not q:
            return False
        rto, rbody, seq = q[0]
        if rto != to or rbody != canonical(body):
            what = "broadcast" if rto is None else f"send to seat {rto}"
            raise ReplayDivergence(
                f"re-run diverged on topic {topic!r}: the transcript's next message (seq {seq}) is a {what} of "
                f"{rbody.decode()[:200]}, the re-run sent {'a broadcast' if to is None else f'to seat {to}'} "
                f"{canonical(body).decode()[:200]}"
            )
        q.popleft()
        self.swallowed += 1
        return True


_CLOSED = object()


class MeshChannel(Channel):
    """The ``Channel`` over the mesh: ``recv`` gives the authenticated sender seat; private sends
    are encrypted to their recipient. On a resumed peer the channel replays first (see ``Replay``)."""

    def __init__(self, mesh: Mesh) -> None:
        self._mesh = mesh

    @property
    def seat(self) -> int:  # type: ignore[override]
        return self._mesh.seat

    @property
    def seats(self) -> int:  # type: ignore[override]
        return self._mesh.seats

    async def send(self, to: int, topic: str, body: Message) -> None:
        if not isinstance(to, int) or to == self.seat or not 0 <= to < self.seats:
            raise ValueError(f"seat {self.seat} cannot send to seat {to}")
        await self._mesh._send(to, topic, body)

    async def broadcast(self, topic: str, body: Message) -> None:
        await self._mesh._send(None, topic, body)

    async def recv(self, topic: str, timeout: float | None = None) -> tuple[int, Message]:
        item = await self._recv_item(topic, timeout)
        return item[0], item[1]

    async def recv_stamped(self, topic: str, timeout: float | None = None
                           ) -> tuple[int, Message, dict[str, int] | None]:
        item = await self._recv_item(topic, timeout)
        return item[0], item[1], item[5]

    async def _recv_item(self, topic: str, timeout: float | None) -> tuple:
        mesh = self._mesh
        q = mesh._inbox(topic)
        if mesh.record_lost is not None:  # this seat's record cannot be kept: play no further
            raise mesh.record_lost
        if mesh.stopped is not None:
            if mesh.stopped.claimed is not None:
                return await self._recv_in_claim(q, mesh.stopped, timeout)
            raise mesh.stopped
        elif mesh.closed:
            raise ChannelClosed()
        t0 = time.monotonic()
        item = await (q.get() if timeout is None else asyncio.wait_for(q.get(), timeout))
        if item is _CLOSED:
            q.put_nowait(_CLOSED)
            if mesh.record_lost is not None:
                raise mesh.record_lost
            if mesh.stopped is not None and mesh.stopped.claimed is not None:
                # the claim arrived while this wait was under way: its window applies here too
                rest = None if timeout is None else max(0.0, timeout - (time.monotonic() - t0))
                return await self._recv_in_claim(q, mesh.stopped, rest)
            if mesh.stopped is not None:
                raise mesh.stopped
            raise ChannelClosed()
        mesh._unread(item[0], -item[2])
        return item

    async def _recv_in_claim(self, q: asyncio.Queue, st: TableStop,
                             timeout: float | None) -> tuple:
        """A wait after another peer's unproven claim (``st``). For CLAIM_WINDOW the table plays
        on here: this program reads what comes (what had reached it before the claim, what the
        stopper had accepted when it stopped, which it asks for, and what is sent in the window: every
        program may still send in it), so a deviation the stopper saw is seen by this program's
        own checks, and its own clocks (turn time, deck timeouts, lateness) run on and may
        confirm it. A move made in time is read in time: a claim landing just before a player's
        deadline once froze what could be read and stopped that player from sending, and the
        clocks named an honest player (red team). Once the window closes, the stop is raised."""
        mesh = self._mesh
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            for i, item in enumerate(q._queue):  # type: ignore[attr-defined]
                if item is not _CLOSED:
                    del q._queue[i]  # type: ignore[attr-defined]
                    mesh._unread(item[0], -item[2])
                    return item
            now = time.monotonic()
            left = st.at + CLAIM_WINDOW - now
            if mesh.stopped is not st or left <= 0:
                raise mesh.stopped  # type: ignore[misc]
            if end is not None and now >= end:
                raise TimeoutError
            pause = min(left, 0.02)  # poll: messages may come until the window closes
            await asyncio.sleep(pause if end is None else min(pause, max(0.0, end - now)))

    # -- extras for the table ----------------------------------------------------------------

    @property
    def replaying(self) -> bool:
        """True while the re-run has recorded messages left to re-send."""
        return self._mesh.replay.active

    def recorded(self, topic: str) -> list[tuple[int | None, Message]]:
        """Every ``(to, body)`` the transcript shows this seat sent on ``topic`` before a restart."""
        return list(self._mesh.replay.recorded.get(topic, []))

    def pending_replay(self, topic: str) -> list[tuple[int | None, Message]]:
        """The recorded sends on ``topic`` not yet re-sent: e.g. a human's decisions to re-apply."""
        return self._mesh.replay.pending(topic)

    def away(self) -> set[int]:
        return set(self._mesh.away)

    def waiting_for(self) -> list[str]:
        return self._mesh.waiting_for()
