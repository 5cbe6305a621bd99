"""``Prove`` on the networked side: the ``DeckDealer`` fulfils it with ``DeckPeer.prove`` (a fake
deck here; the real one is in tests/protocol/test_claims.py), the audit's descriptor and outcome
of a proof (``replay.deck_op``, ``audit._events``), and the operations ``DeckRequests`` derives
from the signed moves of a game that issues proofs."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from p2pcards.audit import _events
from p2pcards.deck_dealer import DeckDealer
from p2pcards.engine import Decide, Decision, LocalDealer, Prove, Proven, RuleViolation
from p2pcards.games import new_game
from p2pcards.replay import DeckRequests, deck_op
from tests.engine.test_prove import _deal


class FakeDeck:
    """The interface of ``DeckPeer.prove``: every seat calls it at the same operation; it
    returns None once the proof verified; at seat ``by`` it raises ValueError when the claim is
    false in its own knowledge."""

    def __init__(self, seat: int, truth: dict[int, int] | None = None) -> None:
        self.seat = seat
        self.truth = truth or {}
        self.calls: list[tuple[list[int], int, list[int]]] = []

    async def prove(self, slots: list[int], by: int, allowed: list[int]) -> None:
        self.calls.append((slots, by, allowed))
        if by == self.seat and any(self.truth.get(s, allowed[0]) not in allowed for s in slots):
            raise ValueError("the claim is false")


def _fulfil(dealer: DeckDealer, view: Any, req: Any) -> Any:
    return asyncio.run(dealer.fulfil(view, req))


def test_each_seat_fulfils_a_prove_with_the_deck_and_gets_proven_without_values():
    g, copies = _deal(2)
    req = g.pending()
    assert isinstance(req, Prove)
    for seat in (0, 1):
        deck = FakeDeck(seat)
        dealer = DeckDealer(deck, seat)  # type: ignore[arg-type]
        ev = _fulfil(dealer, copies[seat], req)
        assert ev == Proven(req.slots)
        assert deck.calls == [(list(req.slots), 0, list(req.allowed))]
        assert dealer.log == [(req, ev)]
        copies[seat].apply(ev)
        assert copies[seat].pending() is None  # the toy is over once its claim is proven


def test_the_claimant_with_a_false_claim_is_named_before_it_asks_the_deck():
    """Seat 0 holds 8 and says "low": its own dealer names it and sends no proof. Its reason
    becomes the stop this seat sends to every peer, so it names the slot and not the card (it
    said "it holds 8, which the claim does not allow": the card its claim was about, shown to
    all)."""
    g, copies = _deal(8)
    req = g.pending()
    deck = FakeDeck(0)
    with pytest.raises(RuleViolation) as e:
        _fulfil(DeckDealer(deck, 0), copies[0], req)  # type: ignore[arg-type]
    assert e.value.player == 0
    assert deck.calls == []
    slot = req.slots[0]
    assert copies[0].values[slot] == 8 and slot != 8
    assert e.value.reason == (f"cannot prove its claim about slot {slot}: the card there is "
                              "not one the claim allows")


def test_a_deck_refusing_the_claimants_proof_names_the_claimant():
    g, copies = _deal(8)
    req = g.pending()
    view = copies[0].clone()
    view.values[req.slots[0]] = None  # as if this copy did not know the card: the deck does
    deck = FakeDeck(0, {req.slots[0]: 8})
    with pytest.raises(RuleViolation) as e:
        _fulfil(DeckDealer(deck, 0), view, req)  # type: ignore[arg-type]
    assert e.value.player == 0


def test_a_deck_that_cannot_prove_a_true_claim_its_engine_knows_names_nobody():
    """The engine knows the card and the claim is true, yet the deck refuses: this program's two
    records disagree (red team 9 found one, a deck that forgot a re-encrypted card). That is a
    fault in this program, not a cheat: the stop names nobody, not the honest claimant."""
    from protocol.errors import DeckError

    g, copies = _deal(2)
    req = g.pending()

    class Forgetful(FakeDeck):
        async def prove(self, slots, by, allowed):
            raise ValueError(f"seat {by + 1} does not know the card in slot {slots[0]}")

    with pytest.raises(DeckError) as e:
        _fulfil(DeckDealer(Forgetful(0), 0), copies[0], req)  # type: ignore[arg-type]
    assert e.value.peer is None and "a fault in this program, not a cheat" in e.value.reason


def test_deck_op_and_the_audit_outcome_of_a_proof():
    req = Prove((4, 9), 2, (1, 3, 5))
    assert deck_op(req) == {"kind": "prove", "slots": [4, 9], "by": 2, "in": [1, 3, 5]}
    outcome = {"kind": "prove", "slots": [4, 9], "by": 2, "in": [1, 3, 5]}
    assert _events([{"kind": "random", "value": 1}, outcome]) == [
        _events([{"kind": "random", "value": 1}])[0], Proven((4, 9))]



def _outcome(req: Any, ev: Any) -> dict[str, Any]:
    """The audit's outcome of the deck operation that fulfilled ``req`` with ``ev``."""
    op = deck_op(req)
    if op["kind"] == "open":
        return {**op, "values": list(ev.values)}
    if op["kind"] == "random":
        return {**op, "value": ev.value}
    return op


@pytest.mark.parametrize("game,players,seed", [("go-out-girl", 3, 2), ("girl-and-robot", 3, 2),
                                               ("out-of-this-world", 3, 3)])
def test_deck_requests_derive_every_proof_from_the_signed_moves(game, players, seed):
    """A random game on the LocalDealer (every proof of an honest claim verifies on the
    full-information engine); then the audit's ``DeckRequests``, fed the deck's outcomes
    one by one and the signed moves, derives every operation the engines issued, the proofs
    (kind "prove", with slots, claimant and allowed values) among them."""
    rng = random.Random(seed)
    g = new_game(game, players, {})
    dealer = LocalDealer(seed)
    moves: dict[tuple[int, int], Decision] = {}
    reqs: list[Any] = []
    outs: list[dict[str, Any]] = [{"kind": "key"}]
    step = 0
    while (req := g.pending()) is not None:
        if isinstance(req, Decide):
            d = Decision(req.player, rng.choice(g.legal(req.player)))
            moves[step, req.player] = d
            g.apply(d, trusted=True)
        else:
            ev = dealer.fulfil(g, req)
            g.apply(ev)
            reqs.append(req)
            outs.append(_outcome(req, ev))
        step += 1
    assert any(isinstance(r, Prove) for r in reqs), "this game made no hidden claim"
    derive = DeckRequests(game, players, {}, moves)
    for k, req in enumerate(reqs, start=1):
        assert derive(outs[:k]) == deck_op(req), f"operation {k}"
    assert derive(outs) == {"kind": "end"}


def test_a_table_whose_own_claim_is_false_stops_naming_its_own_seat_not_a_traceback():
    """A modified program that skipped its own check reaches its dealer with a false claim: the
    dealer refuses to prove it (above). The table turns that into a stop naming this seat, as
    it does for every other rule broken, instead of letting a RuleViolation escape the match."""
    from p2pcards.table import Table, TableStopped
    from protocol.channel import ChannelClosed

    class Channel:
        async def recv(self, topic):
            raise ChannelClosed("closed")

    class Dealer:
        async def fulfil(self, view, req, arrange=None):
            raise RuleViolation(0, "cannot prove its claim about slot 4: it holds 8, which the "
                                   "claim does not allow")

    table = Table("go-out-girl", 2, {}, 0, Channel(), Dealer(), None,  # type: ignore[arg-type]
                  names=["alice", "bob"], say=lambda s: None, audit=False)
    with pytest.raises(TableStopped) as e:
        asyncio.run(table.run())
    assert e.value.culprit == 0
    assert e.value.reason.startswith("alice: cannot prove its claim about slot 4")
