"""The parameters every peer of a table agrees on, and the wire constants (SPEC.md "Parameters")."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any

TOPIC = "deck"
VERSION = 3
#: Largest deck, seat count and message list the receivers accept (bounds every parse).
MAX_CARDS = 4096
MAX_SEATS = 16


def desc_digest(deck_spec: str) -> bytes:
    """``SHA-256(b"p2pcards/v2/desc" || utf8(D))``: the digest of the game description ``D``
    (game, options, player count, protocol version) that every proof's context binds."""
    return hashlib.sha256(b"p2pcards/v2/desc" + deck_spec.encode()).digest()


@dataclass(frozen=True)
class DeckParams:
    """What every peer of a table must agree on before the first operation."""

    table_id: bytes
    deck_spec: str
    n_cards: int
    seats: int

    def __post_init__(self) -> None:
        if not 1 <= self.n_cards <= MAX_CARDS:
            raise ValueError(f"a deck holds 1 to {MAX_CARDS} cards, not {self.n_cards}")
        if not 2 <= self.seats <= MAX_SEATS:
            raise ValueError(f"a deck needs 2 to {MAX_SEATS} seats, not {self.seats}")

    @cached_property
    def digest(self) -> bytes:  # every proof context binds it: computed once per table
        return desc_digest(self.deck_spec)

    def to_json(self) -> dict[str, Any]:
        return {"v": VERSION, "table_id": self.table_id.hex(), "deck_spec": self.deck_spec,
                "n_cards": self.n_cards, "seats": self.seats}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> DeckParams:
        return cls(bytes.fromhex(d["table_id"]), d["deck_spec"], int(d["n_cards"]), int(d["seats"]))
