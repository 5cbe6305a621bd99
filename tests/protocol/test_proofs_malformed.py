"""Every verify_* returns a one-line reason, and never raises, whatever JSON value it is given."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import elgamal as eg
from protocol import group as g
from protocol import proofs as P

CTX = b"ctx"
# RFC 9496 appendix A.2: a negative field element, a non-canonical one, a non-square
NEGATIVE = bytes.fromhex("01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
NON_CANONICAL = bytes.fromhex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
NON_SQUARE = bytes.fromhex("26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371")

XS = [g.hash_to_scalar(b"test/malformed", g.u32(i)) for i in range(2)]
YS = [g.base_mul(x) for x in XS]
Y = g.sum_points(YS)
INPUTS = [eg.public_encrypt(g.card_point(b"t", "d", c), Y) for c in range(3)]
OUTPUTS, RANDS = eg.shuffle(Y, INPUTS, [2, 0, 1], b"s")
SHUFFLE = P.prove_shuffle(Y, INPUTS, OUTPUTS, [2, 0, 1], RANDS, CTX, b"n")
SHARES = [eg.share(XS[0], ct) for ct in OUTPUTS]
SHARES_PROOF = P.prove_shares(XS[0], OUTPUTS, CTX, b"n")
RHOS = [g.hash_to_scalar(b"rho", g.u32(i)) for i in range(3)]
ENCS = [P.encrypt_share(XS[0], ct, YS[1], r) for ct, r in zip(OUTPUTS, RHOS, strict=True)]
ENC_PROOF = P.prove_encrypted_shares(XS[0], OUTPUTS, YS[1], ENCS, RHOS, CTX, b"n")
KEY_PROOF = P.prove_key(XS[0], CTX, b"n")


def _verifiers():
    return {
        "shuffle": (SHUFFLE, lambda pr: P.verify_shuffle(Y, INPUTS, OUTPUTS, pr, CTX)),
        "shares": (SHARES_PROOF, lambda pr: P.verify_shares(YS[0], OUTPUTS, SHARES, pr, CTX)),
        "encrypted": (ENC_PROOF, lambda pr: P.verify_encrypted_shares(YS[0], OUTPUTS, YS[1], ENCS, pr, CTX)),
        "key": (KEY_PROOF, lambda pr: P.verify_key(YS[0], pr, CTX)),
    }


def _is_reason(r: object) -> bool:
    return isinstance(r, str) and 0 < len(r) < 200 and "\n" not in r


def test_the_fixtures_verify() -> None:
    for name, (proof, verify) in _verifiers().items():
        assert verify(proof) is None, name


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=70)
    | st.sampled_from(["0" * 64, "f" * 64, "F" * 64, g.G.hex(), g.L.to_bytes(32, "little").hex(),
                       NEGATIVE.hex(), NON_CANONICAL.hex(), g.IDENTITY.hex(), g.G.hex()[:62]]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(value=json_values)
def test_any_json_value_as_the_whole_proof_gives_a_reason(value: object) -> None:
    for name, (_, verify) in _verifiers().items():
        assert _is_reason(verify(value)), name


@settings(max_examples=80, deadline=None)
@given(data=st.data(), value=json_values)
def test_any_json_value_in_any_field_gives_a_reason(data, value: object) -> None:
    for name, (proof, verify) in _verifiers().items():
        bad = copy.deepcopy(proof)
        key = data.draw(st.sampled_from(sorted(bad)), label=name)
        if isinstance(bad[key], list) and bad[key] and data.draw(st.booleans()):
            bad[key][data.draw(st.integers(0, len(bad[key]) - 1))] = value
        else:
            bad[key] = value
        if bad != proof:
            assert _is_reason(verify(bad)), (name, key)


@pytest.mark.parametrize("bad", ["0" * 64, NEGATIVE.hex(), NON_CANONICAL.hex(), g.IDENTITY.hex(),
                                 OUTPUTS[0][0].hex().upper(), g.G.hex() + "00", "zz" * 32, 7, None])
def test_invalid_points_in_point_fields_give_a_reason(bad) -> None:
    for key in ("perm_commit", "chain", "t_chain"):
        for i in range(3):
            pr = copy.deepcopy(SHUFFLE)
            pr[key][i] = bad
            assert _is_reason(P.verify_shuffle(Y, INPUTS, OUTPUTS, pr, CTX))
    for key in ("t1", "t2", "t3", "t4a", "t4b"):
        assert _is_reason(P.verify_shuffle(Y, INPUTS, OUTPUTS, dict(SHUFFLE, **{key: bad}), CTX))


@pytest.mark.parametrize("bad", ["0" * 64, g.L.to_bytes(32, "little").hex(), "f" * 64,
                                 (g.L + 1).to_bytes(32, "little").hex(), "A" * 64])
def test_zero_and_non_canonical_scalars_give_a_reason(bad) -> None:
    for name, (proof, verify) in _verifiers().items():
        for key, val in proof.items():
            pr = copy.deepcopy(proof)
            if isinstance(val, list):
                pr[key][0] = bad
            else:
                pr[key] = bad
            if key in ("c", "z", "z1", "z2", "s1", "s2", "s3", "s4", "s_chain", "s_perm"):
                r = verify(pr)
                assert _is_reason(r) and "scalar" in r or "hex" in r, (name, key, r)


def test_wrong_list_lengths_and_huge_lists_are_refused_before_parsing() -> None:
    for key in ("perm_commit", "chain", "t_chain", "s_chain", "s_perm"):
        for n in (0, 2, 4, 10**6):
            pr = dict(SHUFFLE, **{key: ["00"] * n})
            r = P.verify_shuffle(Y, INPUTS, OUTPUTS, pr, CTX)
            assert r == f"shuffle proof: malformed proof: {key!r} has {n} items, the statement needs 3"


def test_missing_and_extra_fields() -> None:
    for name, (proof, verify) in _verifiers().items():
        for key in proof:
            pr = {k: v for k, v in proof.items() if k != key}
            assert "missing" in verify(pr), name
        assert "unexpected" in verify(dict(proof, extra="1")), name


def test_invalid_points_in_the_statement_give_a_reason() -> None:
    bad_out = [OUTPUTS[0], (NEGATIVE, OUTPUTS[1][1]), OUTPUTS[2]]
    assert _is_reason(P.verify_shuffle(Y, INPUTS, bad_out, SHUFFLE, CTX))
    bad_in = [INPUTS[0], INPUTS[1], (INPUTS[2][0], NON_CANONICAL)]
    assert _is_reason(P.verify_shuffle(Y, bad_in, OUTPUTS, SHUFFLE, CTX))
    for y in (g.IDENTITY, NEGATIVE, b"short", None, "hex"):
        assert _is_reason(P.verify_shuffle(y, INPUTS, OUTPUTS, SHUFFLE, CTX))
        assert _is_reason(P.verify_key(y, KEY_PROOF, CTX))
        assert _is_reason(P.verify_shares(y, OUTPUTS, SHARES, SHARES_PROOF, CTX))
        assert _is_reason(P.verify_encrypted_shares(y, OUTPUTS, YS[1], ENCS, ENC_PROOF, CTX))
        assert _is_reason(P.verify_encrypted_shares(YS[0], OUTPUTS, y, ENCS, ENC_PROOF, CTX))
    for junk in (None, 3, "x", [1, 2], [(b"a", b"b")], [[OUTPUTS[0][0]]]):
        assert _is_reason(P.verify_shuffle(Y, junk, OUTPUTS, SHUFFLE, CTX))
        assert _is_reason(P.verify_shares(YS[0], junk, SHARES, SHARES_PROOF, CTX))
        assert _is_reason(P.verify_shares(YS[0], OUTPUTS, junk, SHARES_PROOF, CTX))
        assert _is_reason(P.verify_encrypted_shares(YS[0], OUTPUTS, YS[1], junk, ENC_PROOF, CTX))
    assert _is_reason(P.verify_shares(YS[0], OUTPUTS, [NEGATIVE, *SHARES[1:]], SHARES_PROOF, CTX))
    assert _is_reason(P.verify_key(YS[0], KEY_PROOF, "ctx"))


def test_strict_json_helpers() -> None:
    assert P.point_from_hex(g.G.hex()) == g.G
    pt = OUTPUTS[0][0]
    assert P.point_from_hex(pt.hex()) == pt and pt.hex() != pt.hex().upper()
    for bad in (pt.hex().upper(), g.IDENTITY.hex(), NEGATIVE.hex(), NON_CANONICAL.hex(), g.G, 5, None,
                g.G.hex()[:-2], " " + g.G.hex()[1:]):
        assert P.point_from_hex(bad) is None
    k = g.sc(0xABCDEF)
    assert P.scalar_from_hex(k.hex()) == k
    for bad in ("0" * 64, g.L.to_bytes(32, "little").hex(), k.hex().upper(), 1, None, k.hex()[:-1]):
        assert P.scalar_from_hex(bad) is None
    ct = OUTPUTS[0]
    assert P.ct_from_json(P.ct_to_json(ct)) == ct
    assert P.ct_from_json(tuple(P.ct_to_json(ct))) == ct
    for bad in (None, [], [ct[0].hex()], [*P.ct_to_json(ct), ct[0].hex()], {"a": 1},
                [ct[0].hex(), NEGATIVE.hex()], ct):
        assert P.ct_from_json(bad) is None


def test_unchecked_ciphertexts_are_validated_by_an_accepting_shuffle_proof() -> None:
    """ct_from_json(check=False) skips the point checks; verify_shuffle must then refuse any
    invalid point among the outputs (the identity, a negative, a non-canonical, a non-square)."""
    for bad in (NEGATIVE, g.IDENTITY, NON_CANONICAL, NON_SQUARE):
        for k in (0, 1):
            js = [P.ct_to_json(ct) for ct in OUTPUTS]
            js[1][k] = bad.hex()
            parsed = [P.ct_from_json(v, check=False) for v in js]
            assert all(ct is not None for ct in parsed)
            assert P.ct_from_json(js[1]) is None
            assert _is_reason(P.verify_shuffle(Y, INPUTS, parsed, SHUFFLE, CTX))
    assert P.ct_from_json(["00" * 31, "zz"], check=False) is None
