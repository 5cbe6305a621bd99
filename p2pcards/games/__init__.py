"""The registry of games by short name. Each game's package exposes ``Game``: a ``GameState``
subclass with a ``new(players, options)`` class method."""

from __future__ import annotations

import importlib
from typing import Any

from ..engine import SECRECY, ConfigError, GameState

GAMES: dict[str, str] = {
    "go-out-girl": "p2pcards.games.go_out_girl",
    "out-of-this-world": "p2pcards.games.out_of_this_world",
    "girl-and-robot": "p2pcards.games.girl_and_robot",
}


def names() -> list[str]:
    return list(GAMES)


def game_class(name: str) -> type[GameState]:
    try:
        module = GAMES[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}") from None
    return importlib.import_module(module).Game


def new_game(name: str, players: int, options: dict[str, Any] | None = None, *,
             secrecy: int = SECRECY) -> GameState:
    """A new game. ``secrecy`` below ``SECRECY``: to replay a record an earlier version made
    (``GameState.secrecy``; clones, views and JSON keep it)."""
    state = game_class(name).new(players, options or {})
    if secrecy != SECRECY:
        state.secrecy = secrecy  # type: ignore[misc]
    return state


def state_from_json(data: Any) -> GameState:
    """Rebuild any registered game's state from ``GameState.to_json()`` output."""
    if not isinstance(data, dict) or "game" not in data or "state" not in data:
        raise ConfigError("not a saved game state (expected keys 'game' and 'state')")
    return game_class(data["game"]).from_json_body(data["state"])
