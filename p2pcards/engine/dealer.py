"""A trusted, seeded, in-process dealer, and the loop that drives a game with it.

The ``LocalDealer`` fulfils ``Shuffle``, ``Reveal``, ``Random`` and ``Prove`` for tests, the solver, offline
play and benchmarks; the networked table fulfils the same requests with the mental-poker deck
service. Engines cannot tell the difference.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .actions import Action
from .errors import RuleViolation
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
)
from .state import SPECTATOR, GameState, project

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
            if req.by is not None and arrange is not None and not req.mix:
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
        if isinstance(req, Prove):
            # a trusted dealer proves whatever is asked: the full-information state checks the
            # claim when the outcome is applied (``GameState._on_proven``) and names its seat
            return Proven(req.slots)
        raise TypeError(f"the dealer does not fulfil {req!r}")


def is_view(state: GameState, copy: Any, player: int) -> bool:
    """``copy == state.view(player)``, without making the view: a view is a deep copy of the
    state's attributes with ``viewer`` set and the values its seat may not know hidden, so the
    state's own attributes, so changed, are compared instead. ``play(views=True)`` checks every
    seat's copy after every step: the views it made to compare were most of a lockstep game's
    time (five copies of the whole state a step at four seats)."""
    if state.viewer is not None:
        return bool(copy == state.view(player))  # (and its refusal of another seat's view)
    if not isinstance(copy, GameState) or copy.game != state.game:
        return False
    mine = state._public()
    mine["viewer"] = player
    need = state.all_mask if player == SPECTATOR else 1 << player
    values = mine["values"] = list(state.values)
    for s, k in enumerate(state.known):
        if k & need != need:
            values[s] = None
    return bool(mine == copy._public())


def play(
    state: GameState,
    agents: Sequence[Agent],
    dealer: LocalDealer,
    *,
    views: bool = False,
    copies: dict[int, GameState] | None = None,
    max_steps: int = 1_000_000,
    on_step: Callable[[GameState, Event], None] | None = None,
    disguise: Any = None,
) -> GameState:
    """Drive the full-information ``state`` to the end and return it.

    ``copies`` maps seats to their own copies of the game (made with ``state.view(seat)``,
    perhaps narrating): each is fed only the outcomes its seat may see, as a networked peer's
    is, and that seat's agent decides from it. ``views=True`` keeps a copy for every seat and
    checks each against ``state.view(seat)`` after every step (slow; for tests). ``disguise``
    (a ``random.Random``): each decision is sent as ``disguise(p, action, disguise)`` names it,
    as a table's seat sends its own (the card picked among the equivalent ones); ``None`` keeps
    the actions as the agents chose them (repeatable simulations)."""
    copies = dict(copies or {})
    if views:
        for p in [*range(state.n_players), SPECTATOR]:
            copies.setdefault(p, state.view(p))

    def arrange(by: int, slots: tuple[int, ...]) -> Sequence[int]:
        return agents[by].arrange(copies[by] if by in copies else state.view(by), slots)

    for _ in range(max_steps):
        req = state.pending()
        if req is None:
            return state
        if isinstance(req, Decide):
            p = req.player
            agent = agents[p]
            if p in copies:
                v: GameState | None = copies[p]
            else:
                v = state.view(p) if agent.needs_view else None
            legal = (v or state).legal(p)
            if not legal:
                raise AssertionError(f"{state.game}: seat {p} must decide but has no legal action")
            action = agent.decide(v, legal)
            if disguise is not None:
                action = (v or state).disguise(p, action, disguise)
            event: Event = Decision(p, action)
            state.apply(event, trusted=not views)
            for c in copies.values():
                c.apply(event)
        else:
            before = state.clone() if copies else state
            event = dealer.fulfil(state, req, arrange)
            state.apply(event)
            for p, c in copies.items():
                c.apply(project(event, req, before, p))
        if views:
            for p, c in copies.items():
                if not is_view(state, c, p):
                    who = "the spectator" if p == SPECTATOR else f"seat {p}"
                    raise AssertionError(f"{who}'s own copy diverged from its view of the game")
        if on_step is not None:
            on_step(state, event)
    raise AssertionError(f"{state.game}: no end after {max_steps} steps")
