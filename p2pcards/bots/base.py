"""The bot interface, and the random bot every game can use.

**A bot decides blind to the arrangement of its hand.** Hands are mixed, so to the other seats
the order of a hidden hand is random; ``GameState.disguise`` keeps the slot a move names from
telling it. But a bot that broke a tie by ``legal``'s order (slot order), or walked its hand in
slot order, would let *which kind* of card it plays depend on where its cards lie -- and that
order reflects history the others cannot see (which card was drawn when). So every bot's
``decide`` (every subclass's, wrapped when the class is made) runs on ``blind_view``: a copy of
its view where the cards of each group the game declares interchangeable
(``GameState.interchangeable``: a hand's cards the seat knows, of one ``known`` mask) lie in an
order fixed by what the seat knows, not by where they lie, with ``legal`` computed there; the action it picks is mapped
back to the slots holding the same cards in the real view, in the form ``legal`` lists
(``GameState.canonical``). Two views that differ only in that arrangement give the same copy,
so the same bot (the same rng state) picks the same cards: its choice is a function of what the
seat knows, up to where equivalent cards lie.

The order is a pseudo-random one drawn from a digest of the seat's view with the cards in card
order (from what the seat knows, so the same whatever the arrangement), not card order itself:
a mixed hand's order was random before, so a bot that broke ties by it still breaks them as at
random, only no longer by the history, and its strength is unchanged (card order would favour
the lowest cards in every tie); and a bot whose choice was a function of its view stays one.
The search inside a solver bot is untouched: calls made while a bot is deciding
(``super().decide``, the bots of a playout) run as they are, on whatever copy they are given.
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import json
import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

from ..engine import Action, GameState, RuleViolation

log = logging.getLogger(__name__)
_DECIDING: contextvars.ContextVar[bool] = contextvars.ContextVar("p2pcards_bot_deciding",
                                                                 default=False)


def blind_view(view: GameState, seat: int, mixed: bool = True) -> tuple[GameState, dict[int, int]]:
    """``view`` with the cards of each group of ``view.interchangeable(seat)`` put in one order
    over the group's slots (ascending), and the map from each slot of that copy whose card moved
    to the slot of ``view`` holding the same card (``view`` itself and ``{}`` when nothing
    moves). The order: ascending card when not ``mixed``; else a pseudo-random one drawn from a
    digest of the ascending copy (``seat``'s view: what the seat knows), so the same for every
    arrangement of the groups. Pure."""
    cells = [sorted(c) for c in view.interchangeable(seat)]
    if not cells:
        return view, {}
    blind = view.clone()
    for slots in cells:
        for s, v in zip(slots, sorted(view.values[s] for s in slots),  # type: ignore[type-var]
                        strict=True):
            blind.values[s] = v
    if mixed:
        text = json.dumps([seat, blind.to_json()], sort_keys=True, separators=(",", ":"))
        rng = random.Random(hashlib.sha256(text.encode()).digest())
        for slots in cells:
            vals = [blind.values[s] for s in slots]
            rng.shuffle(vals)
            for s, v in zip(slots, vals, strict=True):
                blind.values[s] = v
    where = {view.values[s]: s for slots in cells for s in slots}
    back = {s: where[blind.values[s]] for slots in cells for s in slots
            if where[blind.values[s]] != s}
    return (blind, back) if back else (view, {})


def map_slots(view: GameState, action: Action, back: dict[int, int]) -> Action:
    """``action`` with every slot it names (the ``slot``/``slots`` arguments of the game's
    ``ACTION_ARGS``) mapped through ``back`` (a slot not in it stays); a list of slots that was
    ascending stays ascending."""
    want = (view.ACTION_ARGS or {}).get(action.kind) or {}
    args = dict(action.args)
    for spec, typ in want.items():
        n = spec.rstrip("?")
        v = args.get(n)
        if typ == "slot" and isinstance(v, int):
            args[n] = back.get(v, v)
        elif typ == "slots" and isinstance(v, tuple):
            out = tuple(back.get(s, s) for s in v)
            args[n] = tuple(sorted(out)) if list(v) == sorted(v) else out
    return Action(action.kind, **args)


def _unordered(a: Action) -> tuple[Any, ...]:
    return (a.kind, *((n, tuple(sorted(v)) if isinstance(v, tuple) else v) for n, v in a.args))


def _blind(decide: Callable[..., Action]) -> Callable[..., Action]:
    """``decide`` run on ``blind_view`` when it is the outermost decision (see the module)."""

    @functools.wraps(decide)
    def wrapper(self: Bot, view: GameState | None, legal: list[Action]) -> Action:
        if view is None or _DECIDING.get():
            return decide(self, view, legal)
        token = _DECIDING.set(True)
        try:
            blind, back = blind_view(view, self.seat)
            if not back:  # already in the canonical order
                return decide(self, view, legal)
            action = decide(self, blind, blind.legal(self.seat))
        finally:
            _DECIDING.reset(token)
        out = view.canonical(self.seat, map_slots(view, action, back))
        if out not in legal:  # a list of hand cards legal names in the hand's order
            out = next((x for x in legal if _unordered(x) == _unordered(out)), out)
        try:
            view.check(self.seat, out)
        except RuleViolation as exc:
            # a game whose interchangeable() groups cards its rules tell apart (a bug): the
            # decision on the real view, as before (logged below warnings: no user sees it)
            log.info("blind decision %s refused on the real view (%s)", out.to_json(), exc)
            return decide(self, view, legal)
        return out

    wrapper.__blind__ = True  # type: ignore[attr-defined]
    return wrapper


class Bot:
    """A seat's automatic player. ``decide`` gets the seat's own view (never the full state) and
    the legal actions computed from it; ``arrange`` orders slots for a ``Shuffle(by=seat)``.
    A subclass's ``decide`` is wrapped to run on ``blind_view`` (see the module's docstring)."""

    needs_view = True
    name = "bot"

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        own = cls.__dict__.get("decide")
        if own is not None and not getattr(own, "__blind__", False):
            cls.decide = _blind(own)  # type: ignore[method-assign]

    def __init__(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def decide(self, view: GameState | None, legal: list[Action]) -> Action:
        raise NotImplementedError

    def arrange(self, view: GameState, slots: tuple[int, ...]) -> Sequence[int]:
        order = list(slots)
        self.rng.shuffle(order)
        return order


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    needs_view = False
    name = "random"

    def decide(self, view: GameState | None, legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
