"""Adversarial peers: each cheat is detected at the expected step and blamed on the right seat."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from protocol import group as g
from protocol.deck import DeckPeer
from protocol.errors import (
    CheatDetected,
    DeckError,
    DeckTimeout,
    Equivocation,
    PeerAborted,
    UndecodableCard,
)

from .deck_helpers import adversary, make_table, together

N = 12
ALL = list(range(N))
Op = Callable[[DeckPeer], Awaitable[Any]]


async def play(peers: list[DeckPeer], ops: list[Op]) -> list[BaseException | None]:
    """Run the operations in order at every seat; each seat's first error (or None)."""
    errors: list[BaseException | None] = [None] * len(peers)
    for fn in ops:
        for i, r in enumerate(await together(peers, fn)):
            if isinstance(r, BaseException) and errors[i] is None:
                errors[i] = r
    return errors


def shuffle_all(p: DeckPeer) -> Awaitable[Any]:
    return p.shuffle(ALL)


def assert_cheat(err: BaseException | None, seat: int, step: str, op: int, words: str = "") -> None:
    assert isinstance(err, CheatDetected), repr(err)
    assert (err.peer, err.step, err.op) == (seat, step, op), repr(err)
    assert words in err.reason, err.reason


def run(adv: int, tamper: Callable[..., Any], ops: list[Op], n: int = 3, **kw: Any
        ) -> tuple[list[BaseException | None], list[DeckPeer]]:
    _, peers = make_table(n, N, classes={adv: adversary(tamper)}, **kw)
    return asyncio.run(play(peers, ops)), peers


# ---- shuffle pass --------------------------------------------------------------------------------
def test_duplicate_card_in_a_shuffle_pass() -> None:
    def dup(peer, to, body):
        if body["step"] == "shuffle":
            body["points"][1] = body["points"][0]
        return [(to, body)]

    errors, _ = run(1, dup, [shuffle_all])
    for seat in (0, 2):
        assert_cheat(errors[seat], 1, "shuffle", 0, "duplicate")


BAD_POINTS = {
    "identity": (1).to_bytes(32, "little").hex(),
    "small-order": ((2**255 - 19) - 1).to_bytes(32, "little").hex(),
    "torsion-tagged": g.add(g.card_point(b"x", "y", 1), ((2**255 - 19) - 1).to_bytes(32, "little")).hex(),
    "non-canonical": ((2**255 - 19) + 1).to_bytes(32, "little").hex(),
    "not-hex": "zz" * 32,
}


@pytest.mark.parametrize("kind", list(BAD_POINTS))
@pytest.mark.parametrize("step", ["shuffle", "lock"])
def test_invalid_point(kind: str, step: str) -> None:
    def bad(peer, to, body):
        if body["step"] == step:
            body["points"][3] = BAD_POINTS[kind]
        return [(to, body)]

    errors, _ = run(1, bad, [shuffle_all])
    for seat in (0, 2):  # seat 2 multiplies seat 1's shuffle output next; seat 0 validates it
        assert_cheat(errors[seat], 1, step, 0)


def test_withheld_shuffle_step_times_out_naming_the_seat() -> None:
    def withhold(peer, to, body):
        return [] if body["step"] == "shuffle" else [(to, body)]

    errors, _ = run(1, withhold, [shuffle_all], timeout=0.5)
    # the first seat to time out stops the table; a seat that has not timed out yet learns it
    # from that seat's abort; both name seat 1
    timeouts = [e for e in (errors[0], errors[2]) if isinstance(e, DeckTimeout)]
    assert timeouts and all(isinstance(e, DeckError) for e in timeouts)
    for err in (errors[0], errors[2]):
        assert isinstance(err, DeckTimeout | PeerAborted), repr(err)
        assert (err.peer, err.step, err.op) == (1, "shuffle", 0)


def test_equivocation_is_noticed_at_once() -> None:
    """Seat 1 sends seat 0 another shuffle vector than seat 2 (which builds on its own copy)."""

    def equivocate(peer, to, body):
        if body["step"] != "shuffle":
            return [(to, body)]
        other = dict(body, points=list(reversed(body["points"])))
        return [(2, body), (0, other)]

    errors, _ = run(1, equivocate, [shuffle_all])
    err = errors[0]
    assert isinstance(err, Equivocation), repr(err)
    assert set(err.suspects) == {1, 2} and err.op == 0
    assert isinstance(errors[2], PeerAborted) and errors[2].accuser == 0


# ---- lock pass -------------------------------------------------------------------------------------
def _substitute(peer, to, body):
    if body["step"] == "lock" and body["op"] == 0:
        pt = bytes.fromhex(body["points"][2])
        body["points"][2] = g.mul(g.random_scalar(), pt).hex()  # a card nobody can open
    return [(to, body)]


def test_substituted_card_in_a_lock_pass_fails_its_proof_at_once() -> None:
    errors, _ = run(1, _substitute, [shuffle_all])
    for seat in (0, 2):
        assert_cheat(errors[seat], 1, "lock", 0, "proof fails")


def test_substituted_card_without_lock_proofs_is_caught_on_opening_and_named_by_the_audit() -> None:
    async def main() -> tuple[list[Any], list[Any]]:
        _, peers = make_table(3, N, classes={1: adversary(_substitute)}, lock_proofs=False)
        errors = await play(peers, [shuffle_all, lambda p: p.open_all(ALL)])
        reports = await together(peers, lambda p: p.audit())
        return errors, reports

    errors, reports = asyncio.run(main())
    for seat in (0, 2):
        assert isinstance(errors[seat], UndecodableCard) and errors[seat].peer is None
        v = reports[seat].verdict
        assert (v.culprit, v.op, v.step) == (1, 0, "lock"), v


def test_substituted_card_in_a_blind_step() -> None:
    """A partial shuffle of plain slots starts with seat n-1 blinding them, with a proof."""

    def swap(peer, to, body):
        if body["step"] == "blind":
            body["points"][0] = g.mul(g.random_scalar(), g.card_point(b"x", "y", 0)).hex()
        return [(to, body)]

    errors, _ = run(2, swap, [lambda p: p.shuffle(ALL[:6])])
    for seat in (0, 1):
        assert_cheat(errors[seat], 2, "blind", 0, "proof fails")


# ---- opening ----------------------------------------------------------------------------------------
def test_wrong_key() -> None:
    def wrong(peer, to, body):
        if body["step"] == "keys":
            body["keys"][1] = g.random_scalar().hex()
        return [(to, body)]

    async def main() -> tuple[list[Any], list[Any]]:
        _, peers = make_table(3, N, classes={1: adversary(wrong)})
        errors = await play(peers, [shuffle_all, lambda p: p.open([4, 5], [0]),
                                    lambda p: p.random(3)])
        return errors, await together(peers, lambda p: p.audit())

    errors, reports = asyncio.run(main())
    assert_cheat(errors[0], 1, "keys", 1, "wrong key for slot 5")
    # seat 2 was no receiver: it learns of the cheat from seat 0's abort at the next operation
    assert isinstance(errors[2], PeerAborted) and (errors[2].accuser, errors[2].peer) == (0, 1)
    for seat in (0, 2):  # the key was private: the audit reports seat 0's claim
        v = reports[seat].verdict
        assert (v.culprit, v.op, v.step) == (1, 1, "keys") and "claimed by seat 0" in v.reason


def test_withheld_key_times_out_naming_the_seat() -> None:
    def withhold(peer, to, body):
        return [] if body["step"] == "keys" and to == 0 else [(to, body)]

    errors, _ = run(2, withhold, [shuffle_all, lambda p: p.open([4], [0, 1])], timeout=0.5)
    err = errors[0]
    assert isinstance(err, DeckTimeout) and (err.peer, err.step, err.op) == (2, "keys", 1)
    assert errors[1] is None  # seat 1 got its key


# ---- envelopes ----------------------------------------------------------------------------------------
def test_replayed_message() -> None:
    def replay(peer, to, body):
        if body["step"] == "shuffle":
            peer.saved = body
        if body["step"] == "keys":
            return [(to, body), (None, peer.saved)]
        return [(to, body)]

    errors, _ = run(1, replay, [shuffle_all, lambda p: p.open_all([0]), lambda p: p.random(2)])
    for seat in (0, 2):
        assert_cheat(errors[seat], 1, "shuffle", 0, "replayed")


def test_replayed_points_under_a_new_operation() -> None:
    def replay(peer, to, body):
        if body["step"] == "shuffle" and body["op"] == 0:
            peer.saved = body["points"]
        elif body["step"] == "shuffle":
            body["points"] = peer.saved
        return [(to, body)]

    errors, _ = run(1, replay, [shuffle_all, shuffle_all])
    for seat in (0, 2):
        assert_cheat(errors[seat], 1, "shuffle", 1, "already seen")


def test_message_from_the_wrong_sender() -> None:
    def impersonate(peer, to, body):
        if body["step"] == "shuffle":
            body["seat"] = 2
        return [(to, body)]

    errors, _ = run(1, impersonate, [shuffle_all])
    for seat in (0, 2):
        assert_cheat(errors[seat], 1, "shuffle", 0, "claims to come from seat 2")


def test_malformed_message() -> None:
    def malformed(peer, to, body):
        if body["step"] == "lock":
            del body["locked"]
        return [(to, body)]

    errors, _ = run(0, malformed, [shuffle_all])
    for seat in (1, 2):
        assert_cheat(errors[seat], 0, "lock", 0, "locked")


# ---- joint randomness -------------------------------------------------------------------------------
def test_reveal_that_does_not_open_its_commitment() -> None:
    def lie(peer, to, body):
        if body["step"] == "reveal":
            body["nonce"] = bytes(32).hex()
        return [(to, body)]

    errors, _ = run(2, lie, [lambda p: p.random(10)])
    for seat in (0, 1):
        assert_cheat(errors[seat], 2, "reveal", 0, "does not open")


def test_commitment_equivocation() -> None:
    def two_commits(peer, to, body):
        if body["step"] == "commit":
            return [(0, body), (2, dict(body, commit="11" * 32))]
        return [(to, body)]

    errors, _ = run(1, two_commits, [lambda p: p.random(10)])
    # seat 2 holds a commitment seat 1's nonce does not open: proven
    assert_cheat(errors[2], 1, "reveal", 0, "does not open")
    # seat 0's copy opens fine, but seat 2 echoes another commitment from seat 1: one of the two
    # lies (or seat 0 hears seat 2's abort first, which names seat 1)
    err = errors[0]
    assert isinstance(err, Equivocation | PeerAborted), repr(err)
    assert set(getattr(err, "suspects", (err.peer,))) <= {1, 2} and err.peer == 1
