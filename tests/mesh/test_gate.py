"""The gate (protocol/mesh/gate.py): connections admitted per address at the encrypted handshake.

Its count, event by event (the monitor's ACCEPTED and DISCONNECTED, and ZAP requests that name
an address but not the connection); honest tables on one address never refused (five seats on
127.0.0.1, their connections cut and redialled, a seat coming back with ``join --resume``); a
flood of idle connections from one address keeping neither a joiner nor a returning player
out; and what a joiner refused by the gate is told. The red team's attack itself is
``test_idle_connections.py``."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import zmq

import protocol.mesh.core as core
import protocol.mesh.gate as gate
from protocol.mesh import JoinRefused, Mesh, Timings
from protocol.mesh.gate import MAX_PER_ADDRESS, Gate

from .helpers import LOOPBACK, close_all, identity, make_table, play, run_async, until

ROOT = Path(__file__).resolve().parents[2]


# -- the count, event by event -------------------------------------------------------------------


@pytest.fixture
def bare_gate(monkeypatch):
    """A gate not started, its events fed by hand; ``peers[fd]`` is what getpeername says."""
    peers: dict[int, str] = {}
    monkeypatch.setattr(gate, "_peer_ip", lambda fd, port: peers.get(fd))
    ctx = zmq.Context()
    router = ctx.socket(zmq.ROUTER)
    g = Gate(ctx, router)
    try:
        yield g, peers
    finally:
        router.close(0)
        g.close()
        ctx.term()


def test_an_address_gets_its_bound_and_no_more(bare_gate):
    g, peers = bare_gate
    for fd in range(10, 10 + MAX_PER_ADDRESS + 5):
        peers[fd] = "10.0.0.9"
        g._accepted(fd)
    answers = [g._admit("10.0.0.9")[0] for _ in range(MAX_PER_ADDRESS + 5)]
    assert answers == [True] * MAX_PER_ADDRESS + [False] * 5
    assert g._admit("10.0.0.8")[0]  # another address is not held up
    assert g.stats.refused == 5
    for fd in range(10 + MAX_PER_ADDRESS, 10 + MAX_PER_ADDRESS + 5):
        g._disconnected(fd)  # the refused ones close: the count stays
    assert g.admitted["10.0.0.9"] == MAX_PER_ADDRESS
    g._disconnected(10)  # an admitted one closes: one more may come
    assert g.admitted["10.0.0.9"] == MAX_PER_ADDRESS - 1
    assert g._admit("10.0.0.9")[0]


def test_half_open_connections_neither_count_nor_hide_an_admitted_one(bare_gate):
    """A ZAP request does not say which of an address's connections it is for: one closing
    lowers the count only when fewer are open than were admitted, so an attacker mixing
    half-open connections with full ones is never under-counted, and the half-open ones of a
    slowloris do not count against a player on the same address."""
    g, peers = bare_gate
    ip = "10.0.0.7"
    for fd in (20, 21, 22):  # 20 and 21 never finish their greeting; 22 does
        peers[fd] = ip
        g._accepted(fd)
    assert g._admit(ip)[0]
    assert g.admitted[ip] == 1  # not 3: half-open connections are not admitted
    g._disconnected(20)
    g._disconnected(21)  # the half-open ones time out: 22, admitted, still counts
    assert g.admitted[ip] == 1 and g.open[ip] == 1
    g._disconnected(22)
    assert ip not in g.admitted and ip not in g.open and g._total == 0


def test_a_reused_descriptor_is_counted_for_its_new_connection(bare_gate):
    g, peers = bare_gate
    peers[30] = "10.0.0.1"
    g._accepted(30)
    assert g._admit("10.0.0.1")[0]
    g._disconnected(30)  # closed; the system hands the same descriptor to a new connection
    peers[30] = "10.0.0.2"
    g._accepted(30)
    assert "10.0.0.1" not in g.admitted and g.open == {"10.0.0.2": 1}
    assert g._admit("10.0.0.2")[0] and g.admitted == {"10.0.0.2": 1}
    # a connection gone before its ACCEPTED was read (its descriptor already another's, or
    # closed): admitted, it cannot count for more than is open from its address
    assert g._admit("10.0.0.3")[0] and "10.0.0.3" not in g.admitted and g._total == 1


def test_the_total_bound_holds_across_addresses(bare_gate):
    g, peers = bare_gate
    g.max_total = MAX_PER_ADDRESS + 2
    fd = 100
    for i in range(3):
        for _ in range(MAX_PER_ADDRESS):
            peers[fd] = f"10.1.0.{i}"
            g._accepted(fd)
            fd += 1
    ok = [g._admit(f"10.1.0.{i}")[0] for i in range(3) for _ in range(MAX_PER_ADDRESS)]
    assert sum(ok) == MAX_PER_ADDRESS + 2 and g._total == MAX_PER_ADDRESS + 2


# -- honest tables on one address ----------------------------------------------------------------


def cut_every_connection(m: Mesh) -> int:
    """Cut every connection ``m`` accepted (as a network fault would: libzmq sees it end and
    the other side's DEALER dials again); the number cut."""
    n = 0
    for fd in list(m.gate._fds):
        with contextlib.suppress(OSError):
            s = socket.socket(fileno=fd)
            try:
                if s.getsockname()[1] == m.port:
                    s.shutdown(socket.SHUT_RDWR)
                    n += 1
            finally:
                s.detach()
    return n


@pytest.mark.network
@run_async(timeout=90)
async def test_five_seats_on_one_address_are_never_refused(tmp_path):
    """The largest table, every seat on 127.0.0.1 (a host and its bots on one machine): its
    connections cut three times over and redialled, and a seat crashing and coming back twice
    with ``join --resume``: no connection is ever refused, and no peer ever holds more than one
    connection per other seat from the address (the measured need behind ``MAX_PER_ADDRESS``)."""
    meshes = await make_table(tmp_path, 5)
    gone = []
    try:
        for _ in range(3):
            base = [m.gate.stats.admitted for m in meshes]
            assert all(cut_every_connection(m) >= 4 for m in meshes)
            await until(lambda b=base: all(m.gate.stats.admitted >= n + 4
                                           and m.gate.admitted.get(LOOPBACK) == 4
                                           for m, n in zip(meshes, b, strict=True)),
                        10, "every connection back")
        for _ in range(2):
            gone.append(meshes[2])
            await meshes[2].close(announce=False)  # its program crashes: no goodbye
            meshes[2] = await Mesh.resume(identity(tmp_path, 2), meshes[0].table, bind=LOOPBACK,
                                          timings=Timings.fast())
            await until(lambda: not meshes[2].not_heard_from()
                        and all(2 not in m.away for m in meshes), 10, "the seat back")
        results = await asyncio.wait_for(
            asyncio.gather(*(play(m.channel, 3) for m in meshes)), 30)
        assert len({r["common"] for r in results}) == 1
        everyone = meshes + gone
        assert [m.gate.stats.refused for m in everyone] == [0] * len(everyone)
        assert max(m.gate.stats.peak.get(LOOPBACK, 0) for m in everyone) <= 4
    finally:
        await close_all(meshes)


# -- a flood from one address ----------------------------------------------------------------


FLOOD = 1_100
FLOODER = """
import resource, sys, time
sys.path.insert(0, sys.argv[1])
_, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # not the victim's lowered limit
import zmq
from protocol.mesh.common import Curve
ctx = zmq.Context()
ctx.set(zmq.MAX_SOCKETS, {n} + 64)
curve = Curve.from_secret(bytes.fromhex(sys.argv[2]))
socks = []
for _ in range({n}):
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    curve.dial(s)
    s.connect(sys.argv[3])
    socks.append(s)
print("open", flush=True)
time.sleep(float(sys.argv[4]))
"""


@contextlib.contextmanager
def idle_flood(victim: Mesh, source: str, n: int = FLOOD, seconds: float = 60.0):
    """``n`` connections with the code from ``source`` (another loopback address), that finish
    the encrypted handshake and send nothing, from their own process (its descriptors are not
    the victim's)."""
    port = victim.address.rsplit(":", 1)[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", FLOODER.format(n=n), str(ROOT), victim._transport_secret.hex(),
         f"tcp://{source}:0;127.0.0.1:{port}", str(seconds)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
        yield proc
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture
def few_descriptors(monkeypatch):
    """This process may open 600 descriptors more than it has open: a victim on a machine
    whose limit the flood could reach (65,536 in production, where a few addresses did)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    in_use = len(os.listdir("/proc/self/fd"))
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, in_use + 600), hard))
    monkeypatch.setattr(core, "raise_fd_limit", lambda: in_use + 600)
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.network
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
@run_async(timeout=90)
async def test_an_idle_flood_from_one_address_keeps_nobody_else_out(tmp_path, few_descriptors):
    """1,100 idle connections from 127.0.0.2 at a host of three with bob seated: carol (from
    127.0.0.1) still joins, and bob's program crashes and comes back with ``join --resume``.
    Before the gate the flood took every descriptor the host's process had: carol's join
    failed ("Too many open files")."""
    t = Timings.fast()
    alice = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice")
    meshes = [alice]
    try:
        meshes.append(await Mesh.join(identity(tmp_path, 1), alice.address, alice.code, "bob",
                                      bind=LOOPBACK, timings=t))
        with idle_flood(alice, "127.0.0.2"):
            await until(lambda: alice.gate.stats.requests >= FLOOD, 30, "every handshake answered")
            assert alice.gate.admitted.get("127.0.0.2", 0) == MAX_PER_ADDRESS
            meshes.append(await asyncio.wait_for(Mesh.join(
                identity(tmp_path, 2), alice.address, alice.code, "carol", bind=LOOPBACK,
                timings=t), 15))
            await asyncio.gather(*(m.wait_full(10) for m in meshes))
            await meshes[1].close(announce=False)
            meshes[1] = await Mesh.resume(identity(tmp_path, 1), alice.table, bind=LOOPBACK,
                                          timings=t)
            results = await asyncio.wait_for(
                asyncio.gather(*(play(m.channel, 3) for m in meshes)), 30)
            assert len({r["common"] for r in results}) == 1
            assert alice.gate.admitted.get("127.0.0.2", 0) <= MAX_PER_ADDRESS
            assert alice.gate.stats.peak.get(LOOPBACK, 0) <= 2
    finally:
        await close_all(meshes)


@pytest.mark.network
@run_async(timeout=30)
async def test_a_joiner_refused_by_the_gate_is_told_why(tmp_path):
    """What an honest player would see if the host's bound on its address were ever reached:
    that it was refused for too many connections from its address, not "wrong table code"."""
    t = Timings.fast()
    alice = await Mesh.host(identity(tmp_path, 0), 2, bind=LOOPBACK, timings=t, name="alice")
    try:
        alice.gate.max_per_address = 0  # as if someone here held them all
        with pytest.raises(JoinRefused, match="too many connections from this machine's address"):
            await Mesh.join(identity(tmp_path, 1), alice.address, alice.code, "bob",
                            bind=LOOPBACK, timings=t)
        assert alice.gate.stats.refused == 1
    finally:
        await alice.close()


@pytest.mark.network
@run_async(timeout=40)
async def test_a_seated_peer_refused_by_the_gate_dials_again(tmp_path, caplog):
    """libzmq does not dial again after a gate's refusal: a seated player's program whose
    connection was cut and then refused (someone on its machine holding the address's bound)
    says so and dials again 5 s later, and is heard directly once the bound frees."""
    alice, bob = await make_table(tmp_path, 2)
    try:
        before = alice.gate.stats.admitted
        alice.gate.max_per_address = 0  # as if someone on bob's machine held them all
        assert cut_every_connection(alice) == 1
        await until(lambda: alice.gate.stats.refused >= 1, 5, "bob's connection refused")
        await until(lambda: 0 in bob._redial_at, 5, "bob's program to see it")
        assert "refused our connection" in caplog.text
        alice.gate.max_per_address = MAX_PER_ADDRESS  # the flood is gone
        await until(lambda: alice.gate.stats.admitted > before, 10, "bob's connection back")
        await bob.channel.broadcast("back", {"n": 1})
        assert await alice.channel.recv("back", 5) == (1, {"n": 1})
        assert alice.gate.stats.refused == 1  # it did not dial again at once, in a loop
    finally:
        await close_all([alice, bob])
