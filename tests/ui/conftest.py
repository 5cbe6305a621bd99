"""Fixtures shared by the screen and command-line tests."""

from __future__ import annotations

import logging

import pytest


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
