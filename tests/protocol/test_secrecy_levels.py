"""Programs whose engines keep hidden cards hidden in different ways never share a table
(docs/engine.md, "Secrecy levels": "The deck's game description carries it (``"claims"``), so
programs of different levels never share a table").

The attack is an older (or modified) program at the table: one whose engine issues other deck
operations (no proofs of claims, or no re-encryption before shares add up) would leave a
card readable, or be out of step with every other seat from its first claim. Its game
description differs from the others' in ``claims`` alone, and the key-share step, the deck's
first operation, binds every seat's description: every seat stops there, before a card is
dealt. Would pass no more if the level were left out of the description."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.engine.state import SECRECY
from p2pcards.lobby import GameInfo, deck_spec
from protocol.channel import InMemoryHub
from protocol.deck import DeckPeer
from protocol.errors import Equivocation

from .deck_helpers import TABLE, seed, together

INFO = GameInfo("go-out-girl", 3, {})
KEYS = "ab" * 32  # the roster's keys digest: the same at every seat here


def test_each_secrecy_level_has_its_own_game_description():
    specs = [deck_spec(INFO, KEYS, secrecy=s) for s in range(SECRECY + 1)]
    assert len(set(specs)) == len(specs), specs
    assert deck_spec(INFO, KEYS) == specs[SECRECY]  # what every current program describes


@pytest.mark.parametrize("old", range(SECRECY))
def test_a_seat_of_another_secrecy_level_stops_the_table_at_the_key_step(old):
    async def main() -> list:
        hub = InMemoryHub(3)
        peers = [DeckPeer(hub.channel(s), TABLE,
                          deck_spec(INFO, KEYS, secrecy=old if s == 2 else SECRECY), 6,
                          seed(s, f"secrecy{old}"), 5) for s in range(3)]
        return await together(peers, lambda p: p.shuffle(list(range(6))))

    results = asyncio.run(main())
    for r in results:
        assert isinstance(r, Equivocation) and r.op == 0 and r.step == "key", r
    assert not any(isinstance(r, list) for r in results)


def test_seats_of_one_level_play_on():
    async def main() -> list:
        hub = InMemoryHub(3)
        peers = [DeckPeer(hub.channel(s), TABLE, deck_spec(INFO, KEYS), 6, seed(s, "same"), 5)
                 for s in range(3)]
        return await together(peers, lambda p: p.shuffle(list(range(6))))

    assert not any(isinstance(r, BaseException) for r in asyncio.run(main()))


