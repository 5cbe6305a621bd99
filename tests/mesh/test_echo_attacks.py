"""Red team 23, carol against the echo (mesh version 7; the echo's tags, version 8, in
``test_echo_tags.py``). Alice hears bob only through carol (their link cut). Every signed
``heads`` now echoes, per seat, the newest of that seat's own control messages its author has
seen, and alice counts bob's forwarded word as presence only if it echoes one of her own
signed within ``away_after`` (1.5 s at the tests' timings).
Carol plays the echo three ways:

- she forwards bob's words faithfully, then holds back his freshest ones and withholds his next
  message, feeding alice the held-back words one at a time, just inside the 'away' time: the
  best a hoard can do against the echo. Bob is present at alice no longer than the echo's own
  age allows after his message (about two ``away_after``), not for as long as the hoard lasts;
- she re-stamps a hoarded word's echo with a message alice signed a moment ago: bob's signature
  no longer holds, the word is dropped, and bob is waited for as away all the same;
- she withholds alice's words from bob (his echo of alice goes stale) while carrying bob's words
  and messages to alice faithfully. Alice cannot tell this from bob's word being old: bob is
  waited for as away -- as with a withheld message; nobody is named -- and is back at alice as
  soon as carol carries alice's words again."""

from __future__ import annotations

import asyncio
import time

import pytest

from protocol.envelope import canonical
from protocol.mesh import K_CTL, K_RELAY
from tests.mesh.helpers import close_all, make_table, run_async
from tests.mesh.test_hoarded_presence import bob_heard_only_through_carol

pytestmark = pytest.mark.network
ALICE, BOB, CAROL = range(3)


def bobs_word_to_alice(frames: list[bytes]) -> bool:
    """A vouch carrying bob's signed word (the outer message is carol's, from 2)."""
    return b'"t":"vouch"' in frames[-1] and b'"from":1' in frames[-1]


async def away_within(mesh, seat: int, limit: float) -> float:
    start = time.monotonic()
    while seat not in mesh.away and time.monotonic() - start < limit:
        await asyncio.sleep(0.05)
    return time.monotonic() - start


@run_async(timeout=60)
async def test_a_hoard_of_the_freshest_words_keeps_a_seat_present_only_as_long_as_the_echo_allows(
        tmp_path):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    hoard: list[dict] = []
    try:
        await bob_heard_only_through_carol(meshes)
        real_send, real_on_heads = carol._send_frames, carol._on_heads
        hoarding = False

        def keep(seat, msg, force=False):
            if hoarding and seat == BOB and msg.get("t") == "heads":
                hoard.append(msg)
            real_on_heads(seat, msg, force)

        def withhold(seat, frames):  # once hoarding: bob's words and envelopes kept from alice
            if hoarding and seat == ALICE and (frames[0] == K_RELAY or bobs_word_to_alice(frames)):
                return
            real_send(seat, frames)

        carol._on_heads, carol._send_frames = keep, withhold
        held = alice.verifier.chains[BOB].seq
        hoarding = True
        for _ in range(20):  # the freshest words bob can give: 20 in the second before his message
            carol._send_heads(BOB, reply=True)
            await asyncio.sleep(0.05)
        await bob.channel.broadcast("hist", {"i": 1})
        sent = time.monotonic()
        before = [w for w in hoard if w["heads"][BOB][0] <= held]  # not stating his message
        assert len(before) >= 10, len(before)

        async def feed():  # in order, one every 0.7 s: well inside alice's 1.5 s 'away' time
            for word in before:
                real_send(ALICE, [K_CTL, canonical(carol._sign_ctl(ALICE, "vouch",
                                                                    {"heads": word}))])
                await asyncio.sleep(0.7)

        feeder = asyncio.create_task(feed())
        await away_within(alice, BOB, 8.0)
        present = time.monotonic() - sent
        feeder.cancel()
        assert alice.verifier.chains[BOB].seq == held  # still without bob's message
        # the hoard holds 10-20 words, 7-14 s at this pace (so it was on main); the echo allows
        # the newest word's echo away_after, then away_after more: 3 s, and some slack for load
        assert BOB in alice.away, f"bob present at alice {present:.1f} s with his message withheld"
        assert present < 5.0, f"bob present at alice {present:.1f} s with his message withheld"
        assert alice.stopped is None
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_hoarded_word_whose_echo_is_restamped_is_no_word_of_the_seat(tmp_path, caplog):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        await bob_heard_only_through_carol(meshes)
        real_send = carol._send_frames
        carol._send_frames = lambda seat, frames: None if (
            seat == ALICE and (frames[0] == K_RELAY or bobs_word_to_alice(frames))) \
            else real_send(seat, frames)
        old = dict(carol._latest_heads[BOB])  # bob's word, growing old
        start = time.monotonic()
        while BOB not in alice.away and time.monotonic() - start < 8.0:
            # ... re-stamped with alice's newest message carol has seen (its ctr and its tag,
            # mesh version 8), a newer ctr of bob's each time (as a hoard's words would have),
            # forwarded at once
            echo = [None, None, None]
            echo[ALICE] = carol._echo()[ALICE]
            forged = dict(old, echo=echo, ctr=old["ctr"] + 1000
                          + int((time.monotonic() - start) * 100))
            real_send(ALICE, [K_CTL, canonical(carol._sign_ctl(ALICE, "vouch", {"heads": forged}))])
            await asyncio.sleep(0.3)
        assert BOB in alice.away, "a re-stamped word kept bob present at alice"
        assert time.monotonic() - start < 5.0
        assert "does nothing: a malformed vouch" in caplog.text  # carol's, charged to her
        assert alice.stopped is None
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_forwarder_starving_the_echo_gets_the_seat_waited_for_and_nobody_named(tmp_path):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        await bob_heard_only_through_carol(meshes)
        real_send = carol._send_frames
        starving = True

        def starve(seat, frames):  # alice's words never reach bob; all else is carried
            if starving and seat == BOB and b'"t":"vouch"' in frames[-1] \
                    and b'"from":0' in frames[-1]:
                return
            real_send(seat, frames)

        carol._send_frames = starve
        waited = await away_within(alice, BOB, 8.0)
        assert BOB in alice.away and waited < 5.0, f"bob still present at alice after {waited:.1f} s"
        await bob.channel.broadcast("hist", {"i": 1})  # his messages are still carried to her
        start = time.monotonic()
        while alice.verifier.chains[BOB].seq < bob.verifier.chains[BOB].seq \
                and time.monotonic() - start < 5.0:
            await asyncio.sleep(0.05)
        assert alice.verifier.chains[BOB].seq == bob.verifier.chains[BOB].seq
        assert all(m.stopped is None for m in meshes)  # waited for, nobody named
        assert not [e for m in meshes for e in m.events if e.kind in ("fault", "stop")]
        starving = False
        start = time.monotonic()
        while BOB in alice.away and time.monotonic() - start < 5.0:
            await asyncio.sleep(0.05)
        assert BOB not in alice.away, "bob not back at alice once carol carried her words again"
    finally:
        await close_all(meshes)
