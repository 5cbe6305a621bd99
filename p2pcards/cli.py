"""The ``p2pcards`` command."""

from __future__ import annotations

from typing import Annotated

import typer

from .engine import ConfigError
from .games import game_class, names

app = typer.Typer(
    help="Peer-to-peer card games on a LAN: no server, no trusted dealer, a solver at your elbow.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

GameArg = Annotated[str, typer.Argument(help=f"The game: {', '.join(names())}.",
                                        show_default=False)]


def fail(message: str, code: int = 2) -> None:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(code)


def check_game(game: str) -> str:
    try:
        game_class(game)
    except ConfigError as exc:
        fail(str(exc))
    return game


def game_options(difficulty: str | None = None, adventure: str | None = None,
                 euro: bool = False) -> dict:
    """Only the options the user gave; each game refuses the ones it does not have."""
    opts: dict = {}
    if difficulty is not None:
        opts["difficulty"] = difficulty
    if adventure is not None:
        opts["adventure"] = adventure
    if euro:
        opts["euro"] = True
    return opts


@app.command()
def play(
    game: GameArg,
    players: Annotated[int, typer.Option(min=2, max=5, help="Seats at the table.")] = 4,
    bots: Annotated[int | None, typer.Option(min=0, max=5, help="Seats played by bots "
                                             "(default: all but yours).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
    difficulty: Annotated[str | None, typer.Option(help="Out Of This World difficulty.")] = None,
    adventure: Annotated[str | None, typer.Option(help="Out Of This World adventure.")] = None,
    euro: Annotated[bool, typer.Option("--euro", help="The Girl and the Robot's Euro variant.")] = False,
    bot_level: Annotated[str, typer.Option(help="random, easy, normal or strong.")] = "easy",
) -> None:
    """Play in-process against bots (one human at this prompt), or watch bots play."""
    from .ui.local import Quit, play_local

    check_game(game)
    if bots is None:
        bots = players - 1
    try:
        final = play_local(game, players, bots, seed, game_options(difficulty, adventure, euro),
                           bot_level, hinter=_hinter(game))
    except ConfigError as exc:
        fail(str(exc))
    except Quit:
        typer.echo("You left the game.")
        raise typer.Exit(0) from None
    except KeyboardInterrupt:
        typer.echo("\nInterrupted.")
        raise typer.Exit(130) from None
    result = final.outcome() or {}
    typer.echo(f"Result: {summarise(final, result)}")


def summarise(state, result: dict) -> str:
    if "winner" in result and hasattr(state, "pname"):
        return f"{state.pname(result['winner'])} wins ({result})"
    return str(result)


def _hinter(game: str):
    try:
        from solver.hints import hinter_for
    except ImportError:
        return None
    return hinter_for(game)


def _position_command(run, json_out: bool) -> None:
    """Run a solver position command; malformed positions are reported, never a traceback."""
    import json

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
    typer.echo(json.dumps(result, indent=2) if json_out else text)


@app.command()
def solve(
    file: Annotated[str, typer.Argument(help="A full-information position (docs/puzzles.md).",
                                        show_default=False)],
    json_out: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """Solve a puzzle exactly: does the player to move have a forced win?"""
    def run():
        from solver import positions

        return positions.solve(positions.read(file))

    _position_command(run, json_out)


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

    _position_command(run, json_out)


@app.command()
def rules(game: GameArg) -> None:
    """Print a game's card data and the house rules p2pcards uses where the rulebook is silent."""
    check_game(game)
    try:
        typer.echo(game_class(game).rules_text())
    except ConfigError as exc:
        fail(str(exc))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
