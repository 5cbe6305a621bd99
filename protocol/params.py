"""The parameters every peer of a table agrees on, and the wire constants."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TOPIC = "deck"
VERSION = 1


@dataclass(frozen=True)
class DeckParams:
    """What every peer of a table must agree on before the first operation."""

    table_id: bytes
    deck_spec: str
    n_cards: int
    seats: int
    lock_proofs: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"table_id": self.table_id.hex(), "deck_spec": self.deck_spec,
                "n_cards": self.n_cards, "seats": self.seats, "lock_proofs": self.lock_proofs}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> DeckParams:
        return cls(bytes.fromhex(d["table_id"]), d["deck_spec"], int(d["n_cards"]),
                   int(d["seats"]), bool(d.get("lock_proofs", True)))
