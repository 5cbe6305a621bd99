"""The ``hint`` entry point: ``hinter_for(game)`` gives ``hinter(view, legal) -> str | None``
for games with an advisor, ``None`` for the others. Each advisor uses the seat's view alone and
is deterministic for a fixed seed, and answers with an ``Advice``. To add a game, register its
``module:function`` here."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from p2pcards.engine import Action, GameState


@dataclass
class Advice:
    """An advisor's answer: the action and how to say it, a one-line reason, and the plan (or
    odds) behind it. Each game's advisor extends it with its own figures."""

    action: Action
    text: str
    reason: str
    plan: str | None = None

    plan_label: ClassVar[str] = "Plan"

    def headline(self) -> str:
        return f"Hint: {self.text}"

    def render(self) -> str:
        lines = [self.headline()]
        if self.plan:
            lines.append(f"  {self.plan_label}: {self.plan}")
        lines.append(f"  Why: {self.reason}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "text": self.text, "reason": self.reason,
                "plan": self.plan}


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
