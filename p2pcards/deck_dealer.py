"""The deck service as the engine's dealer: ``Shuffle``, ``Reveal`` and ``Random`` fulfilled by the
mental-poker protocol, interchangeable with ``LocalDealer``.

Every seat runs one ``DeckDealer`` over its own ``DeckPeer``. All seats' engines issue the same
requests in the same order, so each seat calls ``fulfil`` with the same request; each gets back the
outcome *for its own view*: card values exactly where ``p2pcards.engine.state.project`` would give
them to that seat, ``None`` elsewhere. After the audit, ``full_events`` gives the full-information
outcomes in request order, for replaying the game on the full-information engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pcards.engine import (
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
