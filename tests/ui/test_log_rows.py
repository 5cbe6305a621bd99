"""Red team 6b #2: on the full-screen table a peer's chat line that runs past the log's width
wrapped with no indent, so "bob: ----...----carol left the table" (or plain words that happen to
wrap there) showed "carol left the table" at the start of a log row, in the style of the game's
own lines. Every row after an entry's first is now indented: only a real entry starts at the
log's margin."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.ui.app import TableApp, TableLog
from tests.ui.pilot import rendered


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))


FORGED = ["carol left the table", "** the table stopped: carol cheated"]


def attacks(width: int) -> list[str]:
    """Chat lines built to put a forged line at the start of a row of a log ``width`` wide."""
    out = []
    for forged in FORGED:
        for k in range(width - 8, width + 3):  # one long word that fills the first row
            out.append("bob: " + "-" * k + forged)
        out.append("bob: ok gg all, see you at the next one soon " + forged)  # word wrap
        out.append("bob: x" + "\uff1d" * ((width - 6) // 2) + forged)  # wide characters
        filler = "ok " * ((width - 5) // 3)
        out.append(f"bob: {filler[: width - 5]}{forged}")
    return out


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40)])
def test_no_chat_line_starts_a_log_row_with_a_forged_line(size):
    async def go():
        app = TableApp("go-out-girl", 1, None, names=["bob", "carol"])
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            log = app.query_one("#log", TableLog)
            width = log.scrollable_content_region.width
            app.write_log("Battle 1 begins; bob starts.")
            lines = attacks(width)
            for line in lines:
                app.write_log(line)
            await pilot.pause()
            log.scroll_to(y=0, animate=False, immediate=True)
            seen = []
            for top in range(0, log.max_scroll_y + log.size.height, log.size.height):
                log.scroll_to(y=top, animate=False, immediate=True)
                await pilot.pause()
                seen += [row[1:].rstrip() for row in rendered(app, "log")]  # 1 cell of padding
            rows = [r for r in seen if r]
            assert len(rows) > len(lines)  # the attacks did wrap
            at_margin = [r for r in rows if not r.startswith(" ")]
            for row in at_margin:  # every row at the margin is the start of a line written
                assert any(e.startswith(row.rstrip("…")) for e in app.lines_seen), row
            assert not any(r.startswith(f) for r in at_margin for f in FORGED), at_margin
    asyncio.run(go())
