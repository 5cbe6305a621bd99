"""The audit (online and offline from a saved record) and crash recovery by replay."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest

from protocol import group as g
from protocol.audit import RevealedSecrets, audit, secrets_from_messages
from protocol.deck import DeckPeer

from .deck_helpers import make_table, ok, seed
from .replay_channel import ReplayChannel, ReplayDiverged

N = 30


async def honest_game(peers: list[DeckPeer]) -> dict[str, Any]:
    """Every kind of operation; returns what the seats saw."""
    n = len(peers)
    seen: dict[str, Any] = {}
    await ok(peers, lambda p: p.shuffle(list(range(20))))  # partial, plain: blind step
    seen["hand"] = await ok(peers, lambda p: p.open([0, 1, 2], [1]))
    seen["peek"] = await ok(peers, lambda p: p.open([17, 18, 19], [0]))
    seen["arranged"] = await ok(peers, lambda p: p.reorder([17, 18, 19], 0, [19, 17, 18]
                                                            if p.seat == 0 else None))
    seen["face_up"] = await ok(peers, lambda p: p.open_all([5, 17]))
    seen["random"] = await ok(peers, lambda p: p.random(n))
    await ok(peers, lambda p: p.shuffle([0, 1, 2, 5, 20, 21, 22]))  # known + public + plain
    seen["last"] = await ok(peers, lambda p: p.open_all([0, 1, 2, 5, 20, 21, 22]))
    return seen


def test_an_honest_game_audits_clean_online_and_offline() -> None:
    async def main() -> tuple[list[DeckPeer], dict[str, Any], list[Any]]:
        _, peers = make_table(4, N, tag="honest")
        seen = await honest_game(peers)
        return peers, seen, await ok(peers, lambda p: p.audit())

    peers, seen, reports = asyncio.run(main())
    for r in reports:
        assert r.clean and r.deviations == [] and str(r.verdict) == "clean"
        assert r.outcomes == reports[0].outcomes
    out = reports[0].outcomes
    assert [o["kind"] for o in out] == ["shuffle", "open", "open", "shuffle", "open", "random",
                                        "shuffle", "open"]
    # the full-information outcomes agree with what the seats were shown
    assert out[1]["values"] == seen["hand"][1]
    assert out[2]["values"] == seen["peek"][0]
    assert out[3]["values"] == seen["arranged"][0] == [seen["peek"][0][i] for i in (2, 0, 1)]
    assert out[4]["values"] == seen["face_up"][0]
    assert out[5]["value"] == seen["random"][0]
    assert out[7]["values"] == seen["last"][0]
    assert sorted(out[6]["values"]) == sorted(seen["hand"][1] + [seen["face_up"][0][0]]
                                              + [20, 21, 22])
    # offline: the record alone, through JSON, gives the same report
    rec = json.loads(json.dumps(peers[2].record()))
    offline = audit(rec["params"], rec["messages"])
    assert offline.verdict == reports[2].verdict and offline.outcomes == out
    assert offline.values == reports[2].values
    # the record holds no private message: the keys sent to one seat only are not in it
    assert all(not (b["step"] == "keys" and len(b["to"]) < 4) for _, b in rec["messages"])


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        _, peers = make_table(3, N, tag="offline")
        await honest_game(peers)
        await ok(peers, lambda p: p.audit())
        return json.loads(json.dumps(peers[0].record()))

    return asyncio.run(main())


def _find(rec: dict[str, Any], op: int, step: str, seat: int) -> dict[str, Any]:
    return next(b for s, b in rec["messages"] if (b["op"], b["step"], s) == (op, step, seat))


def test_a_tampered_record_blames_the_author_of_the_changed_message(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    body = _find(rec, 6, "lock", 1)
    pt = bytes.fromhex(body["points"][3])
    body["points"][3] = g.mul(g.random_scalar(), pt).hex()
    v = audit(rec["params"], rec["messages"]).verdict
    assert (v.clean, v.culprit, v.op, v.step) == (False, 1, 6, "lock")
    assert "points" in v.reason


def test_a_wrong_revealed_seed_blames_its_seat(finished: dict[str, Any]) -> None:
    secrets = secrets_from_messages(finished["messages"])
    secrets[2] = RevealedSecrets(seed(2, "not-the-one"), secrets[2].orders)
    v = audit(finished["params"], finished["messages"], secrets).verdict
    assert (v.culprit, v.op) == (2, 0)


def test_missing_secrets_and_withheld_messages(finished: dict[str, Any]) -> None:
    msgs = [m for m in finished["messages"] if not (m[1]["step"] == "secrets" and m[0] == 1)]
    v = audit(finished["params"], msgs).verdict
    assert (v.culprit, v.op) == (1, 0) and "secrets" in v.reason
    msgs = [m for m in finished["messages"] if (m[1]["op"], m[1]["step"], m[0]) != (3, "lock", 2)]
    v = audit(finished["params"], msgs).verdict
    assert (v.culprit, v.op, v.step) == (2, 3, "lock") and "withheld" in v.reason


def test_a_forged_sender_in_the_record(finished: dict[str, Any]) -> None:
    msgs = copy.deepcopy(finished["messages"])
    msgs.append([0, dict(_find(finished, 5, "commit", 1))])  # seat 0 relays seat 1's message
    v = audit(finished["params"], msgs).verdict
    assert (v.culprit, v.op) == (0, 5) and "claims to come from seat 1" in v.reason


def test_audit_is_a_pure_function(finished: dict[str, Any]) -> None:
    a = audit(finished["params"], finished["messages"])
    b = audit(finished["params"], list(reversed(finished["messages"])))  # order does not matter
    assert a.clean and a.verdict == b.verdict and a.outcomes == b.outcomes


def test_a_restarted_peer_replays_its_transcript_and_carries_on() -> None:
    """Seat 1 crashes after five operations; a new DeckPeer with the same seed, fed the messages
    seat 1 had received, re-derives every secret, re-sends byte for byte what it had sent (checked
    and dropped), and then plays on with the others. The game audits clean."""

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

        wrong = DeckPeer(ReplayChannel(hub.channel(1), received, sent), b"test-table",
                         "test-deck/v1", N, seed(1, "another"), timeout=1)
        with pytest.raises(ReplayDiverged):  # another seed cannot replay this transcript
            await wrong.shuffle(list(range(N)))

        chan = ReplayChannel(hub.channel(1), received, sent)
        back = DeckPeer(chan, b"test-table", "test-deck/v1", N, seed(1, "restart"), timeout=1)
        await five_ops([back])  # alone: everything comes from the transcript
        assert not chan.replaying
        assert back.ct == crashed.ct and back.plain == crashed.plain
        assert back.results == crashed.results and back.record() == crashed.record()

        peers[1] = back
        await ok(peers, lambda p: p.shuffle([3, 4, 9, 10]))
        final = await ok(peers, lambda p: p.open_all(list(range(N))))
        assert sorted(final[1]) == list(range(N))
        for r in await ok(peers, lambda p: p.audit()):
            assert r.clean, r.verdict

    asyncio.run(main())
