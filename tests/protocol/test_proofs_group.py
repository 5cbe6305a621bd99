"""The group helpers deck v2's proofs are built on (protocol/group.py, the v2 part)."""

from __future__ import annotations

import pytest

from protocol import group as g

# RFC 9496 appendix A.2: a negative field element (no ristretto255 encoding)
NEGATIVE = bytes.fromhex("01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")


def _pts(n: int) -> list[bytes]:
    return [g.card_point(b"grp", "d", i) for i in range(n)]


def test_base_point_and_scalar_arithmetic_agree_with_integers() -> None:
    assert g.base_mul(g.ONE) == g.G and g.is_valid_point(g.G)
    a, b = g.hash_to_scalar(b"t", b"a"), g.hash_to_scalar(b"t", b"b")
    ai, bi = g.sc_int(a), g.sc_int(b)
    assert g.sc_add(a, b) == g.sc(ai + bi) == g.scalar_add(a, b)
    assert g.sc_sub(a, b) == g.scalar_sub(a, b)
    assert g.sc_mul(a, b) == g.scalar_mul(a, b)
    assert g.sc_add(a, g.sc_neg(a)) == bytes(32)
    assert g.sc_mul(a, g.sc_inv(a)) == g.ONE
    assert g.sc_from_int(-1) == (g.L - 1).to_bytes(32, "little")
    with pytest.raises(g.InvalidScalar):
        g.sc_inv(bytes(32))
    # k·G through base_mul equals k·G through the variable-base multiplication
    assert g.base_mul(a) == g.mul(a, g.G)


def test_add_sub_and_the_identity() -> None:
    p, q = _pts(2)
    assert g.sub(g.add(p, q), q) == p
    assert g.sub(p, p) == g.IDENTITY
    assert g.add(p, g.IDENTITY) == p
    assert g.sum_points([]) == g.IDENTITY
    assert g.mul_any(5, g.IDENTITY) == g.IDENTITY
    assert g.mul_int(0, p) == g.IDENTITY
    with pytest.raises(g.InvalidPoint):
        g.mul_int(5, g.IDENTITY)  # the identity is never a valid input
    with pytest.raises(g.InvalidPoint):
        g.add(p, b"\x02" + bytes(31))  # not on the curve


def test_msm_is_the_sum_of_products_and_validates_every_point() -> None:
    ps = _pts(5)
    ks = [g.hash_to_scalar(b"t", g.u32(i)) for i in range(5)]
    expect = g.sum_points(g.mul(k, p) for k, p in zip(ks, ps, strict=True))
    assert g.msm(ks, ps) == expect
    assert g.msm([], []) == g.IDENTITY
    assert g.msm([ks[0], g.sc_neg(ks[0])], [ps[0], ps[0]]) == g.IDENTITY
    for bad in (NEGATIVE, g.IDENTITY, b"\x02" + bytes(31), b"short"):
        for k in (ks[1], bytes(32)):  # even a zero coefficient does not let a bad point through
            with pytest.raises(g.InvalidPoint) as e:
                g.msm([ks[0], k, ks[2]], [ps[0], bad, ps[2]])
            assert e.value.index == 1
    with pytest.raises(ValueError):
        g.msm(ks, ps[:4])


def test_hash_to_scalar_is_domain_separated_length_prefixed_and_non_zero() -> None:
    h = g.hash_to_scalar(b"d", b"ab", b"c")
    assert h == g.hash_to_scalar(b"d", b"ab", b"c")
    assert h != g.hash_to_scalar(b"d", b"a", b"bc")
    assert h != g.hash_to_scalar(b"e", b"ab", b"c")
    assert h != g.hash_to_scalar(b"d", b"ab", b"c", b"")
    assert all(0 < g.sc_int(g.hash_to_scalar(b"d", g.u32(i))) < g.L for i in range(200))


def test_generators_are_valid_distinct_prefix_stable_and_label_bound() -> None:
    hs = g.generators(b"lbl", 20)
    assert len(set(hs)) == 20 and all(g.is_valid_point(h) for h in hs)
    assert g.generators(b"lbl", 5) == hs[:5]
    assert g.generators(b"lbl", 0) == []
    assert not set(g.generators(b"other", 20)) & set(hs)
    assert g.G not in hs


def test_nonce_stream_is_deterministic_and_bound_to_seed_and_label() -> None:
    a = g.nonce_stream(b"seed", b"lbl")
    first = [a() for _ in range(5)]
    b = g.nonce_stream(b"seed", b"lbl")
    assert [b() for _ in range(5)] == first
    assert len(set(first)) == 5 and all(0 < g.sc_int(k) < g.L for k in first)
    assert g.nonce_stream(b"seed2", b"lbl")() != first[0]
    assert g.nonce_stream(b"seed", b"lbl2")() != first[0]


def test_base_mul_refuses_zero_and_malformed_scalars() -> None:
    for bad in (bytes(32), g.L.to_bytes(32, "little"), b"short"):
        with pytest.raises(g.InvalidScalar):
            g.base_mul(bad)
    assert g.base_mul_int(0) == g.IDENTITY


def test_generators_are_the_same_when_first_computed_from_several_threads() -> None:
    import threading

    label = b"threads/" + g.random_scalar()  # a label no other test has cached
    results: list[list[bytes]] = []

    def work() -> None:
        results.append(g.generators(label, 30))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    g._GENERATORS.pop(label)
    assert len(results) == 4 and all(r == results[0] for r in results)
    assert g.generators(label, 30) == results[0]  # recomputed from scratch: the same list
