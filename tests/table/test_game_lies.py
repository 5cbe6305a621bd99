"""Red team, game-layer lies in well-signed messages: a modified client at a real table over
127.0.0.1 (the mesh, the deck and every engine real). Every honest seat rejects the lie and
names the liar at once, not when the honest player whose turn it is gets round to moving."""

from __future__ import annotations

import asyncio
import copy
import json

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import DECK_TOPIC, play_seat
from p2pcards.table import TableStopped
from tests.mesh.helpers import NAMES, close_all, run_async
from tests.protocol.deck_helpers import at, places

from .test_table_rules import honest_results, table_of

pytestmark = pytest.mark.network

THINK = 40.0  # how long an honest person takes over each move here


class Slow:
    """An honest person who thinks a long time over every move."""

    needs_view = False

    def __init__(self, seat):
        self.bot = make_bot("go-out-girl", seat, "easy", seat)
        self.moved = 0

    async def decide(self, view, legal):
        await asyncio.sleep(THINK)
        self.moved += 1
        return self.bot.decide(view, legal)

    def arrange(self, view, slots):
        return self.bot.arrange(view, slots)


def short_claim_window(monkeypatch, seconds: float) -> None:
    """Every program in this process gives another's unproven claim ``seconds`` (``CLAIM_WINDOW``,
    3 s) to see the deviation for itself."""
    import p2pcards.lobby as lobby
    import protocol.mesh.channel as mesh_channel
    import protocol.mesh.transport as mesh_transport

    for module in (lobby, mesh_channel, mesh_transport):
        monkeypatch.setattr(module, "CLAIM_WINDOW", seconds)


def lie_once(table, lie):
    """``table``'s client, the first time it waits for another seat's move, first sends ``lie``
    (a game message built from the step it is at)."""
    real = table._their_decision
    told = []

    async def their_decision(player):
        if not told:
            told.append(player)
            await table.channel.broadcast("game", lie(table.step, player))
        return await real(player)

    table._their_decision = their_decision


@pytest.mark.parametrize("what,lie,named", [
    ("a move for the current step, not its turn",
     lambda step, player: {"step": step, "action": {"name": "pass"}}, "out of turn"),
    ("a move for an earlier step (a replay)",
     lambda step, player: {"step": step - 1, "action": {"name": "pass"}}, "second action"),
    # JSON's true is not a step number, though Python reads it as 1: an old step, not a lie
    # that slips through (named as malformed, by every seat, whatever step the table is at)
    ("a step written as true",
     lambda step, player: {"step": True, "action": {"name": "pass"}}, "malformed"),
])
@run_async(timeout=120)
async def test_a_move_out_of_turn_is_named_at_once_while_the_player_thinks(tmp_path, what, lie,
                                                                           named, monkeypatch):
    # The first honest seat to read the lie names it; the one thinking over her move gets that
    # claim and, after the claim's window, reads what had arrived (the lie came with the claim,
    # over loopback) and names it herself. A window of 1.5 s instead of 3 (each case waited it).
    short_claim_window(monkeypatch, 1.5)
    meshes = await table_of(tmp_path, 3)
    liar = 2
    try:
        async def seat(m):
            if m.seat == liar:
                return await play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                                       on_table=lambda t: lie_once(t, lie), say=lambda s: None,
                                       deck_timeout=20)
            return await play_seat(m, slow[m.seat], say=lambda s: None, deck_timeout=20)

        slow = {m.seat: Slow(m.seat) for m in meshes if m.seat != liar}
        results = await honest_results(meshes, seat, liar)
        honest = [r for i, r in enumerate(results) if i != liar]
        assert all(isinstance(r, TableStopped) for r in honest), results
        assert all(r.culprit == liar and NAMES[liar] in r.reason and named in r.reason
                   for r in honest), results
        assert not any(p.moved for p in slow.values())  # named before the honest player moved
    finally:
        await close_all(meshes)


def test_a_person_who_walks_away_from_an_arrangement_prompt_does_not_hold_the_table():
    """Girl and the Robot's Manipulate asks a person to order three cards. The prompt had no
    time limit while the others waited six hours for that seat's deck step; now the turn time
    applies: the seat's own bot orders the cards, and says so."""
    from p2pcards.table import Table

    class Gone:
        async def arrange(self, view, slots):
            await asyncio.Event().wait()  # never answers

    class Bot:
        def arrange(self, view, slots):
            return list(reversed(slots))

    said: list[str] = []
    table = Table("girl-and-robot", 2, {}, 0, None, None, Gone(), names=NAMES[:2],  # type: ignore[arg-type]
                  say=said.append, turn_time=0.2, stand_in=Bot())
    order = asyncio.run(asyncio.wait_for(table._arrange(0, (4, 5, 6)), 10))
    assert order == [6, 5, 4]
    assert any("your bot orders the cards for alice" in line for line in said), said


def test_the_others_wait_for_a_persons_arrangement_the_tables_turn_time():
    from types import SimpleNamespace

    from p2pcards.engine import Shuffle
    from p2pcards.lobby import DECISION_TIMEOUT, DealerAdapter, GameInfo

    class Dealer:
        seat = 0
        deck = SimpleNamespace(timeout=5.0)

        async def fulfil(self, view, req, arrange=None):
            self.waited = self.deck.timeout
            return "done"

    view = SimpleNamespace(arrangement_prompt=lambda by, slots: "order them")
    for turn_time, expected in ((60.0, 90.0), (0, DECISION_TIMEOUT)):
        dealer = Dealer()
        info = GameInfo("girl-and-robot", 2, {}, turn_time=turn_time)
        adapter = DealerAdapter(dealer, info.peer_turn_time())
        assert asyncio.run(adapter.fulfil(view, Shuffle((1, 2, 3), 1))) == "done"
        assert dealer.waited == expected and dealer.deck.timeout == 5.0


@run_async(timeout=120)
async def test_a_move_told_to_one_seat_only_is_named_by_everyone(tmp_path):
    """Bob's client sends its move privately to alice instead of to the table. Alice's table
    moves on and waits for carol in the next deck step, while carol waits for a move she never
    got: alice's deck timeout named carol, an honest player. A private envelope's topic and
    recipient are in the clear at every peer, so every peer now names bob on arrival."""
    meshes = await table_of(tmp_path, 3)
    liar = 1

    def whisper(table):
        real = table.channel.broadcast

        async def broadcast(topic, body):
            if topic == "game":
                await table.channel.send(0, topic, body)  # alice only
            else:
                await real(topic, body)

        table.channel.broadcast = broadcast

    try:
        async def seat(m):
            return await play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                                   on_table=whisper if m.seat == liar else None,
                                   say=lambda s: None, deck_timeout=3)

        results = await honest_results(meshes, seat, liar)
        honest = [r for i, r in enumerate(results) if i != liar]
        assert all(isinstance(r, TableStopped) for r in honest), results
        assert all(r.culprit == liar and NAMES[liar] in r.reason for r in honest), results
    finally:
        await close_all(meshes)


def slow_link_from(mesh, author: int, delay: float) -> None:
    """``mesh`` gets every envelope of ``author``'s ``delay`` seconds late, in order (a slow
    link), so another program's stop over a faster path can reach it before the message it is
    about."""
    real = mesh._on_env
    loop = asyncio.get_running_loop()

    def on_env(data, direct, rid=None):
        try:
            late = json.loads(data).get("from") == author
        except ValueError:
            late = False
        if late:
            loop.call_later(delay, real, data, direct, rid)
        else:
            real(data, direct, rid)

    mesh._on_env = on_env


@pytest.mark.parametrize("think", [0.0, THINK])
@run_async(timeout=120)
async def test_a_lie_that_comes_after_anothers_stop_is_still_named_by_this_program(tmp_path,
                                                                                    think):
    """Carol moves out of turn. Bob's program names her at once and stops the table; alice's
    link from carol is slow, so bob's stop (his word: alice cannot check it) reaches her before
    carol's move does. A stop carries what its sender had accepted from each author, and alice
    still reads up to that: her own engine sees carol's move and names carol itself, rather than
    holding bob's claim. Alice waiting for another's move, or thinking over her own, alike."""
    meshes = await table_of(tmp_path, 3)
    liar = 2
    slow_link_from(meshes[0], liar, 1.0)
    try:
        async def seat(m):
            if m.seat == liar:
                return await play_seat(
                    m, make_bot("go-out-girl", m.seat, "easy", m.seat), say=lambda s: None,
                    on_table=lambda t: lie_once(t, lambda step, player: {
                        "step": step, "action": {"kind": "pass"}}), deck_timeout=20)
            player = Slow(m.seat) if think else make_bot("go-out-girl", m.seat, "easy", m.seat)
            return await play_seat(m, player, say=lambda s: None, deck_timeout=20)

        results = await honest_results(meshes, seat, liar)
        alice, bob = results[0], results[1]
        assert isinstance(bob, TableStopped) and bob.culprit == liar, results
        assert isinstance(alice, TableStopped) and alice.culprit == liar, results
        assert "out of turn" in alice.reason and "without" not in alice.reason, alice.reason
        assert meshes[0].stopped.by == 0  # alice's own finding is what she recorded
    finally:
        await close_all(meshes)


def forge_deck_message(table, nth: int) -> None:
    """``table``'s client changes one hex value of its ``nth`` deck message (a share, a proof
    part or a ciphertext: whatever comes first) before signing it."""
    channel = table.channel
    real = channel.broadcast
    count = [0]

    async def broadcast(topic, body):
        if topic == DECK_TOPIC:
            count[0] += 1
            if count[0] == nth:
                body = copy.deepcopy(body)
                path = next(p for p in places(body) if isinstance(at(body, p), str)
                            and len(at(body, p)) >= 64 and all(c in "0123456789abcdef"
                                                               for c in at(body, p)))
                old = at(body, path)
                at(body, path[:-1])[path[-1]] = old[:-1] + ("0" if old[-1] != "0" else "1")
        await real(topic, body)

    channel.broadcast = broadcast


@run_async(timeout=120)
async def test_a_forged_deck_message_that_comes_after_anothers_stop_is_named_here_too(tmp_path):
    """The same race in the deck: carol signs a deck message with one value changed. Bob's deck
    names her at once; alice's link from carol is slow, so bob's stop comes first. Alice reads up
    to what bob had accepted, and her own deck checks carol's message and names her."""
    meshes = await table_of(tmp_path, 3)
    liar = 2
    slow_link_from(meshes[0], liar, 1.0)
    try:
        async def seat(m):
            return await play_seat(
                m, make_bot("go-out-girl", m.seat, "easy", m.seat), say=lambda s: None,
                on_table=(lambda t: forge_deck_message(t, 3)) if m.seat == liar else None,
                deck_timeout=20)

        results = await honest_results(meshes, seat, liar)
        alice, bob = results[0], results[1]
        assert isinstance(bob, TableStopped) and bob.culprit == liar, results
        assert isinstance(alice, TableStopped) and alice.culprit == liar, results
        assert "without" not in alice.reason and meshes[0].stopped.by == 0, alice.reason
    finally:
        await close_all(meshes)


@pytest.mark.parametrize("players, seats", [(4, 3), (2, 3)])
@run_async(timeout=60)
async def test_a_table_whose_game_does_not_match_its_seats_is_refused_in_words(tmp_path, players,
                                                                               seats):
    """A host's game description is signed and the same for everyone, but nothing checked it
    against the table's seats: with 4 players at 3 seats every program ended in a bare
    ValueError (the internal-error line); with 2 at 3 the third seat's program crashed and the
    other two named it, an honest player, for a deck timeout."""
    from p2pcards.engine import ConfigError
    from p2pcards.lobby import GameInfo
    from protocol.mesh import Mesh, Timings
    from tests.mesh.helpers import LOOPBACK, identity

    t = Timings.fast()
    info = GameInfo("go-out-girl", players, {}).to_json()
    host = await Mesh.host(identity(tmp_path, 0), seats, bind=LOOPBACK, timings=t,
                           name=NAMES[0], game_info=info)
    meshes = [host] + [await Mesh.join(identity(tmp_path, i), host.address, host.code, NAMES[i],
                                       bind=LOOPBACK, timings=t) for i in range(1, seats)]
    try:
        results = await asyncio.gather(
            *(play_seat(m, make_bot("go-out-girl", m.seat, "easy", 1), say=lambda s: None,
                        deck_timeout=3) for m in meshes), return_exceptions=True)
        assert all(isinstance(r, ConfigError) for r in results), results
        assert all(f"{seats} seats" in str(r) and f"{players} players" in str(r) for r in results)
    finally:
        await close_all(meshes)
