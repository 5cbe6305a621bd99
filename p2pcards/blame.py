"""Whom this program names on its own finding against another seat's message: first compared
with every seat, so that an honest message made from another copy of an earlier one (an
author that sent two players different messages) gets the fork's author named, never its
honest sender (red team 19; docs/network.md, "When someone cheats or floods")."""

from __future__ import annotations

from protocol.mesh import Mesh

from .table import TableStopped


def compared(mesh: Mesh, found: TableStopped) -> bool:  # a clock's finding is about time
    return found.culprit not in (None, mesh.seat) and not found.clock


async def before_naming(mesh: Mesh, found: TableStopped) -> TableStopped:
    """Another seat's message refused here may be an honest one made from another copy of an
    earlier message (an author that sent two players different ones: red team 19). Heads are
    compared with every seat first (``Mesh.prove_culprit(answered=True)``): a proven equivocator's stop is
    returned. A seat out of reach (a cut link: ``Mesh.out_of_reach``) is not named, unless its
    envelopes state it made them from exactly what this program holds
    (``Mesh.made_from_ours``): then it is named at once, with no comparison."""
    seat = found.culprit
    if seat is None or not compared(mesh, found):
        return found
    # the author's envelopes state what it held when it made them (``heads``): made from exactly
    # what this program holds, the message is refused on the author's own inputs, and it is
    # named now, reach or no reach (red team 20: a cheat sent to one program whose author then
    # vanished was named by nobody). Not on inference: an abort over a message that checks out
    # here may be about a box only its recipient can open
    if not found.inferred and mesh.made_from_ours(seat):
        return found
    if await mesh.prove_culprit(answered=True):
        assert mesh.stopped is not None
        return TableStopped(mesh.stopped.culprit, mesh.stopped.reason)
    same = None if found.inferred else mesh.made_from_ours(seat)
    if same or not mesh.out_of_reach(seat):
        return found  # (now holding all its heads stated: compared, what it said reached us)
    if same is False:  # it says so itself: made after another copy of someone's message
        return TableStopped(None, f"{found.reason}; {mesh.name_of(seat)} is not named: their "
                            "message states it was made after other messages than this program "
                            "holds (another copy of someone's message: a player who sent two "
                            "players different messages), and their program and this one do not "
                            "reach each other directly to compare them")
    return TableStopped(None, f"{found.reason}; {mesh.name_of(seat)} is not named: their program "
                        "and this one do not reach each other directly, so this program cannot "
                        "compare with theirs whether an earlier message reached them in another "
                        "copy (a player who sent two players different messages)")
