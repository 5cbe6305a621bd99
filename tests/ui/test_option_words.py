"""Red team: an option a game does not take was named in the error as the engine's key
(``time_tokens``), not as the option the person typed (``--time-tokens``)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from p2pcards import cli

runner = CliRunner()

pytestmark = pytest.mark.usefixtures("keep_the_loggers", "home")


@pytest.mark.parametrize(("args", "message"), [
    (["play", "go-out-girl", "--time-tokens", "5"],
     "Go Out Girl has no option --time-tokens (it takes none)"),
    (["play", "go-out-girl", "--act2", "--euro"],
     "Go Out Girl has no options --euro and --act2 (it takes none)"),
    (["play", "girl-and-robot", "--adventure", "x", "--time-tokens", "2"],
     "The Girl and the Robot has no options --adventure and --time-tokens (it takes --euro and "
     "--act2)"),
    (["play", "out-of-this-world", "--euro"],
     "Out Of This World has no option --euro (it takes --difficulty, --adventure and "
     "--time-tokens)"),
    (["host", "go-out-girl", "--time-tokens", "3"],
     "Go Out Girl has no option --time-tokens (it takes none)"),
])
def test_an_option_a_game_does_not_take_is_named_as_typed(args, message):
    r = runner.invoke(cli.app, [*args, "--plain", "--bots", "2", "--players", "3"])
    assert r.exit_code == 2, r.output
    assert r.stderr == f"error: {message}\n"
    assert "time_tokens" not in r.output and "act2," not in r.output

