"""The pure computations of each protocol step, shared by the live peers and the audit.

A peer's message at every step is a deterministic function of its seed (through ``kdf``), the
operation and the public inputs; the audit re-runs these same functions with the revealed seeds and
compares byte for byte. See ``SPEC.md`` for the wire format built from them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from .group import (
    DOMAIN,
    ONE,
    InvalidPoint,
    Point,
    Scalar,
    add,
    lp,
    mul,
    mul_all,
    mul_each,
    scalar_inv,
    scalar_mul,
    scalar_product,
    scalar_reduce64,
    scalar_sub,
    u32,
    u64,
)
from .kdf import PeerSecrets

# ---- operation descriptors -------------------------------------------------------------------------
#: The fields that describe an operation, by kind; every message of the operation repeats them.
DESC_FIELDS: dict[str, tuple[str, ...]] = {
    "shuffle": ("slots", "by"),
    "open": ("slots", "to"),
    "random": ("n",),
    "audit": (),
}


def descriptor(kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, **{k: fields[k] for k in DESC_FIELDS[kind]}}


def descriptor_of(body: dict[str, Any]) -> dict[str, Any] | None:
    kind = body.get("kind")
    if kind not in DESC_FIELDS:
        return None
    if any(k not in body for k in DESC_FIELDS[kind]):
        return None
    return {"kind": kind, **{k: body[k] for k in DESC_FIELDS[kind]}}


def vec_digest(points: Sequence[Point]) -> bytes:
    """``SHA-256(b"p2pcards/v1/vec" || u32be(len) || p_0 || ... )``: names the vector a step
    consumed (the ``prev`` field), so a sender that equivocates is noticed at once."""
    h = hashlib.sha256(DOMAIN + b"/vec" + u32(len(points)))
    for p in points:
        h.update(p)
    return h.digest()


# ---- shuffle operation -------------------------------------------------------------------------------
def rekey_points(sec: PeerSecrets, op: int, cur: Sequence[Point], old_keys: Sequence[Scalar | None]
                 ) -> list[Point]:
    """Rekey step of seats 1..n-1: position ``i`` times ``r * k_i^-1`` (``r`` alone for a plain
    slot): the per-slot key is replaced by a layer common to every slot, in place."""
    r = sec.rekey_scalar(op)
    ks = [r if k is None else scalar_mul(r, scalar_inv(k)) for k in old_keys]
    return mul_each(ks, cur)


def shuffle_points(sec: PeerSecrets, op: int, cur: Sequence[Point], perm: Sequence[int],
                   strip_keys: Sequence[Scalar | None] | None = None) -> list[Point]:
    """Shuffle step: output ``i`` is ``s * cur[perm[i]]``; seat 0 also strips its own per-slot key
    of the input position (``strip_keys``) in the same multiplication."""
    s = sec.shuffle_scalar(op)
    src = [cur[p] for p in perm]
    if strip_keys is None or all(k is None for k in strip_keys):
        return mul_all(s, src)
    ks = [s if strip_keys[p] is None else scalar_mul(s, scalar_inv(strip_keys[p])) for p in perm]
    return mul_each(ks, src)


def common_layer(sec: PeerSecrets, op: int, seat: int, rekeyed: bool) -> Scalar:
    """The layer a seat holds on every slot before its lock step: ``s`` (``s * r`` when it
    rekeyed, i.e. seats >= 1 of an operation with locked slots)."""
    s = sec.shuffle_scalar(op)
    return scalar_mul(s, sec.rekey_scalar(op)) if rekeyed and seat > 0 else s


def lock_points(sec: PeerSecrets, op: int, seat: int, x: Sequence[Point], rekeyed: bool,
                table_id: bytes, proofs: bool) -> tuple[list[Point], list[Point], list[Scalar] | None]:
    """Lock step: ``locked_i = k_i * x_i`` then ``out_i = c^-1 * locked_i`` (``c`` the common
    layer). Locking *before* stripping means every published point still carries a layer of
    every seat. Returns ``(locked, out, proof)``."""
    ks = [sec.lock_key(op, i) for i in range(len(x))]
    locked = mul_each(ks, x)
    t = scalar_inv(common_layer(sec, op, seat, rekeyed))
    out = mul_all(t, locked)
    proof = None
    if proofs and locked:
        d = dleq_statement(table_id, op, seat, locked, out)
        proof = list(dleq_prove(t, locked, out, sec.dleq_nonce(op, d), d))
    return locked, out, proof


# ---- batched Chaum-Pedersen proof that out_i = t * locked_i for one t ---------------------------------
def dleq_statement(table_id: bytes, op: int, seat: int, ys: Sequence[Point], zs: Sequence[Point]
                   ) -> bytes:
    h = hashlib.sha512(DOMAIN + b"/dleq" + lp(table_id) + u64(op) + u32(seat) + u32(len(ys)))
    for p in ys:
        h.update(p)
    for p in zs:
        h.update(p)
    return h.digest()


def dleq_coefficients(d: bytes, m: int) -> list[Scalar]:
    out = []
    for i in range(m):
        try:
            out.append(scalar_reduce64(hashlib.sha512(d + b"coef" + u32(i)).digest()))
        except ValueError:  # pragma: no cover - zero, probability 2^-252
            out.append(ONE)
    return out


def combine(cs: Sequence[Scalar], ps: Sequence[Point]) -> Point:
    """``sum c_i * p_i`` (raises ``InvalidPoint`` with the index of an invalid point)."""
    terms = mul_each(cs, ps)
    acc = terms[0]
    for t in terms[1:]:
        acc = add(acc, t)
    return acc


def _challenge(d: bytes, a: Point, b: Point, a1: Point, a2: Point) -> Scalar:
    return scalar_reduce64(hashlib.sha512(d + b"chal" + a + b + a1 + a2).digest())


def dleq_prove(t: Scalar, ys: Sequence[Point], zs: Sequence[Point], w: Scalar, d: bytes
               ) -> tuple[Scalar, Scalar]:
    a = combine(dleq_coefficients(d, len(ys)), ys)
    b = mul(t, a)
    a1, a2 = mul(w, ys[0]), mul(w, a)
    e = _challenge(d, a, b, a1, a2)
    z = scalar_sub(w, scalar_mul(e, t))
    return e, z


def dleq_verify(ys: Sequence[Point], zs: Sequence[Point], proof: Sequence[Scalar], d: bytes) -> bool:
    """True when the proof shows one ``t`` with ``zs[i] = t * ys[i]`` for every ``i``. Raises
    ``InvalidPoint`` (index into ``ys`` then ``zs``) when a point is invalid."""
    e, z = proof
    cs = dleq_coefficients(d, len(ys))
    a = combine(cs, ys)
    try:
        b = combine(cs, zs)
    except InvalidPoint as exc:
        raise InvalidPoint("not a valid element of the prime-order subgroup",
                           None if exc.index is None else len(ys) + exc.index) from exc
    try:
        a1 = add(mul(z, ys[0]), mul(e, zs[0]))
        a2 = add(mul(z, a), mul(e, b))
    except InvalidPoint:  # z or e zero: never for an honest proof (probability 2^-252)
        return False
    return _challenge(d, a, b, a1, a2) == e


# ---- opening -----------------------------------------------------------------------------------------
def key_matches(k: Scalar, before: Point, after: Point) -> bool:
    """The per-slot key check: ``k * before == after`` (``before``/``after`` from the lock pass)."""
    return mul(k, before) == after


def decode(ct: Point, keys: Sequence[Scalar], index: dict[Point, int]) -> int | None:
    """The card under ``ct`` once every layer in ``keys`` is stripped, or ``None``."""
    if not keys:
        return index.get(ct)
    return index.get(mul(scalar_inv(scalar_product(keys)), ct))


# ---- joint randomness --------------------------------------------------------------------------------
def commitment(table_id: bytes, op: int, seat: int, nonce: bytes) -> bytes:
    return hashlib.sha256(DOMAIN + b"/commit" + lp(table_id) + u64(op) + u32(seat) + nonce).digest()


def random_value(table_id: bytes, op: int, n: int, nonces: Sequence[bytes]) -> int:
    """The joint value in ``[0, n)``: ``d = SHA-256(b"p2pcards/v1/random" || lp(T) || u64be(op) ||
    u64be(n) || nonce_0 || ... || nonce_{k-1})``; for ``ctr = 0, 1, ...`` take
    ``x = SHA-256(d || u32be(ctr))`` as a big-endian integer and return ``x mod n`` for the first
    ``x < 2^256 - (2^256 mod n)`` (rejection sampling: no modulo bias)."""
    d = hashlib.sha256(DOMAIN + b"/random" + lp(table_id) + u64(op) + u64(n) + b"".join(nonces)).digest()
    limit = (1 << 256) - (1 << 256) % n
    ctr = 0
    while True:
        x = int.from_bytes(hashlib.sha256(d + u32(ctr)).digest(), "big")
        if x < limit:
            return x % n
        ctr += 1  # pragma: no cover - probability < n / 2^256
