"""Red team 20: a cheat is named at the moment it happens, even when the cheater then vanishes.

carol (seat 2), a modified program, plays a Go Out Girl card "as 15", which no rule allows
(every copy of the game refuses it on what it holds: "cannot play as number 15"),
sends that move to alice alone, and vanishes at once (nothing of hers reaches anyone again: her
program killed, or her links cut). Since red team 19 a program compares heads with every seat
before it names another on a message it refuses, and names nobody it cannot compare with
(``Mesh.out_of_reach``); carol is out of reach, so alice named nobody on the move, and carol was
named only once the table's wait for an absent player ran out, for being away (with the
default wait, two minutes after the cheat).

Now every envelope states the heads of every chain its author had accepted when it made it
(``heads``, protocol/SPEC.md): carol's move states exactly what alice holds, so the move is
refused on carol's own inputs, and alice names carol for it at once, reach or no reach; every
other program fetches the move (alice's stop says what she held) and names carol the same way.
"""

from __future__ import annotations

import time

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.engine import Action
from p2pcards.lobby import GameInfo, play_seat
from p2pcards.table import TableStopped
from tests.mesh.helpers import close_all, make_table, run_async
from tests.table.test_table_rules import honest_results, skip_own_checks

pytestmark = pytest.mark.network
ALICE, CAROL = 0, 2
WAIT = 20.0  # the table's wait for an absent player (two minutes by default)


class Cheat:
    """Plays honestly until its first play, where it plays its first card "as 15"."""

    needs_view = True

    def __init__(self, seat: int) -> None:
        self.bot = make_bot("go-out-girl", seat, "easy", 7)
        self.done = False

    def decide(self, view, legal):
        if not self.done and view.phase in ("turn", "lead"):
            self.done = True
            return Action("play", slots=[view.hand(self.bot.seat)[0]], number=15, count=1)
        return self.bot.decide(view, legal)

    def arrange(self, view, slots):
        return self.bot.arrange(view, slots)


def vanish_after_cheat(carol, cheat: Cheat, lie: str | None = None) -> dict:
    """carol's program: the cheat's envelope goes to alice alone, and from then on nothing of
    carol's leaves her program (her frames, her answers to heads, everything). ``lie``: the
    cheat's envelope states heads carol never had -- a made-up hash (``"hash"``), or far more
    of bob's messages than bob ever sent (``"ahead"``)."""
    did: dict = {}
    send_env, send_frames, stated = carol._send_env, carol._send_frames, carol._stated_heads

    def made_up():
        heads = stated()
        if "sending" in did and lie == "hash":
            heads = dict(heads, hash="ab" * 32)
        elif "sending" in did and lie == "ahead":
            heads = dict(heads, seqs=[n + 1000 if s == 1 else n
                                      for s, n in enumerate(heads["seqs"])])
        return heads

    def frames(seat, fr):
        if "gone" in did or ("sending" in did and seat != ALICE):
            return
        send_frames(seat, fr)

    def sent(to, topic, body):
        if "gone" in did or not (cheat.done and topic == "game"):
            return send_env(to, topic, body)
        did["sending"] = True
        env = send_env(to, topic, body)
        did.update(gone=True, at=time.monotonic(), env=env)
        return env

    carol._send_env, carol._send_frames, carol._stated_heads = sent, frames, made_up
    return did


async def cheat_and_vanish(tmp_path, monkeypatch, seats: int, lie: str | None = None):
    """The match up to every honest program's end: (the honest seats, their results, how long
    after the cheat each ended, the meshes)."""
    info = GameInfo("go-out-girl", seats, {}, wait=WAIT)
    meshes = await make_table(tmp_path, seats, game_info=info.to_json())
    cheat = Cheat(CAROL)
    unchecked = skip_own_checks(monkeypatch, "go-out-girl")
    did = vanish_after_cheat(meshes[CAROL], cheat, lie)
    ended: dict[int, float] = {}
    try:
        async def seat(m):
            player = cheat if m.seat == CAROL else make_bot("go-out-girl", m.seat, "easy", m.seat)

            def keep(table):
                if m.seat == CAROL:  # the cheat's own engine would refuse; it skips the check
                    unchecked(table.state)
            try:
                return await play_seat(m, player, on_table=keep, say=lambda s: None,
                                       deck_timeout=5)
            finally:
                ended[m.seat] = time.monotonic()

        results = await honest_results(meshes, seat, CAROL)
        assert "env" in did, "carol never cheated"
        honest = [s for s in range(seats) if s != CAROL]
        after = {s: round(ended[s] - did["at"], 1) for s in honest}
        print(f"{seats} seats, lie {lie}: " + "; ".join(
            f"{meshes[s].name_of(s)} after {after[s]} s: {results[s]}" for s in honest))
        return honest, results, after, meshes
    finally:
        await close_all(meshes)


@pytest.mark.parametrize("seats", [3, 4])
@run_async(timeout=90)
async def test_a_cheat_sent_to_one_player_is_named_at_once_though_its_author_vanishes(
        tmp_path, monkeypatch, seats):
    honest, results, after, meshes = await cheat_and_vanish(tmp_path, monkeypatch, seats)
    for s in honest:
        r = results[s]
        assert isinstance(r, TableStopped), (s, r)
        assert r.culprit == CAROL, (s, after[s], str(r))
        assert "as number 15" in r.reason, (s, after[s], str(r))  # for the cheat, not for leaving
        assert after[s] < WAIT / 4, (s, after[s], str(r))
        assert meshes[s].stopped.culprit == CAROL  # recorded so, as every program's own finding


@pytest.mark.parametrize("lie", ["hash", "ahead"])
@run_async(timeout=90)
async def test_heads_made_up_get_nobody_honest_named_and_stall_nobody(tmp_path, monkeypatch,
                                                                     lie):
    """carol's cheat states heads she never had: not the same inputs, so the programs go on as
    before heads were stated -- carol, out of reach, is not named on the move (nor for being
    away: the table stops at once), bob whose chain she misstated is not named, and nobody
    waits past the comparison's bound."""
    honest, results, after, meshes = await cheat_and_vanish(tmp_path, monkeypatch, 3, lie)
    for s in honest:
        r = results[s]
        assert isinstance(r, TableStopped), (s, r)
        assert r.culprit in (None, CAROL), (s, str(r))
        assert meshes[s].stopped.culprit in (None, CAROL), (s, meshes[s].stopped)
        assert after[s] < WAIT / 4, (s, after[s], str(r))
