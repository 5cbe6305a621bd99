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
    if not isinstance(kind, str) or kind not in DESC_FIELDS:
        return None
    if any(k not in body for k in DESC_FIELDS[kind]):
        return None
    return {"kind": kind, **{k: body[k] for k in DESC_FIELDS[kind]}}


def _index_list(v: Any, bound: int, what: str) -> str | None:
    if not isinstance(v, list) or not v:
        return f"{what} is not a non-empty list"
    if any(not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < bound for x in v):
        return f"{what} holds something other than a number from 0 to {bound - 1}"
    if len(set(v)) != len(v):
        return f"{what} repeats an entry"
    return None


def descriptor_problem(desc: dict[str, Any], n_cards: int, seats: int) -> str | None:
    """What is wrong with an operation descriptor read from a record (``None``: well formed):
    slots are distinct card positions, seats are seats, a random range fits in 64 bits."""
    kind = desc.get("kind")
    if kind in ("shuffle", "open"):
        problem = _index_list(desc.get("slots"), n_cards, "slots")
        if problem:
            return problem
    if kind == "shuffle":
        by = desc.get("by")
        if by is not None and (not isinstance(by, int) or isinstance(by, bool)
                               or not 0 <= by < seats):
            return f"by is {by!r}, not a seat"
    elif kind == "open":
        return _index_list(desc.get("to"), seats, "to")
    elif kind == "random":
        n = desc.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 < n < 2**64:
            return f"n is {n!r}, not a range size from 1 to 2^64 - 1"
    return None


def vec_digest(points: Sequence[Point]) -> bytes:
    """``SHA-256(b"p2pcards/v1/vec" || u32be(len) || p_0 || ... )``: names the vector a step
    consumed (the ``prev`` field), so a sender that equivocates is noticed at once."""
    h = hashlib.sha256(DOMAIN + b"/vec" + u32(len(points)))
    for p in points:
        h.update(p)
    return h.digest()


# ---- shuffle operation -------------------------------------------------------------------------------
def shuffle_chain(n: int, plain: Sequence[bool], n_cards: int, proofs: bool
                  ) -> list[tuple[str, int]]:
    """The steps of a shuffle operation in order, as ``(step, seat)``. ``plain[i]``: position
    ``i`` of the operation holds a plain card point.

    * ``blind`` -- only with lock proofs, when some slot is plain and some card lies outside the
      slots. Card points are public, so the first seat to multiply a plain point could put any
      outside card in its place. The blind step multiplies every position by one scalar ``b`` and
      proves it. Its author never again sees a point that carries only its own layers: seat 0
      when a rekey follows (seat 0 shuffles after every other seat rekeyed), else seat n-1
      (which shuffles last);
    * ``rekey`` (seats 1..n-1) -- when some slot is locked;
    * ``shuffle`` (seats 0..n-1), then ``lock`` (seats 0..n-1)."""
    rekey = not all(plain)
    chain = []
    if proofs and any(plain) and len(plain) < n_cards:
        chain.append(("blind", 0 if rekey else n - 1))
    if rekey:
        chain += [("rekey", j) for j in range(1, n)]
    chain += [("shuffle", j) for j in range(n)] + [("lock", j) for j in range(n)]
    return chain


def blind_points(sec: PeerSecrets, op: int, seat: int, pts: Sequence[Point], table_id: bytes
                 ) -> tuple[list[Point], list[Scalar]]:
    """Blind step: ``b * p`` for every position, with a proof that one ``b`` served them all."""
    b = sec.blind_scalar(op)
    out = mul_all(b, pts)
    d = dleq_statement(b"blind", table_id, op, seat, pts, out)
    return out, list(dleq_prove(b, pts, out, sec.dleq_nonce(op, d), d))


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


def common_layer(sec: PeerSecrets, op: int, seat: int, chain: Sequence[tuple[str, int]]) -> Scalar:
    """The layer a seat holds on every slot before its lock step: ``s``, times ``r`` if it rekeyed,
    times ``b`` if it blinded."""
    c = sec.shuffle_scalar(op)
    if ("rekey", seat) in chain:
        c = scalar_mul(c, sec.rekey_scalar(op))
    if ("blind", seat) in chain:
        c = scalar_mul(c, sec.blind_scalar(op))
    return c


def lock_points(sec: PeerSecrets, op: int, seat: int, x: Sequence[Point],
                chain: Sequence[tuple[str, int]], table_id: bytes, proofs: bool
                ) -> tuple[list[Point], list[Point], list[Scalar] | None]:
    """Lock step: ``locked_i = k_i * x_i`` then ``out_i = c^-1 * locked_i`` (``c`` the common
    layer). Locking *before* stripping means every published point still carries a layer of
    every seat. With ``proofs``, a batched Chaum-Pedersen proof that one scalar maps ``locked`` to
    ``out``. Returns ``(locked, out, proof)``."""
    ks = [sec.lock_key(op, i) for i in range(len(x))]
    locked = mul_each(ks, x)
    t = scalar_inv(common_layer(sec, op, seat, chain))
    out = mul_all(t, locked)
    proof = None
    if proofs and locked:
        d = dleq_statement(b"lock", table_id, op, seat, locked, out)
        proof = list(dleq_prove(t, locked, out, sec.dleq_nonce(op, d), d))
    return locked, out, proof


# ---- batched Chaum-Pedersen proof that out_i = t * locked_i for one t ---------------------------------
def dleq_statement(label: bytes, table_id: bytes, op: int, seat: int, ys: Sequence[Point],
                   zs: Sequence[Point]) -> bytes:
    """``SHA-512(b"p2pcards/v1/dleq" || lp(label) || lp(T) || u64be(op) || u32be(seat) ||
    u32be(m) || ys || zs)``: binds a proof to its step, table, operation and seat."""
    h = hashlib.sha512(DOMAIN + b"/dleq" + lp(label) + lp(table_id) + u64(op) + u32(seat)
                       + u32(len(ys)))
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
