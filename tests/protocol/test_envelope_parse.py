"""What reading one frame can cost (red team round 3, item 4): ``parse_canonical`` bounds the
work on the bytes before ``json.loads`` (items and depth, at C speed), so a valid-JSON frame of
100,000 zeros no longer costs the receiver a Python walk over every item."""

from __future__ import annotations

import json

import pytest

import protocol.envelope as envelope
from protocol.envelope import MAX_DEPTH, MAX_ITEMS, canonical, parse_canonical


def test_a_frame_of_too_many_items_is_refused_before_it_is_parsed(monkeypatch):
    junk = canonical({"a": [0] * 100_000})  # the flood's frame: valid, canonical, 200 KB

    def no_parse(*a, **kw):
        raise AssertionError("json.loads ran on a frame over the item bound")

    monkeypatch.setattr(envelope.json, "loads", no_parse)
    with pytest.raises(ValueError, match=f"more than {MAX_ITEMS} items"):
        parse_canonical(junk, "envelope")
    with pytest.raises(ValueError, match="more than 256 items"):
        parse_canonical(canonical({"a": [0] * 300}), "control message", max_items=256)


def test_depth_is_read_on_the_bytes_exactly():
    def nest(n: int) -> bytes:
        return canonical(json.loads('{"a":' + "[" * (n - 1) + "]" * (n - 1) + "}"))

    assert parse_canonical(nest(MAX_DEPTH))
    with pytest.raises(ValueError, match="nested more than"):
        parse_canonical(nest(MAX_DEPTH + 1))
    mixed = {"a": [{"b": [{"c": [1, {"d": []}]}]}], "e": "[[[[{{{{"}
    assert parse_canonical(canonical(mixed)) == mixed
    # brackets and escaped quotes inside strings are not structure
    tricky = {"s": '\\"[' * 200, "t": "\\" * 7 + '"]]]' * 50, "u": [[["x"]]]}
    assert parse_canonical(canonical(tricky)) == tricky
    with pytest.raises(ValueError):
        parse_canonical(b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(ValueError, match="not valid JSON"):
        parse_canonical(b'{"a":[1,2}')


def test_honest_messages_still_parse():
    body = {"proof": [[f"{i:064x}", [i, i + 1]] for i in range(400)], "op": 3, "x": None}
    assert parse_canonical(canonical(body)) == body
    assert parse_canonical(canonical({"text": "a, b, [c]: {d}"})) == {"text": "a, b, [c]: {d}"}
