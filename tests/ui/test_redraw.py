"""The screen's redraw work after a peer's move (issue 13, item 8): a log line repaints the log
without laying out the whole screen and still shows the newest line, the table's panels keep
their height, the option list fills in one layout, the garbage collector's full walks happen
while the screen waits for the person, and no collection runs inside a redraw. The speed itself
is measured by scripts/bench_ui.py."""

from __future__ import annotations

import asyncio
import gc
import os
import weakref

import pytest
from rich.text import Text
from textual.screen import Screen

from p2pcards.ui.app import TableApp, TableLog
from p2pcards.ui.session import LocalGame
from tests.ui.pilot import broken_words, rendered, words


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def layouts(monkeypatch):
    """The number of layouts of the screen so far (Textual's ``Screen._refresh_layout``)."""
    count = [0]
    real = Screen._refresh_layout

    def counted(self, *a, **kw):
        count[0] += 1
        return real(self, *a, **kw)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return count


def bare_app() -> TableApp:
    return TableApp("out-of-this-world", 0, None, names=["Ann", "Bot 1", "Bot 2"])


async def settle(pilot, n: int = 3) -> None:
    for _ in range(n):
        await pilot.pause()


def local_app(game: str, seed: int) -> TableApp:
    lg = LocalGame(game, 3, 2, seed, {}, save=False)
    return TableApp(lg.game, lg.seat, lg.run, names=lg.names, forced_delay=0.0)


async def until_asked(pilot, app: TableApp) -> None:
    """Until the person is asked (or the game is over), within a bound."""
    for _ in range(500):
        await pilot.pause()
        if app.legal or app.finished_text is not None:
            return


def last_log_words(app: TableApp) -> set[str]:
    shown = [line for line in rendered(app, "log") if line.strip()]
    return words(shown[-1]) if shown else set()


def test_a_log_line_repaints_the_log_only_and_shows_the_newest_line(layouts):
    async def go():
        app = bare_app()
        async with app.run_test(size=(140, 45)) as pilot:
            app.write_log([f"Bot 1 takes card {i} from stack {i % 5 + 1}." for i in range(80)])
            await settle(pilot)
            log = app.query_one("#log", TableLog)
            assert log.show_vertical_scrollbar  # more lines than the panel holds
            before = layouts[0]
            for i in range(12):
                app.write_log(f"Bot 2 plays move number {i} at the table.")
                await settle(pilot, 2)
                assert log.scroll_y == log.max_scroll_y  # scrolled to the end...
                assert {"number", str(i)} <= last_log_words(app)  # ...so the newest line shows
            assert layouts[0] == before, "a log line laid out the whole screen"
            assert len(app.lines_seen) == 92 and broken_words(app) == []
    asyncio.run(go())


# the questions answered: 6 in the suite (it was 12, the same check each time), 24 with
# P2PCARDS_LONG=1
QUESTIONS = 24 if os.environ.get("P2PCARDS_LONG") == "1" else 6


def test_the_newest_log_line_stays_on_screen_when_the_options_appear_and_go():
    async def go():
        app = local_app("out-of-this-world", 2)
        async with app.run_test(size=(140, 45)) as pilot:
            for _ in range(QUESTIONS):  # each question shrinks the log; each answer gives it back
                await until_asked(pilot, app)
                if app.finished_text is not None:
                    break
                await settle(pilot)
                last = next(x for x in reversed(app.lines_seen) if x.strip())
                assert last_log_words(app) <= words(last), (last, rendered(app, "log")[-3:])
                assert app.query_one("#options").region.height >= 1
                await pilot.press("enter")
    asyncio.run(go())


def test_the_table_panels_keep_their_height_when_a_line_goes(layouts):
    async def go():
        app = bare_app()
        async with app.run_test(size=(140, 45)) as pilot:
            seats = app.query_one("#seats")
            app._set("seats", Text("Ann · hand 3\nBot 1 · hand 2\nBot 2 · hand 4"))
            await settle(pilot)
            assert seats.region.height == 3
            before = layouts[0]
            app._set("seats", Text("Ann · hand 3\nBot 1 · hand 2"))  # a seat's line is gone
            await settle(pilot)
            assert seats.region.height == 3 and layouts[0] == before  # nothing under it moved
            assert [x.strip() for x in rendered(app, "seats")] == \
                ["Ann · hand 3", "Bot 1 · hand 2", ""]
            app._set("seats", Text("\n".join(f"Seat {i} · hand {i}" for i in range(5))))
            await settle(pilot)
            assert seats.region.height == 5 and layouts[0] > before  # taller: laid out again
            # a narrower screen wraps again and starts from the height it needs there
            await pilot.resize_terminal(80, 24)
            await settle(pilot)
            app._set("seats", Text("Ann · hand 3"))
            await settle(pilot)
            assert seats.region.height >= 1 and broken_words(app) == []
    asyncio.run(go())


def test_the_option_list_fills_in_one_layout(layouts):
    async def go():
        app = bare_app()
        async with app.run_test(size=(140, 45)) as pilot:
            await settle(pilot)
            ol = app.query_one("#options")
            rows = [Text(f"{i:>2}. take a card from stack {i}") for i in range(1, 7)]
            before = layouts[0]
            ol.set_options(rows)
            await settle(pilot)
            # one layout for the list (clearing and filling took one each, and its new
            # scrollable size a third), plus Textual's own pass for the log's resized scrollbar
            assert layouts[0] - before <= 2
            assert ol.region.height == 6
            assert [x.strip() for x in rendered(app, "options")][:2] == \
                ["1. take a card from stack 1", "2. take a card from stack 2"]
            ol.clear_options()
            await settle(pilot)
            assert ol.region.height == 0
    asyncio.run(go())


def test_garbage_is_collected_while_the_screen_waits_for_the_person():
    async def go():
        app = local_app("go-out-girl", 4)
        async with app.run_test(size=(140, 45)) as pilot:
            await until_asked(pilot, app)
            assert app.legal
            await settle(pilot)
            # what was alive when the question came is set aside: a full collection during
            # the peers' moves walks only what was made since
            assert gc.get_freeze_count() > 1000
            app.exit(None)
        # the table is gone: everything goes back to the collector
        assert gc.get_freeze_count() == 0
    asyncio.run(go())


def test_a_settle_walks_what_is_new_and_the_whole_heap_once_a_minute(monkeypatch):
    """Each question settles the heap; walking all of it each time cost 40-70 ms of a real
    table's CPU a turn (and 160 ms in a test process's larger heap: 24 s of the screen tests).
    A settle now collects what was made since the last one, and walks the whole heap, what was
    set aside included, once every ``WALK_ALL_EVERY`` seconds."""
    from p2pcards.ui import heap

    class Node:
        pass

    def cycle():
        a, b = Node(), Node()
        a.other, b.other = b, a
        return a

    async def go():
        monkeypatch.setattr(heap, "WALK_ALL_EVERY", 3600.0, raising=False)
        app = bare_app()
        async with app.run_test(size=(140, 45)) as pilot:
            await settle(pilot)
            old = cycle()
            app._settle_heap()  # a whole walk (the first), then ``old`` is set aside
            gone_old = weakref.ref(old)
            del old
            young = cycle()
            gone_young = weakref.ref(young)
            del young
            app._settle_heap()  # within the hour: only what is new is walked
            assert gone_young() is None, "garbage made since the last settle is collected"
            assert gone_old() is not None, "what was set aside is not walked again yet"
            monkeypatch.setattr(heap, "WALK_ALL_EVERY", 0.0, raising=False)
            app._settle_heap()  # its time has come: the whole heap
            assert gone_old() is None, "garbage among what was set aside goes within a minute"
            app.exit(None)
        assert gc.get_freeze_count() == 0
    asyncio.run(go())


def test_no_collection_runs_inside_a_redraw_and_the_garbage_is_collected_after_it():
    async def go():
        app = bare_app()
        async with app.run_test(size=(140, 45)) as pilot:
            await settle(pilot)
            assert gc.isenabled()
            lg = LocalGame("out-of-this-world", 3, 2, 1, {}, save=False)
            app.write_log("Bot 1 takes stack 2.")  # a peer's move arrives...
            app.show(lg.watcher)
            assert not gc.isenabled()  # ...no collection until the screen shows it
            await settle(pilot)
            assert gc.isenabled()  # the refresh is done: collection is back on
            assert "Bot 1 takes stack 2." in "\n".join(rendered(app, "log"))
            # a collector someone else turned off stays off
            gc.disable()
            try:
                app.show(lg.watcher)
                await settle(pilot)
                assert not gc.isenabled()
            finally:
                gc.enable()
            app.show(lg.watcher)
            app.exit(None)
        assert gc.isenabled()  # closing the app before its refresh gives collection back
    asyncio.run(go())


def test_the_bench_times_peer_moves_from_their_arrival_to_the_next_refresh():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "bench_ui.py"
    spec = importlib.util.spec_from_file_location("bench_ui", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    samples = bench.redraws("go-out-girl", 3, 1, 6)
    assert len(samples) >= 6  # peer moves were seen arriving and each reached a refresh
    assert all(wall > 0 and cpu >= 0 for wall, cpu in samples)
    assert bench.p95([3.0, 1.0, 2.0]) == 3.0 and bench.p95([]) == 0.0
