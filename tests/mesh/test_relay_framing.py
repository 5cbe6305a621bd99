"""Red team 11, H1: a seated player got any honest seat of its choice named as a flooder, and was
named by nobody. carol (a modified program, her own seat key) withholds one envelope of her chain
from alice, sends the next 999 to everyone, never answers a ``want`` for her own envelopes, and
repeats. alice, behind on carol's chain, asks carol (no answer), then bob, who holds it all; bob
relayed up to a whole batch (1,000) from the gap on, 999 of which alice already held ahead of
it, and each was charged to bob as a copy: after six rounds alice stopped the table naming bob.

Now alice asks only for the gap (up to the first envelope she holds ahead of it), and a seat she
asked may send as many copies as she asked for without being charged (what it sends may cross
what the author's own connection brought meanwhile). A relayer that sends more than it was asked
is still charged, and named past the budget.

Quick in the suite (4 rounds: the old code charged bob 999 copies in each, and named him after 6);
``P2PCARDS_LONG=1``: 40."""

from __future__ import annotations

import asyncio
import os

import pytest

from protocol.envelope import canonical
from protocol.mesh.common import K_ENV, K_RELAY

from .helpers import close_all, make_table, run_async

pytestmark = pytest.mark.network

ROUNDS = 40 if os.environ.get("P2PCARDS_LONG") == "1" else 4


def withholding(carol, alice):
    """carol's program, modified: it never resends its own envelopes, and while the returned
    switch is on it sends none to alice."""
    carol._resend_own = lambda *a, **k: None
    real = carol._send_frames
    skip = {"on": False}

    def send_frames(seat, frames):
        if skip["on"] and seat == alice.seat and frames and frames[0] == K_ENV:
            return
        real(seat, frames)

    carol._send_frames = send_frames
    return skip


async def gap_rounds(meshes, rounds: int) -> None:
    """Each round: one chat line of carol's that alice never gets from her, then 999 she does;
    then time for alice to find the gap and fill it from bob."""
    alice, _, carol = meshes
    skip = withholding(carol, alice)
    for _ in range(rounds):
        skip["on"] = True
        await carol.channel.broadcast("chat", {"text": "hi", "step": 0})
        skip["on"] = False
        for i in range(999):
            await carol.channel.broadcast("chat", {"text": "hi", "step": 0})
            if i % 100 == 99:
                await asyncio.sleep(0.005)
        for _ in range(250):
            await asyncio.sleep(0.02)
            if any(m.stopped for m in meshes) or (
                    alice.verifier.chains[carol.seat].seq == carol.verifier.chains[carol.seat].seq):
                break
        if any(m.stopped for m in meshes):
            return


def named(meshes) -> dict[str, tuple[int, str]]:
    return {m.name: (m.stopped.culprit, m.stopped.reason) for m in meshes
            if m.stopped is not None and m.stopped.culprit is not None}


@run_async(timeout=150)
async def test_a_seat_withholding_envelopes_from_alice_does_not_get_bob_named(tmp_path):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        await gap_rounds(meshes, ROUNDS)
        assert named(meshes) == {}, named(meshes)
        # every gap was filled (from bob: carol never answers), and bob was charged next to no
        # copy: the old code charged him 999; under the suite's load a handful of his answers
        # can still cross what the relays brought meanwhile (4 seen on a clean clone's run)
        assert alice.verifier.chains[carol.seat].seq == carol.verifier.chains[carol.seat].seq
        assert alice._copies.get(bob.seat, 0) < 50, alice._copies
    finally:
        await close_all(meshes)


@run_async(timeout=150)
async def test_a_relayer_sending_more_than_it_was_asked_is_still_named(tmp_path):
    """The excuse covers what alice asked for, not a relayer answering every ask with the whole
    chain again (a flood of copies dressed as relays)."""
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        def on_want(seat, msg):  # bob, modified: every ask answered with all of the chain
            chain = bob.verifier.chains[msg["seat"]]
            for seq in range(1, chain.seq + 1):
                bob._send_frames(seat, [K_RELAY, canonical(chain.get(seq))])

        bob._on_want = on_want
        await gap_rounds(meshes, ROUNDS)
        assert named(meshes).get("alice", (None,))[0] == bob.seat, named(meshes)
        assert "copies of messages this program already held" in alice.stopped.reason
        assert carol.seat not in {c for c, _ in named(meshes).values()}
    finally:
        await close_all(meshes)
