"""Actions and events: hashable, order-independent, JSON round-trips (property tests)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.engine import (
    Action,
    Decision,
    RandomValue,
    Revealed,
    Shuffled,
    event_from_json,
    event_to_json,
)

scalars = st.one_of(st.integers(-5, 200), st.text(max_size=5), st.booleans(), st.none())
values = st.one_of(scalars, st.lists(st.integers(0, 200), max_size=6),
                   st.lists(st.lists(st.integers(0, 9), max_size=3), max_size=3))
actions = st.builds(lambda kind, args: Action(kind, **args),
                    st.sampled_from(["play", "pass", "give"]),
                    st.dictionaries(st.sampled_from(["slots", "slot", "number", "to"]), values,
                                    max_size=3))


@given(actions)
def test_action_json_round_trip(a):
    assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a
    assert hash(Action.from_json(a.to_json())) == hash(a)


def test_argument_order_and_list_or_tuple_do_not_matter():
    assert Action("play", slots=[1, 2], number=9) == Action("play", number=9, slots=(1, 2))
    assert Action("play", slots=[1, 2]).slots == (1, 2)
    with pytest.raises(AttributeError):
        Action("pass").slots  # noqa: B018


@given(st.integers(0, 4), actions)
def test_decision_events_round_trip(p, a):
    ev = Decision(p, a)
    assert event_from_json(json.loads(json.dumps(event_to_json(ev)))) == ev


@pytest.mark.parametrize("ev", [Shuffled((1, 2), (5, 4)), Shuffled((1, 2), None),
                                Shuffled((1, 2), (None, 3)), Revealed((3,), (7,)),
                                Revealed((3,), None), RandomValue(2)])
def test_outcome_events_round_trip(ev):
    assert event_from_json(json.loads(json.dumps(event_to_json(ev)))) == ev


@pytest.mark.parametrize("bad", [{}, {"type": "nope"}, {"type": "revealed", "slots": "x"},
                                 {"type": "decision", "player": 1, "action": []},
                                 {"type": "decision", "player": 1, "action": {"kind": "x", "a": {}}}])
def test_malformed_events_are_value_errors(bad):
    with pytest.raises(ValueError):
        event_from_json(bad)


def test_an_action_with_a_dict_inside_a_list_is_malformed_not_a_crash():
    """A re-signed transcript fuzz mutant (`slots/0 = {'a': 1}`) made ``from_json`` raise a
    ``TypeError`` that the audit did not expect; every malformed action is a ``ValueError``."""
    for bad in ({"kind": "play", "slots": [{"a": 1}]}, {"kind": "play", "slots": [[{"a": 1}]]},
                {"kind": "play", "a": [1, {"b": 2}], "c": 3}):
        with pytest.raises(ValueError, match="malformed action"):
            Action.from_json(bad)
