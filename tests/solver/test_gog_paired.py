"""The paired measurement's arithmetic (solver/go_out_girl/paired.py): per-seed differences of
win shares over the seeds both runs played, with the standard error of their mean."""

from __future__ import annotations

import pytest

from solver.go_out_girl.paired import compare


def _rows(data):
    return [{"seed": s, "battles": b, "wins": w, "eliminated": 0, "cpu": 1.0}
            for s, b, w in data]


def test_paired_difference_over_common_seeds():
    a = _rows([(0, 4, 2), (1, 2, 0), (2, 3, 3), (9, 2, 2)])
    b = _rows([(0, 2, 2), (1, 4, 1), (2, 3, 3)])  # seed 9 not played: left out of both
    got = compare(a, b)
    assert got["seeds"] == "0-2 (3)"
    assert got["a"]["wins"] == 5 and got["a"]["battles"] == 9
    assert got["b"]["wins"] == 6 and got["b"]["battles"] == 9
    d = [1.0 - 0.5, 0.25 - 0.0, 0.0]
    mean = sum(d) / 3
    se = (sum((x - mean) ** 2 for x in d) / 2 / 3) ** 0.5
    assert got["paired"] == f"{mean:+.3f} ± {se:.3f}"
    assert mean == pytest.approx(0.25)
