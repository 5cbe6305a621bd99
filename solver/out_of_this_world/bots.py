"""Solver-driven Out Of This World bots. Like every bot they decide from their seat's view alone.

* ``NormalBot`` -- the CP-SAT set advisor's recommendation at every decision;
* ``StrongBot`` -- see below.
"""

from __future__ import annotations

from p2pcards.bots.base import Bot
from p2pcards.engine import Action
from p2pcards.games.out_of_this_world.game import Game

from .advisor import DEFAULT, Prices, advise


class NormalBot(Bot):
    name = "normal"
    prices: Prices = DEFAULT

    def decide(self, view: Game | None, legal: list[Action]) -> Action:  # type: ignore[override]
        assert view is not None
        if len(legal) == 1:
            return legal[0]
        return advise(view, legal, prices=self.prices, explain=False).action


class StrongBot(NormalBot):
    name = "strong"
