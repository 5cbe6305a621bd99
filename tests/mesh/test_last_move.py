"""The final checkpoint when the peers finish at different times (issue 16, item 3: "the result and
the verdict are shown ... at every peer ... whatever happens to the links after the last move").

Found on the namespace LAN under load (tests/mesh/test_lan.py, the cut at the last move): a bot
answered the host's checkpoint question while it still lacked the other bot's last envelope, got
it a moment later, ended its own checkpoint (everyone's heads already matched), and left, all
within its 1 s heads-gossip interval. The host never learnt the bot's final heads and waited
for an answer that could not come, until the cap (30 s + the table's wait) ran out: "could not
compare transcripts" after 2.5 minutes. The leave (``bye``) now carries the final heads."""

from __future__ import annotations

import dataclasses

import pytest

from .helpers import close_all, make_table, run_async, until


def quiet(mesh, gossip: bool) -> None:
    """This peer pings nobody (and, without ``gossip``, sends its heads only when asked), as on
    a busy machine where the next tick comes late."""
    mesh.timings = dataclasses.replace(mesh.timings, ping_after=3600.0, away_after=7200.0,
                                       heads_every=mesh.timings.heads_every if gossip else 3600.0)


@run_async(timeout=60)
async def test_a_peer_that_leaves_right_after_its_checkpoint_leaves_its_final_heads(tmp_path):
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        for m in meshes:
            await m.channel.broadcast("b", {"from": m.seat})
        await until(lambda: host.heads() == bob.heads() == carol.heads(), what="all hold all")
        await until(lambda: host._peer_heads.get(1) == [c for c, _ in bob._heads_list()],
                    what="the host knows bob's heads")
        quiet(bob, gossip=False)
        quiet(host, gossip=True)  # no ping: bob's heads reach the host only when bob sends them
        await carol.channel.broadcast("b", {"last": True})  # carol's last envelope
        target = [c for c, _ in carol._heads_list()]
        await until(lambda: [c for c, _ in host._heads_list()] == target
                    and [c for c, _ in bob._heads_list()] == target, what="all hold the last")
        await until(lambda: bob._peer_heads.get(0) == target and bob._peer_heads.get(2) == target,
                    what="bob knows the others hold it too")
        # the race of the LAN run: what the host last heard of bob predates carol's last envelope
        assert host._peer_heads[1] != target
        assert await bob.checkpoint(10) == []  # nothing to ask: everyone's heads match
        await bob.close()  # and bob leaves at once
        await until(lambda: 1 in host.left, what="bob left")
        assert host._peer_heads[1] == target  # its leave said what it held
        assert await host.checkpoint(5) == []  # without bob's final heads: TimeoutError
    finally:
        await close_all([host, carol])


@run_async(timeout=30)
async def test_a_leave_with_unreadable_heads_is_still_a_leave(tmp_path):
    meshes = await make_table(tmp_path, 2)
    host, bob = meshes
    try:
        bob._send_ctl(0, "bye", {"heads": "not a list"})  # signed by bob, so it is bob leaving
        bob._send_frames = lambda *a: None  # type: ignore[method-assign]  # and bob is silent
        await until(lambda: 1 in host.left, what="bob left")
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_peer_that_left_without_its_heads_is_not_waited_for_like_an_away_one(tmp_path):
    """A leave without the final heads (a program from before they were sent): the patient final
    checkpoint gives up after its own timeout, as it would with a present, silent peer, instead
    of waiting out the whole cap (30 s + the table's wait) for a peer that said it was leaving."""
    meshes = await make_table(tmp_path, 2)
    host, bob = meshes
    try:
        await host.channel.broadcast("b", {"x": 1})
        await until(lambda: host.heads() == bob.heads(), what="both hold everything")
        bob._heads_list = lambda: []  # type: ignore[method-assign]  # its leave says nothing
        await bob.close()
        await until(lambda: 1 in host.left, what="bob left")
        with pytest.raises(TimeoutError, match="no checkpoint answer from bob"):
            await host.checkpoint(1.0, patient=True, cap=600.0)
    finally:
        await close_all([host])
