"""The deck service as the engine's dealer: ``Shuffle``, ``Reveal`` and ``Random`` fulfilled by the
mental-poker protocol, interchangeable with ``LocalDealer``.

Every seat runs one ``DeckDealer`` over its own ``DeckPeer``. All seats' engines issue the same
requests in the same order, so each seat calls ``fulfil`` with the same request; each gets back the
outcome *for its own view*: card values exactly where ``p2pcards.engine.state.project`` would give
them to that seat, ``None`` elsewhere. After the audit, ``full_events`` gives the full-information
outcomes in request order, for replaying the game on the full-information engine.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2pcards.engine import (
    Agent,
    Decide,
    Decision,
    Event,
    GameState,
    Random,
    RandomValue,
    Request,
    Reveal,
    Revealed,
    RuleViolation,
    Shuffle,
    Shuffled,
    project,
)
from protocol.audit import AuditReport
from protocol.deck import DeckPeer
from protocol.errors import DeckError

Arrange = Callable[[int, tuple[int, ...]], Sequence[int]]


class DeckDealer:
    def __init__(self, deck: DeckPeer, seat: int) -> None:
        if deck.seat != seat:
            raise ValueError(f"deck peer of seat {deck.seat} given to the dealer of seat {seat}")
        self.deck = deck
        self.seat = seat
        #: every request fulfilled, with the deck operation number that fulfilled it
        self.log: list[tuple[Request, int]] = []

    async def fulfil(self, view: GameState, req: Request, arrange: Arrange | None = None) -> Event:
        """The outcome of ``req`` for this seat's ``view`` (not yet applied to it). ``arrange``
        supplies the new order when ``req`` is ``Shuffle(by=this seat)``: the card now in
        ``result[i]`` moves to ``slots[i]``."""
        if view.viewer is not None and view.viewer != self.seat:
            raise ValueError(f"seat {self.seat}'s dealer was given seat {view.viewer}'s view")
        op = self.deck.op
        event: Event
        if isinstance(req, Shuffle):
            event = await self._shuffle(view, req, arrange)
        elif isinstance(req, Reveal):
            vals = await self.deck.open(req.slots, req.to)
            event = Revealed(req.slots, None if vals is None else tuple(vals))
        elif isinstance(req, Random):
            event = RandomValue(await self.deck.random(req.n))
        else:
            raise TypeError(f"the dealer does not fulfil {req!r}")
        self.log.append((req, op))
        return event

    async def _shuffle(self, view: GameState, req: Shuffle, arrange: Arrange | None) -> Shuffled:
        if req.by is None:
            await self.deck.shuffle(req.slots)
            return Shuffled(req.slots, None)
        order: list[int] | None = None
        if req.by == self.seat:
            if arrange is None:
                raise ValueError("Shuffle(by=this seat) needs an arrange callback")
            order = list(arrange(req.by, req.slots))
            if sorted(order) != sorted(req.slots) or len(set(order)) != len(order):
                raise RuleViolation(req.by, "an arrangement must reorder exactly the given slots")
        by_knows = all(view.known[s] >> req.by & 1 for s in req.slots)
        known = await self.deck.reorder(req.slots, req.by, order)
        if req.by != self.seat or not by_knows:
            return Shuffled(req.slots, None)
        assert order is not None
        values = tuple(view.values[s] for s in order)
        for v, k in zip(values, known, strict=True):
            if v is None or (k is not None and k != v):
                raise DeckError(None, "shuffle", "the deck and the engine disagree on the cards "
                                f"this seat arranged: {values} vs {known}", self.deck.op - 1)
        return Shuffled(req.slots, values)  # type: ignore[arg-type]

    async def audit(self) -> tuple[AuditReport, list[tuple[Request, Event]]]:
        """Run the deck audit (every seat must call it) and return the report and the
        full-information events. Raises ``DeckError`` naming the culprit if it is not clean."""
        report = await self.deck.audit()
        if not report.clean:
            v = report.verdict
            raise DeckError(v.culprit, v.step or "?", f"the audit failed: {v.reason}", v.op)
        return report, self.full_events(report)

    def full_events(self, report: AuditReport) -> list[tuple[Request, Event]]:
        """The full-information outcome of every request fulfilled so far, in request order."""
        by_op = {o["op"]: o for o in report.outcomes}
        out: list[tuple[Request, Event]] = []
        for req, op in self.log:
            o = by_op.get(op)
            if o is None:
                raise KeyError(f"the audit has no outcome for deck operation {op}")
            if isinstance(req, Shuffle):
                out.append((req, Shuffled(req.slots, tuple(o["values"]))))
            elif isinstance(req, Reveal):
                out.append((req, Revealed(req.slots, tuple(o["values"]))))
            else:
                out.append((req, RandomValue(o["value"])))
        return out


# ---- driving a whole table in one process (tests, benchmarks, local games) --------------------------
@dataclass
class Step:
    """One request of a game played by ``play_in_process`` and the event each seat applied."""

    request: Request
    events: list[Event]


async def play_in_process(views: Sequence[GameState], dealers: Sequence[DeckDealer],
                          agents: Sequence[Agent], *, max_steps: int = 1_000_000,
                          on_step: Callable[[Step, Sequence[GameState]], None] | None = None
                          ) -> list[Step]:
    """Play a game to the end with every seat in this process: seat ``p`` sees only
    ``views[p]`` (its own copy, fed only its own outcomes) and its agent decides and arranges from
    it; every other seat's copy validates each decision. Returns the steps."""
    n = len(views)
    steps: list[Step] = []
    for _ in range(max_steps):
        req = views[0].pending()
        if req is None:
            return steps
        if any(v.pending() != req for v in views):
            raise AssertionError("the seats' copies disagree on the next request")
        if isinstance(req, Decide):
            p = req.player
            events: list[Event] = [Decision(p, agents[p].decide(views[p], views[p].legal(p)))] * n
        else:
            def arrange(by: int, slots: tuple[int, ...]) -> Sequence[int]:
                return agents[by].arrange(views[by], slots)

            events = list(await asyncio.gather(*(d.fulfil(v, req, arrange)
                                                 for d, v in zip(dealers, views, strict=True))))
        for v, e in zip(views, events, strict=True):
            v.apply(e)
        step = Step(req, events)
        steps.append(step)
        if on_step is not None:
            on_step(step, views)
    raise AssertionError(f"no end after {max_steps} steps")


def replay_full(full: GameState, steps: Sequence[Step], full_events: Sequence[Event],
                on_step: Callable[[int, GameState], None] | None = None) -> GameState:
    """Replay a game played by ``play_in_process`` on the full-information copy ``full``, with
    the audited full-information events of the service requests (``DeckDealer.audit``). Checks at
    every step that projecting the full event gives exactly what each seat applied; the engine's
    own checks (``RuleViolation``) run on every decision and outcome. Returns ``full``."""
    it = iter(full_events)
    for i, step in enumerate(steps):
        if full.pending() != step.request:
            raise AssertionError(f"step {i}: the full-information copy expects {full.pending()}")
        if isinstance(step.request, Decide):
            full.apply(step.events[0])
        else:
            ev = next(it)
            before = full.clone()
            full.apply(ev)
            for p, got in enumerate(step.events):
                if project(ev, step.request, before, p) != got:
                    raise AssertionError(f"step {i}: seat {p} got {got}, the audit says {ev}")
        if on_step is not None:
            on_step(i, full)
    if next(it, None) is not None:
        raise AssertionError("more audited events than service requests")
    return full
