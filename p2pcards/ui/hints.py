"""The solver's advice for the prompts: looked up once per game, and warmed in the background so
the first ``hint`` of a session is as quick as the others (importing OR-Tools takes about a
second)."""

from __future__ import annotations

import contextlib
import importlib
import threading
from collections.abc import Callable
from typing import Any


def hinter(game: str) -> Callable[..., Any] | None:
    try:
        from solver.hints import hinter_for
    except ImportError:
        return None
    h = hinter_for(game)
    if h is not None:
        threading.Thread(target=_warm, daemon=True, name="warm-solver").start()
    return h


def _warm() -> None:
    with contextlib.suppress(ImportError):
        importlib.import_module("ortools.sat.python.cp_model")
