"""Claims about hidden cards (SPEC.md 5.7, the ``prove`` operation), attacked as a cheating
holder would: a seat that says its face-down card is one of a set when it is not.

Each attack is made by a prover that skips ``DeckPeer.prove``'s own refusal and sends a crafted
``member`` message; every honest seat must name it at that operation's ``member`` step, and the
audit of an honest seat's record must reach the same verdict. A bad share from a third seat names
that seat, a withheld proof names the prover, and nothing in the operation lets the others read
the card.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from protocol import elgamal as eg
from protocol import group as g
from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import CheatDetected, DeckTimeout
from protocol.proof_member import MEMBER_DOMAIN
from protocol.proofs import prove_member
from protocol.steps import PublicDeck, context, descriptor, descriptor_problem, vec_digest

from .deck_helpers import adversary, make_table, ok, together

N = 8
SEATS = 3
BY = 1  # the prover: it holds slots 0 and 1 (opened to it alone)

Builder = Callable[[DeckPeer, int, dict[str, Any], dict[int, Sequence[bytes]]], dict[str, Any]]


def cheat(build: Builder) -> type[DeckPeer]:
    """A prover that makes claims without checking them and sends ``build``'s member message."""

    class Cheat(DeckPeer):
        def __init__(self, *a: Any, **k: Any) -> None:
            super().__init__(*a, **k)
            self.pub.make_member = lambda sec, x, op, desc, shares: build(  # type: ignore[method-assign]
                self, op, desc, shares)

        async def prove(self, slots: Sequence[int], by: int, allowed: Sequence[int]) -> None:
            desc = descriptor("prove", slots=list(slots), by=by, **{"in": list(allowed)})
            await self._run(desc, self._prove_op)

    return Cheat


_LOOP: list[asyncio.AbstractEventLoop] = []


@pytest.fixture(autouse=True)
def _one_loop() -> Any:
    """One event loop per test: a table's queues belong to the loop that first used them."""
    loop = asyncio.new_event_loop()
    _LOOP[:] = [loop]
    yield
    loop.close()


def run(coro: Any) -> Any:
    return _LOOP[0].run_until_complete(coro)


def deal(peers: Sequence[DeckPeer]) -> list[int]:
    """Shuffle, then open slots 0 and 1 to the prover: the cards it holds face down."""
    async def main() -> list[int]:
        await ok(peers, lambda p: p.shuffle(list(range(N))))
        return (await ok(peers, lambda p: p.open([0, 1], [BY])))[BY]
    return run(main())


def claim(peers: Sequence[DeckPeer], slots: list[int], allowed: list[int]) -> list[Any]:
    return run(together(peers, lambda p: p.prove(slots, BY, allowed)))


def assert_named(peers: Sequence[DeckPeer], errors: Sequence[Any], culprit: int, op: int,
                 step: str, cls: type = CheatDetected) -> None:
    for seat, err in enumerate(errors):
        if seat == culprit:
            continue
        assert isinstance(err, cls), f"seat {seat}: {err!r}"
        assert (err.peer, err.op, err.step) == (culprit, op, step), f"seat {seat}: {err!r}"
        if cls is CheatDetected:  # the audit of an honest seat's record agrees (given the
            rec = peers[seat].record()  # engine's requests, as p2pcards audit derives them)
            v = audit(rec["params"], rec["messages"], ops=peers[seat].ops).verdict
            assert (v.culprit, v.op, v.step) == (culprit, op, step), v


def points(peer: DeckPeer, cards: Sequence[int]) -> list[bytes]:
    return [peer.pub.card_points[v] for v in cards]


def member_ctx(peer: DeckPeer, op: int, desc: dict[str, Any]) -> bytes:
    return context(peer.params, op, "member", desc["by"], peer.pub.member_input(desc))


def prev(peer: DeckPeer, desc: dict[str, Any]) -> str:
    return vec_digest([peer.pub.cts[s] for s in desc["slots"]]).hex()


def true_card(peer: DeckPeer, desc: dict[str, Any], shares: dict[int, Sequence[bytes]], i: int
              ) -> tuple[bytes, bytes, bytes]:
    """(a, D, C) of position ``i``: the ciphertext's ``a``, the card under the prover's key
    alone, and the card's point."""
    s = desc["slots"][i]
    d = peer.pub.hidden(desc, shares)[i]
    return peer.pub.cts[s][0], d, g.sub(d, eg.share(peer.x, peer.pub.cts[s]))


def false_set(cards: Sequence[int], held: int, size: int = 3) -> list[int]:
    return sorted(c for c in range(N) if c != held)[:size]


# ---- honest claims ---------------------------------------------------------------------------------
def test_an_honest_claim_verifies_everywhere_and_the_audit_lists_it_without_values() -> None:
    _, peers = make_table(SEATS, N, tag="claim")
    cards = deal(peers)
    allowed = sorted({cards[0], cards[1], (cards[0] + 3) % N})
    assert claim(peers, [0, 1], allowed) == [None] * SEATS
    rec = peers[0].record()
    report = audit(rec["params"], rec["messages"])
    assert report.clean and report.verdict.complete is False  # (no end step: the game goes on)
    assert report.outcomes[-1] == {"op": 3, "kind": "prove", "slots": [0, 1], "by": BY,
                                   "in": allowed}
    # the prover's shares message publishes no share of its own
    mine = [b for s, b in rec["messages"] if b["op"] == 3 and b["step"] == "shares" and s == BY]
    assert mine[0]["shares"] is None and mine[0]["enc"] == []


def test_a_claim_of_one_card_shows_the_card_and_a_wrong_one_is_refused_by_the_holder() -> None:
    _, peers = make_table(SEATS, N, tag="one")
    cards = deal(peers)
    assert claim(peers, [0], [cards[0]]) == [None] * SEATS
    with pytest.raises(ValueError):
        run(peers[BY].prove([0], BY, [cards[1]]))


def test_the_holder_refuses_a_false_or_unknowable_claim_before_sending_anything() -> None:
    _, peers = make_table(SEATS, N, tag="refuse")
    cards = deal(peers)
    me = peers[BY]
    op, sent = me.op, len(me._public)
    for slots, allowed in (([0], false_set(cards, cards[0])),  # not in the set
                           ([0, 2], list(range(N))),  # slot 2: the prover does not know it
                           ([0], [cards[0], cards[0]]),  # not a set
                           ([0], [cards[0], True])):  # not a card number
        with pytest.raises(ValueError):
            run(me.prove(slots, BY, allowed))
    assert (me.op, len(me._public), me.failed) == (op, sent, None)


def test_five_slots_four_seats_a_big_set() -> None:
    _, peers = make_table(4, 12, tag="five")

    async def main() -> list[int]:
        await ok(peers, lambda p: p.shuffle(list(range(12))))
        got = await ok(peers, lambda p: p.open([0, 1, 2, 3, 4], [2]))
        await ok(peers, lambda p: p.prove([4, 2, 0, 1, 3], 2, sorted({*got[2], 11, 10})))
        return got[2]
    run(main())
    rec = peers[3].record()
    assert audit(rec["params"], rec["messages"]).clean


def test_the_others_cannot_read_the_claimed_card_from_the_public_record() -> None:
    """Every plain share of the operation, combined, leaves the card under the prover's key:
    not a card point (the prover's share is never published)."""
    _, peers = make_table(SEATS, N, tag="read")
    cards = deal(peers)
    claim(peers, [0], sorted({cards[0], cards[1]}))
    rec = peers[0].record()
    shares = [bytes.fromhex(b["shares"][0]) for s, b in rec["messages"]
              if b["op"] == 3 and b["step"] == "shares" and b["shares"] is not None]
    assert len(shares) == SEATS - 1
    d = eg.decode(peers[0].pub.cts[0], shares)
    assert d not in peers[0].pub.card_index
    assert all(g.sub(d, c) != g.IDENTITY for c in peers[0].pub.card_points)


def test_descriptor_problems() -> None:
    ok_desc = {"kind": "prove", "slots": [1, 0], "by": 1, "in": [0, 3]}
    assert descriptor_problem(ok_desc, N, SEATS) is None
    for change, why in (({"in": [3, 0]}, "ascending"), ({"in": []}, "non-empty"),
                        ({"in": [0, N]}, "number"), ({"slots": []}, "non-empty"),
                        ({"by": None}, "not a seat"), ({"by": SEATS}, "not a seat"),
                        ({"by": True}, "not a seat"), ({"in": [1, 1]}, "repeats")):
        assert why in (descriptor_problem({**ok_desc, **change}, N, SEATS) or ""), change


# ---- a false claim, every way a cheater could try ----------------------------------------------------
def wrong_card(peer: DeckPeer, op: int, desc: dict[str, Any], shares: Any) -> dict[str, Any]:
    """The proof for the card it holds: its point put in place of the set's first card."""
    a, d, c = true_card(peer, desc, shares, 0)
    pts = [c, *points(peer, desc["in"])[1:]]
    ctx = member_ctx(peer, op, desc)
    return {"key": peer.pub.key_hex, "prev": prev(peer, desc), "proofs": [prove_member(peer.x, 0, a, d, pts, 0, ctx, b"s")]}


def simulate_all(peer: DeckPeer, op: int, desc: dict[str, Any], shares: Any) -> dict[str, Any]:
    """Every branch simulated, the last challenge set so the challenges add up to the hash
    (the CDS forgery a prover without any true branch would try)."""
    a, d, _ = true_card(peer, desc, shares, 0)
    pts = points(peer, desc["in"])
    y = peer.pub.ys[BY]
    from protocol.proof_common import digest, enc_points
    st = digest(MEMBER_DOMAIN, member_ctx(peer, op, desc), g.u32(0), y, a, d, enc_points(pts))
    k = len(pts)
    cs = [7 + v for v in range(k)]
    zs = [11 + v for v in range(k)]
    ts: list[bytes] = []
    for v in range(k):
        ts += [g.sub(g.base_mul_int(zs[v]), g.mul_int(cs[v], y)),
               g.msm_int([zs[v], -cs[v]], [a, g.sub(d, pts[v])])]
    c = g.hash_to_int(MEMBER_DOMAIN, st, *ts)
    cs[-1] = (c - sum(cs[:-1])) % g.L
    return {"key": peer.pub.key_hex, "prev": prev(peer, desc),
            "proofs": [{"c": [g.sc(v).hex() for v in cs], "z": [g.sc(v).hex() for v in zs]}]}


def other_slot(peer: DeckPeer, op: int, desc: dict[str, Any], shares: Any) -> dict[str, Any]:
    """Claims slot 0 (not in the set) with a valid proof about slot 1, whose card is in it (the
    holder knows that card, so it knows slot 1's ``D = C + x·a``)."""
    a = peer.pub.cts[1][0]
    c = peer.pub.card_points[peer.plain[1]]  # type: ignore[index]
    d = g.add(c, g.mul(peer.x, a))
    pts = points(peer, desc["in"])
    proof = prove_member(peer.x, 0, a, d, pts, pts.index(c), member_ctx(peer, op, desc), b"s")
    return {"key": peer.pub.key_hex, "prev": prev(peer, desc), "proofs": [proof]}


def shifted_d(peer: DeckPeer, op: int, desc: dict[str, Any], shares: Any) -> dict[str, Any]:
    """A valid proof for the ``D`` the shares would give had another seat's share been
    ``C_held − C_v`` more: the proof is sound for that ``D``, but every verifier computes
    ``D`` from the shares actually published."""
    a, d, c = true_card(peer, desc, shares, 0)
    pts = points(peer, desc["in"])
    d2 = g.add(g.sub(d, c), pts[0])
    proof = prove_member(peer.x, 0, a, d2, pts, 0, member_ctx(peer, op, desc), b"s")
    return {"key": peer.pub.key_hex, "prev": prev(peer, desc), "proofs": [proof]}


@pytest.mark.parametrize("build", [wrong_card, simulate_all, other_slot, shifted_d],
                         ids=lambda f: f.__name__)
def test_a_false_claim_cannot_be_proven(build: Builder) -> None:
    _, peers = make_table(SEATS, N, tag="false", classes={BY: cheat(build)})
    cards = deal(peers)
    allowed = sorted(c for c in range(N) if c != cards[0])[:4]
    if build is other_slot:
        allowed = sorted({cards[1], *[c for c in range(N) if c not in cards][:2]})
    assert cards[0] not in allowed
    errors = claim(peers, [0], allowed)
    assert_named(peers, errors, BY, 3, "member")
    assert "member proof of slot 0" in errors[0].reason


Edit = Callable[[dict[str, Any], DeckPeer, int, dict[str, Any], Any], None]


def honest_then(edit: Edit) -> Builder:
    """The honest member message, then ``edit``ed."""
    def build(peer: DeckPeer, op: int, desc: dict[str, Any], shares: Any) -> dict[str, Any]:
        fields = PublicDeck.make_member(peer.pub, peer.secrets, peer.x, op, desc, shares)
        edit(fields, peer, op, desc, shares)
        return fields
    return build


def _bump(proof: dict[str, Any], v: int, delta: int) -> None:
    proof["c"][v] = g.sc(int.from_bytes(bytes.fromhex(proof["c"][v]), "little") + delta).hex()


def change_one(fields: dict[str, Any], *_: Any) -> None:
    _bump(fields["proofs"][0], 1, 1)


def change_two_keep_sum(fields: dict[str, Any], *_: Any) -> None:
    _bump(fields["proofs"][0], 0, 5)
    _bump(fields["proofs"][0], 2, -5)


def swap_slots(fields: dict[str, Any], *_: Any) -> None:
    fields["proofs"].reverse()


def subset(fields: dict[str, Any], peer: DeckPeer, op: int, desc: dict[str, Any], shares: Any
           ) -> None:
    """The right proofs, for ``in`` minus a card the prover does not hold."""
    held = [peer.plain[s] for s in desc["slots"]]
    drop = next(v for v in desc["in"] if v not in held)
    pts = points(peer, [v for v in desc["in"] if v != drop])
    proofs = []
    for i in range(len(desc["slots"])):
        a, d, c = true_card(peer, desc, shares, i)
        proofs.append(prove_member(peer.x, i, a, d, pts, pts.index(c), member_ctx(peer, op, desc),
                                   b"s"))
    fields["proofs"] = proofs


@pytest.mark.parametrize("edit", [change_one, change_two_keep_sum, swap_slots, subset],
                         ids=lambda f: f.__name__)
def test_an_altered_true_proof_is_refused(edit: Edit) -> None:
    _, peers = make_table(SEATS, N, tag="alter", classes={BY: cheat(honest_then(edit))})
    cards = deal(peers)
    allowed = sorted({cards[0], cards[1], *[c for c in range(N) if c not in cards][:2]})
    assert len(allowed) == 4
    errors = claim(peers, [0, 1], allowed)
    assert_named(peers, errors, BY, 3, "member")


def test_a_proof_replayed_from_an_earlier_claim_is_refused() -> None:
    """The same claim twice: the second member message repeats the first's proofs (same slots,
    same set, same ciphertexts, same shares): only the operation in the context differs."""
    saved: list[Any] = []

    def build(peer: DeckPeer, op: int, desc: dict[str, Any], shares: Any) -> dict[str, Any]:
        if not saved:
            saved.append(PublicDeck.make_member(peer.pub, peer.secrets, peer.x, op, desc, shares))
        return saved[0]

    _, peers = make_table(SEATS, N, tag="replay", classes={BY: cheat(build)})
    cards = deal(peers)
    allowed = sorted({cards[0], (cards[0] + 1) % N})
    assert claim(peers, [0], allowed) == [None] * SEATS
    errors = claim(peers, [0], allowed)
    assert_named(peers, errors, BY, 4, "member")


# ---- who is named --------------------------------------------------------------------------------
def test_a_withheld_proof_names_the_prover() -> None:
    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        return [] if body["step"] == "member" else [(None, body)]

    _, peers = make_table(SEATS, N, tag="withhold", classes={BY: adversary(tamper)}, timeout=2.0)
    cards = deal(peers)
    errors = claim(peers, [0], [cards[0]])
    assert_named(peers, errors, BY, 3, "member", DeckTimeout)
    rec = peers[0].record()  # the record stops at the missing message: it names nobody
    v = audit(rec["params"], rec["messages"]).verdict
    assert v.culprit is None and "member message is missing" in v.reason


def test_a_bad_share_from_a_third_seat_names_that_seat_not_the_prover() -> None:
    table: list[DeckPeer] = []  # (the tampering seat computes seat 0's share from it)

    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["kind"] == "prove" and body["step"] == "shares":
            # seat 0's share in place of its own: what would make D decode another way
            body["shares"] = [g.mul(table[0].x, table[0].pub.cts[s][0]).hex() for s in body["slots"]]
        return [(None, body)]

    _, peers = make_table(SEATS, N, tag="third", classes={2: adversary(tamper)})
    table[:] = peers
    cards = deal(peers)
    errors = claim(peers, [0], [cards[0]])
    assert_named(peers, errors, 2, 3, "shares")
    assert isinstance(errors[BY], CheatDetected) and errors[BY].peer == 2


def test_a_member_message_from_another_seat_names_its_sender() -> None:
    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        out: list[tuple[int | None, dict[str, Any]]] = [(None, body)]
        if body["kind"] == "prove" and body["step"] == "shares":
            out.append((None, {**{k: body[k] for k in ("v", "op", "kind", "slots", "by", "in",
                                                      "seat", "key", "prev")},
                               "step": "member", "proofs": []}))
        return out

    _, peers = make_table(SEATS, N, tag="intruder", classes={2: adversary(tamper)})
    cards = deal(peers)
    claim(peers, [0], [cards[0]])  # (a seat files the intruder's message when it next receives:
    run(together(peers, lambda p: p.random(6)))  # during the claim, or at the next operation)
    for seat in (0, BY):
        err = peers[seat].failed
        assert isinstance(err, CheatDetected), err
        assert (err.peer, err.op, err.step) == (2, 3, "member")
    rec = peers[0].record()
    v = audit(rec["params"], rec["messages"]).verdict
    assert (v.culprit, v.op, v.step) == (2, 3, "member")


def _member_edit(change: Callable[[dict[str, Any]], None]) -> type[DeckPeer]:
    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["step"] == "member":
            change(body)
        return [(None, body)]
    return adversary(tamper)


@pytest.mark.parametrize("change", [
    lambda b: b.update(proofs="x"), lambda b: b.update(proofs=[]),
    lambda b: b.update(proofs=[{}]), lambda b: b.update(proofs=b["proofs"] * 2),
    lambda b: b["proofs"][0].update(c=b["proofs"][0]["c"][:-1]),
    lambda b: b.update(prev="00" * 32), lambda b: b.update(extra=1),
    lambda b: b.update({"in": [*b["in"], N - 1] if N - 1 not in b["in"] else b["in"][:-1]}),
], ids=["proofs-str", "no-proof", "empty-proof", "two-proofs", "short-c", "prev", "extra-field",
        "other-in"])
def test_a_malformed_member_message_names_the_prover(change: Callable[[dict[str, Any]], None]
                                                     ) -> None:
    _, peers = make_table(SEATS, N, tag="malformed", classes={BY: _member_edit(change)})
    cards = deal(peers)
    errors = claim(peers, [0], sorted({cards[0], (cards[0] + 1) % N}))
    assert_named(peers, errors, BY, 3, "member")


def test_a_prover_sending_different_proofs_to_different_seats_is_named_by_the_mesh() -> None:
    from protocol.errors import Equivocation

    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["step"] != "member":
            return [(None, body)]
        other = {**body, "proofs": [dict(body["proofs"][0], c=body["proofs"][0]["c"][::-1])]}
        return [(0, body), (2, other)]

    _, peers = make_table(SEATS, N, tag="equivocate", classes={BY: adversary(tamper)})
    cards = deal(peers)
    errors = claim(peers, [0], sorted({cards[0], (cards[0] + 1) % N}))
    for seat in (0, 2):
        assert isinstance(errors[seat], (Equivocation, CheatDetected)), errors[seat]
        assert (errors[seat].peer, errors[seat].op) == (BY, 3), errors[seat]


def test_a_seat_shown_a_card_still_proves_its_claim_after_the_holder_re_encrypts_it():
    """Red team 9: the engine re-encrypts a slot before its shares could add up (a one-slot
    private reorder by a seat that knows the card, SPEC 5.7) and every seat that knew the card
    still knows it -- but the deck forgot it at every seat but the re-encrypter, so a later claim
    by another seat that knew it was refused by that seat's own deck, and its own program named
    that honest seat. A one-slot reorder moves nothing: every seat keeps what it knew."""
    peers = make_table(SEATS, N, tag="keep")[1]
    cards = deal(peers)  # slots 0 and 1 known to the prover alone
    async def main() -> None:
        await ok(peers, lambda p: p.open([0], [0, BY]))  # shown to seat 0 as well
        await ok(peers, lambda p: p.reorder([0], 0, mix=True))  # seat 0 re-encrypts it
    run(main())
    assert [p.plain[0] for p in peers] == [cards[0], cards[0], None]
    errors = claim(peers, [0], [cards[0]])
    assert errors == [None] * SEATS, errors
