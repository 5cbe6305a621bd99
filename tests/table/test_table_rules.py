"""The networked table over real loopback sockets (in one process): every peer checks every
received action with its own engine; an illegal play stops the table and every other peer names
the sender. Also the table-talk rules, enforced on both ends."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.engine import Action
from p2pcards.games import new_game
from p2pcards.lobby import GameInfo, play_seat
from p2pcards.table import TableStopped
from tests.mesh.helpers import NAMES, close_all, make_table, run_async

pytestmark = pytest.mark.network


async def table_of(tmp, n, game="go-out-girl", options=None):
    return await make_table(tmp, n, game_info=GameInfo(game, n, options or {}).to_json())


async def honest_results(meshes, seat, liar: int, keep=lambda: False) -> list:
    """Every seat's ``seat(mesh)`` run side by side; the results (exceptions included) once the
    honest seats are done, the liar's ``None`` -- its program is stopped then rather than waited
    for, unless ``keep()`` (its result is wanted). A liar whom the others named without its
    own proof of the lie lets that claim's window (``CLAIM_WINDOW``, 3 s) pass before it
    ends, and a test that only judges the honest seats need not wait for it."""
    runs = [asyncio.create_task(seat(m)) for m in meshes]
    others = [r for i, r in enumerate(runs) if i != liar]
    results = dict(zip([i for i in range(len(runs)) if i != liar],
                       await asyncio.gather(*others, return_exceptions=True), strict=True))
    if keep():
        results[liar] = (await asyncio.gather(runs[liar], return_exceptions=True))[0]
    else:
        runs[liar].cancel()
        await asyncio.gather(runs[liar], return_exceptions=True)
        results[liar] = None
    return [results[i] for i in range(len(runs))]


def alter_sends(mesh, alter) -> None:
    """A modified program: every ``(topic, body)`` ``mesh`` sends goes through ``alter``, which
    returns the body to send, or ``None`` to send nothing."""
    ch = mesh.channel

    def altered(real):
        async def send(*args):
            body = alter(args[-2], args[-1])
            if body is not None:
                await real(*args[:-1], body)
        return send
    ch.send, ch.broadcast = altered(ch.send), altered(ch.broadcast)


def easy_bot(deck_timeout: float):
    """``play_seat`` with Go Out Girl's easy bot, quiet, for ``honest_results``."""
    return lambda m: play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                               say=lambda s: None, deck_timeout=deck_timeout)


def skip_own_checks(monkeypatch, game: str):
    """A modified program whose own engine checks nothing: ``mark(state)`` makes that state's
    ``validate`` accept anything. The state is flagged (``_unchecked``, not state) rather than
    given a lambda of its own: a bot clones the view it decides on (its blind copy,
    p2pcards/bots/base.py), and a lambda among a state's fields cannot be copied."""
    cls = type(new_game(game, 3))
    honest = cls.validate
    monkeypatch.setattr(cls, "validate", lambda self, p, a: None if self.__dict__.get(
        "_unchecked") else honest(self, p, a))

    def mark(state) -> None:
        state._unchecked = True
    return mark


class Cheat:
    """Plays honestly, except that at its first chance to play a single card (leading, or on a
    single card below 13) it plays its lowest card claiming it is a 13."""

    needs_view = True

    def __init__(self, seat):
        self.bot = make_bot("go-out-girl", seat, "easy", 7)
        self.done = False

    def decide(self, view, legal):
        top = view.top
        single = top is None or (top["count"] == 1 and top["number"] < 13)
        if not self.done and view.phase == "turn" and single:
            low = min(view.hand(self.bot.seat), key=lambda s: view.number(view.values[s]) or 99)
            if view.number(view.values[low]) not in (0, 13):
                self.done = True
                return Action("play", slots=[low], number=13, count=1)
        return self.bot.decide(view, legal)

    def arrange(self, view, slots):
        return self.bot.arrange(view, slots)


@run_async(timeout=120)
async def test_an_illegal_play_is_named_by_every_other_peer(tmp_path, monkeypatch):
    meshes = await table_of(tmp_path, 3)
    cheat_seat = 1
    cheat = Cheat(cheat_seat)
    unchecked = skip_own_checks(monkeypatch, "go-out-girl")
    try:
        async def seat(m):
            player = cheat if m.seat == cheat_seat else make_bot("go-out-girl", m.seat, "easy", m.seat)
            table_box = {}

            def keep(table):
                table_box["t"] = table
                if m.seat == cheat_seat:  # the cheat's own engine would refuse; it skips the check
                    unchecked(table.state)
            return await play_seat(m, player, on_table=keep, say=lambda s: None, deck_timeout=5)

        results = await honest_results(meshes, seat, cheat_seat)
        honest = [r for i, r in enumerate(results) if i != cheat_seat]
        assert all(isinstance(r, TableStopped) for r in honest), results
        assert all(r.culprit == cheat_seat for r in honest)
        assert all(NAMES[cheat_seat] in r.reason and "as 13" in r.reason for r in honest)
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_chat_lines_follow_the_games_table_talk_rules(tmp_path):
    """A refused line is not sent, and a line a receiver's engine refuses is dropped with a
    notice (the check runs on both ends). A line's control characters are shown escaped."""
    from p2pcards.deck_dealer import DeckDealer  # noqa: F401  (the lobby's dealer)
    from p2pcards.table import Table

    meshes = await table_of(tmp_path, 2)
    heard: list[str] = []
    try:
        tables = [Table("go-out-girl", 2, {}, m.seat, m.channel, None, None,  # type: ignore[arg-type]
                        names=NAMES[:2], say=heard.append) for m in meshes]
        listen = asyncio.create_task(tables[1]._chat_loop())
        assert await tables[0].send_chat("hello there") is None
        for _ in range(100):
            if heard:
                break
            await asyncio.sleep(0.05)
        assert heard == ["alice (seat 1): hello there"]
        # a modified client's escape sequences and newlines are shown, not obeyed: it can
        # neither repaint the screen nor forge a line of the game's log
        await meshes[0].channel.send(1, "chat", {"text": "hi\x1b[2J\nbob plays 13 (\u25cf)"})
        for _ in range(100):
            if len(heard) > 1:
                break
            await asyncio.sleep(0.05)
        assert heard.pop() == "alice (seat 1): hi\\x1b[2J\\nbob plays 13 (\u25cf)"
        # now a game state in which seat 0 may not talk: both ends refuse
        for t in tables:
            t.state.chat_refusal = lambda seat: "only the Vocal Player may talk now"
        assert await tables[0].send_chat("psst") == "only the Vocal Player may talk now"
        await meshes[0].channel.send(1, "chat", {"text": "sneaky"})  # a modified client
        for _ in range(100):
            if len(heard) > 1:
                break
            await asyncio.sleep(0.05)
        assert "refused" in heard[1] and "sneaky" not in heard[1]
        listen.cancel()
    finally:
        await close_all(meshes)


@run_async(timeout=120)
async def test_a_present_peer_that_withholds_a_deck_step_is_named(tmp_path):
    """Connected (heartbeats flow) but silent in the deck protocol: not "away", so the others'
    deck timeout runs, and the table stops naming the peer — a traceback would be a bug."""
    meshes = await table_of(tmp_path, 3)
    sent = {"deck": 0}

    def withholding(topic, body):
        if topic == "deck":
            sent["deck"] += 1
            if sent["deck"] > 6:  # from its 7th deck message on, seat 2 stays silent
                return None
        return body

    alter_sends(meshes[2], withholding)
    try:
        results = (await honest_results(meshes, easy_bot(2.0), liar=2))[:2]
        assert sent["deck"] > 6, "seat 2 did stop answering"
        assert all(isinstance(r, TableStopped) for r in results), results
        # a deck timeout is each program's own observation: the first to time out names carol,
        # and every other program confirms it on its own clock in the claim's window
        assert all(r.culprit == 2 and NAMES[2] in r.reason for r in results), results
    finally:
        await close_all(meshes)
