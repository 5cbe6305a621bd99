"""The last program at a table. Every other seat away at once most likely means this program is
the one cut off, so it names nobody and keeps trying ("you are cut off from ...; retrying").
But when every other player *left* (each a signed goodbye: they quit), nobody is cut off, and
it kept waiting all the same: found walking through a 3-seat table on three hosts, where both
people quit after the deal and the host's bot process was still running half an hour later
(a bot gives up only after its patience, 30 minutes; a person's program never). Now the
table's wait runs for them as for any player who left: past it, the match ends naming the
first to leave, as it does with others still at the table."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.lobby import _watch_absence
from tests.mesh.helpers import close_all, make_table, run_async, short_claim_window, until

pytestmark = pytest.mark.network


@run_async(timeout=60)
async def test_a_program_left_alone_by_players_who_quit_ends_the_match_after_the_wait(
        tmp_path, monkeypatch):
    short_claim_window(monkeypatch)
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    said: list[str] = []
    try:
        await bob.close()  # 'quit', then the other person quits too: two signed leaves
        await until(lambda: 1 in host.left, what="bob left")
        await carol.close()
        await until(lambda: host.left >= {1, 2}, what="carol left")
        await asyncio.wait_for(_watch_absence(host, 1.5, said.append, bot=True), 10)
        assert host.stopped is not None and host.stopped.culprit == 1, host.stopped
        assert "bob left the table and did not come back within 2 s" in host.stopped.reason
        assert not any("cut off" in s for s in said), said  # nobody told "you are cut off"
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_program_that_hears_nobody_still_names_nobody_and_keeps_trying(tmp_path):
    """The other side of the rule: the others gone silent without a goodbye (a cut, perhaps
    this program's own) is waited out, naming nobody, however long it lasts."""
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    said: list[str] = []
    try:
        await bob.close(announce=False)  # two crashes, or this program's own cable pulled
        await carol.close(announce=False)
        await until(lambda: {1, 2} <= set(host.away), timeout=20, what="both away")
        watch = asyncio.create_task(_watch_absence(host, 1.0, said.append, bot=True))
        await asyncio.sleep(3.0)  # three times the wait
        assert not watch.done() and host.stopped is None
        assert any("you are cut off from bob, carol" in s for s in said), said
        watch.cancel()
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_the_last_of_the_others_to_go_away_says_this_program_may_be_the_one_cut_off(
        tmp_path):
    """A host cut off from the LAN read, for each other player in turn, "bob ... is away; the
    table waits for them to come back (they rerun the same join command)" -- advice for bob,
    who had done nothing -- until the reminder said "you are cut off" 15 s later (ux20's
    walk-through, F9). When the last of the others goes away, the line now says that this
    program is most likely the one cut off."""
    from p2pcards.absence import _announce

    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    said: list[str] = []
    announce = asyncio.create_task(_announce(host, host.subscribe(), said.append, bot=False))
    try:
        await bob.close(announce=False)
        await until(lambda: any("bob" in s for s in said), timeout=20, what="bob's line")
        # carol still heard: bob's own trouble, as far as anyone knows; gone without a goodbye,
        # his program may be reconnecting by itself (ux23: "they rerun ..." alone)
        assert "the table waits for them to come back (their program reconnects by itself, or, " \
            "if it closed, they rerun the same join command)" in said[-1], said
        await carol.close(announce=False)
        await until(lambda: any("carol" in s for s in said), timeout=20, what="carol's line")
        assert "is away too: every other player is away at once, so most likely it is this " \
            "program that is cut off (its network); it keeps trying to reach them." in said[-1]
        assert "rerun" not in said[-1], said
    finally:
        announce.cancel()
        await close_all(meshes)


@run_async(timeout=60)
async def test_the_one_who_went_silent_first_is_named_not_the_one_who_quit_after(
        tmp_path, monkeypatch):
    """Red team 21: carol's program goes silent (no goodbye: the host cannot tell her from a
    cable it lost), bob, tired of waiting, quits (a goodbye). The host, every other seat away at
    once, names nobody and keeps trying, as it should. Then carol, past the wait, sends her
    own goodbye: every other player has now left, and the host named bob at once -- the lower
    seat past the wait, though he went second and carol had stalled the table from the start.
    The one away longest is named: carol."""
    short_claim_window(monkeypatch)
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    said: list[str] = []
    send = carol._send_frames
    carol._send_frames = lambda seat, frames: None  # silent, as if crashed
    try:
        await until(lambda: 2 in host.away, timeout=20, what="carol away")
        await bob.close()
        await until(lambda: 1 in host.left, what="bob left")
        watch = asyncio.create_task(_watch_absence(host, 1.5, said.append, bot=True))
        await asyncio.sleep(2.5)  # past the wait for both, the host 'cut off' all along
        assert not watch.done() and host.stopped is None
        carol._send_frames = send
        await carol.close()  # her goodbye, signed, long after she went silent
        await asyncio.wait_for(watch, 5)
        assert host.stopped is not None and host.stopped.culprit == 2, host.stopped
    finally:
        await close_all(meshes)
