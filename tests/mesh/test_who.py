"""``who`` (at the host's lobby prompt and during a game) lists every seat: a free seat says it
is free (it read "seat 3: seat 3 [?]"), and a player who is gone says whether they left or went
quiet, and for how long."""

from __future__ import annotations

import asyncio

import pytest

from protocol.mesh import Mesh, Timings

from .helpers import LOOPBACK, close_all, identity, run_async, until

pytestmark = pytest.mark.network


@run_async(timeout=60)
async def test_who_says_which_seats_are_free_and_who_is_gone(tmp_path):
    from p2pcards.net import _who

    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 4, bind=LOOPBACK, timings=t, name="alice",
                           hold=True)
    bob = await Mesh.join(identity(tmp_path, 1), host.address, host.code, "bob", bind=LOOPBACK,
                          timings=t)
    carol = await Mesh.join(identity(tmp_path, 2), host.address, host.code, "carol",
                            bind=LOOPBACK, timings=t)
    try:
        await until(lambda: len(host.roster) == 3, what="three seated")
        lines = _who(host)
        assert lines[0].startswith("  seat 1: alice (you) [") and lines[1].startswith("  seat 2: bob [")
        assert lines[3] == "  seat 4: free", lines
        await bob.close()  # quit: a signed leave
        await carol.close(announce=False)  # a crash: quiet, then away
        await until(lambda: {1, 2} <= host.away, what="both gone")
        await asyncio.sleep(1.1)
        lines = _who(host)
        assert " — left the table " in lines[1] and lines[1].endswith(" ago"), lines
        assert " — away for " in lines[2], lines
    finally:
        await close_all([host, bob, carol])
