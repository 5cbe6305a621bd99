"""Go Out Girl: the competitive climbing/shedding game of battles and eight characters."""

from .game import Game

__all__ = ["Game"]
