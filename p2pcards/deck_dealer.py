"""The deck service as the engine's dealer: ``Shuffle``, ``Reveal``, ``Random`` and ``Prove``
fulfilled by the mental-poker protocol (v2), interchangeable with ``LocalDealer``. A ``Prove``
is ``DeckPeer.prove``: the claimant's zero-knowledge proof that the cards of some slots are among
the allowed values, verified by every seat; its outcome ``Proven`` tells no value.

Every seat runs one ``DeckDealer`` over its own ``DeckPeer``. All seats' engines issue the same
requests in the same order, so each seat calls ``fulfil`` with the same request; each gets back the
outcome *for its own view*: card values exactly where ``p2pcards.engine.state.project`` would give
them to that seat, ``None`` elsewhere. Nothing hidden is ever revealed, so the end-of-game check
(``audit``) confirms that every seat holds the same public record and hands back the events this
seat applied, for replaying the game on this seat's own view.

A ``Shuffle(slots, by=holder, mix=True)`` (a card entered a hand) is a private reorder by the
holder whose order the holder's program draws itself, uniformly, from its seed and the operation:
no ``arrange`` call, and a resumed seat re-sends the same messages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pcards.engine import (
    SPECTATOR,
    Event,
    GameState,
    Prove,
    Proven,
    Random,
    RandomValue,
    Request,
    Reveal,
    Revealed,
    RuleViolation,
    Shuffle,
    Shuffled,
)
from protocol.deck import DeckPeer
from protocol.errors import DeckError

Arrange = Callable[[int, tuple[int, ...]], Sequence[int]]


class DeckDealer:
    def __init__(self, deck: DeckPeer, seat: int) -> None:
        if deck.seat != seat:
            raise ValueError(f"deck peer of seat {deck.seat} given to the dealer of seat {seat}")
        self.deck = deck
        self.seat = seat
        #: every request fulfilled, with the event this seat applied
        self.log: list[tuple[Request, Event]] = []

    async def fulfil(self, view: GameState, req: Request, arrange: Arrange | None = None) -> Event:
        """The outcome of ``req`` for this seat's ``view`` (not yet applied to it). ``arrange``
        supplies the new order when ``req`` is ``Shuffle(by=this seat)``: the card now in
        ``result[i]`` moves to ``slots[i]``."""
        if view.viewer not in (None, self.seat, SPECTATOR):  # (SPECTATOR: this seat's public
            # copy, Table._settle: what the others' copies do, this seat's own cards unknown)
            raise ValueError(f"seat {self.seat}'s dealer was given seat {view.viewer}'s view")
        event: Event
        if isinstance(req, Shuffle):
            event = await self._shuffle(view, req, arrange)
        elif isinstance(req, Reveal):
            vals = await self.deck.open(req.slots, req.to)
            if not view.sees(req.to):  # a public copy learns only what is opened to all
                vals = None
            event = Revealed(req.slots, None if vals is None else tuple(vals))
        elif isinstance(req, Random):
            event = RandomValue(await self.deck.random(req.n))
        elif isinstance(req, Prove):
            event = await self._prove(view, req)
        else:
            raise TypeError(f"the dealer does not fulfil {req!r}")
        self.log.append((req, event))
        return event

    async def _shuffle(self, view: GameState, req: Shuffle, arrange: Arrange | None) -> Shuffled:
        if req.by is None:
            await self.deck.shuffle(req.slots)
            return Shuffled(req.slots, None)
        order: list[int] | None = None
        by_knows = all(view.known[s] >> req.by & 1 for s in req.slots)
        if getattr(req, "mix", False):
            known = await self.deck.reorder(req.slots, req.by, mix=True)
            if req.by != self.seat or not by_knows or view.viewer == SPECTATOR:
                return Shuffled(req.slots, None)
            perm = self.deck.orders[self.deck.op - 1]
            mixed = tuple(view.values[req.slots[p]] for p in perm)
            self._agree(mixed, known)
            return Shuffled(req.slots, mixed)  # type: ignore[arg-type]
        if req.by == self.seat:
            if arrange is None:
                raise ValueError("Shuffle(by=this seat) needs an arrange callback")
            order = list(arrange(req.by, req.slots))
            if sorted(order) != sorted(req.slots) or len(set(order)) != len(order):
                raise RuleViolation(req.by, "an arrangement must reorder exactly the given slots")
        known = await self.deck.reorder(req.slots, req.by, order)
        if req.by != self.seat or not by_knows:
            return Shuffled(req.slots, None)
        assert order is not None
        values = tuple(view.values[s] for s in order)
        self._agree(values, known)
        return Shuffled(req.slots, values)  # type: ignore[arg-type]

    async def _prove(self, view: GameState, req: Prove) -> Proven:
        """Every seat takes part in the proof of seat ``req.by``'s claim; it returns once the
        proof verified (the deck names a seat whose proof fails). This seat, the claimant, will
        not try to prove what its own view knows is false: its engine names it, as every other
        copy that knew the card would, without saying which card it is (the card stays hidden
        from the others: the stop carrying this reason is sent to every peer)."""
        if req.by == self.seat:
            allowed = set(req.allowed)
            bad = [s for s in req.slots if view.values[s] is not None and view.values[s] not in allowed]
            if bad:  # the reason goes to every peer in this seat's stop: it names no card
                raise RuleViolation(req.by, f"cannot prove its claim about slot {bad[0]}: the "
                                            "card there is not one the claim allows")
        try:
            await self.deck.prove(list(req.slots), req.by, list(req.allowed))
        except ValueError as exc:
            if req.by != self.seat:
                raise
            if all(view.values[s] is not None for s in req.slots):
                # the engine knows every card and the claim is true (above), yet the deck cannot
                # prove it: this program's two records disagree, a fault in it and not a cheat
                raise DeckError(None, "prove", "the deck and the engine disagree on the cards of "
                                f"this seat's claim ({exc}): a fault in this program, not a "
                                "cheat") from None
            raise RuleViolation(req.by, f"cannot prove its claim ({exc})") from None
        return Proven(req.slots)

    def _agree(self, values: tuple[int | None, ...], known: list[int | None]) -> None:
        for v, k in zip(values, known, strict=True):
            if v is None or (k is not None and k != v):
                raise DeckError(None, "shuffle", "the deck and the engine disagree on the cards "
                                f"this seat arranged: {values} vs {known}", self.deck.op - 1)

    async def audit(self) -> tuple[bytes, list[tuple[Request, Event]]]:
        """The end-of-game step (every seat must call it): the seats confirm they hold the same
        public deck record. Returns its digest and every request with the event this seat
        applied, for replaying the game on this seat's view. Raises ``DeckError`` naming a seat
        whose record differs."""
        digest = await self.deck.finish()
        return digest, list(self.log)
