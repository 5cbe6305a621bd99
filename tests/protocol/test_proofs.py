"""The proofs of deck v2: completeness, determinism and soundness against a cheating prover.

The negative tests are written as an attacker would cheat: each makes a false statement (or a
true statement with a doctored proof) and checks that every verifier refuses it with a reason.
"""

from __future__ import annotations

import copy
import random

import pytest

from protocol import elgamal as eg
from protocol import group as g
from protocol import proof_shuffle
from protocol import proofs as P

CTX = b"table=t1|deck=d|op=deal|step=0|seat=0"


def _keys(n: int, tag: bytes = b"k") -> tuple[list[bytes], list[bytes], bytes]:
    xs = [g.hash_to_scalar(b"test/keys", tag, g.u32(i)) for i in range(n)]
    ys = [g.base_mul(x) for x in xs]
    return xs, ys, g.sum_points(ys)


XS, YS, Y = _keys(3)


def _deck(n: int, y: bytes = Y) -> list[tuple[bytes, bytes]]:
    return [eg.public_encrypt(g.card_point(b"table", "deck/v2", c), y) for c in range(n)]


def _shuffled(n: int, seed: int = 1):
    inputs = _deck(n)
    perm = random.Random(seed).sample(range(n), n)
    outputs, rands = eg.shuffle(Y, inputs, perm, b"shuffle-seed")
    return inputs, outputs, perm, rands


def _prove(inputs, outputs, perm, rands, ctx=CTX):
    return P.prove_shuffle(Y, inputs, outputs, perm, rands, ctx, b"nonce-seed")


# ---- the proof of shuffle: completeness ---------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 1, 2, 5, 110])
def test_an_honest_shuffle_proof_verifies(n: int) -> None:
    inputs, outputs, perm, rands = _shuffled(n)
    proof = _prove(inputs, outputs, perm, rands)
    assert P.verify_shuffle(Y, inputs, outputs, proof, CTX) is None
    assert len(proof["perm_commit"]) == len(proof["s_perm"]) == n


@pytest.mark.parametrize("seed", range(4))
def test_random_permutations_of_chained_shuffles_verify(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(3, 9)
    cts = _deck(n)
    for step in range(3):
        perm = rng.sample(range(n), n)
        out, rands = eg.shuffle(Y, cts, perm, bytes([seed, step]))
        proof = P.prove_shuffle(Y, cts, out, perm, rands, CTX, bytes([step]))
        assert P.verify_shuffle(Y, cts, out, proof, CTX) is None
        cts = out


def test_proofs_are_deterministic_and_json_ready() -> None:
    import json

    inputs, outputs, perm, rands = _shuffled(4)
    a = _prove(inputs, outputs, perm, rands)
    b = _prove(inputs, outputs, perm, rands)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert json.loads(json.dumps(a)) == a
    other = P.prove_shuffle(Y, inputs, outputs, perm, rands, CTX, b"another seed")
    assert other != a and P.verify_shuffle(Y, inputs, outputs, other, CTX) is None
    assert P.prove_key(XS[0], CTX, b"s") == P.prove_key(XS[0], CTX, b"s")
    assert P.prove_shares(XS[0], inputs, CTX, b"s") == P.prove_shares(XS[0], inputs, CTX, b"s")


def test_the_same_nonce_seed_on_another_statement_gives_fresh_nonces() -> None:
    """Re-using a nonce with two challenges reveals the witness; the nonces bind the statement."""
    p1 = P.prove_key(XS[0], b"ctx-1", b"same seed")
    p2 = P.prove_key(XS[0], b"ctx-2", b"same seed")
    # z = w + c·x: with the same w, x = (z1 − z2)/(c1 − c2) would leak; check that w differs
    c1, z1 = (g.sc_int(bytes.fromhex(p1[k])) for k in ("c", "z"))
    c2, z2 = (g.sc_int(bytes.fromhex(p2[k])) for k in ("c", "z"))
    leaked = (z1 - z2) * pow(c1 - c2, -1, g.L) % g.L
    assert leaked != g.sc_int(XS[0])


# ---- the proof of shuffle: an attacker's attempts -----------------------------------------------------
def _other_card_ct(i: int) -> tuple[bytes, bytes]:
    return eg.reencrypt(Y, eg.public_encrypt(g.card_point(b"table", "deck/v2", 900 + i), Y),
                        g.hash_to_scalar(b"test", b"sub"))


def test_substituting_one_output_is_caught() -> None:
    inputs, outputs, perm, rands = _shuffled(5)
    proof = _prove(inputs, outputs, perm, rands)
    for k in range(5):
        bad = list(outputs)
        bad[k] = _other_card_ct(k)
        assert P.verify_shuffle(Y, inputs, bad, proof, CTX) is not None


def _cheating_prover_proof(monkeypatch, inputs, outputs, perm, rands):
    """A prover that runs the honest algorithm on a map that is not a permutation."""
    monkeypatch.setattr(proof_shuffle, "check_perm", lambda perm, n: None)
    return _prove(inputs, outputs, perm, rands)


def test_duplicating_an_input_is_caught_even_with_a_consistent_proof(monkeypatch) -> None:
    inputs = _deck(5)
    fake = [0, 0, 2, 3, 4]  # card 0 twice, card 1 dropped
    nxt = g.nonce_stream(b"r", b"reenc")
    rands = [nxt() for _ in range(5)]
    outputs = [eg.reencrypt(Y, inputs[j], r) for j, r in zip(fake, rands, strict=True)]
    proof = _cheating_prover_proof(monkeypatch, inputs, outputs, fake, rands)
    assert P.verify_shuffle(Y, inputs, outputs, proof, CTX) is not None


def test_dropping_one_card_is_caught() -> None:
    inputs, outputs, perm, rands = _shuffled(5)
    proof = _prove(inputs, outputs, perm, rands)
    assert "outputs for" in P.verify_shuffle(Y, inputs, outputs[:4], proof, CTX)
    # a proof made for 4 inputs, claimed for 5
    small = _prove(inputs[:4], *_shuffle_of(inputs[:4]))
    assert P.verify_shuffle(Y, inputs, outputs, small, CTX) is not None


def _shuffle_of(inputs):
    n = len(inputs)
    perm = list(range(n))[::-1]
    outputs, rands = eg.shuffle(Y, inputs, perm, b"x")
    return outputs, perm, rands


def test_scaling_one_position_is_caught(monkeypatch) -> None:
    """Multiplying an output's components by a known scalar s turns card M into s·M (a way to
    link or peek at positions); the scaled ciphertext is no re-encryption of any input."""
    inputs, outputs, perm, rands = _shuffled(5)
    s = 7
    bad = list(outputs)
    bad[2] = (g.mul_int(s, outputs[2][0]), g.mul_int(s, outputs[2][1]))
    assert P.verify_shuffle(Y, inputs, bad, _prove(inputs, outputs, perm, rands), CTX) is not None
    # and a proof computed on the scaled outputs (the prover's algorithm run as if honest)
    assert P.verify_shuffle(Y, inputs, bad, _prove(inputs, bad, perm, rands), CTX) is not None


def test_a_proof_does_not_carry_over_to_other_inputs_context_or_key() -> None:
    for n in (0, 1, 3):
        inputs, outputs, perm, rands = _shuffled(n)
        proof = _prove(inputs, outputs, perm, rands)
        assert P.verify_shuffle(Y, inputs, outputs, proof, CTX + b"!") is not None
        assert P.verify_shuffle(YS[0], inputs, outputs, proof, CTX) is not None
        if n:
            other_inputs = [eg.reencrypt(Y, ct, g.ONE) for ct in inputs]
            assert P.verify_shuffle(Y, other_inputs, outputs, proof, CTX) is not None


def _every_tampering(proof: dict):
    """Every single-field change: each scalar +1, each point replaced by another valid point."""
    other_point = g.card_point(b"x", "y", 1).hex()
    for key, val in proof.items():
        items = [(None, val)] if isinstance(val, str) else list(enumerate(val))
        for idx, v in items:
            b = bytes.fromhex(v)
            if g.is_valid_point(b):
                new = other_point
            else:
                new = g.sc(g.sc_int(b) + 1).hex()
            bad = copy.deepcopy(proof)
            if idx is None:
                bad[key] = new
            else:
                bad[key][idx] = new
            yield f"{key}[{idx}]", bad


def test_tampering_with_any_single_field_is_caught() -> None:
    inputs, outputs, perm, rands = _shuffled(3)
    proof = _prove(inputs, outputs, perm, rands)
    count = 0
    for where, bad in _every_tampering(proof):
        assert P.verify_shuffle(Y, inputs, outputs, bad, CTX) is not None, where
        count += 1
    assert count == 1 + 4 + 5 + 5 * 3  # c, s1..s4, t1..t4b, five lists of 3


def test_swapping_two_responses_is_caught() -> None:
    inputs, outputs, perm, rands = _shuffled(4)
    proof = _prove(inputs, outputs, perm, rands)
    for key in ("s_perm", "s_chain", "perm_commit", "chain", "t_chain"):
        bad = copy.deepcopy(proof)
        bad[key][0], bad[key][1] = bad[key][1], bad[key][0]
        assert P.verify_shuffle(Y, inputs, outputs, bad, CTX) is not None, key
    bad = dict(proof, s1=proof["s2"], s2=proof["s1"])
    assert P.verify_shuffle(Y, inputs, outputs, bad, CTX) is not None
    # swapping two outputs (with the proof of the unswapped order) is a different statement
    swapped = [outputs[1], outputs[0], *outputs[2:]]
    assert P.verify_shuffle(Y, inputs, swapped, proof, CTX) is not None


def test_a_reason_names_the_failing_equation() -> None:
    inputs, outputs, perm, rands = _shuffled(3)
    proof = _prove(inputs, outputs, perm, rands)
    bad = dict(proof, s4=g.sc(g.sc_int(bytes.fromhex(proof["s4"])) + 1).hex())
    assert P.verify_shuffle(Y, inputs, outputs, bad, CTX) == "shuffle proof: equation t4a fails"
    bad = dict(proof, c=proof["s1"])
    assert "challenge mismatch" in P.verify_shuffle(Y, inputs, outputs, bad, CTX)


def test_the_prover_refuses_misuse() -> None:
    inputs, outputs, perm, rands = _shuffled(3)
    with pytest.raises(ValueError):
        _prove(inputs, outputs, [0, 0, 1], rands)
    with pytest.raises(ValueError):
        _prove(inputs, outputs[:2], perm, rands)
    with pytest.raises(ValueError):
        _prove(inputs, outputs, perm, rands[:2])


# ---- key proofs ------------------------------------------------------------------------------------------
def test_key_proof_binds_key_and_context() -> None:
    proof = P.prove_key(XS[0], CTX, b"seed")
    assert P.verify_key(YS[0], proof, CTX) is None
    assert P.verify_key(YS[1], proof, CTX) is not None
    assert P.verify_key(YS[0], proof, CTX + b"x") is not None
    for _, bad in _every_tampering(proof):
        assert P.verify_key(YS[0], bad, CTX) is not None
    # a key copied from another seat cannot be proven without its secret: a proof under one's own
    # key does not transfer
    assert P.verify_key(YS[1], P.prove_key(XS[0], CTX, b"s"), CTX) is not None
    with pytest.raises(ValueError):
        P.prove_key(bytes(32), CTX, b"s")


# ---- decryption shares ----------------------------------------------------------------------------------
@pytest.mark.parametrize("m", [0, 1, 2, 10])
def test_shares_proof_completeness(m: int) -> None:
    cts = _shuffled(m)[1]
    shares = [eg.share(XS[1], ct) for ct in cts]
    proof = P.prove_shares(XS[1], cts, CTX, b"seed")
    assert P.verify_shares(YS[1], cts, shares, proof, CTX) is None
    assert P.verify_shares(YS[1], cts, shares, proof, CTX + b"?") is not None
    assert P.verify_shares(YS[0], cts, shares, proof, CTX) is not None


def test_a_wrong_share_or_a_share_for_another_card_is_caught() -> None:
    cts = _shuffled(4)[1]
    shares = [eg.share(XS[1], ct) for ct in cts]
    proof = P.prove_shares(XS[1], cts, CTX, b"seed")
    for k in range(4):
        wrong = list(shares)
        wrong[k] = eg.share(XS[2], cts[k])  # another seat's key
        assert P.verify_shares(YS[1], cts, wrong, proof, CTX) is not None
        other = list(shares)
        other[k] = shares[(k + 1) % 4]  # the share of another card
        assert P.verify_shares(YS[1], cts, other, proof, CTX) is not None
        scaled = list(shares)
        scaled[k] = g.mul_int(2, shares[k])
        assert P.verify_shares(YS[1], cts, scaled, proof, CTX) is not None
    # a wrong share with a proof made as if it were right (prover's algorithm on the lie)
    cheat = list(shares)
    cheat[0] = g.card_point(b"x", "y", 0)
    assert P.verify_shares(YS[1], cts, cheat, proof, CTX) is not None
    assert P.verify_shares(YS[1], cts, shares[:3], proof, CTX) is not None
    assert P.verify_shares(YS[1], cts[:3], shares[:3], proof, CTX) is not None
    for _, bad in _every_tampering(proof):
        assert P.verify_shares(YS[1], cts, shares, bad, CTX) is not None


def test_shares_reach_a_chained_deck_and_decode() -> None:
    cts = _shuffled(3)[1]
    allshares = []
    for j in range(3):
        shares = [eg.share(XS[j], ct) for ct in cts]
        proof = P.prove_shares(XS[j], cts, CTX, bytes([j]))
        assert P.verify_shares(YS[j], cts, shares, proof, CTX) is None
        allshares.append(shares)
    decoded = {eg.decode(ct, [allshares[j][i] for j in range(3)]) for i, ct in enumerate(cts)}
    assert decoded == {g.card_point(b"table", "deck/v2", c) for c in range(3)}


# ---- encrypted shares ------------------------------------------------------------------------------------
def _encrypted(m: int, sender: int = 0, receiver: int = 1):
    cts = _shuffled(m)[1]
    rhos = [g.hash_to_scalar(b"test/rho", g.u32(i)) for i in range(m)]
    encs = [P.encrypt_share(XS[sender], ct, YS[receiver], r) for ct, r in zip(cts, rhos, strict=True)]
    proof = P.prove_encrypted_shares(XS[sender], cts, YS[receiver], encs, rhos, CTX, b"seed")
    return cts, encs, rhos, proof


@pytest.mark.parametrize("m", [0, 1, 3])
def test_encrypted_shares_completeness_and_receiver_reads_them(m: int) -> None:
    cts, encs, _, proof = _encrypted(m)
    assert P.verify_encrypted_shares(YS[0], cts, YS[1], encs, proof, CTX) is None
    for ct, e in zip(cts, encs, strict=True):
        assert eg.decrypt_share(XS[1], e) == eg.share(XS[0], ct)
    assert P.verify_encrypted_shares(YS[0], cts, YS[2], encs, proof, CTX) is not None
    assert P.verify_encrypted_shares(YS[2], cts, YS[1], encs, proof, CTX) is not None
    assert P.verify_encrypted_shares(YS[0], cts, YS[1], encs, proof, CTX + b"!") is not None


def test_an_encrypted_share_that_hides_a_wrong_share_is_caught() -> None:
    cts, encs, rhos, proof = _encrypted(3)
    # the sender encrypts the share of another key, or of another card, and proves as if honest
    for k in range(3):
        bad = list(encs)
        bad[k] = P.encrypt_share(XS[2], cts[k], YS[1], rhos[k])
        cheat = P.prove_encrypted_shares(XS[0], cts, YS[1], bad, rhos, CTX, b"seed")
        assert P.verify_encrypted_shares(YS[0], cts, YS[1], bad, cheat, CTX) is not None
        assert P.verify_encrypted_shares(YS[0], cts, YS[1], bad, proof, CTX) is not None
        swapped = list(encs)
        swapped[k] = P.encrypt_share(XS[0], cts[(k + 1) % 3], YS[1], rhos[k])
        cheat = P.prove_encrypted_shares(XS[0], cts, YS[1], swapped, rhos, CTX, b"seed")
        assert P.verify_encrypted_shares(YS[0], cts, YS[1], swapped, cheat, CTX) is not None
    for _, bad in _every_tampering(proof):
        assert P.verify_encrypted_shares(YS[0], cts, YS[1], encs, bad, CTX) is not None


def test_five_seats_five_proven_shuffles_then_proven_shares_recover_every_card() -> None:
    """The whole v2 flow on 8 cards: keys with proofs, a joint key, each seat's shuffle proven and
    verified in turn, then every seat's shares of every card proven, verified and decoded."""
    xs, ys, _ = _keys(5, b"five")
    for j in range(5):
        assert P.verify_key(ys[j], P.prove_key(xs[j], CTX, bytes([j])), CTX) is None
    y = g.sum_points(ys)
    cards = [g.card_point(b"table", "deck/v2", c) for c in range(8)]
    cts = [eg.public_encrypt(m, y) for m in cards]
    where = list(range(8))
    rng = random.Random(5)
    for seat in range(5):
        ctx = CTX + b"|shuffle|" + bytes([seat])
        perm = rng.sample(range(8), 8)
        out, rands = eg.shuffle(y, cts, perm, bytes([seat]))
        proof = P.prove_shuffle(y, cts, out, perm, rands, ctx, bytes([seat]))
        assert P.verify_shuffle(y, cts, out, proof, ctx) is None
        cts, where = out, [where[perm[i]] for i in range(8)]
    shares = []
    for j in range(5):
        d = [eg.share(xs[j], ct) for ct in cts]
        assert P.verify_shares(ys[j], cts, d, P.prove_shares(xs[j], cts, CTX, bytes([j])), CTX) is None
        shares.append(d)
    for i, ct in enumerate(cts):
        assert eg.decode(ct, [shares[j][i] for j in range(5)]) == cards[where[i]]
