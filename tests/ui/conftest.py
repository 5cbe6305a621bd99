"""Fixtures shared by the screen and command-line tests."""

from __future__ import annotations

import gc
import logging
import time

import pytest


@pytest.fixture(autouse=True)
def _a_test_process_heap_set_aside(request, monkeypatch):
    """The full-screen table settles the heap at each question (``p2pcards/ui/heap.py``): a
    collection of what is new since the last settle, and the whole heap at its first settle and
    once a minute. A program has one table; a test process runs a table in test after test,
    each first settle walking the worker's whole heap (every test module, hypothesis, the
    solvers: 50 ms a time, 8.9 s of CPU over tests/ui), and the table's end hands the heap back
    to the collector. Here the heap this test starts with is set aside as a program's would be
    after its first walk, and the clock of the whole walk starts with the test: the same
    settles, over what this test made. test_redraw.py tests the settles themselves, as a program
    runs them: left alone."""
    if request.module.__name__.endswith("test_redraw"):
        yield
        return
    from p2pcards.ui import heap

    monkeypatch.setattr(heap.HeapCare, "_walked_at", time.monotonic())
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()  # (a table's end does it too)


@pytest.fixture
def home(tmp_path, monkeypatch):
    """This test's own data directory (``P2PCARDS_HOME``)."""
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def keep_the_loggers():
    """``cli.main`` points the ``p2pcards`` and ``asyncio`` loggers at a file; other tests in
    this process read those loggers (caplog), so they get them back as they were."""
    logs = [logging.getLogger(name) for name in ("p2pcards", "asyncio")]
    saved = [(list(log.handlers), log.propagate, log.level) for log in logs]
    yield
    for log, (handlers, propagate, level) in zip(logs, saved, strict=True):
        for h in log.handlers:
            if h not in handlers:
                h.close()
        log.handlers[:], log.propagate, log.level = handlers, propagate, level


@pytest.fixture
def replay_app(home):
    """A spectator's replay of a local game just played and saved: a function giving a new
    ``ReplayApp`` on it."""
    import io

    from p2pcards.ui import saved
    from p2pcards.ui.local import play_local
    from p2pcards.ui.replay_screen import ReplayApp

    play_local("go-out-girl", 3, 3, 8, {}, out=io.StringIO(), save=True)
    (path,) = saved.find_local_games()
    g = saved.read(path)
    return lambda: ReplayApp(g.game, None, saved.frames(g, None), names=g.names)
