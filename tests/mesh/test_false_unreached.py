"""Red team 7a, #1: a staller who says, falsely, that he lacks an honest seat's messages.

A seat that really cannot get our messages (a one-way cut, a failed resume) must not be named
for a step that needs them, so a deck wait stands still while a seat's signed heads say it
lacks our envelopes (``Mesh.unreached``). Bob withholds his shuffle and tells alice alone that
he holds none of her envelopes: alice's clock stood still, carol's ran, carol named bob and
alice did not (the two honest records disagreed). Told to both, nobody named him, and what
every screen ended on was bob's own stop accusing honest carol. Now what a seat signed that it
holds of our chain, in one run of its program, to us or to another seat (which forwards it: a
``vouch``), is what it holds at least: a later word that it lacks those contradicts itself,
and the clock runs on it. Every honest seat names bob. (The honest one-way cut, whose heads
say the truth, is in test_failed_resume, test_paused_deck_clock and test_unproven_blame.)"""

from __future__ import annotations

import asyncio
import time

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import GameInfo, play_seat

from .helpers import close_all, make_table, run_async

pytestmark = pytest.mark.network

DECK_TIMEOUT = 4.0


@pytest.mark.parametrize("lie_to,from_start", [((0,), False), ((0, 2), False), ((0,), True)],
                         ids=["to-alice", "to-alice-and-carol", "to-alice-from-the-start"])
@run_async(timeout=120)
async def test_a_staller_saying_he_lacks_our_messages_is_named_by_every_honest_seat(
        tmp_path, lie_to, from_start):
    info = GameInfo("go-out-girl", 3, {}, wait=60.0, turn_time=3.0).to_json()
    meshes = await make_table(tmp_path, 3, game_info=info)
    alice, bob, carol = meshes
    st = {"lying": from_start, "held": False}
    real_heads, real_send = bob._heads_list, bob._send_env

    def send_heads(seat, reply, extra=None):  # one altered field in a message bob signs himself
        heads = real_heads()
        if seat in lie_to and st["lying"]:
            heads[seat] = [0, bob.verifier.chains[seat].hash_at(0)]
        bob._heads_sent[seat] = (heads, time.monotonic())
        bob._send_ctl(seat, "heads", {"heads": heads, "reply": reply,
                                      "roster": bob.roster_digest, **(extra or {})})
    bob._send_heads = send_heads

    def send_env(to, topic, body):  # withholds his first shuffle, and every deck message after
        if topic == "deck" and isinstance(body, dict) and body.get("step") == "shuffle":
            st["lying"] = st["held"] = True
        if st["held"] and topic == "deck":
            return {"seq": 0}
        return real_send(to, topic, body)
    bob._send_env = send_env

    runs = [asyncio.create_task(play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                                          say=lambda line: None, deck_timeout=DECK_TIMEOUT,
                                          bot=True))
            for m in meshes]
    try:
        await asyncio.wait([runs[0], runs[2]], timeout=60)
        assert st["held"], "the attack never started"
        for m in (alice, carol):
            assert m.stopped is not None, f"{m.name}'s table never stopped"
        await asyncio.sleep(1.0)
        for m in (alice, carol):
            assert m.stopped.culprit == 1, f"{m.name}: {m.stopped.reason}"
    finally:
        for r in runs:
            r.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        await close_all(meshes)
