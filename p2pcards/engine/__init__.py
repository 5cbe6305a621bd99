"""The engine contract shared by every game: see ``state.py`` for the model."""

from .actions import Action
from .dealer import Agent, LocalDealer, play
from .errors import ConfigError, RuleViolation
from .requests import (
    Decide,
    Decision,
    Event,
    Prove,
    Proven,
    Random,
    RandomValue,
    Request,
    Reveal,
    Revealed,
    Shuffle,
    Shuffled,
    event_from_json,
    event_to_json,
    request_from_json,
    request_to_json,
)
from .state import SECRECY, SPECTATOR, GameState, join_names, mask_of, plural, project, seats_of

__all__ = [
    "Action", "Agent", "ConfigError", "Decide", "Decision", "Event", "GameState", "LocalDealer",
    "Prove", "Proven",
    "Random", "RandomValue", "SECRECY", "SPECTATOR", "Request", "Reveal", "Revealed", "RuleViolation", "Shuffle", "Shuffled",
    "event_from_json", "event_to_json", "join_names", "mask_of", "play", "plural", "project", "request_from_json", "request_to_json",
    "seats_of",
]
