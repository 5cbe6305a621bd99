"""The flows behind ``p2pcards host``, ``join`` and ``bot`` (``demo``: ``p2pcards/demo.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from typing import Any

from protocol.identity import Identity, data_dir
from protocol.mesh import JoinRefused, Mesh, MeshError
from protocol.roster import names_clash, seat_number_in

from .absence import clock_text, counted_away, match_left
from .bots.pacing import seat_bot
from .checks import checked_address, checked_bind, checked_code, checked_name
from .lobby import (
    BOTS_FINISH,
    WAIT,
    GameInfo,
    bots_end,
    end_bots,
    play_seat,
    spawn_bot,
    until_dealt,
)
from .resume import _find_the_others, _join_or_record, _resume_latest, _resume_patience
from .table import TableResult, TableStopped
from .ui.text import hanging, printable, say, type_a_number, typed_number
from .ui.waiting import comings_and_goings, kept, over


def _code_hint(mesh: Mesh) -> str:
    return f"p2pcards join {mesh.address.removeprefix('tcp://')} --code {mesh.code}"


def _results(mesh: Mesh, result: TableResult) -> None:
    _say_result(result, [mesh.name_of(s) for s in range(mesh.seats)])


def _what_next(mesh: Mesh) -> None:
    """After a person's match: where it is kept, and what to do with it."""
    if mesh.transcript_path is not None:
        say(kept(mesh.transcript_path))


def _say_result(result: TableResult, names: list[str]) -> None:
    say(f"Result: {result.text}")
    if result.verdict is not None:
        say(f"Audit: {result.verdict.text(names)}")


async def host_table(game: str, players: int, options: dict[str, Any], *, bots: int, port: int,
                     name: str, bind: str, bot_level: str, discovery: bool, autoplay: bool,
                     home: str | None = None, screen: bool = False, wait: float = WAIT,
                     turn_time: float | None = None) -> TableResult:
    checked_name(name)
    bind = checked_bind(bind)
    info = GameInfo(game, players, options, wait, turn_time)
    info.check()
    me = Identity.load_or_create(home)
    # a person at the host's terminal deals when they say so, and may remove a seat first
    hold = not autoplay and sys.stdin.isatty()
    mesh = await Mesh.host(me, players, port=port, game_info=info.to_json(), name=name, bind=bind,
                           home=home, hold=hold)
    procs: list[subprocess.Popen] = []
    ad = None
    dealt = over = False
    try:
        with _lobby_signals() as closed_by:
            try:
                if me.note is not None:
                    say(f"Warning: {me.note}")
                say(f"Table open for {game}, {players} seats. Your fingerprint: {me.fingerprint}")
                say(f"Address: {mesh.address.removeprefix('tcp://')}   Table code: {mesh.code}")
                say(f"Others join with:  {_code_hint(mesh)}")
                say(info.settings_text())
                if discovery:
                    ad = await _advertise(mesh, game, players, me, bind)
                bot_home = data_dir(home) / "bots" / mesh.table
                for i in range(bots):
                    procs.append(spawn_bot(mesh.address.removeprefix("tcp://"), mesh.code or "",
                                           name=f"bot{i + 1}", level=bot_level,
                                           home=bot_home / str(i), extra=["--bind", bind]))
                await _wait_for_players(mesh, ad, _stdin_lines() if hold else None)
            except (asyncio.CancelledError, KeyboardInterrupt, MeshError) as exc:
                # the person closed the table in the lobby ('quit', Ctrl-C, a closed terminal):
                # everyone seated is told, and the table is over (not one to resume)
                why = closed_by() or ("Ctrl-C" if not isinstance(exc, MeshError) else None)
                if why is None and str(exc) != CLOSED_IN_LOBBY:
                    raise
                mesh.stop(None, "the table was closed before the deal")
                if isinstance(exc, asyncio.CancelledError):
                    _uncancel()
                raise MeshError(CLOSED_IN_LOBBY + (f" ({why})" if why else "")) from None
        dealt = True
        player = seat_bot(game, mesh.seat, bot_level) if autoplay else _terminal(mesh)
        result = await _played(mesh, player, screen)
        over = True
        _results(mesh, result)
        if not autoplay:
            _what_next(mesh)
        return result
    finally:
        if ad is not None:
            await ad.close()
        if dealt and not over and mesh.stopped is None:
            # a host that leaves a running match keeps its seat ('join --resume') and its bots
            # stay at the table with the others: they end with the match, or once the table
            # has waited its --wait for the host in vain
            await mesh.close()
        else:
            if dealt:  # the match is over: the bots compare transcripts and end by themselves
                await bots_end(procs, BOTS_FINISH)
            await mesh.close()
            end_bots(procs)  # stopped (SIGTERM, then SIGKILL) and reaped


CLOSED_IN_LOBBY = "you closed the table before the deal"
def _uncancel() -> None:
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()


@contextlib.contextmanager
def _lobby_signals():
    """While the host's table waits for its players, SIGTERM and SIGHUP (the terminal closed)
    end the lobby the way Ctrl-C does: the table is closed and its bots are stopped, instead of
    the program vanishing and leaving them to wait. Yields a function giving the signal's name
    once one came. (After the deal, the signals are as before: the seat is kept for a resume.)"""
    import signal

    got: list[str] = []
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    installed = []

    def on_signal(name: str) -> None:
        if not got:
            got.append(name)
            if task is not None:
                task.cancel()

    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            before = signal.getsignal(sig)
            loop.add_signal_handler(sig, on_signal, name)
        except (NotImplementedError, RuntimeError, ValueError):  # not here (Windows, a thread)
            continue
        installed.append((sig, before))
    try:
        yield lambda: got[0] if got else None
    finally:
        for sig, before in installed:
            loop.remove_signal_handler(sig)
            with contextlib.suppress(TypeError, ValueError):
                signal.signal(sig, before)


BROWSE_SECONDS = 3.0  # how long join listens for tables on the LAN


def _discovery_scope(bind: str) -> dict[str, Any]:
    """mDNS goes where the mesh listens: on every interface for a wildcard ``--bind``, else on
    the bound address only (``interfaces`` for zeroconf, ``addresses`` to advertise)."""
    if bind in ("0.0.0.0", "*", ""):
        return {}
    return {"interfaces": [bind], "addresses": [bind]}


async def _advertise(mesh: Mesh, game: str, players: int, me: Identity, bind: str):
    from protocol.discovery import advertise

    try:
        return await advertise(mesh.name, mesh.port, game=game, free=mesh.free_seats,
                               seats=players, fingerprint=me.fingerprint, **_discovery_scope(bind))
    except (RuntimeError, OSError) as exc:
        say(f"(not advertised on the LAN: {exc}; players can still join by address)")
        return None


async def _wait_for_players(mesh: Mesh, ad: Any, lines: Any = None) -> None:
    """Say who joins until the table is full. With ``lines`` (what the host types, an async
    iterator), the host holds the deal: ``who`` lists the seats with their fingerprints,
    ``kick N`` (a seat number or a name) frees a seat before the deal, and ``deal`` (or Enter)
    deals once the table is full."""
    q = mesh.subscribe()
    if lines is None:
        while not mesh.full:
            say(f"Waiting for players: {mesh.seats - mesh.free_seats} of {mesh.seats} seated.")
            ev = await q.get()
            if ev.kind == "joined":
                say(f"{ev.name} joined.")
                if ad is not None:
                    await ad.update(mesh.free_seats)
        mesh.seal()  # a held table (a host back after a crash, no terminal) deals once full
    else:
        await _hold_the_deal(mesh, ad, q, lines)
    say("The table is full: " + ", ".join(mesh.name_of(s) for s in range(mesh.seats)))
    if ad is not None:
        await ad.close()


LOBBY_HELP = ("who: the seats and fingerprints   kick N: free seat N (or kick NAME) before the "
              "deal   deal (or Enter): deal, once the table is full   quit: close the table")


async def _hold_the_deal(mesh: Mesh, ad: Any, q: asyncio.Queue, lines: Any) -> None:
    def state() -> None:
        if mesh.full:
            say("The table is full. Check the fingerprints ('who'); type 'deal' (or press "
                "Enter) to deal, or 'kick N' to free seat N.")
        else:
            say(f"Waiting for players: {mesh.seats - mesh.free_seats} of {mesh.seats} seated "
                "('who', 'kick N', 'help').")

    state()
    typed = asyncio.ensure_future(anext(lines, None))
    events = asyncio.ensure_future(q.get())
    freed: set[int] = set()  # seats given back by a player who left before the deal
    try:
        while True:
            done, _ = await asyncio.wait({typed, events}, return_when=asyncio.FIRST_COMPLETED)
            if events in done:
                ev = events.result()
                events = asyncio.ensure_future(q.get())
                if ev.kind == "left" and _free_left_seat(mesh, ev.seat):
                    freed.add(ev.seat)
                    say(f"{ev.name} left before the deal; seat {ev.seat + 1} is free again.")
                elif ev.kind == "removed" and ev.seat in freed:
                    freed.discard(ev.seat)
                    if ad is not None:
                        await ad.update(mesh.free_seats)
                    state()
                elif ev.kind in ("joined", "removed"):
                    say(f"{ev.name} ({ev.detail}) joined at seat {ev.seat + 1}."
                        if ev.kind == "joined" else f"{ev.name} was removed from seat {ev.seat + 1}.")
                    if ad is not None:
                        await ad.update(mesh.free_seats)
                    state()
            if typed not in done:
                continue
            line = typed.result()
            typed = asyncio.ensure_future(anext(lines, None))
            if line is None or line.strip().lower() in ("quit", "q", "exit"):
                raise MeshError(CLOSED_IN_LOBBY)
            word, _, arg = line.strip().partition(" ")
            word = word.lower()
            if word in ("", "deal", "start") and mesh.full:
                mesh.seal()
                return
            if word in ("", "deal", "start"):
                state()
            elif word == "who":
                for text in _who(mesh):
                    say(text)
            elif word in ("kick", "remove"):
                say(_kick(mesh, arg.strip()))
            else:
                say(LOBBY_HELP)
    finally:
        typed.cancel()
        events.cancel()


def _free_left_seat(mesh: Mesh, seat: int) -> bool:
    """A player who left the held lobby on their own (a signed bye: say it found the
    announcement it picked was forged) gives the seat back: the seat is freed as by ``kick``,
    but the key is not barred, so the player may sit down again (say, by the right address)."""
    if mesh.sealed or seat == mesh.seat or seat not in mesh.left:
        return False
    if all(m.seat != seat for m in mesh.roster):
        return False
    mesh.remove(seat, bar=False)
    return True


def _kick(mesh: Mesh, arg: str) -> str:
    """``kick N`` (or ``kick seat N``), ``kick NAME`` or ``kick FINGERPRINT``: the answer in one
    line. The host seats no name that reads as a seat number (``reads_as_seat``); should one be
    seated all the same (a roster from an earlier version), what could mean two seats removes
    nobody, and the fingerprint says which (red team 15b: a joiner named "2", shown as
    "seat 3: 2", had 'kick 2' remove and bar the honest player at seat 2)."""
    word, _, rest = arg.partition(" ")
    n = typed_number(rest.strip()) if word.lower() == "seat" else None
    n = n if n is not None else typed_number(arg)
    seated = {m.seat: m for m in mesh.roster}
    could = {n - 1} if n is not None else set()
    for m in seated.values():
        if arg.casefold() in (m.name.casefold(), m.fingerprint.casefold()) or \
                (n is not None and (seat_number_in(m.name) == n or names_clash(m.name, arg))):
            could.add(m.seat)
    could &= set(seated)
    if len(could) > 1:
        which = " or ".join(f"seat {s + 1} ({seated[s].name} [{seated[s].fingerprint}])"
                            for s in sorted(could))
        return (f"(nobody removed: '{printable(arg, newlines=False)[:40]}' could be {which}; "
                "type 'kick seat N' or 'kick' and the fingerprint of the one to remove)")
    seat = next(iter(could), None)
    if seat is None:
        return f"(nobody to remove: '{printable(arg, newlines=False)[:40]}' is not a seated "\
               "player's seat number or name; 'who' lists them)"
    if seat == mesh.seat:
        return "(that is your own seat; 'quit' closes the table)"
    try:
        name = mesh.remove(seat)
    except MeshError as exc:
        return f"({exc})"
    return (f"{name} is removed from seat {seat + 1}; their key cannot sit down again at this "
            "table. The seat is free for someone else.")


async def _stdin_lines():
    """What is typed at the terminal, line by line, without a thread left blocked on stdin."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    fd = sys.stdin.fileno()

    def readable() -> None:
        line = sys.stdin.readline()
        queue.put_nowait(line.rstrip("\n") if line else None)

    loop.add_reader(fd, readable)
    try:
        while (line := await queue.get()) is not None:
            yield line
    finally:
        loop.remove_reader(fd)


def _terminal(mesh: Mesh):
    from .ui.terminal import TerminalPlayer

    return TerminalPlayer(mesh.seat, who=lambda: _who(mesh), hinter=_hinter(mesh),
                          out=lambda text: print(hanging(text), flush=True),
                          absent=lambda: _absent(mesh), seats=mesh.seats,
                          wait=GameInfo.from_json(mesh.game_info).wait)


def _hinter(mesh: Mesh):
    """The solver's advice for the plain prompt, which names the option ("Hint: option 6, ...")
    as the full-screen table highlights it."""
    from .ui.hints import advisor

    return advisor(GameInfo.from_json(mesh.game_info).game)


def _fingerprint(mesh: Mesh, seat: int) -> str:
    for m in mesh.roster:
        if m.seat == seat:
            return m.fingerprint
    return "?"


def _who(mesh: Mesh) -> list[str]:
    """``who``: every seat, with its player's fingerprint; a free seat says so, and a player who
    is gone whether they left (a signed leave) or went quiet, and for how long."""
    lines = []
    seated = {m.seat for m in mesh.roster}
    now = time.monotonic()
    for s in range(mesh.seats):
        if s not in seated:
            lines.append(f"  seat {s + 1}: free")
            continue
        tag = " (you)" if s == mesh.seat else ""
        gone = ""
        if s in mesh.away:
            since = clock_text(max(0.0, now - mesh.away_since.get(s, now)))
            gone = f" — left the table {since} ago" if s in mesh.left else f" — away for {since}"
        lines.append(f"  seat {s + 1}: {mesh.name_of(s)}{tag} [{_fingerprint(mesh, s)}]{gone}")
    return lines


def _absent(mesh: Mesh) -> list[Any]:
    """The seats the table waits for, for the screen's line about it (``ui/waiting.py``)."""
    from .ui.waiting import Absent

    now = time.monotonic()
    counted = counted_away(mesh)  # a spell, or the spells since the game last moved
    in_match = match_left(mesh)
    # every other seat away: "you are cut off ... for" the spells as they run. Otherwise the
    # table's own count, which leaves out this program's pauses and the time it heard nobody
    # (red team 22: after alice's own cut of 0:40, "bob is away (0:45)" where 0:05 counted)
    alone = mesh.seats > 2 and all(s in mesh.away for s in range(mesh.seats) if s != mesh.seat)

    def seconds(s: int) -> float:
        spell = max(now - mesh.away_since.get(s, now), 0.0)
        return counted[s] if s in counted and not alone else max(spell, counted.get(s, 0.0))

    return [Absent(s, mesh.name_of(s), _fingerprint(mesh, s), seconds(s), s in mesh.left,
                   in_match.get(s))
            for s in sorted(mesh.away) if s != mesh.seat]


async def _seats_taken(mesh: Mesh, every: float = 0.25) -> None:
    """A joiner's wait for the deal, in words: seats taken as others sit down, and once every
    seat is taken that the host deals when they are ready (a joiner used to sit with "The host
    deals once every seat is taken" and no word more, not knowing whether it was)."""
    taken, full = -1, False
    while not mesh.sealed and mesh.seat != 0:
        now = mesh.seats - mesh.free_seats
        if now != taken and now < mesh.seats and taken >= 0:
            say(f"{now} of {mesh.seats} seats taken.")
        if now == mesh.seats and not full:
            say(f"Every seat is taken: {mesh.name_of(0)}, the host, deals when they are ready.")
        taken, full = now, now == mesh.seats
        await asyncio.sleep(every)


def _intro(mesh: Mesh, resumed: bool = False) -> list[str]:
    """The first lines of a seat's table: the players, the settings, and for a seat taken back
    with ``join --resume`` that it is back (the search's lines went by before the full-screen
    table opened, and its log started as if nothing had happened)."""
    lines = ["Players: " + ", ".join(f"{mesh.name_of(s)} ({_fingerprint(mesh, s)})"
                                     for s in range(mesh.seats)),
             GameInfo.from_json(mesh.game_info).settings_text()]
    if resumed:
        lines.append(f"You took your seat back at seat {mesh.seat + 1}: your program caught up "
                     "from its own record and the others'; the game so far follows, and the "
                     "table goes on from where it paused.")
    return lines


async def _played(mesh: Mesh, player: Any, screen: bool, resumed: bool = False) -> TableResult:
    """``_play``; a stop carries this seat's record (``record``), which the command names with
    how to re-check it. Ctrl-C (SIGINT, which cancels the command) becomes ``Interrupted``
    carrying the table's wait, for the words on how long the others wait."""
    try:
        return await _play(mesh, player, screen, resumed)
    except TableStopped as exc:
        exc.record = mesh.transcript_path  # type: ignore[attr-defined]
        raise
    except asyncio.CancelledError:
        _uncancel()
        # (before the deal there is no match to wait in)
        raise Interrupted(GameInfo.from_json(mesh.game_info).wait if mesh.sealed else None) \
            from None


class Interrupted(Exception):
    """Ctrl-C once seated at a dealt table (a signal: input from a pipe or a file, where no
    prompt reads the key): the seat is kept, and the others wait ``wait`` seconds for it."""

    def __init__(self, wait: float | None = None) -> None:
        super().__init__()
        self.wait = wait


async def _play(mesh: Mesh, player: Any, screen: bool = False,
                resumed: bool = False) -> TableResult:
    """Run the seat; a human's prompt runs alongside and can chat through the table (on the
    full-screen table when ``screen``)."""
    from .ui.terminal import TerminalPlayer

    if not isinstance(player, TerminalPlayer):
        return await play_seat(mesh, player, say=say, bot=True)
    lobby = asyncio.create_task(_seats_taken(mesh))
    try:
        await until_dealt(mesh, say)
    finally:
        lobby.cancel()
    intro = _intro(mesh, resumed)
    if screen:
        return await _on_screen(mesh, intro)
    for line in intro:
        say(line)
    say("Type 'help' for the commands.")

    def attach(table):
        player.chat = table.send_chat
        player.live = lambda: table.state

    with _above_the_prompt():
        return await _play_human(mesh, player, attach)


async def _on_screen(mesh: Mesh, intro: list[str]) -> TableResult:
    from .ui.app import Left as ScreenLeft
    from .ui.hints import advisor
    from .ui.netscreen import play_on_screen
    from .ui.present import presenter_for
    from .ui.terminal import Left

    game = GameInfo.from_json(mesh.game_info).game
    names = [mesh.name_of(s) for s in range(mesh.seats)]

    def run_seat(player, *, say, on_table):
        return play_seat(mesh, player, say=say, on_table=on_table)

    def result_lines(result: TableResult) -> list[str]:
        v = result.verdict
        return ([] if v is None else [f"Audit: {v.text(names)}"]) + (
            [kept(mesh.transcript_path)] if mesh.transcript_path is not None else [])

    try:
        return await play_on_screen(game, mesh.seat, names, run_seat, who=lambda: _who(mesh),
                                    record=mesh.transcript_path,
                                    hinter=advisor(game), intro=intro,
                                    title=presenter_for(game).title, result_lines=result_lines,
                                    seat_tags=lambda: {s: _fingerprint(mesh, s) + (
                                        " · away" if s in mesh.away else "")
                                        for s in range(mesh.seats)},
                                    absent=lambda: _absent(mesh),
                                    wait=GameInfo.from_json(mesh.game_info).wait)
    except ScreenLeft:
        raise Left(GameInfo.from_json(mesh.game_info).wait) from None


def _above_the_prompt():
    """At a terminal, table events print above the prompt line (prompt_toolkit's patch_stdout)."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        from prompt_toolkit.patch_stdout import patch_stdout

        return patch_stdout(raw=True)
    return contextlib.nullcontext()


def _table_lines(mesh: Mesh, player: Any = None) -> Any:
    """``say`` for the plain prompt's table lines: once the table has stopped or the match is
    over, the programs leaving or going quiet after it are no news ("** bot1 (seat 2, ...) left
    the table." came after "** the table stopped: ...", or just before "Result:", as if bot1 had
    a part in it). ``player`` hears each line
    (its question names the last one about someone else as what triggered it)."""
    def told(line: str) -> None:
        live = getattr(player, "live", None)
        if comings_and_goings(line) and (mesh.stopped is not None or (
                live is not None and over(live()))):  # the match over: no news either
            return
        if player is not None:
            player.heard(line)
        say(line)
    return told


async def _play_human(mesh: Mesh, player: Any, attach: Any) -> TableResult:
    from .ui.terminal import Left

    player.name = mesh.name_of(mesh.seat)
    game = asyncio.create_task(play_seat(mesh, player, say=_table_lines(mesh, player),
                                         on_table=attach))
    typing = asyncio.create_task(player.run_input())
    try:
        done, _ = await asyncio.wait({game, typing}, return_when=asyncio.FIRST_COMPLETED)
        if game in done and not (game.exception() and isinstance(game.exception(), Left)):
            return game.result()
        # the player left: stop, keeping everything on disk for a later rejoin
        game.cancel()
        with contextlib.suppress(asyncio.CancelledError, Left):
            await game
        raise Left(GameInfo.from_json(mesh.game_info).wait)
    finally:
        typing.cancel()


class NotSeated(Exception):
    """Ctrl-C while ``join`` looked for a table or asked for a seat: there is none to take back."""


async def join_table(address: str | None, code: str | None, name: str, *, bind: str,
                     resume: bool, home: str | None = None,
                     screen: bool = False) -> TableResult | None:
    if not resume:
        checked_name(name)
    bind = checked_bind(bind)
    me = Identity.load_or_create(home)
    if me.note is not None:
        say(f"Warning: {me.note}")
    say(f"Your fingerprint: {me.fingerprint}")
    if resume:
        mesh = await _resume_latest(me, home, bind)
    else:
        picked = None
        try:
            if address is None:
                picked = await _pick_table(bind)
                if picked is None:
                    return None
                address = picked.address
            address = checked_address(address)
            code = checked_code(code)  # a mistyped code is said before any network
            await _resolves(address)
            if code is None and sys.stdin.isatty():
                code = _ask("Table code: ")
            records_before = _records(home)  # (a seat of ours there already: the same join again)
            mesh = await _join_or_record(me, address, code, name, bind, home)
        except JoinRefused as exc:
            if picked is not None and exc.reason.startswith(WRONG_CODE):
                raise MeshError(_not_your_code(picked)) from None
            raise MeshError(f"the table refused to seat you: {exc.reason}") from None
        except asyncio.CancelledError:  # Ctrl-C while looking or joining: there is no seat yet
            raise NotSeated() from None
        if picked is not None and not isinstance(mesh, tuple):
            await _check_announced(mesh, picked)
    if isinstance(mesh, tuple):
        result, names, _ = mesh
        _say_result(result, names)
        return result
    try:
        if resume and (mesh.sealed or mesh.seat != 0):  # (a holding host gets its lobby)
            await _find_the_others(mesh, _resume_patience(mesh))
        say(f"Seated at {mesh.address.removeprefix('tcp://')} as seat {mesh.seat + 1}.")
        if not mesh.full:
            say("Waiting for the table to fill...")
        if not mesh.sealed and mesh.seat == 0:
            # our program held the deal and crashed before it: we hold it again (at a terminal,
            # the lobby prompt; otherwise the deal goes ahead once the table is full)
            say("You host this table and have not dealt yet.")
            await _wait_for_players(mesh, None, _stdin_lines() if sys.stdin.isatty() else None)
        elif not mesh.sealed:
            say("The host deals once every seat is taken (and may free a seat before that).")
        # dealt already when seated, at a seat taken back (join --resume, or the same join again:
        # our record of the table was there before). A new seat is dealt in at once when the
        # host does not hold the deal: it is no seat taken back.
        back = resume or mesh.transcript_path in records_before
        result = await _played(mesh, _terminal(mesh), screen, resumed=back and mesh.sealed)
        _results(mesh, result)
        _what_next(mesh)
        return result
    finally:
        await mesh.close()


async def _resolves(address: str) -> None:
    """A host name that names no machine, or a machine where nothing listens at that port, is
    said at once, not as "no answer from tcp://nohost:80 within 10 s" ten seconds later (a
    ZeroMQ connection retries a refused one quietly). Anything else (no answer yet, a machine
    that drops the connection unanswered) is left to the join, which says more."""
    import socket

    host, _, port = address.removeprefix("tcp://").rpartition(":")
    host = host.strip("[]")
    try:
        await asyncio.wait_for(asyncio.get_running_loop().getaddrinfo(host, None), 10)
    except (socket.gaierror, UnicodeError):
        raise MeshError(f"{printable(host)!r} names no machine this one can find (the name does "
                        "not resolve): use the address the host printed, like "
                        "192.168.1.20:41234") from None
    except (TimeoutError, OSError):  # no answer from the name service: the join says more
        return
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, int(port)), 3)
    except ConnectionRefusedError:
        raise MeshError(f"nothing at {printable(host)}:{port} takes the connection (it was "
                        "refused): check the port the host printed, and that its table is still "
                        "open") from None
    except (TimeoutError, OSError, ValueError):
        return
    writer.close()


def _records(home: str | None) -> set[Any]:
    """The table records on this machine now (``tables/``), as paths."""
    from protocol.transcript import find_transcripts

    try:
        return set(find_transcripts(home))
    except OSError:  # unreadable: the join says so where it writes its own
        return set()


def _ask(prompt: str) -> str | None:
    """A line from the person at the terminal; ``None`` at end of input (Ctrl-D)."""
    try:
        return input(prompt).strip() or None
    except EOFError:
        say("")
        return None


WRONG_CODE = "wrong table code"  # the start of the mesh's reason when the connection is refused


def _not_your_code(picked: Any) -> str:
    """What a table picked from the LAN list that refuses the code's connection tells the
    person: the code may be wrong, or the announcement may not be their host's -- anyone on
    the LAN can announce a table under any name and fingerprint, pointing at their own (red
    team 15b: a stranger's lure had the person told only "wrong table code", and re-type a
    right one)."""
    return (f"the table at {picked.address} did not accept your table code. Either the code is "
            f"wrong, or the announcement '{printable(picked.name, newlines=False)}' you picked is "
            "not your host's table (anyone on the LAN can announce one, under any name and "
            f"fingerprint). Check the code, the address and the fingerprint "
            f"({picked.fingerprint}) with the host, and join by the address: p2pcards join "
            "HOST:PORT --code CODE")


async def _check_announced(mesh: Mesh, picked: Any) -> None:
    """A table picked from the LAN list must be hosted by the key its announcement named: the
    list is not authenticated, and anyone on the LAN can answer under a host's name (pointing
    at another table, or with another fingerprint). On a mismatch the *announcement* is what
    was wrong: leave at once with a signed bye (before the deal, so a host holding the deal
    frees the seat), and say so without calling the table at that address an impostor."""
    host = next((m for m in mesh.roster if m.seat == 0), None)
    if host is not None and host.fingerprint != picked.fingerprint:
        await mesh.close()  # a signed bye to everyone seated
        path = mesh.transcript_path
        if path is not None and path.exists():
            # nothing of a game in it: set aside, so that neither 'join --resume' offers this
            # table nor a join by the right address meets "a transcript already exists"
            with contextlib.suppress(OSError):
                os.replace(path, path.with_name(path.name + ".left"))
        raise MeshError(
            f"the announcement '{printable(picked.name, newlines=False)}' you picked was wrong or "
            f"forged: it gave the host fingerprint {picked.fingerprint}, but the host of the "
            f"table at {picked.address} has the key {host.fingerprint}. You left that table "
            "again before the deal. Ask the host for the address and fingerprint and join by "
            "the address: p2pcards join HOST:PORT --code CODE")


async def _pick_table(bind: str) -> Any:
    """The table (``TableInfo``) found on the LAN: the person picks one from the list (or the
    only one, when nobody is at a terminal to ask); ``None`` when there is none to pick. The
    list is what strangers on the LAN announce: shown one line per table, escapes escaped."""
    from protocol.discovery import browse

    say("Looking for tables on the LAN...")
    try:
        scope = _discovery_scope(bind)
        scope.pop("addresses", None)
        tables = await browse(BROWSE_SECONDS, **scope)
    except (RuntimeError, OSError) as exc:
        raise MeshError(f"cannot look for tables on the LAN ({exc}); join by address: "
                        "p2pcards join HOST:PORT --code CODE") from None
    if not tables:
        say("No open table found (a table stops being listed once every seat is taken). Ask "
            "the host for its address and code: p2pcards join HOST:PORT --code CODE")
        return None
    for i, t in enumerate(tables, 1):
        say(f"  {i}. {printable(str(t), newlines=False)}")
    if any(t.conflict > 1 for t in tables):
        say("Some table is announced more than once under one name: at most one of those "
            "announcements is the host's, the others are wrong or forged. Check the address "
            "and fingerprint with the host.")
    if any(t.shared > 1 for t in tables):
        say("One host fingerprint is announced at several places under different names (a "
            "look-alike name can carry a host's true fingerprint): check the name, address and "
            "fingerprint with the host.")
    if not sys.stdin.isatty():
        if len(tables) == 1 and tables[0].conflict <= 1:
            return tables[0]
        if len(tables) == 1:  # marked alone: the others under its name were goodbyes (or unlisted)
            say("Not taken without a person to choose: join it by its address, p2pcards join "
                "HOST:PORT --code CODE")
            return None
        say("Several tables found: join one by its address, p2pcards join HOST:PORT --code CODE")
        return None
    while True:
        choices = "1" if len(tables) == 1 else f"1-{len(tables)}"
        text = _ask(f"Which table ({choices}, or q to stop)? ")
        if text is None or text.lower() in ("q", "quit"):
            return None
        n = typed_number(text)
        if n is not None and 1 <= n <= len(tables):
            return tables[n - 1]
        say(f"{type_a_number(len(tables)).capitalize()}, or q.")
