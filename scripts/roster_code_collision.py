#!/usr/bin/env python3
"""Red team 16b: a host's birthday search for two rosters with one roster code (40 bits).

    .venv/bin/python scripts/roster_code_collision.py [--keys N]

A host showing alice (dan, alice, a "bob" whose key dan holds) and bob (dan, an "alice" whose
key dan holds, bob) needed both rosters to give one code (``protocol.roster.roster_digest``, the
code players read aloud before mesh version 5; since then they read ``roster_code``, made from the
roster and a joint draw the host cannot grind, and the digest is only what the programs compare). It walks ``N`` keys for its fake bob and ``N`` for its fake alice
(secret scalars ``START + i``, each public key one libsodium point addition from the last) and
looks for two with the same 40-bit code; with ``N = 2^21`` it finds one with odds of about 98 %.
Prints the indices found, the code and the CPU time. tests/protocol/test_roster_code_collision.py
holds the pair found with the honest keys below (43 s of CPU on this machine).
"""

from __future__ import annotations

import argparse
import hashlib
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import nacl.bindings as nb  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from protocol.envelope import canonical  # noqa: E402
from protocol.identity import Identity  # noqa: E402

START_BOB, START_ALICE = 1234567, 7654321
BASE = nb.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))


def honest(name: bytes) -> Identity:
    return Identity(Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"red16b " + name).digest()))


def around(rows: list[list], seat: int) -> tuple[bytes, bytes]:
    """The hashed bytes of ``roster_digest`` before and after the key hex of ``seat``."""
    mark = "K" * 64
    data = b"p2pcards/v1/roster\n" + canonical([[s, n, mark if s == seat else k] for s, n, k in rows])
    pre, post = data.split(mark.encode())
    return pre, post


def walk(start: int, n: int):
    p = nb.crypto_scalarmult_ed25519_base_noclamp(start.to_bytes(32, "little"))
    for i in range(n):
        yield i, p
        p = nb.crypto_core_ed25519_add(p, BASE)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=1 << 21)
    n = ap.parse_args().keys
    dan, alice, bob = (honest(x).public_key.hex() for x in (b"dan", b"alice", b"bob"))
    pa, qa = around([[0, "dan", dan], [1, "alice", alice], [2, "bob", None]], 2)
    pb, qb = around([[0, "dan", dan], [1, "alice", None], [2, "bob", bob]], 1)
    t0 = time.process_time()
    seen = {}
    for i, p in walk(START_BOB, n):
        seen[hashlib.sha256(pa + p.hex().encode() + qa).digest()[:5]] = i
    for j, p in walk(START_ALICE, n):
        d = hashlib.sha256(pb + p.hex().encode() + qb).digest()[:5]
        if d in seen:
            print(f"fake bob scalar {START_BOB} + {seen[d]}, fake alice scalar {START_ALICE} + "
                  f"{j}: one roster code, {time.process_time() - t0:.1f} s CPU "
                  f"({(n + j + 1) / (time.process_time() - t0):,.0f} keys/s)")
            return
    print(f"no collision among {n:,} + {n:,} keys ({time.process_time() - t0:.1f} s CPU)")


if __name__ == "__main__":
    main()
