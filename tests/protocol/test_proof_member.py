"""The membership proof alone (PROOFS.md 8): complete for every true branch, refuses every
statement it was not made for, hides which branch is true, and its verifier never raises."""

from __future__ import annotations

from typing import Any

import pytest

from protocol import group as g
from protocol.proofs import prove_member, verify_member

X = g.hash_to_scalar(b"test/member", b"x")
Y = g.base_mul(X)
CARDS = [g.card_point(b"member-table", "member-deck", c) for c in range(6)]
A = g.base_mul(g.hash_to_scalar(b"test/member", b"r"))
CTX = b"ctx"


def hidden(card: int) -> bytes:
    """``D = C + x·a``: the card under the prover's key alone."""
    return g.add(CARDS[card], g.mul(X, A))


def proof(card: int, cards: list[int], index: int = 0, ctx: bytes = CTX) -> dict[str, Any]:
    return prove_member(X, index, A, hidden(card), [CARDS[c] for c in cards], cards.index(card),
                        ctx, b"seed")


@pytest.mark.parametrize("t", range(4))
def test_every_true_branch_verifies(t: int) -> None:
    cards = [0, 2, 3, 5]
    assert verify_member(Y, 0, A, hidden(cards[t]), [CARDS[c] for c in cards],
                         proof(cards[t], cards), CTX) is None


def test_one_card_sets_verify() -> None:
    assert verify_member(Y, 0, A, hidden(4), [CARDS[4]], proof(4, [4]), CTX) is None


def test_the_prover_refuses_a_false_witness() -> None:
    for t in range(3):
        with pytest.raises(ValueError):
            prove_member(X, 0, A, hidden(5), CARDS[:3], t, CTX, b"seed")


def test_a_proof_verifies_for_its_statement_only() -> None:
    cards = [1, 2, 3]
    p = proof(2, cards)
    pts = [CARDS[c] for c in cards]
    assert verify_member(Y, 0, A, hidden(2), pts, p, CTX) is None
    other_y = g.base_mul(g.hash_to_scalar(b"test/member", b"other"))
    for args in ((other_y, 0, A, hidden(2), pts, CTX),  # another key
                 (Y, 1, A, hidden(2), pts, CTX),  # another position
                 (Y, 0, g.add(A, g.G), hidden(2), pts, CTX),  # another ciphertext
                 (Y, 0, A, hidden(4), pts, CTX),  # another card (not in the set)
                 (Y, 0, A, hidden(1), pts, CTX),  # another card of the set
                 (Y, 0, A, hidden(2), [CARDS[c] for c in (3, 2, 1)], CTX),  # reordered set
                 (Y, 0, A, hidden(2), [CARDS[c] for c in (1, 2, 4)], CTX),  # another set
                 (Y, 0, A, hidden(2), pts, b"another context")):
        assert verify_member(args[0], args[1], args[2], args[3], args[4], p, args[5]) is not None


def test_proofs_for_different_true_branches_have_one_shape() -> None:
    """Whichever branch is true, a proof is 2k distinct non-zero scalars in the order of the set
    (the zero-knowledge argument itself is PROOFS.md 8's: a test cannot show it), and a proof
    made for one holder's ``D`` does not pass for another's."""
    cards = [0, 1, 2]
    for held in cards:
        p = proof(held, cards)
        assert len(p["c"]) == len(p["z"]) == 3
        assert all(len(set(p[k])) == 3 for k in ("c", "z"))  # no repeated or fixed values
    # two provers holding different cards of one set, each on its own D, give proofs of the
    # same shape and both verify; with the D's exchanged, neither does
    p0, p2 = proof(0, cards), proof(2, cards)
    pts = [CARDS[c] for c in cards]
    assert verify_member(Y, 0, A, hidden(0), pts, p0, CTX) is None
    assert verify_member(Y, 0, A, hidden(2), pts, p2, CTX) is None
    assert verify_member(Y, 0, A, hidden(2), pts, p0, CTX) is not None


def _scalar(v: int) -> str:
    return v.to_bytes(32, "little").hex()


@pytest.mark.parametrize("bad", [
    None, [], "x", {"c": []}, {"c": [], "z": [], "w": []},
    {"c": ["00" * 32] * 3, "z": ["00" * 32] * 3},  # zero scalars
    {"c": [_scalar(g.L)] * 3, "z": [_scalar(1)] * 3},  # non-canonical
    {"c": [_scalar(1)] * 2, "z": [_scalar(1)] * 3},  # a short list
    {"c": [_scalar(1)] * 3, "z": [_scalar(1).upper()] * 3},
    {"c": [1, 2, 3], "z": [_scalar(1)] * 3},
])
def test_malformed_proofs_give_a_reason(bad: Any) -> None:
    pts = CARDS[:3]
    why = verify_member(Y, 0, A, hidden(1), pts, bad, CTX)
    assert isinstance(why, str) and why.startswith("member proof")


def test_malformed_statements_give_a_reason() -> None:
    p = proof(1, [0, 1, 2])
    pts = CARDS[:3]
    for args in ((g.IDENTITY, 0, A, hidden(1), pts),  # identity key
                 (Y, 0, b"\xff" * 32, hidden(1), pts),  # not a point
                 (Y, -1, A, hidden(1), pts), (Y, True, A, hidden(1), pts),
                 (Y, 0, A, hidden(1), []),  # no card
                 (Y, 0, A, CARDS[1], pts),  # degenerate: D is a card point
                 (Y, 0, A, "D", pts), (Y, 0, A, hidden(1), "cards")):
        why = verify_member(*args, p, CTX)  # type: ignore[arg-type]
        assert isinstance(why, str) and why.startswith("member proof"), args
