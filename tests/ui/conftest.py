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
    """``cli.main`` points the ``p2pcards`` loggers at a file; other tests in this process read
    those loggers (caplog), so they get them back as they were."""
    log = logging.getLogger("p2pcards")
    saved = (list(log.handlers), log.propagate, log.level)
    yield
    for h in log.handlers:
        if h not in saved[0]:
            h.close()
    log.handlers[:], log.propagate, log.level = saved
