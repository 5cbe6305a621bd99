"""Red team, stalling: a seat that stays connected but comes and goes. Written as the attacker,
a modified client over the real mesh on 127.0.0.1."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import GameInfo, play_seat
from p2pcards.table import TableStopped
from protocol.mesh import Mesh

from .helpers import close_all, make_table, run_async

pytestmark = pytest.mark.network


async def table_of(tmp, n, wait, turn_time=None):
    info = GameInfo("go-out-girl", n, {}, wait=wait, turn_time=turn_time).to_json()
    return await make_table(tmp, n, game_info=info)


def flapper(mesh: Mesh) -> dict:
    """``mesh`` sends nothing of its own accord any more; ``flap()`` says "I am here" once and
    leaves again at once (a signed bye), as a client that keeps resuming and leaving would."""
    state = {"muted": True}
    real = mesh._send_frames

    def send_frames(seat, frames):
        if not state["muted"]:
            real(seat, frames)

    def flap():
        state["muted"] = False
        try:
            for s in range(mesh.seats):
                if s != mesh.seat:
                    mesh._send_heads(s, reply=False)
                    mesh._send_ctl(s, "bye", {})
        finally:
            state["muted"] = True

    mesh._send_frames = send_frames
    state["flap"] = flap
    return state


@run_async(timeout=60)
async def test_a_seat_that_keeps_leaving_and_coming_back_cannot_stall_the_table(tmp_path):
    """Away most of the time and back for a moment before each wait runs out: neither the
    away clock (it restarted at each return) nor the deck's timeout (it stands still while a
    peer is away) ever ran out, so the table waited for ever. Now absence adds up between two
    steps of the game: the table ends within about its wait, naming the seat."""
    wait = 3.0
    meshes = await table_of(tmp_path, 3, wait)
    host, bob, carol = meshes
    said: list[str] = []
    attacker = flapper(bob)

    async def flap_forever():
        while True:
            attacker["flap"]()
            await asyncio.sleep(wait * 0.8)

    flapping = asyncio.create_task(flap_forever())
    try:
        runs = [play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                          say=said.append if m.seat == 0 else (lambda s: None), deck_timeout=20.0)
                for m in (host, carol)]
        results = await asyncio.gather(*runs, return_exceptions=True)
        assert all(isinstance(r, TableStopped) for r in results), results
        # a stall is each program's own observation: the first to see it stops the table, and
        # every other program, its own clock on bob running within a second or two of the first,
        # confirms it in the claim's window and names bob itself (not on the other's word)
        assert all(r.culprit == 1 and "bob kept leaving" in r.reason for r in results), results
        # ended by the table's wait (absence added up), not by the deck's 20 s timeout
        assert any("left the table" in line for line in said)
    finally:
        flapping.cancel()
        await close_all(meshes)


@run_async(timeout=90)
async def test_a_seat_that_sends_every_deck_message_late_is_named(tmp_path):
    """Slow drip: each deck message just inside the deck's timeout, so that no single wait runs
    out while the match takes the timeout times the number of deck steps. The lateness adds up
    against the seat; past the budget it is named. (Small figures here; the defaults are 30 s
    a message and 60 s in all, with a 60 s deck timeout.)"""
    meshes = await table_of(tmp_path, 3, 120.0)
    host, bob, carol = meshes
    ch = bob.channel
    real_send, real_broadcast = ch.send, ch.broadcast

    def dripping(real):
        async def send(*args):
            if args[-2] == "deck":
                await asyncio.sleep(1.6)  # well inside the others' 5 s deck timeout
            await real(*args)
        return send

    ch.send, ch.broadcast = dripping(real_send), dripping(real_broadcast)
    runs = [asyncio.create_task(play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                                          say=lambda s: None, deck_timeout=5.0, late_after=0.5,
                                          late_budget=2.0)) for m in meshes]
    try:
        results = await asyncio.gather(runs[0], runs[2], return_exceptions=True)
        assert all(isinstance(r, TableStopped) for r in results), results
        # each program times its own wait on bob and names him the moment his lateness runs
        # over, not once his late message comes: the first stop reaches the other program while
        # it is still waiting on bob, and in the claim's window its own clock runs out too. So
        # both record bob as their own finding, neither holds it as the other's claim.
        assert all(r.culprit == 1 and "late again and again" in r.reason for r in results), \
            [(r.culprit, r.reason) for r in results]
    finally:
        runs[1].cancel()
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_silent_seat_is_named_by_every_program_on_its_own_clock(tmp_path, monkeypatch):
    """Bob's program stays present and does its deck steps, but never sends its moves. Whoever's
    clock runs out first stops the table naming bob; that stop is only its word to the others.
    Each of them has been waiting on bob as long (within a second or two), so in the claim's
    window its own clock runs out too and it names bob itself: the culprit is recorded by every
    honest program, none of them on another's say-so."""
    import p2pcards.lobby as lobby
    import protocol.mesh.channel as mesh_channel

    monkeypatch.setattr(lobby, "TURN_GRACE", 2.0)  # the others wait 1 s + 2 s for a move
    # The test's fast timings can mark bob away for a moment at one program on a loaded machine,
    # which rightly stops that program's clock on him; a wider window than the 3 s default keeps
    # such a hiccup from failing the test (what it checks is that each clock confirms the stall).
    monkeypatch.setattr(lobby, "CLAIM_WINDOW", 6.0)
    monkeypatch.setattr(mesh_channel, "CLAIM_WINDOW", 6.0)
    meshes = await table_of(tmp_path, 3, 120.0, turn_time=1.0)
    host, bob, carol = meshes
    real_send, real_broadcast = bob.channel.send, bob.channel.broadcast

    def silent(real):
        async def send(*args):
            if args[-2] != "game":
                await real(*args)
        return send

    bob.channel.send, bob.channel.broadcast = silent(real_send), silent(real_broadcast)
    runs = [asyncio.create_task(play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                                          say=lambda s: None)) for m in meshes]
    try:
        results = await asyncio.gather(runs[0], runs[2], return_exceptions=True)
        assert all(isinstance(r, TableStopped) for r in results), results
        assert all(r.culprit == 1 and "bob's program did not play its turn" in r.reason
                   for r in results), results
        # and each transcript's last word on the stop names bob as culprit, not as a claim
        for m in (host, carol):
            assert m.stopped is not None and m.stopped.culprit == 1 and m.stopped.claimed is None
    finally:
        runs[1].cancel()
        await close_all(meshes)


class _Present:
    """A mesh where everyone is present and reached (the patient channel's only questions)."""
    away: frozenset = frozenset()

    def unreached(self) -> set:
        return set()

    def unheard_since(self) -> None:
        return None


@run_async(timeout=30)
async def test_a_dripping_seat_is_named_during_the_wait_not_when_its_message_comes():
    """The attacker's budget: 1 s beyond 0.2 s a message. Its first message comes 0.8 s late
    (charged 0.6 s). On its second, the program names it once 0.2 + 0.4 s have gone by --
    while the dripper still holds the message back -- and other seats' messages arriving in
    between do not restart the clock on it."""
    from p2pcards.lobby import PatientChannel
    from protocol.channel import InMemoryHub
    from protocol.errors import DeckTimeout

    hub = InMemoryHub(3)
    me = PatientChannel(hub.channel(0), _Present(), late_after=0.2, late_budget=1.0)
    dripper, other = hub.channel(1), hub.channel(2)

    async def later(ch, delay):
        await asyncio.sleep(delay)
        await ch.send(0, "deck", {"from": ch.seat})

    send = asyncio.create_task(later(dripper, 0.8))
    assert (await me.recv_from("deck", [1], timeout=5.0))[0] == 1
    await send
    assert me.late[1] == pytest.approx(0.6, abs=0.15)

    loop = asyncio.get_running_loop()
    t0 = loop.time()
    chatter = [asyncio.create_task(later(other, d)) for d in (0.15, 0.3, 0.45)]
    late_message = asyncio.create_task(later(dripper, 3.0))
    with pytest.raises(DeckTimeout) as caught:
        while True:  # as the deck waits: file what comes from others, wait on for the dripper
            if (await me.recv_from("deck", [1], timeout=5.0))[0] == 1:
                break
    named_after = loop.time() - t0
    assert caught.value.peer == 1 and "late again and again" in caught.value.reason
    assert 0.5 < named_after < 1.6, named_after  # 0.6 s plus a step, long before 3 s
    late_message.cancel()
    await asyncio.gather(*chatter)


@run_async(timeout=30)
async def test_a_person_arranging_is_not_charged_lateness():
    """While the others wait for a person's private arrangement (``lenient``) the wait is a
    decision: a long one names nobody and charges nothing."""
    from p2pcards.lobby import PatientChannel
    from protocol.channel import InMemoryHub

    hub = InMemoryHub(2)
    me = PatientChannel(hub.channel(0), _Present(), late_after=0.1, late_budget=0.2)
    me.lenient = {1}

    async def later():
        await asyncio.sleep(0.8)
        await hub.channel(1).send(0, "deck", {})

    send = asyncio.create_task(later())
    assert (await me.recv_from("deck", [1], timeout=5.0))[0] == 1
    await send
    assert me.late.get(1, 0.0) == 0.0


class _SaysItIsUnreached(_Present):
    """Seat 1's heads say, falsely, that it lacks our messages."""

    def unreached(self) -> set:
        return {1}


@run_async(timeout=30)
async def test_a_seat_that_says_our_messages_never_reach_it_pauses_the_deck_once_not_each_step(
        monkeypatch):
    """Red team: a seat whose heads under-report ours looks unreached, and the deck's timeouts
    stand still while it does, for a one-way link's sake. The pause was counted per wait, so
    every deck step could be held for the whole pause and then answered just in time: minutes
    a step, nobody named. Now the pause is the seat's, over the match: once spent, its claim
    stops the clock no more and the wait on it runs out."""
    import p2pcards.patient as patient
    from p2pcards.lobby import PatientChannel
    from protocol.channel import InMemoryHub

    monkeypatch.setattr(patient, "MAX_UNREACHED_PAUSE", 0.6)
    hub = InMemoryHub(2)
    me = PatientChannel(hub.channel(0), _SaysItIsUnreached(), late_after=10, late_budget=10)
    liar = hub.channel(1)

    async def later(delay):
        await asyncio.sleep(delay)
        await liar.send(0, "deck", {"step": "late"})

    loop = asyncio.get_running_loop()
    t0 = loop.time()
    send = asyncio.create_task(later(0.9))  # inside the pause and the timeout: it comes
    assert (await me.recv_from("deck", [1], timeout=0.5))[0] == 1
    await send
    assert 0.6 <= me.paused_for[1] < 1.2  # spent (checked each half second)
    t0 = loop.time()
    with pytest.raises(TimeoutError):  # the next step: the pause is spent, the clock runs
        await me.recv_from("deck", [1], timeout=0.5)
    assert loop.time() - t0 < 0.9


@run_async(timeout=30)
async def test_only_the_arranging_seat_is_waited_for_leniently():
    """Red team 5 (minor): during bob's private arrangement every wait was lenient, on any
    seat: carol, awaited in the same step (as every seat's key share is when the arrangement is
    the deck's first operation), could hold her message without being charged. Now only bob's
    wait is a decision: carol runs over her budget and is named; bob, thinking 0.8 s, is not
    charged."""
    from p2pcards.engine import Shuffle
    from p2pcards.lobby import DealerAdapter, PatientChannel
    from protocol.channel import InMemoryHub
    from protocol.errors import DeckTimeout

    hub = InMemoryHub(3)
    me = PatientChannel(hub.channel(0), _Present(), late_after=0.1, late_budget=0.2)

    class Deck:
        ch, timeout = me, 5.0

    class Dealer:
        seat, deck = 0, Deck()

        async def fulfil(self, view, req, arrange):
            await me.recv_from("deck", [2], timeout=self.deck.timeout)  # carol's share
            return await me.recv_from("deck", [1], timeout=self.deck.timeout)  # bob's order

    class View:
        def arrangement_prompt(self, by, slots):
            return "arrange these cards"

    async def later(seat, delay):
        await asyncio.sleep(delay)
        await hub.channel(seat).send(0, "deck", {})

    sends = [asyncio.create_task(later(2, 0.8)), asyncio.create_task(later(1, 0.8))]
    with pytest.raises(DeckTimeout) as caught:
        await DealerAdapter(Dealer()).fulfil(View(), Shuffle((0, 1, 2), by=1))
    assert caught.value.peer == 2 and "late again and again" in caught.value.reason
    assert me.late.get(1, 0.0) == 0.0
    await asyncio.gather(*sends)

    sends = [asyncio.create_task(later(2, 0.0)), asyncio.create_task(later(1, 0.8))]
    me.late.clear()
    await DealerAdapter(Dealer()).fulfil(View(), Shuffle((0, 1, 2), by=1))  # carol on time
    assert me.late.get(1, 0.0) == 0.0 and me.lenient == set()
    await asyncio.gather(*sends)
