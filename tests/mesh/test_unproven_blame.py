"""Red team, blame: a seated peer's modified client tries to get an honest player blamed."""

from __future__ import annotations

import pytest

from protocol.channel import TableStop

from .helpers import close_all, make_table, run_async, until

pytestmark = pytest.mark.network


@run_async(timeout=60)
async def test_an_unproven_stop_naming_an_honest_seat_is_not_taken_as_its_own_blame(tmp_path):
    """Bob's client stops the table saying alice played out of turn, with no proof. Alice's
    program used to record itself as the culprit on bob's word; it now says bob named it, and
    names nobody. Carol cannot check the claim: she shows it as bob's ("bob stopped the table:
    ...")."""
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        for s in (0, 2):
            bob._send_ctl(s, "stop", {"culprit": 0, "reason": "alice played out of turn",
                                      "proof": []})
        with pytest.raises(TableStop) as info:
            await host.channel.recv("game", 10)
        assert info.value.culprit is None and info.value.by == 1
        assert "bob stopped the table, naming this seat (alice) without proof" in info.value.reason
        with pytest.raises(TableStop) as info:
            await carol.channel.recv("game", 10)
        assert info.value.reason.startswith("bob stopped the table: ")
        # alice forwards the stop to a peer that missed it without accusing herself
        assert host._stop_payload["culprit"] is None
        await until(lambda: host.stopped is not None)
        assert not [e for e in host.events if e.kind == "stop" and e.seat == 0]
    finally:
        await close_all(meshes)
