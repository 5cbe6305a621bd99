"""An envelope's ``heads`` (mesh version 6): what its author held when it made it. Its shape is
checked with the envelope's; envelopes without it (records made before it) are accepted as
before; its digest is the one docs/network.md states."""

from __future__ import annotations

import hashlib

import pytest

from protocol.envelope import (
    GENESIS,
    NEW,
    EnvelopeError,
    Verifier,
    canonical,
    heads_digest,
    seal,
)
from protocol.identity import Identity

TABLE = "0123456789abcdef" * 2


@pytest.fixture(scope="module")
def ids(tmp_path_factory):
    return [Identity.generate(tmp_path_factory.mktemp(f"h{i}")) for i in range(3)]


def _verifier(ids) -> Verifier:
    return Verifier(TABLE, 3, {i: m.public_key for i, m in enumerate(ids)})


def test_the_digest_is_the_documented_one():
    hashes = [GENESIS, "ab" * 32, "0f" * 32]
    want = hashlib.sha256(b"p2pcards/v1/heads\n" + canonical(hashes)).hexdigest()
    assert heads_digest(hashes) == want


def test_an_envelope_with_or_without_heads_is_accepted(ids):
    v = _verifier(ids)
    old = seal(ids[1], TABLE, 1, 1, GENESIS, "game", {"a": 1})  # a record from before it
    assert "heads" not in old and v.classify(old)[0] == NEW
    new = seal(ids[1], TABLE, 1, 1, GENESIS, "game", {"a": 1},
               heads={"seqs": [4, 0, 0], "hash": heads_digest(["cd" * 32, GENESIS, GENESIS])})
    assert v.classify(new)[0] == NEW


@pytest.mark.parametrize("heads, why", [
    ({"seqs": [0, 0], "hash": "ab" * 32}, "heads is not"),
    ({"seqs": [0, 0, True], "hash": "ab" * 32}, "heads is not"),
    ({"seqs": [0, 0, -1], "hash": "ab" * 32}, "heads is not"),
    ({"seqs": [0, 0, 0], "hash": "AB" * 32}, "heads is not"),
    ({"seqs": [0, 0, 0], "hash": "ab" * 32, "more": 1}, "heads is not"),
    ([0, 0, 0], "heads is not"),
])
def test_malformed_heads_are_refused_naming_the_author(ids, heads, why):
    env = seal(ids[1], TABLE, 1, 1, GENESIS, "game", {"a": 1}, heads=heads)
    with pytest.raises(EnvelopeError, match=why) as e:
        _verifier(ids).classify(env)
    assert e.value.seat == 1
