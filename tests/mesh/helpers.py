"""Shared helpers for the mesh tests: every socket is on 127.0.0.1 with an ephemeral port."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from protocol.channel import TableStop
from protocol.identity import Identity
from protocol.mesh import Mesh, Timings

LOOPBACK = "127.0.0.1"
NAMES = ["alice", "bob", "carol", "dave", "erin"]


def run_async(
    timeout: float = 30.0,
) -> Callable[[Callable[..., Awaitable[Any]]], Callable[..., Any]]:
    """Run an ``async def`` test in a fresh event loop, failing after ``timeout`` seconds."""

    def deco(fn: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return asyncio.run(asyncio.wait_for(fn(*args, **kwargs), timeout))

        return wrapper

    return deco


def identity(tmp: Path, i: int) -> Identity:
    return Identity.load_or_create(tmp / f"home{i}")


async def make_table(tmp: Path, n: int, **host_kw: Any) -> list[Mesh]:
    """Host plus ``n - 1`` joiners, all full and linked."""
    t = Timings.fast()
    host = await Mesh.host(identity(tmp, 0), n, bind=LOOPBACK, timings=t, name=NAMES[0], **host_kw)
    meshes = [host]
    for i in range(1, n):
        meshes.append(
            await Mesh.join(
                identity(tmp, i), host.address, host.code, NAMES[i], bind=LOOPBACK, timings=t
            )
        )
    await asyncio.gather(*(m.wait_full(10) for m in meshes))
    return meshes


def raw_dealer(ctx: Any, mesh: Mesh, curve: bool = True) -> Any:
    """A bare DEALER to ``mesh``'s ROUTER, as an attacker who knows the table code (and so the
    transport key) but holds no seat would open; ``curve=False``: one who does not know it."""
    import zmq

    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    if curve and mesh.curve is not None:
        from protocol.mesh.common import Curve

        Curve.from_secret(mesh._transport_secret).dial(sock)
    sock.connect(mesh.address)
    return sock


async def close_all(meshes: list[Mesh]) -> None:
    await asyncio.gather(*(m.close() for m in meshes))


def digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


async def play(
    ch: Any, rounds: int, on_round: Callable[[int], Awaitable[None]] | None = None
) -> dict[str, Any]:
    """A small deterministic protocol standing in for the deck service: every round each seat
    broadcasts a value derived from everything it has seen and sends a private value to the
    next seat. Returns the common digest (same at every seat) and this seat's private state.

    Delivery is in order per sender, not across senders: a peer may already be a round ahead,
    so what arrives early is kept for its round."""
    me, n = ch.seat, ch.seats
    state = digest("seed", me)
    common = digest("common")
    early: dict[tuple[str, int, int], Any] = {}

    async def take(topic: str, sender_ok: Callable[[int], bool], r: int) -> dict[int, Any]:
        got = {s: early.pop((topic, s, r)) for s in range(n) if (topic, s, r) in early}
        while len(got) < sum(1 for s in range(n) if sender_ok(s)):
            sender, body = await ch.recv(topic, 20)
            assert sender_ok(sender), (me, topic, sender, body)
            if body["r"] == r:
                assert sender not in got, (me, topic, sender, body)
                got[sender] = body
            else:
                assert body["r"] > r and (topic, sender, body["r"]) not in early, (
                    me,
                    topic,
                    sender,
                    body,
                    r,
                )
                early[(topic, sender, body["r"])] = body
        return got

    for r in range(rounds):
        mine = digest(state, r)
        await ch.broadcast("round", {"r": r, "v": mine})
        await ch.send((me + 1) % n, "secret", {"r": r, "x": digest(state, "x", r)})
        got = {s: b["v"] for s, b in (await take("round", lambda s: s != me, r)).items()}
        got[me] = mine
        sec = (await take("secret", lambda s: s == (me - 1) % n, r))[(me - 1) % n]
        common = digest(common, [got[s] for s in range(n)])
        state = digest(state, common, sec["x"])
        if on_round is not None:
            await on_round(r)
    return {"common": common, "state": state}


async def until(cond: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    """Poll ``cond`` until it holds (fails the test after ``timeout``)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


class AwayInSpells:
    """A stand-in mesh for the absence watcher (``absence._watch_absence``): seat 1 is away in the
    given spells (seconds from the start, ``(begin, end)``); ``tick()`` brings it up to date."""
    seats, seat, stopped = 3, 0, None

    def __init__(self, spells: list[tuple[float, float]]) -> None:
        self.spells, self.t0 = spells, time.monotonic()
        self.away: set[int] = set()
        self.away_since: dict[int, float] = {}
        self.left: set[int] = set()

    def name_of(self, s: int) -> str:
        return NAMES[s]

    def seat_text(self, s: int) -> str:
        return f"seat {s + 1}, FAKE-{s + 1}"

    def unreached(self) -> set[int]:
        return set()

    def unheard_since(self) -> None:
        return None

    def stop(self, culprit: int | None, reason: str) -> None:
        self.stopped = TableStop(culprit, reason)

    def tick(self) -> None:
        t = time.monotonic() - self.t0
        gone = any(a <= t < b for a, b in self.spells)
        if gone and 1 not in self.away:
            self.away, self.away_since = {1}, {1: time.monotonic()}
        elif not gone and 1 in self.away:
            self.away, self.away_since = set(), {}


def short_claim_window(monkeypatch: Any, seconds: float = 0.5) -> None:
    """The window after another peer's unproven claim (``CLAIM_WINDOW``, 3 s), shortened where
    the mesh and the lobby read it, for a test that only waits it out (nothing is to arrive in
    it)."""
    import p2pcards.lobby as lobby
    import protocol.mesh.channel as mesh_channel
    import protocol.mesh.transport as transport

    for module in (mesh_channel, transport, lobby):
        monkeypatch.setattr(module, "CLAIM_WINDOW", seconds)
