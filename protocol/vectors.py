"""Test vectors for ``SPEC.md`` (protocol v2): fixed seeds, fixed operations, every value and message.

``python -m protocol.vectors > protocol/spec_vectors.json`` regenerates them;
``tests/protocol/test_spec_vectors.py`` checks that the code still produces them (and that the
values quoted in ``SPEC.md`` are the same), and that the two-seat transcript audits clean. The
proofs inside the transcript are ``protocol/proofs.py``'s (their own vectors and byte-level
definition: ``protocol/PROOFS.md``).
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
from typing import Any

from . import elgamal as eg
from . import group as g
from .audit import audit
from .channel import InMemoryHub
from .deck import DeckPeer
from .envelope import GENESIS, heads_digest
from .kdf import PeerSecrets
from .params import DeckParams
from .steps import (
    commitment,
    context,
    key_digest,
    op_digest,
    random_value,
    record_digest,
    vec_digest,
)

TABLE_ID = bytes.fromhex("00112233445566778899aabbccddeeff")  # 16 bytes, as a real table id
DECK_SPEC = '{"game":"spec-deck","options":{},"players":2,"protocol":3}'  # as lobby.deck_spec
N_CARDS = 5
SEATS = 2


def vector_seed(seat: int) -> bytes:
    return hashlib.sha256(f"p2pcards spec vector seed {seat}".encode()).digest()


def primitives() -> dict[str, Any]:
    p = DeckParams(TABLE_ID, DECK_SPEC, N_CARDS, SEATS)
    sec = [PeerSecrets(vector_seed(s)) for s in range(SEATS)]
    xs = [s.key(TABLE_ID, p.digest) for s in sec]
    ys = [g.base_mul(x) for x in xs]
    y = g.add(ys[0], ys[1])
    cards = [g.card_point(TABLE_ID, DECK_SPEC, c) for c in range(N_CARDS)]
    deck = [eg.public_encrypt(m, y) for m in cards]
    inp = vec_digest(deck)
    nonce = sec[0].seed32("nonce", 4, op_digest({"kind": "random", "n": 6}))
    return {
        "table_id": TABLE_ID.hex(),
        "deck_spec": DECK_SPEC,
        "desc_digest": p.digest.hex(),
        "seed_0": vector_seed(0).hex(),
        "seed_1": vector_seed(1).hex(),
        "key_share_x_0": xs[0].hex(),
        "key_share_x_1": xs[1].hex(),
        "public_share_y_0": ys[0].hex(),
        "public_share_y_1": ys[1].hex(),
        "joint_key_y": y.hex(),
        "key_digest_y": key_digest(y).hex(),
        "card_digest_0": g.card_digest(TABLE_ID, DECK_SPEC, 0).hex(),
        "card_points": [c.hex() for c in cards],
        "initial_deck": [[a.hex(), b.hex()] for a, b in deck],
        "vec_digest_initial_deck": inp.hex(),
        "context_op1_shuffle_seat0": context(p, 1, "shuffle", 0, inp).hex(),
        "context_op0_key_seat1": context(p, 0, "key", 1, p.digest).hex(),
        "prf_reenc_op1_seat0": sec[0].prf("reenc", 1, 0, inp).hex(),
        "permutation_op1_seat0_m5": sec[0].permutation("perm", 1, inp, 5),
        "mix_permutation_op1_seat0_m5": sec[0].permutation("mix", 1, inp, 5),
        "rho_op1_seat0_to1_pos0": sec[0].rho(1, inp, 1, 0).hex(),
        "op_digest_random6": op_digest({"kind": "random", "n": 6}).hex(),
        "nonce_op4_seat0_random6": nonce.hex(),
        "commitment_op4_seat0": commitment(p, 4, 0, nonce).hex(),
        "random_value_op4_n6": random_value(p, 4, 6, [nonce, vector_seed(1)]),
        "record_digest_empty": record_digest([]).hex(),
        # an envelope's ``heads`` digest (mesh version 6; docs/network.md "Envelopes"): seat 0's
        # chain at seq 0, seat 1's at an envelope whose hash is ``desc_digest`` (a stand-in)
        "heads_digest_genesis_desc": heads_digest([GENESIS, p.digest.hex()]),
    }


async def _transcript() -> dict[str, Any]:
    hub = InMemoryHub(SEATS)
    peers = [DeckPeer(hub.channel(s), TABLE_ID, DECK_SPEC, N_CARDS, vector_seed(s), timeout=30)
             for s in range(SEATS)]

    async def both(f: Any) -> list[Any]:
        return list(await asyncio.gather(*(f(p) for p in peers)))

    results = {
        "op0 key shares": await both(lambda p: p.start()),
        "op1 shuffle [0,1,2,3,4]": await both(lambda p: p.shuffle([0, 1, 2, 3, 4])),
        "op2 open [0,1] to [1]": await both(lambda p: p.open([0, 1], [1])),
        "op3 shuffle [0,3]": await both(lambda p: p.shuffle([0, 3])),
        "op4 reorder [1,2] by 1, mix": await both(lambda p: p.reorder([1, 2], 1, mix=True)),
        "op5 random 6": await both(lambda p: p.random(6)),
    }
    # a claim by seat 1 about the slot it alone knows (its hand-mixed card): it is one of two
    slot = next(s for s in range(N_CARDS) if peers[1].known(s) is not None
                and peers[0].known(s) is None)
    held = peers[1].known(slot)
    assert held is not None
    allowed = sorted({held, (held + 1) % N_CARDS})
    results[f"op6 prove [{slot}] by 1 in {allowed}"] = await both(
        lambda p: p.prove([slot], 1, allowed))
    results["op7 open all [2,4]"] = await both(lambda p: p.open_all([2, 4]))
    results["op8 end"] = [d.hex() for d in await both(lambda p: p.finish())]
    record = peers[0].record()
    report = audit(record["params"], record["messages"])
    return {
        "params": record["params"],
        "results": results,
        "messages": record["messages"],
        "audit": {"verdict": str(report.verdict), "outcomes": report.outcomes},
    }


#: One value changed in one of seat 1's messages of the transcript above (message index, path,
#: new value): each is JSON that Python's ``==`` takes for the original (``true`` for ``1``,
#: ``6.0`` for ``6``), and each must be refused as malformed, naming seat 1 (SPEC.md 1, 5.1).
REJECTED: list[tuple[int, list[Any], Any]] = [
    (1, ["v"], 3.0), (3, ["op"], True), (3, ["seat"], True), (3, ["slots", 1], True),
    (8, ["by"], True), (10, ["n"], 6.0), (15, ["in", 0], 2.0),
]


def _rejected(t: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for i, path, value in REJECTED:
        messages = copy.deepcopy(t["messages"])
        node = messages[i][1]
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
        v = audit(t["params"], [tuple(m) for m in messages]).verdict
        out.append({"message": i, "path": path, "value": value, "culprit": v.culprit,
                    "op": v.op, "step": v.step})
    return out


def vectors() -> dict[str, Any]:
    t = asyncio.run(_transcript())
    return {"primitives": primitives(), "transcript": t, "rejected": _rejected(t)}


if __name__ == "__main__":
    print(json.dumps(vectors(), indent=1))
