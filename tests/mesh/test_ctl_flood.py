"""Red team 12, L1: a seat asked for envelopes is excused the copies that cross them, but only of
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
