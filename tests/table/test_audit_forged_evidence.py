"""Red team 15a: a player edits his own transcript so that ``p2pcards audit`` names an honest
player on forged evidence.

A roster entry is signed by its own key only, and a transcript may give a seat another key as
long as that seat has no envelope in the file yet (a holding host may seat another player
there before the deal). A ``fault`` line is verified with the keys the file gives *at that
line*. So the forger, before bob's first envelope, gives bob's seat a key he made, writes a
fault line with two envelopes "from bob" signed with it (an equivocation), and gives bob his
real key back: every envelope of bob's verifies, the deck audit is clean, and the forged proof
verified too -- the audit said "NOT clean: bob (seat 2) at fault, fingerprint <bob's real
one> (a verified proof that they sent different messages to different players)".

A fault line and a stop line are evidence against the key the record finally gives their
seat (the one every envelope of that seat's verifies with, and the one the deck's description
binds): checked with it, the forged line does not verify and names nobody."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from protocol.envelope import CTL_DOMAIN, ENV_DOMAIN, GENESIS, b64, canonical
from protocol.identity import Identity
from protocol.roster import entry_payload
from protocol.transcript import read_transcript

from . import transcript_mutants as tm

pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]

VICTIM = 1  # bob; the file is alice's (seat 0): the forger's own transcript


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    return tm.shared_game(tmp_path_factory)  # read only


def _rekeyed(roster_rec: dict[str, Any], table: str, who: Identity) -> dict[str, Any]:
    rec = copy.deepcopy(roster_rec)
    for m in rec["roster"]:
        if m["seat"] == VICTIM:
            m["key"] = who.key_hex
            m["sig"] = b64(who.sign(entry_payload(table, m["name"], who.key_hex, m["addr"])))
    return rec


def _env(fake: Identity, table: str, seq: int, text: str) -> dict[str, Any]:
    env = {"v": 1, "table": table, "from": VICTIM, "seq": seq, "prev": GENESIS, "to": None,
           "topic": "chat", "body": {"text": text}}
    env["sig"] = b64(fake.sign(ENV_DOMAIN + canonical(env)))
    return env


def forge(g: tm.Game, out: Path, fake: Identity, extra: list[dict[str, Any]]) -> Path:
    """Alice's file with, right after the first roster line that seats bob (before any
    envelope of his),
    bob's seat re-keyed to ``fake``, the lines ``extra``, and bob's real key back."""
    recs = tm.parse(g.lines)
    table = recs[0]["table"]
    first = next(i for i, r in enumerate(recs) if r["type"] == "roster"
                 and any(m["seat"] == VICTIM for m in r["roster"]))
    assert not any(r["type"] in ("in", "out") and r["env"]["from"] == VICTIM
                   for r in recs[:first + 1])
    forged = [_rekeyed(recs[first], table, fake), *extra, recs[first]]
    recs[first + 1:first + 1] = forged
    out.write_bytes(tm.join(tm.encode(recs)))
    return out


def test_a_fault_line_signed_with_a_key_the_file_gave_bob_for_a_moment_names_nobody(
        game, tmp_path):
    fake = Identity.load_or_create(tmp_path / "fake")
    table = json.loads(game.lines[0])["table"]
    fault = {"type": "fault", "seat": VICTIM, "reason": "equivocation",
             "first": _env(fake, table, 1, "to alice"), "second": _env(fake, table, 1, "to carol")}
    path = forge(game, tmp_path / "forged.jsonl", fake, [fault])
    t = read_transcript(path)  # the file reads: every envelope verifies with bob's real key
    assert t.finished and not t.faults, "the forged fault line was taken as a verified proof"
    assert [u.seat for u in t.unverified] == [VICTIM]
    code, out, js = tm.cli_audit(path)
    assert js["culprit"] is None, out
    assert "at fault" not in out.split("Verdict:")[1], out
    assert js["verdict"] == "damaged record", out
    # the same fault line where bob's real key is the file's: it never verified either
    assert "does not verify" in out, out


def test_a_stop_line_signed_with_a_key_the_file_gave_bob_for_a_moment_is_not_bob_s(
        game, tmp_path):
    """The stop line: its signed stop must verify with the key that holds bob's seat in the
    record, or the audit would say bob stopped the table."""
    fake = Identity.load_or_create(tmp_path / "fake")
    table = json.loads(game.lines[0])["table"]
    msg = {"t": "stop", "table": table, "from": VICTIM, "to": 0, "culprit": 0,
           "reason": "alice cheated"}
    msg["sig"] = b64(fake.sign(CTL_DOMAIN + canonical(msg)))
    stop = {"type": "stop", "by": VICTIM, "culprit": None, "claimed": 0,
            "reason": "alice cheated", "signed": msg}
    path = forge(game, tmp_path / "stop.jsonl", fake, [stop])
    t = read_transcript(path)
    assert t.stop is not None and t.stop_unsigned is not None, "bob's forged stop verified"
    code, out, js = tm.cli_audit(path)
    assert "bob (seat 2) stopped the table (their signed stop" not in out, out
    assert js["culprit"] is None, out


def _signed_stop(who: Identity, table: str, culprit: int | None, reason: str) -> dict[str, Any]:
    msg = {"t": "stop", "table": table, "from": VICTIM, "to": 0, "culprit": culprit,
           "reason": reason, "proof": [], "heads": [0, 0]}
    msg["sig"] = b64(who.sign(CTL_DOMAIN + canonical(msg)))
    return msg


def test_a_stop_line_cannot_say_bob_s_real_stop_accused_someone_it_did_not(game, tmp_path):
    """Bob really stopped the table after the game, naming nobody (his signed stop: only this
    test holds his key). Alice's line keeps that signed stop but says bob claimed she cheated:
    the audit said "bob (seat 2) signed this stop ... Its claim against alice (seat 1) is not
    borne out", a claim bob never signed. The line now has to say whom the signature names."""
    table = json.loads(game.lines[0])["table"]
    bob = game.identities[VICTIM]
    honest = {"type": "stop", "by": VICTIM, "culprit": None, "reason": "bob stopped the table: "
              "the end did not come in time", "signed": _signed_stop(bob, table, None,
                                                                    "the end did not come in time")}
    lied = {**honest, "claimed": 0}
    for rec, clean in ((honest, True), (lied, False)):
        path = tmp_path / f"{clean}.jsonl"
        path.write_bytes(tm.join([*game.lines, canonical(rec)]))
        t = read_transcript(path)
        assert (t.stop_unsigned is None) is clean, t.stop_unsigned
        code, out, js = tm.cli_audit(path)
        assert js["culprit"] is None, out
        assert js["verdict"] == ("clean" if clean else "damaged record"), out
        if clean:
            assert "bob (seat 2) signed this stop" in out and "claim against" not in out, out
        else:  # shown as the edited line it is, not as bob's signed word
            assert "bob (seat 2) signed this stop" not in out, out
            assert "its signed stop names another seat than the line says it did" in out, out
