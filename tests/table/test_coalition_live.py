"""Red team 17, live: two seats telling the same lie about an honest one (what held).

Four seats over the real mesh (play_seat, Go Out Girl, easy bots). Carol and dave (seats 3
and 4) collude: in their first random reveal both echo the same wrong commitment for alice
(seat 1), as if alice had sent it to them both. No rule counts votes: alice names the liar
that misstates her own commitment, bob gives the mesh its grace to prove that alice sent two
commitments (she did not) and then names the liar too. Nobody names alice."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.table import TableStopped
from tests.mesh.helpers import close_all, run_async
from tests.table.test_table_rules import alter_sends, easy_bot, table_of

pytestmark = pytest.mark.network

LIE = "ab" * 32  # the commitment both say alice sent them


@run_async(timeout=240)
async def test_two_seats_echoing_one_lie_about_alice_are_named_not_alice(tmp_path):
    meshes = await table_of(tmp_path, 4)
    lied: list[int] = []

    def lying(seat):
        def alter(topic, body):
            if topic == "deck" and isinstance(body, dict) and body.get("step") == "reveal" \
                    and seat not in lied:
                body = dict(body, echo=[LIE, *body["echo"][1:]])
                lied.append(seat)
            return body
        return alter

    for s in (2, 3):
        alter_sends(meshes[s], lying(s))
    play = easy_bot(5.0)
    runs = [asyncio.create_task(play(m)) for m in meshes]
    try:
        honest = await asyncio.gather(*runs[:2], return_exceptions=True)
        assert sorted(lied) == [2, 3], lied
        assert all(isinstance(r, TableStopped) for r in honest), honest
        assert all(r.culprit in (2, 3) for r in honest), [(r.culprit, r.reason) for r in honest]
    finally:
        for r in runs[2:]:
            r.cancel()
        await asyncio.gather(*runs[2:], return_exceptions=True)
        await close_all(meshes)
