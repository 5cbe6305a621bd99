"""Red team 6a's attacks on ``p2pcards audit``, as signed transcripts: each made the audit of an
honest player's own transcript name that player (or miss the cheat every live seat named).

The records are crafted from a real, finished two-player game (alice's transcript, both keys
kept): cut at a deck operation, then what the attack leaves in alice's file appended --
envelopes bob signs, alice's own abort, the stop line her program writes -- re-chained and
re-signed as each would (``tests.table.transcript_mutants``)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tests.table import transcript_mutants as tm

# one worker plays the shared game once for every module reading it, and its proofs, checked
# live, are remembered there (protocol.proof_common.remember_holds): each audit of the record
# or of a mutant of it re-checks only what differs
pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]



@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    return tm.shared_game(tmp_path_factory)  # read only: the crafted records go to tmp_path


cli_audit = tm.cli_audit


def _deck(r: dict[str, Any]) -> dict[str, Any] | None:
    env = r.get("env")
    if r.get("type") in ("in", "out") and env["topic"] == "deck" and env["to"] is None:
        return env["body"]
    return None


def cut_at(recs: list[dict[str, Any]], op: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The records before operation ``op``'s first deck message, and every deck record of it."""
    at = next(i for i, r in enumerate(recs) if (b := _deck(r)) is not None and b["op"] == op)
    return ([r for r in recs[:at] if r.get("type") not in ("end", "stop")],
            [r for r in recs if (b := _deck(r)) is not None and b["op"] == op])


def first_op(recs: list[dict[str, Any]], kind: str, after: int = 1) -> int:
    return next(b["op"] for r in recs if (b := _deck(r)) is not None and b["kind"] == kind
                and b["op"] > after)


def env_of(seat: int, body: dict[str, Any]) -> dict[str, Any]:
    """A deck envelope from ``seat`` (re-signed by ``tm.resign``), as alice's file holds it."""
    return {"type": "out" if seat == 0 else "in",
            "env": {"v": 1, "from": seat, "to": None, "topic": "deck", "seq": 0, "prev": "",
                    "body": body}}


def template(recs: list[dict[str, Any]]) -> dict[str, Any]:
    env = next(r["env"] for r in recs if _deck(r) is not None)
    return env


def abort(desc_body: dict[str, Any], seat: int, about: str, culprit: int, reason: str
          ) -> dict[str, Any]:
    keep = {k: desc_body[k] for k in desc_body if k not in ("step", "seat")
            and k in ("v", "op", "kind", "slots", "by", "to", "n")}
    return {**keep, "step": "abort", "seat": seat, "culprit": culprit, "about": about,
            "reason": reason}


def write(game: tm.Game, tmp_path: Path, recs: list[dict[str, Any]]) -> Path:
    base = template(tm.parse(game.lines))
    for r in recs:
        if r.get("type") in ("in", "out"):
            r["env"] = {**{k: base[k] for k in base if k not in ("body",)}, **r["env"]}
    tm.resign(recs, game.identities)
    path = tmp_path / "t.jsonl"
    path.write_bytes(tm.join(tm.encode(recs)))
    return path


def stop_line(culprit: int | None, reason: str) -> dict[str, Any]:
    return {"type": "stop", "culprit": culprit, "by": 0, "reason": reason}


def assert_bob_named(game: tm.Game, tmp_path: Path, crafted: list[dict[str, Any]], why: str):
    """The audit of ``crafted`` names bob (seat 2, his fingerprint) for ``why``, found by the
    deck audit, and exits 1."""
    code, out, js = cli_audit(write(game, tmp_path, crafted))
    assert code == 1 and js["culprit"] == 1, out
    assert "NOT clean: bob (seat 2) at fault, fingerprint " in out, out
    assert f"(the deck audit: {why}" in out, out


def test_a_deck_message_sent_twice_names_its_sender_not_alice(game, tmp_path):
    """#2: bob's shuffle comes twice (two envelopes, one body). Alice stops naming bob (a replay);
    bob's shares of the next operation arrive before her stop. The old audit skipped the copy as
    "two records merged", found alice's shares missing beside her abort, and named alice."""
    recs = tm.parse(game.lines)
    op = first_op(recs, "shuffle")
    head, mine = cut_at(recs, op)
    bobs = next(r for r in mine if r["env"]["from"] == 1)
    alices = [r for r in mine if r["env"]["from"] == 0]
    _, nxt = cut_at(recs, op + 1)
    bob_next = next(r for r in nxt if r["env"]["from"] == 1)
    reason = f"replayed message (shuffle of op {op} already received)"
    crafted = head + copy.deepcopy(alices) + [copy.deepcopy(bobs), copy.deepcopy(bobs),
                                              env_of(0, abort(alices[0]["env"]["body"], 0,
                                                              "shuffle", 1, reason)),
                                              copy.deepcopy(bob_next),
                                              stop_line(1, f"bob: {reason}")]
    assert_bob_named(game, tmp_path, crafted, "replayed message")


def test_a_message_with_another_descriptor_names_its_sender_not_alice(game, tmp_path):
    """#3: bob sends, for an opening, a random commit (another descriptor), early; alice stops
    naming him when the opening starts. The old audit took the descriptor by vote (bob's, the
    only message there) and named alice, whose shares were missing beside her abort. The audit
    now derives every operation from the game's signed moves, as every engine issued it."""
    recs = tm.parse(game.lines)
    op = first_op(recs, "open", after=3)
    head, mine = cut_at(recs, op)
    real = mine[0]["env"]["body"]
    fake = {"v": 3, "op": op, "kind": "random", "n": 7, "step": "commit", "seat": 1,
            "commit": "cd" * 32}
    reason = f"message describes another operation than {real['kind']}"
    crafted = head + [env_of(1, fake), env_of(0, abort(real, 0, "commit", 1, reason)),
                      stop_line(1, f"bob: {reason}")]
    assert_bob_named(game, tmp_path, crafted, "message describes another operation")


def test_stall_then_send_never_names_the_seat_that_waited(game, tmp_path):
    """#4: alice waits for bob's commit, times out and stops naming bob; bob's commit and reveal
    (valid) come after her stop. The old audit saw them, found alice's reveal missing beside her
    abort, and named alice. The record is now checked as it stood at alice's own stop, and a
    timeout claim never names its author: nobody is named."""
    recs = tm.parse(game.lines)
    op = 1
    head, mine = cut_at(recs, op)
    assert mine[0]["env"]["body"]["kind"] == "random"
    alice_commit = next(r for r in mine if r["env"]["from"] == 0
                        and r["env"]["body"]["step"] == "commit")
    bobs = [r for r in mine if r["env"]["from"] == 1]
    reason = "no commit message within 10 s"
    crafted = head + [copy.deepcopy(alice_commit),
                      env_of(0, abort(alice_commit["env"]["body"], 0, "commit", 1, reason)),
                      stop_line(1, f"bob: {reason}")] + copy.deepcopy(bobs)
    code, out, js = cli_audit(write(game, tmp_path, crafted))
    assert js["culprit"] is None and js["recorded_culprit"] == 1, out
    assert "NOT clean: the audit names nobody" in out.splitlines()[-1], out
    (late,) = [c for c in js["checks"] if c["check"] == "arrived after the stop"]
    assert late["ok"] and "2 envelope(s) from bob (seat 2)" in late["detail"], late
    # the same file without the stop line (nothing to cut at): the timeout still names nobody
    no_stop = [r for r in crafted if r.get("type") != "stop"]
    code, out, js = cli_audit(write(game, tmp_path, copy.deepcopy(no_stop)))
    assert js["culprit"] is None, out
