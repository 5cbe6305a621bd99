"""Red team round 4, item 1: someone who knows the code but holds no seat opens more connections
than we keep "stranger" slots for (512) and keeps each one busy with a tiny handshake frame every
10 s, within every budget. A new connection then had no slot and all its traffic was refused:
a member's program that crashed and came back (``Mesh.resume``) could not even send the signed
control message that seats its connection, and after the table's wait the honest programs named
it; an honest joiner with the right code got no answer. Written as the attack: at unit level with
the real numbers, and over real loopback connections with fewer slots (``MAX_CONNS`` lowered) so
the test stays quick."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from protocol.mesh import K_HS, Mesh, Timings, budget
from protocol.mesh.budget import MAX_CONNS, UNAUTH_SOURCE_MSGS, Budgets

from .helpers import LOOPBACK, close_all, identity, make_table, play, raw_dealer, run_async, until

CTL, HS = b"ctl", b"hs"
ATTACKER = "10.0.0.66"
JUNK = b'{"t":"x"}'  # 9 bytes: a handshake message nobody answers


def hold_every_slot(b: Budgets, now: float, n: int = MAX_CONNS + 8) -> list[bytes]:
    """The slot holder: ``n`` connections from one address, each sending a tiny frame."""
    rids = [b"atk%d" % i for i in range(n)]
    for rid in rids:
        b.admit(rid, HS, len(JUNK), now, ATTACKER)
    return rids


def refresh(b: Budgets, rids: list[bytes], now: float) -> None:
    for rid in rids:
        b.admit(rid, HS, len(JUNK), now, ATTACKER)


def test_a_new_connection_is_read_while_strangers_hold_every_slot():
    """Before: "a new connection while 512 others that hold no seat are open", for as long as
    the holder kept its connections busy, whatever the newcomer sent."""
    b = Budgets()
    now = 1000.0
    rids = hold_every_slot(b, now)
    assert len(b.unauth) == MAX_CONNS
    for step in range(1, 4):  # the holder keeps refreshing, well within every budget
        now += 10.0
        refresh(b, rids, now)
        # a member coming back from another machine: its signed link is read, and seats it
        assert b.admit(b"carol%d" % step, CTL, 900, now, "10.0.0.7") is None
        b.promote(b"carol%d" % step, 2, now)
        assert b.seat_of(b"carol%d" % step) == 2
        # from the holder's own address (two programs on one machine, or every test on
        # 127.0.0.1) too
        assert b.admit(b"dave%d" % step, CTL, 900, now, ATTACKER) is None
        # a joiner's hello, then its join on the same connection
        assert b.admit(b"erin%d" % step, HS, 300, now, "10.0.0.8") is None
        assert b.admit(b"erin%d" % step, HS, 700, now + 0.1, "10.0.0.8") is None
    assert len(b.unauth) <= MAX_CONNS


def test_room_is_made_at_the_address_holding_the_most_slots():
    """A newcomer takes the slot of the least recently heard connection of the address that
    holds the most: one address's connections push out only their own, never an honest
    stranger's at another address in the middle of its handshake."""
    b = Budgets()
    now = 0.0
    assert b.admit(b"joiner", HS, 300, now, "10.0.0.8") is None  # a hello, answered
    rids = hold_every_slot(b, now + 0.01, MAX_CONNS - 1)
    assert len(b.unauth) == MAX_CONNS
    for i in range(3 * MAX_CONNS):  # the holder opens ever more connections
        b.admit(b"more%d" % i, HS, len(JUNK), now + 0.02 + i * 0.01, ATTACKER)
    assert b"joiner" in b.unauth and len(b.unauth) == MAX_CONNS
    assert b.admit(b"joiner", HS, 700, now + 9, "10.0.0.8") is None  # its join: read
    assert not set(rids) & set(b.unauth)  # the holder's oldest went first


def test_opening_ever_new_connections_buys_no_more_than_the_address_budget():
    """Making room must not hand an attacker a fresh budget per connection beyond what its
    address may send, and a connection over its address's budget takes nobody's slot."""
    b = Budgets()
    now = 0.0
    assert b.admit(b"joiner", HS, 300, now, "10.0.0.8") is None
    allowed = sum(b.admit(b"c%d" % i, CTL, 100, now + i / 4000, ATTACKER) is None
                  for i in range(4000))  # 4,000 new connections in one second
    assert allowed <= UNAUTH_SOURCE_MSGS[1] + UNAUTH_SOURCE_MSGS[0] + 1, allowed
    assert b"joiner" in b.unauth
    held = set(b.unauth)
    for i in range(100):  # over the address's budget: refused without making room
        assert b.admit(b"d%d" % i, CTL, 100, now + 1.0, ATTACKER) is not None
    assert set(b.unauth) == held


# -- over real connections --------------------------------------------------------------------

SLOTS = 16  # MAX_CONNS for these tests: the attack with 512 slots is the same, only slower


@pytest.fixture
def few_slots(monkeypatch):
    monkeypatch.setattr(budget, "MAX_CONNS", SLOTS)


@contextlib.asynccontextmanager
async def slot_holder(victims: list[Mesh], n: int = SLOTS + 4, every: float = 0.5):
    """``n`` CurveZMQ connections to each victim, each sending ``JUNK`` every ``every``
    seconds (2 a second per connection, 40 a second for the address: within every budget),
    as the red team's s1_slot_holder.py does with 520 connections every 10 s."""
    import zmq

    ctx = zmq.Context()
    socks = [raw_dealer(ctx, v) for v in victims for _ in range(n)]

    async def keep_busy():
        while True:
            for s in socks:
                with contextlib.suppress(zmq.Again):
                    s.send_multipart([K_HS, JUNK], flags=zmq.DONTWAIT)
            await asyncio.sleep(every)

    task = asyncio.create_task(keep_busy())
    try:
        await until(lambda: all(len(v.budgets.unauth) >= SLOTS for v in victims), 10,
                    "every stranger slot taken")
        yield
    finally:
        task.cancel()
        for s in socks:
            s.close(0)
        ctx.term()


def blamed(meshes: list[Mesh]) -> set[int]:
    return {e.seat for m in meshes for e in m.events
            if e.kind in ("fault", "equivocation", "stop") and e.seat is not None}


@pytest.mark.network
@run_async(timeout=60)
async def test_a_member_who_comes_back_is_seated_while_strangers_hold_every_slot(
        tmp_path, few_slots):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    again = None
    try:
        old = {m.seat: set(m.budgets.by_seat[2]) for m in (alice, bob)}  # carol's connections
        async with slot_holder([alice, bob]):
            await carol.close(announce=False)  # carol's program crashes (no goodbye)
            again = await Mesh.resume(identity(tmp_path, 2), alice.table, bind=LOOPBACK,
                                      timings=Timings.fast())
            # her new connections are strangers' until her signed link is read: within a few
            # seconds both honest programs hear her again and the table plays
            await until(lambda: all(set(m.budgets.by_seat[2]) - old[m.seat] for m in (alice, bob)),
                        5, "carol's new connections seated")
            results = await asyncio.wait_for(
                asyncio.gather(*(play(m.channel, 3) for m in (alice, bob, again))), 15)
            assert len({r["common"] for r in results}) == 1
            assert blamed([alice, bob, again]) == set()
            assert all(m.stopped is None for m in (alice, bob, again))
    finally:
        await close_all([alice, bob] + ([again] if again is not None else []))


@pytest.mark.network
@run_async(timeout=60)
async def test_an_honest_joiner_gets_in_while_strangers_hold_every_slot(tmp_path, few_slots):
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 2, bind=LOOPBACK, timings=t, name="alice")
    bob = None
    try:
        async with slot_holder([host]):
            bob = await asyncio.wait_for(Mesh.join(identity(tmp_path, 1), host.address,
                                                   host.code, "bob", bind=LOOPBACK, timings=t),
                                         10)
            await asyncio.gather(host.wait_full(10), bob.wait_full(10))
            assert [m.name for m in host.roster] == ["alice", "bob"]
    finally:
        await close_all([host] + ([bob] if bob is not None else []))
