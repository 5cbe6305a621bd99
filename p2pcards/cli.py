"""The ``p2pcards`` command."""

from __future__ import annotations

from typing import Annotated

import typer

from .checks import finite_seconds, seconds_not_negative
from .engine import ConfigError
from .games import game_class, names

app = typer.Typer(
    help="Peer-to-peer card games on a LAN: no server, no trusted dealer, a solver at your elbow.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: flags show no '<bool>' placeholder
)


def _version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"p2pcards {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Peer-to-peer card games on a LAN: no server, no trusted dealer, a solver at your elbow."""

GameArg = Annotated[str, typer.Argument(help=f"The game: {', '.join(names())}.",
                                        show_default=False)]


def fail(message: str, code: int = 2) -> None:
    from .ui.text import printable  # a reason may quote a peer or a file

    typer.secho(f"error: {printable(message)}", fg=typer.colors.RED, err=True)
    raise typer.Exit(code)


def check_level(level: str) -> str:
    from .bots.registry import LEVELS

    if level not in LEVELS:
        fail(f"unknown bot level {level!r}; choose one of: {', '.join(LEVELS)}")
    return level


def check_game(game: str) -> str:
    try:
        game_class(game)
    except ConfigError as exc:
        fail(str(exc))
    return game


def check_options(game: str, options: dict) -> dict:
    """``options`` (from ``game_options``) if ``game`` takes them all; else an error naming the
    options as they are typed (``--time-tokens``), not as the game's keys (``time_tokens``)."""
    from .engine import join_names
    from .ui.present import presenter_for

    def flag(key: str) -> str:
        return "--" + key.replace("_", "-")

    takes = game_class(game).OPTIONS
    unknown = [k for k in options if k not in takes]
    if unknown:
        fail(f"{presenter_for(game).title} has no option{'s' if len(unknown) > 1 else ''} "
             f"{join_names(flag(k) for k in unknown)} (it takes "
             f"{join_names(flag(k) for k in takes) if takes else 'none'})")
    return options


def game_options(difficulty: str | None = None, adventure: str | None = None,
                 euro: bool = False, time_tokens: int | None = None, act2: bool = False) -> dict:
    """Only the options the user gave (``check_options`` refuses those a game does not take)."""
    opts: dict = {}
    if difficulty is not None:
        opts["difficulty"] = difficulty
    if adventure is not None:
        opts["adventure"] = adventure
    if euro:
        opts["euro"] = True
    if time_tokens is not None:
        opts["time_tokens"] = time_tokens
    if act2:
        opts["act2"] = True
    return opts


def _screen(plain: bool) -> bool:
    """Whether to open the full-screen table: not with --plain, nor when standard input or
    output is not a terminal (pipes, scripts, tests, screen readers)."""
    import os
    import sys

    return not plain and sys.stdin.isatty() and sys.stdout.isatty() and sys.stderr.isatty() and \
        os.environ.get("TERM") != "dumb"


PlainOpt = Annotated[bool, typer.Option("--plain", help="Line mode: a plain prompt instead of "
                                        "the full-screen table (chosen anyway when input or "
                                        "output is not a terminal).")]


ForcedOpt = Annotated[float, typer.Option(callback=finite_seconds, help="Seconds a single forced "
                                          "option is shown before it is taken (a negative "
                                          "value waits for Enter).")]


@app.command()
def play(
    game: GameArg,
    players: Annotated[int, typer.Option(min=2, max=5, help="Seats at the table.")] = 4,
    bots: Annotated[int | None, typer.Option(min=0, max=5, help="Seats played by bots "
                                             "(default: all but yours).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
    difficulty: Annotated[str | None, typer.Option(help="Out Of This World difficulty.")] = None,
    adventure: Annotated[str | None, typer.Option(help="Out Of This World adventure.")] = None,
    time_tokens: Annotated[int | None, typer.Option(help="Patrol the Block: Time tokens, 8 or "
                                                    "less for a harder game.")] = None,
    euro: Annotated[bool, typer.Option("--euro", help="The Girl and the Robot's Euro variant.")] = False,
    act2: Annotated[bool, typer.Option("--act2", help="The Girl and the Robot: put Act II in the deck "
                                       "(a longer game).")] = False,
    bot_level: Annotated[str, typer.Option(help="random, easy, normal or strong.")] = "easy",
    plain: PlainOpt = False,
    forced_delay: ForcedOpt = 1.0,
    pace: Annotated[float, typer.Option(callback=seconds_not_negative, help="Seconds between the bots' moves on the "
                                        "full-screen table.")] = 0.5,
) -> None:
    """Play in-process against bots (one human at this terminal), or watch bots play. The game
    is saved: 'p2pcards tables' lists it, 'p2pcards replay' steps through it."""
    from .ui.hints import advisor
    from .ui.local import Quit, play_local

    check_game(game)
    check_level(bot_level)
    if bots is None:
        bots = players - 1
    options = check_options(game, game_options(difficulty, adventure, euro, time_tokens, act2))
    if _screen(plain):
        _play_screen(game, players, bots, seed, options, bot_level, forced_delay, pace)
        return
    try:
        final = play_local(game, players, bots, seed, options, bot_level, hinter=advisor(game),
                           save=True)
    except ConfigError as exc:
        fail(str(exc))
    except Quit as exc:
        saved = f" (saved: {exc.saved})" if hasattr(exc, "saved") else ""
        typer.echo(f"You left the game{saved}.")
        raise typer.Exit(0) from None
    except KeyboardInterrupt as exc:
        saved = f" (saved: {exc.saved}; 'p2pcards replay' steps through it)" \
            if hasattr(exc, "saved") else ""
        typer.echo(f"\nInterrupted: the game stopped before its end{saved}.")
        raise typer.Exit(130) from None
    typer.echo(f"Result: {final.result_text()}")


def _play_screen(game: str, players: int, bots: int, seed: int | None, options: dict,
                 bot_level: str, forced_delay: float, pace: float) -> None:
    from .ui.app import Left, TableApp
    from .ui.hints import advisor
    from .ui.present import presenter_for
    from .ui.session import LocalGame

    try:
        lg = LocalGame(game, players, bots, seed, options, bot_level)
    except ConfigError as exc:
        fail(str(exc))
    app_ = TableApp(game, lg.seat, lg.run, names=lg.names, hinter=advisor(game), who=lg.who,
                    forced_delay=forced_delay, pace=pace,
                    title=presenter_for(game).title)
    result = app_.run()
    saved = f" (saved: {lg.recorder.path})" if lg.recorder is not None else ""
    if lg.recorder is not None and lg.recorder.error is not None:
        typer.echo(lg.recorder.error)
        saved = ""
    if isinstance(result, Left):
        typer.echo(f"You left the game{saved}.")
        return
    if isinstance(result, Exception):
        raise result
    final = lg.state
    if not final.result_text():  # the table closed by a signal (kill -INT, a terminal hung up)
        typer.echo(f"Interrupted: the game stopped before its end{saved}. 'p2pcards replay' steps "
                   "through it.")
        raise typer.Exit(130)
    typer.echo(f"Result: {final.result_text()}{saved}")


def _position_command(run, json_out: bool, file: str) -> dict:
    """Run a solver position command and print its answer (returned too); malformed positions
    are reported, never a traceback."""
    import json

    from .ui.saved import sniff

    if not file:
        fail("no file given: name a position file (docs/puzzles.md)")
    if sniff(file) in ("local", "transcript"):
        fail(f"{file} is a saved game, not a position: step through it with "
             f"p2pcards replay {file}")

    try:
        from solver.errors import PositionError
    except ImportError:
        fail("the solver is not installed")
    try:
        result, text = run()
    except PositionError as exc:
        fail(f"bad position: {exc}")
    except ConfigError as exc:
        fail(str(exc))
    from .ui.text import printable  # a puzzle file's title and seat names are anyone's text

    typer.echo(json.dumps(result, indent=2) if json_out else printable(text))
    return result


class _Searching:
    """What ``solve`` says on standard error while it searches, once it has taken
    ``SHOW_AFTER`` seconds: at a terminal one line that counts on, elsewhere one line."""

    SHOW_AFTER = 1.5

    def __init__(self, time_limit: float) -> None:
        import sys

        self.err = sys.stderr
        self.tty = self.err.isatty()
        self.upto = f"at most {time_limit:g} s, " if time_limit else ""
        self.shown = 0  # the width of the line at a terminal, or 1 once printed elsewhere

    def report(self, nodes: int, seconds: float) -> None:
        if seconds < self.SHOW_AFTER:
            return
        if self.tty:
            line = (f"searching… {nodes:,} positions, {seconds:.0f} s ({self.upto}"
                    "Ctrl-C to stop)")
            self.err.write("\r" + line.ljust(self.shown))
            self.shown = max(self.shown, len(line))
        elif not self.shown:
            self.err.write(f"searching… ({self.upto}Ctrl-C to stop)\n")
            self.shown = 1
        self.err.flush()

    def done(self) -> None:
        if self.tty and self.shown:  # the answer starts on a clean line
            self.err.write("\r" + " " * self.shown + "\r")
            self.err.flush()


@app.command()
def solve(
    file: Annotated[str, typer.Argument(help="A full-information position (docs/puzzles.md).",
                                        show_default=False)],
    json_out: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", callback=seconds_not_negative, help="Seconds the search may take (0: no limit). Past it, or "
        "on Ctrl-C, the best answer found so far (if any) is printed, marked not proven "
        "(exit 1; 130 for Ctrl-C).")] = 60,
) -> None:
    """Solve a puzzle exactly: does the player to move have a forced win?"""
    searching = _Searching(time_limit)

    def run():
        from solver import positions
        from solver.limits import Limit

        data = positions.read(file)
        try:
            return positions.solve(data, Limit(time_limit, searching.report))
        finally:
            searching.done()

    try:
        result = _position_command(run, json_out, file)
    except KeyboardInterrupt:  # before the search or after it: nothing to show
        searching.done()
        typer.echo("Stopped (Ctrl-C): no answer.", err=True)
        raise typer.Exit(130) from None
    if result.get("stopped") == "interrupted":
        raise typer.Exit(130)
    if not result.get("proven", True):
        raise typer.Exit(1)


@app.command()
def hint(
    position: Annotated[str | None, typer.Option("--position", help="A position file "
                                                 "(docs/puzzles.md): a full position or one "
                                                 "seat's view.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the advice as JSON.")] = False,
    seed: Annotated[int, typer.Option(help="Seed of the advisor's sampling.")] = 0,
) -> None:
    """Advice for the seat to move in a position, from what that seat can see. (During a game,
    type 'hint' at your prompt.)"""
    if position is None:
        fail("give a position file with --position FILE (during a game, type 'hint' at the prompt)")

    def run():
        from solver import positions

        return positions.hint(positions.read(position), seed)

    _position_command(run, json_out, position)


@app.command()
def rules(
    game: GameArg,
    brief: Annotated[bool, typer.Option("--brief", help="Only how a turn goes, without the card "
                                        "data and house rules.")] = False,
) -> None:
    """How a turn goes in a game, then its card data and the house rules p2pcards uses where
    the rulebook is silent."""
    from .ui.present import presenter_for

    check_game(game)
    typer.echo(presenter_for(game).rules())
    if brief:
        return
    try:
        typer.echo("\n" + game_class(game).rules_text())
    except ConfigError as exc:
        fail(str(exc))


# ---- networked play ---------------------------------------------------------------------------

BindOpt = Annotated[str, typer.Option(help="Where to listen: an IPv4 address of this machine or "
                                      "an interface name (eth0); 0.0.0.0 is every interface, "
                                      "127.0.0.1 keeps the table on this machine.")]


SAME_AGAIN = "run the same command again to take your seat back"
DEMO_AGAIN = "the demo has no seat to take back: 'p2pcards demo' plays a new game"
HOST_AGAIN = "'p2pcards join --resume' takes your seat back while the others wait"  # not 'host'


def _network_errors(fn, rejoin: str = SAME_AGAIN):
    """Run a network command, turning every expected failure into a clear one-line message.
    ``rejoin`` says how this command's seat is taken back (for ``host``, rerunning the command
    would open a new table: ``join --resume`` takes the seat back)."""
    import asyncio
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from protocol.identity import IdentityError
        from protocol.mesh import MeshError
        from protocol.transcript import TranscriptError

        from .net import Interrupted, NotSeated
        from .table import TableStopped
        from .ui.terminal import Left

        try:
            return asyncio.run(fn(*args, **kwargs))
        except Left as exc:
            from .ui.waiting import left_text

            typer.echo(left_text(exc.wait))
            raise typer.Exit(0) from None
        except TableStopped as exc:
            # not "error: ...": this program did not fail, the match ended (a cheat caught, a
            # player gone past the wait), and "error:" read as the reader's own program broken
            # (ux23); the exit status stays 3
            from .ui.text import printable
            from .ui.waiting import recheck

            record = getattr(exc, "record", None)
            what = f"The match ended with no winner: the table stopped: {exc.reason}"
            if record is not None:  # what now: the record is kept, and re-checked offline
                what = f"{what}\n{recheck(record)}"
            typer.secho(printable(what), fg=typer.colors.RED, err=True)
            raise typer.Exit(3) from None
        except TimeoutError as exc:
            fail(str(exc) or f"a network operation timed out; {rejoin}", 1)
        except (ConfigError, MeshError, IdentityError, TranscriptError, OSError) as exc:
            from .environment import write_failure

            fail((isinstance(exc, OSError) and write_failure(exc, rejoin)) or str(exc)
                 or f"{type(exc).__name__} (no details)", 1)
        except KeyboardInterrupt:
            typer.echo(f"\nInterrupted. {rejoin[0].upper()}{rejoin[1:]}.")
            raise typer.Exit(130) from None
        except Interrupted as exc:
            from .ui.waiting import interrupted_text

            again = "'p2pcards join --resume' takes it back" if rejoin == HOST_AGAIN else \
                "run the same command again to take it back"
            typer.echo("\n" + interrupted_text(again, exc.wait))
            raise typer.Exit(130) from None
        except NotSeated:
            typer.echo("\nInterrupted before you had a seat: there is none to take back.")
            raise typer.Exit(130) from None
    return wrapper


@app.command()
def host(
    game: GameArg,
    players: Annotated[int, typer.Option(min=2, max=5, help="Seats at the table.")] = 4,
    bots: Annotated[int, typer.Option(min=0, max=4, help="Seats filled by bots (each its own "
                                      "process on this machine).")] = 0,
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any).")] = 0,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "host",
    bind: BindOpt = "0.0.0.0",
    difficulty: Annotated[str | None, typer.Option(help="Out Of This World difficulty.")] = None,
    adventure: Annotated[str | None, typer.Option(help="Out Of This World adventure.")] = None,
    time_tokens: Annotated[int | None, typer.Option(help="Patrol the Block: Time tokens, 8 or "
                                                    "less for a harder game.")] = None,
    euro: Annotated[bool, typer.Option("--euro", help="The Girl and the Robot's Euro variant.")] = False,
    act2: Annotated[bool, typer.Option("--act2", help="The Girl and the Robot: put Act II in the deck "
                                       "(a longer game).")] = False,
    bot_level: Annotated[str, typer.Option(help="Level of the bots: random, easy, normal, strong.")] = "easy",
    discovery: Annotated[bool, typer.Option(help="Advertise the table on the LAN (mDNS).")] = True,
    autoplay: Annotated[bool, typer.Option(hidden=True, help="A bot plays the host's seat.")] = False,
    wait: Annotated[float, typer.Option(min=1, max=86400, help="Seconds the table waits for an "
                                        "absent player before ending the match.")] = 120,
    turn_time: Annotated[float | None, typer.Option(min=0, max=86400, help="Seconds for a turn "
                                                    "(default 300 for a person, 30 for a bot; "
                                                    "0: no limit); then the seat's bot plays.",
                                                    show_default=False)] = None,
    plain: PlainOpt = False,
) -> None:
    """Open a table: prints its address and code; others run 'p2pcards join'."""
    check_game(game)
    check_level(bot_level)
    if bots > players - 1:
        fail(f"--bots can fill at most {players - 1} of {players} seats (one is yours)")
    options = check_options(game, game_options(difficulty, adventure, euro, time_tokens, act2))
    from .net import host_table

    _network_errors(host_table, HOST_AGAIN)(game, players, options,
                                bots=bots, port=port, name=name, bind=bind, bot_level=bot_level,
                                discovery=discovery, autoplay=autoplay, wait=wait,
                                turn_time=turn_time, screen=_screen(plain) and not autoplay)


@app.command()
def join(
    address: Annotated[str | None, typer.Argument(help="HOST:PORT of the table; omit to look "
                                                  "for tables on the LAN.", show_default=False)] = None,
    code: Annotated[str | None, typer.Option(help="The table code the host printed.")] = None,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "player",
    bind: BindOpt = "0.0.0.0",
    resume: Annotated[bool, typer.Option("--resume", help="Take your seat back at the table you "
                                         "were playing (after a crash).")] = False,
    plain: PlainOpt = False,
) -> None:
    """Join a table (or take your seat back after a crash: run the same command again)."""
    from .net import join_table

    result = _network_errors(join_table)(address, code, name, bind=bind, resume=resume,
                                         screen=_screen(plain))
    if result is None:  # no table found (or none picked)
        raise typer.Exit(1)


@app.command()
def bot(
    address: Annotated[str, typer.Argument(help="HOST:PORT of the table.", show_default=False)],
    code: Annotated[str | None, typer.Option(help="The table code.", envvar="P2PCARDS_CODE",
                                             show_envvar=False)] = None,
    name: Annotated[str, typer.Option(help="The bot's name at the table.")] = "bot",
    level: Annotated[str, typer.Option("--bot-level", "--level",
                                       help="random, easy, normal or strong.")] = "easy",
    bind: BindOpt = "0.0.0.0",
    json_result: Annotated[bool, typer.Option("--json", help="Print the result as one JSON "
                                              "line.")] = False,
    patience: Annotated[float, typer.Option(min=1, help="Seconds to wait for an absent player "
                                            "before giving up (at least as long as the table "
                                            "itself can wait).")] = 1800,
) -> None:
    """Sit a bot at a table, as its own process (run again after a crash to resume its seat)."""
    check_level(level)
    from .botseat import bot_seat

    _network_errors(bot_seat)(address, code, name, level=level, bind=bind, json_result=json_result,
                              patience=patience)


@app.command()
def demo(
    game: Annotated[str, typer.Argument(help=f"The game: {', '.join(names())}.")] = "go-out-girl",
    players: Annotated[int, typer.Option(min=2, max=5, help="Peers (separate processes).")] = 4,
    level: Annotated[str, typer.Option("--bot-level", "--level",
                                       help="random, easy, normal or strong.")] = "easy",
) -> None:
    """A complete game between peers as separate processes on 127.0.0.1, with the mental-poker
    deck and the end-of-game audit."""
    check_game(game)
    check_level(level)
    from .demo import run_demo

    ok = _network_errors(run_demo, DEMO_AGAIN)(game, players, level)
    if not ok:
        raise typer.Exit(1)


@app.command()
def tables() -> None:
    """List the games saved on this machine (networked transcripts and local games), newest
    first."""
    import datetime
    import os

    from protocol.transcript import TranscriptError, find_transcripts, read_transcript

    from .environment import tables_problem
    from .ui import saved
    from .ui.text import printable, shell_path

    problem = tables_problem(saved.tables_dir())
    if problem is not None:  # not "no saved games yet": they may well be there
        fail(problem)
    paths = sorted([*find_transcripts(), *saved.find_local_games()],
                   key=lambda p: p.stat().st_mtime if p.exists() else 0, reverse=True)
    if not paths:
        typer.echo("No saved games yet (they are kept in the data directory under tables/).")
        return
    odd = False
    for path in paths:
        shown, quoted = shell_path(path)  # a name that is not UTF-8: as bash takes it back
        odd = odd or quoted
        if saved.is_local(path):
            try:
                g = saved.read(path)
            except ConfigError as exc:
                typer.echo(printable(f"{shown}\n    unreadable: {exc}"))
                continue
            when = datetime.datetime.fromtimestamp(g.created).strftime("%Y-%m-%d %H:%M")
            you = "watched" if g.seat is None else f"seat {g.seat + 1} of {g.players}"
            state = "finished" if g.finished else "unfinished"
            typer.echo(printable(f"{when}  {g.game}  local, {you}  [{', '.join(g.names)}]  "
                                 f"{state}\n    {shown}"))
            continue
        try:
            t = read_transcript(path, tolerate_torn_tail=True)
        except (TranscriptError, OSError) as exc:
            typer.echo(printable(f"{shown}\n    unreadable: {exc}"))
            continue
        when = datetime.datetime.fromtimestamp(t.created).strftime("%Y-%m-%d %H:%M")
        names = ", ".join(str(m.get("name", "?")) for m in sorted(t.roster, key=lambda m: m.get("seat", 0)))
        state = ("finished" if t.finished else
                 f"stopped: {str(t.stop.get('reason'))[:120]}" if t.stop is not None else
                 "unfinished (p2pcards join --resume)")
        typer.echo(printable(f"{when}  {t.game_info.get('game', '?')}  seat {t.seat + 1} of "
                             f"{t.seats}  [{names}]  {state}\n    {shown}"))
    if odd:
        typer.echo("A name written $'...' is not UTF-8 (or holds control characters): paste it "
                   "as it is written into bash or zsh.")
    typer.echo(f"Step through one: p2pcards replay FILE [--seat N]{os.linesep}", nl=False)


@app.command()
def replay(
    transcript: Annotated[str, typer.Argument(help="A saved game (see 'p2pcards tables').",
                                              show_default=False)],
    seat: Annotated[int | None, typer.Option(min=1, max=5, help="Whose view to show (1 is "
                                             "the first seat); default: yours, or a "
                                             "spectator's.")] = None,
    spectator: Annotated[bool, typer.Option("--spectator", help="Show only the public cards."
                                            )] = False,
    plain: PlainOpt = False,
) -> None:
    """Step forward and back through a finished game as one seat saw it (or as a spectator)."""
    from .ui import saved
    from .ui.text import printable, shell_path

    try:
        g = saved.load_any(transcript, None if spectator else
                           (seat - 1 if seat is not None else saved.OWNER))
        if g.viewer is not None:  # a networked game: the one view its record holds
            who = None if g.viewer == saved.SPECTATOR else g.viewer
        else:
            who = None if spectator else (seat - 1 if seat is not None else g.seat)
        frames = saved.frames(g, who)
    except ConfigError as exc:
        fail(str(exc))
    if not _screen(plain):
        cut = " -- unfinished: the record stops early" if saved.unfinished(frames) else ""
        typer.echo(printable(f"Replay of {shell_path(g.path)[0]} ({g.game}: {', '.join(g.names)}), "
                             f"{'as a spectator' if who is None else 'as ' + g.names[who] + ' saw it'}"
                             f"{cut}"))
        for line in [*frames[-1].log, *frames[-1].view.status(who)]:
            typer.echo(printable(line, newlines=False))  # each entry one line  # names and results are anyone's text
        return
    from .ui.present import presenter_for
    from .ui.replay_screen import ReplayApp

    ReplayApp(g.game, who, frames, names=g.names, title=presenter_for(g.game).title).run()


@app.command()
def audit(
    transcript: Annotated[str, typer.Argument(help="A transcript file (see 'p2pcards tables').",
                                              show_default=False)],
    json_out: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Check a game's transcript: signatures and chains, the deck audit (every proof, the proofs
    of claims about hidden cards among them), and a replay of the whole game on this seat's view
    (no hidden card is opened). Exits 1 on a bad game."""
    from pathlib import Path

    from .audit import audit_transcript
    from .ui.saved import companion, is_local, sniff

    if not transcript:
        fail("no file given: name a transcript (p2pcards tables lists them)")
    if not Path(transcript).exists():
        from .ui.text import no_file

        fail(no_file(transcript))
    if Path(transcript).is_dir():
        fail(f"{transcript} is a folder, not a transcript (p2pcards tables lists them)")
    if not Path(transcript).is_file():  # opening a pipe would wait for a writer for ever
        fail(f"{transcript} is not a file (a pipe or a device), not a transcript")
    from .environment import unreadable

    if (why := unreadable(transcript)) is not None:  # not a "damaged record": the file is whole
        fail(why)
    if is_local(transcript):
        fail(f"{transcript} is a local game: its dealer was this machine, so there is no deck "
             f"to audit; step through it with: p2pcards replay {transcript}")
    if sniff(transcript) == "puzzle":
        fail(f"{transcript} is not a transcript: it looks like a puzzle "
             f"(p2pcards solve {transcript})")
    if (beside := companion(transcript, "audit")) is not None:
        fail(beside)
    try:
        report = audit_transcript(transcript)
    except ConfigError as exc:
        fail(str(exc), 2)
    except KeyboardInterrupt:  # (an audit of a long match takes a while)
        typer.echo("\nInterrupted: the audit was not finished, so it has no verdict; the record "
                   "is untouched.", err=True)
        raise typer.Exit(130) from None
    if json_out:
        import json

        typer.echo(json.dumps(report.to_json()))
    else:
        from .ui.text import printable  # the record holds peers' words (the host's game, ...)

        for line in report.lines():
            typer.echo(printable(line, newlines=False))  # each entry one line
    raise typer.Exit(0 if report.clean else 1)


def main() -> None:
    """The console script. Bad input is refused where it is read, with a message; what is left
    is a bug: one line on the terminal, the traceback in ``crash.log`` in the data directory."""
    from . import environment as env

    env.safe_streams()
    problem = env.home_problem()
    if problem is not None:  # every command names the data folder (its log, its games)
        env.say_error(f"error: {problem}")
        raise SystemExit(2)
    env.log_to_file()
    try:
        app()
    except MemoryError:  # not a bug of ours to report; saying so must not need memory either
        env.say_error("error: p2pcards ran out of memory. Saved games and transcripts are kept; "
                      "close other programs and try again.")
        raise SystemExit(71) from None  # EX_OSERR
    except Exception as exc:  # noqa: BLE001 -- the last line of defence, never a raw traceback
        if isinstance(exc, OSError) and env.output_broken(exc):
            env.say_error(f"error: cannot write output: {exc.strerror or exc}")
            raise SystemExit(74) from None  # EX_IOERR; not a bug: no crash.log
        where = env.crash_log(exc)
        seat = " 'p2pcards join --resume' takes a seat back." \
            if _command() in ("host", "join", "bot") else ""
        env.say_error(f"error: p2pcards hit an internal error ({type(exc).__name__}: {exc}). "
                      f"{where} Saved games and transcripts are kept.{seat}")
        raise SystemExit(70) from None


def _command() -> str | None:
    """The command on the command line (``play``, ``join``...), if any."""
    import sys

    return next((a for a in sys.argv[1:] if not a.startswith("-")), None)


if __name__ == "__main__":
    main()
