"""Test vectors for ``SPEC.md``: fixed seeds, fixed operations, every value and message.

``python -m protocol.vectors`` prints them as JSON; ``protocol/spec_vectors.json`` is that output,
and ``tests/protocol/test_spec_vectors.py`` checks that the code still produces it byte for byte
(and that the values quoted in ``SPEC.md`` are the same).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from . import group as g
from .channel import InMemoryHub
from .deck import DeckPeer
from .kdf import PeerSecrets
from .steps import commitment, dleq_coefficients, dleq_statement, random_value, vec_digest

TABLE_ID = b"p2pcards-spec-table"
DECK_SPEC = "spec-deck/v1"
N_CARDS = 5
SEATS = 2


def vector_seed(seat: int) -> bytes:
    return hashlib.sha256(f"p2pcards spec vector seed {seat}".encode()).digest()


def primitives() -> dict[str, Any]:
    sec = PeerSecrets(vector_seed(0))
    cards = [g.card_point(TABLE_ID, DECK_SPEC, c) for c in range(N_CARDS)]
    nonce = sec.nonce(4)
    d = dleq_statement(b"lock", TABLE_ID, 0, 0, cards[:2], cards[2:4])
    return {
        "table_id": TABLE_ID.hex(),
        "deck_spec": DECK_SPEC,
        "seed_0": vector_seed(0).hex(),
        "seed_1": vector_seed(1).hex(),
        "card_digest_0": g.card_digest(TABLE_ID, DECK_SPEC, 0).hex(),
        "card_points": [p.hex() for p in cards],
        "vec_digest_cards": vec_digest(cards).hex(),
        "prf_shuffle_op0": sec.prf("shuffle", 0).hex(),
        "shuffle_scalar_op0": sec.shuffle_scalar(0).hex(),
        "rekey_scalar_op0": sec.rekey_scalar(0).hex(),
        "blind_scalar_op0": sec.blind_scalar(0).hex(),
        "lock_keys_op0": [sec.lock_key(0, i).hex() for i in range(3)],
        "permutation_op0_m5": sec.permutation(0, 5),
        "permutation_op7_m12": sec.permutation(7, 12),
        "nonce_op4": nonce.hex(),
        "commitment_op4_seat0": commitment(TABLE_ID, 4, 0, nonce).hex(),
        "random_value_op4_n6": random_value(TABLE_ID, 4, 6, [nonce, vector_seed(1)]),
        "dleq_statement_example": d.hex(),
        "dleq_coefficients_example": [c.hex() for c in dleq_coefficients(d, 2)],
        "mul_example": g.mul(sec.shuffle_scalar(0), cards[0]).hex(),
    }


async def _transcript() -> dict[str, Any]:
    hub = InMemoryHub(SEATS)
    peers = [DeckPeer(hub.channel(s), TABLE_ID, DECK_SPEC, N_CARDS, vector_seed(s), timeout=5)
             for s in range(SEATS)]

    async def both(f: Any) -> list[Any]:
        return list(await asyncio.gather(*(f(p) for p in peers)))

    results = {
        "op0 shuffle [0,1,2]": await both(lambda p: p.shuffle([0, 1, 2])),
        "op1 open [0] to [1]": await both(lambda p: p.open([0], [1])),
        "op2 shuffle [0,3]": await both(lambda p: p.shuffle([0, 3])),
        "op3 reorder [1,2] by 1": await both(lambda p: p.reorder([1, 2], 1, [2, 1] if p.seat else None)),
        "op4 random 6": await both(lambda p: p.random(6)),
        "op5 open all": await both(lambda p: p.open_all([0, 1, 2, 3, 4])),
    }
    reports = await both(lambda p: p.audit())
    return {
        "params": peers[0].params.to_json(),
        "results": results,
        "deliveries": [{"from": s, "to": t, "body": b} for s, t, _, b in hub.log],
        "audit": {"verdict": str(reports[0].verdict), "outcomes": reports[0].outcomes},
    }


def vectors() -> dict[str, Any]:
    return {"primitives": primitives(), "transcript": asyncio.run(_transcript())}


if __name__ == "__main__":
    print(json.dumps(vectors(), indent=1))
