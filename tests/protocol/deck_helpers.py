"""Shared helpers for the deck-service tests: in-process tables of ``DeckPeer``s."""

from __future__ import annotations

import asyncio
import copy
import hashlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from protocol.channel import InMemoryHub
from protocol.deck import DeckPeer

TABLE = b"test-table"
SPEC = "test-deck/v1"


def seed(seat: int, tag: str = "") -> bytes:
    return hashlib.sha256(f"p2pcards-test/{tag}/{seat}".encode()).digest()


def make_table(n: int, n_cards: int, *, tag: str = "", timeout: float = 5.0,
               lock_proofs: bool = True, classes: dict[int, Callable[..., DeckPeer]] | None = None
               ) -> tuple[InMemoryHub, list[DeckPeer]]:
    """``n`` peers over one hub; ``classes[seat]`` replaces ``DeckPeer`` for that seat."""
    hub = InMemoryHub(n)
    peers = []
    for p in range(n):
        cls = (classes or {}).get(p, DeckPeer)
        peers.append(cls(hub.channel(p), TABLE, SPEC, n_cards, seed(p, tag), timeout,
                         lock_proofs=lock_proofs))
    return hub, peers


async def together(peers: Sequence[DeckPeer], fn: Callable[[DeckPeer], Awaitable[Any]]) -> list[Any]:
    """Run ``fn`` at every peer concurrently; exceptions are returned, not raised."""
    return await asyncio.gather(*(fn(p) for p in peers), return_exceptions=True)


async def ok(peers: Sequence[DeckPeer], fn: Callable[[DeckPeer], Awaitable[Any]]) -> list[Any]:
    """Like ``together`` but every peer must succeed."""
    out = await together(peers, fn)
    for p, r in enumerate(out):
        if isinstance(r, BaseException):
            raise AssertionError(f"seat {p} failed: {r!r}") from r
    return out


class Tamper(DeckPeer):
    """An adversarial peer: ``tamper(peer, to, body)`` returns the messages actually sent
    (``[(to, body)]`` sends as is, ``[]`` withholds). ``body`` is a private deep copy."""

    tamper: Callable[[DeckPeer, int | None, dict[str, Any]], list[tuple[int | None, dict[str, Any]]]]
    sent: list[tuple[int | None, dict[str, Any]]]

    def _outgoing(self, to, body):  # type: ignore[no-untyped-def]
        self.sent = getattr(self, "sent", [])
        out = type(self).tamper(self, to, copy.deepcopy(body))
        self.sent.append((to, body))
        return out


def adversary(tamper: Callable[..., list[tuple[int | None, dict[str, Any]]]]) -> type[Tamper]:
    return type("Adversary", (Tamper,), {"tamper": staticmethod(tamper)})
