"""``p2pcards bot``: a bot sitting at a table as its own process (the host's ``--bots`` start
these), or taking its seat back after a crash; ``--json`` prints its result as one line."""

from __future__ import annotations

import asyncio
import json
import os
import time

from protocol.identity import Identity
from protocol.mesh import JoinRefused, Mesh, MeshError

from .absence import ABSENCE_IN_ALL
from .bots.pacing import seat_bot
from .checks import checked_address, checked_bind, checked_name
from .lobby import TURN_GRACE, GameInfo, play_seat
from .net import NotSeated, _results, _say_result, say
from .resume import _join_or_record
from .table import TableResult


def _print_json(seat: int, name: str, result: TableResult, t0: float,
                from_record: bool = False) -> None:
    """The bot's result as one JSON line (``--json``); ``from_record``: the table was over
    before the bot came back, its result read from the transcript."""
    v = result.verdict
    out = {"seat": seat, "name": name, "outcome": result.outcome,
           "verdict": None if v is None else {"clean": v.clean, "culprit": v.culprit,
                                              "reason": v.reason},
           "steps": 0 if from_record else result.steps,
           "wall_s": round(time.perf_counter() - t0, 3),
           "timings": {} if from_record else {k: round(x, 3) for k, x in result.timings.items()}}
    if from_record:
        out["from_record"] = True
    out["compared"] = False if from_record else result.compared
    print(json.dumps(out), flush=True)


def table_patience(patience: float, seats: int, wait: float) -> float:
    """How long a bot waits for absent players: ``patience``, but never less than the table
    itself can wait for them before it ends the match -- each other seat up to
    ``ABSENCE_IN_ALL`` times the table's wait over the match, one after another -- and a little
    more (a stop's claim window, a reminder). A bot that gave up sooner left a table that was
    still waiting within its rules: the absent player came back, and the table named the bot
    (red team 14: a table waiting an hour, a player away 31 minutes, the bot's 30 gone)."""
    return max(patience, (seats - 1) * ABSENCE_IN_ALL * wait + TURN_GRACE)


async def _patience(mesh: Mesh, patience: float) -> None:
    """Returns once some seat has been away for ``patience`` seconds in a row."""
    since: float | None = None
    while True:
        await asyncio.sleep(1.0)
        if mesh.away:
            since = since or time.monotonic()
            if time.monotonic() - since >= patience:
                return
        else:
            since = None


async def bot_seat(address: str, code: str | None, name: str, *, level: str, bind: str,
                   json_result: bool, patience: float = 1800.0,
                   home: str | None = None) -> TableResult:
    address = checked_address(address)
    checked_name(name)
    bind = checked_bind(bind)
    me = Identity.load_or_create(home)
    if me.note is not None:
        say(f"Warning: {me.note}")
    t0 = time.perf_counter()
    try:
        mesh = await _join_or_record(me, address, code, name, bind, home)
    except JoinRefused as exc:
        raise MeshError(f"the table refused the bot: {exc.reason}") from None
    except asyncio.CancelledError:  # Ctrl-C while joining: the bot has no seat to take back
        raise NotSeated() from None
    if isinstance(mesh, tuple):
        result, names, seat = mesh
        if json_result:
            _print_json(seat, names[seat], result, t0, from_record=True)
        else:
            _say_result(result, names)
        return result
    try:
        info = GameInfo.from_json(mesh.game_info)
        quiet = (lambda text: None) if json_result else say
        bot = seat_bot(info.game, mesh.seat, level, int.from_bytes(os.urandom(4), "big"))
        game = asyncio.create_task(play_seat(mesh, bot, say=quiet, bot=True))
        patience = table_patience(patience, mesh.seats, info.wait)
        watch = asyncio.create_task(_patience(mesh, patience))
        done, _ = await asyncio.wait({game, watch}, return_when=asyncio.FIRST_COMPLETED)
        if game not in done:
            game.cancel()
            raise MeshError(f"gave up after waiting {patience:.0f} s for "
                            f"{', '.join(mesh.waiting_for()) or 'an absent player'}; "
                            "run the same command to sit the bot down again")
        watch.cancel()
        result = game.result()
        if json_result:
            _print_json(mesh.seat, mesh.name, result, t0)
        else:
            _results(mesh, result)
        return result
    finally:
        await mesh.close()
