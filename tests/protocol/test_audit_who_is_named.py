"""Red team 6a's deck-record attacks on the offline audit, in process (``DeckPeer``s over the
tests' mesh-like hub, then ``protocol.audit.audit`` on each honest seat's ``record()``). Each
made the audit of an honest record name an honest seat, or miss the seat every live honest seat
named; no honest seat may be named.

- #2: one deck message sent twice. Live every seat names the sender (a replay); the audit
  dropped the second copy as "two records merged" and then named nobody, or (in a transcript)
  the honest seat whose abort came first.
- #3: a message for a later operation with another descriptor. The audit took the descriptor by
  vote (bob's, the only message there) and named the honest seat whose message was missing.
- #4: an abort whose claim is a timeout, or that came before the message its sender waited
  for, was read as a false accusation.
- #7: an echo that misstates a third seat's commitment named the echoer (the audit ran the check
  as nobody); live, the deck names nobody for it (SPEC 5.5)."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from protocol.audit import audit
from protocol.deck import DeckPeer
from tests.protocol.deck_helpers import adversary, make_table, together

N = 6
ALL = list(range(N))


def run(peers: list[DeckPeer], ops: list[Any]) -> list[BaseException | None]:
    async def main() -> list[BaseException | None]:
        errors: list[BaseException | None] = [None] * len(peers)
        for fn in ops:
            for i, r in enumerate(await together(peers, fn)):
                if isinstance(r, BaseException) and errors[i] is None:
                    errors[i] = r
        return errors
    return asyncio.run(main())


def test_a_deck_message_sent_twice_names_its_sender_in_every_honest_audit() -> None:
    """Seat 0 sends its shuffle twice, byte for byte (two envelopes). The old audit skipped the
    copy and called both honest records clean ("no seat deviated")."""
    def twice(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["op"] == 1 and body["step"] == "shuffle":
            return [(None, body), (None, body)]
        return [(None, body)]

    _, peers = make_table(3, N, tag="twice", classes={0: adversary(twice)}, timeout=5.0)
    errors = run(peers, [lambda p: p.shuffle(ALL)])
    for seat in (1, 2):
        assert errors[seat] is not None and errors[seat].peer == 0, errors[seat]  # type: ignore[union-attr]
        rec = peers[seat].record()
        v = audit(rec["params"], rec["messages"]).verdict
        assert v.culprit == 0 and not v.clean and "replayed message" in v.reason, v


def test_the_same_envelope_seen_twice_is_two_records_merged() -> None:
    """Only the very same envelope (sender, seq, hash) may be skipped; another envelope with the
    same body is a replay."""
    _, peers = make_table(2, N, tag="merged")
    run(peers, [lambda p: p.shuffle(ALL), lambda p: p.finish()])
    rec = peers[0].record()
    trip = [(s, b, [i, f"h{i}"]) for i, (s, b) in enumerate(rec["messages"])]
    assert audit(rec["params"], trip).clean
    assert audit(rec["params"], trip + [trip[3]]).verdict.clean
    s, b, _ = trip[3]
    v = audit(rec["params"], trip + [(s, copy.deepcopy(b), [99, "another"])]).verdict
    assert v.culprit == s and "replayed message" in v.reason, v


EARLY_OPS = [{"kind": "key"}, {"kind": "shuffle", "slots": ALL, "by": None},
             {"kind": "open", "slots": [0, 1], "to": [0]},
             {"kind": "open", "slots": [2, 3], "to": [2]}]


def early_descriptor_table() -> list[DeckPeer]:
    """Seat 1 also sends, with its shuffle, a well-formed random commit for op 3 (really an
    opening), then withholds from op 3 on (red team 6a, a2_early_desc.py)."""
    sent = {"done": False}

    def early(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["op"] == 1 and body["step"] == "shuffle" and not sent["done"]:
            sent["done"] = True
            bogus = {"v": 3, "op": 3, "kind": "random", "n": 7, "step": "commit",
                     "seat": peer.seat, "commit": "cd" * 32}
            return [(None, body), (None, bogus)]
        return [] if body["op"] >= 3 else [(None, body)]

    _, peers = make_table(3, N, tag="early", classes={1: adversary(early)}, timeout=5.0)
    errors = run(peers, [lambda p: p.shuffle(ALL), lambda p: p.open([0, 1], [0]),
                         lambda p: p.open([2, 3], [2])])
    for seat in (0, 2):
        assert errors[seat] is not None and errors[seat].peer == 1, errors[seat]  # type: ignore[union-attr]
    return peers


def test_an_early_message_with_another_descriptor_never_names_an_honest_seat() -> None:
    """With the engine's requests (``ops``) every honest audit names seat 1, as every live seat
    did; without them the descriptor is not taken by vote to name anyone. The old audit adopted
    seat 1's fake descriptor and named seat 0 in seat 0's own record."""
    peers = early_descriptor_table()
    for seat in (0, 2):
        rec = peers[seat].record()
        v = audit(rec["params"], rec["messages"], ops=EARLY_OPS).verdict
        assert v.culprit == 1 and v.op == 3 and "another operation" in v.reason, v
        v = audit(rec["params"], rec["messages"]).verdict
        assert v.culprit is None, v


def test_ops_as_a_function_of_the_outcomes() -> None:
    """``ops`` may be derived as the game goes (``p2pcards audit`` replays the moves): called
    with the outcomes so far; ``None`` where it cannot be derived names nobody."""
    peers = early_descriptor_table()
    rec = peers[0].record()
    seen: list[int] = []

    def oracle(outcomes: list[dict[str, Any]]) -> dict[str, Any] | None:
        seen.append(len(outcomes))
        return EARLY_OPS[len(outcomes)]
    v = audit(rec["params"], rec["messages"], ops=oracle).verdict
    assert v.culprit == 1 and v.op == 3, v
    assert seen == [1, 2, 3]
    v = audit(rec["params"], rec["messages"],
              ops=lambda o: EARLY_OPS[len(o)] if len(o) < 3 else None).verdict
    assert v.culprit is None and v.clean and not v.complete and "cannot be derived" in v.reason, v


def _honest_random(n: int = 3) -> tuple[dict[str, Any], list[Any]]:
    _, peers = make_table(n, N, tag="rnd")
    run(peers, [lambda p: p.random(7)])
    rec = peers[0].record()
    return rec["params"], rec["messages"]


def _abort(seat: int, op: int, about: str, culprit: int, reason: str) -> list[Any]:
    return [seat, {"v": 3, "op": op, "kind": "random", "n": 7, "step": "abort", "seat": seat,
                   "culprit": culprit, "about": about, "reason": reason}]


def _cut(msgs: list[Any], drop: set[tuple[int, str]]) -> list[Any]:
    return [m for m in msgs if (m[0], m[1]["step"]) not in drop]


def test_a_timeout_abort_never_names_its_sender() -> None:
    """#4, stall then send: seat 2 waited for seat 1's commit, timed out and stopped naming
    seat 1; seat 1's commit (valid) came afterwards. Seat 2's reveal is missing; the old audit
    named seat 2 "although every message before was sound"."""
    params, msgs = _honest_random()
    base = _cut(msgs, {(2, "reveal"), (1, "commit"), (1, "reveal")})
    late = [m for m in msgs if (m[0], m[1]["step"]) == (1, "commit")]
    rec = base + [_abort(2, 1, "commit", 1, "no commit message within 10 s")] + late
    v = audit(params, rec).verdict
    assert v.culprit is None and "no commit message within 10 s" in v.reason, v
    # the same abort arriving after seat 1's commit: still a timeout, still nobody named
    v = audit(params, base + late + [_abort(2, 1, "commit", 1, "no commit message within 10 s")]
              ).verdict
    assert v.culprit is None, v


def test_an_abort_before_the_message_it_waited_for_names_nobody() -> None:
    """A claim (not a timeout) that came before the message its sender waited for is not shown
    false by the record: that message may not have been what reached it."""
    params, msgs = _honest_random()
    base = _cut(msgs, {(2, "reveal"), (1, "commit"), (1, "reveal")})
    late = [m for m in msgs if m[0] == 1 and m[1]["step"] in ("commit", "reveal")]
    v = audit(params, base + [_abort(2, 1, "reveal", 1, "bad commit")] + late).verdict
    assert v.culprit is None, v
    # after it, a false claim about this very step is the accuser's (the v1 framing attack)
    v = audit(params, base + late + [_abort(2, 1, "reveal", 0, "seat 0 cheated")]).verdict
    assert v.culprit == 2 and "stopped the table" in v.reason, v
    # ... but one about another step than the missing message's names nobody
    v = audit(params, base + late + [_abort(2, 1, "commit", 0, "seat 0 cheated")]).verdict
    assert v.culprit is None, v


def test_an_echo_misstating_another_seats_commitment_names_the_echoer_only_without_an_owner() -> None:
    """Seat 2's echo of seat 1's commitment differs from the record's (seat 1 sent different
    commitments to different seats, or the echo lies). Live, seat 0 gives the mesh its grace to
    prove an equivocation and then names the echoer (red team 13, M2: it named nobody, so only
    seat 1 named a seat lying about seat 1's commitment). Seat 1's own record names nobody (red
    team 13, H1: the record's owner can rewrite its own commitment in its file, re-signing its
    own chain, and every other seat's authentic echo then "misstates" it; live, seat 1 knows
    what it sent). Seat 0's record names nobody either (red team 17: seat 0 and seat 1
    colluding can make that file, seat 1 signing another commitment and reveal for it, and seat
    0 echoing them; the audit of seat 0's record named the honest seat 2). For seat 2's own
    commitment, the echoer is named."""
    params, msgs = _honest_random()
    msgs = copy.deepcopy(msgs)
    (reveal,) = [b for s, b in msgs if s == 2 and b["step"] == "reveal"]
    reveal["echo"][1] = "ab" * 32
    v = audit(params, msgs, seat=0).verdict
    assert v.culprit is None and not v.clean and "echo misstates seat 2" in v.reason, v
    assert "with any seat colluding with it" in v.reason and "nobody is named" in v.reason, v
    v = audit(params, msgs, seat=1).verdict
    assert v.culprit is None and not v.clean and "echo misstates seat 2" in v.reason, v
    assert "the owner could have rewritten them in its file, so nobody is named" in v.reason, v
    v = audit(params, msgs).verdict  # no owner (an auditor's record of its own): the echoer
    assert v.culprit == 2 and "echo misstates seat 2" in v.reason, v  # seat index 1, counted from 1
    reveal["echo"][1] = [b for s, b in msgs if s == 1 and b["step"] == "commit"][0]["commit"]
    reveal["echo"][2] = "ab" * 32
    v = audit(params, msgs, seat=0).verdict
    assert v.culprit == 2 and "echo misstates seat 3" in v.reason, v  # its own (index 2)
