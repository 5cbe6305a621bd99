"""ElGamal over the prime-order subgroup of edwards25519: the cards of deck protocol v2.

A card is a ciphertext ``(a, b) = (r·G, M + r·Y)`` under the joint key ``Y = Σ Y_j``; ``M`` is the
card point (:func:`protocol.group.card_point`). The public initial deck uses ``r = 1``:
``(G, M + Y)``, because the identity (``r = 0``) is not a valid point on the wire. Re-encryption
adds ``(r·G, r·Y)``; seat ``j``'s decryption share of a card is ``d_j = x_j·a``, and
``M = b − Σ d_j``. The proofs that each step was done honestly are in :mod:`protocol.proofs`.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import group as g
from .group import Point, Scalar

Ciphertext = tuple[Point, Point]

REENC_LABEL = b"reenc"


def public_encrypt(m: Point, y: Point) -> Ciphertext:
    """``(G, M + Y)``: the encryption of ``M`` with ``r = 1``, which anyone can compute and check."""
    g.validate_point(m)
    g.validate_point(y)
    return (g.G, g.add(m, y))


def reencrypt(y: Point, ct: Ciphertext, r: Scalar) -> Ciphertext:
    """``(a + r·G, b + r·Y)``. Raises :class:`~protocol.group.InvalidPoint` on an invalid ``y``."""
    a, b = ct
    ri = g.sc_int(r)
    return (g.add(a, g.base_mul_int(ri)), g.add(b, g.mul_int(ri, y)))


def share(x: Scalar, ct: Ciphertext) -> Point:
    """Seat ``j``'s decryption share of ``ct``: ``d_j = x_j·a``."""
    return g.mul(x, ct[0])


def decode(ct: Ciphertext, shares: Sequence[Point]) -> Point:
    """``b − Σ d_j``: the card point once every seat's share is in."""
    return g.sub(ct[1], g.sum_points(shares))


def decrypt_share(x_r: Scalar, enc: Ciphertext) -> Point:
    """The receiver's view of an encrypted share ``E = (ρ·G, d + ρ·Y_r)``: ``d = E2 − x_r·E1``."""
    return g.sub(enc[1], g.mul(x_r, enc[0]))


def shuffle(y: Point, cts: Sequence[Ciphertext], perm: Sequence[int], seed: bytes
            ) -> tuple[list[Ciphertext], list[Scalar]]:
    """Permute and re-encrypt: output ``i`` is ``reencrypt(y, cts[perm[i]], r_i)`` ("output
    position i takes input position perm[i]"), ``r_i`` the ``i``-th scalar of
    ``nonce_stream(seed, b"reenc")``. Returns the outputs and the ``r_i`` (the witness of the
    proof of shuffle). Raises ``ValueError`` when ``perm`` is not a permutation of ``range(len(cts))``."""
    n = len(cts)
    check_perm(perm, n)
    g.validate_point(y)
    nxt = g.nonce_stream_int(seed, REENC_LABEL)
    rs = [nxt() for _ in range(n)]
    out = []
    for i in range(n):
        a, b = cts[perm[i]]
        # a = G (the public initial deck): a + r·G = (1 + r)·G, one fixed-base multiplication
        a2 = g.base_mul_int(1 + rs[i]) if a == g.G else g.add(a, g.base_mul_int(rs[i]))
        out.append((a2, g.add(b, g.mul_int(rs[i], y))))
    return out, [g.sc(r) for r in rs]


def check_perm(perm: Sequence[int], n: int) -> None:
    if len(perm) != n or sorted(perm) != list(range(n)) or not all(type(i) is int for i in perm):
        raise ValueError(f"not a permutation of range({n})")
