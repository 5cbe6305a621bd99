"""Real processes on loopback: a host and bot processes play a whole Go Out Girl match with the
mental-poker deck; every peer's transcript audits clean and agrees with the others."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from p2pcards.audit import audit_transcript
from protocol.transcript import read_transcript

from .procs import bot_report, env_for, start_bot, start_host, transcript_of

pytestmark = [pytest.mark.network, pytest.mark.slow]
LONG = os.environ.get("P2PCARDS_LONG") == "1"


def finish_host(host: subprocess.Popen, timeout: float = 240) -> str:
    out, err = host.communicate(timeout=timeout)
    assert host.returncode == 0, f"host failed:\n{out}\n{err}"
    return out


def test_host_and_three_bot_processes_finish_and_audit_clean(tmp_path):
    host, address, code = start_host(tmp_path, "go-out-girl", 4)
    bots = [start_bot(tmp_path, address, code, i) for i in (1, 2, 3)]
    reports = [bot_report(b) for b in bots]
    out = finish_host(host)
    assert "Audit: clean" in out and "wins the match" in out
    outcomes = {json.dumps(r["outcome"], sort_keys=True) for r in reports}
    assert len(outcomes) == 1, "every peer reached the same result"
    assert all(r["verdict"]["clean"] for r in reports)
    homes = [tmp_path / "host"] + [tmp_path / f"bot{i}" for i in (1, 2, 3)]
    # transcripts audited here, outside the programs (a whole deck audit each: the test's time),
    # bot2's by the command line below, the host's in this process (each replayed on its own
    # seat's view); the four hold the same chains (below) and each program audited its own.
    # P2PCARDS_LONG=1 audits bot1's and bot3's here as well (2-3 s of CPU in the quick default)
    audited = [h for h in homes if h.name != "bot2" and (LONG or h.name == "host")]
    audits = [audit_transcript(str(transcript_of(h))) for h in audited]
    assert all(a.clean for a in audits), [a.lines() for a in audits if not a.clean]
    assert {json.dumps(a.verdict.outcome, sort_keys=True) for a in audits} == outcomes
    assert all("view; result" in a.lines()[-2] for a in audits)  # each replayed on its own view
    assert_a_listener_reads_only_public_cards(transcript_of(tmp_path / "host"))
    # the transcripts agree: every peer holds the same chain from every sender
    heads = [read_transcript(transcript_of(h)).heads() for h in homes]
    assert all(hd == heads[0] for hd in heads)
    # and the command-line audit says so, exit code 0
    cli = subprocess.run([sys.executable, "-m", "p2pcards", "audit", str(transcript_of(homes[2]))],
                         env=env_for(homes[2]), capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0 and "Verdict: clean" in cli.stdout, cli.stdout + cli.stderr
    assert "replayed as bot2's view; result" in cli.stdout.splitlines()[-2], cli.stdout
    listing = subprocess.run([sys.executable, "-m", "p2pcards", "tables"], env=env_for(homes[2]),
                             capture_output=True, text=True, timeout=60)
    assert "go-out-girl" in listing.stdout and "finished" in listing.stdout
    assert str(transcript_of(homes[2])) in listing.stdout


def assert_a_listener_reads_only_public_cards(path) -> None:
    """Issue 11: a passive listener holding every public message of the whole match (all of the
    host's transcript's deck messages) decodes no card that was not opened to everyone."""
    from p2pcards.games import new_game
    from p2pcards.lobby import GameInfo, deck_spec
    from protocol.params import DeckParams
    from protocol.roster import keys_digest
    from tests.protocol.deck_helpers import listener_reads

    t = read_transcript(path)
    info = GameInfo.from_json(t.game_info)
    params = DeckParams(bytes.fromhex(t.table), deck_spec(info, keys_digest(t.roster)),
                        new_game(info.game, info.players, info.options).n_cards, t.seats)
    msgs = [(e.sender, e.body) for e in t.entries if e.topic == "deck" and e.body is not None]
    reads = listener_reads(params, msgs)
    assert len(reads["private"]) > 20 and all(c is None for _, _, c in reads["private"])
    assert reads["public"] and all(c is not None for _, _, c in reads["public"])


def test_a_bot_killed_mid_battle_comes_back_and_the_match_finishes(tmp_path):
    # three seats (the four-seat match is the test above): every deck operation is about half
    # the work, and the suite's time matters
    host, address, code = start_host(tmp_path, "go-out-girl", 3)
    bots = {i: start_bot(tmp_path, address, code, i) for i in (1, 2)}
    # wait until the battle is under way (the host narrates plays), then SIGKILL bot 2
    deadline = time.monotonic() + 120
    plays = 0
    while plays < 6 and time.monotonic() < deadline:
        line = host.stdout.readline()
        if not line:
            break
        plays += " plays " in line
    assert plays >= 6, "the battle never got going"
    bots[2].send_signal(signal.SIGKILL)
    bots[2].wait(timeout=30)
    time.sleep(1.0)
    bots[2] = start_bot(tmp_path, address, code, 2)  # the same command, the same data directory
    reports = [bot_report(b) for b in bots.values()]
    out = finish_host(host)
    assert "Audit: clean" in out
    assert len({json.dumps(r["outcome"], sort_keys=True) for r in reports}) == 1
    assert all(r["verdict"]["clean"] for r in reports)
    assert audit_transcript(str(transcript_of(tmp_path / "bot2"))).clean


def test_wrong_table_code_is_refused_with_a_clear_message(tmp_path):
    host, address, code = start_host(tmp_path, "go-out-girl", 2)
    try:
        wrong = "ZZZ-ZZZ" if code != "ZZZ-ZZZ" else "YYY-YYY"
        bad = start_bot(tmp_path, address, wrong, 9)
        out, err = bad.communicate(timeout=60)
        assert bad.returncode != 0
        assert "refused" in err and "code" in err.lower() and "Traceback" not in err
        good = start_bot(tmp_path, address, code, 1)  # the table is as it was: a seat is free
        assert bot_report(good)["verdict"]["clean"]
        assert "Audit: clean" in finish_host(host)
    finally:
        if host.poll() is None:
            host.kill()
