"""Primitives: the ristretto255 group through libsodium."""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import random
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import group as g

IDENTITY = bytes(32)


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


# RFC 9496 appendix A.2: encodings every implementation must refuse
BAD_ENCODINGS = {
    "non-canonical-1": "00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "non-canonical-2": "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "non-canonical-3": "f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "non-canonical-4": "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "negative-1": "0100000000000000000000000000000000000000000000000000000000000000",
    "negative-2": "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "negative-3": "ed57ffd8c914fb201471d1c3d245ce3c746fcbe63a3679d51b6a516ebebe0e20",
    "non-square-1": "26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",
    "non-square-2": "4eac077a713c57b4f4397629a4145982c661f48044dd3f96427d40b147d9742f",
}
# RFC 9496 appendix A.1: 0·B (the identity), B, 2·B, 3·B
MULTIPLES = ["00" * 32,
             "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
             "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
             "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259"]


def test_the_generator_and_its_multiples_match_rfc_9496() -> None:
    assert g.G.hex() == MULTIPLES[1]
    assert g.IDENTITY.hex() == MULTIPLES[0]
    for k in (2, 3):
        assert g.base_mul_int(k).hex() == MULTIPLES[k]
        assert g.mul_int(k, g.G).hex() == MULTIPLES[k]
    assert g.add(g.G, g.base_mul_int(2)).hex() == MULTIPLES[3]


def test_hash_to_group_matches_rfc_9496() -> None:
    """RFC 9496 appendix A.3: from_hash(SHA-512(label))."""
    label = b"Ristretto is traditionally a short shot of espresso coffee"
    assert g.from_hash(hashlib.sha512(label).digest()).hex() == \
        "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46"


@pytest.mark.parametrize("bad", [
    pytest.param(IDENTITY, id="identity"),
    *(pytest.param(bytes.fromhex(v), id=k) for k, v in BAD_ENCODINGS.items()),
    pytest.param(bytes(31), id="short"),
    pytest.param(bytes(33), id="long"),
])
def test_invalid_points_are_rejected(bad: bytes) -> None:
    assert not g.is_valid_point(bad)
    with pytest.raises(g.InvalidPoint):
        g.validate_point(bad)
    with pytest.raises(g.InvalidPoint):
        g.mul(g.random_scalar(), bad)
    with pytest.raises(g.InvalidPoint):
        g.mul_int(5, bad)
    with pytest.raises(g.InvalidPoint) as e:
        g.mul_all(g.random_scalar(), [g.card_point(b"t", "d", 0), bad])
    assert e.value.index == 1
    with pytest.raises(g.InvalidPoint) as e:
        g.msm_int([3, 4], [g.card_point(b"t", "d", 0), bad])
    assert e.value.index == 1


def test_an_edwards25519_encoding_is_not_taken_for_a_card() -> None:
    """A peer still speaking the old group sends edwards25519 encodings: about half of them do not
    decode as ristretto255 at all, and those that do are unrelated elements. Here: the
    edwards25519 base point (RFC 8032) decodes to no ristretto255 element."""
    ed_base = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")
    assert not g.is_valid_point(ed_base)


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


def test_multiplication_does_not_clamp() -> None:
    """k^-1 (k P) == P for scalars whose low three bits and bit 254 are set or clear (a clamping
    multiplication would change them)."""
    pt = g.card_point(b"tbl", "deck", 7)
    for v in (1, 7, 2**254 + 3, g.L - 1):
        k = g.sc(v)
        assert g.mul(g.scalar_inv(k), g.mul(k, pt)) == pt
    assert g.mul(g.sc(8), pt) == g.mul_int(2, g.mul_int(4, pt))


def test_protocol_sources_use_only_ristretto255_group_functions() -> None:
    """No edwards25519 group function (with its cofactor, clamping and subgroup questions) is
    called anywhere in protocol/."""
    src = pathlib.Path(g.__file__).parent
    pattern = re.compile(r"crypto_(scalarmult|core)_ed25519")
    for f in sorted(src.glob("*.py")):
        assert not pattern.search(f.read_text()), f"{f.name} calls an edwards25519 group function"


def test_scalars_from_64_bytes_are_reduced_and_uniform_enough() -> None:
    ks = [g.random_scalar() for _ in range(200)]
    assert all(0 < g.scalar_int(k) < g.L for k in ks)
    assert len(set(ks)) == 200
    # the top bits of reduced scalars are not stuck (a clamped or truncated source would be)
    assert len({g.scalar_int(k) >> 248 for k in ks}) > 4


def test_the_bundled_libsodium_computes_the_same_and_leaves_no_file_behind() -> None:
    """protocol/sodium.py falls back on rbcl's bundled libsodium when the system has none
    (forced here with P2PCARDS_SODIUM=rbcl): same results, and the temporary copy rbcl writes
    at import is gone once loaded."""
    code = ("import json, os, sys\n"
            "from protocol import group as g, sodium\n"
            "path = sys.modules['rbcl._sodium'].lib_path\n"
            "p = g.card_point(b't', 'd', 3)\n"
            "print(json.dumps([sodium.SOURCE, os.path.exists(path), g.mul_int(12345, p).hex(),\n"
            "                  g.generators(b'x', 2)[1].hex()]))\n")
    env = {**os.environ, "P2PCARDS_SODIUM": "rbcl"}
    root = pathlib.Path(g.__file__).parent.parent
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True,
                         text=True, timeout=120, check=True).stdout
    source, exists, prod, gen = json.loads(out)
    assert source.startswith("rbcl") and not exists
    assert prod == g.mul_int(12345, g.card_point(b"t", "d", 3)).hex()
    assert gen == g.generators(b"x", 2)[1].hex()


def test_a_library_without_ristretto255_is_refused_with_a_clear_message() -> None:
    env = {**os.environ, "P2PCARDS_SODIUM": "/nonexistent/libsodium.so"}
    root = pathlib.Path(g.__file__).parent.parent
    r = subprocess.run([sys.executable, "-c", "import protocol.group"], env=env, cwd=root,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert "P2PCARDS_SODIUM=/nonexistent/libsodium.so: not a libsodium with ristretto255" in r.stderr
