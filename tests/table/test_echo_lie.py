"""Red team 13, M2, at a real table: 3 seats over the real mesh (play_seat, Go Out Girl, easy
bots); carol (seat 2) sends her first random reveal with alice's (seat 0's) commitment misstated
in its echo. alice named carol; bob named nobody, since to him alice might have sent carol
another commitment (an equivocation). The mesh proves an equivocation when there is one; after
its grace without one, bob names carol too, as for a wrong ``prev`` (SPEC 5.3, 5.5)."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import play_seat
from p2pcards.table import TableStopped
from tests.mesh.helpers import close_all, run_async
from tests.table.test_table_rules import table_of

pytestmark = pytest.mark.network


@run_async(timeout=180)
async def test_every_honest_seat_names_a_seat_whose_echo_lies_about_a_third_seat(tmp_path):
    meshes = await table_of(tmp_path, 3)
    ch = meshes[2].channel
    real_send, real_broadcast = ch.send, ch.broadcast
    lied = []

    def lying(real):
        async def send(*args):
            body = args[-1]
            if args[-2] == "deck" and isinstance(body, dict) and body.get("step") == "reveal" \
                    and not lied:
                echo = list(body["echo"])
                echo[0] = "00" * 32
                body = dict(body, echo=echo)
                lied.append(body["op"])
            await real(*args[:-1], body)
        return send

    ch.send, ch.broadcast = lying(real_send), lying(real_broadcast)
    try:
        runs = [asyncio.create_task(play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                                              say=lambda s: None, deck_timeout=5.0))
                for m in meshes]
        results = await asyncio.gather(*runs[:2], return_exceptions=True)
        runs[2].cancel()
        await asyncio.gather(runs[2], return_exceptions=True)
        assert lied
        assert all(isinstance(r, TableStopped) for r in results), results
        assert [r.culprit for r in results] == [2, 2], [r.culprit for r in results]
    finally:
        await close_all(meshes)
