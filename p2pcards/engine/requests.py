"""What a game state asks for next (requests) and what answers it (events).

A state's ``pending()`` returns one request:

* ``Decide(player)``      -- that player chooses one of ``state.legal(player)``;
* ``Shuffle(slots, by)``  -- the deck service re-randomises these slots. With ``by=None`` nobody
                             learns the new order. With ``by=p`` seat p arranges them (its agent
                             picks the order, privately) and p alone knows the result -- provided p
                             knew every card in those slots before. ``mix=True`` (with ``by``):
                             a hand is mixed -- the order is picked at random for p without
                             asking p's agent, so the others lose track of which slot holds
                             which card while p keeps knowing them (see ``GameState.mix_hand``);
* ``Reveal(slots, to)``   -- the deck service opens these slots to the seats in ``to``;
* ``Random(n)``           -- a joint random integer in ``[0, n)``;
* ``Prove(slots, by, allowed)`` -- seat ``by`` proves, in zero knowledge, that every card in
                             ``slots`` is one of the card values ``allowed`` (ascending, distinct,
                             non-empty), and nothing else: a claim about a card that stays hidden,
                             checked when it is made. Its outcome ``Proven(slots)`` has no values;
* ``None``                -- the game is over.

``state.apply(event)`` takes a ``Decision`` or the outcome of a service request. Outcomes are
per-view: the copy that may not learn a value gets ``None`` in its place; the full-information
copy gets every value. Every field is a plain int or list of ints, so events travel as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action


@dataclass(frozen=True, slots=True)
class Decide:
    player: int


@dataclass(frozen=True, slots=True)
class Shuffle:
    slots: tuple[int, ...]
    by: int | None = None
    mix: bool = False  # a hand mixed by its holder: a random private reorder nobody is asked for


@dataclass(frozen=True, slots=True)
class Reveal:
    slots: tuple[int, ...]
    to: tuple[int, ...]  # seats, ascending


@dataclass(frozen=True, slots=True)
class Random:
    n: int


@dataclass(frozen=True, slots=True)
class Prove:
    slots: tuple[int, ...]
    by: int
    allowed: tuple[int, ...]  # card values, ascending, distinct, non-empty


Request = Decide | Shuffle | Reveal | Random | Prove


@dataclass(frozen=True, slots=True)
class Decision:
    player: int
    action: Action


@dataclass(frozen=True, slots=True)
class Shuffled:
    """The slots of a ``Shuffle`` hold new cards. ``values[i]`` is the card now in ``slots[i]``,
    or ``None`` for a view that may not know it (``values`` itself may be ``None``: nothing known)."""

    slots: tuple[int, ...]
    values: tuple[int | None, ...] | None = None


@dataclass(frozen=True, slots=True)
class Revealed:
    """The slots of a ``Reveal`` were opened; ``values`` is ``None`` for a view outside ``to``."""

    slots: tuple[int, ...]
    values: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class RandomValue:
    value: int


@dataclass(frozen=True, slots=True)
class Proven:
    """Seat ``by`` of the ``Prove`` proved its claim about ``slots``; no value is told."""

    slots: tuple[int, ...]


Event = Decision | Shuffled | Revealed | RandomValue | Proven


def request_to_json(req: Request) -> dict[str, Any]:
    if isinstance(req, Decide):
        return {"type": "decide", "player": req.player}
    if isinstance(req, Shuffle):
        return {"type": "shuffle", "slots": list(req.slots), "by": req.by, "mix": req.mix}
    if isinstance(req, Reveal):
        return {"type": "reveal", "slots": list(req.slots), "to": list(req.to)}
    if isinstance(req, Random):
        return {"type": "random", "n": req.n}
    if isinstance(req, Prove):
        return {"type": "prove", "slots": list(req.slots), "by": req.by, "allowed": list(req.allowed)}
    raise TypeError(f"not a request: {req!r}")


def request_from_json(d: dict[str, Any]) -> Request:
    """Parse a request written by ``request_to_json``; ``ValueError`` on a malformed one."""
    try:
        kind = d["type"]
        if kind == "decide":
            return Decide(int(d["player"]))
        if kind == "shuffle":
            by = d.get("by")
            mix = d.get("mix", False)
            if not isinstance(mix, bool):
                raise TypeError("mix must be true or false")
            return Shuffle(_ints(d["slots"]), None if by is None else int(by), mix)
        if kind == "reveal":
            return Reveal(_ints(d["slots"]), _ints(d["to"]))
        if kind == "random":
            return Random(int(d["n"]))
        if kind == "prove":
            allowed = _ints(d["allowed"])
            if not allowed or list(allowed) != sorted(set(allowed)):
                raise ValueError("allowed must be ascending, distinct and non-empty")
            return Prove(_ints(d["slots"]), int(d["by"]), allowed)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed request {d!r}: {exc}") from None
    raise ValueError(f"unknown request type {d.get('type')!r}")


def event_to_json(ev: Event) -> dict[str, Any]:
    if isinstance(ev, Decision):
        return {"type": "decision", "player": ev.player, "action": ev.action.to_json()}
    if isinstance(ev, Shuffled):
        return {"type": "shuffled", "slots": list(ev.slots),
                "values": None if ev.values is None else list(ev.values)}
    if isinstance(ev, Revealed):
        return {"type": "revealed", "slots": list(ev.slots),
                "values": None if ev.values is None else list(ev.values)}
    if isinstance(ev, RandomValue):
        return {"type": "random", "value": ev.value}
    if isinstance(ev, Proven):
        return {"type": "proven", "slots": list(ev.slots)}
    raise TypeError(f"not an event: {ev!r}")


def event_from_json(d: dict[str, Any]) -> Event:
    """Parse an event; raises ``ValueError`` with a clear message on a malformed one."""
    try:
        kind = d["type"]
        if kind == "decision":
            return Decision(int(d["player"]), Action.from_json(d["action"]))
        if kind == "shuffled":
            vals = d.get("values")
            return Shuffled(_ints(d["slots"]),
                            None if vals is None else tuple(None if v is None else int(v) for v in vals))
        if kind == "revealed":
            vals = d.get("values")
            return Revealed(_ints(d["slots"]), None if vals is None else _ints(vals))
        if kind == "random":
            return RandomValue(int(d["value"]))
        if kind == "proven":
            return Proven(_ints(d["slots"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed event {d!r}: {exc}") from None
    raise ValueError(f"unknown event type {d.get('type')!r}")


def _ints(xs: Any) -> tuple[int, ...]:
    if not isinstance(xs, list | tuple):
        raise TypeError("expected a list of integers")
    return tuple(int(x) for x in xs)
