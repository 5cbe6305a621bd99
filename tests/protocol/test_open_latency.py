"""The in-process hub (one serialisation per send, a private copy per recipient) and the order in
which a seat checks the shares of an opening (as they arrive, not in seat order): the changes
that cut one opening's overhead (``scripts/bench_deck.py --budget``) keep what they stand for."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from protocol import channel as chmod
from protocol.channel import InMemoryHub
from protocol.errors import CheatDetected, DeckTimeout
from protocol.group import G, mul, scalar_from_int

from .deck_helpers import adversary, make_table, ok, together


def test_a_broadcast_is_serialised_once_and_each_recipient_gets_its_own_copy(monkeypatch) -> None:
    encoded: list[Any] = []
    real = chmod._ENCODE
    monkeypatch.setattr(chmod, "_ENCODE", lambda b: encoded.append(b) or real(b))
    hub = InMemoryHub(4)
    body = {"a": [1, (2, 3)], "b": {"c": "d"}}

    async def main() -> list[Any]:
        await hub.channel(0).broadcast("t", body)
        return [await hub.channel(s).recv("t", timeout=1) for s in (1, 2, 3)]

    got = asyncio.run(main())
    assert len(encoded) == 1  # one send, one serialisation (not one per recipient)
    assert [s for s, _ in got] == [0, 0, 0]
    assert all(b == {"a": [1, [2, 3]], "b": {"c": "d"}} for _, b in got)  # as JSON carries it
    got[0][1]["b"]["c"] = "changed"  # a recipient that changes its copy changes nobody else's
    assert got[1][1]["b"]["c"] == "d" and body["b"]["c"] == "d"


def test_a_body_json_cannot_carry_is_still_copied_and_a_watching_subclass_sees_each_send() -> None:
    seen: list[list[int]] = []

    class Watching(InMemoryHub):
        def deliver(self, sender: int, tos: list[int], topic: str, body: Any) -> None:
            seen.append(list(tos))
            super().deliver(sender, tos, topic, body)

    for hub in (InMemoryHub(3), Watching(3)):
        body = {"raw": b"\x00\x01", "n": {1: 2}}

        async def main(hub: InMemoryHub = hub, body: Any = body) -> Any:
            await hub.channel(0).broadcast("t", body)
            return (await hub.channel(2).recv("t", timeout=1))[1]

        got = asyncio.run(main())
        assert got == body and got is not body and got["n"] is not body["n"]
    assert seen == [[1, 2]]  # one broadcast: one send, to every other seat


def test_recv_waits_for_a_late_message_and_times_out_on_none() -> None:
    hub = InMemoryHub(2)

    async def main() -> tuple[int, Any]:
        async def later() -> None:
            await asyncio.sleep(0.05)
            await hub.channel(0).send(1, "t", {"x": 1})
        task = asyncio.create_task(later())
        got = await hub.channel(1).recv("t", timeout=5)
        await task
        with pytest.raises(TimeoutError):
            await hub.channel(1).recv("t", timeout=0.05)
        return got

    assert asyncio.run(main()) == (0, {"x": 1})


def _withhold_shares(peer: Any, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
    return [] if body["step"] == "shares" else [(None, body)]


def _wrong_share(peer: Any, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
    if body["step"] == "shares" and body["shares"] is not None:
        body["shares"][0] = mul(scalar_from_int(7), G).hex()
    return [(None, body)]


def test_a_seat_checks_the_shares_that_came_while_it_waits_for_a_withheld_one() -> None:
    """Seat 0 withholds its share of an opening to seat 1, seat 2 sends a wrong one. Seats 1 and 3
    check seat 2's share as it comes instead of first waiting out seat 0 (which checking in seat
    order did): they name seat 2 at once, well within the timeout, and no honest seat is
    blamed."""
    timeout = 3.0
    _, peers = make_table(4, 6, timeout=timeout,
                          classes={0: adversary(_withhold_shares), 2: adversary(_wrong_share)})

    async def main() -> list[Any]:
        await ok(peers, lambda p: p.shuffle(range(6)))
        return await together(peers, lambda p: p.open([4], [1]))

    out = asyncio.run(main())
    for e in (out[1], out[3]):  # the wrong share is named, not the withheld one's timeout
        assert isinstance(e, CheatDetected) and not isinstance(e, DeckTimeout), repr(e)
        assert (e.peer, e.step) == (2, "shares"), repr(e)


def test_a_withheld_share_alone_still_names_its_seat_after_the_timeout() -> None:
    _, peers = make_table(3, 4, timeout=0.5, classes={2: adversary(_withhold_shares)})

    async def main() -> list[Any]:
        await ok(peers, lambda p: p.shuffle(range(4)))
        return await together(peers[:2], lambda p: p.open([1], [0]))

    for e in asyncio.run(main()):
        assert isinstance(e, DeckTimeout) and (e.peer, e.step) == (2, "shares"), repr(e)
