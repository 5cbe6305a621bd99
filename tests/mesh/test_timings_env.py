"""The away time of a real program (``Timings().away_after``, 6 s) can be set by
``P2PCARDS_AWAY_AFTER`` (the namespace LAN tests shorten it for their child processes, so they
wait less past it); anything but a positive number of seconds leaves the 6 s."""

from __future__ import annotations

import pytest

from protocol.mesh.common import Timings


def test_the_away_time_is_six_seconds_unless_the_environment_says(monkeypatch):
    monkeypatch.delenv("P2PCARDS_AWAY_AFTER", raising=False)
    assert Timings().away_after == 6.0
    monkeypatch.setenv("P2PCARDS_AWAY_AFTER", "2.5")
    assert Timings().away_after == 2.5
    assert Timings.fast().away_after == 1.5  # the tests' own timings are not changed by it


@pytest.mark.parametrize("value", ["", "soon", "0", "-3", "nan", "inf"])
def test_a_bad_away_time_in_the_environment_leaves_six_seconds(monkeypatch, value):
    monkeypatch.setenv("P2PCARDS_AWAY_AFTER", value)
    assert Timings().away_after == 6.0
