"""Positions for the solver's tests: full states at decisions of heuristic-bot games."""

from __future__ import annotations

from collections.abc import Callable

from p2pcards.bots.registry import make_bot
from p2pcards.engine import Action, Decide, Decision, GameState, LocalDealer
from p2pcards.games import new_game

Where = Callable[[GameState, int, list[Action]], bool]


def bot_decision(game: str, players: int, seed: int, where: Where, *, skip: int = 0,
                 stride: int = 1) -> tuple[GameState, int] | tuple[None, None]:
    """Play heuristic bots (bot ``q`` seeded ``seed * stride + q``, a local dealer seeded
    ``seed``) until the ``skip``-th decision at which ``where(state, seat, legal)`` holds, and
    return the full state there and the deciding seat; ``(None, None)`` if the game ends first."""
    g = new_game(game, players)
    dealer = LocalDealer(seed)
    bots = [make_bot(game, q, "easy", seed * stride + q) for q in range(players)]
    seen = 0
    while (req := g.pending()) is not None:
        if isinstance(req, Decide):
            p = req.player
            legal = g.legal(p)
            if where(g, p, legal):
                if seen == skip:
                    return g, p
                seen += 1
            g.apply(Decision(p, bots[p].decide(g.view(p), legal)))
        else:
            g.apply(dealer.fulfil(g, req))
    return None, None
