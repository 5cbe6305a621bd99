"""Known-answer vectors of deck v2's proofs: tests/protocol/proof_vectors.json.

The file is what :func:`build_vectors` computes from fixed inputs; the test recomputes it, so any
change to an encoding, a hash input or a nonce derivation shows up here (and must then be made on
purpose, with ``python -m tests.protocol.test_proofs_vectors --write``). A compatible implementation
checks itself against the file: every proof in it verifies, and its own prover must produce the
same bytes from the same inputs.
"""

from __future__ import annotations

import json
import pathlib
import sys

from protocol import elgamal as eg
from protocol import group as g
from protocol import proofs as P

PATH = pathlib.Path(__file__).with_name("proof_vectors.json")


def _h(b: bytes) -> str:
    return b.hex()


def build_vectors() -> dict:
    xs = [g.hash_to_scalar(b"p2pcards/v2/vectors/key", g.u32(j)) for j in range(3)]
    ys = [g.base_mul(x) for x in xs]
    y = g.sum_points(ys)
    table_id, deck = b"vector-table", "vectors/v2"
    cards = [g.card_point(table_id, deck, c) for c in range(4)]
    deck0 = [eg.public_encrypt(m, y) for m in cards]
    perm = [2, 0, 3, 1]
    ctx = b"p2pcards/v2/vectors/context"
    out, rands = eg.shuffle(y, deck0, perm, b"shuffle seed")
    shuffle_proof = P.prove_shuffle(y, deck0, out, perm, rands, ctx, b"nonce seed")
    shares = [[eg.share(x, ct) for ct in out] for x in xs]
    rhos = [g.hash_to_scalar(b"p2pcards/v2/vectors/rho", g.u32(i)) for i in range(2)]
    encs = [P.encrypt_share(xs[0], out[i], ys[2], rhos[i]) for i in range(2)]
    nxt = g.nonce_stream(b"seed", b"label")
    # a claim by seat 0 that output 0 (card perm[0] = 2) is one of cards 1, 2, 3 (PROOFS.md 8)
    hidden = g.sub(g.sub(out[0][1], shares[1][0]), shares[2][0])
    member = P.prove_member(xs[0], 0, out[0][0], hidden, cards[1:4], 1, ctx, b"nonce seed")
    return {
        "about": "p2pcards deck v2 proof vectors; see protocol/PROOFS.md. Scalars are 32-byte "
                 "little-endian, points 32-byte ristretto255 encodings, all in lowercase hex.",
        "group": {
            "G": _h(g.G),
            "hash_to_scalar": {"domain": _h(b"d"), "parts": [_h(b"ab"), _h(b"c")],
                               "scalar": _h(g.hash_to_scalar(b"d", b"ab", b"c"))},
            "generators": {"label": _h(b"p2pcards/v2/shuffle"),
                           "points": [_h(p) for p in g.generators(b"p2pcards/v2/shuffle", 5)]},
            "nonce_stream": {"seed": _h(b"seed"), "label": _h(b"label"), "scalars": [_h(nxt()), _h(nxt())]},
        },
        "keys": {"x": [_h(x) for x in xs], "Y_j": [_h(p) for p in ys], "Y": _h(y),
                 "key_proofs": [P.prove_key(x, ctx, b"nonce seed") for x in xs]},
        "context": _h(ctx),
        "cards": {"table_id": _h(table_id), "deck": deck, "points": [_h(m) for m in cards]},
        "initial_deck": [P.ct_to_json(ct) for ct in deck0],
        "shuffle": {"seed": _h(b"shuffle seed"), "perm": perm, "rands": [_h(r) for r in rands],
                    "outputs": [P.ct_to_json(ct) for ct in out], "nonce_seed": _h(b"nonce seed"),
                    "proof": shuffle_proof},
        "shares": {"shares": [[_h(d) for d in row] for row in shares],
                   "proofs": [P.prove_shares(x, out, ctx, b"nonce seed") for x in xs],
                   "decoded": [_h(eg.decode(out[i], [row[i] for row in shares])) for i in range(4)]},
        "encrypted_shares": {"from": 0, "to": 2, "cards": [0, 1], "rhos": [_h(r) for r in rhos],
                             "encs": [P.ct_to_json(e) for e in encs],
                             "proof": P.prove_encrypted_shares(xs[0], out[:2], ys[2], encs, rhos, ctx,
                                                               b"nonce seed")},
        "member": {"by": 0, "index": 0, "cards": [1, 2, 3], "t": 1, "D": _h(hidden),
                   "proof": member},
    }


def test_vectors_file_matches_the_implementation() -> None:
    assert json.loads(PATH.read_text()) == build_vectors()


def test_every_proof_in_the_vectors_verifies_from_the_file_alone() -> None:
    v = json.loads(PATH.read_text())
    ctx = bytes.fromhex(v["context"])
    ys = [P.point_from_hex(p) for p in v["keys"]["Y_j"]]
    y = P.point_from_hex(v["keys"]["Y"])
    for yj, proof in zip(ys, v["keys"]["key_proofs"], strict=True):
        assert P.verify_key(yj, proof, ctx) is None
    deck0 = [P.ct_from_json(c) for c in v["initial_deck"]]
    out = [P.ct_from_json(c) for c in v["shuffle"]["outputs"]]
    assert P.verify_shuffle(y, deck0, out, v["shuffle"]["proof"], ctx) is None
    for j, yj in enumerate(ys):
        shares = [P.point_from_hex(d) for d in v["shares"]["shares"][j]]
        assert P.verify_shares(yj, out, shares, v["shares"]["proofs"][j], ctx) is None
    points = v["cards"]["points"]
    encs = [P.ct_from_json(e) for e in v["encrypted_shares"]["encs"]]
    assert P.verify_encrypted_shares(ys[0], out[:2], ys[2], encs, v["encrypted_shares"]["proof"], ctx) is None
    m = v["member"]
    assert P.verify_member(ys[0], m["index"], out[0][0], bytes.fromhex(m["D"]),
                           [bytes.fromhex(points[c]) for c in m["cards"]], m["proof"], ctx) is None
    # the decoded cards are the permuted card points
    assert v["shares"]["decoded"] == [points[j] for j in v["shuffle"]["perm"]]


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--write"]:
        PATH.write_text(json.dumps(build_vectors(), indent=1) + "\n")
        print(f"wrote {PATH}")
    else:
        print(json.dumps(build_vectors(), indent=1))
