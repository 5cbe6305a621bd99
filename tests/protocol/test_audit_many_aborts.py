"""Red team 15a: a record holding a great many deck aborts made the audit's time quadratic.

An abort is one signed deck message, and a seat may sign one for any operation number: the
audit kept them in a list and scanned it whole for each new one (and for each operation), so
8,000 aborts took 3 s, and the ~58,000 a seat's 64 MiB of a transcript can hold (as it counts
them: 1,152 bytes each) about two and a half minutes; five seats' together, about an hour --
``p2pcards audit`` of such a record all but hung. The aborts are now indexed by seat and
operation. The test counts the work (how often an abort's seat is
read), not the time."""

from __future__ import annotations

from typing import Any

import pytest

import protocol.audit as audit_mod
from protocol.audit import audit
from protocol.params import DeckParams
from protocol.steps import envelope

N = 3_000


def aborts(n: int, seat: int = 0) -> list[tuple[int, dict[str, Any], list[Any]]]:
    return [(seat, envelope(op, {"kind": "random", "n": 2}, "abort", seat, culprit=1 - seat,
                            about="commit", reason="a claim"), [op, f"{op:064x}"])
            for op in range(1, n + 1)]


def test_the_audit_reads_each_of_many_aborts_a_bounded_number_of_times(monkeypatch):
    reads = [0]

    class Counted(audit_mod._Abort):
        @property
        def seat(self) -> int:  # type: ignore[override]
            reads[0] += 1
            return tuple.__getitem__(self, 1)

    monkeypatch.setattr(audit_mod, "_Abort", Counted)
    audit_mod._MEMO.clear()
    report = audit(DeckParams(b"\x01" * 16, "red15a", 52, 2), aborts(N))
    assert reads[0] <= 4 * N, f"{reads[0]:,} reads of {N:,} aborts' seats: quadratic"
    # and the verdict is as before: no message of any operation, so the record names nobody
    assert report.verdict.culprit is None and not report.verdict.complete, report.verdict
    assert len(report.aborts) == N


@pytest.mark.parametrize("seat", [0, 1])
def test_many_aborts_still_judge_as_one(seat):
    """Only the first abort per seat and operation counts, as before."""
    params = DeckParams(b"\x02" * 16, "red15a", 52, 2)
    msgs = aborts(50, seat)
    twice = msgs + [(seat, dict(msgs[0][1], reason="again"), [999, "f" * 64])]
    audit_mod._MEMO.clear()
    r = audit(params, twice)
    assert [a for a in r.aborts if a[0] == seat and a[2] == "again"] == []
    assert len(r.aborts) == 50
