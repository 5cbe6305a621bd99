"""The deck's clock stands still while the table waits for an absent peer, across every wait of
a step -- not only inside one wait (red team round 3, report section 1).

Bob is honest, but his link to alice is cut one way at his first shuffle message; carol, the
forwarder, withholds his messages from alice. Alice rightly marks bob away and her deck waits for
him without a clock. But the deck's deadline for the step was kept on the wall clock: the moment
a message from bob for a later step reached alice (filed while she waited), the deadline had
long passed and alice named honest bob; bob, waiting in turn on alice, named her. Now the deck
counts its deadline on the channel's present clock (``PatientChannel.clock``), and the only
name said is carol's bare claim."""

from __future__ import annotations

import asyncio

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import GameInfo, play_seat
from protocol.envelope import canonical
from protocol.mesh.common import K_ENV

from .helpers import close_all, make_table, run_async

DECK_TIMEOUT = 4.0


@run_async(timeout=90)
async def test_a_cut_author_whose_later_message_arrives_after_a_pause_is_not_named(tmp_path):
    info = GameInfo("go-out-girl", 3, {}, wait=60.0, turn_time=5.0).to_json()
    meshes = await make_table(tmp_path, 3, game_info=info)
    alice, bob, carol = meshes
    st: dict = {"cut": False, "M": None, "fwd": None}

    bob_frames = bob._send_frames

    def cut_to_alice(seat, frames):  # the one-way fault: nothing bob sends reaches alice
        if st["cut"] and seat == 0:
            return
        bob_frames(seat, frames)
    bob._send_frames = cut_to_alice
    bob_env = bob._send_env

    def cut_at_shuffle(to, topic, body):
        if topic == "deck" and body.get("step") == "shuffle" and not st["cut"]:
            st["cut"], st["M"] = True, bob.verifier.chains[1].seq + 1
        return bob_env(to, topic, body)
    bob._send_env = cut_at_shuffle

    carol_want = carol._on_want

    def no_relays_of_bob_to_alice(seat, msg):
        if seat == 0 and msg.get("seat") == 1:
            return None
        return carol_want(seat, msg)
    carol._on_want = no_relays_of_bob_to_alice
    carol_accept = carol._accept

    def keep_bobs_later(env, h, size=None):
        got = carol_accept(env, h, size)
        if st["M"] is not None and env["from"] == 1 and env["seq"] > st["M"]:
            st["fwd"] = env
        return got
    carol._accept = keep_bobs_later

    async def forward_later_envelope():  # a later envelope of bob's, sent to alice now and then
        while True:
            await asyncio.sleep(1.0)
            if st["fwd"] is not None:
                carol._send_frames(0, [K_ENV, canonical(st["fwd"])])
    drip = asyncio.create_task(forward_later_envelope())
    runs = [asyncio.create_task(play_seat(m, make_bot("go-out-girl", m.seat, "random", m.seat),
                                          say=lambda line: None, deck_timeout=DECK_TIMEOUT,
                                          bot=True))
            for m in meshes]
    try:
        await asyncio.wait(runs[:2], timeout=12 * DECK_TIMEOUT)
        assert st["cut"], "the attack never started"
        for m in (alice, bob):  # the honest two
            stop = m.stopped
            assert stop is None or stop.culprit not in (0, 1), (
                f"{m.name}'s program named honest {m.name_of(stop.culprit)}: {stop.reason}")
    finally:
        drip.cancel()
        for r in runs:
            r.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        await close_all(meshes)
