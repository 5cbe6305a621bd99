"""The ristretto255 group (RFC 9496) through libsodium: every group operation of the deck.

Everything the deck service computes lives here, so the rest of ``protocol/`` never touches a
binding directly (the binding itself is :mod:`protocol.sodium`):

* **points** are 32-byte ristretto255 encodings. ristretto255 is a prime-order group of order
  ``L``, built on edwards25519 with its cofactor quotiented out: there are no small-order or
  torsion elements at all, and *decoding is the validation* -- an encoding is valid exactly when
  it is the canonical encoding of a group element (``crypto_core_ristretto255_is_valid_point``).
  The identity (32 zero bytes) decodes, but it is never a valid point on the wire:
  :func:`is_valid_point` refuses it. Every multiplication goes through
  ``crypto_scalarmult_ristretto255``, which decodes its input (refusing an invalid encoding) and
  refuses a zero result, so it refuses the identity too; a refusal surfaces as
  :class:`InvalidPoint`, and an invalid point can never take part in a computation unnoticed.
  libsodium's ristretto255 multiplication does not clamp (it only clears bit 255, which every
  scalar below ``L`` has clear), so ``k^-1 * (k * P) == P``.
* **scalars** are 32-byte little-endian integers in ``[1, L)``; inside the proofs they are Python
  ints. Fresh ones are 64 uniform bytes reduced mod ``L``, never zero.
* **deck v2** (the end of this file): the base point ``G``, ``sub``, ``msm``, integer-scalar
  helpers (``sc_*``, ``mul_int``, ``base_mul_int``), ``hash_to_scalar``, ``generators`` and
  ``nonce_stream`` for the ElGamal deck and its proofs (``protocol/PROOFS.md``). Sums computed
  inside a proof may be the identity, so ``add``/``sub``/``sum_points`` accept it and
  ``mul_int``/``base_mul_int`` return it for a zero scalar; a point from the wire is still refused
  by every multiplication unless it is valid.
* **card points**: card ``c`` of table ``T`` with deck spec ``D`` is
  ``from_hash(SHA-512(b"p2pcards/v3/card" || lp(T) || lp(utf8(D)) || u32(c)))`` where ``lp(x)`` is
  ``u32be(len(x)) || x`` and ``from_hash`` is ristretto255's hash-to-group (RFC 9496 section 4.3.4:
  two Elligator maps of the 64 bytes, added). Length prefixes keep the encoding injective; nobody
  knows a discrete-log relation between two card points.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import struct
import threading
from collections.abc import Callable, Iterable, Sequence

from .sodium import BUF32 as _buf
from .sodium import lib as _lib

#: The order of the group (ristretto255 has prime order).
L = 2**252 + 27742317777372353535851937790883648493
POINT_BYTES = 32
SCALAR_BYTES = 32
DOMAIN = b"p2pcards/v3/card"

Point = bytes
Scalar = bytes

ONE: Scalar = (1).to_bytes(32, "little")
#: The neutral element: 32 zero bytes. It is never a valid point on the wire (``is_valid_point``
#: refuses it), but sums computed inside a proof may legitimately be the identity (an empty sum).
IDENTITY: Point = bytes(32)


class InvalidPoint(ValueError):
    """A point that is not a valid (non-identity) element of ristretto255. ``index`` is its position
    in the vector being processed, when there is one."""

    def __init__(self, reason: str, index: int | None = None) -> None:
        super().__init__(reason if index is None else f"point {index}: {reason}")
        self.index = index


class InvalidScalar(ValueError):
    """A scalar that is not a canonical, non-zero element of ``[1, L)``."""


# ---- encodings -----------------------------------------------------------------------------------
#: ``u32(n)``/``u64(n)``: big-endian encodings (the bound ``pack`` methods: no Python frame per
#: call, and the hashes of every proof call them many times)
u32 = struct.Struct(">I").pack
u64 = struct.Struct(">Q").pack


def lp(b: bytes) -> bytes:
    """Length-prefixed bytes: ``u32be(len(b)) || b``."""
    return len(b).to_bytes(4, "big") + b


# ---- points ----------------------------------------------------------------------------------------
def is_valid_point(p: object) -> bool:
    """A canonical ristretto255 encoding of an element other than the identity."""
    return (type(p) is bytes and len(p) == POINT_BYTES and p != IDENTITY
            and _lib.crypto_core_ristretto255_is_valid_point(p) == 1)


def validate_point(p: object, index: int | None = None) -> Point:
    if not isinstance(p, bytes) or len(p) != POINT_BYTES:
        raise InvalidPoint("not a 32-byte point encoding", index)
    if p == IDENTITY:
        raise InvalidPoint("the identity is not a valid point", index)
    if _lib.crypto_core_ristretto255_is_valid_point(p) != 1:
        raise InvalidPoint("not a canonical ristretto255 encoding", index)
    return p


def validate_points(points: Iterable[object]) -> None:
    for i, p in enumerate(points):
        validate_point(p, i)


def card_digest(table_id: bytes, deck_spec: str, card: int) -> bytes:
    return hashlib.sha512(DOMAIN + lp(table_id) + lp(deck_spec.encode()) + u32(card)).digest()


def from_hash(h: bytes) -> Point:
    """ristretto255's hash-to-group of 64 bytes (RFC 9496 section 4.3.4); may be the identity
    (probability 2^-252), which callers refuse."""
    if type(h) is not bytes or len(h) != 64:
        raise ValueError("from_hash takes 64 bytes")
    out = _buf()
    _lib.crypto_core_ristretto255_from_hash(out, h)
    return out.raw


def card_point(table_id: bytes, deck_spec: str, card: int) -> Point:
    return validate_point(from_hash(card_digest(table_id, deck_spec, card)))


def card_table(table_id: bytes, deck_spec: str, n_cards: int) -> tuple[list[Point], dict[Point, int]]:
    """The points of cards ``0..n_cards-1`` and the reverse look-up. Raises ``ValueError`` in the
    (cryptographically negligible) event of a collision."""
    points = [card_point(table_id, deck_spec, c) for c in range(n_cards)]
    index = {p: c for c, p in enumerate(points)}
    if len(index) != n_cards:
        raise ValueError("two cards map to the same point; choose another table id")
    return points, index


def add(p: Point, q: Point) -> Point:
    """``p + q``. It accepts any point of the curve (the identity included: sums inside a proof may
    be zero); validate inputs from the wire first. Raises :class:`InvalidPoint` off the curve."""
    if type(p) is not bytes or len(p) != POINT_BYTES or type(q) is not bytes or len(q) != POINT_BYTES:
        _check32(p), _check32(q)  # raises, naming the problem
    return _raw_add(p, q)


def mul(k: Scalar, p: Point, index: int | None = None) -> Point:
    """``k * p`` without clamping. Raises :class:`InvalidPoint` when ``p`` is invalid (libsodium
    decodes ``p`` and refuses the identity; ``k`` is never zero here)."""
    r = _raw_mul(k, p) if type(k) is bytes and len(k) == SCALAR_BYTES and type(p) is bytes \
        and len(p) == POINT_BYTES else None
    if r is None:
        raise InvalidPoint("not a valid point (or a zero scalar)", index)
    return r


def mul_each(ks: Sequence[Scalar], ps: Sequence[Point]) -> list[Point]:
    """``[ks[i] * ps[i]]``; :class:`InvalidPoint` carries the index of the first bad point."""
    return [mul(k, p, i) for i, (k, p) in enumerate(zip(ks, ps, strict=True))]


def mul_all(k: Scalar, ps: Sequence[Point]) -> list[Point]:
    """``[k * p for p in ps]``."""
    return [mul(k, p, i) for i, p in enumerate(ps)]


def base_mul(k: Scalar) -> Point:
    """``k * G`` (fixed-base, fast). Raises :class:`InvalidScalar` for a zero (mod L) or
    malformed scalar: the identity is never a result."""
    r = _raw_base(k) if isinstance(k, bytes) and len(k) == SCALAR_BYTES else None
    if r is None:
        raise InvalidScalar("zero or malformed scalar")
    return r


# ---- scalars ---------------------------------------------------------------------------------------
def scalar_reduce64(b: bytes) -> Scalar:
    """A scalar from 64 uniform bytes (reduced mod L); ``InvalidScalar`` if it is zero."""
    if len(b) != 64:
        raise ValueError("scalar_reduce64 takes 64 bytes")
    v = int.from_bytes(b, "little") % L
    if v == 0:
        raise InvalidScalar("zero scalar")
    return v.to_bytes(32, "little")


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
    return sc_inv(k)


def scalar_mul(a: Scalar, b: Scalar) -> Scalar:
    return sc_mul(a, b)


def scalar_add(a: Scalar, b: Scalar) -> Scalar:
    return sc_add(a, b)


def scalar_sub(a: Scalar, b: Scalar) -> Scalar:
    return sc_sub(a, b)


def scalar_product(ks: Iterable[Scalar]) -> Scalar:
    acc = ONE
    for k in ks:
        acc = scalar_mul(acc, k)
    return acc


# ---- deck v2: the operations the ElGamal deck and its proofs need -----------------------------------
#
# Scalars are handled as Python ints inside the proofs (``int.from_bytes(k, "little")``), which is
# much faster than a libsodium call per operation; the ``sc_*`` helpers below take and return the
# 32-byte encodings. libsodium decodes (so validates) every point it is given, and its
# multiplication refuses the identity, so a point that reaches a multiplication is always validated.



def _raw_mul(k: bytes, p: bytes) -> bytes | None:
    out = _buf()
    if _lib.crypto_scalarmult_ristretto255(out, k, p) != 0:
        return None
    return out.raw


def _raw_base(k: bytes) -> bytes | None:
    out = _buf()
    if _lib.crypto_scalarmult_ristretto255_base(out, k) != 0:
        return None
    return out.raw


#: The generator of ristretto255 (RFC 9496: the image of edwards25519's base point).
G: Point = _raw_base(ONE)


def _raw_add(p: bytes, q: bytes) -> bytes:
    out = _buf()
    if _lib.crypto_core_ristretto255_add(out, p, q) != 0:
        raise InvalidPoint("not a canonical ristretto255 encoding")
    return out.raw


def _raw_sub(p: bytes, q: bytes) -> bytes:
    out = _buf()
    if _lib.crypto_core_ristretto255_sub(out, p, q) != 0:
        raise InvalidPoint("not a canonical ristretto255 encoding")
    return out.raw


def _check32(p: object, index: int | None = None) -> bytes:
    if not isinstance(p, bytes) or len(p) != POINT_BYTES:
        raise InvalidPoint("not a 32-byte point encoding", index)
    return p


def sub(p: Point, q: Point) -> Point:
    """``p - q``. Like :func:`add`, it accepts the identity (sums inside proofs may be zero)."""
    if type(p) is not bytes or len(p) != POINT_BYTES or type(q) is not bytes or len(q) != POINT_BYTES:
        _check32(p), _check32(q)  # raises, naming the problem
    return _raw_sub(p, q)


def sc(v: int) -> Scalar:
    """The 32-byte encoding of ``v mod L``."""
    return (v % L).to_bytes(32, "little")


def sc_from_int(i: int) -> Scalar:
    return sc(i)


def sc_int(k: Scalar) -> int:
    return int.from_bytes(k, "little")


def sc_add(a: Scalar, b: Scalar) -> Scalar:
    return sc(sc_int(a) + sc_int(b))


def sc_sub(a: Scalar, b: Scalar) -> Scalar:
    return sc(sc_int(a) - sc_int(b))


def sc_mul(a: Scalar, b: Scalar) -> Scalar:
    return sc(sc_int(a) * sc_int(b))


def sc_neg(a: Scalar) -> Scalar:
    return sc(-sc_int(a))


def sc_inv(a: Scalar) -> Scalar:
    v = sc_int(a) % L
    if v == 0:
        raise InvalidScalar("zero has no inverse")
    return sc(pow(v, -1, L))


def mul_int(k: int, p: Point, index: int | None = None) -> Point:
    """``k * p`` for an integer ``k`` (reduced mod L). ``p`` must be valid (the identity is refused:
    :class:`InvalidPoint`); a zero ``k`` gives :data:`IDENTITY`."""
    k %= L
    if k == 0:
        validate_point(p, index)
        return IDENTITY
    r = _raw_mul(k.to_bytes(32, "little"), _check32(p, index))
    if r is None:
        raise InvalidPoint("not a valid point", index)
    return r


def mul_any(k: int, p: Point) -> Point:
    """``k * p`` where ``p`` may be :data:`IDENTITY` (a sum computed inside a proof)."""
    if p == IDENTITY or k % L == 0:
        return IDENTITY
    return mul_int(k, p)


def base_mul_int(k: int) -> Point:
    """``k * G`` (fixed-base, fast); a zero ``k`` gives :data:`IDENTITY`."""
    k %= L
    if k == 0:
        return IDENTITY
    r = _raw_base(k.to_bytes(32, "little"))
    assert r is not None  # k in [1, L): never refused
    return r


def sum_points(ps: Iterable[Point]) -> Point:
    """``Σ p`` (the identity for an empty sum)."""
    acc: Point | None = None
    for p in ps:
        acc = p if acc is None else _raw_add(acc, p)
    return IDENTITY if acc is None else acc


def msm_int(ks: Sequence[int], ps: Sequence[Point]) -> Point:
    """``Σ ks[i] * ps[i]`` with integer scalars. Every point is validated (strictly: the identity is
    refused); :class:`InvalidPoint` carries the index of the first bad one. libsodium has no
    multi-scalar multiplication, so this is one multiplication per distinct point plus additions:
    equal points are merged first (their scalars added), and ``G`` uses the fixed-base
    multiplication (the public initial deck has ``a = G`` in every card)."""
    if len(ks) != len(ps):
        raise ValueError("msm: as many scalars as points")
    if len(ps) == 1:  # one card (an opening): the same as below without the merging dictionaries
        p, k = ps[0], ks[0] % L
        if type(p) is not bytes or len(p) != POINT_BYTES:
            raise InvalidPoint("not a 32-byte point encoding", 0)
        if k == 0:
            validate_point(p, 0)
            return IDENTITY
        r = _raw_base(k.to_bytes(32, "little")) if p == G else _raw_mul(k.to_bytes(32, "little"), p)
        if r is None:
            raise InvalidPoint("not a valid point", 0)
        return r
    coef: dict[bytes, int] = {}
    first: dict[bytes, int] = {}
    for i, (k, p) in enumerate(zip(ks, ps, strict=True)):
        if type(p) is not bytes or len(p) != POINT_BYTES:
            raise InvalidPoint("not a 32-byte point encoding", i)
        if p in coef:
            coef[p] += k
        else:
            coef[p] = k
            first[p] = i
    acc: Point | None = None
    for p, k in coef.items():
        k %= L
        if k == 0:
            validate_point(p, first[p])
            continue
        if p == G:
            r = _raw_base(k.to_bytes(32, "little"))
        else:
            r = _raw_mul(k.to_bytes(32, "little"), p)
            if r is None:
                raise InvalidPoint("not a valid point", first[p])
        acc = r if acc is None else _raw_add(acc, r)
    return IDENTITY if acc is None else acc


def msm(ks: Sequence[Scalar], ps: Sequence[Point]) -> Point:
    """``Σ ks[i] * ps[i]`` (see :func:`msm_int`); may return :data:`IDENTITY`."""
    return msm_int([sc_int(k) for k in ks], ps)


def hash_to_scalar(domain: bytes, *parts: bytes) -> Scalar:
    """``SHA-512(lp(domain) || u32(n) || lp(part_1) || ... || lp(part_n) || u32(ctr)) mod L`` with
    ``ctr = 0``, or the first ``ctr`` giving a non-zero scalar (a zero has probability 2^-252)."""
    return sc(hash_to_int(domain, *parts))


def hash_to_int(domain: bytes, *parts: bytes) -> int:
    # lp() written out: this runs for every challenge and batching coefficient
    prefix = b"".join([lp(domain), u32(len(parts)),
                       *[len(p).to_bytes(4, "big") + p for p in parts]])
    for ctr in range(1 << 32):  # bounded; ends at ctr = 0 but for probability 2^-252
        v = int.from_bytes(hashlib.sha512(prefix + u32(ctr)).digest(), "little") % L
        if v:
            return v
    raise AssertionError("unreachable")  # pragma: no cover


_GENERATORS: dict[bytes, list[Point]] = {}
_GENERATORS_LOCK = threading.Lock()
GENERATOR_DOMAIN = b"p2pcards/v2/generator"


def generators(label: bytes, n: int) -> list[Point]:
    """``n`` independent generators for ``label``: generator ``i`` is the first valid
    ``from_hash(SHA-512(lp(b"p2pcards/v2/generator") || lp(label) || u32(i) || u32(ctr)))`` for
    ``ctr = 0, 1, ...`` not already in the list (ristretto255's hash-to-group: nobody knows a
    discrete logarithm between two of them). Generator ``i`` depends only on ``(label, i)``; lists
    are cached (thread-safe)."""
    if n < 0:
        raise ValueError("generators: n >= 0")
    with _GENERATORS_LOCK:
        cache = _GENERATORS.setdefault(label, [])
        if len(cache) < n:
            seen = set(cache)
            while len(cache) < n:
                i = len(cache)
                for ctr in range(1 << 16):  # bounded; ctr = 0 but for probability ~2^-250
                    d = hashlib.sha512(lp(GENERATOR_DOMAIN) + lp(label) + u32(i) + u32(ctr)).digest()
                    p = from_hash(d)
                    if p not in seen and is_valid_point(p):
                        cache.append(p)
                        seen.add(p)
                        break
                else:  # pragma: no cover
                    raise AssertionError("no generator found")
        return cache[:n]


def nonce_stream(seed: bytes, label: bytes) -> Callable[[], Scalar]:
    """Deterministic non-zero scalars: the ``k``-th call returns
    ``HMAC-SHA-512(seed, lp(label) || u64(k) || u32(ctr)) mod L`` for the first ``ctr`` giving a
    non-zero value (``ctr = 0`` but for probability 2^-252)."""
    ints = nonce_stream_int(seed, label)
    return lambda: sc(ints())


def nonce_stream_int(seed: bytes, label: bytes) -> Callable[[], int]:
    """:func:`nonce_stream`, as integers."""
    counter = [0]
    prefix = lp(label)

    def nxt() -> int:
        k = counter[0]
        counter[0] += 1
        for ctr in range(1 << 32):  # bounded
            v = int.from_bytes(hmac.digest(seed, prefix + u64(k) + u32(ctr), "sha512"), "little") % L
            if v:
                return v
        raise AssertionError("unreachable")  # pragma: no cover

    return nxt
