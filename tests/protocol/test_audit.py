"""The offline audit of protocol v2: a pure function over one peer's public record, no secret
needed. It re-runs every receiver check; it names the author of a changed message; on a record
that stops early it says whether any seat deviated; it decodes only the cards opened to everyone,
plus the owner's own when given the owner's seed. And a restarted peer replays its messages."""

from __future__ import annotations

import asyncio
import copy
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import PeerAborted

from .deck_helpers import (
    HOSTILE,
    SPEC,
    TABLE,
    adversary,
    at,
    make_table,
    ok,
    places,
    seed,
    together,
)
from .replay_channel import ReplayChannel, ReplayDiverged

N = 10
# The fuzz of any value at any place: a quick default in the suite (each example is a whole audit;
# the examples differ from run to run), five times as many with P2PCARDS_LONG=1.
EXAMPLES = 300 if os.environ.get("P2PCARDS_LONG") == "1" else 60


async def a_game(peers: list[DeckPeer]) -> dict[str, Any]:
    await ok(peers, lambda p: p.shuffle(list(range(N))))
    dealt = await ok(peers, lambda p: p.open([0, 1], [1]))
    both = await ok(peers, lambda p: p.open([2], [0, 2]))
    await ok(peers, lambda p: p.reorder([0, 1], 1, [1, 0] if p.seat == 1 else None))
    r = await ok(peers, lambda p: p.random(7))
    face = await ok(peers, lambda p: p.open_all([5, 6]))
    await ok(peers, lambda p: p.shuffle([3, 4, 5]))
    await ok(peers, lambda p: p.finish())
    return {"dealt": dealt[1], "both": both[0], "random": r[0], "face": face[0]}


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    _, peers = make_table(3, N, tag="audit")
    facts = asyncio.run(a_game(peers))
    return {"peers": peers, "facts": facts, "record": peers[0].record()}


def test_an_honest_game_audits_clean_from_every_seats_record(finished: dict[str, Any]) -> None:
    facts = finished["facts"]
    for p in finished["peers"]:
        rec = p.record()
        rep = audit(rec["params"], rec["messages"])
        assert rep.clean and rep.verdict.complete, rep.verdict
        opens = [o for o in rep.outcomes if o["kind"] == "open"]
        assert [o["values"] for o in opens] == [None, None, facts["face"]]  # only the public
        assert [o["value"] for o in rep.outcomes if o["kind"] == "random"] == [facts["random"]]


def test_the_owner_seed_decodes_exactly_the_owners_cards(finished: dict[str, Any]) -> None:
    rec = finished["record"]
    facts = finished["facts"]
    for seat, want in ((1, [facts["dealt"], None]), (0, [None, facts["both"]]),
                       (2, [None, facts["both"]])):
        rep = audit(rec["params"], rec["messages"], owner=(seat, seed(seat, "audit")))
        opens = [o["values"] for o in rep.outcomes if o["kind"] == "open"]
        assert opens[:2] == want, seat


def test_a_tampered_record_blames_the_author_of_the_changed_message(finished: dict[str, Any]
                                                                     ) -> None:
    msgs = finished["record"]["messages"]
    params = finished["record"]["params"]
    for step, field in (("shuffle", "cts"), ("shares", "shares"), ("key", "y")):
        i = next(k for k, (s, b) in enumerate(msgs) if b["step"] == step and b.get(field))
        bad = copy.deepcopy(msgs)
        sender, body = bad[i]
        other = next(b for s, b in msgs if b["step"] == step and b.get(field) and b is not body
                     and b[field] != body[field])
        body[field] = copy.deepcopy(other[field])
        rep = audit(params, bad)
        assert (rep.verdict.culprit, rep.verdict.op, rep.verdict.step) == \
            (sender, body["op"], step), rep.verdict


def test_a_record_that_stops_early_blames_nobody_and_says_where(finished: dict[str, Any]) -> None:
    msgs = finished["record"]["messages"]
    params = finished["record"]["params"]
    for cut in (3, len(msgs) // 2, len(msgs) - 1):
        rep = audit(params, msgs[:cut])
        assert rep.verdict.clean and not rep.verdict.complete, rep.verdict
        assert rep.verdict.culprit is None and "stops" in rep.verdict.reason


def test_a_forged_sender_in_the_record(finished: dict[str, Any]) -> None:
    msgs = copy.deepcopy(finished["record"]["messages"])
    msgs[5][0] = (msgs[5][0] + 1) % 3  # the envelope says another seat signed it
    rep = audit(finished["record"]["params"], msgs)
    assert rep.verdict.culprit == msgs[5][0] and "claims to come from" in rep.verdict.reason


def test_a_record_of_an_older_deck_version_is_named_as_such_and_blames_nobody(
        finished: dict[str, Any]) -> None:
    """Records saved before ristretto255 (deck version 2) cannot be checked: the audit says so in
    one line, names no seat and raises nothing."""
    old = copy.deepcopy(finished["record"]["messages"])
    for _, body in old:
        body["v"] = 2
    rep = audit(finished["record"]["params"], old)
    v = rep.verdict
    assert v.older and not v.clean and v.culprit is None
    assert str(v).startswith("made by an older deck version (2)") and "\n" not in str(v)


def test_one_old_version_message_in_a_current_record_names_its_sender(
        finished: dict[str, Any]) -> None:
    msgs = copy.deepcopy(finished["record"]["messages"])
    sender, body = msgs[4]
    body["v"] = 2
    v = audit(finished["record"]["params"], msgs).verdict
    assert not v.older and v.culprit == sender and "protocol version 2" in v.reason


@pytest.mark.parametrize("v", [{"a": 1}, [3], None, "3", 3.0])
def test_a_message_whose_version_is_not_a_number_names_its_sender(
        finished: dict[str, Any], v: Any) -> None:
    """Found by the transcript fuzzer: a re-signed message whose ``v`` was a dict made the version
    check raise ``unhashable type``. Any non-integer version is that sender's deviation."""
    msgs = copy.deepcopy(finished["record"]["messages"])
    sender, body = msgs[4]
    body["v"] = v
    verdict = audit(finished["record"]["params"], msgs).verdict
    assert not verdict.older and not verdict.clean and verdict.culprit == sender


def test_a_slot_written_as_true_or_1_0_is_not_that_slot(finished: dict[str, Any]) -> None:
    """Found by the hostile-values property test: Python's ``1 == True == 1.0`` let a message
    whose descriptor said ``"slots": [true, 2]`` pass for ``[1, 2]``, live and in the audit.
    JSON says they differ (SPEC.md "Envelope": the descriptor equals the seat's own as a JSON
    value); the audit names the sender, whichever message it is."""
    tried = 0
    for i, (sender, body) in enumerate(finished["record"]["messages"]):
        ones = [k for k, x in enumerate(body.get("slots") or []) if x == 1]
        for swap in (True, 1.0):
            if not ones:
                continue
            msgs = copy.deepcopy(finished["record"]["messages"])
            msgs[i][1]["slots"][ones[0]] = swap
            verdict = audit(finished["record"]["params"], msgs).verdict
            assert verdict.culprit == sender and not verdict.clean, (i, swap, verdict)
            tried += 1
    assert tried >= 4


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), value=HOSTILE)
def test_any_place_in_any_message_set_to_any_json_value_gets_a_verdict(
        finished: dict[str, Any], data: st.DataObject, value: Any) -> None:
    """The audit reads a record it cannot trust: whatever JSON value replaces whatever field (or
    list entry, or proof part) of whatever message, it answers with a verdict, never an exception,
    and a changed message is never passed as a clean, complete record: its sender is named, or
    (when the change makes it another operation's message) the record is said to stop there."""
    msgs = copy.deepcopy(finished["record"]["messages"])
    i = data.draw(st.integers(0, len(msgs) - 1), label="message")
    body = msgs[i][1]
    path = data.draw(st.sampled_from(places(body)), label="path")
    old = at(body, path)
    at(body, path[:-1])[path[-1]] = value
    verdict = audit(finished["record"]["params"], msgs).verdict
    assert isinstance(str(verdict), str)
    if value != old or type(value) is not type(old):
        assert not (verdict.clean and verdict.complete), (i, path, value)


def test_audit_is_a_pure_function(finished: dict[str, Any]) -> None:
    rec = finished["record"]
    a, b = audit(rec["params"], rec["messages"]), audit(rec["params"], list(reversed(rec["messages"])))
    assert a.clean and a.verdict == b.verdict and a.outcomes == b.outcomes


def test_framing_seat_0_with_a_false_abort_blames_the_accuser() -> None:
    """v1's framing attack, tried on v2: seat 2 stops the table blaming seat 0 in the middle of a
    shuffle. Nobody blames seat 0: the seats still waiting for seat 2 name seat 2, and the audit
    of any record finds seat 0's messages sound and names seat 2 for stopping the table."""

    def frame(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["step"] == "shuffle" and body["op"] == 1:
            lie = {**{k: body[k] for k in ("v", "op", "kind", "slots", "by", "seat")},
                   "step": "abort", "culprit": 0, "about": "shuffle", "reason": "seat 0 cheated"}
            return [(None, lie)]
        return [(None, body)]

    _, peers = make_table(3, N, tag="frame", classes={2: adversary(frame)})
    errs = asyncio.run(together(peers, lambda p: p.shuffle(list(range(N)))))
    for seat in (0, 1):
        assert isinstance(errs[seat], PeerAborted) and errs[seat].peer == 2, errs[seat]
        assert errs[seat].claimed == 0
        rec = peers[seat].record()
        v = audit(rec["params"], rec["messages"]).verdict
        assert v.culprit == 2 and not v.clean, v


def test_a_restarted_peer_replays_its_transcript_and_carries_on() -> None:
    """Seat 1 crashes after five operations; a new DeckPeer with the same seed, fed the messages
    seat 1 had received, re-derives every secret, re-sends byte for byte what it had sent (checked
    and dropped), and then plays on with the others."""

    async def five_ops(peers: list[DeckPeer]) -> None:
        await ok(peers, lambda p: p.shuffle(list(range(N))))
        await ok(peers, lambda p: p.open([3, 4], [1]))
        await ok(peers, lambda p: p.reorder([3, 4], 1, [4, 3] if p.seat == 1 else None))
        await ok(peers, lambda p: p.random(7))
        await ok(peers, lambda p: p.open_all([9]))

    async def main() -> None:
        hub, peers = make_table(3, N, tag="restart")
        await five_ops(peers)
        crashed = peers[1]
        inbox = hub._inboxes[1]["deck"]  # the transcript persisted what was delivered
        while not inbox.empty():
            inbox.get_nowait()
        received = [(s, t, b) for s, to, t, b in hub.log if to == 1]
        sent = [(to, t, b) for s, to, t, b in hub.log if s == 1]

        wrong = DeckPeer(ReplayChannel(hub.channel(1), received, sent), TABLE, SPEC, N,
                         seed(1, "another"), timeout=1)
        with pytest.raises(ReplayDiverged):  # another seed cannot replay this transcript
            await wrong.shuffle(list(range(N)))

        chan = ReplayChannel(hub.channel(1), received, sent)
        back = DeckPeer(chan, TABLE, SPEC, N, seed(1, "restart"), timeout=1)
        await five_ops([back])  # alone: everything comes from the transcript
        assert not chan.replaying
        assert back.pub.cts == crashed.pub.cts and back.plain == crashed.plain
        assert back.results == crashed.results and back.record() == crashed.record()

        peers[1] = back
        await ok(peers, lambda p: p.shuffle([3, 4, 9, 8]))
        final = await ok(peers, lambda p: p.open_all(list(range(N))))
        assert sorted(final[1]) == list(range(N))
        assert len(set(await ok(peers, lambda p: p.finish()))) == 1

    asyncio.run(main())
