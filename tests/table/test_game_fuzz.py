"""Red team, the game's own messages: a modified client at a real table over 127.0.0.1 (mesh,
deck and engines real) signs one game message of its own making, at a random moment, in each
of the three games -- any JSON in the body, a step behind, at or ahead of the table's, an action
of the right shape for another seat or for nobody, a step written as ``true`` or ``1.0``.

Whatever it sends, every honest program stops the table naming that seat and nobody else, in
words, with no traceback: a game message that is not the sender's own move at its own step
cannot be right. Quick in the suite (one lie a game); ``P2PCARDS_LONG=1`` sends twenty a game."""

from __future__ import annotations

import logging
import os
import random

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.engine.requests import Decide
from p2pcards.lobby import play_seat
from p2pcards.table import TableStopped
from tests.mesh.helpers import NAMES, close_all, run_async

from .test_table_rules import honest_results, table_of

pytestmark = pytest.mark.network

LIES = 20 if os.environ.get("P2PCARDS_LONG") == "1" else 1
GAMES = ["go-out-girl", "out-of-this-world", "girl-and-robot"]
ODD = [None, True, False, 1.0, -1, 2**63, "1", "", [], {}, [1], {"name": "pass"}, "x" * 3000]


def hostile_body(rng: random.Random, step: int, table) -> object:
    """One game message a modified client might sign, given the table's step."""
    near = rng.choice([step - 1, step, step + 1, step + rng.randint(2, 50), 0])
    req = table.state.pending()  # the moves the seat to move may make: right shape, wrong author
    legal = [a.to_json() for a in table.state.legal(req.player)][:20] if isinstance(req, Decide) \
        else []
    action = rng.choice([*legal, *legal, {"name": "pass"}, {"name": "nonsense"}, *ODD])
    kind = rng.randrange(1, 6)  # (a body that is not an object never leaves: the envelope
    if kind == 1:               # layer refuses it, tests/mesh/test_envelope.py)
        return {"step": rng.choice(ODD), "action": action}
    if kind == 2:
        return {"step": near}  # no action
    if kind == 3:
        return {"step": near, "action": action, rng.choice(["x", "seat", "step2"]): rng.choice(ODD)}
    return {"step": near, "action": action}


def lie_at_random(table, rng: random.Random, sent: list) -> None:
    """``table``'s client sends one hostile game message the ``k``-th time it waits for another
    seat's move (k random), then plays on honestly."""
    real = table._their_decision
    when = rng.randint(0, 6)
    waits = [0]

    async def their_decision(player):
        waits[0] += 1
        if waits[0] == when + 1 and not sent:
            body = hostile_body(rng, table.step, table)
            sent.append(body)
            await table.channel.broadcast("game", body)
        return await real(player)

    table._their_decision = their_decision


@pytest.mark.parametrize("case", range(LIES * len(GAMES)))
@run_async(timeout=120)
async def test_any_game_message_that_is_not_the_senders_move_names_it_everywhere(
        tmp_path, caplog, case):
    caplog.set_level(logging.INFO)
    game = GAMES[case % len(GAMES)]
    rng = random.Random(1000 + case)
    n = 3 if game != "girl-and-robot" else 4
    liar = rng.randrange(n)
    meshes = await table_of(tmp_path, n, game)
    sent: list = []
    try:
        async def seat(m):
            bot = make_bot(game, m.seat, "easy", m.seat)
            hook = (lambda t: lie_at_random(t, rng, sent)) if m.seat == liar else None
            return await play_seat(m, bot, on_table=hook, say=lambda s: None, deck_timeout=20)

        results = await honest_results(meshes, seat, liar, keep=lambda: not sent)
        if not sent:  # the game ended before the lie's moment: nothing to judge
            assert not any(isinstance(r, BaseException) for r in results), results
            return
        honest = [r for i, r in enumerate(results) if i != liar]
        assert all(isinstance(r, TableStopped) for r in honest), (sent, results)
        assert all(r.culprit == liar and NAMES[liar] in r.reason for r in honest), (sent, results)
        assert "Traceback" not in caplog.text
        assert all(len(r.reason) < 400 for r in honest)
    finally:
        await close_all(meshes)
