"""The strong bot of The Girl and the Robot (``--bot-level strong``; ``normal`` is the same search
with the hint's smaller budget).

At its own turn and when answering an Action card or helping its ally, it runs the
information-set search (``search.search``) from its own view; in the other decisions (defending,
placing a Demon, choosing a card to give...) and when there is one legal action, it plays as the
careful player (``policy.CarefulBot``), whose move is also the search's starting point. Its
seed and the view fix every choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pcards.bots.girl_and_robot import MAX_TURN_STEPS, GirlAndRobotBot
from p2pcards.engine import Action, LocalDealer, play
from p2pcards.games import new_game
from p2pcards.games.girl_and_robot.game import Game

from .policy import CarefulBot
from .search import HINT, STRONG, Budget, search

SEARCHED = ("turn", "respond", "ally")


class StrongBot(CarefulBot):
    name = "strong"
    budget: Budget = STRONG
    searches = SEARCHED  # the phases where it may search (its answers' floor: bots/pacing.py)

    def __init__(self, seat: int, seed: int | None = None) -> None:
        super().__init__(seat, seed)
        self.seed = seed or 0
        self._calls = 0

    def decide(self, view: Game | None, legal: list[Action]) -> Action:  # type: ignore[override]
        assert view is not None
        base = super().decide(view, legal)  # the careful move (it keeps the turn's step count)
        if len(legal) == 1 or view.phase not in SEARCHED:
            return base
        if view.phase == "turn" and self._turn_steps > MAX_TURN_STEPS:
            return base  # the heuristic's safety net against loops: the turn ends
        self._calls += 1
        return search(view, legal, self.budget, self.seed * 7919 + self._calls, base=base).best


class NormalBot(StrongBot):
    name = "normal"
    budget = HINT


class ByTeam:
    """A seat's agent for team battles: the characters (so the teams) are dealt at random when
    the game starts, so the bot is chosen at the seat's first decision -- ``make(seat, seed)``
    from ``makers[team]``."""

    needs_view = True

    def __init__(self, seat: int, seed: int, makers: dict[int, type]) -> None:
        self.seat, self.seed, self.makers = seat, seed, makers
        self.bot: GirlAndRobotBot | None = None

    def _pick(self, view: Game) -> GirlAndRobotBot:
        if self.bot is None:
            self.bot = self.makers[view.team[self.seat]](self.seat, self.seed)
        return self.bot

    def decide(self, view: Game, legal: list[Action]) -> Action:
        return self._pick(view).decide(view, legal)

    def arrange(self, view: Game, slots: tuple[int, ...]) -> Sequence[int]:
        return self._pick(view).arrange(view, slots)


def team_battle(seed: int, players: int, strong: type, other: type) -> bool:
    """One seeded game, ``strong`` bots on one team and ``other`` bots on the other: the Girl's
    team for even seeds, the Evil Queen's for odd ones (sides alternate). True if it wins."""
    side = seed % 2
    agents = [ByTeam(q, seed * 10 + q, {side: strong, 1 - side: other}) for q in range(players)]
    final = play(new_game("girl-and-robot", players), agents, LocalDealer(seed))
    return final.winner == side
