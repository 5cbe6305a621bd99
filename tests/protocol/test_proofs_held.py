"""A proof that held is remembered (``protocol.proof_common.remember_holds``): the same statement
and proof checked again in the same process cost no multiplication. These tests pin that nothing
else is taken on trust: any other statement, proof or context -- one byte, one type, one key's
order apart -- is checked afresh, and a proof that fails is never remembered."""

from __future__ import annotations

import copy

import pytest

from protocol import group as g
from protocol import proof_common
from protocol import proofs as P
from tests.protocol.test_proofs import CTX, XS, YS, Y, _deck, _prove, _shuffled


@pytest.fixture()
def mults(monkeypatch) -> list[int]:
    """How many variable-base multiplications libsodium has done since the test started (the
    held proofs forgotten first)."""
    proof_common.forget_held()
    count = [0]
    real = g._raw_mul

    def counted(k, p):
        count[0] += 1
        return real(k, p)

    monkeypatch.setattr(g, "_raw_mul", counted)
    yield count
    proof_common.forget_held()


def test_a_shuffle_proof_that_held_is_not_computed_again(mults) -> None:
    inputs, outputs, perm, rands = _shuffled(6)
    proof = _prove(inputs, outputs, perm, rands)
    assert P.verify_shuffle(Y, inputs, outputs, proof, CTX) is None
    first = mults[0]
    assert first > 6 * 6  # the proof was really checked: about eight multiplications a card
    assert P.verify_shuffle(Y, list(inputs), list(outputs), copy.deepcopy(proof), CTX) is None
    assert mults[0] == first


def _flip(h: str) -> str:
    return h[:10] + ("0" if h[10] != "0" else "1") + h[11:]


def test_any_other_statement_or_proof_is_checked_afresh_and_fails(mults) -> None:
    inputs, outputs, perm, rands = _shuffled(5)
    proof = _prove(inputs, outputs, perm, rands)
    assert P.verify_shuffle(Y, inputs, outputs, proof, CTX) is None
    swapped = [outputs[1], outputs[0], *outputs[2:]]
    bad_s = dict(proof, s1=_flip(proof["s1"]))
    bad_list = dict(proof, s_perm=[_flip(proof["s_perm"][0]), *proof["s_perm"][1:]])
    tupled = dict(proof, s_perm=tuple(proof["s_perm"]))  # the same strings, another type
    for args in [(Y, inputs, swapped, proof, CTX), (Y, inputs, outputs, bad_s, CTX),
                 (Y, inputs, outputs, bad_list, CTX), (Y, inputs, outputs, proof, CTX + b"!"),
                 (YS[0], inputs, outputs, proof, CTX), (Y, _deck(5, YS[1]), outputs, proof, CTX)]:
        assert P.verify_shuffle(*args) is not None
    # the same strings in a tuple, not the list that held: not looked up but checked again
    assert P.verify_shuffle(Y, inputs, outputs, tupled, CTX) == \
        P.verify_shuffle.__wrapped__(Y, inputs, outputs, tupled, CTX) is not None


def test_a_proof_that_fails_is_checked_every_time(mults) -> None:
    inputs, outputs, perm, rands = _shuffled(4)
    bad = dict(_prove(inputs, outputs, perm, rands))
    bad["s1"] = _flip(bad["s1"])  # the challenge still matches: the equations are computed
    reasons = []
    for _ in range(2):
        before = mults[0]
        reasons.append(P.verify_shuffle(Y, inputs, outputs, bad, CTX))
        assert mults[0] > before
    assert reasons[0] == reasons[1] is not None


def test_share_proofs_are_remembered_the_same_way(mults) -> None:
    from protocol import elgamal as eg

    cts = _shuffled(3)[1]
    shares = [eg.share(XS[0], ct) for ct in cts]
    proof = P.prove_shares(XS[0], cts, CTX, b"seed")
    assert P.verify_shares(YS[0], cts, shares, proof, CTX) is None
    first = mults[0]
    assert P.verify_shares(YS[0], cts, shares, proof, CTX) is None
    assert mults[0] == first
    assert P.verify_shares(YS[1], cts, shares, proof, CTX) is not None
    assert P.verify_shares(YS[0], cts, shares[::-1], proof, CTX) is not None
    assert mults[0] > first
