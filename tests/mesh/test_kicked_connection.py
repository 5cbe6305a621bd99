"""Red team 16a: a squatter the host removed before the deal keeps the connections it opened
while it held the seat. Every program had seated those connections (a fresh control message
signed by the seat's key then), and kept them seated after the removal: whatever junk came on
them later was charged to *the seat*, and so to the honest player who took it. After the deal,
21 damaged frames on each of the old connections had every program name that player."""

from __future__ import annotations

import asyncio

import pytest

from protocol.mesh import Mesh, Timings
from protocol.mesh.common import K_ENV

from .helpers import LOOPBACK, close_all, identity, run_async, until
from .test_seat_squatting import held_table

pytestmark = pytest.mark.network


@run_async(timeout=60)
async def test_a_removed_squatter_cannot_get_the_seats_new_player_named(tmp_path):
    t = Timings.fast()
    host, bob, squat = await held_table(tmp_path, t, (1, "bob"), (5, "mallory"))
    meshes = [host, bob]
    try:
        await until(lambda: host.full and bob.full and squat.full, what="full")
        # mallory's connections to alice and bob carry her signed words: seated as seat 3
        await until(lambda: all(h.budgets.by_seat.get(2) for h in (host, bob)),
                    what="mallory's connections seated")
        old = {0: squat._dealers[0], 1: squat._dealers[1]}
        host.remove(2)
        await until(lambda: 2 not in bob._members, what="bob forgets mallory")
        carol = await Mesh.join(identity(tmp_path, 2), host.address, host.code, "carol",
                                bind=LOOPBACK, timings=t)
        meshes.append(carol)
        assert carol.seat == 2
        await until(lambda: host.full and bob.full and carol.full, what="full again")
        host.seal()
        await asyncio.gather(*(m.wait_full(10) for m in meshes))
        # mallory, removed, sends damaged frames on the connections she opened as seat 3
        for _ in range(40):
            for s in old.values():
                s.send_multipart([K_ENV, b'{"damaged":true}'])
            await asyncio.sleep(0.01)
        await asyncio.sleep(1.0)
        # (before: alice and bob each named carol, 'carol sent 21 messages this program had
        # to refuse ...'); what a connection without a seat sends is dropped unread instead
        for m in (host, bob):
            assert m.stopped is None or m.stopped.culprit != carol.seat, (
                f"{m.name} named carol, the honest player at the seat: {m.stopped.reason}")
    finally:
        await close_all([*meshes, squat])
