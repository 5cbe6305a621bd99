"""Issue 16 on a real (namespace) LAN: hosts 10.77.0.1..3 on a bridge with no default route, as on
a LAN without internet (4 hosts in the first test). The host must announce an address the others
can use (not loopback), a crashed joiner must get back in (`join --resume`, or its original
command), and a cut link must heal; every peer finishes with a clean audit. Skipped, with the reason, where namespaces cannot be made."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time

import pytest

from p2pcards.audit import audit_transcript
from protocol.transcript import read_transcript

from .lan import Lan, LanUnavailable, Tapped

pytestmark = [pytest.mark.network, pytest.mark.slow]

ADDRESS_RE = re.compile(r"Address: (\S+)\s+Table code: (\S+)")


@pytest.fixture
def lan():
    try:
        net = Lan(3).up()
    except LanUnavailable as exc:
        pytest.skip(f"no namespace LAN here: {exc}")
    try:
        yield net
    finally:
        net.down()


# The programs here mark a quiet peer away after 4 s instead of 6 s (P2PCARDS_AWAY_AFTER, set for
# each program this file starts): the cuts below wait past it, and an away peer is pinged every
# AWAY seconds, so it is seen back sooner after a heal.
AWAY = 4.0

# Every wait is bounded and generous (a loaded 2-core CI machine runs this beside the rest of the
# suite): a healthy match ends in well under a minute; these only bound a hang.
START, MATCH, END = 60.0, 240.0, 240.0


def peer(lan, i: int, *args: str, home, stdin: int | None = subprocess.DEVNULL) -> Tapped:
    return Tapped(lan.p2pcards(i, *args, home=home, stdin=stdin, away_after=AWAY))


def address_of(host: Tapped) -> tuple[str, str]:
    lines = host.wait_for("Others join with", START)
    return next(m.groups() for ln in lines if (m := ADDRESS_RE.search(ln)))


def report(p: Tapped, timeout: float = END) -> dict:
    rc, out, err = p.finish(timeout)
    lines = [ln for ln in out.splitlines() if ln.startswith("{")]
    assert rc == 0 and lines, f"rc={rc}\n{out}\n{err}"
    return json.loads(lines[-1])


def finish_all(peers: list[Tapped], timeout: float = END) -> None:
    """Wait for every peer together (one deadline for all, none blocking the others)."""
    deadline = time.monotonic() + timeout
    for p in peers:
        p.finish(max(1.0, deadline - time.monotonic()))


# The suite's quick default plays the first test's match at three hosts (host, a bot, carol):
# every deck operation about half the work, 8-10 s of CPU saved; the four-seat match between
# programs is played on loopback by test_network_match.py, and P2PCARDS_LONG=1 plays this one
# at four hosts (two bots), as issue 16 asked.
HOSTS = 4 if os.environ.get("P2PCARDS_LONG") == "1" else 3


def test_a_four_host_match_survives_a_crashed_joiner_and_a_cut_link(tmp_path):
    """Issue 16, items 1, 2 and 5: a 4-host match (3 in the quick default: ``HOSTS``); the host
    prints an address the others can use (no default route here); a person's program SIGKILLed
    mid-match comes back with `join --resume`; a player's link is cut and healed. (A crashed bot
    rerunning its original command: `scripts/bench_lan.py`, 20 runs.)"""
    carol_at = HOSTS  # the last host; bots on the ones between
    try:
        lan = Lan(HOSTS).up()
    except LanUnavailable as exc:
        pytest.skip(f"no namespace LAN here: {exc}")
    # a short turn time: the person's seat (input open, nobody typing) is played by its bot
    host = peer(lan, 1, "host", "go-out-girl", "--players", str(HOSTS), "--autoplay",
                "--no-discovery", "--turn-time", "0.1", home=tmp_path / "h1")
    procs = [host]
    try:
        lines = host.wait_for("Others join with", START)
        address, code = next(m.groups() for ln in lines if (m := ADDRESS_RE.search(ln)))
        # no default route on this LAN: the host still prints the address others reach it by
        assert address.startswith("10.77.0.1:"), lines
        assert any(f"p2pcards join {address} --code {code}" in ln for ln in lines)
        bots = {i: peer(lan, i, "bot", address, "--code", code, "--name", f"bot{i}", "--json",
                        home=tmp_path / f"h{i}") for i in range(2, carol_at)}
        carol = peer(lan, carol_at, "join", address, "--code", code, "--name", "carol", "--plain",
                     home=tmp_path / f"h{carol_at}", stdin=subprocess.PIPE)
        procs += [*bots.values(), carol]
        host.wait_for(" plays ", MATCH, count=3)  # the battle is under way
        carol.proc.send_signal(signal.SIGKILL)  # a person's machine crashes
        carol.finish(30)
        time.sleep(1.0)
        carol = peer(lan, carol_at, "join", "--resume", "--name", "carol", "--plain",
                     home=tmp_path / f"h{carol_at}", stdin=subprocess.PIPE)
        procs.append(carol)
        plays = sum(" plays " in ln for ln in host.out)
        host.wait_for(" plays ", MATCH, count=plays + 3)
        lan.cut(2)  # a player's link goes down for a while, then comes back
        time.sleep(4.0)
        lan.heal(2)
        finish_all([host, *bots.values(), carol])
        reports = [report(b) for b in bots.values()]
        rc, out, err = host.finish(1)
        assert rc == 0, f"{out}\n{err}"
        assert "Audit: clean" in out
        rc, out, err = carol.finish(1)
        assert rc == 0 and "Resuming table" in out and "Audit: clean" in out, f"{out}\n{err}"
        assert len({json.dumps(r["outcome"], sort_keys=True) for r in reports}) == 1
        assert all(r["verdict"]["clean"] for r in reports)
        heads = []
        for i in range(1, HOSTS + 1):
            t = sorted((tmp_path / f"h{i}" / "tables").glob("*.jsonl"))
            assert len(t) == 1
            heads.append(read_transcript(t[0], tolerate_torn_tail=True).heads())
            assert "127.0.0.1" not in t[0].read_text()  # nobody announced loopback
        # the same chains everywhere, each audited clean by its own program (above): one audit
        # here, outside the programs, checks them all
        assert all(h == heads[0] for h in heads)
        assert audit_transcript(str(transcript_of(tmp_path, 1))).clean
    finally:
        stop_all(procs)
        lan.down()


def open_table(lan, tmp_path, *extra: str) -> tuple[Tapped, dict[int, Tapped]]:
    """A 3-seat Go Out Girl table hosted on host 1 (autoplaying), bots on hosts 2 and 3."""
    host = peer(lan, 1, "host", "go-out-girl", "--players", "3", "--autoplay", "--no-discovery",
                *extra, home=tmp_path / "h1")
    address, code = address_of(host)
    bots = {i: peer(lan, i, "bot", address, "--code", code, "--name", f"bot{i}", "--json",
                    home=tmp_path / f"h{i}") for i in (2, 3)}
    return host, bots


def transcript_of(tmp_path, i: int):
    t = sorted((tmp_path / f"h{i}" / "tables").glob("*.jsonl"))
    assert len(t) == 1, t
    return t[0]


def all_clean_and_finished(tmp_path, reports: list[dict]) -> None:
    """Every bot reports the same outcome and a clean audit of its own; every transcript is
    marked finished and holds the same chains (the same heads), so auditing one here, outside
    the programs, checks them all (each audit is a whole deck audit: the suite's time)."""
    assert len({json.dumps(r["outcome"], sort_keys=True) for r in reports}) == 1
    assert all(r["verdict"]["clean"] for r in reports)
    heads = []
    for i in (1, 2, 3):
        t = read_transcript(transcript_of(tmp_path, i), tolerate_torn_tail=True)
        assert t.finished, f"host {i} unfinished"
        heads.append(t.heads())
    assert heads[0] == heads[1] == heads[2]
    assert audit_transcript(str(transcript_of(tmp_path, 1))).clean


def stop_all(procs: list[Tapped]) -> None:
    for p in procs:
        p.kill()


def test_a_crashed_host_takes_its_seat_back_with_join_resume(lan, tmp_path):
    # a short turn time: the resumed host is a person's seat (join), whose bot plays each turn
    # when its time is up (a second a turn made this test take 80 s)
    host, bots = open_table(lan, tmp_path, "--turn-time", "0.1")
    procs = [host, *bots.values()]
    try:
        host.wait_for(" plays ", MATCH, count=4)  # the battle is under way
        host.proc.send_signal(signal.SIGKILL)  # the host's machine crashes
        host.finish(30)
        time.sleep(1.0)
        again = peer(lan, 1, "join", "--resume", "--name", "host", home=tmp_path / "h1",
                     stdin=subprocess.PIPE)  # input stays open: the person is there
        procs.append(again)
        finish_all(list(bots.values()))
        reports = [report(b) for b in bots.values()]
        # the person's input stays open: `join` still ends with the match (stdin_lines)
        rc, out, err = again.finish(END)
        assert rc == 0, f"{out}\n{err}"
        assert "Resuming table" in out and "Result:" in out and "Audit: clean" in out, out
        all_clean_and_finished(tmp_path, reports)
    finally:
        stop_all(procs)


def test_a_cut_host_heals_and_a_cut_at_the_last_move_still_shows_the_result_everywhere(lan, tmp_path):
    """One match, two cuts (one match instead of two keeps the suite's time down).

    First the host's cable is pulled for 10 s mid-match and plugged back: the match goes on.
    Then issue 16, item 3: "the result and the verdict are shown and the transcript marked
    finished at every peer that has them, whatever happens to the links after the last move; a
    peer cut off during the final checkpoint finishes it when it comes back". The links are all
    back well before any patience runs out, so every peer also compares its transcript with
    every other (no "could not compare"); it once waited 150 s for a bot that had left
    (test_last_move.py)."""
    host, bots = open_table(lan, tmp_path)
    procs = [host, *bots.values()]
    try:
        host.wait_for(" plays ", MATCH, count=4)
        lan.cut(1)  # the host's cable is pulled (on the bridge side), then plugged back
        # past the AWAY s after which the others mark it away, and long enough that each
        # side's unanswered heartbeats close its end of the link (a new one is made on healing)
        time.sleep(AWAY + 4.5)
        lan.heal(1)
        host.wait_for("wins the match", MATCH)  # the last move is narrated
        lan.cut(2)  # bot2 loses its link as the match ends (the audit, the final checkpoint)
        time.sleep(AWAY + 1.0)  # past the AWAY s after which the others mark it away
        lan.heal(2)  # it comes back and finishes
        finish_all([host, *bots.values()])
        rc, out, err = host.finish(1)
        assert rc == 0, f"{out}\n{err}"
        assert "Result:" in out and "Audit: clean" in out, out
        assert "error:" not in out + err
        assert "could not compare" not in out, out
        reports = [report(b, 1) for b in bots.values()]
        assert all(r.get("compared") is True for r in reports), reports
        all_clean_and_finished(tmp_path, reports)
    finally:
        stop_all(procs)


def test_join_with_no_address_lists_a_table_hosted_on_another_machine(lan, tmp_path):
    host = peer(lan, 1, "host", "go-out-girl", "--players", "2", "--autoplay",
                home=tmp_path / "h1")
    procs = [host]
    try:
        address, code = address_of(host)
        time.sleep(1.0)  # the announcement goes out
        joiner = peer(lan, 2, "join", "--code", code, "--name", "dora", home=tmp_path / "h2",
                      stdin=subprocess.PIPE)
        procs.append(joiner)
        seen = joiner.wait_for("Seated at", START)
        listed = [ln for ln in seen if re.match(r"\s+1\. ", ln)]
        # the pick-list names the table on host 1 at the address the host printed
        assert listed and f"at {address}" in listed[0] and "go-out-girl" in listed[0], seen
        assert "1 of 2 seats free" in listed[0]
    finally:
        stop_all(procs)
