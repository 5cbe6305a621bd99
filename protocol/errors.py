"""What the deck service raises when an operation cannot complete honestly."""

from __future__ import annotations


class DeckError(Exception):
    """An operation failed. ``peer`` is the seat to blame (``None`` when nobody can be blamed),
    ``op`` the operation number, ``step`` the protocol step."""

    def __init__(self, peer: int | None, step: str, reason: str, op: int | None = None, *,
                 confirm: bool = False) -> None:
        who = "unknown seat" if peer is None else f"seat {peer + 1}"
        where = step if op is None else f"op {op} {step}"
        super().__init__(f"{who} at {where}: {reason}")
        self.peer = peer
        self.step = step
        self.reason = reason
        self.op = op
        #: ``peer`` is to be named once the mesh has had its grace to prove an equivocation
        #: that would explain the deviation instead (a wrong ``prev`` over an input this seat
        #: did not publish itself: SPEC.md 5.3); a proof names the equivocator
        self.confirm = confirm


class CheatDetected(DeckError):
    """Seat ``peer`` sent something the protocol forbids: provable from the public record (the
    message is signed by its sender and every check is public). With ``confirm``, the table asks
    the mesh for an equivocation proof first (a wrong ``prev``; SPEC.md 5.3)."""


class DeckTimeout(DeckError):
    """Seat ``peer`` did not send its message for ``step`` within the timeout (it withheld)."""


class Equivocation(DeckError):
    """Seat ``peer`` sent different messages for one step to different seats. On a real table the
    mesh detects this (two signed messages under one sequence number are the proof) and stops the
    table everywhere; the deck raises it when its channel reports it. ``other`` is a seat that
    reported a different view, when the deck itself noticed (``prev`` or ``echo`` mismatch)."""

    def __init__(self, peer: int | None, step: str, reason: str, op: int | None = None,
                 other: int | None = None) -> None:
        super().__init__(peer, step, reason, op)
        self.other = other


class PeerAborted(DeckError):
    """Seat ``accuser`` stopped the table (its ``abort`` message claims ``claimed`` cheated) while
    this seat still waited for one of its messages. Every deviation in v2 is checkable by every
    seat from the public record, and this seat had checked everything before that message, so it
    blames ``accuser`` (``peer``) for withholding: ``claimed`` is kept for the log."""

    def __init__(self, accuser: int, claimed: int | None, step: str, reason: str,
                 op: int | None = None) -> None:
        super().__init__(accuser, step, f"stopped the table blaming "
                         f"{'no seat' if claimed is None else f'seat {claimed + 1}'} ({reason}) "
                         "although every message this seat could check was sound", op)
        self.accuser = accuser
        self.claimed = claimed


class UndecodableCard(DeckError):
    """An opened slot holds no card. Every step is proven, so this cannot follow from honest or
    dishonest peers alike; it means a bug or a broken proof system (``peer`` is ``None``)."""


class DeckClosed(DeckError):
    """The deck failed earlier or was closed at the end of the game: no more operations."""


class MeshError(Exception):
    """A mesh operation failed; the message is meant for the player. (Here, not in
    ``protocol.mesh``, so that a command that only checks what a player typed need not load
    ZeroMQ and the mesh to name the error: ``p2pcards --help`` 0.27 -> 0.18 s.)"""
