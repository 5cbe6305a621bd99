"""The bot interface, and the random bot every game can use."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine import Action, GameState


class Bot:
    """A seat's automatic player. ``decide`` gets the seat's own view (never the full state) and
    the legal actions computed from it; ``arrange`` orders slots for a ``Shuffle(by=seat)``."""

    needs_view = True
    name = "bot"

    def __init__(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def decide(self, view: GameState | None, legal: list[Action]) -> Action:
        raise NotImplementedError

    def arrange(self, view: GameState, slots: tuple[int, ...]) -> Sequence[int]:
        order = list(slots)
        self.rng.shuffle(order)
        return order


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    needs_view = False
    name = "random"

    def decide(self, view: GameState | None, legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
