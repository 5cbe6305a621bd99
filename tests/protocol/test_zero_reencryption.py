"""Red team 10 #3: a shuffle step that leaves a ciphertext as it was (re-encryption with r = 0,
proven as any re-encryption is: the proof of shuffle holds for r = 0).

Why it matters: the engine re-encrypts a slot before an opening or a claim would publish the
last decryption share of its ciphertext (``GameState._reencrypt_first``, SPEC.md 5.7), so that
the shares published of the old ciphertext are worthless. A seat asked to do that re-encryption
that sends its input back unchanged keeps every old share valid: the next opening completes them
and anyone holding the deck messages -- every seat, every transcript -- decodes a card some seat
may not see. The red team's listener read 5 cards that way in two 3-seat games of The Girl and
the Robot, and nobody was named. In a full shuffle, an output equal to its input tells everyone
where that card went. Now every honest seat (and the audit) names the shuffler at that step."""

from __future__ import annotations

import asyncio
from typing import Any

from protocol import elgamal as eg
from protocol import group as g
from protocol import proofs as pf
from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import CheatDetected
from protocol.steps import context, vec_digest

from .deck_helpers import first_errors, make_table, ok

N = 6


def lazy(keep: int, size: int | None = None):
    """A DeckPeer whose shuffle steps (of ``size`` slots, or all) leave output ``keep`` equal to
    input ``keep`` (the identity permutation, r = 0 there, fresh randomness elsewhere) with a
    valid proof."""

    class Lazy(DeckPeer):
        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            pub = self.pub
            real = pub.make_shuffle

            def make_shuffle(sec, op, seat, cur, perm):
                if size is not None and len(cur) != size:
                    return real(sec, op, seat, cur, perm)
                assert pub.y is not None
                inp = vec_digest(cur)
                rands = [g.sc(0) if i == keep else g.random_scalar() for i in range(len(cur))]
                outs = [c if i == keep else eg.reencrypt(pub.y, c, r)
                        for i, (c, r) in enumerate(zip(cur, rands, strict=True))]
                ctx = context(pub.p, op, "shuffle", seat, inp)
                proof = pf.prove_shuffle(pub.y, list(cur), outs, list(range(len(cur))), rands,
                                         ctx, sec.seed32("proof", op, ctx))
                return outs, {"key": pub.key_hex, "prev": inp.hex(),
                              "cts": [pf.ct_to_json(c) for c in outs],
                              "proof": proof}

            pub.make_shuffle = make_shuffle

    return Lazy


def named_everywhere(errors: list[Any], peers: list[DeckPeer], culprit: int, op: int) -> None:
    for seat, err in enumerate(errors):
        if seat == culprit:
            continue
        assert isinstance(err, CheatDetected), f"seat {seat}: {err!r}"
        assert (err.peer, err.op, err.step) == (culprit, op, "shuffle"), f"seat {seat}: {err!r}"
        assert "unchanged" in str(err)
        rec = peers[seat].record()
        v = audit(rec["params"], rec["messages"]).verdict
        assert (v.culprit, v.op, v.step) == (culprit, op, "shuffle"), v


def run(culprit: int, ops: list[Any], keep: int = 0, size: int | None = None
        ) -> tuple[list[Any], list[DeckPeer]]:
    _, peers = make_table(3, N, tag=f"lazy{culprit}", classes={culprit: lazy(keep, size)})
    return asyncio.run(first_errors(peers, ops)), peers


def test_a_one_slot_re_encryption_sent_back_unchanged_is_named() -> None:
    """The engine's re-encryption: seat 1 privately re-encrypts one slot it knows (a mix of
    that slot alone) and sends the ciphertext back as it was."""
    errors, peers = run(1, [lambda p: p.shuffle(list(range(N))),
                            lambda p: p.reorder([2], 1, mix=True)], size=1)
    named_everywhere(errors, peers, 1, 2)


def test_a_shuffle_that_leaves_one_card_where_it_was_is_named() -> None:
    """In a full shuffle the same trick tells every seat where one card went."""
    errors, peers = run(2, [lambda p: p.shuffle(list(range(N)))], keep=3)
    named_everywhere(errors, peers, 2, 1)


def test_honest_shuffles_and_re_encryptions_pass() -> None:
    """The control: the same operations with every seat honest."""

    async def main() -> list[Any]:
        _, peers = make_table(3, N, tag="lazy-control")
        await ok(peers, lambda p: p.shuffle(list(range(N))))
        await ok(peers, lambda p: p.reorder([2], 1, mix=True))
        return await ok(peers, lambda p: p.open_all(list(range(N))))

    final = asyncio.run(main())
    assert sorted(final[0]) == list(range(N)) and final[0] == final[1] == final[2]
