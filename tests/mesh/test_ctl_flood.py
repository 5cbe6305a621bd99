"""Red team 12, H3: a seated peer flooding control messages that do nothing -- evidence that
proves nothing, heads asking an answer, proofs nobody asked for, wants for its own messages,
kinds no program knows -- had no budget of its own and was never charged: each cost the reader
0.13-0.45 ms of CPU (4,000 a second were within the connection's budget), a 5-second match did
not end in 300 s, and nobody was named. Now each kind has a budget per seat, and what does
nothing (or is over its kind's budget) is charged like a refused envelope: the flooder is named
by every peer it floods within a second.

Red team 12, L1: a seat asked for envelopes is excused the copies that cross them, but only of
the chain and range asked for, and a holder that delivered nothing its heads claimed is not
excused again (carol's heads claimed 1,000 of bob's envelopes bob never signed, and she sent
alice 52,000 copies in 15 s, ten times ``COPIES``, unnamed)."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from protocol.envelope import canonical
from protocol.mesh.common import K_RELAY

from .helpers import close_all, make_table, run_async

pytestmark = pytest.mark.network

RATE = 2000  # control messages a second, to each victim
SECONDS = 6.0  # the longest the flood runs: every victim must have named carol by then


def _useless(carol, kind: str, env):
    """A well-signed control message of ``kind`` that does nothing, as carol's modified
    program would send it (fresh counter, its own signature)."""
    if kind == "evidence":  # the same envelope twice: no equivocation
        return "evidence", {"first": env, "second": env, "reason": "x"}
    if kind == "heads":  # heads asking every victim for an answer, all the time
        return "heads", {"heads": carol._heads_list(), "reply": True,
                         "roster": carol.roster_digest}
    if kind == "proof":  # a proof of an envelope the victim holds, never asked for
        return "proof", {"env": env}
    if kind == "want":  # a want for carol's own messages (a program holds its own)
        return "want", {"seat": carol.seat, "start": 1, "end": 1}
    return "zzz", {}  # a kind no program knows


@pytest.mark.parametrize("kind", ["evidence", "heads", "proof", "want", "unknown"])
@run_async(timeout=60)
async def test_a_flood_of_control_messages_that_do_nothing_names_the_flooder(tmp_path, kind):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        await carol.channel.broadcast("chat", {"text": "hi", "step": 0})
        await alice.channel.recv("chat", 5)
        await bob.channel.recv("chat", 5)
        env = carol.verifier.chains[carol.seat].get(1)
        victims = [alice, bob]
        t0 = time.monotonic()
        sent = 0
        def named() -> bool:  # each on what it saw itself, not on another's word
            return all(v.stopped is not None and v.stopped.culprit == carol.seat
                       for v in victims)

        while time.monotonic() - t0 < SECONDS and not named():
            for _ in range(RATE // 100):
                for v in victims:
                    t, payload = _useless(carol, kind, env)
                    carol._send_ctl(v.seat, t, payload)
                sent += 1
            await asyncio.sleep(0.01)
        took = time.monotonic() - t0
        stops = {m.name: (m.stopped.culprit, m.stopped.reason) for m in victims if m.stopped}
        print(f"\n{kind}: {sent} to each victim in {took:.2f} s; {stops}")
        for v in victims:  # named by every peer it flooded, each on what it saw itself
            assert v.stopped is not None, f"{v.name} never named the flooder ({kind})"
            assert v.stopped.culprit == carol.seat and v.stopped.by == v.seat
            assert "control messages that do nothing" in v.stopped.reason
        assert took < 3.0, f"named only after {took:.1f} s"
    finally:
        await close_all(meshes)


@pytest.mark.parametrize("lie", [True, False], ids=["lying-heads", "control"])
@run_async(timeout=60)
async def test_copies_are_excused_only_of_what_was_asked(tmp_path, lie):
    """carol's heads claim 1,000 more of bob's envelopes than he signed (``lie``); alice asks
    her for them in turn with bob. She then floods alice with copies of bob's envelopes alice
    holds: named past ``COPIES`` like the control without the lie."""
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        for i in range(5):
            await bob.channel.broadcast("chat", {"text": f"hi {i}", "step": 0})
        for _ in range(5):
            await alice.channel.recv("chat", 5)
        if lie:
            real = carol._heads_list

            def heads_list():
                h = real()
                h[bob.seat] = [h[bob.seat][0] + 1000, "00" * 32]
                return h
            carol._heads_list = heads_list
            carol._send_heads(alice.seat, reply=False)
        raws = [canonical(bob.verifier.chains[bob.seat].get(q)) for q in range(1, 6)]
        sent, t0 = 0, time.monotonic()
        while time.monotonic() - t0 < 12.0 and alice.stopped is None:
            for _ in range(40):
                carol._send_frames(alice.seat, [K_RELAY, raws[sent % 5]])
                sent += 1
            await asyncio.sleep(0.01)
        took = time.monotonic() - t0
        print(f"\n{'lie' if lie else 'control'}: {sent} copies in {took:.1f} s; stopped: "
              f"{alice.stopped and alice.stopped.reason}")
        assert alice.stopped is not None and alice.stopped.culprit == carol.seat
        m = re.search(r"carol sent ([0-9,]+) copies of messages this program already held",
                      alice.stopped.reason)
        assert m, alice.stopped.reason
        # named within COPIES (5,000 at once, then 50 a second), not ten times past it
        assert int(m[1].replace(",", "")) <= 5_000 + 50 * took + 100
    finally:
        await close_all(meshes)
