"""Solver-driven Go Out Girl bots. Like every bot they decide from their seat's view alone.

* ``NormalBot`` -- the Monte Carlo advisor on a small budget (a few hundred playouts);
* ``StrongBot`` -- the advisor on the hint's full budget.
"""

from __future__ import annotations

from p2pcards.bots.base import Bot
from p2pcards.engine import Action
from p2pcards.games.go_out_girl.game import Game

from .advisor import BUDGET, advise


class SolverBot(Bot):
    name = "solver"
    budget = BUDGET

    def decide(self, view: Game | None, legal: list[Action]) -> Action:  # type: ignore[override]
        assert view is not None
        if len(legal) == 1:
            return legal[0]
        return advise(view, legal, seed=self.rng.getrandbits(32), budget=self.budget).action


class NormalBot(SolverBot):
    name = "normal"
    budget = BUDGET // 10


class StrongBot(SolverBot):
    name = "strong"
