"""What never leaves a player's machine, attacked from the wire (docs/network.md, "Hosting and
joining": "The code itself never travels on the network (the programs prove to each other that
they know it)"; "What is kept on disk": "Your deck seed and your own arrangements are kept
apart, in ``<table id>.seat`` (mode 0600), and never sent").

An attacker here is anyone who gets to read what crosses the network once the transport is
open: a player who hands a stranger a frame dump, a seated player reading what its own program
receives, someone who later reads a transcript another player shared for an audit. Every frame
every program of a whole honest match sends (the handshake's included, read before CurveZMQ
encrypts it) is captured, and so is every transcript; neither may hold the table code, in any
spelling the code's reader accepts, nor any seat's deck seed, in any encoding of its bytes.
"""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import stat
import time
from pathlib import Path

import pytest
import zmq.asyncio

from p2pcards.journal import SeatJournal
from p2pcards.lobby import GameInfo, end_bots, spawn_bot
from p2pcards.table import TableResult
from protocol.tablecode import normalize_code
from tests.mesh.helpers import close_all, make_table, run_async
from tests.table.test_table_rules import easy_bot

pytestmark = pytest.mark.network


def spellings(raw: bytes) -> set[bytes]:
    """The ways a program could carry these bytes in a frame or a JSON record."""
    return {raw.hex().encode(), raw.hex().upper().encode(), base64.b64encode(raw).rstrip(b"="),
            base64.urlsafe_b64encode(raw).rstrip(b"="), raw}


def code_spellings(code: str) -> set[bytes]:
    """The code as printed ("K7Q-F2M"), as its reader keeps it, and in lower case."""
    norm = normalize_code(code)
    return {s.encode() for s in (code, norm, code.lower(), norm.lower())}


@pytest.fixture
def frames(monkeypatch) -> list[bytes]:
    """Every frame any program in this process hands to ZeroMQ (before it is encrypted)."""
    sent: list[bytes] = []
    real = zmq.asyncio.Socket.send_multipart

    def send_multipart(self, msg_parts, *args, **kw):
        sent.extend(bytes(p) for p in msg_parts)
        return real(self, msg_parts, *args, **kw)
    monkeypatch.setattr(zmq.asyncio.Socket, "send_multipart", send_multipart)
    return sent


@run_async(timeout=120)
async def test_a_whole_match_sends_neither_the_table_code_nor_any_seats_deck_seed(tmp_path,
                                                                                 frames):
    meshes = await make_table(tmp_path, 3, game_info=GameInfo("go-out-girl", 3, {}).to_json())
    code = meshes[0].code
    try:
        results = await asyncio.gather(*(easy_bot(20)(m) for m in meshes))
        assert all(isinstance(r, TableResult) for r in results), results
    finally:
        await close_all(meshes)
    assert len(frames) > 200  # the handshake, the deck and every move went by here
    transcripts = [m.transcript_path for m in meshes]
    seeds = []
    for path in transcripts:
        journal = path.with_suffix(".seat")
        assert stat.S_IMODE(journal.stat().st_mode) == 0o600  # "(mode 0600)"
        seeds.append(SeatJournal.read_only(journal).seed())
    assert len(set(seeds)) == 3 and all(len(s) == 32 for s in seeds)
    wire = b"\0".join(frames)
    for seat, seed in enumerate(seeds):
        for s in spellings(seed):
            assert s not in wire, f"seat {seat}'s deck seed went on the wire"
            for path in transcripts:  # every message of every player is in each transcript
                assert s not in path.read_bytes(), f"seat {seat}'s deck seed is in {path.name}"
    for s in code_spellings(code):
        assert s not in wire, f"the table code went on the wire as {s!r}"
    # "What the network protects": "The deck sends none [no private message]: a card dealt to
    # you travels as public, proven shares" -- every deck envelope is in the clear, to everyone
    envs = [json.loads(line)["env"] for path in transcripts
            for line in path.read_text().splitlines() if json.loads(line).get("type") in
            ("in", "out")]
    deck = [e for e in envs if e.get("topic") == "deck"]
    assert len(deck) > 30 and all(e.get("to") is None and "box" not in e for e in deck)


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc/PID/cmdline")
def test_a_bot_the_host_starts_has_the_code_in_its_environment_not_on_its_command_line(tmp_path):
    """README, "Playing on a LAN" / docs/network.md: "The table code never appears on a command
    line: bots started by the host get it through their environment (``P2PCARDS_CODE``)". Any
    user of the host's machine can list every process's command line (``ps``,
    /proc/PID/cmdline); a process's environment only its own user can read. The bot is started
    as the host starts it (``spawn_bot``) at an address that takes its connection and never
    answers, and read from /proc while it waits."""
    code = "K7Q-F2M"
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    address = f"127.0.0.1:{listener.getsockname()[1]}"
    proc = spawn_bot(address, code, name="Bot 2", level="easy", home=tmp_path / "bot")
    try:
        cmdline, end = b"", time.monotonic() + 10
        while address.encode() not in cmdline and time.monotonic() < end:  # until it has run
            time.sleep(0.05)
            cmdline = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        environ = Path(f"/proc/{proc.pid}/environ").read_bytes().split(b"\0")
    finally:
        end_bots([proc])
        listener.close()
    assert address.encode() in cmdline  # it is the bot's command line that was read
    for s in code_spellings(code):
        assert s not in cmdline, cmdline
    assert f"P2PCARDS_CODE={code}".encode() in environ
