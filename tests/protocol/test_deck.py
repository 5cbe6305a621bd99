"""The deck protocol v2 with 2-5 honest in-process peers: conservation, dealing, knowledge,
unlinkability, no private message, no secret on the wire, uniformity, determinism, bindings."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from typing import Any

import pytest

from protocol.channel import InMemoryHub
from protocol.deck import DeckPeer
from protocol.errors import Equivocation
from protocol.kdf import PeerSecrets

from .deck_helpers import SPEC, TABLE, listener_reads, make_table, ok, seed, together


def deck_deliveries(hub: Any) -> list[tuple[int, int, dict[str, Any]]]:
    return [(s, to, b) for s, to, topic, b in hub.log if topic == "deck"]


def assert_only_broadcasts(hub: Any, n: int) -> None:
    """Every deck message went to every other seat, identical: there is no private message."""
    got: dict[tuple[int, int, str], list[tuple[int, dict[str, Any]]]] = {}
    for s, to, b in deck_deliveries(hub):
        got.setdefault((s, b["op"], b["step"]), []).append((to, b))
    for (s, _op, _step), deliveries in got.items():
        assert sorted(to for to, _ in deliveries) == [j for j in range(n) if j != s]
        assert all(b == deliveries[0][1] for _, b in deliveries)


@pytest.mark.parametrize(("n", "n_cards"), [(2, 40), (3, 24), (5, 16)])
def test_a_round_of_dealing(n: int, n_cards: int) -> None:
    """Shuffle, deal privately, open to several seats, peek, reorder, mix a hand, re-shuffle a
    subset, draw a random value, open everything: the multiset is conserved, each card is dealt
    once, every seat knows exactly what it was shown, re-encrypted slots share no ciphertext
    with anything before, and no message is private."""

    async def main() -> None:
        hub, peers = make_table(n, n_cards, tag=f"round{n}")
        everyone = list(range(n))
        slots = list(range(n_cards))
        assert all(p.known(s) == s for p in peers for s in slots)  # the initial deck is public
        await ok(peers, lambda p: p.shuffle(slots))
        assert all(p.known(s) is None for p in peers for s in slots)
        assert len({tuple(p.pub.cts) for p in peers}) == 1  # every peer holds the same deck

        hands = {q: [2 * q, 2 * q + 1] for q in everyone}
        dealt: dict[int, list[int]] = {}
        for q in everyone:
            res = await ok(peers, lambda p, q=q: p.open(hands[q], [q]))
            assert all(r is None for i, r in enumerate(res) if i != q)
            dealt[q] = res[q]
            for p in peers:  # knowledge: the receiver knows, nobody else does
                assert [p.known(s) for s in hands[q]] == (res[q] if p.seat == q else [None] * 2)
        all_dealt = [c for q in everyone for c in dealt[q]]
        assert len(set(all_dealt)) == len(all_dealt)  # each card dealt once

        # a card opened to two seats (seat 0 and the last): both read it, nobody else
        pair = [0, n - 1]
        shown = await ok(peers, lambda p: p.open([2 * n], pair))
        assert shown[0] == shown[n - 1] and all(shown[i] is None for i in range(1, n - 1))

        # the last seat peeks at the top three cards: the deck does not change
        top = slots[-3:]
        before = [list(p.pub.cts) for p in peers]
        peek = await ok(peers, lambda p: p.open(top, [n - 1]))
        assert [list(p.pub.cts) for p in peers] == before
        seen_before = {ct for p in peers for ct in p.pub.cts}

        # ... and puts them back in the order it chooses (reversed): a proven private reorder
        res = await ok(peers, lambda p: p.reorder(top, n - 1, list(reversed(top))
                                                  if p.seat == n - 1 else None))
        assert res[n - 1] == list(reversed(peek[n - 1]))
        assert all(r == [None] * 3 for i, r in enumerate(res) if i != n - 1)
        assert not {peers[0].pub.cts[s] for s in top} & seen_before  # unlinkable

        # seat 0 mixes its hand: it knows where its cards went, the others lose track
        res = await ok(peers, lambda p: p.reorder(hands[0], 0, mix=True))
        assert sorted(res[0]) == sorted(dealt[0])
        assert all(r == [None, None] for i, r in enumerate(res) if i != 0)

        # re-shuffle seat 0's hand with one pile card and the reordered cards
        mixed = hands[0] + [slots[-4]] + top
        seen_before = {ct for p in peers for ct in p.pub.cts}
        await ok(peers, lambda p: p.shuffle(mixed))
        assert not {peers[0].pub.cts[s] for s in mixed} & seen_before
        assert all(p.known(s) is None for p in peers for s in mixed)

        values = await ok(peers, lambda p: p.random(n))
        assert len(set(values)) == 1 and 0 <= values[0] < n

        final = await ok(peers, lambda p: p.open_all(slots))
        assert all(f == final[0] for f in final)
        assert sorted(final[0]) == list(range(n_cards))  # the multiset is conserved
        for q in everyone[1:]:  # untouched hands still hold what was dealt
            assert [final[0][s] for s in hands[q]] == dealt[q]
        assert set(dealt[0] + peek[n - 1]) <= {final[0][s] for s in mixed}
        digests = await ok(peers, lambda p: p.finish())
        assert len(set(digests)) == 1
        assert_only_broadcasts(hub, n)

    asyncio.run(main())


def test_no_seed_or_key_share_ever_goes_on_the_wire() -> None:
    async def main() -> Any:
        hub, peers = make_table(3, 8, tag="wire")
        await ok(peers, lambda p: p.shuffle(list(range(8))))
        await ok(peers, lambda p: p.open([0], [1]))
        await ok(peers, lambda p: p.open([1, 2], [0, 2]))
        await ok(peers, lambda p: p.random(3))
        await ok(peers, lambda p: p.finish())
        return hub, peers

    hub, peers = asyncio.run(main())
    wire = repr([b for _, _, b in deck_deliveries(hub)])
    for p in peers:
        assert p.secrets.seed.hex() not in wire
        assert p.x.hex() not in wire


def test_a_passive_listener_decodes_no_card_that_was_not_opened_to_everyone() -> None:
    """Everything on the wire, to a listener: every plain share of every opening. For every card
    opened to some seats only, combining all the published plain shares gives no card point (the
    receivers' own shares never leave them; the shares they need from each other are encrypted
    to them); every card opened to everyone decodes."""

    async def main() -> Any:
        hub, peers = make_table(3, 10, tag="listen")
        await ok(peers, lambda p: p.shuffle(list(range(10))))
        await ok(peers, lambda p: p.open([0, 1], [1]))
        await ok(peers, lambda p: p.open([2, 3], [0, 2]))
        await ok(peers, lambda p: p.reorder([2, 3], 0, mix=True))
        await ok(peers, lambda p: p.open([2, 3], [0, 1]))
        await ok(peers, lambda p: p.open([4], [0, 1, 2]))
        return hub, peers

    hub, peers = asyncio.run(main())
    reads = listener_reads(peers[0].params, [(s, b) for s, _to, b in deck_deliveries(hub)])
    assert len(reads["private"]) == 6 and all(c is None for _, _, c in reads["private"])
    assert [(s, c) for _, s, c in reads["public"]] == [(4, peers[0].known(4))]


class Lazy(DeckPeer):
    """Keeps the identity permutation (and is otherwise honest: its proofs hold)."""

    def _permutation(self, op: int, inp: bytes, m: int) -> list[int]:
        return list(range(m))


#: chi-square critical value, 5 degrees of freedom, p = 0.001
CHI2_5_999 = 20.515


@pytest.mark.parametrize("honest", [1, None])
def test_shuffles_are_uniform_with_a_single_honest_seat(honest: int | None) -> None:
    """Three seats shuffle three slots 90 times, opening them each time; all but ``honest`` keep
    the identity permutation. The 6 orders come out uniformly (chi-square) as long as one seat
    is honest; with none (control) they never change (a deterministic check: 30 shuffles show it
    as well as 90, the chi-square needs its 90)."""
    trials = 90 if honest is not None else 30

    async def main() -> list[list[int]]:
        classes = {p: Lazy for p in range(3) if p != honest}
        _, peers = make_table(3, 3, tag=f"chi{honest}", classes=classes)
        out = []
        for _ in range(trials):
            await ok(peers, lambda p: p.shuffle([0, 1, 2]))
            out.append((await ok(peers, lambda p: p.open_all([0, 1, 2])))[0])
        return out

    orders = asyncio.run(main())
    perms = list(itertools.permutations(range(3)))
    counts: Counter[int] = Counter()
    prev = [0, 1, 2]
    for cur in orders:  # the permutation each trial applied to the previous order
        counts[perms.index(tuple(prev.index(c) for c in cur))] += 1
        prev = cur
    stat = sum((counts[c] - trials / 6) ** 2 / (trials / 6) for c in range(6))
    if honest is None:
        assert counts[0] == trials
    else:
        assert stat < CHI2_5_999, counts


def test_joint_random_values_are_uniform_and_agreed() -> None:
    async def main() -> list[list[int]]:
        _, peers = make_table(3, 4, tag="rnd")
        return [await ok(peers, lambda p: p.random(6)) for _ in range(300)]

    draws = asyncio.run(main())
    assert all(len(set(d)) == 1 for d in draws)
    counts = Counter(d[0] for d in draws)
    stat = sum((counts[c] - 50) ** 2 / 50 for c in range(6))
    assert stat < CHI2_5_999, counts


def test_seeds_and_inputs_determine_every_message() -> None:
    """Secrets come only from the seed and the operation's input: the same seeds and operations
    give the same messages (a restarted seat re-sends them byte for byte); another seed for one
    seat changes that seat's messages first."""

    async def run(tag1: str) -> list[Any]:
        _, peers = make_table(3, 12, tag="det")
        peers[1].secrets = PeerSecrets(seed(1, tag1))
        peers[1].x = peers[1].secrets.key(TABLE, peers[1].params.digest)
        await ok(peers, lambda p: p.shuffle(list(range(12))))
        await ok(peers, lambda p: p.open([0, 1], [2]))
        await ok(peers, lambda p: p.reorder([3, 4], 1, mix=True))
        await ok(peers, lambda p: p.random(5))
        return [p.record()["messages"] for p in peers]

    a, b, c = asyncio.run(run("det")), asyncio.run(run("det")), asyncio.run(run("other"))
    assert a == b
    assert a != c
    first_diff = next(m for m, m2 in zip(a[0], c[0], strict=True) if m != m2)
    assert first_diff[0] == 1  # the first message that changes is seat 1's own


def test_per_operation_secrets_depend_on_the_input() -> None:
    sec = PeerSecrets(seed(0))
    perms = {tuple(sec.permutation("perm", 5, bytes([i]) * 32, 20)) for i in range(8)}
    assert len(perms) == 8  # same op number, other input: other permutation
    assert sec.seed32("reenc", 5, b"a" * 32) != sec.seed32("reenc", 5, b"b" * 32)
    assert sec.permutation("perm", 5, b"a" * 32, 20) == sec.permutation("perm", 5, b"a" * 32, 20)


def test_degenerate_operations() -> None:
    """Empty and one-slot shuffles and openings, random(1), a reorder of one unknown card."""

    async def main() -> list[Any]:
        _, peers = make_table(3, 6, tag="edge")
        assert await ok(peers, lambda p: p.shuffle([])) == [[], [], []]
        assert await ok(peers, lambda p: p.shuffle([5])) == [[None]] * 3
        assert await ok(peers, lambda p: p.open([], [0])) == [[], None, None]
        five = await ok(peers, lambda p: p.open([5], [0]))
        assert await ok(peers, lambda p: p.random(1)) == [0, 0, 0]
        # a reorder of one slot moves nothing: seat 0, shown the card, still knows it (the
        # engine's re-encryption, SPEC 5.7); seat 2, which reordered it unseen, does not
        assert await ok(peers, lambda p: p.reorder([5], 2, [5] if p.seat == 2 else None)) == \
            [five[0], [None], [None]]
        final = await ok(peers, lambda p: p.open_all(list(range(6))))
        assert final[0][5] == five[0][0] and sorted(final[0]) == list(range(6))
        return await ok(peers, lambda p: p.finish())

    assert len(set(asyncio.run(main()))) == 1


def test_seats_told_different_games_stop_at_the_key_step_naming_nobody() -> None:
    """Seat 3 plays another game (another description): the key-share step, the table's first
    operation, binds each seat's description digest, so every seat stops there. Nobody is named:
    the host may have seated seat 3 at another game, or seat 3's message lies, and in a deck
    without the host's signed games (no ``seating``) nothing signed says which (SPEC.md 5.2;
    tests/protocol/test_seating.py has them). (This test pinned seat 0, the host, before: a bare
    claim framed it.)"""

    async def main() -> list[Any]:
        hub = InMemoryHub(3)
        peers = [DeckPeer(hub.channel(s), TABLE, SPEC if s < 2 else SPEC + "+other-options", 6,
                          seed(s), 5) for s in range(3)]
        return await together(peers, lambda p: p.shuffle(list(range(6))))

    for r in asyncio.run(main()):
        assert isinstance(r, Equivocation) and r.peer is None and r.op == 0 and r.step == "key", r
