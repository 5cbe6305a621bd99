"""The Girl and the Robot: the team survival game of demons, actions and weapons."""

from .game import Game

__all__ = ["Game"]
