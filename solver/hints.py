"""The ``hint`` entry point: ``hinter_for(game)`` gives ``hinter(view, legal) -> str | None``
for games with an advisor, ``None`` for the others. Each advisor uses the seat's view alone and
is deterministic for a fixed seed. To add a game, register its ``module:function`` here."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial

from p2pcards.engine import Action, GameState

Hinter = Callable[[GameState, list[Action]], "str | None"]

ADVISORS: dict[str, str] = {
    "go-out-girl": "solver.go_out_girl.advisor:hinter",
    "out-of-this-world": "solver.out_of_this_world.advisor:hinter",
    "girl-and-robot": "solver.girl_and_robot.advisor:hinter",
}


def hinter_for(game: str, *, seed: int = 0) -> Hinter | None:
    target = ADVISORS.get(game)
    if target is None:
        return None
    module, fn = target.split(":")
    return partial(getattr(importlib.import_module(module), fn), seed=seed)
