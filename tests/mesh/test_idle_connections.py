"""Red team 16a: someone who knows the table code (a former player, or a seated player's modified
program) opens many connections that finish the encrypted handshake and then send nothing.
ZeroMQ's ROUTER cannot close one connection, and ZMTP heartbeats are off (docs/network.md,
"Known limits"), so before each such connection held one file descriptor of the victim and
about 25 KB of its memory for good (measured: 2,650 of them took a peer from 40 to 113 MB and
2,673 descriptors). Each program raises its limit to 65,536 descriptors, so a host with a few
addresses on the LAN (about 28,000 connections per address and port) could exhaust it: then the
victim accepted no connection at all -- no player coming back with ``join --resume`` -- and
opened no file. Now the gate (protocol/mesh/gate.py) counts the connections admitted from each
address and refuses the encrypted handshake past ``MAX_PER_ADDRESS``: of 1,100 idle connections
from one address, 128 stay open (this file's attack, a strict ``xfail`` before; it fails on
the code before the gate: 1,100 held)."""

from __future__ import annotations

import asyncio

import pytest
import zmq

from protocol.mesh.common import raise_fd_limit
from protocol.mesh.gate import MAX_PER_ADDRESS

from .helpers import close_all, make_table, raw_dealer, run_async

pytestmark = pytest.mark.network

N = 1100  # past any per-address bound a fix would set (every test peer is on 127.0.0.1)


def established_to(port: int) -> int:
    """TCP connections established to ``port`` on this machine (the server's side of each)."""
    n = 0
    with open("/proc/net/tcp") as f:
        lines = f.read().splitlines()[1:]
    for line in lines:
        local, state = line.split()[1], line.split()[3]
        if state == "01" and int(local.rsplit(":", 1)[1], 16) == port:
            n += 1
    return n


async def settled(count, within: float, still: float = 1.0) -> int:
    """``count()`` once it has not changed for ``still`` seconds (at most ``within``)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    last, since = count(), loop.time()
    while loop.time() < end:
        await asyncio.sleep(0.1)
        now = count()
        if now != last:
            last, since = now, loop.time()
        elif loop.time() - since >= still:
            break
    return last


@run_async(timeout=60)
async def test_idle_connections_with_the_code_are_bounded(tmp_path):
    raise_fd_limit()
    meshes = await make_table(tmp_path, 2)
    alice, bob = meshes
    port = int(alice.address.rsplit(":", 1)[1])
    before = established_to(port)  # bob's connection, from 127.0.0.1 too
    ctx = zmq.Context()
    ctx.set(zmq.MAX_SOCKETS, N + 64)
    socks = []
    try:
        for _ in range(N):
            socks.append(raw_dealer(ctx, alice))
        # every handshake answered (admitted, or refused and closed): nothing else closes them
        held = await settled(lambda: established_to(port), 40) - before
        print(f"\n{held} idle connections held open at alice")
        assert held <= MAX_PER_ADDRESS - before
        # the table's own connections were there first: the two still talk
        await bob.channel.broadcast("after", {"n": 1})
        assert await alice.channel.recv("after", 5) == (1, {"n": 1})
    finally:
        for s in socks:
            s.close(0)
        ctx.term()
        await close_all(meshes)
