"""The membership proof of deck v2 (a claim about a hidden card, SPEC.md 5.7): a disjunctive
Chaum–Pedersen proof (Cramer–Damgård–Schoenmakers OR-composition) that for some ``v``,
``log_G(Y_j) = log_a(D − C_v)``, hiding which ``v``. See ``protocol/PROOFS.md`` section 8.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import group as g
from .group import L, Point, Scalar
from .proof_common import (
    MAX_ITEMS,
    Malformed,
    check_keys,
    digest,
    enc_points,
    get_list,
    get_scalar,
    nonces,
    sc_hex,
    scalar_arg,
    stmt_context,
    stmt_point,
    stmt_points,
)

MEMBER_DOMAIN = b"p2pcards/v2/member"


def _statement(y: bytes, index: int, a: bytes, d: bytes, cards: Sequence[bytes], context: bytes
               ) -> bytes:
    return digest(MEMBER_DOMAIN, context, g.u32(index), y, a, d, enc_points(cards))


def _index(index: Any) -> int:
    if type(index) is not int or not 0 <= index < 2**32:
        raise Malformed("statement: the position is not a u32")
    return index


def _branches(d: bytes, cards: Sequence[bytes]) -> list[bytes]:
    """``P_v = D − C_v``; a degenerate statement (``D = C_v``) is refused."""
    out = []
    for v, c in enumerate(cards):
        p = g.sub(d, c)
        if p == g.IDENTITY:
            raise Malformed(f"statement: degenerate (D is card point {v})")
        out.append(p)
    return out


def prove_member(x: Scalar, index: int, a: Point, d: Point, cards: Sequence[Point], t: int,
                 context: bytes, nonce_seed: bytes) -> dict:
    """Proof that ``D − cards[v] = x·a`` for some ``v`` with ``Y = x·G`` (the witness is
    ``v = t``), bound to ``context`` and the position ``index``; reveals nothing about ``t``.
    ``ValueError`` when the witness does not hold (an honest prover never proves a false claim)."""
    xi = scalar_arg(x, "prove_member")
    k = len(cards)
    if not 0 < k <= MAX_ITEMS or not 0 <= t < k:
        raise ValueError("prove_member: t must index a non-empty list of cards")
    try:
        branches = _branches(d, cards)
    except Malformed as exc:
        raise ValueError(f"prove_member: {exc}") from None
    if g.mul_int(xi, a) != branches[t]:
        raise ValueError("prove_member: D − cards[t] is not x·a (the claim is false)")
    y = g.base_mul_int(xi)
    st = _statement(y, _index(index), a, d, cards, context)
    nxt = nonces(MEMBER_DOMAIN, nonce_seed, g.sc(xi) + g.u32(t), st)
    cs, zs = [0] * k, [0] * k
    for v in range(k):  # drawn for every branch, so the stream does not depend on t
        cs[v], zs[v] = nxt(), nxt()
    w = nxt()
    ts: list[bytes] = []
    for v in range(k):
        if v == t:
            ts += [g.base_mul_int(w), g.mul_int(w, a)]
        else:
            ts += [g.sub(g.base_mul_int(zs[v]), g.mul_int(cs[v], y)),
                   g.msm_int([zs[v], -cs[v]], [a, branches[v]])]
    c = g.hash_to_int(MEMBER_DOMAIN, st, *ts)
    cs[t] = (c - sum(cs[v] for v in range(k) if v != t)) % L
    zs[t] = (w + cs[t] * xi) % L
    if cs[t] == 0 or zs[t] == 0:  # pragma: no cover - probability 2/L
        raise ValueError("prove_member: a zero scalar (probability 2/L)")
    return {"c": [sc_hex(v) for v in cs], "z": [sc_hex(v) for v in zs]}


def verify_member(y_j: Point, index: int, a: Point, d: Point, cards: Sequence[Point], proof: Any,
                  context: bytes) -> str | None:
    """``None`` when ``proof`` shows ``D − cards[v] = x·a`` for some ``v`` with ``y_j = x·G``,
    else a one-line reason. Never raises."""
    try:
        context = stmt_context(context)
        y = stmt_point(y_j, "the public key")
        a = stmt_point(a, "the ciphertext")
        d = stmt_point(d, "the hidden card")
        cs_ = stmt_points(cards, "card")
        index = _index(index)
        k = len(cs_)
        if k == 0:
            raise Malformed("statement: no card to choose from")
        p = check_keys(proof, ("c", "z"))
        get_list(p, "c", k), get_list(p, "z", k)  # both lists, exactly k long, before any item
        cs = [get_scalar(p, "c", v) for v in range(k)]
        zs = [get_scalar(p, "z", v) for v in range(k)]
        branches = _branches(d, cs_)
        st = _statement(y, index, a, d, cs_, context)
        ts: list[bytes] = []
        for v in range(k):
            try:
                t1 = g.sub(g.base_mul_int(zs[v]), g.mul_int(cs[v], y))
            except g.InvalidPoint:
                return "member proof: the public key is not a valid point"
            try:
                t2 = g.msm_int([zs[v], -cs[v]], [a, branches[v]])
            except g.InvalidPoint:
                return "member proof: the ciphertext or a card is not a valid point"
            ts += [t1, t2]
        if g.hash_to_int(MEMBER_DOMAIN, st, *ts) != sum(cs) % L:
            return "member proof: challenge mismatch"
        return None
    except Malformed as exc:
        return f"member proof: {exc}"
    except Exception as exc:  # the promise: a verifier never raises
        return f"member proof: malformed input ({type(exc).__name__})"


__all__ = ["MEMBER_DOMAIN", "prove_member", "verify_member"]
