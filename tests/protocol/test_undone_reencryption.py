"""Red team 26: a re-encryption *undone* -- a seat's shuffle step that puts back a ciphertext the
deck held before (not its input: red team 10's check compared the outputs with the inputs only).

Why it matters (docs/deck.md, "Mind the shares"; SPEC.md 5.7): the engine re-encrypts a card
before an opening would publish the last missing decryption share of its ciphertext, so the
shares already published of the old ciphertext are worthless. A seat that re-encrypted a card
itself knows the randomness it added; at its next re-encryption of that card it adds the
opposite, which is a valid re-encryption with a valid proof of shuffle, and the slot holds the
old ciphertext again. The next opening then completes the old shares, and anyone holding the
deck messages (every seat, every transcript, a listener) decodes the card.

The attack here, as The Girl and the Robot's Steal plays it: the cheater (seat 2) is dealt a card
(opened to it alone: seats 1 and 3 publish their shares of ciphertext X0), mixes it into its
hand (X1 = X0 re-encrypted by r), and when seat 3 takes the card, re-encrypts it "first" by -r:
the slot holds X0 again, the opening to seat 3 publishes seat 1's and seat 2's shares of X0, and
seat 1, who may not see the card, reads it from the record. On the code before this test the
step passed every check and nobody was named; every honest seat (and the audit of its record)
now names the cheater at that step.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from protocol import elgamal as eg
from protocol import group as g
from protocol import proofs as pf
from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import CheatDetected
from protocol.steps import context, vec_digest

from .deck_helpers import make_table, ok, together

N = 6
CHEAT = 1  # seat 2 on the screen
TAKER = 2  # the seat the card goes to
SLOT = 0


def undoer(offset: int = 0) -> type[DeckPeer]:
    """A DeckPeer whose private reorders (its hand mixes, its one-slot re-encryptions) remember
    the randomness they added to each card, and undo it whenever they re-encrypt a ciphertext
    they made (randomness -r: a valid proof of shuffle); with an ``offset`` k, it goes back to
    the old ciphertext plus k·(G, Y) instead (randomness k - r), a step away any listener can
    try."""

    class Undo(DeckPeer):
        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            pub = self.pub
            made: dict[Any, tuple[Any, int]] = {}  # output -> (its input, randomness added)

            def make_shuffle(sec, op, seat, cur, perm):
                assert pub.y is not None
                inp = vec_digest(cur)
                fresh = g.nonce_stream_int(sec.seed32("reenc", op, inp), b"undo")
                outs, rands = [], []
                for i in range(len(cur)):
                    src = cur[perm[i]]
                    if src in made:  # undo: back to the ciphertext it re-encrypted
                        old, r = made[src]
                        rand = (offset - r) % g.L
                    else:
                        rand = fresh()
                    out = eg.reencrypt(pub.y, src, g.sc(rand))
                    if src in made:
                        assert out == _step(pub.y, made[src][0], offset)
                    else:
                        made[out] = (src, rand)
                    outs.append(out)
                    rands.append(g.sc(rand))
                ctx = context(pub.p, op, "shuffle", seat, inp)
                proof = pf.prove_shuffle(pub.y, list(cur), outs, list(perm), rands, ctx,
                                         sec.seed32("proof", op, ctx))
                return outs, {"key": pub.key_hex, "prev": inp.hex(),
                              "cts": [pf.ct_to_json(c) for c in outs], "proof": proof}

            self._own_reorder = make_shuffle

        async def _shuffle_op(self, op: int, desc: dict[str, Any]) -> Any:
            real = self.pub.make_shuffle
            if desc["by"] == self.seat:
                self.pub.make_shuffle = self._own_reorder  # type: ignore[method-assign]
            try:
                return await super()._shuffle_op(op, desc)
            finally:
                self.pub.make_shuffle = real  # type: ignore[method-assign]

    return Undo


def _step(y: bytes, ct: Any, k: int) -> Any:
    """``ct + k·(G, Y)``."""
    return ct if k == 0 else eg.reencrypt(y, ct, g.sc(k))


def _listener_reads(rec: dict[str, Any], peer: DeckPeer, offsets: int = 1) -> int | None:
    """The card in SLOT as someone holding only ``rec`` (the public deck messages) reads it: a
    ciphertext SLOT held whose plain shares from every seat are in the record, or can be made
    from the shares of an earlier one a step ``k·(G, Y)`` away (``k < offsets``: seat j's share
    of ``X + k·(G, Y)`` is its share of ``X`` plus ``k·Y_j``), decoded."""
    ys = {s: bytes.fromhex(b["y"]) for s, b in rec["messages"] if b.get("step") == "key"}
    y = g.sum_points([ys[j] for j in range(peer.n)])
    shares: dict[str, dict[int, bytes]] = {}  # by the ciphertext they are of (its ``prev``)
    for sender, body in rec["messages"]:
        if body.get("step") == "shares" and body["slots"] == [SLOT] and body["shares"]:
            shares.setdefault(body["prev"], {})[sender] = bytes.fromhex(body["shares"][0])
    history = _slot_history(rec)
    for ct in history:
        got = dict(shares.get(vec_digest([ct]).hex(), {}))
        for old in history:
            for k in range(offsets):
                if _step(y, old, k) != ct:
                    continue
                for j, d in shares.get(vec_digest([old]).hex(), {}).items():
                    got.setdefault(j, d if k == 0 else g.add(d, g.mul(g.sc(k), ys[j])))
        if len(got) == peer.n:
            return peer.pub.card_index.get(eg.decode(ct, [got[j] for j in range(peer.n)]))
    return None


def _slot_history(rec: dict[str, Any]) -> list[tuple[bytes, bytes]]:
    """Every ciphertext SLOT held after a shuffle step (the last seat's output of a full
    shuffle, each one-slot re-encryption)."""
    out = []
    for _, body in rec["messages"]:
        if body.get("step") == "shuffle":
            i = body["slots"].index(SLOT) if SLOT in body["slots"] else None
            if i is not None:
                out.append(pf.ct_from_json(body["cts"][i]))
    return out


@pytest.mark.parametrize("hand", [[SLOT], [SLOT, 3]], ids=["one-card", "two-cards"])
def test_a_re_encryption_undone_to_a_ciphertext_whose_shares_are_out_is_named(hand) -> None:
    async def main() -> tuple[list[Any], list[DeckPeer]]:
        _, peers = make_table(3, N, tag="undo", classes={CHEAT: undoer()})
        await ok(peers, lambda p: p.shuffle(list(range(N))))
        card = (await ok(peers, lambda p: p.open(hand, [CHEAT])))[CHEAT][0]
        # the cheater mixes its hand (with two cards, the card may change slots: then the card
        # now in SLOT, whose shares are just as public, is the one that goes)
        await ok(peers, lambda p: p.reorder(hand, CHEAT, mix=True))
        card = peers[CHEAT].known(SLOT)
        # TAKER takes it: the engine re-encrypts it first, by the seat that knows it
        errors = await together(peers, lambda p: p.reorder([SLOT], CHEAT, mix=True))
        if not any(isinstance(e, BaseException) for e in errors):
            await ok(peers, lambda p: p.open([SLOT], [TAKER]))
        return [card, *errors], peers

    (card, *errors), peers = asyncio.run(main())
    listener = peers[0]  # seat 1: never shown this card
    read = _listener_reads(listener.record(), listener)
    assert read is None, f"seat 1 read the card ({read}; it is {card}) from the public record"
    named_everywhere(errors, peers)


def named_everywhere(errors: list[Any], peers: list[DeckPeer]) -> None:
    for seat, err in enumerate(errors):
        if seat == CHEAT:
            continue
        assert isinstance(err, CheatDetected), f"seat {seat + 1}: {err!r}"
        assert (err.peer, err.op, err.step) == (CHEAT, 4, "shuffle"), f"seat {seat + 1}: {err!r}"
        assert "held before" in err.reason, err.reason
        rec = peers[seat].record()
        v = audit(rec["params"], rec["messages"]).verdict
        assert (v.culprit, v.op, v.step) == (CHEAT, 4, "shuffle"), v


def steal(cheater: type[DeckPeer], tag: str) -> tuple[int, list[Any], list[DeckPeer]]:
    """The cheater is dealt SLOT, mixes it, and re-encrypts it before TAKER takes it."""

    async def main() -> tuple[list[Any], list[DeckPeer]]:
        _, peers = make_table(3, N, tag=tag, classes={CHEAT: cheater})
        await ok(peers, lambda p: p.shuffle(list(range(N))))
        card = (await ok(peers, lambda p: p.open([SLOT], [CHEAT])))[CHEAT][0]
        await ok(peers, lambda p: p.reorder([SLOT], CHEAT, mix=True))
        errors = await together(peers, lambda p: p.reorder([SLOT], CHEAT, mix=True))
        if not any(isinstance(e, BaseException) for e in errors):
            await ok(peers, lambda p: p.open([SLOT], [TAKER]))
        return [card, *errors], peers

    (card, *errors), peers = asyncio.run(main())
    return card, errors, peers


@pytest.mark.xfail(strict=True, reason="red team 26, a known limit (SPEC.md 10): a seat that "
                   "knows a card can leak it through its own re-encryption to anyone who tries "
                   "the step it took (here k = 1 from an old ciphertext), as it can by telling "
                   "its randomness; no check tells that step from a fresh one")
def test_a_re_encryption_undone_but_for_a_public_step_is_named() -> None:
    card, errors, peers = steal(undoer(offset=1), "undo-offset")
    read = _listener_reads(peers[0].record(), peers[0], offsets=4)
    assert read is None, f"seat 1 read the card ({read}; it is {card}) from the public record"
    named_everywhere(errors, peers)


def test_honest_re_encryptions_of_one_card_pass_again_and_again() -> None:
    """The control: the same operations, every seat honest, and the card taken over and back."""

    async def main() -> list[Any]:
        _, peers = make_table(3, N, tag="undo-control")
        await ok(peers, lambda p: p.shuffle(list(range(N))))
        first = (await ok(peers, lambda p: p.open([SLOT], [CHEAT])))[CHEAT][0]
        for _ in range(3):
            await ok(peers, lambda p: p.reorder([SLOT], CHEAT, mix=True))
        assert (await ok(peers, lambda p: p.open([SLOT], [TAKER])))[TAKER][0] == first
        await ok(peers, lambda p: p.reorder([SLOT], TAKER, mix=True))
        rec = peers[0].record()
        assert audit(rec["params"], rec["messages"]).verdict.clean
        return await ok(peers, lambda p: p.open_all(list(range(N))))

    final = asyncio.run(main())
    assert sorted(final[0]) == list(range(N)) and final[0] == final[1] == final[2]


def test_in_a_game_of_the_girl_and_the_robot_the_undo_is_named_at_once() -> None:
    """The same cheater at seat 2 of a real game (three seats, the engine's easy bots, every
    seat's deck in process): it undoes its re-encryption at its first private reorder (a hand
    mix or the engine's re-encryption) of a card it had re-encrypted before. On the code before this test the game went on to its end and nobody was
    named (in six such games the cheater made 0 to 4 more privately opened ciphertexts readable
    from the record); now both honest seats and the audit name it at that step (deck operation
    20 of this deal)."""
    from p2pcards.bots.registry import make_bot
    from p2pcards.deck_dealer import DeckDealer
    from p2pcards.games import new_game

    from .inproc import play_in_process

    game, n, seed = "girl-and-robot", 3, 2
    _, peers = make_table(n, new_game(game, n).n_cards, tag=f"undo-game-{seed}", timeout=60,
                          classes={CHEAT: undoer()})
    dealers = [DeckDealer(d, p) for p, d in enumerate(peers)]
    views = [new_game(game, n).view(p) for p in range(n)]
    bots = [make_bot(game, p, "easy", seed * 10 + p) for p in range(n)]
    with pytest.raises(CheatDetected):
        asyncio.run(play_in_process(views, dealers, bots))
    for seat in (0, 2):
        err = peers[seat].failed
        assert isinstance(err, CheatDetected) and err.peer == CHEAT, f"seat {seat + 1}: {err!r}"
        assert (err.op, err.step) == (20, "shuffle") and "held before" in err.reason, err
        rec = peers[seat].record()
        v = audit(rec["params"], rec["messages"]).verdict
        assert (v.culprit, v.op, v.step) == (CHEAT, 20, "shuffle"), v
