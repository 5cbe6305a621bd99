"""A test stand-in for the mesh's replay mode: shows the deck service re-runs identically from its seed.

Every secret of a ``DeckPeer`` derives from its seed, so a peer that restarts with the same seed
and is fed, in order, the messages it had received recomputes exactly the messages it had sent.
``ReplayChannel`` wraps the live channel: ``recv`` first serves the recorded messages; ``send`` and
``broadcast`` compare each delivery with the recorded ones and drop it (it was delivered before the
crash) until the record runs out, then pass through. A difference raises ``ReplayDiverged``: the
seed, the operations or the record are not the ones of the crashed run.

The caller re-issues the same operations (its engine replays its game transcript).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from protocol.channel import Channel, Message


class ReplayDiverged(Exception):
    """The restarted peer sent something other than what it sent before the crash."""


class ReplayChannel(Channel):
    def __init__(self, live: Channel, received: Iterable[tuple[int, str, Message]],
                 sent: Iterable[tuple[int, str, Message]]) -> None:
        """``received``: ``(sender, topic, body)`` in the order they were received;
        ``sent``: ``(recipient, topic, body)`` deliveries made, in order (a broadcast is one
        delivery per other seat, in seat order)."""
        self.live = live
        self.seat = live.seat
        self.seats = live.seats
        self._received: dict[str, deque[tuple[int, Message]]] = {}
        for sender, topic, body in received:
            self._received.setdefault(topic, deque()).append((sender, body))
        self._sent = deque(sent)

    @property
    def replaying(self) -> bool:
        return bool(self._sent) or any(self._received.values())

    def _check(self, to: int, topic: str, body: Message) -> bool:
        """True if this delivery was made before the crash (and is dropped)."""
        if not self._sent:
            return False
        want = self._sent.popleft()
        if want != (to, topic, body):
            raise ReplayDiverged(f"seat {self.seat} now sends {topic}/{body.get('step')} to seat "
                                 f"{to}, not what it sent before the crash")
        return True

    async def send(self, to: int, topic: str, body: Message) -> None:
        if not self._check(to, topic, body):
            await self.live.send(to, topic, body)

    async def broadcast(self, topic: str, body: Message) -> None:
        for to in self.others():
            if not self._check(to, topic, body):
                await self.live.send(to, topic, body)

    async def recv(self, topic: str, timeout: float | None = None) -> tuple[int, Message]:
        q = self._received.get(topic)
        if q:
            return q.popleft()
        return await self.live.recv(topic, timeout)
