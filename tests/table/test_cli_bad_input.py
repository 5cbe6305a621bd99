"""What a person types wrong on the command line gets one line that says what is wrong and a
non-zero exit: never the internal-error line, never a traceback, and nothing sent to a table.

Found by trying the commands by hand: ``join ADDR --code x`` used to end in "p2pcards hit an
internal error (ValueError: ...)", and ``audit`` of a folder printed a NOT-clean verdict."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from p2pcards.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path / "home"))


def one_error_line(args: list[str], code: int) -> str:
    res = runner.invoke(app, args, input="")
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert res.exit_code == code, res.output
    errors = [ln for ln in res.output.splitlines() if ln.startswith("error: ")]
    assert len(errors) == 1 and "internal error" not in res.output, res.output
    return errors[0]


@pytest.mark.parametrize("command", ["join", "bot"])
@pytest.mark.parametrize("bad, why", [("x", "6 characters"), ("ABC-DE!", "letters and digits"),
                                      ("", "6 characters"), ("ABCD-EFGH", "6 characters")])
def test_a_mistyped_table_code_is_refused_before_any_network(command, bad, why):
    # port 9 (discard) on loopback: nothing answers, so reaching the network would hang 10 s
    line = one_error_line([command, "127.0.0.1:9", "--code", bad], 1)
    assert f"{bad!r} is not a table code" in line and why in line


def test_audit_and_replay_of_a_folder_say_so(tmp_path):
    assert "is a folder" in one_error_line(["audit", str(tmp_path)], 2)
    line = one_error_line(["replay", str(tmp_path), "--plain"], 2)
    assert line.count(str(tmp_path)) == 1 and "directory" in line.lower()


def test_audit_and_replay_of_a_missing_file_say_no_such_file(tmp_path):
    missing = str(tmp_path / "nope.jsonl")
    assert "no such file" in one_error_line(["audit", missing], 2)
    assert "no such file" in one_error_line(["replay", missing, "--plain"], 2).lower()


@pytest.mark.parametrize("args", [["join", "127.0.0.1:9", "--code", "ABC-DEF"],
                                  ["bot", "127.0.0.1:9", "--code", "ABC-DEF"],
                                  ["host", "go-out-girl", "--bind", "127.0.0.1", "--no-discovery"]])
@pytest.mark.parametrize("name, why", [("", "1 to 32"), ("** alice cheated", "letter or a digit"),
                                       ("bob: I resign", "no colon"), ("x" * 40, "1 to 32")])
def test_a_name_the_table_would_refuse_is_refused_before_any_network(args, name, why):
    """A name was only checked deep in the mesh, where it ended in the internal-error line."""
    line = one_error_line([*args, "--name", name], 1)
    assert "cannot be your name" in line and why in line


BIND_COMMANDS = [["host", "go-out-girl", "--no-discovery"],
                 ["join", "127.0.0.1:9", "--code", "ABC-DEF"],
                 ["bot", "127.0.0.1:9", "--code", "ABC-DEF"],
                 ["join", "--resume"]]


@pytest.mark.parametrize("args", BIND_COMMANDS)
def test_a_bind_that_is_neither_an_address_nor_an_interface_says_what_is_accepted(args):
    """``--bind nonsense`` ended in the socket library's "No such device". The line names the
    value, says what --bind takes, and lists this machine's interfaces."""
    import socket

    line = one_error_line([*args, "--bind", "nonsense"], 1)
    assert "'nonsense'" in line and "No such device" not in line, line
    assert "IP address of this machine" in line and "interface name" in line, line
    for _, name in socket.if_nameindex():
        assert name in line, (name, line)


@pytest.mark.parametrize("args", BIND_COMMANDS[:1] + BIND_COMMANDS[2:3])
@pytest.mark.parametrize("bad, why", [("198.51.100.7", "not an address of this machine"),
                                      ("::1", "IPv6"), ("300.1.1.1", "IP address of this machine"),
                                      ("", "IP address of this machine")])
def test_a_bind_this_machine_cannot_listen_on_is_refused_in_words(args, bad, why):
    line = one_error_line([*args, "--bind", bad], 1)
    assert repr(bad) in line and why in line and "Cannot assign" not in line, line


def test_an_interface_name_is_taken_as_its_address():
    """--bind lo is taken, as its address: the address the host prints (and hands to the
    players) is 127.0.0.1:PORT, not lo:PORT, which nobody can dial."""
    from p2pcards.checks import checked_bind

    assert checked_bind("lo") == "127.0.0.1"
    assert checked_bind("127.0.0.1") == "127.0.0.1"
    assert checked_bind("*") == checked_bind("0.0.0.0") == "0.0.0.0"


@pytest.mark.parametrize("args, rejoin", [
    (["host", "go-out-girl", "--bind", "127.0.0.1", "--no-discovery"], "p2pcards join --resume"),
    (["join", "127.0.0.1:9", "--code", "ABC-DEF"], "the same command again"),
    (["bot", "127.0.0.1:9", "--code", "ABC-DEF"], "the same command again")])
def test_ctrl_c_in_a_match_says_the_command_that_takes_the_seat_back(monkeypatch, args, rejoin):
    """Red team: Ctrl-C in the middle of a match as host said "Run the same command again to
    rejoin your seat", but running `host` again opens a new table; the host's seat comes back
    with `p2pcards join --resume`."""
    import p2pcards.botseat as botseat
    import p2pcards.net as net

    async def interrupted(*a, **kw):
        raise KeyboardInterrupt
    for module, fn in ((net, "host_table"), (net, "join_table"), (botseat, "bot_seat")):
        monkeypatch.setattr(module, fn, interrupted)
    res = runner.invoke(app, args, input="")
    assert res.exit_code == 130, res.output
    assert rejoin in res.output, res.output
    if args[0] == "host":
        assert "same command again" not in res.output, res.output


def test_audit_and_replay_of_a_loop_of_links_say_what_it_is(tmp_path):
    """Red team 6b: replay of files/loop1 -> loop2 -> loop1 said "no such file"."""
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    loop = str(tmp_path / "loop1")
    for args in (["audit", loop], ["replay", loop, "--plain"]):
        line = one_error_line(args, 2)
        assert "loop of symbolic links" in line and "no such file" not in line, line
    (tmp_path / "dangling").symlink_to(tmp_path / "gone.jsonl")
    line = one_error_line(["replay", str(tmp_path / "dangling"), "--plain"], 2)
    assert f"is a link to {tmp_path / 'gone.jsonl'}, which does not exist" in line


@pytest.mark.parametrize("option", ["--difficulty", "--adventure"])
def test_an_empty_difficulty_or_adventure_is_refused_like_any_unknown_one(option):
    """Red team 6b: --difficulty '' was silently taken as standard ('x' is refused with the list)."""
    line = one_error_line(["play", "out-of-this-world", "--players", "3", "--bots", "3",
                           "--plain", option, ""], 2)
    assert f"unknown {option[2:]} ''" in line and "choose one of" in line


def test_a_port_another_program_listens_on_is_said_once_with_what_to_do():
    """``host --port`` on a port in use said "cannot listen on 127.0.0.1:PORT: Address already
    in use (addr='tcp://127.0.0.1:PORT')" -- pyzmq's message repeating the endpoint, and no
    word of what to do."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = one_error_line(["host", "go-out-girl", "--no-discovery", "--bind", "127.0.0.1",
                               "--port", str(port)], 1)
    assert line.count(str(port)) == 1 and "addr=" not in line, line
    assert "Address already in use" in line and "choose another --port" in line, line


def test_ctrl_c_during_an_audit_says_there_is_no_verdict(tmp_path, monkeypatch):
    """Ctrl-C in ``audit`` ended it with exit 130 and not a word (red team 18): did it pass?"""
    import p2pcards.audit

    def interrupted(_path):
        raise KeyboardInterrupt

    monkeypatch.setattr(p2pcards.audit, "audit_transcript", interrupted)
    record = tmp_path / "t.jsonl"
    record.write_text('{"type":"meta"}\n')
    res = runner.invoke(app, ["audit", str(record)])
    assert res.exit_code == 130, res.output
    assert "audit was not finished" in res.output and "no verdict" in res.output, res.output
    assert "Traceback" not in res.output
