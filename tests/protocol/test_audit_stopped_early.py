"""A game that stopped before its end is replayed by the audit up to where its signed record
stops (it was not replayed at all before: a signed move out of turn in such a game was shown
only as the program's own finding at the time, and the audit named nobody).

The records are crafted from a real, finished two-player game (seat 0's, alice's transcript,
both keys kept): cut where alice is to move, then (the attack) one envelope bob signs with a
move for that step appended, re-chained and re-signed as bob would. The audit must name bob on
his signed move; the same record without it names nobody."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from p2pcards.replay import MOVES_START, moves_seen
from tests.table import transcript_mutants as tm

# one worker plays the shared game once for every module reading it, and its proofs, checked
# live, are remembered there (protocol.proof_common.remember_holds): each audit of the record
# or of a mutant of it re-checks only what differs
pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]



@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    return tm.shared_game(tmp_path_factory)  # read only: the crafted records go to tmp_path


cli_audit = tm.cli_audit


def _game_moves(recs: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    return [(i, r["env"]) for i, r in enumerate(recs) if r.get("type") in ("in", "out")
            and r["env"]["topic"] == "game" and r["env"]["to"] is None]


def stopped_record(game: tm.Game, tmp_path: Path, bob_moves_at: str | None,
                   stop: dict[str, Any] | None = None) -> tuple[Path, int]:
    """Alice's record cut just before one of her own moves halfway through the game (the table
    stopped while she was to move). ``bob_moves_at``: ``"alice's turn"`` appends a move bob
    signs for that step; ``"a deck step"`` one for the step before it when that is the deck's;
    ``None`` appends nothing. ``stop``: a stop line after it, as the program writes one."""
    recs = tm.parse(game.lines)
    moves = _game_moves(recs)
    # alice's move halfway, whose step follows a step with no move (the deck's)
    steps = {env["body"]["step"] for _, env in moves}
    cands = [(i, env) for i, env in moves if env["from"] == 0
             and env["body"]["step"] - 1 not in steps]
    cut, mine = cands[len(cands) // 2]
    step = mine["body"]["step"]
    kept = [r for r in recs[:cut] if r.get("type") not in ("end", "stop")]
    if bob_moves_at is not None:
        bobs = [env for _, env in moves if env["from"] == 1]
        env = copy.deepcopy(bobs[-1])
        at = step if bob_moves_at == "alice's turn" else step - 1
        seen = MOVES_START  # what bob's program states: the moves before it (red team 17)
        for s_, seat, body in sorted((e["body"]["step"], e["from"], e["body"]) for _, e in moves):
            if s_ < at:
                seen = moves_seen(seen, s_, seat, body["action"])
        env["body"] = {"step": at, "action": copy.deepcopy(bobs[0]["body"]["action"]),
                       "seen": seen.hex()}
        kept.append({"type": "in", "env": env})
    if stop is not None:
        kept.append(stop)
    tm.resign(kept, game.identities)
    path = tmp_path / "t.jsonl"
    path.write_bytes(tm.join(tm.encode(kept)))
    return path, step


def test_the_finished_game_still_audits_clean(game, tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(game.data)
    code, out, js = cli_audit(path)
    assert code == 0 and "Verdict: clean" in out, out


@pytest.mark.parametrize("where", ["alice's turn", "a deck step"])
def test_a_signed_move_out_of_turn_in_a_stopped_game_names_its_author(game, tmp_path, where):
    stop = {"type": "stop", "culprit": 1, "by": 0, "reason": "bob acted out of turn"}
    path, step = stopped_record(game, tmp_path, where, stop)
    code, out, js = cli_audit(path)
    assert code == 1, out
    assert js["culprit"] == 1 and js["verdict"] == "not clean", out
    bob_fp = game.identities[1].fingerprint
    assert f"Verdict: NOT clean: bob (seat 2) at fault, fingerprint {bob_fp} (the replay of the " \
        "game: acted out of turn" in out, out
    want = "alice (seat 1) was to decide" if where == "alice's turn" else "nobody was to decide"
    (rep,) = [c for c in js["checks"] if c["check"].startswith("game replayed")]
    assert not rep["ok"] and want.replace("alice (seat 1)", "seat 1") in rep["detail"], rep
    (st,) = [c for c in js["checks"] if c["check"] == "the table stopped"]
    assert "the audit finds the same" in st["detail"] and not st["damaged"]
    assert not [c for c in js["checks"] if c["damaged"]]


def test_the_same_stopped_game_without_the_move_names_nobody(game, tmp_path):
    """The honest early stop: every move up to the stop replays clean and nobody is named; the
    verdict says the game stopped before its end."""
    path, step = stopped_record(game, tmp_path, None)
    code, out, js = cli_audit(path)
    assert js["culprit"] is None and js["verdict"] == "not clean", out
    (rep,) = [c for c in js["checks"] if c["check"].startswith("game replayed")]
    assert rep["ok"] and f"up to step {step}, where the signed record stops" in rep["detail"], rep
    assert [c["check"] for c in js["checks"] if not c["ok"]] == ["the game reached its end"], out
    assert out.splitlines()[-1] == ("Verdict: NOT clean: the audit names nobody; the game "
                                    "stopped before its end"), out


def test_a_stop_line_naming_bob_without_his_move_is_the_programs_word(game, tmp_path):
    """The stop line alone (unsigned) still names nobody: the replay does not bear it out."""
    stop = {"type": "stop", "culprit": 1, "by": 0, "reason": "bob acted out of turn"}
    path, _ = stopped_record(game, tmp_path, None, stop)
    code, out, js = cli_audit(path)
    assert js["culprit"] is None and js["recorded_culprit"] == 1, out
    (st,) = [c for c in js["checks"] if c["check"] == "the table stopped"]
    assert "this program's own finding at the time" in st["detail"], st
    assert "the audit names nobody" in out.splitlines()[-1]
