"""Red team 12, M2: README and docs/network.md promise a player 2,000 chat lines a match, but
the cap counted envelopes, and ``Table.send_chat`` sends a line as one private envelope to each
listener: at five seats a person was named after 501 lines. Now a capped topic is counted per
recipient (everyone, or one seat), so a line said to every listener counts once for each of
them: the cap counts lines, whatever the number of seats.

And (red team 12, notes): a program back from a crash (``Mesh.resume``) counted each seat's
budgets again from zero; it now rebuilds them from its transcript, and refuses a flooder's next
envelope at the same line as every other peer."""

from __future__ import annotations

import asyncio
import dataclasses
import os

import pytest

from p2pcards.lobby import TOPIC_CAPS
from protocol.mesh import Mesh, Timings

from .helpers import LOOPBACK, close_all, identity, make_table, run_async, until

pytestmark = pytest.mark.network

LONG = os.environ.get("P2PCARDS_LONG") == "1"


async def _say(bob, listeners, lines, start=0):
    """``lines`` chat lines from bob, each sent as ``Table.send_chat`` does: one envelope to
    each listener."""
    for i in range(start, start + lines):
        for p in listeners:
            if p is None:  # to everyone, in one envelope
                await bob.channel.broadcast("chat", {"text": f"line {i}", "step": 0})
            else:
                await bob.channel.send(p, "chat", {"text": f"line {i}", "step": 0})
        if i % 10 == 9:
            await asyncio.sleep(0.02)


async def _table(tmp_path, n, caps):
    """``n`` seats with the table's caps (as ``play_seat`` sets them). The lines go out far
    faster than a person types (thousands of envelopes in seconds): with the tests' fast
    ``resend_after`` (0.15 s), heads that lag such a burst get the sender's envelopes sent
    again and counted as copies (``COPIES``), which is not what is tested here."""
    meshes = await make_table(tmp_path, n)
    for m in meshes:
        m.topic_caps = dict(caps)
        m.timings = dataclasses.replace(m.timings, resend_after=2.0)
    return meshes


@run_async(timeout=120)
async def test_a_person_saying_a_quarter_of_the_cap_and_more_to_four_listeners_is_not_named(
        tmp_path):
    """At five seats the old count named a person after a quarter of the cap: 501 lines of the
    2,000 (``P2PCARDS_LONG=1``); quick, the same with a cap of 100 (26 lines to four listeners
    are 104 envelopes)."""
    cap = TOPIC_CAPS["chat"] if LONG else 100
    lines = cap // 4 + 1
    meshes = await _table(tmp_path, 5, {"chat": cap})
    bob = meshes[1]
    try:
        await _say(bob, [0, 2, 3, 4], lines)
        others = [m for m in meshes if m is not bob]
        await until(lambda: all(m.verifier.chains[bob.seat].seq == 4 * lines for m in others), 60,
                    "every peer to hold bob's lines")
        assert not [m.stopped.reason for m in meshes if m.stopped is not None]
    finally:
        await close_all(meshes)


@run_async(timeout=120)
async def test_a_person_past_the_cap_of_lines_is_named_by_every_peer_at_the_same_line(tmp_path):
    """The cap counts lines to each listener: cap + 1 lines to one seat name their author (the
    same cap, lines to four, in the test above, do not). The table's 2,000 with
    ``P2PCARDS_LONG=1``; quick, 100."""
    cap = TOPIC_CAPS["chat"] if LONG else 100
    meshes = await _table(tmp_path, 5, {"chat": cap})
    bob = meshes[1]
    others = [m for m in meshes if m is not bob]
    try:
        await _say(bob, [0], cap + 1)  # to alice alone
        # each names bob on its own count (the first to stop is heard by the others as a claim,
        # which each one's own count then confirms, once it reads that far)
        await until(lambda: all(m.stopped is not None and m.stopped.culprit == bob.seat
                                for m in others), 60, "everyone to name bob")
        for m in others:
            assert m.verifier.chains[bob.seat].seq == cap  # the same line
        assert f"bob sent more than {cap:,} chat lines to alice in this match (a flood)" in \
            meshes[0].stopped.reason
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_resumed_peer_refuses_the_line_past_the_cap_like_the_others(tmp_path):
    cap = 20
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    for m in meshes:
        m.topic_caps = {"chat": cap}
    try:
        await _say(carol, [None], cap - 5)  # to everyone: 15 lines
        await _say(carol, [bob.seat], 3)  # and 3 to bob alone, in boxes bob opens
        await until(lambda: bob.verifier.chains[carol.seat].seq == cap - 2, 10, "bob")
        recorded = dict(bob._recorded_bytes)
        await bob.close(announce=False)  # bob's program crashes
        meshes[1] = bob = await Mesh.resume(identity(tmp_path, 1), alice.table, bind=LOOPBACK,
                                            timings=Timings.fast())
        bob.topic_caps = {"chat": cap}  # as play_seat sets it, after the resume
        assert bob._recorded_bytes == recorded  # each seat's budget stands as it was
        await until(lambda: bob.seat not in carol.away and carol.seat not in bob.away, 10, "back")
        await _say(carol, [None], 6, start=cap - 5)  # the 21st line to everyone
        # each on its own count (the other's stop, heard first, is only a claim)
        await until(lambda: all(m.stopped is not None and m.stopped.culprit == carol.seat
                                for m in (alice, bob)), 15, "both to name carol")
        for m in (alice, bob):
            assert m.verifier.chains[carol.seat].seq == cap + 3, m.name  # the same line
        assert "carol sent more than 20 chat lines to the table in this match" in \
            bob.stopped.reason
    finally:
        await close_all(meshes)
