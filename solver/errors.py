"""Errors the solver reports to the user."""

from __future__ import annotations


class PositionError(ValueError):
    """A malformed or impossible position; ``where`` names the field (``seats[1].hand[2]``)."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem
