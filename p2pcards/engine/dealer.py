"""A trusted, seeded, in-process dealer, and the loop that drives a game with it.

The ``LocalDealer`` fulfils ``Shuffle``, ``Reveal`` and ``Random`` for tests, the solver, offline
play and benchmarks; the networked table fulfils the same requests with the mental-poker deck
service. Engines cannot tell the difference.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from .actions import Action
from .errors import RuleViolation
from .requests import (
    Decide,
    Decision,
    Event,
    Random,
    RandomValue,
    Request,
    Reveal,
    Revealed,
    Shuffle,
    Shuffled,
)
from .state import GameState, project

Arrange = Callable[[int, tuple[int, ...]], Sequence[int]]


class Agent(Protocol):
    """A seat's player. It sees only its seat's view (``None`` when ``needs_view`` is false)."""

    needs_view: bool

    def decide(self, view: GameState | None, legal: list[Action]) -> Action: ...

    def arrange(self, view: GameState, slots: tuple[int, ...]) -> Sequence[int]:
        """For ``Shuffle(slots, by=this seat)``: the slots in their new order (the card now in
        ``result[i]`` moves to ``slots[i]``)."""
        ...


class LocalDealer:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def fulfil(self, state: GameState, req: Request, arrange: Arrange | None = None) -> Event:
        """The full-information outcome of ``req`` on the full-information ``state``."""
        if state.viewer is not None:
            raise ValueError("the local dealer needs the full-information state")
        if isinstance(req, Shuffle):
            if req.by is not None and arrange is not None:
                order = list(arrange(req.by, req.slots))
                if sorted(order) != sorted(req.slots):
                    raise RuleViolation(req.by, "an arrangement must reorder exactly the given slots")
            else:
                order = list(req.slots)
                self.rng.shuffle(order)
            return Shuffled(req.slots, tuple(state.values[s] for s in order))
        if isinstance(req, Reveal):
            return Revealed(req.slots, tuple(state.values[s] for s in req.slots))  # type: ignore[misc]
        if isinstance(req, Random):
            return RandomValue(self.rng.randrange(req.n))
        raise TypeError(f"the dealer does not fulfil {req!r}")


def play(
    state: GameState,
    agents: Sequence[Agent],
    dealer: LocalDealer,
    *,
    views: bool = False,
    max_steps: int = 1_000_000,
    on_step: Callable[[GameState, Event], None] | None = None,
) -> GameState:
    """Drive the full-information ``state`` to the end. With ``views=True`` every seat's own copy
    is also kept, fed only its projected outcomes, and checked against ``state.view(seat)`` after
    every step (slow; for tests). Returns the final state."""
    seat_views = [state.view(p) for p in range(state.n_players)] if views else None

    def arrange(by: int, slots: tuple[int, ...]) -> Sequence[int]:
        v = seat_views[by] if seat_views else state.view(by)
        return agents[by].arrange(v, slots)

    for _ in range(max_steps):
        req = state.pending()
        if req is None:
            return state
        if isinstance(req, Decide):
            p = req.player
            agent = agents[p]
            if seat_views is not None:
                v: GameState | None = seat_views[p]
            else:
                v = state.view(p) if agent.needs_view else None
            legal = (v or state).legal(p)
            if not legal:
                raise AssertionError(f"{state.game}: seat {p} must decide but has no legal action")
            event: Event = Decision(p, agent.decide(v, legal))
            state.apply(event, trusted=not views)
            if seat_views is not None:
                for sv in seat_views:
                    sv.apply(event)
        else:
            before = state.clone() if seat_views is not None else state
            event = dealer.fulfil(state, req, arrange)
            state.apply(event)
            if seat_views is not None:
                for p, sv in enumerate(seat_views):
                    sv.apply(project(event, req, before, p))
        if seat_views is not None:
            for p, sv in enumerate(seat_views):
                if sv != state.view(p):
                    raise AssertionError(f"seat {p}'s own copy diverged from its view of the game")
        if on_step is not None:
            on_step(state, event)
    raise AssertionError(f"{state.game}: no end after {max_steps} steps")
