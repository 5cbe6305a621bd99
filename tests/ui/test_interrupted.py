"""Ctrl-C as a signal at a dealt table -- input from a pipe or a file (``yes '' | p2pcards join
...``), where no prompt reads the key -- said only "Interrupted. Run the same command again to
take your seat back.": not how long the others wait, and what then, as the first Ctrl-C at a
terminal says. Now it says both (in-process: the real SIGINT through ``asyncio.run``)."""

from __future__ import annotations

import asyncio
import signal
from types import SimpleNamespace

import pytest
import typer

from p2pcards import cli, net
from p2pcards.lobby import GameInfo


def interrupted_at_a_table(monkeypatch, capsys, rejoin: str, sealed: bool = True) -> str:
    async def playing(*args, **kwargs):  # a seat at its table, until Ctrl-C
        await asyncio.sleep(3600)

    monkeypatch.setattr(net, "_play", playing)
    mesh = SimpleNamespace(game_info=GameInfo("go-out-girl", 3, {}, wait=90.0).to_json(),
                           sealed=sealed, transcript_path=None)

    async def seated():
        asyncio.get_running_loop().call_later(0.05, signal.raise_signal, signal.SIGINT)
        return await net._played(mesh, object(), False)

    with pytest.raises(typer.Exit) as got:
        cli._network_errors(seated, rejoin)()
    assert got.value.exit_code == 130
    return " ".join(capsys.readouterr().out.split())


def test_ctrl_c_from_a_pipe_says_how_long_the_others_wait_and_what_then(monkeypatch, capsys):
    shown = interrupted_at_a_table(monkeypatch, capsys, cli.SAME_AGAIN)
    assert shown == ("Interrupted. Your seat is kept: run the same command again to take it "
                     "back. The others wait for you at most 1:30, then end the match, naming "
                     "you."), shown
    # the host has no join command to rerun ('host' again opens a new table)
    shown = interrupted_at_a_table(monkeypatch, capsys, cli.HOST_AGAIN)
    assert shown.startswith("Interrupted. Your seat is kept: 'p2pcards join --resume' takes it "
                            "back. The others wait for you at most 1:30,"), shown


def test_ctrl_c_before_the_deal_promises_no_wait(monkeypatch, capsys):
    shown = interrupted_at_a_table(monkeypatch, capsys, cli.SAME_AGAIN, sealed=False)
    assert shown == "Interrupted. Your seat is kept: run the same command again to take it back."
