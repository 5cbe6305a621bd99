"""Every secret a deck peer uses, derived from its 32-byte seed (SPEC.md "Secrets").

``PRF(purpose, op, index, extra) = HMAC-SHA-512(key=seed, msg=b"p2pcards/v2/kdf" || lp(purpose) ||
u64be(op) || u32be(index) || lp(extra))`` (64 bytes; ``lp`` is a u32be length prefix). Every
per-operation secret takes the digest of the operation's input in ``extra``, so the same seed
never serves two different inputs with the same secret (a replayed or re-fed operation gets fresh
secrets), while a restarted seat fed the same inputs re-sends byte-identical messages.

============  ==========================================================  =======================
purpose       what                                                        derivation
============  ==========================================================  =======================
``key``       x: this seat's key share for the table                      scalar(0, 0, T||desc)
``reenc``     the seed of a shuffle step's re-encryption randomness       PRF(op, 0, in)[:32]
``perm``      the Fisher-Yates draws of a shuffle step's permutation      see ``permutation``
``mix``       the draws of a hand mix (private reorder the program picks) see ``permutation``
``proof``     the nonce seed of a proof (``index`` numbers the proof)     PRF(op, i, in)[:32]
``rho``       the randomness of an encrypted share (``index`` = position) scalar(op, i, in||u32(r))
``nonce``     the commit-reveal nonce of a joint random value             PRF(op, 0, in)[:32]
============  ==========================================================  =======================

``scalar(op, i, extra)`` is ``scalar_reduce(PRF(...))``, retried with ``extra || u32be(ctr)`` for
``ctr = 1, 2, ...`` in the (2^-252) event of zero. No secret here is ever published.
"""

from __future__ import annotations

import hashlib
import hmac

from .group import InvalidScalar, Scalar, lp, scalar_reduce64, u32, u64

KDF_LABEL = b"p2pcards/v2/kdf"


class PeerSecrets:
    """The deterministic secrets of one peer (one seed)."""

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise ValueError("a deck seed is 32 bytes")
        self.seed = seed

    def prf(self, purpose: str, op: int, index: int = 0, extra: bytes = b"") -> bytes:
        msg = KDF_LABEL + lp(purpose.encode()) + u64(op) + u32(index) + lp(extra)
        return hmac.new(self.seed, msg, hashlib.sha512).digest()

    def scalar(self, purpose: str, op: int, index: int = 0, extra: bytes = b"") -> Scalar:
        ctr = 0
        while True:
            try:
                return scalar_reduce64(self.prf(purpose, op, index, extra + (u32(ctr) if ctr else b"")))
            except InvalidScalar:  # pragma: no cover - probability 2^-252
                ctr += 1

    def key(self, table_id: bytes, desc: bytes) -> Scalar:
        return self.scalar("key", 0, 0, lp(table_id) + desc)

    def seed32(self, purpose: str, op: int, data: bytes, index: int = 0) -> bytes:
        return self.prf(purpose, op, index, data)[:32]

    def rho(self, op: int, data: bytes, receiver: int, position: int) -> Scalar:
        return self.scalar("rho", op, position, data + u32(receiver))

    def uniform(self, purpose: str, op: int, data: bytes, index: int, bound: int) -> int:
        """An unbiased integer in ``[0, bound)``: for ``ctr = 0, 1, ...``,
        ``x = u64be(PRF(purpose, op, index, data || u32be(ctr))[:8])``; the first
        ``x < 2^64 - 2^64 mod bound`` gives ``x mod bound``."""
        limit = (1 << 64) - (1 << 64) % bound
        ctr = 0
        while True:
            x = int.from_bytes(self.prf(purpose, op, index, data + u32(ctr))[:8], "big")
            if x < limit:
                return x % bound
            ctr += 1  # pragma: no cover - rare

    def permutation(self, purpose: str, op: int, data: bytes, m: int) -> list[int]:
        """A uniform permutation of ``range(m)`` by Fisher-Yates: for ``i = m-1 .. 1``,
        ``j = uniform(purpose, op, data, i, i + 1)``, swap ``p[i]`` and ``p[j]``. Output position
        ``i`` of a shuffle step takes input position ``p[i]``."""
        p = list(range(m))
        for i in range(m - 1, 0, -1):
            j = self.uniform(purpose, op, data, i, i + 1)
            p[i], p[j] = p[j], p[i]
        return p
