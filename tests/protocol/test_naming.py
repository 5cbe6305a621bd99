"""Who gets named: red team 6a's attacks on the deck's verdicts (/work/tmp/redteam6a/REPORT.md),
each played by one cheating seat over the in-process mesh-like hub. No honest seat is ever named,
live or by the audit of an honest seat's record; every honest seat names the same seat."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import CheatDetected, DeckError, Equivocation

from .deck_helpers import adversary, make_table, together

N, M = 3, 6
ALL = list(range(M))


def run_ops(peers: Sequence[DeckPeer], ops: Sequence[Callable[[DeckPeer], Awaitable[Any]]]
            ) -> list[DeckError | None]:
    """Every op at every seat in turn; each seat's first error."""
    async def main() -> list[DeckError | None]:
        errors: list[DeckError | None] = [None] * len(peers)
        for fn in ops:
            for i, r in enumerate(await together(peers, fn)):
                if isinstance(r, BaseException) and errors[i] is None:
                    assert isinstance(r, DeckError), repr(r)
                    errors[i] = r
        return errors
    return asyncio.run(main())


def audits(peers: Sequence[DeckPeer], honest: Sequence[int]) -> list[Any]:
    out = []
    for s in honest:
        rec = peers[s].record()
        out.append(audit(rec["params"], rec["messages"]).verdict)
    return out


# ---- #1: a joiner's key share with another description ----------------------------------------
def test_a_joiner_claiming_another_game_does_not_get_the_honest_host_named() -> None:
    """Red team 6a #1: bob (seat index 1) zeroes the ``desc`` of his key share -- a bare claim
    that the host told him another game. Before, every honest seat and the audit of every honest
    record named the host alice (seat index 0). Now nobody names alice: in a deck without the
    host's signed games (no ``seating``, as here) the live seats and the audits name nobody;
    with them bob is named (tests/protocol/test_seating.py, tests/table/test_seated_game.py)."""
    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["step"] == "key":
            body["desc"] = "00" * 32
        return [(None, body)]

    _, peers = make_table(N, M, classes={1: adversary(tamper)}, timeout=5.0)
    errors = run_ops(peers, [lambda p: p.shuffle(ALL)])
    for s in (0, 2):
        e = errors[s]
        assert isinstance(e, Equivocation) and e.op == 0 and e.step == "key", repr(e)
        assert e.peer is None, f"seat {s} names seat {e.peer}"
        assert "seat 2 plays another game description" in e.reason  # bob, counted from 1
    for v in audits(peers, (0, 2)):
        assert not v.clean and v.culprit is None and v.op == 0, v


# ---- #5: a wrong prev ---------------------------------------------------------------------------
def _wrong_prev(step: str, target: int = 2) -> Callable[..., list[tuple[int | None, dict[str, Any]]]]:
    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["op"] == target and body["step"] == step:
            body["prev"] = "ab" * 32  # the digest of nothing: no seat sent such an input
        return [(None, body)]
    return tamper


def test_a_wrong_prev_in_shares_names_its_sender_everywhere() -> None:
    """Red team 6a #5 (``a1_wrong_prev.py 1 shares``): bob's shares at op 2 carry a wrong
    ``prev``, one signed message to all. Before, both honest seats stopped with
    ``Equivocation(None)`` "(the mesh names it)", which never happened, while the audit named bob.
    Now both name bob (with ``confirm``: the mesh's grace comes first), as the audit does."""
    _, peers = make_table(N, M, classes={1: adversary(_wrong_prev("shares"))}, timeout=5.0)
    errors = run_ops(peers, [lambda p: p.shuffle(ALL), lambda p: p.open([0, 1], [2])])
    for s in (0, 2):
        e = errors[s]
        assert isinstance(e, CheatDetected), repr(e)
        assert (e.peer, e.op, e.step) == (1, 2, "shares"), repr(e)
        assert e.confirm  # this seat did not publish the opened deck alone
        assert "mesh names it" not in e.reason
    for v in audits(peers, (0, 2)):
        assert (v.culprit, v.op, v.step) == (1, 2, "shares"), v


def test_a_wrong_prev_in_a_shuffle_names_its_sender_at_every_honest_seat() -> None:
    """Red team 6a #5 (``a1_wrong_prev.py 1 shuffle``): bob's shuffle step at op 2 carries a
    wrong ``prev``. Before, alice (who published bob's input) named bob and carol named nobody
    "(the mesh names it)". Now both name bob: alice at once, carol once the mesh had its grace."""
    _, peers = make_table(N, M, classes={1: adversary(_wrong_prev("shuffle"))}, timeout=5.0)
    errors = run_ops(peers, [lambda p: p.shuffle(ALL), lambda p: p.shuffle(ALL)])
    for s, confirm in ((0, False), (2, True)):
        e = errors[s]
        assert isinstance(e, CheatDetected), repr(e)
        assert (e.peer, e.op, e.step) == (1, 2, "shuffle"), repr(e)
        assert e.confirm is confirm, repr(e)
    for v in audits(peers, (0, 2)):
        assert (v.culprit, v.op, v.step) == (1, 2, "shuffle"), v


# ---- #7: the seat a reason names counts from 1, as every other line does ------------------------
def test_a_reason_names_seats_counting_from_1_as_the_screen_does() -> None:
    """Red team 6a #7: deck reasons counted seats from 0 ("echo misstates seat 0's commitment"
    for alice, whom every other line calls "alice (seat 1)"), so a player reading the screen
    picked the wrong person. bob (index 1) echoes a wrong commitment for alice (index 0): alice's
    reason now says seat 1 -- alice herself -- and carol's names bob as seat 2 and alice as seat 1;
    the line the table shows puts the culprit's name in front."""
    from p2pcards.table import TableStopped

    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["step"] == "reveal":
            body["echo"][0] = "cd" * 32
        return [(None, body)]

    _, peers = make_table(N, M, classes={1: adversary(tamper)}, timeout=5.0)
    errors = run_ops(peers, [lambda p: p.random(6)])
    alice, carol = errors[0], errors[2]
    assert isinstance(alice, CheatDetected) and alice.peer == 1, repr(alice)
    assert alice.reason == "echo misstates seat 1's commitment", alice.reason
    assert str(alice).startswith("seat 2 at op 1 reveal:"), str(alice)
    # carol names bob too, after the mesh's grace (``confirm``; red team 13, M2)
    assert isinstance(carol, CheatDetected) and carol.peer == 1 and carol.confirm, repr(carol)
    assert carol.reason == "echo misstates seat 1's commitment", carol.reason
    names = ["alice", "bob", "carol"]
    shown = TableStopped(alice.peer, f"{names[alice.peer]}: {alice.reason}")
    assert str(shown) == "bob: echo misstates seat 1's commitment"  # alice is seat 1 on screen
