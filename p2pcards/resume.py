"""Taking a seat back (``join --resume``) and a table's result from one's own record when the
table no longer answers: which record to resume, looking for the others until they answer, and
the match's result when it is over (``p2pcards/net.py`` runs these for ``join`` and ``bot``)."""

from __future__ import annotations

import asyncio
from typing import Any

from protocol.identity import Identity
from protocol.mesh import JoinFailed, Mesh, MeshError
from protocol.transcript import find_transcripts, read_transcript

from .absence import clock_text
from .checks import checked_code
from .engine import ConfigError
from .lobby import WAIT, GameInfo
from .table import TableResult
from .ui.text import say
from .ui.waiting import resuming_text

RESUME_LOOK = (10.0, 600.0)  # a resume looks for the others the table's wait, within these
RELAY_GRACE = 15.0  # seconds a comeback waits on a silent seat once the last other answered
LOOK_FIRST, LOOK_EVERY = 5.0, 10.0  # seconds to the first "still looking", then between them
# (three times that after the first minute)


def _someone(name: str, host: bool, addr: str) -> str:
    """"alice (the host, at 10.0.0.5:7000)": a player as a resume looks for them."""
    where = addr.removeprefix("tcp://")
    return f"{name} (the host, at {where})" if host else f"{name} (at {where})"


def _resume_patience(mesh: Mesh) -> float:
    """How long a resume looks for the others: as long as the table waits for an absent player
    (``host --wait``: by then, without us, the match has ended), within ``RESUME_LOOK``."""
    try:
        wait = GameInfo.from_json(mesh.game_info).wait
    except ConfigError:
        wait = WAIT
    return min(max(wait, RESUME_LOOK[0]), RESUME_LOOK[1])


async def _find_the_others(mesh: Mesh, patience: float, relay_grace: float = RELAY_GRACE) -> None:
    """After ``join --resume``: wait until every seated player's program has answered (directly,
    or through the others' relays: a seat whose own link to us fails plays on through them),
    saying who answers and, every few seconds, whom it still looks for; Ctrl-C stops it with a
    word (the record is untouched: the seat can be taken back later). Once some have answered,
    a seat still silent ``relay_grace`` seconds after the last answer is left to the table's
    away rules (it waits for them as for any absent player, and the others hear what we send
    through each other): waiting on here would leave us away, and named (red team 12, H2b).
    Nobody answering within ``patience`` seconds ends it with a ``MeshError`` naming who could
    not be reached. A stop that arrives meanwhile is left to the table, which shows it."""
    loop = asyncio.get_running_loop()
    start = last_answer = loop.time()
    next_word = start + LOOK_FIRST
    seated = {m.seat: m for m in mesh.roster if m.seat != mesh.seat}
    answered: list[int] = []

    def who(seats: list[int]) -> str:
        return ", ".join(_someone(seated[s].name, s == 0, seated[s].addr) for s in seats)

    try:
        while True:
            missing = [s for s in mesh.not_heard_from() if s in seated]
            through = set(mesh.heard_through_others())
            for s in sorted(set(seated) - set(missing) - set(answered)):
                answered.append(s)
                last_answer = loop.time()
                say(f"{seated[s].name} answered through the others (their program does not reach "
                    "yours directly; the others carry what you send each other)." if s in through
                    else f"{seated[s].name} answered.")
            if not missing:
                say("Everyone answered: back at the table.")
                return
            if mesh.stopped is not None:
                return
            now = loop.time()
            if answered and now - last_answer >= relay_grace:
                say(f"{who(missing)} {'has' if len(missing) == 1 else 'have'} not answered, "
                    "directly or through the others: back at the table, which waits for them "
                    "as for any absent player.")
                return
            if now - start >= patience:
                got = ", ".join(seated[s].name for s in answered)
                raise MeshError(
                    f"could not reach {who(missing)} within {clock_text(patience)}; "
                    f"{got + ' answered' if got else 'nobody answered'}.{_ended(mesh, patience, got)}"
                    " Your seat is saved: try 'p2pcards join --resume' again later, once they are "
                    "back")
            if now >= next_word:
                next_word = now + (LOOK_EVERY if now - start < 60 else 3 * LOOK_EVERY)
                say(f"  still looking for {who(missing)}: {clock_text(now - start)} of at most "
                    f"{clock_text(patience)} (Ctrl-C stops; your seat stays saved)")
            await asyncio.sleep(0.2)
    except (asyncio.CancelledError, KeyboardInterrupt):
        say("Stopped looking for the others; nothing is lost: 'p2pcards join --resume' takes "
            "your seat back later.")
        raise


def _ended(mesh: Mesh, patience: float, answered: str) -> str:
    """When nobody answered for as long as the table waits for an absent player: what that most
    likely means (a person whose program crashed was told to try "once they are back", as if
    the match still waited for them)."""
    try:
        wait = GameInfo.from_json(mesh.game_info).wait
    except ConfigError:
        return ""
    if answered or patience < wait:
        return ""
    return (f" Their table waits {clock_text(wait)} for an absent player, and you have been away "
            "longer: unless their programs are all down too, their match has most likely ended "
            "without you.")


def _over_on_record(me: Identity, home: str | None, address: str,
                    ) -> tuple[TableResult, list[str], int] | None:
    """When the table at ``address`` no longer answers: our own record of its match, if the match
    is over in it (marked finished, or complete and clean on an offline audit). A peer that
    crashed after the last move and comes back once the others have gone gets the result there
    instead of an error (issue 16)."""
    from .audit import audit_transcript
    from .replay import Verdict
    from .ui.text import outcome_words

    for path in find_transcripts(home):
        try:
            t = read_transcript(path, me, tolerate_torn_tail=True)
        except MemoryError:  # said as such (cli.main), not taken for "no record of it"
            raise
        except Exception:  # noqa: BLE001 -- an unreadable transcript is not this table's record
            continue
        roster = {m.get("seat"): m for m in t.roster if isinstance(m, dict)}
        host = str(roster.get(0, {}).get("addr", "")).removeprefix("tcp://")
        if t.key != me.key_hex or host != address.removeprefix("tcp://") or t.stop is not None:
            continue
        names = [str(roster.get(s, {}).get("name", "?")) for s in range(t.seats)]
        if t.finished and isinstance(t.result, dict):
            outcome, clean = t.result.get("outcome"), t.result.get("verdict")
            verdict = None if clean is None else Verdict(bool(clean), outcome=outcome)
        else:
            audit = audit_transcript(str(path))
            if not (audit.clean and audit.verdict is not None):
                return None
            outcome, verdict = audit.verdict.outcome, audit.verdict
        return (TableResult(outcome, verdict, 0, text=outcome_words(outcome, names)), names,
                t.seat)
    return None


async def _join_or_record(me: Identity, address: str, code: str | None, name: str, bind: str,
                          home: str | None) -> Mesh | tuple[TableResult, list[str], int]:
    code = checked_code(code)
    try:
        return await Mesh.join(me, address, code, name, bind=bind, home=home)
    except JoinFailed:
        found = _over_on_record(me, home, address)
        if found is None:
            raise
        say(f"The table at {address} no longer answers: the match is over and the others have "
            "left. Your own record of it:")
        return found


async def _resume_latest(me: Identity, home: str | None, bind: str
                         ) -> Mesh | tuple[TableResult, list[str], int]:
    """The newest unfinished table of ours, resumed. When our newest table is already over (a
    crash just after the last move: the record was finished before the program died), its
    result from our own record instead of an error."""
    newest = None
    damaged: list[tuple[Any, str]] = []  # (path, why), newest first
    for path in find_transcripts(home):
        try:
            t = read_transcript(path, me, tolerate_torn_tail=True)
        except MemoryError:  # ours or not, say so: "nothing to resume" would be a lie
            raise MeshError(f"this machine ran out of memory reading the record {path}; close "
                            "other programs and try again (nothing was changed)") from None
        except Exception as exc:  # noqa: BLE001 -- damaged: no seat can be taken back from it
            damaged.append((path, str(exc)))
            continue
        if t.key != me.key_hex:
            continue
        if not t.finished and t.stop is None:
            from .journal import journal_lost

            lost = journal_lost(t)
            if lost is not None:  # said before the table is contacted
                raise MeshError(lost)
            roster = [m for m in t.roster if isinstance(m, dict) and m.get("seat") != t.seat]
            others = ", ".join(_someone(str(m.get("name", "?")), m.get("seat") == 0,
                                        str(m.get("addr", "?")))
                               for m in sorted(roster, key=lambda m: str(m.get("seat")).zfill(3)))
            table = resuming_text(str(t.game_info.get("game", "?")), t.created, t.seat,
                                  t.seats, path.name)
            say(f"{table}: looking for the other players: {others}..." if others else
                f"{table}; nobody else is seated yet.")
            # its failure is told in words (another program holds the seat, say), not taken
            # for "nothing to resume"
            return await Mesh.resume(me, transcript=path, bind=bind, home=home)
        newest = newest or t
    if newest is not None and newest.finished:
        roster = {m.get("seat"): m for m in newest.roster if isinstance(m, dict)}
        address = str(roster.get(0, {}).get("addr", "")).removeprefix("tcp://")
        found = _over_on_record(me, home, address)
        if found is not None:
            say(f"Your last table ({address}) is over; there is nothing to resume. Your own "
                "record of it:")
            return found
    if newest is not None and newest.stop is not None:
        raise MeshError("your last table stopped (see `p2pcards tables`); there is nothing to "
                        "resume")
    if damaged:  # "no unfinished table" would hide it (red team 18)
        path, why = damaged[0]
        raise MeshError(f"there is no unfinished table to resume that can be read: the record "
                        f"{path} is damaged ({why.removeprefix(f'{path}, ')}), so no seat can be "
                        "taken back from it ('p2pcards tables' lists the records)")
    raise MeshError("there is no unfinished table to resume on this machine")
