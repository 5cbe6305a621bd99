"""Red team 13, M2, at a real table: 3 seats over the real mesh (play_seat, Go Out Girl, easy
bots); carol (seat 2) sends her first random reveal with alice's (seat 0's) commitment misstated
in its echo. alice named carol; bob named nobody, since to him alice might have sent carol
another commitment (an equivocation). The mesh proves an equivocation when there is one; after
its grace without one, bob names carol too, as for a wrong ``prev`` (SPEC 5.3, 5.5)."""

from __future__ import annotations

import pytest

from p2pcards.table import TableStopped
from tests.mesh.helpers import close_all, run_async
from tests.table.test_table_rules import alter_sends, easy_bot, honest_results, table_of

pytestmark = pytest.mark.network


@run_async(timeout=180)
async def test_every_honest_seat_names_a_seat_whose_echo_lies_about_a_third_seat(tmp_path):
    meshes = await table_of(tmp_path, 3)
    lied = []

    def lying(topic, body):  # carol's first reveal misstates alice's commitment
        if topic == "deck" and isinstance(body, dict) and body.get("step") == "reveal" \
                and not lied:
            body = dict(body, echo=["00" * 32, *body["echo"][1:]])
            lied.append(body["op"])
        return body

    alter_sends(meshes[2], lying)
    try:
        results = (await honest_results(meshes, easy_bot(5.0), liar=2))[:2]
        assert lied
        assert all(isinstance(r, TableStopped) for r in results), results
        assert [r.culprit for r in results] == [2, 2], [r.culprit for r in results]
    finally:
        await close_all(meshes)
