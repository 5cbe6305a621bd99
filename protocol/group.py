"""The prime-order subgroup of edwards25519, through libsodium (PyNaCl bindings).

Everything the deck service computes lives here, so the rest of ``protocol/`` never touches a
binding directly:

* **points** are 32-byte compressed Edwards encodings (libsodium's format). A point is *valid* when
  it is canonically encoded, on the curve, not of small order (so not the identity) and in the
  prime-order subgroup of order ``L`` -- exactly ``crypto_core_ed25519_is_valid_point``. Every
  multiplication goes through ``crypto_scalarmult_ed25519_noclamp``, which performs the same checks
  on its input and refuses a zero result; a refusal surfaces as :class:`InvalidPoint`, so an invalid
  point can never take part in a computation unnoticed.
* **scalars** are 32-byte little-endian integers in ``[1, L)``. Fresh ones come from
  ``crypto_core_ed25519_scalar_reduce`` of 64 bytes (uniform mod ``L``), never zero.
  Clamped multiplication (``crypto_scalarmult_ed25519``) sets and clears bits of the scalar, so
  ``k^-1 * (k * P) != P``: it must never be used here (a test checks the sources for it).
* **card points**: card ``c`` of table ``T`` with deck spec ``D`` is
  ``from_uniform(SHA-256(b"p2pcards/v1" || lp(T) || lp(utf8(D)) || u32be(c)))`` where ``lp(x)`` is
  ``u32be(len(x)) || x``. Length prefixes keep the encoding injective; ``from_uniform`` (Elligator 2
  followed by cofactor clearing) maps the 32-byte digest into the prime-order subgroup.
"""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Iterable, Sequence

import nacl.bindings as _nb
import nacl.exceptions as _nx

#: The order of the prime-order subgroup.
L = 2**252 + 27742317777372353535851937790883648493
POINT_BYTES = 32
SCALAR_BYTES = 32
DOMAIN = b"p2pcards/v1"

Point = bytes
Scalar = bytes

ONE: Scalar = (1).to_bytes(32, "little")


class InvalidPoint(ValueError):
    """A point that is not a valid element of the prime-order subgroup. ``index`` is its position
    in the vector being processed, when there is one."""

    def __init__(self, reason: str, index: int | None = None) -> None:
        super().__init__(reason if index is None else f"point {index}: {reason}")
        self.index = index


class InvalidScalar(ValueError):
    """A scalar that is not a canonical, non-zero element of ``[1, L)``."""


# ---- encodings -----------------------------------------------------------------------------------
def u32(n: int) -> bytes:
    return struct.pack(">I", n)


def u64(n: int) -> bytes:
    return struct.pack(">Q", n)


def lp(b: bytes) -> bytes:
    """Length-prefixed bytes: ``u32be(len(b)) || b``."""
    return u32(len(b)) + b


# ---- points ----------------------------------------------------------------------------------------
def is_valid_point(p: object) -> bool:
    return isinstance(p, bytes) and len(p) == POINT_BYTES and _nb.crypto_core_ed25519_is_valid_point(p)


def validate_point(p: object, index: int | None = None) -> Point:
    if not isinstance(p, bytes) or len(p) != POINT_BYTES:
        raise InvalidPoint("not a 32-byte point encoding", index)
    if not _nb.crypto_core_ed25519_is_valid_point(p):
        raise InvalidPoint("not a valid element of the prime-order subgroup", index)
    return p


def validate_points(points: Iterable[object]) -> None:
    for i, p in enumerate(points):
        validate_point(p, i)


def card_digest(table_id: bytes, deck_spec: str, card: int) -> bytes:
    return hashlib.sha256(DOMAIN + lp(table_id) + lp(deck_spec.encode()) + u32(card)).digest()


def card_point(table_id: bytes, deck_spec: str, card: int) -> Point:
    p = _nb.crypto_core_ed25519_from_uniform(card_digest(table_id, deck_spec, card))
    return validate_point(p)


def card_table(table_id: bytes, deck_spec: str, n_cards: int) -> tuple[list[Point], dict[Point, int]]:
    """The points of cards ``0..n_cards-1`` and the reverse look-up. Raises ``ValueError`` in the
    (cryptographically negligible) event of a collision."""
    points = [card_point(table_id, deck_spec, c) for c in range(n_cards)]
    index = {p: c for c, p in enumerate(points)}
    if len(index) != n_cards:
        raise ValueError("two cards map to the same point; choose another table id")
    return points, index


def add(p: Point, q: Point) -> Point:
    return _nb.crypto_core_ed25519_add(p, q)


def mul(k: Scalar, p: Point, index: int | None = None) -> Point:
    """``k * p`` without clamping. Raises :class:`InvalidPoint` when ``p`` is invalid (libsodium
    checks encoding, curve, small order and subgroup; ``k`` is never zero here)."""
    try:
        return _nb.crypto_scalarmult_ed25519_noclamp(k, p)
    except (_nx.CryptoError, TypeError) as exc:  # RuntimeError subclasses CryptoError
        raise InvalidPoint("not a valid element of the prime-order subgroup", index) from exc


def mul_each(ks: Sequence[Scalar], ps: Sequence[Point]) -> list[Point]:
    """``[ks[i] * ps[i]]``; :class:`InvalidPoint` carries the index of the first bad point."""
    f = _nb.crypto_scalarmult_ed25519_noclamp
    out = []
    for i, (k, p) in enumerate(zip(ks, ps, strict=True)):
        try:
            out.append(f(k, p))
        except (_nx.CryptoError, TypeError) as exc:
            raise InvalidPoint("not a valid element of the prime-order subgroup", i) from exc
    return out


def mul_all(k: Scalar, ps: Sequence[Point]) -> list[Point]:
    """``[k * p for p in ps]``."""
    f = _nb.crypto_scalarmult_ed25519_noclamp
    out = []
    for i, p in enumerate(ps):
        try:
            out.append(f(k, p))
        except (_nx.CryptoError, TypeError) as exc:
            raise InvalidPoint("not a valid element of the prime-order subgroup", i) from exc
    return out


def base_mul(k: Scalar) -> Point:
    return _nb.crypto_scalarmult_ed25519_base_noclamp(k)


# ---- scalars ---------------------------------------------------------------------------------------
def scalar_reduce64(b: bytes) -> Scalar:
    """A scalar from 64 uniform bytes (reduced mod L); ``InvalidScalar`` if it is zero."""
    if len(b) != 64:
        raise ValueError("scalar_reduce64 takes 64 bytes")
    k = _nb.crypto_core_ed25519_scalar_reduce(b)
    if k == bytes(32):
        raise InvalidScalar("zero scalar")
    return k


def random_scalar() -> Scalar:
    while True:
        try:
            return scalar_reduce64(os.urandom(64))
        except InvalidScalar:  # pragma: no cover - probability 2^-252
            continue


def validate_scalar(k: object) -> Scalar:
    if not isinstance(k, bytes) or len(k) != SCALAR_BYTES:
        raise InvalidScalar("not a 32-byte scalar encoding")
    v = int.from_bytes(k, "little")
    if v == 0:
        raise InvalidScalar("zero scalar")
    if v >= L:
        raise InvalidScalar("scalar not reduced mod L")
    return k


def scalar_int(k: Scalar) -> int:
    return int.from_bytes(k, "little")


def scalar_from_int(v: int) -> Scalar:
    return (v % L).to_bytes(32, "little")


def scalar_inv(k: Scalar) -> Scalar:
    return _nb.crypto_core_ed25519_scalar_invert(k)


def scalar_mul(a: Scalar, b: Scalar) -> Scalar:
    return _nb.crypto_core_ed25519_scalar_mul(a, b)


def scalar_add(a: Scalar, b: Scalar) -> Scalar:
    return _nb.crypto_core_ed25519_scalar_add(a, b)


def scalar_sub(a: Scalar, b: Scalar) -> Scalar:
    return _nb.crypto_core_ed25519_scalar_sub(a, b)


def scalar_product(ks: Iterable[Scalar]) -> Scalar:
    acc = ONE
    for k in ks:
        acc = scalar_mul(acc, k)
    return acc
