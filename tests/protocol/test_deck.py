"""The deck protocol with 2-5 honest in-process peers: conservation, dealing, knowledge, freshness,
uniformity."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from typing import Any

import pytest

from protocol import group as g
from protocol.deck import DeckPeer
from protocol.kdf import PeerSecrets
from protocol.steps import shuffle_chain

from .deck_helpers import make_table, ok, seed


def all_points_of(peer: DeckPeer) -> set[bytes]:
    return set(peer.seen)


@pytest.mark.parametrize(("n", "n_cards"), [(2, 86), (3, 110), (4, 86), (5, 110)])
def test_a_round_of_dealing(n: int, n_cards: int) -> None:
    """Shuffle, deal privately, peek, reorder, re-shuffle known cards, draw a random value, open
    everything: the multiset is conserved, each card is dealt once, every seat knows exactly what
    it was shown, and re-randomised slots share no ciphertext with anything before."""

    async def main() -> None:
        hub, peers = make_table(n, n_cards, tag=f"round{n}")
        everyone = list(range(n))
        slots = list(range(n_cards))
        await ok(peers, lambda p: p.shuffle(slots))
        assert all(p.known(s) is None for p in peers for s in slots)
        assert len({tuple(p.ct) for p in peers}) == 1  # every peer holds the same deck

        # deal three cards to each seat, privately
        hands = {q: [3 * q, 3 * q + 1, 3 * q + 2] for q in everyone}
        dealt: dict[int, list[int]] = {}
        for q in everyone:
            res = await ok(peers, lambda p, q=q: p.open(hands[q], [q]))
            assert all(r is None for i, r in enumerate(res) if i != q)
            dealt[q] = res[q]
            for p in peers:  # knowledge: the receiver knows, nobody else does
                assert [p.known(s) for s in hands[q]] == (res[q] if p.seat == q else [None] * 3)
        all_dealt = [c for q in everyone for c in dealt[q]]
        assert len(set(all_dealt)) == len(all_dealt)  # each card dealt once

        # the last seat peeks at the top three cards of the pile: the pile does not change
        top = slots[-3:]
        before = [list(p.ct) for p in peers]
        peek = await ok(peers, lambda p: p.open(top, [n - 1]))
        assert [list(p.ct) for p in peers] == before
        seen_before = all_points_of(peers[0])

        # ... and puts them back in the order it chooses (reversed)
        order = list(reversed(top))
        res = await ok(peers, lambda p: p.reorder(top, n - 1, order if p.seat == n - 1 else None))
        assert res[n - 1] == list(reversed(peek[n - 1]))  # the arranger knows the new order
        assert all(r == [None] * 3 for i, r in enumerate(res) if i != n - 1)
        new_ct = {peers[0].ct[s] for s in top}
        assert not new_ct & seen_before  # unlinkable: no old ciphertext survives

        # re-shuffle seat 0's hand (known to seat 0) with one pile card and the reordered cards
        mixed = hands[0] + [slots[-4]] + top
        seen_before = all_points_of(peers[0])
        await ok(peers, lambda p: p.shuffle(mixed))
        assert not {peers[0].ct[s] for s in mixed} & seen_before
        assert all(p.known(s) is None for p in peers for s in mixed)

        values = await ok(peers, lambda p: p.random(n))
        assert len(set(values)) == 1 and 0 <= values[0] < n

        final = await ok(peers, lambda p: p.open_all(slots))
        assert all(f == final[0] for f in final)
        assert sorted(final[0]) == list(range(n_cards))  # the multiset is conserved
        for q in everyone[1:]:  # untouched hands still hold what was dealt
            assert [final[0][s] for s in hands[q]] == dealt[q]

        reports = await ok(peers, lambda p: p.audit())
        for r in reports:
            assert r.clean, r.verdict
            assert r.values == final[0]
            assert r.outcomes[-1]["values"] == final[0]
        # the re-shuffled slots hold seat 0's hand, the peeked cards and the card of slots[-4]
        before_mixed = reports[0].outcomes[0]["values"][slots[-4]]
        assert sorted(final[0][s] for s in mixed) == sorted(dealt[0] + peek[n - 1] + [before_mixed])
        for o in reports[0].outcomes:  # every shuffle conserved its slots' cards
            if o["kind"] == "shuffle":
                assert len(set(o["values"])) == len(o["slots"])
        # no private message reached a seat that was not a receiver of that opening
        for _sender, to, _topic, body in hub.log:
            if body.get("step") == "keys" and len(body["to"]) < n:
                assert to in body["to"]

    asyncio.run(main())


def _candidates(sec: PeerSecrets, op: int, chain: list[tuple[str, int]], seat: int, position: int,
                old_key: bytes | None) -> list[bytes]:
    """Every combination of ``seat``'s own layers for one position of one shuffle operation."""
    layers = [sec.shuffle_scalar(op), sec.lock_key(op, position)]
    if ("rekey", seat) in chain:
        layers.append(sec.rekey_scalar(op))
    if ("blind", seat) in chain:
        layers.append(sec.blind_scalar(op))
    if old_key is not None:
        layers.append(g.scalar_inv(old_key))
    out = [g.ONE]
    for r in range(1, len(layers) + 1):
        for combo in itertools.combinations(layers, r):
            out.append(g.scalar_inv(g.scalar_product(combo)))
    return out


def _leaks(hub: Any, peers: list[DeckPeer], extra: list[tuple[int, dict[str, Any]]] = ()
           ) -> list[str]:
    """Per-seat knowledge model: strip every point a seat received with every combination of its
    own layers; report each card read at a position whose card the seat did not know."""
    n, n_cards = len(peers), peers[0].params.n_cards
    _, index = g.card_table(peers[0].params.table_id, peers[0].params.deck_spec, n_cards)
    received: dict[int, dict[int, list[dict[str, Any]]]] = {p: {} for p in range(n)}
    for _sender, to, _topic, body in list(hub.log) + [(None, t, None, b) for t, b in extra]:
        received[to].setdefault(body["op"], []).append(body)
    leaks = []
    for peer in peers:
        p, sec = peer.seat, peer.secrets
        lock_ref: list[tuple[int, int] | None] = [None] * n_cards
        known: list[int | None] = list(range(n_cards))  # the seat's knowledge, op by op
        for op, desc in enumerate(peer.ops):
            if desc["kind"] == "open":
                if p in desc["to"]:
                    for s in desc["slots"]:
                        known[s] = peer.results[op]["result"][desc["slots"].index(s)]
                continue
            if desc["kind"] != "shuffle":
                continue
            S, by = desc["slots"], desc["by"]
            chain = shuffle_chain(n, [lock_ref[s] is None for s in S], n_cards,
                                  peer.params.lock_proofs)
            old_keys = [None if lock_ref[s] is None else sec.lock_key(*lock_ref[s]) for s in S]
            # the card the seat can place at each position, while it can follow the positions
            pos_card: list[int | None] | None = [known[s] for s in S]
            msgs = [(b["step"], b["seat"], b) for b in received[p].get(op, [])]
            for step, j in chain:
                if step == "shuffle" and pos_card is not None and j != p and (by is None or by == j):
                    pos_card = None  # someone else permuted: the seat lost track
                if step == "shuffle" and j == p and pos_card is not None:
                    perm = sec.permutation(op, len(S)) if by is None else (
                        peer.orders[op] if by == p else list(range(len(S))))
                    pos_card = [pos_card[i] for i in perm]
                for body in (b for st, sj, b in msgs if (st, sj) == (step, j) and j != p):
                    vectors = [body["points"]] + ([body["locked"]] if step == "lock" else [])
                    for vec in vectors:
                        for i, hx in enumerate(vec):
                            pt = bytes.fromhex(hx)
                            for x in _candidates(sec, op, chain, p, i, old_keys[i]):
                                c = index.get(g.mul(x, pt))
                                if c is not None and (pos_card is None or pos_card[i] != c):
                                    leaks.append(f"seat {p} reads card {c} at op {op} {step}/{j} "
                                                 f"position {i}")
            for s in S:
                lock_ref[s] = (op, S.index(s))
                known[s] = None
            if by == p and all(v is not None for v in peer.results[op]["result"]):
                for s, v in zip(S, peer.results[op]["result"], strict=True):
                    known[s] = v
    return leaks


@pytest.mark.parametrize("n", [2, 3])
def test_no_seat_can_strip_its_way_to_a_hidden_card(n: int) -> None:
    """Every point a seat ever receives, stripped of any combination of its own layers, is a card
    only where the seat already knows that card's position."""

    async def main() -> list[Any]:
        hub, peers = make_table(n, 14, tag="leak")
        await ok(peers, lambda p: p.shuffle(list(range(10))))  # partial plain shuffle: blind step
        await ok(peers, lambda p: p.open([0, 1], [0]))
        await ok(peers, lambda p: p.shuffle([0, 1, 2, 10, 11]))  # known, hidden and plain slots
        await ok(peers, lambda p: p.reorder([3, 4], 1, [4, 3] if p.seat == 1 else None))
        return [hub, peers]

    hub, peers = asyncio.run(main())
    assert _leaks(hub, peers) == []


def test_naive_lock_order_would_leak_to_seat_0_of_two() -> None:
    """Why the lock step locks before it strips: had seat 1 published its stripped vector
    (``s1^-1`` applied, ``k1`` not yet) as a naive lock pass does, seat 0 would strip its own keys
    and read the whole order -- and the knowledge model above catches exactly that."""

    async def main() -> list[Any]:
        hub, peers = make_table(2, 10, tag="naive")
        await ok(peers, lambda p: p.shuffle(list(range(10))))
        return [hub, peers]

    hub, peers = asyncio.run(main())
    s1 = peers[1].secrets
    lock0 = next(b for s, b in peers[1].record()["messages"] if b["step"] == "lock" and s == 0)
    z0 = [bytes.fromhex(h) for h in lock0["points"]]  # k0 * s1 * C
    naive = g.mul_all(g.scalar_inv(s1.shuffle_scalar(0)), z0)  # k0 * C
    forged = dict(lock0, seat=1, locked=[p.hex() for p in naive], points=[p.hex() for p in naive])
    assert _leaks(hub, peers) == []
    leaks = _leaks(hub, peers, extra=[(0, forged)])
    assert len(leaks) == 2 * 10 and all(x.startswith("seat 0 reads card") for x in leaks)


class Lazy(DeckPeer):
    """Keeps the identity permutation (and is otherwise honest)."""

    def _permutation(self, op: int, m: int) -> list[int]:
        return list(range(m))


#: chi-square critical value, 5 degrees of freedom, p = 0.001
CHI2_5_999 = 20.515


@pytest.mark.parametrize("honest", [0, 2, None])
def test_shuffles_are_uniform_with_a_single_honest_seat(honest: int | None) -> None:
    """Three seats re-shuffle three slots 120 times; all but ``honest`` keep the identity
    permutation. The 6 orders come out uniformly (chi-square) as long as one seat is honest;
    with none (control) they do not. The audit names the lazy seats."""
    trials = 120

    async def main() -> list[Any]:
        classes = {p: Lazy for p in range(3) if p != honest}
        _, peers = make_table(3, 3, tag=f"chi{honest}", classes=classes, lock_proofs=False)
        for _ in range(trials):
            await ok(peers, lambda p: p.shuffle([0, 1, 2]))
        return await ok(peers, lambda p: p.audit())

    reports = asyncio.run(main())
    perms = list(itertools.permutations(range(3)))
    # every trial starts from the previous order: count the permutation each trial applied
    counts: Counter[int] = Counter()
    prev = [0, 1, 2]
    for o in reports[0].outcomes:
        cur = o["values"]
        counts[perms.index(tuple(prev.index(c) for c in cur))] += 1
        prev = cur
    stat = sum((counts[c] - trials / 6) ** 2 / (trials / 6) for c in range(6))
    if honest is None:
        assert stat > CHI2_5_999 and counts[0] == trials
    else:
        assert stat < CHI2_5_999, counts
    lazy = {d.culprit for d in reports[0].deviations}
    assert lazy == {p for p in range(3) if p != honest}


def test_joint_random_values_are_uniform_and_agreed() -> None:
    async def main() -> list[list[int]]:
        _, peers = make_table(3, 4, tag="rnd")
        out = []
        for _ in range(300):
            out.append(await ok(peers, lambda p: p.random(6)))
        return out

    draws = asyncio.run(main())
    assert all(len(set(d)) == 1 for d in draws)
    counts = Counter(d[0] for d in draws)
    stat = sum((counts[c] - 50) ** 2 / 50 for c in range(6))
    assert stat < CHI2_5_999, counts


def test_seeds_determine_every_message() -> None:
    """Secrets come only from the seed: the same seeds and operations give the same messages,
    another seed for one seat changes that seat's messages."""

    async def run(tag1: str) -> list[Any]:
        _, peers = make_table(3, 12, tag="det")
        peers[1].secrets = PeerSecrets(seed(1, tag1))
        await ok(peers, lambda p: p.shuffle(list(range(12))))
        await ok(peers, lambda p: p.open([0, 1], [2]))
        await ok(peers, lambda p: p.random(5))
        return [p.record()["messages"] for p in peers]

    a, b, c = asyncio.run(run("det")), asyncio.run(run("det")), asyncio.run(run("other"))
    assert a == b
    assert a != c
    first_diff = next(m for m, m2 in zip(a[0], c[0], strict=True) if m != m2)
    assert first_diff[0] == 1  # the first message that changes is seat 1's own


@pytest.mark.parametrize("proofs", [True, False])
def test_degenerate_operations(proofs: bool) -> None:
    """Empty and one-slot shuffles and openings, random(1), a reorder of one unknown card."""

    async def main() -> list[Any]:
        _, peers = make_table(3, 6, tag="edge", lock_proofs=proofs)
        assert await ok(peers, lambda p: p.shuffle([])) == [[], [], []]
        assert await ok(peers, lambda p: p.shuffle([5])) == [[None]] * 3
        assert await ok(peers, lambda p: p.open([], [0])) == [[], None, None]
        five = await ok(peers, lambda p: p.open([5], [0]))
        assert await ok(peers, lambda p: p.random(1)) == [0, 0, 0]
        assert await ok(peers, lambda p: p.reorder([5], 2, [5] if p.seat == 2 else None)) == [[None]] * 3
        final = await ok(peers, lambda p: p.open_all(list(range(6))))
        assert final[0][5] == five[0][0] and sorted(final[0]) == list(range(6))
        return await ok(peers, lambda p: p.audit())

    assert all(r.clean for r in asyncio.run(main()))
