"""What the deck service raises when an operation cannot complete honestly."""

from __future__ import annotations


class DeckError(Exception):
    """An operation failed. ``peer`` is the seat to blame (``None`` when it cannot be told from
    what this peer saw: run the audit), ``op`` the operation number, ``step`` the protocol step."""

    def __init__(self, peer: int | None, step: str, reason: str, op: int | None = None) -> None:
        who = "unknown seat" if peer is None else f"seat {peer}"
        where = step if op is None else f"op {op} {step}"
        super().__init__(f"{who} at {where}: {reason}")
        self.peer = peer
        self.step = step
        self.reason = reason
        self.op = op


class CheatDetected(DeckError):
    """Seat ``peer`` sent something the protocol forbids: proven from what this peer received."""


class DeckTimeout(DeckError):
    """Seat ``peer`` did not send its message for ``step`` within the timeout."""


class Equivocation(DeckError):
    """Two seats disagree about a broadcast message: either ``peer`` sent different versions to
    different seats, or ``other`` misreports what it received. Without signed envelopes the deck
    layer cannot tell which; ``suspects`` holds both."""

    def __init__(self, peer: int, other: int, step: str, reason: str, op: int | None = None) -> None:
        super().__init__(peer, step, f"{reason} (or seat {other} misreports it)", op)
        self.other = other
        self.suspects = (peer, other)


class UndecodableCard(DeckError):
    """A fully opened slot holds no card: a step before was not done honestly, and only the audit
    can name who (``peer`` is ``None``)."""


class PeerAborted(DeckError):
    """Seat ``accuser`` stopped the table, blaming ``peer`` for ``reason``. A claim: it may concern a
    private message this peer never saw; the audit settles disputes."""

    def __init__(self, accuser: int, peer: int | None, step: str, reason: str, op: int | None = None
                 ) -> None:
        super().__init__(peer, step, f"seat {accuser} aborted: {reason}", op)
        self.accuser = accuser


class DeckClosed(DeckError):
    """The deck was audited (its secrets are public) or failed earlier: no more operations."""
