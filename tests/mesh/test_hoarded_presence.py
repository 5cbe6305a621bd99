"""Red team 23: a forwarder's hoard of an author's older words keeps it present while its
messages are withheld. Alice hears bob only through carol (their link cut). Carol is to pass on
bob's envelopes and, in ``vouch`` messages, his signed word (his ``heads`` to her): presence
through the others. A forwarder that passes on his word and withholds his envelopes is caught by
his own word: it says what he signed, alice lacks it, and past ``_starved_after`` the word no
longer counts as presence (bob is waited for as away, the clocks stand still on him).

But any word bob signed *before* his latest message says nothing of it. Carol asks bob for his
heads as often as she likes (a ``heads`` with ``reply``: he answers each with a fresh signed
word), keeps them, and once bob has sent a message she withholds, forwards to alice one of the
older words at a time, each newer than the last alice saw, just inside the 'away' time.
Measured at the tests' timings (away after 1.5 s): 60 words asked for in 3 s before bob's
message kept him present at alice 58.5 s after it, alice without it; then he was marked away.
The hoard is as large as the forwarder asks for: at the default timings (away after 6 s),
every 100 words asked for are about 9 minutes of an author present at a program that does not
get his message. So the rule is bypassed: alice's clocks run on bob (a turn's
``peer_turn_time`` counts while he is not away), and past the turn time (5:30 by default) she
names him for not playing a move he played. What the rule gave instead was bob waited for as
away, and named by alice past the table's wait (2:00) all the same -- she cannot tell carol's
withholding from his absence -- so the hoard changes which clock names him and when, not
whether; the table is held no longer than the clocks that run on a present seat allow.

Nothing in a word said how old it was. Fixed by an echo (mesh version 7): each ``heads`` carries,
per seat, the newest ``ctr`` of that seat's own control messages its author has seen (directly
or forwarded; since version 8 with a tag of that message, ``test_echo_tags.py``); a program
counts a forwarded word as presence only if it echoes a message of its own signed within
``away_after``. This test failed on main (bob present 8 s and more, the
hoard feeding him); now he is waited for as away within about two ``away_after``. Carol's
plays against the echo itself are in ``test_echo_attacks.py``."""

from __future__ import annotations

import asyncio
import time

import pytest

from protocol.envelope import canonical
from protocol.mesh import K_CTL, K_RELAY
from tests.mesh.helpers import close_all, make_table, run_async
from tests.mesh.test_lying_heads_presence import cut_between_alice_and_bob

pytestmark = pytest.mark.network
ALICE, BOB, CAROL = range(3)


async def bob_heard_only_through_carol(meshes) -> None:
    """Cut alice and bob apart, both ways, and wait until alice hears bob through carol."""
    cut_between_alice_and_bob(meshes)
    await asyncio.sleep(2.0)
    assert BOB not in meshes[ALICE].away


@run_async(timeout=60)
async def test_a_forwarder_cannot_keep_a_seat_present_with_its_older_words(tmp_path):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    hoard: list[dict] = []
    try:
        await bob_heard_only_through_carol(meshes)
        real_send, real_on_heads = carol._send_frames, carol._on_heads

        def keep(seat, msg, force=False):  # every signed word of bob's to carol, kept
            if seat == BOB and msg.get("t") == "heads":
                hoard.append(msg)
            real_on_heads(seat, msg, force)

        carol._on_heads = keep

        def withhold(seat, frames):  # to alice: none of bob's envelopes, none of his words ...
            if seat == ALICE and frames[0] == K_RELAY:
                return
            if seat == ALICE and b'"t":"vouch"' in frames[-1] and b'"from":1' in frames[-1]:
                return
            real_send(seat, frames)

        async def feed():  # ... but the hoard's, in order, one a second (away after 1.5 s)
            sent = 0
            while True:
                if sent < len(hoard) and hoard[sent]["heads"][BOB][0] <= held:
                    real_send(ALICE, [K_CTL, canonical(carol._sign_ctl(
                        ALICE, "vouch", {"heads": hoard[sent]}))])
                    sent += 1
                await asyncio.sleep(1.0)

        held = alice.verifier.chains[BOB].seq
        carol._send_frames = withhold
        feeder = asyncio.create_task(feed())
        for _ in range(60):  # asked for, 20 a second: 60 words of bob's in 3 s
            carol._send_heads(BOB, reply=True)
            await asyncio.sleep(0.05)
        # (on main bob was present here, fed by the hoard; with the echo its words grow too old
        # within a second or two, so he may be waited for as away already: the hoard buys nothing)
        await bob.channel.broadcast("hist", {"i": 1})
        sent = time.monotonic()
        # the withholding is caught within a few asks and the 1.5 s 'away' time (as in
        # test_lying_heads_presence: about 3 s); give it 8
        while BOB not in alice.away and time.monotonic() - sent < 8.0:
            await asyncio.sleep(0.05)
        present = time.monotonic() - sent
        feeder.cancel()
        assert alice.verifier.chains[BOB].seq == held  # still without bob's message
        assert BOB in alice.away, f"bob present at alice {present:.1f} s with his message withheld"
    finally:
        await close_all(meshes)
