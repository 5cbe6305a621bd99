"""Errors the engine raises."""

from __future__ import annotations


class RuleViolation(Exception):
    """A player did something the rules forbid. ``player`` is the seat to blame (``None`` when the
    fault is not a player's, e.g. a deck-service outcome that contradicts what this view knows)."""

    def __init__(self, player: int | None, reason: str) -> None:
        super().__init__(reason if player is None else f"seat {player}: {reason}")
        self.player = player
        self.reason = reason


class ConfigError(ValueError):
    """A game was set up with bad options, or a data file is malformed."""
