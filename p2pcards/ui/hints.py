"""The solver's advice for the prompts: looked up once per game, and warmed in the background so
the first ``hint`` of a session is as quick as the others (importing OR-Tools takes about a
second). A failing advisor costs the hint, never the game: the player is told and plays on."""

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
    if h is None:
        return None
    threading.Thread(target=_warm, daemon=True, name="warm-solver").start()

    def safe(view: Any, legal: Any) -> str | None:
        try:
            return h(view, legal)
        except Exception as e:  # noqa: BLE001 -- a solver bug must not end the game
            return (f"No hint this time: the solver failed on this position "
                    f"({type(e).__name__}: {e}). Your game goes on; please report it.")

    return safe


def _warm() -> None:
    with contextlib.suppress(ImportError):
        importlib.import_module("ortools.sat.python.cp_model")
