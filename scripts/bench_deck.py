#!/usr/bin/env python3
"""Benchmark the mental-poker deck service with in-process peers.

    .venv/bin/python scripts/bench_deck.py [--json] [--repeat N]

Medians over repeated runs of: shuffle + lock of 110 cards with 2-5 peers (lock proofs on, the
default, and off); opening one card to one peer and to all; re-shuffling 40 locked slots; the count
of scalar multiplications and point validations of a 110 x 5 shuffle beside its floor (count x the
measured time of one operation); and the same 5-peer shuffle with SRA over the 2048-bit MODP group
(RFC 3526 group 14) in pure Python, measured on a small sample and scaled, as a ratio.

All peers of a table share this machine (and its cores): in-process figures add up every seat's
work, which a LAN spreads over one machine per seat.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import secrets
import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import nacl.bindings as nb  # noqa: E402

from protocol import group as g  # noqa: E402
from protocol.channel import InMemoryHub  # noqa: E402
from protocol.deck import DeckPeer  # noqa: E402

CARDS = 110


def table(n: int, n_cards: int = CARDS, proofs: bool = True) -> list[DeckPeer]:
    hub = InMemoryHub(n)
    tid = secrets.token_bytes(16)
    return [DeckPeer(hub.channel(s), tid, "bench/v1", n_cards, secrets.token_bytes(32), 30,
                     lock_proofs=proofs) for s in range(n)]


async def both(peers: list[DeckPeer], fn: Callable[[DeckPeer], Any]) -> list[Any]:
    return await asyncio.gather(*(fn(p) for p in peers))


def timed(setup: Callable[[], Any], op: Callable[[Any], Any], repeat: int) -> float:
    """Median wall time of ``op(state)`` (seconds); ``setup`` is not timed."""
    times = []
    for _ in range(repeat):
        async def once() -> float:
            state = await setup()
            t = time.perf_counter()
            await op(state)
            return time.perf_counter() - t
        times.append(asyncio.run(once()))
    return statistics.median(times)


def shuffle_lock(n: int, proofs: bool, repeat: int) -> float:
    async def setup() -> list[DeckPeer]:
        return table(n, proofs=proofs)
    return timed(setup, lambda peers: both(peers, lambda p: p.shuffle(range(CARDS))), repeat)


def opening(n: int, to_all: bool, repeat: int) -> float:
    async def setup() -> list[DeckPeer]:
        peers = table(n, n_cards=20)
        await both(peers, lambda p: p.shuffle(range(20)))
        return peers
    to = list(range(n)) if to_all else [1]
    return timed(setup, lambda peers: both(peers, lambda p: p.open([7], to)), repeat)


def reshuffle(n: int, m: int, repeat: int) -> float:
    async def setup() -> list[DeckPeer]:
        peers = table(n)
        await both(peers, lambda p: p.shuffle(range(CARDS)))
        return peers
    return timed(setup, lambda peers: both(peers, lambda p: p.shuffle(range(m))), repeat)


class Count:
    """Counts libsodium multiplications and validations while active."""

    def __enter__(self) -> Count:
        self.mul = self.valid = 0
        lock = threading.Lock()
        self._saved = (nb.crypto_scalarmult_ed25519_noclamp, nb.crypto_core_ed25519_is_valid_point)
        mul, valid = self._saved

        def counted_mul(k: bytes, p: bytes) -> bytes:
            with lock:
                self.mul += 1
            return mul(k, p)

        def counted_valid(p: bytes) -> bool:
            with lock:
                self.valid += 1
            return valid(p)

        nb.crypto_scalarmult_ed25519_noclamp = counted_mul
        nb.crypto_core_ed25519_is_valid_point = counted_valid
        return self

    def __exit__(self, *exc: object) -> None:
        nb.crypto_scalarmult_ed25519_noclamp, nb.crypto_core_ed25519_is_valid_point = self._saved


def counts(n: int, proofs: bool) -> tuple[int, int]:
    async def run() -> tuple[int, int]:
        peers = table(n, proofs=proofs)
        with Count() as c:
            await both(peers, lambda p: p.shuffle(range(CARDS)))
        return c.mul, c.valid
    return asyncio.run(run())


def per_call(fn: Callable[[], Any], number: int = 2000) -> float:
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t) / number)
    return best


# ---- SRA over the 2048-bit MODP group, pure Python ---------------------------------------------------
MODP2048 = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)


def sra_shuffle_lock(n: int, m: int) -> float:
    """The same shuffle pass + lock pass (n * m + 2 * n * m exponentiations) with SRA keys mod the
    MODP prime, on m cards; returns seconds."""
    p, phi = MODP2048, MODP2048 - 1
    rng = secrets.SystemRandom()

    def keypair() -> tuple[int, int]:
        while True:
            e = rng.randrange(3, phi)
            try:
                return e, pow(e, -1, phi)
            except ValueError:
                continue

    cards = [pow(rng.randrange(2, p - 1), 2, p) for _ in range(m)]
    t = time.perf_counter()
    shuffle_keys = [keypair() for _ in range(n)]
    vec = list(cards)
    for e, _ in shuffle_keys:  # shuffle pass
        vec = [pow(x, e, p) for x in vec]
        rng.shuffle(vec)
    for _, d in shuffle_keys:  # lock pass: per-slot key, then strip
        locks = [keypair()[0] for _ in range(m)]
        vec = [pow(pow(x, k, p), d, p) for x, k in zip(vec, locks, strict=True)]
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--repeat", type=int, default=5, help="runs per median (default 5)")
    args = ap.parse_args()
    r = args.repeat
    out: dict[str, Any] = {"cores": os.cpu_count(), "repeat": r}

    k, pt = g.random_scalar(), g.card_point(b"t", "d", 0)
    out["mult_ms"] = per_call(lambda: nb.crypto_scalarmult_ed25519_noclamp(k, pt)) * 1e3
    out["validate_ms"] = per_call(lambda: nb.crypto_core_ed25519_is_valid_point(pt)) * 1e3
    for n in (2, 3, 4, 5):
        out[f"shuffle_lock_110x{n}_s"] = shuffle_lock(n, True, r)
    out["shuffle_lock_110x5_noproofs_s"] = shuffle_lock(5, False, r)
    out["open_one_ms"] = opening(5, False, 4 * r) * 1e3
    out["open_one_to_all_ms"] = opening(5, True, 4 * r) * 1e3
    out["reshuffle_40x5_s"] = reshuffle(5, 40, r)

    for tag, proofs in (("", True), ("_noproofs", False)):
        mults, valids = counts(5, proofs)
        floor = mults * out["mult_ms"] / 1e3
        out[f"mults_110x5{tag}"] = mults
        out[f"validations_110x5{tag}"] = valids
        out[f"floor_110x5{tag}_s"] = floor
        out[f"floor_with_validation_110x5{tag}_s"] = floor + valids * out["validate_ms"] / 1e3
        out[f"shuffle_lock_over_floor{tag}"] = out[f"shuffle_lock_110x5{tag}_s"] / floor
    out["design_mults_110x5"] = 3 * 5 * CARDS
    out["design_floor_110x5_s"] = 3 * 5 * CARDS * out["mult_ms"] / 1e3

    sample = 4
    sra = statistics.median(sra_shuffle_lock(5, sample) for _ in range(3))
    out["modp2048_sample_cards"] = sample
    out["modp2048_110x5_s"] = sra * CARDS / sample
    out["modexp_ms"] = sra / (3 * 5 * sample) * 1e3
    out["modp2048_ratio"] = out["modp2048_110x5_s"] / out["shuffle_lock_110x5_noproofs_s"]
    out["modexp_over_mult"] = out["modexp_ms"] / out["mult_ms"]

    if args.json:
        print(json.dumps({k: round(v, 6) if isinstance(v, float) else v for k, v in out.items()}))
        return
    print(f"deck service benchmark: {out['cores']} cores, medians of {r} runs, in-process peers")
    print(f"  one scalar multiplication          {out['mult_ms']:.4f} ms")
    print(f"  one point validation               {out['validate_ms']:.4f} ms")
    for n in (2, 3, 4, 5):
        print(f"  shuffle+lock 110 cards x {n} peers    {out[f'shuffle_lock_110x{n}_s']:.3f} s")
    print(f"  ... x 5 peers without lock proofs  {out['shuffle_lock_110x5_noproofs_s']:.3f} s"
          "   (target <= 0.3 s)")
    print(f"  open one card to one peer (x5)     {out['open_one_ms']:.2f} ms   (target <= 5 ms)")
    print(f"  open one card to all (x5)          {out['open_one_to_all_ms']:.2f} ms")
    print(f"  re-shuffle 40 locked slots (x5)    {out['reshuffle_40x5_s']:.3f} s")
    for tag, name in (("", "with lock proofs"), ("_noproofs", "without lock proofs")):
        print(f"  110x5 {name}: {out[f'mults_110x5{tag}']} multiplications + "
              f"{out[f'validations_110x5{tag}']} validations; floor {out[f'floor_110x5{tag}_s']:.3f} s "
              f"(with validations {out[f'floor_with_validation_110x5{tag}_s']:.3f} s); "
              f"measured / floor = {out[f'shuffle_lock_over_floor{tag}']:.2f}")
    print(f"  design count 3*n*m = {out['design_mults_110x5']} -> {out['design_floor_110x5_s']:.3f} s")
    print(f"  SRA, 2048-bit MODP, pure Python: {out['modexp_ms']:.2f} ms per exponentiation "
          f"({out['modexp_over_mult']:.0f}x a multiplication); 110x5 scaled from "
          f"{sample} cards: {out['modp2048_110x5_s']:.1f} s = "
          f"{out['modp2048_ratio']:.0f}x the same scheme on edwards25519")


if __name__ == "__main__":
    main()
