"""Every secret a deck peer uses, derived from its 32-byte seed.

``PRF(purpose, op, index, ctr, extra) = HMAC-SHA-512(key=seed, msg=b"p2pcards/v1/kdf" ||
lp(purpose) || u64be(op) || u32be(index) || u32be(ctr) || lp(extra))`` (64 bytes), where ``lp`` is a
u32be length prefix. From it:

============  ======================================================  ===========================
purpose       what                                                    derivation
============  ======================================================  ===========================
``blind``     b: the proven layer on plain points (seat n-1)         scalar(op, 0)
``rekey``     r: the common layer put on while stripping slot keys   scalar(op, 0)
``shuffle``   s: the shuffle-pass scalar                              scalar(op, 0)
``lock``      k_i: the per-slot key of position i of a lock pass     scalar(op, i)
``perm``      the Fisher-Yates draws of a random permutation          see ``permutation``
``nonce``     the commit-reveal nonce of a joint random value         PRF(op, 0, 0)[:32]
``dleq``      the nonce of a lock-pass proof (``extra`` = statement)  scalar(op, 0, extra=digest)
============  ======================================================  ===========================

``scalar(op, i)`` is ``scalar_reduce(PRF(..., ctr))`` for the first ``ctr = 0, 1, ...`` giving a
non-zero scalar. A peer that restarts with the same seed re-derives the same secrets, so replaying
its received messages rebuilds its state; the audit reveals the seed and everyone recomputes.
"""

from __future__ import annotations

import hashlib
import hmac

from .group import InvalidScalar, Scalar, lp, scalar_reduce64, u32, u64

KDF_LABEL = b"p2pcards/v1/kdf"


class PeerSecrets:
    """The deterministic secrets of one peer (one seed)."""

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise ValueError("a deck seed is 32 bytes")
        self.seed = seed
        self._cache: dict[tuple[str, int, int], Scalar] = {}

    def prf(self, purpose: str, op: int, index: int = 0, ctr: int = 0, extra: bytes = b"") -> bytes:
        msg = KDF_LABEL + lp(purpose.encode()) + u64(op) + u32(index) + u32(ctr) + lp(extra)
        return hmac.new(self.seed, msg, hashlib.sha512).digest()

    def scalar(self, purpose: str, op: int, index: int = 0, extra: bytes = b"") -> Scalar:
        key = (purpose, op, index)
        if not extra and key in self._cache:
            return self._cache[key]
        ctr = 0
        while True:
            try:
                k = scalar_reduce64(self.prf(purpose, op, index, ctr, extra))
                break
            except InvalidScalar:  # pragma: no cover - probability 2^-252
                ctr += 1
        if not extra:
            self._cache[key] = k
        return k

    def blind_scalar(self, op: int) -> Scalar:
        return self.scalar("blind", op)

    def rekey_scalar(self, op: int) -> Scalar:
        return self.scalar("rekey", op)

    def shuffle_scalar(self, op: int) -> Scalar:
        return self.scalar("shuffle", op)

    def lock_key(self, op: int, position: int) -> Scalar:
        return self.scalar("lock", op, position)

    def dleq_nonce(self, op: int, statement: bytes) -> Scalar:
        return self.scalar("dleq", op, 0, extra=statement)

    def nonce(self, op: int) -> bytes:
        return self.prf("nonce", op)[:32]

    def uniform(self, op: int, index: int, bound: int) -> int:
        """An unbiased integer in ``[0, bound)``: the first ``ctr`` whose
        ``x = u64be(PRF("perm", op, index, ctr)[:8])`` is below ``2^64 - 2^64 mod bound`` gives
        ``x mod bound``."""
        limit = (1 << 64) - (1 << 64) % bound
        ctr = 0
        while True:
            x = int.from_bytes(self.prf("perm", op, index, ctr)[:8], "big")
            if x < limit:
                return x % bound
            ctr += 1  # pragma: no cover - rare

    def permutation(self, op: int, m: int) -> list[int]:
        """A uniform permutation of ``range(m)`` by Fisher-Yates: for ``i = m-1 .. 1``,
        ``j = uniform(op, i, i + 1)``, swap ``p[i]`` and ``p[j]``. Output position ``i`` of a shuffle
        step takes input position ``p[i]``."""
        p = list(range(m))
        for i in range(m - 1, 0, -1):
            j = self.uniform(op, i, i + 1)
            p[i], p[j] = p[j], p[i]
        return p
