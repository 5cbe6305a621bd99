"""Red team (redteam4 REPORT, "Not reached"): the owner's seat journal (``<table>.seat``, beside
the transcript) is the owner's own file, and nobody signs it. ``p2pcards audit`` reads its deck
seed and its arrangement orders to replay the game on the owner's view. An edited journal used to
steer that replay: a wrong seed (edited, or the journal of another seat or another table) stopped
the deck audit at the first card opened to the owner ("a broken proof system"), and a wrong
arrangement order stopped the replay at the next reveal ("no one -- slot 90 revealed as 93") or
was taken as the owner's view. Either way, a real fault later in the record (a seat's bad deck
message, an illegal move) was no longer named: "NOT clean: the audit names nobody".

Now the journal only adds the owner's own view, checked against the signed record: its seed must
be the one behind the owner's signed key share, and every arrangement (and hand mix) must
reproduce the owner's signed reorder message. A journal that does not match is marked DAMAGED,
is not used (the game is replayed as a spectator), and never names anybody or hides anybody.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from p2pcards.audit import CLEAN, DAMAGED, audit_transcript
from p2pcards.cli import app
from tests.table import transcript_mutants as tm

# one worker plays the shared game once for every module reading it, and its proofs, checked
# live, are remembered there (protocol.proof_common.remember_holds): each audit of the record
# or of a mutant of it re-checks only what differs
pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]

runner = CliRunner()


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    """A real, clean, finished two-player Go Out Girl game: alice's (seat 0's) transcript; her
    seat journal is beside it, bob's in his own home."""
    return tm.shared_game(tmp_path_factory)


@pytest.fixture(scope="module")
def other_game(tmp_path_factory) -> tm.Game:
    """Another table's game, for its journal."""
    return tm.shared_game(tmp_path_factory, "other")


def journal_of(g: tm.Game, seat: int = 0) -> list[dict[str, Any]]:
    path = g.path.with_suffix(".seat")
    if seat == 1:  # bob's home: <root>/b/tables/<table>.seat
        path = g.path.parents[2] / "b" / "tables" / path.name
    return [json.loads(ln) for ln in path.read_text().splitlines()]


def beside(tmp_path: Path, data: bytes, name: str, journal: list[dict[str, Any]] | str | None
           ) -> Path:
    """A copy of a transcript with ``journal`` (records, raw text, or none) beside it."""
    path = tmp_path / name
    path.write_bytes(data)
    if journal is not None:
        text = journal if isinstance(journal, str) else \
            "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in journal)
        path.with_suffix(".seat").write_text(text)
    return path


def arranged(journal: list[dict[str, Any]]) -> list[int]:
    return [i for i, r in enumerate(journal) if r.get("kind") == "arrange"]


def journal_check(rep) -> tuple[bool, str, bool]:
    hits = [(ok, d, i in rep.damaged) for i, (w, ok, d) in enumerate(rep.checks)
            if w == "the owner's seat journal"]
    assert len(hits) == 1, rep.lines()
    return hits[0]


def assert_not_used(rep) -> None:
    """The journal is reported as not matching, is not used, and blames nobody."""
    ok, detail, damaged = journal_check(rep)
    assert not ok and damaged, rep.lines()
    assert "not used" in detail, detail
    replayed = [(ok, d) for w, ok, d in rep.checks if w == "game replayed on what the deck opened"]
    assert len(replayed) <= 1 and all("as a spectator" in d for ok, d in replayed if ok), \
        rep.lines()


def test_the_true_journal_replays_on_the_owners_view(game, tmp_path):
    rep = audit_transcript(str(beside(tmp_path, game.data, game.path.name, journal_of(game))))
    assert rep.status == CLEAN, rep.lines()
    spectator = audit_transcript(str(beside(tmp_path, game.data, "t2.jsonl", None)))
    assert spectator.status == CLEAN, spectator.lines()
    ok, detail, damaged = journal_check(rep)
    assert ok and not damaged and "match" in detail, detail
    assert any("alice's view" in d for _, _, d in rep.checks), rep.lines()


def _random_seed(g: tm.Game, other: tm.Game) -> list[dict[str, Any]]:
    j = journal_of(g)
    return [{"kind": "seed", "deck": os.urandom(32).hex()}] + j[1:]


@pytest.mark.parametrize("which", ["a random seed", "bob's journal", "another table's journal",
                                   "a second seed line first"])
def test_a_journal_whose_seed_is_not_the_owners_is_damaged_and_not_used(game, other_game,
                                                                          tmp_path, which):
    j = {"a random seed": lambda: _random_seed(game, other_game),
         "bob's journal": lambda: journal_of(game, 1),
         "another table's journal": lambda: journal_of(other_game),
         "a second seed line first": lambda: _random_seed(game, other_game)[:1] + journal_of(game),
         }[which]()
    rep = audit_transcript(str(beside(tmp_path, game.data, game.path.name, j)))
    assert rep.status == DAMAGED and rep.culprit is None, rep.lines()
    assert_not_used(rep)
    assert any("as a spectator" in d for _, _, d in rep.checks), rep.lines()
    words = rep.verdict_words()
    assert "journal" in words and "the signed record itself checks out" in words, words


def _reversed_first(j):
    i = arranged(j)[0]
    j[i]["order"] = j[i]["order"][::-1]
    return j


def _swapped_pair(j):
    i = arranged(j)[0]
    o = j[i]["order"]
    o[0], o[1] = o[1], o[0]
    return j


def _extra_after(j):
    last = j[arranged(j)[-1]]
    return j + [{"kind": "arrange", "step": 10**6, "order": last["order"]}]


def _extra_before(j):
    first = j[arranged(j)[0]]
    return j[:1] + [{"kind": "arrange", "step": 0, "order": first["order"][::-1]}] + j[1:]


def _dropped(j):
    return [r for k, r in enumerate(j) if k != arranged(j)[1]]


def _same_step_twice(j):
    first = dict(j[arranged(j)[0]])
    return j + [{**first, "order": first["order"][::-1]}]


def _not_a_permutation(j):
    i = arranged(j)[0]
    j[i]["order"] = j[i]["order"][:-1]
    return j


@pytest.mark.parametrize("edit", [_reversed_first, _swapped_pair, _extra_after, _extra_before,
                                  _dropped, _same_step_twice, _not_a_permutation],
                         ids=lambda f: f.__name__.strip("_"))
def test_an_arrangement_the_owner_never_made_is_damaged_and_not_used(game, tmp_path, edit):
    rep = audit_transcript(str(beside(tmp_path, game.data, game.path.name,
                                      edit(journal_of(game)))))
    assert rep.status == DAMAGED and rep.culprit is None, rep.lines()
    assert_not_used(rep)


@pytest.mark.parametrize("text", ["{not json\n", "[1, 2]\n", '{"kind":"seed","deck":"zz"}\n',
                                  '{"kind":"arrange","step":4,"order":["x"]}\n', ""])
def test_an_unreadable_journal_is_damaged_and_not_used(game, tmp_path, text):
    j = "".join(json.dumps(r) + "\n" for r in journal_of(game)) + text
    if not text:
        j = ""  # an empty journal: no seed
    rep = audit_transcript(str(beside(tmp_path, game.data, game.path.name, j)))
    assert rep.status == DAMAGED and rep.culprit is None, rep.lines()
    assert_not_used(rep)


def test_a_torn_last_line_is_what_a_crash_leaves_and_is_not_damage(game, tmp_path):
    j = "".join(json.dumps(r) + "\n" for r in journal_of(game)) + '{"kind":"dec'
    rep = audit_transcript(str(beside(tmp_path, game.data, game.path.name, j)))
    assert rep.status == CLEAN, rep.lines()


def test_edits_the_audit_does_not_read_change_nothing(game, tmp_path):
    """The journal's own decisions are not read (the signed game messages are the moves), and
    the order of its lines does not matter: the audit stays clean on the owner's view."""
    j = journal_of(game)
    for r in j:
        if r.get("kind") == "decision":
            r["action"] = {"kind": "withdraw"}
    j = j[:1] + j[1:][::-1]
    rep = audit_transcript(str(beside(tmp_path, game.data, game.path.name, j)))
    assert rep.status == CLEAN, rep.lines()
    assert journal_check(rep)[0]


def with_bobs_fault(g: tm.Game, kind: str) -> bytes:
    """Alice's transcript with a fault of bob's in it, validly signed by bob: an end-of-game
    digest that is no digest (the deck audit names him; a digest that only differs from
    alice's record would not, at two seats: alice could have rewritten her own messages) or his last move turned into a play of a slot that
    does not exist (malformed whatever the deal: the replay names him; an Akane Barrier, used
    before, was sometimes legal and the test skipped)."""
    recs = tm.parse(g.lines)
    mine = [r["env"] for r in recs if r.get("type") in ("in", "out")
            and r["env"].get("from") == 1 and isinstance(r["env"].get("body"), dict)]
    if kind == "deck":
        env = next(e for e in reversed(mine) if e["topic"] == "deck" and e["body"]["step"] == "end")
        env["body"]["digest"] = "no digest"
    else:
        env = [e for e in mine if e["topic"] == "game"][-1]
        env["body"]["action"] = {"kind": "play", "count": 1, "number": 1, "slots": [9999]}
    return tm.join(tm.encode(tm.resign(recs, g.identities)))


@pytest.mark.parametrize("kind", ["deck", "move"])
@pytest.mark.parametrize("edit", ["seed", "arrangement"])
def test_a_damaged_journal_never_hides_a_real_fault(game, tmp_path, kind, edit):
    data = with_bobs_fault(game, kind)
    (tmp_path / "plain").mkdir()
    plain = audit_transcript(str(beside(tmp_path / "plain", data, game.path.name, None)))
    assert plain.culprit == 1, plain.lines()
    j = _random_seed(game, game) if edit == "seed" else _reversed_first(journal_of(game))
    rep = audit_transcript(str(beside(tmp_path, data, game.path.name, j)))
    assert rep.culprit == 1 and rep.found[1] == plain.found[1], rep.lines()
    assert "bob (seat 2) at fault" in rep.verdict_words()
    if edit == "seed" or kind == "move":  # (bob's bad deck message stops the audit before the
        assert_not_used(rep)              # replay: the arrangements are never read)
        assert "journal" in rep.verdict_words()


def test_the_command_line_says_the_journal_was_not_used(game, tmp_path):
    path = beside(tmp_path, game.data, game.path.name, journal_of(game, 1))
    res = runner.invoke(app, ["audit", str(path)])
    assert res.exit_code == 1, res.output
    assert "[DAMAGED] the owner's seat journal" in res.output, res.output
    js = json.loads(runner.invoke(app, ["audit", "--json", str(path)]).output)
    assert js["verdict"] == DAMAGED and js["culprit"] is None
    shutil.rmtree(tmp_path)
