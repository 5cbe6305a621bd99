"""Primitives: the prime-order group of edwards25519 through libsodium."""

from __future__ import annotations

import pathlib
import random
import re

import nacl.bindings as nb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import group as g

P = 2**255 - 19
TORSION2 = (P - 1).to_bytes(32, "little")  # (0, -1): the point of order 2
IDENTITY = (1).to_bytes(32, "little")


def test_every_card_round_trips_under_a_key() -> None:
    points, index = g.card_table(b"tbl", "deck/v1", 110)
    assert len(set(points)) == 110
    k = g.random_scalar()
    kinv = g.scalar_inv(k)
    for c, pt in enumerate(points):
        assert g.is_valid_point(pt)
        locked = g.mul(k, pt)
        assert locked != pt
        assert index[g.mul(kinv, locked)] == c


def test_card_points_depend_on_table_and_spec() -> None:
    a = g.card_point(b"t1", "spec", 0)
    assert a != g.card_point(b"t2", "spec", 0)
    assert a != g.card_point(b"t1", "spec2", 0)
    assert a != g.card_point(b"t1", "spec", 1)
    # length prefixes keep the encoding injective: shifting bytes between fields changes the point
    assert g.card_point(b"ab", "c", 0) != g.card_point(b"a", "bc", 0)


@settings(max_examples=20, deadline=None)
@given(st.randoms(use_true_random=False))
def test_five_keys_commute_in_random_orders(rng: random.Random) -> None:
    pt = g.card_point(b"tbl", "deck", rng.randrange(110))
    keys = [g.random_scalar() for _ in range(5)]
    orders = [rng.sample(keys, 5) for _ in range(3)]
    results = set()
    for order in orders:
        x = pt
        for k in order:
            x = g.mul(k, x)
        results.add(x)
    assert len(results) == 1
    # and stripping them in yet another order gets the card back
    x = results.pop()
    for k in rng.sample(keys, 5):
        x = g.mul(g.scalar_inv(k), x)
    assert x == pt


def _torsion_tagged() -> bytes:
    return g.add(g.card_point(b"tbl", "deck", 3), TORSION2)


@pytest.mark.parametrize("bad", [
    pytest.param(IDENTITY, id="identity"),
    pytest.param(TORSION2, id="small-order"),
    pytest.param("torsion", id="outside-prime-order-subgroup"),
    pytest.param((P + 1).to_bytes(32, "little"), id="non-canonical"),
    pytest.param(b"\x02" + bytes(31), id="not-on-curve"),
    pytest.param(bytes(31), id="short"),
])
def test_invalid_points_are_rejected(bad: bytes | str) -> None:
    pt = _torsion_tagged() if bad == "torsion" else bad
    assert isinstance(pt, bytes)
    assert not g.is_valid_point(pt)
    with pytest.raises(g.InvalidPoint):
        g.validate_point(pt)
    with pytest.raises(g.InvalidPoint):
        g.mul(g.random_scalar(), pt)
    with pytest.raises(g.InvalidPoint) as e:
        g.mul_all(g.random_scalar(), [g.card_point(b"t", "d", 0), pt])
    assert e.value.index == 1


def test_zero_and_unreduced_scalars_are_rejected() -> None:
    with pytest.raises(g.InvalidScalar):
        g.validate_scalar(bytes(32))
    with pytest.raises(g.InvalidScalar):
        g.validate_scalar(g.L.to_bytes(32, "little"))
    with pytest.raises(g.InvalidScalar):
        g.validate_scalar(bytes(31))
    with pytest.raises(g.InvalidScalar):
        g.scalar_reduce64(g.L.to_bytes(64, "little"))  # reduces to zero
    assert g.validate_scalar(g.ONE) == g.ONE
    # a zero scalar never multiplies: libsodium refuses the identity result
    with pytest.raises(g.InvalidPoint):
        g.mul(bytes(32), g.card_point(b"t", "d", 0))


def test_clamped_multiplication_does_not_round_trip() -> None:
    """Regression: clamping changes the scalar, so k^-1 (k P) != P. Never use it."""
    pt = g.card_point(b"tbl", "deck", 7)
    k = g.random_scalar()
    kinv = g.scalar_inv(k)
    clamped = nb.crypto_scalarmult_ed25519(kinv, nb.crypto_scalarmult_ed25519(k, pt))
    assert clamped != pt
    assert g.mul(kinv, g.mul(k, pt)) == pt


def test_protocol_sources_never_use_clamped_multiplication() -> None:
    src = pathlib.Path(g.__file__).parent
    pattern = re.compile(r"crypto_scalarmult_ed25519(_base)?\s*\(")
    for f in sorted(src.glob("*.py")):
        assert not pattern.search(f.read_text()), f"{f.name} calls clamped scalar multiplication"


def test_scalars_from_64_bytes_are_reduced_and_uniform_enough() -> None:
    ks = [g.random_scalar() for _ in range(200)]
    assert all(0 < g.scalar_int(k) < g.L for k in ks)
    assert len(set(ks)) == 200
    # the top bits of reduced scalars are not stuck (a clamped or truncated source would be)
    assert len({g.scalar_int(k) >> 248 for k in ks}) > 4
