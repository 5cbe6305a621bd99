"""Out Of This World: the cooperative set-collection game against foes and time."""

from .game import Game

__all__ = ["Game"]
