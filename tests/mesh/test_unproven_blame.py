"""Red team, blame: a seated peer's modified client tries to get an honest player blamed."""

from __future__ import annotations

import asyncio
import json

import pytest

from p2pcards.audit import audit_transcript
from p2pcards.bots.registry import make_bot
from p2pcards.lobby import play_seat
from p2pcards.table import TableStopped
from protocol.channel import TableStop

from .helpers import NAMES, close_all, make_table, run_async, short_claim_window, until

pytestmark = pytest.mark.network


def assert_playing_on_with_nobody_named(meshes) -> None:
    for m in meshes:
        assert m.stopped is None and not [e for e in m.events if e.kind == "fault"]


def recorded_stops(mesh) -> list[dict]:
    with open(mesh.transcript_path, encoding="utf-8") as f:
        return [r for r in map(json.loads, f) if r.get("type") == "stop"]


@run_async(timeout=60)
async def test_an_unproven_stop_naming_an_honest_seat_blames_nobody_anywhere(tmp_path,
                                                                             monkeypatch):
    """Bob's client stops the table saying alice played out of turn, with no proof. Alice's
    program used to record itself as the culprit on bob's word, and carol (who cannot check the
    claim) recorded alice as the culprit on it. Now neither does: both show and record it as
    bob's claim, and forward it to a peer that missed it as bob's claim, never their own."""
    # another's unproven claim stops a program once the claim's window (3 s) has passed with
    # nothing of its own found; what is checked here is what is shown and recorded after it
    short_claim_window(monkeypatch)
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        for s in (0, 2):
            bob._send_ctl(s, "stop", {"culprit": 0, "reason": "alice played out of turn",
                                      "proof": []})
        with pytest.raises(TableStop) as info:
            await host.channel.recv("game", 10)
        assert info.value.culprit is None and info.value.by == 1
        assert info.value.reason.startswith("bob stopped the table, naming this seat (alice): ")
        assert info.value.reason.endswith("(bob's claim: this program has not found it itself, "
                                          "so it names nobody)")
        with pytest.raises(TableStop) as info:
            await carol.channel.recv("game", 10)
        assert info.value.culprit is None and info.value.by == 1 and info.value.claimed == 0
        assert info.value.reason.startswith("bob stopped the table, naming alice (seat 1, ")
        for m in (host, carol):
            assert m._stop_payload["culprit"] is None
            assert "bob stopped the table" in m._stop_payload["reason"]
            assert not [e for e in m.events if e.kind == "stop" and e.seat is not None]
            (rec,) = recorded_stops(m)
            assert rec["culprit"] is None and rec["by"] == 1
    finally:
        await close_all(meshes)


def stop_falsely(table, accused: int):
    """``table``'s (modified) client: the first time it waits for another seat's move, it stops
    the table naming ``accused``, who did nothing wrong."""
    real = table._their_decision

    async def their_decision(player):
        table.channel._mesh.stop(accused, "alice played out of turn")
        return await real(player)

    table._their_decision = their_decision


@run_async(timeout=120)
async def test_a_false_stop_in_a_real_match_blames_nobody_on_screen_in_record_or_audit(
        tmp_path, monkeypatch):
    """The same through the real stack (mesh, deck, engines, the lobby's screen lines and the
    audit): bob's client stops a Go Out Girl match at his first wait, naming alice. Alice and
    carol each end with no culprit; what their screens say and what ``p2pcards audit`` says of
    their transcripts agree: bob's unproven claim, nobody recorded as culprit."""
    from tests.table.test_table_rules import table_of

    short_claim_window(monkeypatch)  # (each waits out the claim's window: nothing comes in it)

    meshes = await table_of(tmp_path, 3)
    said: dict[int, list[str]] = {0: [], 1: [], 2: []}
    try:
        async def seat(m):
            return await play_seat(
                m, make_bot("go-out-girl", m.seat, "easy", m.seat), say=said[m.seat].append,
                on_table=(lambda t: stop_falsely(t, 0)) if m.seat == 1 else None,
                deck_timeout=20)

        results = await asyncio.gather(*(seat(m) for m in meshes), return_exceptions=True)
        host, _bob, carol = meshes
        for m in (host, carol):
            r = results[m.seat]
            assert isinstance(r, TableStopped) and r.culprit is None, results
            assert "bob stopped the table, naming" in r.reason and "so it names nobody" in r.reason
            shown = [s for s in said[m.seat] if s.startswith("** the table stopped")]
            assert shown == [f"** the table stopped: {m.stopped.reason}"], said[m.seat]
            (rec,) = recorded_stops(m)
            assert rec["culprit"] is None and rec["by"] == 1
            rep = audit_transcript(str(m.transcript_path))
            assert rep.to_json()["culprit"] is None
            stop_line = [d for w, ok, d in rep.checks if w == "the table stopped"]
            assert stop_line and stop_line[0].startswith(m.stopped.reason)
            assert "no culprit recorded" in stop_line[0]
        assert recorded_stops(carol)[0]["claimed"] == 0
        assert "unproven claim against alice (seat 1)" in [
            d for w, _, d in audit_transcript(str(carol.transcript_path)).checks
            if w == "the table stopped"][0]
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_claim_is_upgraded_only_by_this_programs_own_finding(tmp_path):
    """Carol holds bob's claim against alice; when her own checks later find a deviation (here:
    her engine rejecting a move of alice's), that finding, made here, is what is recorded."""
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        bob._send_ctl(2, "stop", {"culprit": 0, "reason": "alice cheated", "proof": []})
        await until(lambda: carol.stopped is not None, what="carol stopped")
        assert carol.stopped.culprit is None and carol.stopped.claimed == 0
        # the reason first, then whose word it is: "without a proof ... (their claim)" before
        # the reason read as an accusation at a routine end (a player away past the wait)
        assert carol.stopped.reason.startswith("bob stopped the table, naming alice (seat 1, ")
        assert carol.stopped.reason.endswith("): alice cheated (bob's claim: this program has "
                                             "not found it itself, so it names nobody)")
        carol.stop(0, "alice played a 3 as a 13")  # carol's own engine caught it
        assert carol.stopped.culprit == 0 and carol.stopped.by == 2
        assert [r["culprit"] for r in recorded_stops(carol)] == [None, 0]
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_wait_under_way_when_a_claim_arrives_keeps_its_own_clock(tmp_path):
    """Alice stops the table naming bob, with no proof carol can check, while carol's program is
    already waiting for bob's move. That wait used to end at once with alice's stop, so carol's
    own turn clock on bob never ran out and she could only hold the stop as alice's claim (a
    clean-clone CI run failed on it). The claim's window now applies to a wait under way too:
    carol's wait runs to its own timeout, and only once the window has closed is the stop raised."""
    import time

    from protocol.channel import CLAIM_WINDOW

    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        t0 = time.monotonic()
        waiting = asyncio.create_task(carol.channel.recv("game", 2.0))
        await asyncio.sleep(0.2)  # carol's wait is under way
        host.stop(1, "bob's program did not play its turn within 3 s")
        with pytest.raises(TimeoutError):
            await waiting  # her own 2 s runs out; alice's stop did not cut it short
        assert carol.stopped is not None and carol.stopped.claimed == 1
        assert carol.stopped.at - t0 < 2.0  # (the claim had arrived while she waited)
        with pytest.raises(TableStop):
            await carol.channel.recv("game")  # no timeout of its own: the stop, once the window closes
        assert time.monotonic() - carol.stopped.at >= CLAIM_WINDOW - 0.1
    finally:
        await close_all(meshes)


B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def second_spelling(sig: str) -> str:
    """The same signature bytes, written differently: an Ed25519 signature is 64 bytes, so its
    base64 ends in ``X==`` and the last character's low four bits are unused; set one."""
    assert sig.endswith("==")
    return sig[:-3] + B64[B64.index(sig[-3]) ^ 1] + "=="


@pytest.mark.parametrize("how", ["stop", "evidence"])
@run_async(timeout=60)
async def test_a_second_spelling_of_a_signature_is_no_proof_of_equivocation(tmp_path, how):
    """Red team: bob copies one of alice's envelopes with its signature's base64 spelt another
    way. A lenient decoder reads the same signature, so the copy verifies, yet its hash differs:
    "two envelopes with one seq" looked like alice equivocating, and every program, hers too,
    recorded her as the cheat on that proof. Now the copy is refused (not the one spelling of its
    signature), the proof proves nothing, and nobody is named on it."""
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        await bob.channel.broadcast("b", {"x": 1})
        await host.channel.broadcast("a", {"x": 1})
        await until(lambda: bob.verifier.chains[0].seq >= 1, what="alice's envelope at bob")
        real = bob.verifier.chains[0].get(1)
        fake = dict(real, sig=second_spelling(real["sig"]))
        if how == "stop":
            for s in (0, 2):
                bob._send_ctl(s, "stop", {"culprit": 0, "reason": "alice equivocated",
                                          "proof": [real, fake]})
            await until(lambda: host.stopped is not None and carol.stopped is not None)
            for m in (host, carol):  # bob's word only: shown as his claim, recorded against nobody
                assert m.stopped.culprit is None and m.stopped.by == 1
        else:
            bob._send_ctl(2, "evidence", {"first": real, "second": fake, "reason": "alice lied"})
            await asyncio.sleep(1.0)
            await carol.channel.broadcast("c", {"x": 1})  # the table goes on
            assert await host.channel.recv("c", 5) == (2, {"x": 1})
        for m in meshes:
            assert not m.equivocations
            assert m.stopped is None or m.stopped.culprit is None
            assert not [r for r in recorded_stops(m) if r["culprit"] is not None]
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_rename_told_to_one_peer_only_blames_nobody(tmp_path):
    """Red team: once dealt in, the peers compare a code over every seat's name and key, and a
    peer reporting another code is named. Bob's client sent a signed link with a new name to
    carol only: her code changed, alice and bob named carol, carol named alice. Now a link may
    not rename a seat (a program back from a crash takes its name from its transcript): carol
    keeps the name she was seated with, and the table goes on."""
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        for m in meshes:
            m._ready.set()  # dealt in: the roster codes are compared from here on
        renamed = bob._own_entry("bobby", bob._members[1].addr)
        bob._send_ctl(2, "link", {"entry": renamed.to_json(), "heads": bob._heads_list()})
        await asyncio.sleep(0.5)
        assert carol._members[1].name == "bob"
        await carol.channel.broadcast("c", {"x": 1})
        assert await host.channel.recv("c", 5) == (2, {"x": 1})
        await asyncio.sleep(1.0)  # several rounds of heads gossip, each with its roster code
        assert {m.roster_digest for m in meshes} == {host.roster_digest}
        assert_playing_on_with_nobody_named(meshes)
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_seat_filling_the_topics_is_named_not_the_next_honest_sender(tmp_path):
    """Red team: the topic budget was the table's, so bob broadcast on 31 junk topics and the
    next honest message on a topic not yet opened here (alice's first deck message reaching
    carol before carol's deck service asked for one: the usual case) got alice named. Now each
    sender has its own budget of topics it opens."""
    from protocol.mesh.budget import MAX_TOPICS

    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        for i in range(MAX_TOPICS - 1):
            await bob.channel.broadcast(f"junk{i}", {"x": i})
        await until(lambda: len(carol._inboxes) >= MAX_TOPICS - 1, what="bob's topics at carol")
        await host.channel.broadcast("deck", {"first": True})
        await host.channel.broadcast("game", {"first": True})
        assert await carol.channel.recv("deck", 5) == (0, {"first": True})
        assert await carol.channel.recv("game", 5) == (0, {"first": True})
        assert carol.stopped is None and host.stopped is None
        for i in range(MAX_TOPICS - 1, MAX_TOPICS + 1):  # bob goes past his own budget
            await bob.channel.broadcast(f"junk{i}", {"x": i})
        await until(lambda: all(m.stopped is not None and m.stopped.culprit == 1
                                for m in (host, carol)), what="both name bob")
        assert "bob used more than" in carol.stopped.reason
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_an_author_sending_to_some_peers_only_cannot_leave_one_behind(tmp_path):
    """Red team: bob's client sent its envelopes to alice and never to carol (nor answered her
    asks). Carol could not play on; alice, holding bob's message, waited on carol's next one,
    and alice's own clock named carol. Now a peer still behind after asking the author asks the
    peers that hold the envelopes, which relay them (signed by bob, checked like any other)."""
    from protocol.mesh.common import K_ENV, K_RELAY

    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    real = bob._send_frames

    def not_to_carol(seat, frames):
        if seat == 2 and frames[0] in (K_ENV, K_RELAY):
            return
        real(seat, frames)

    bob._send_frames = not_to_carol
    try:
        for i in range(3):
            await bob.channel.broadcast("game", {"move": i})
        assert [(await host.channel.recv("game", 5))[1]["move"] for _ in range(3)] == [0, 1, 2]
        assert [(await carol.channel.recv("game", 10))[1]["move"] for _ in range(3)] == [0, 1, 2]
        assert carol.verifier.chains[1].seq == bob.verifier.chains[1].seq
        assert all(m.stopped is None for m in meshes)
    finally:
        await close_all(meshes)


@run_async(timeout=120)
async def test_moves_withheld_from_one_player_do_not_get_her_named_by_the_others(tmp_path,
                                                                                monkeypatch):
    """The same in a whole match (mesh, deck, engines, turn clocks of 2 s): bob's client sends
    its game moves to alice only. Carol gets them relayed by alice, and the match ends with
    nobody named, where before alice's turn clock named carol for not playing on (at the first
    move withheld: carol could not play on past it). Quick in the suite: bob withholds his first
    ten moves from carol (each relayed in about 0.4 s; a match has forty or more), then sends
    the rest as usual; ``P2PCARDS_LONG=1``: every move of the match."""
    import os
    import re

    import p2pcards.lobby as lobby
    from p2pcards.lobby import GameInfo
    from protocol.mesh.common import K_ENV, K_RELAY

    monkeypatch.setattr(lobby, "TURN_GRACE", 1.0)
    info = GameInfo("go-out-girl", 3, {}, wait=120.0, turn_time=2.0).to_json()
    meshes = await make_table(tmp_path, 3, game_info=info)
    bob = meshes[1]
    real = bob._send_frames
    most = None if os.environ.get("P2PCARDS_LONG") == "1" else 10
    withheld: set[int] = set()  # the numbers of the moves withheld (and each resend of them)

    def moves_not_to_carol(seat, frames):
        if seat == 2 and frames[0] in (K_ENV, K_RELAY) and b'"topic":"game"' in frames[1]:
            seq = int(re.search(rb'"seq":(\d+)', frames[1]).group(1))
            if most is None or seq in withheld or len(withheld) < most:
                withheld.add(seq)
                return
        real(seat, frames)

    bob._send_frames = moves_not_to_carol
    try:
        results = await asyncio.gather(*(
            play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat), say=lambda _: None,
                      deck_timeout=20.0, bot=True) for m in meshes), return_exceptions=True)
        assert not [r for r in results if isinstance(r, BaseException)], results
        assert_playing_on_with_nobody_named(meshes)
        assert len(withheld) >= (most or 10), withheld  # (the attack ran)
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_host_showing_players_different_rosters_gets_no_honest_player_named(tmp_path):
    """Red team: a modified host signed two entries for itself ('alice' for bob, 'alicia' for
    carol) and told each peer the roster code it expected. Once dealt in, bob named carol for
    "a different roster" and carol named bob; the host was never named. A different roster is
    no proof against the seat reporting it: the table stops (the players do not agree who is
    at it) and nobody is named."""
    from protocol.mesh import Mesh, Timings
    from protocol.roster import roster_digest

    from .helpers import LOOPBACK, identity

    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice")
    meshes = [host]
    try:
        meshes.append(await Mesh.join(identity(tmp_path, 1), host.address, host.code, "bob",
                                      bind=LOOPBACK, timings=t))
        alice = host._members[0]
        alicia = host._members[0] = host._own_entry("alicia", alice.addr)
        meshes.append(await Mesh.join(identity(tmp_path, 2), host.address, host.code, "carol",
                                      bind=LOOPBACK, timings=t))
        views = {s: roster_digest([a, host._members[1], host._members[2]])
                 for s, a in ((1, alice), (2, alicia))}
        real = host._send_ctl

        def each_its_own_code(seat, kind, payload):
            if kind == "heads" and payload.get("roster") is not None:
                payload = {**payload, "roster": views[seat]}
            return real(seat, kind, payload)

        host._send_ctl = each_its_own_code
        await asyncio.gather(*(m.wait_full(10) for m in meshes))
        for m in meshes[1:]:
            m._ready.set()  # dealt in: the codes are compared from here on
        await until(lambda: all(m.stopped is not None for m in meshes[1:]), what="stops")
        for m in meshes[1:]:
            assert m.stopped.culprit is None and "holds another roster" in m.stopped.reason
            assert not [e for e in m.events if e.kind == "fault"]
            assert not [r for r in recorded_stops(m) if r["culprit"] is not None]
    finally:
        await close_all(meshes)


@run_async(timeout=120)
async def test_a_deck_message_spoilt_for_one_player_gets_its_author_named_not_her(tmp_path):
    """Red team: bob signs two copies of his first deck ``shares`` message under one seq, and
    carol's copy has a spoilt value. Carol's deck names bob and aborts; alice's copy checks out,
    so her deck, waiting on carol, named carol for aborting "although every message this seat
    could check was sound". Now, before naming an accuser on such an inference, alice compares
    heads with her: the two copies prove bob's equivocation, and everyone names bob."""
    from p2pcards.lobby import GameInfo
    from protocol.envelope import canonical, seal
    from protocol.mesh.common import K_ENV

    info = GameInfo("go-out-girl", 3, {}, wait=6.0, turn_time=3.0).to_json()
    meshes = await make_table(tmp_path, 3, game_info=info)
    bob = meshes[1]
    real_env, real_frames = bob._send_env, bob._send_frames
    done = []

    def spoil(body):
        """the last hex digit of the first long hex string in the message, changed"""
        text = canonical(body).decode()
        for i in range(len(text)):
            if all(x in "0123456789abcdef" for x in text[i:i + 64]) and len(text[i:i + 64]) == 64:
                j = i + 63
                return json.loads(text[:j] + ("0" if text[j] != "0" else "1") + text[j + 1:])
        raise AssertionError("no hex value")

    def two_copies(to, topic, body):
        if topic == "deck" and body.get("step") == "shares" and not done:
            done.append(True)
            chain = bob.verifier.chains[1]
            spoilt = canonical(seal(bob.identity, bob.table, 1, chain.seq + 1, chain.head, topic,
                                    spoil(body), None, None))

            def carol_gets_the_spoilt_one(seat, frames):
                if seat == 2 and frames[0] == K_ENV and b'"from":1' in frames[1]:
                    frames = [K_ENV, spoilt]
                real_frames(seat, frames)

            bob._send_frames = carol_gets_the_spoilt_one
            try:
                return real_env(to, topic, body)
            finally:
                bob._send_frames = real_frames
        return real_env(to, topic, body)

    bob._send_env = two_copies
    try:
        runs = [asyncio.create_task(play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                                              say=lambda _: None, deck_timeout=10.0, bot=True))
                for m in meshes]
        results = await asyncio.gather(runs[0], runs[2], return_exceptions=True)
        runs[1].cancel()
        assert done
        for r in results:
            assert isinstance(r, TableStopped) and r.culprit == 1, results
        for m in (meshes[0], meshes[2]):
            assert m.stopped.culprit == 1
            assert not [r for r in recorded_stops(m) if r["culprit"] not in (None, 1)]
    finally:
        await close_all(meshes)


@pytest.mark.parametrize("bob_moves_before_the_claim", [False, True])
@run_async(timeout=60)
async def test_a_claim_just_before_a_deadline_does_not_get_an_on_time_move_named(
        tmp_path, bob_moves_before_the_claim):
    """Red team: alice's client claims "bob did not play his turn" 2 s before carol's turn
    clock for bob runs out (6 s here). Bob plays in time: after the claim (his program refused
    to send once stopped), or before it over a slow link (alice's stop understating what she
    held from bob, so carol read nothing of his that came after the claim). Either way carol's
    own clock named bob, on time. Now every program plays on in a claim's window and reads what
    comes in it: carol reads bob's move, and nobody is named."""
    import time
    import types

    from p2pcards.table import Table

    turn = 6.0
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    carols_table = types.SimpleNamespace(channel=carol.channel, peer_turn_time=turn,
                                         say=lambda _: None, _name=lambda s: NAMES[s],
                                         step=0, _turn_wait=(None, 0.0, False))
    if bob_moves_before_the_claim:
        real_frames, real_ctl = bob._send_frames, alice._send_ctl

        def slow_to_carol(seat, frames):
            if seat == 2:
                asyncio.get_running_loop().call_later(1.0, real_frames, seat, frames)
            else:
                real_frames(seat, frames)

        def understated(seat, kind, payload):
            if kind == "stop":
                payload = {**payload, "heads": [0, 0, 0]}
            return real_ctl(seat, kind, payload)

        real_heads = alice._heads_list

        def heads_without_bobs_move():  # so carol does not fetch it from her either
            h = real_heads()
            h[1] = [0, alice.verifier.chains[1].hash_at(0)]
            return h

        bob._send_frames, alice._send_ctl = slow_to_carol, understated
        alice._heads_list = heads_without_bobs_move

    async def alices_claim():
        await asyncio.sleep(turn - 2.0)
        alice.stop(1, "bob did not play his turn")

    async def bob_plays():
        await asyncio.sleep(turn - (2.5 if bob_moves_before_the_claim else 1.5))
        await bob.channel.broadcast("game", {"step": 3, "action": {"kind": "pass"}})

    t0 = time.monotonic()
    tasks = [asyncio.create_task(alices_claim()), asyncio.create_task(bob_plays())]
    try:
        sender, msg = await Table._recv_game(carols_table, 1)  # raises TableStopped if named
        assert sender == 1 and msg["step"] == 3 and time.monotonic() - t0 < turn
        await asyncio.gather(*tasks)
        await until(lambda: carol.stopped is not None, what="alice's claim at carol")
        assert carol.stopped.culprit is None
        assert carol.stopped.claimed == 1
    finally:
        for t in tasks:
            t.cancel()
        await close_all(meshes)
