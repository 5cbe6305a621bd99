"""A damaged line never hides a proven cheat, and it never creates one (docs/deck.md, "Reading
an audit": "If the signed record shows somebody cheating and the file holds a damaged line, the
verdict is NOT clean with that player's name and a note about the damaged lines").

The attack: bob's signed move out of turn in alice's record (the audit names him:
tests/protocol/test_audit_stopped_early.py), then one damaged line after it -- what a crash
leaves (a torn line), a stray byte, a line too long for any table, a message whose signature
fails. The audit used to read none of the file then ("the file does not verify (above), so
nothing in it is checked and nobody is blamed"): one line appended to a record that proves a
cheat was enough to hide it. Now the reading stops at the damaged line, the verified record
before it is audited (as a file cut short there would be), and the line is marked DAMAGED."""

from __future__ import annotations

import copy
import os

import pytest

from tests.protocol.test_audit_stopped_early import stopped_record
from tests.table import transcript_mutants as tm

pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]

LONG = os.environ.get("P2PCARDS_LONG") == "1"
STOP = {"type": "stop", "culprit": 1, "by": 0, "reason": "bob acted out of turn"}


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    return tm.shared_game(tmp_path_factory)  # read only: the crafted records go to tmp_path


def _bad_signature(env: dict) -> dict:
    env = copy.deepcopy(env)
    sig = env["sig"]
    env["sig"] = sig[:-4] + ("AAAA" if not sig.endswith("AAAA") else "BBBB")
    return env


def damaged_lines(kind: str, lines: list[bytes]) -> list[bytes]:
    """One damaged line to append to ``lines``."""
    last = tm.parse(lines)
    env = next(r["env"] for r in reversed(last) if r.get("type") in ("in", "out"))
    if kind == "torn":  # a line cut short (a crash while writing it), then a newline
        return [lines[-2][: len(lines[-2]) // 2]]
    if kind == "stray byte":
        return [b"{not json"]
    if kind == "too long":
        return [b'{"key":"x","type":"note","value":"' + b"a" * (5 << 20) + b'"}']
    assert kind == "bad signature"
    env = _bad_signature(env)
    env["seq"] += 1
    return tm.encode([{"type": "in", "env": env}])


@pytest.mark.parametrize("kind", ["torn", "stray byte", "too long", "bad signature"])
def test_a_damaged_line_after_a_proven_cheat_does_not_hide_it(game, tmp_path, kind):
    path, _ = stopped_record(game, tmp_path, "alice's turn", STOP)
    lines = path.read_bytes().splitlines()
    n = len(lines) + 1
    path.write_bytes(tm.join(lines + damaged_lines(kind, lines)))
    code, out, js = tm.cli_audit(path)
    assert code == 1 and js["verdict"] == "not clean" and js["culprit"] == 1, out
    verdict = out.splitlines()[-1]
    assert verdict.startswith("Verdict: NOT clean: bob (seat 2) at fault"), verdict
    assert "acted out of turn" in verdict and "nobody is blamed on those" in verdict, verdict
    (chains,) = [c for c in js["checks"] if c["check"] == "signatures and hash chains"]
    assert chains["damaged"] and not chains["ok"], chains
    assert f"line {n}:" in chains["detail"] and "nothing from that line on is read" \
        in chains["detail"], chains


def test_a_damaged_line_in_place_of_the_cheat_names_nobody(game, tmp_path):
    """Never creates one: bob's move out of turn with a signature that fails is not his; the
    record before it stops early and names nobody."""
    path, _ = stopped_record(game, tmp_path, "alice's turn", STOP)
    recs = tm.parse(path.read_bytes().splitlines())
    i = max(k for k, r in enumerate(recs) if r.get("type") == "in")
    recs[i]["env"] = _bad_signature(recs[i]["env"])
    path.write_bytes(tm.join(tm.encode(recs)))
    code, out, js = tm.cli_audit(path)
    assert code == 1 and js["verdict"] == "damaged record" and js["culprit"] is None, out
    assert "bob (seat 2) at fault" not in out
    assert out.splitlines()[-1].endswith("the signed record stops before the game's end and "
                                         "names nobody"), out


def test_a_damaged_line_after_a_finished_game_says_the_record_itself_checks_out(game, tmp_path):
    """"The verdict also says whether the signed record checks out by itself"."""
    path = tmp_path / "t.jsonl"
    path.write_bytes(game.data + b"{not json\n")
    code, out, js = tm.cli_audit(path)
    assert code == 1 and js["verdict"] == "damaged record" and js["culprit"] is None, out
    assert out.splitlines()[-1].endswith("the signed record itself checks out: the game was "
                                         "played to its end"), out
    assert [c["check"] for c in js["checks"] if not c["ok"]] == ["signatures and hash chains"]


def test_damage_anywhere_in_an_honest_record_names_nobody(game, tmp_path):
    """Never creates one, attacked everywhere: an honest, finished record with one line (the
    first ones: the roster, the notes, the deck's first steps; then lines spread over the game;
    every line with P2PCARDS_LONG=1) torn or replaced by junk is a damaged record, never a cheat,
    and never a traceback."""
    from p2pcards.audit import DAMAGED, audit_transcript

    lines = game.lines
    step = 1 if LONG else max(1, len(lines) // 6)
    for i in [*range(1, 4), *range(4, len(lines), step)]:
        for kind in ("junk", "torn") if LONG else ("junk" if i % 2 else "torn",):
            mutant = list(lines)
            mutant[i] = b"{not json" if kind == "junk" else mutant[i][: len(mutant[i]) // 2]
            path = tmp_path / f"{i}-{kind}.jsonl"
            path.write_bytes(tm.join(mutant))
            rep = audit_transcript(str(path))
            assert rep.status == DAMAGED and rep.culprit is None, (i, kind, rep.lines())
            assert f"line {i + 1}:" in rep.checks[0][2], (i, kind, rep.checks[0])
