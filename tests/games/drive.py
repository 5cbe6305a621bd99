"""Driving any game of the engine in tests: fulfil its deck requests until it waits for a decision."""

from __future__ import annotations

from typing import Any

from p2pcards.engine import Decide, LocalDealer


def settle(game: Any, dealer: LocalDealer) -> None:
    """Fulfil ``game``'s pending deck requests with ``dealer`` until a seat must decide or the
    game is over."""
    while (req := game.pending()) is not None and not isinstance(req, Decide):
        game.apply(dealer.fulfil(game, req))
