"""The strong bot of The Girl and the Robot (``--bot-level strong``; ``normal`` is the same search
with the hint's smaller budget).

At its own turn and when answering an Action card or helping its ally, it runs the
information-set search (``search.search``) from its own view; in the other decisions (defending,
placing a Demon, choosing a card to give...) and when there is one legal action, it plays as the
heuristic bot. Its seed and the view fix every choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pcards.bots.girl_and_robot import MAX_TURN_STEPS, GirlAndRobotBot
from p2pcards.engine import Action
from p2pcards.games.girl_and_robot.game import Game

from .search import HINT, STRONG, Budget, search

SEARCHED = ("turn", "respond", "ally")


class StrongBot(GirlAndRobotBot):
    name = "strong"
    budget: Budget = STRONG

    def __init__(self, seat: int, seed: int | None = None) -> None:
        super().__init__(seat, seed)
        self.seed = seed or 0
        self._calls = 0

    def decide(self, view: Game | None, legal: list[Action]) -> Action:  # type: ignore[override]
        assert view is not None
        if len(legal) == 1:
            return legal[0]
        if view.phase not in SEARCHED:
            return super().decide(view, legal)
        if view.phase == "turn":
            if self._turn_key != (view.turns, view.turn):
                self._turn_key, self._turn_steps = (view.turns, view.turn), 0
            self._turn_steps += 1
            if self._turn_steps > MAX_TURN_STEPS:
                return next(a for a in reversed(legal) if a.kind == "end")
        self._calls += 1
        return search(view, legal, self.budget, self.seed * 7919 + self._calls).best

    def arrange(self, view: Game, slots: tuple[int, ...]) -> Sequence[int]:  # type: ignore[override]
        return super().arrange(view, slots)


class NormalBot(StrongBot):
    name = "normal"
    budget = HINT
