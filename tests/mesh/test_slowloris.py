"""Red team, slowloris: many half-open connections (a CurveZMQ greeting never finished) against
the host while the table fills and against a seated peer. Every socket here is on 127.0.0.1.
The handshake timeout is shortened for the test (monkeypatched): the test checks it is applied,
not its production value (5 s to finish a handshake)."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

import protocol.mesh.core as core
from protocol.mesh import Mesh, Timings
from protocol.mesh.common import raise_fd_limit

from .helpers import LOOPBACK, close_all, identity, play, run_async

pytestmark = pytest.mark.network

# a ZMTP 3 greeting cut short: the signature and the version's first byte, then nothing
PARTIAL_GREETING = b"\xff" + b"\x00" * 8 + b"\x7f\x03"


def open_partial(address: str, n: int, data: bytes = PARTIAL_GREETING) -> list[socket.socket]:
    host, port = address.removeprefix("tcp://").rsplit(":", 1)
    socks = []
    for _ in range(n):
        s = socket.create_connection((host, int(port)), timeout=5)
        s.sendall(data)
        s.setblocking(False)
        socks.append(s)
    return socks


def closed_by_peer(s: socket.socket) -> bool:
    try:
        while True:
            data = s.recv(4096)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:  # reset
        return True


async def all_closed(socks: list[socket.socket], within: float) -> int:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if all(closed_by_peer(s) for s in socks):
            break
        await asyncio.sleep(0.2)
    return sum(closed_by_peer(s) for s in socks)


@pytest.fixture
def short_timeouts(monkeypatch):
    monkeypatch.setattr(core, "HANDSHAKE_MS", 1_000)


@run_async(timeout=60)
async def test_half_open_handshakes_neither_block_a_join_nor_stay_open(tmp_path, short_timeouts):
    """300 connections that never finish their greeting, against a host whose table is filling
    and against a seated peer: an honest player still joins, the table still talks, and every
    half-open connection is closed by the peer (libzmq's default kept each for 30 s)."""
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice")
    meshes = [host]
    socks: list[socket.socket] = []
    try:
        meshes.append(await Mesh.join(identity(tmp_path, 1), host.address, host.code, "bob",
                                      bind=LOOPBACK, timings=t))
        socks = open_partial(host.address, 200) + open_partial(meshes[1].address, 100)
        t0 = time.monotonic()
        meshes.append(await asyncio.wait_for(
            Mesh.join(identity(tmp_path, 2), host.address, host.code, "carol", bind=LOOPBACK,
                      timings=t), 15))
        await asyncio.gather(*(m.wait_full(10) for m in meshes))
        assert time.monotonic() - t0 < 15
        await asyncio.wait_for(asyncio.gather(*(play(m.channel, 2) for m in meshes)), 15)
        assert await all_closed(socks, 6) == len(socks)
    finally:
        for s in socks:
            s.close()
        await close_all(meshes)


def test_the_descriptor_limit_is_raised_to_what_the_hard_limit_allows():
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        got = raise_fd_limit(4096)
        want = 4096 if hard == resource.RLIM_INFINITY else min(4096, hard)
        assert got == want == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
