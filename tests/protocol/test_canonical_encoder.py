"""``canonical`` calls the C encoder ``json.dumps`` builds for the canonical options itself, and
``parse_canonical`` parses without a Python hook for every object (protocol/envelope.py): both
for speed, and neither may change a byte or a verdict. Here: the bytes are ``json.dumps``'s for
any JSON value (and the same refusals, in the same words), and a frame with a key twice is still
refused as such."""

from __future__ import annotations

import json
import math
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import envelope
from protocol.envelope import canonical, parse_canonical


def by_dumps(obj) -> bytes:
    try:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                          allow_nan=False).encode("ascii")
    except (TypeError, ValueError) as e:
        raise ValueError(f"not JSON-able: {e}") from None


SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=25)
EXAMPLES = 2000 if os.environ.get("P2PCARDS_LONG") == "1" else 60


@settings(max_examples=EXAMPLES, deadline=None)
@given(VALUES)
def test_the_bytes_are_json_dumps_bytes(value):
    assert canonical(value) == by_dumps(value)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.dictionaries(st.text(max_size=6), VALUES, max_size=4))
def test_a_canonical_frame_parses_back_to_its_value(value):
    assert parse_canonical(canonical(value)) == json.loads(canonical(value))


def _circular():
    d: dict = {}
    d["me"] = d
    return d


@pytest.mark.parametrize("bad", [{"a": math.nan}, {"a": math.inf}, {1: 2, "a": 3},
                                 {"a": object()}, {"a": b"bytes"}, _circular()],
                         ids=["nan", "inf", "mixed keys", "object", "bytes", "circular"])
def test_what_json_dumps_refuses_is_refused_in_the_same_words(bad):
    with pytest.raises(ValueError) as ours:
        canonical(bad)
    with pytest.raises(ValueError) as theirs:
        by_dumps(bad)
    assert str(ours.value) == str(theirs.value)
    canonical({"after": "a refusal"})  # nothing left behind: the next value encodes


def test_canonical_does_not_go_through_json_dumps(monkeypatch):
    """The speed-up itself (a test that fails on the code before it): 30,000 values a match."""
    def no(*a, **k):
        raise AssertionError("json.dumps called")

    monkeypatch.setattr(envelope.json, "dumps", no)
    assert canonical({"b": [1, "x"], "a": None}) == b'{"a":null,"b":[1,"x"]}'


@pytest.mark.parametrize("frame", [b'{"a":1,"a":1}', b'{"a":1,"a":2}', b'{"x":{"a":1,"a":1}}'])
def test_a_frame_with_a_key_twice_is_refused_and_says_so(frame):
    with pytest.raises(ValueError, match="duplicate key 'a'"):
        parse_canonical(frame)


def test_a_frame_out_of_order_is_refused_as_not_canonical():
    with pytest.raises(ValueError, match="not in canonical form"):
        parse_canonical(b'{"b":1,"a":2}')
