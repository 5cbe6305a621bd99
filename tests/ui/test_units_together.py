"""A figure and its unit are never split across two rows: the log wrapped "... away for 3" with
the "s" alone at the start of the next row (ux19's leftover). Checked where such figures are
written: the full-screen table's log and its panels (the notice), and the plain prompt's lines
at a terminal."""

from __future__ import annotations

import asyncio
import re

import pytest

from p2pcards.ui.app import TableApp, TableLog
from p2pcards.ui.text import wrap_cells
from p2pcards.ui.waiting import Absent, waiting_text
from tests.ui.pilot import rendered

SPLIT = re.compile(r"\d$")
UNIT = re.compile(r"^(s|min|MB)\b")


def split_figures(rows: list[str]) -> list[tuple[str, str]]:
    """Pairs of rows where one ends with a number and the next starts with its unit."""
    rows = [r.rstrip() for r in rows if r.strip()]
    return [(a, b) for a, b in zip(rows, rows[1:], strict=False)
            if SPLIT.search(a) and UNIT.match(b.strip())]


def lines_at(width: int) -> list[str]:
    """Lines whose "3 s", "12 s" or "2 min" fall at the end of a row ``width`` cells wide."""
    paused = waiting_text([Absent(2, "carol", "FP2", 3.0)], seats=3, me=0, wait=40.0)
    out = []
    for pad in range(0, width + 4):
        out.append("** " + "x" * pad + " carol is away 3 s; the table waits 12 s more")
        out.append("bob: " + "y " * (pad // 2) + "it took 2 min and 1 MB")
        out.append(" " * (pad % 3) + "z" * pad + " " + paused)
    return out


@pytest.mark.parametrize("width", [40, 80, 100])
def test_the_prompt_never_puts_a_unit_alone_on_a_row(width):
    for line in lines_at(width):
        rows = wrap_cells(line, width)
        assert "".join("".join(rows).split()) == "".join(line.split()), "nothing lost"
        assert not split_figures(rows), (split_figures(rows), rows)


def test_the_log_and_the_notice_never_put_a_unit_alone_on_a_row(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))

    async def go():
        app = TableApp("go-out-girl", 1, None, names=["bob", "carol"])
        async with app.run_test(size=(80, 40)) as pilot:
            await pilot.pause()
            log = app.query_one("#log", TableLog)
            lines = lines_at(log.scrollable_content_region.width)
            app.write_log(lines)  # (no entry starts with a unit: rows are checked in order)
            await pilot.pause()
            seen = []
            for top in range(0, log.max_scroll_y + log.size.height, log.size.height):
                log.scroll_to(y=top, animate=False, immediate=True)
                await pilot.pause()
                seen += [row[1:] for row in rendered(app, "log")]  # 1 cell of padding
            # the notice line: "** " lines whose "3 s" or "12 s" falls at its row's end
            width = app.query_one("#notice").content_region.width
            notices, kept = [], []
            for pad in range(width - 45, width - 14):
                said = "** " + "x" * pad + " carol is away 3 s; the table waits 12 s more"
                app.notice(said)
                await pilot.pause()
                notices.append(rendered(app, "notice"))
                kept.append(app.texts["notice"] == said)
            return lines, seen, notices, kept

    lines, seen, notices, kept = asyncio.run(go())
    # the panel's plain text is the line as said, not as wrapped: a sentence read from it does
    # not depend on where a figure's length put the row's end (test_table_waits' pause line
    # failed when "away (0 s)" moved "naming them" to the next row)
    assert all(kept), kept
    assert len([r for r in seen if r.strip()]) > len(lines)  # they did wrap
    assert not split_figures(seen), split_figures(seen)
    assert sum(len([r for r in rows if r.strip()]) > 1 for rows in notices) > 10
    for rows in notices:
        assert not split_figures(rows), rows
