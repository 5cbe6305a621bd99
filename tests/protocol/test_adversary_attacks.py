"""Issue 11's attacks on deck v1, tried as an attacker would on v2: each is caught at the step
where it happens, every honest seat names the attacker, and no card is ever opened after it.

1. The host (seat 0) reading a card dealt to someone else by publishing a copy of position B at
   position A and opening A to itself; or by sending a share that would decode another card.
2. The last shuffler peeking the same way (a scaled copy: ``δ x position B`` at A).
3. Laundering a copy through a later subset reshuffle that takes in A but not B.
(Framing seat 0 with a false accusation: ``test_audit.test_framing_seat_0_with_a_false_abort_...``.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from protocol import elgamal as eg
from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import CheatDetected, DeckClosed
from protocol.group import mul, scalar_from_int
from protocol.proofs import ct_from_json, ct_to_json

from .deck_helpers import adversary, make_table, ok, together

N = 8
A, B = 2, 5


def copy_b_to_a(delta: int, op: int) -> Callable[[DeckPeer, dict[str, Any]], Any]:
    """A shuffler that outputs, at position A, ``delta x`` (a re-encryption of) its output B."""

    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["step"] == "shuffle" and body["op"] == op:
            assert peer.pub.y is not None
            a, b = eg.reencrypt(peer.pub.y, ct_from_json(body["cts"][B]),  # type: ignore[arg-type]
                                scalar_from_int(99))
            k = scalar_from_int(delta)
            body["cts"][A] = ct_to_json((mul(k, a), mul(k, b)) if delta != 1 else (a, b))
        return [(None, body)]
    return tamper


def run(attacker: int, tamper: Any, ops: list[Any], n: int = 3) -> tuple[list[Any], list[DeckPeer]]:
    _, peers = make_table(n, N, classes={attacker: adversary(tamper)})

    async def main() -> list[Any]:
        errors: list[Any] = [None] * n
        for fn in ops:
            for i, r in enumerate(await together(peers, fn)):
                if isinstance(r, BaseException) and errors[i] is None:
                    errors[i] = r
        return errors

    return asyncio.run(main()), peers


def assert_named(errors: list[Any], peers: list[DeckPeer], attacker: int, op: int, step: str
                 ) -> None:
    for seat, err in enumerate(errors):
        if seat == attacker:
            continue
        assert isinstance(err, CheatDetected), f"seat {seat}: {err!r}"
        assert (err.peer, err.op, err.step) == (attacker, op, step), f"seat {seat}: {err!r}"
        # and the deck is closed: the opening that would have leaked never happens
        assert isinstance(peers[seat].failed, CheatDetected)
        rec = peers[seat].record()
        v = audit(rec["params"], rec["messages"]).verdict
        assert (v.culprit, v.op, v.step) == (attacker, op, step), v


def test_the_host_cannot_copy_a_hidden_position_to_read_it() -> None:
    """v1 attack 1: seat 0 publishes a copy of position B at position A, then slot A is opened to
    seat 0 alone. In v2 the copy breaks seat 0's proof of shuffle: caught at op 1, step shuffle."""
    errors, peers = run(0, copy_b_to_a(1, 1), [lambda p: p.shuffle(list(range(N))),
                                              lambda p: p.open([A], [0]),
                                              lambda p: p.open([B], [1])])
    assert_named(errors, peers, 0, 1, "shuffle")
    assert [p.results[-1]["kind"] for p in peers] == ["key"] * 3  # nothing was ever opened


def test_the_host_cannot_send_a_share_that_would_decode_another_card() -> None:
    """v1 attack 1, second form: in the opening of slot A to seat 1, seat 0 sends as its share the
    share of slot B (so seat 1 would read B's card, and the shares would let seat 0 frame it).
    The Chaum-Pedersen proof binds the share to slot A's ciphertext: caught at once."""

    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["step"] == "shares" and body["slots"] == [A]:
            body["shares"] = [eg.share(peer.x, peer.pub.cts[B]).hex()]
        return [(None, body)]

    errors, peers = run(0, tamper, [lambda p: p.shuffle(list(range(N))),
                                    lambda p: p.open([A], [1])])
    assert_named(errors, peers, 0, 2, "shares")


def test_the_last_shuffler_cannot_peek_with_a_scaled_copy() -> None:
    """v1 attack 2: the last shuffler puts ``δ x position B`` at A (to decode A with its key x δ,
    and lay the leftover copy face down). Caught at its shuffle step."""
    errors, peers = run(2, copy_b_to_a(7, 1), [lambda p: p.shuffle(list(range(N))),
                                              lambda p: p.open([A], [2])])
    assert_named(errors, peers, 2, 1, "shuffle")


def test_a_copy_cannot_be_laundered_through_a_subset_reshuffle() -> None:
    """v1 attack 2's laundering: a later reshuffle of a subset that includes A but not B turns a
    copy into a 'clean' duplicate. In v2 the copy cannot exist, and a subset reshuffle cannot take
    in a card from outside its slots either: seat 1 replaces one output of the reshuffle of
    [0, 1, A] by a re-encryption of slot B's ciphertext (outside the subset). Caught at op 2."""

    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["step"] == "shuffle" and body["op"] == 2:
            assert peer.pub.y is not None
            body["cts"][0] = ct_to_json(eg.reencrypt(peer.pub.y, peer.pub.cts[B],
                                                     scalar_from_int(5)))
        return [(None, body)]

    errors, peers = run(1, tamper, [lambda p: p.shuffle(list(range(N))),
                                    lambda p: p.shuffle([0, 1, A])])
    assert_named(errors, peers, 1, 2, "shuffle")


def test_after_an_honest_game_every_card_is_where_the_proofs_say() -> None:
    """The control: the same operations with nobody cheating open every card exactly once."""

    async def main() -> list[Any]:
        _, peers = make_table(3, N, tag="control")
        await ok(peers, lambda p: p.shuffle(list(range(N))))
        await ok(peers, lambda p: p.shuffle([0, 1, A]))
        return await ok(peers, lambda p: p.open_all(list(range(N))))

    final = asyncio.run(main())
    assert sorted(final[0]) == list(range(N)) and final[0] == final[1] == final[2]


def test_an_operation_after_a_caught_cheat_is_refused() -> None:
    errors, peers = run(2, copy_b_to_a(1, 1), [lambda p: p.shuffle(list(range(N)))])
    assert isinstance(errors[0], CheatDetected)

    async def again() -> None:
        await peers[0].open([A], [0])

    try:
        asyncio.run(again())
    except DeckClosed as exc:
        assert exc.peer == 2
    else:  # pragma: no cover
        raise AssertionError("a failed deck opened a card")


def test_a_seat_preparing_its_shuffle_ahead_sends_nothing_when_the_proof_before_fails(
        monkeypatch: Any) -> None:
    """The next shuffler prepares its own step while it verifies the previous one (decks of 16
    cards or more): when the previous proof fails, it names the cheat like everyone else and its
    prepared step is never sent."""
    prepared: list[int] = []
    real = DeckPeer._prepare_ahead

    def spy(self: DeckPeer, op: int, body: dict[str, Any], m: int) -> Any:
        prepared.append(self.seat)
        return real(self, op, body, m)

    monkeypatch.setattr(DeckPeer, "_prepare_ahead", spy)
    n_cards = 20
    _, peers = make_table(3, n_cards, classes={0: adversary(copy_b_to_a(1, 1))})

    async def main() -> list[Any]:
        return await together(peers, lambda p: p.shuffle(list(range(n_cards))))

    errors = asyncio.run(main())
    assert prepared == [1]  # seat 1, the next shuffler, prepared ahead
    for seat in (1, 2):
        err = errors[seat]
        assert isinstance(err, CheatDetected) and (err.peer, err.op, err.step) == (0, 1, "shuffle")
        shuffles = [s for s, b in peers[seat].record()["messages"]
                    if b["op"] == 1 and b["step"] == "shuffle"]
        assert shuffles == [0], f"seat {seat} saw shuffle steps from {shuffles}"


def test_a_prepared_shuffle_step_is_the_one_made_without_preparing(monkeypatch: Any) -> None:
    """Preparing ahead changes when the work is done, not what is sent: the same seeds give
    byte-identical shuffle messages with and without it."""
    n_cards = 20

    def messages() -> list[Any]:
        _, peers = make_table(3, n_cards, tag="ahead")
        asyncio.run(ok(peers, lambda p: p.shuffle(list(range(n_cards)))))
        return sorted((s, b["cts"]) for s, b in peers[2].record()["messages"]
                      if b["step"] == "shuffle")

    with_ahead = messages()
    monkeypatch.setattr(DeckPeer, "_prepare_ahead", lambda self, op, body, m: None)
    assert messages() == with_ahead
