"""Red team 13, H1: after an honest game, a player rewrites its *own* deck messages in its own
transcript -- equally valid messages, signed with its own key, its own chain re-signed -- and
``p2pcards audit`` of that file named an honest seat, whose authentic messages (signed against
what it really received) no longer matched the record: "NOT clean: bot2 (seat 2) at fault" for
the winner of a clean match. A record's owner can rewrite its own messages, so what another seat
signed against them is no proof until a seat other than the owner confirms them: each of these
forgeries now names nobody. H2: a key share whose signed ``desc`` is a list crashed the audit.

Red team 13, left open: an owner that *re-keys* in its file -- a new key share with a valid proof
of knowledge, every later message of its own re-made under the new joint key -- got the first
other seat's step (made under the real key) named. Every keyed step now states the joint key its
sender computed (SPEC.md 5.1, 9): a step stating another key than the file's rests on the key
shares, and at two seats nobody but the owner can confirm the file's, so nobody is named."""

from __future__ import annotations

import os
from typing import Any

import pytest

from p2pcards.audit import audit_transcript, deck_params
from p2pcards.games import new_game
from p2pcards.lobby import GameInfo
from protocol.kdf import PeerSecrets
from protocol.proofs import point_from_hex
from protocol.steps import (
    KEYED_STEPS,
    PublicDeck,
    commitment,
    record_digest,
)
from protocol.transcript import read_transcript

from ..protocol.deck_helpers import rekey
from . import transcript_mutants as tm
from .test_transcript_fuzz import run_audit

pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]

OWNER = 0  # the shared game is alice's (seat 0's) record of a two-seat match


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    return tm.shared_game(tmp_path_factory)


def deck_bodies(recs: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [r["env"]["body"] for r in recs if r.get("type") in ("in", "out")
            and r["env"]["from"] == seat and r["env"]["topic"] == "deck"
            and isinstance(r["env"].get("body"), dict)]


def deck_of(game: tm.Game) -> tuple[Any, Any]:
    """The record, read, and its deck's parameters."""
    t = read_transcript(game.path)
    info = GameInfo.from_json(t.game_info)
    n_cards = new_game(info.game, info.players, info.options).n_cards
    params, _, _ = deck_params(t, info, n_cards, [(e.sender, e.body) for e in t.entries
                                                  if e.topic == "deck" and e.to is None])
    return t, params


def audit_forged(game: tm.Game, tmp_path, recs: list[dict[str, Any]]) -> tuple[int, str]:
    """The owner's own envelopes re-chained and re-signed with the owner's key alone."""
    path = tmp_path / game.path.name
    path.write_bytes(tm.join(tm.encode(tm.resign(recs, {OWNER: game.identities[OWNER]}))))
    read_transcript(path)  # every signature and chain holds
    return run_audit(path)


def test_the_untouched_record_is_clean(game, tmp_path):
    code, out = audit_forged(game, tmp_path, tm.parse(game.lines))
    assert code == 0 and "Verdict: clean" in out, out


def test_an_owner_rewriting_its_random_commitment_gets_nobody_named(game, tmp_path):
    recs = tm.parse(game.lines)
    t, params = deck_of(game)
    mine = deck_bodies(recs, OWNER)
    commit = next(b for b in mine if b["step"] == "commit")
    reveal = next(b for b in mine if b["step"] == "reveal" and b["op"] == commit["op"])
    nonce = os.urandom(32)
    commit["commit"] = commitment(params, commit["op"], OWNER, nonce).hex()
    reveal["nonce"], reveal["echo"][OWNER] = nonce.hex(), commit["commit"]
    code, out = audit_forged(game, tmp_path, recs)
    assert "at fault" not in out and "nobody is named" in out, out  # bob was named here
    assert "echo misstates seat 1's commitment" in out, out


def test_an_owner_rewriting_its_shuffle_step_gets_nobody_named(game, tmp_path):
    recs = tm.parse(game.lines)
    t, params = deck_of(game)
    pub = PublicDeck(params)
    keys = {e.sender: point_from_hex(e.body["y"]) for e in t.entries if e.topic == "deck"
            and e.to is None and e.body["op"] == 0 and e.body["step"] == "key"}
    pub.set_keys([keys[s] for s in range(t.seats)])
    mine = deck_bodies(recs, OWNER)
    step = next(b for b in mine if b["step"] == "shuffle" and b.get("by") is None)
    cur = [pub.cts[s] for s in step["slots"]]  # the first full shuffle: alice's is first
    perm = list(range(len(cur)))[::-1]
    _, fields = pub.make_shuffle(PeerSecrets(os.urandom(32)), step["op"], OWNER, cur, perm)
    step.update(fields)
    code, out = audit_forged(game, tmp_path, recs)
    assert "at fault" not in out and "nobody is named" in out, out  # bob was named here
    assert "prev does not name the vector" in out, out


def test_an_end_digest_is_no_proof_against_a_seat_only_the_owner_disagrees_with(game, tmp_path):
    """The owner's messages that no later message names (a key proof, made again with fresh
    randomness) are confirmed only by the others' end-of-game digests: at two seats, a digest
    that differs from the owner's record names nobody; one that is no digest names its seat."""
    recs = tm.parse(game.lines)
    bob_end = next(b for b in deck_bodies(recs, 1) if b["step"] == "end")
    bob_end["digest"] = "00" * 32  # bob signs another record (or alice rewrote hers)
    path = tmp_path / "other.jsonl"
    path.write_bytes(tm.join(tm.encode(tm.resign(recs, game.identities))))
    code, out = run_audit(path)
    assert "at fault" not in out and "nobody is named" in out, out
    bob_end["digest"] = "no digest"
    path.write_bytes(tm.join(tm.encode(tm.resign(recs, game.identities))))
    rep = audit_transcript(str(path))
    assert rep.culprit == 1 and "is not a digest" in " ".join(rep.lines()), rep.lines()


def test_a_key_share_whose_desc_is_a_list_is_named_not_a_crash(game, tmp_path):
    """H2: ``p2pcards audit`` and ``replay`` ended in "internal error (TypeError: unhashable
    type: 'list')" on the victim's own record; the live table names the sender."""
    recs = tm.parse(game.lines)
    for value in ([], {}, ["x"]):
        key = next(b for b in deck_bodies(recs, 1) if b["step"] == "key")
        key["desc"] = value
        path = tmp_path / "t.jsonl"
        path.write_bytes(tm.join(tm.encode(tm.resign(recs, game.identities))))
        code, out = run_audit(path)
        assert code == 1 and "bob (seat 2) at fault" in out, out


# ---- re-keying (SPEC.md 9) -------------------------------------------------------------------
def owners_record(game: tm.Game, owner: int) -> tuple[Any, list[dict[str, Any]]]:
    """Seat ``owner``'s own transcript of the shared game (both seats kept theirs)."""
    path = game.path.parents[2] / "ab"[owner] / "tables" / game.path.name
    return path, tm.parse(path.read_bytes().splitlines())


def deck_ops(recs: list[dict[str, Any]]) -> dict[int, dict[tuple[str, int], dict[str, Any]]]:
    """The record's deck bodies (live objects: editing one edits ``recs``), by op and step."""
    out: dict[int, dict[tuple[str, int], dict[str, Any]]] = {}
    for r in recs:
        env = r.get("env")
        if r.get("type") in ("in", "out") and env["topic"] == "deck" and env["to"] is None \
                and isinstance(env.get("body"), dict) and env["body"]["step"] != "abort":
            out.setdefault(env["body"]["op"], {})[(env["body"]["step"], env["from"])] = env["body"]
    return out


def test_an_owner_re_keying_in_its_own_file_gets_nobody_named(game, tmp_path):
    """Bob re-keys in his own record: alice's first shuffle step (signed under the real key,
    over the real initial deck, which depends on it) no longer matches his file. The old audit
    named her ("NOT clean: alice (seat 1) at fault"); her signed step states the key she was
    shown, which is not the file's, and at two seats no one else can say which key the table
    had: nobody is named."""
    owner = 1
    path, recs = owners_record(game, owner)
    t = read_transcript(path)
    params = deck_of(game)[1]
    rekey(deck_ops(recs), params, owner, b"\x07" * 32)  # its new seed
    out_path = tmp_path / path.name
    out_path.write_bytes(tm.join(tm.encode(tm.resign(recs, {owner: game.identities[owner]}))))
    assert read_transcript(out_path).seat == t.seat == owner  # every signature and chain holds
    code, out = run_audit(out_path)
    assert "at fault" not in out and "nobody is named" in out, out  # alice was named here
    assert "states another joint key" in out, out


def strip_keys(recs: list[dict[str, Any]], seats: set[int]) -> None:
    """``seats``' messages as the program before key statements made them: no keyed step
    states its key (and the end digest is over that record)."""
    ops = deck_ops(recs)
    for op, msgs in ops.items():
        for (st, j), body in msgs.items():
            if j not in seats:
                continue
            if st in KEYED_STEPS:
                body.pop("key", None)
            if st == "end":
                body["digest"] = record_digest([b for o, m in ops.items() if o < op
                                                for b in m.values()]).hex()


def test_a_record_made_before_key_statements_is_still_audited(game, tmp_path):
    """An older record (no ``key`` in any step) audits clean; re-keyed by its owner, it names
    nobody (the old audit named alice), since no seat's message says which key it was shown."""
    path, recs = owners_record(game, 1)
    strip_keys(recs, {0, 1})
    old = tmp_path / "old.jsonl"
    old.write_bytes(tm.join(tm.encode(tm.resign(recs, game.identities))))
    code, out = run_audit(old)
    assert code == 0 and "Verdict: clean" in out, out
    rekey(deck_ops(recs), deck_of(game)[1], 1, b"\x07" * 32)
    strip_keys(recs, {1})
    old.write_bytes(tm.join(tm.encode(tm.resign(recs, {1: game.identities[1]}))))
    code, out = run_audit(old)
    assert "at fault" not in out and "nobody is named" in out, out
    assert "made before its steps stated their joint key" in out, out


def test_a_non_owner_s_bad_proof_under_the_file_s_key_is_still_named(game, tmp_path):
    """What the new rule must not excuse: in alice's record, bob's first shuffle step states the
    table's key but its proof is not one (re-signed by bob: he sent it so). He is named."""
    recs = tm.parse(game.lines)
    step = next(b for b in deck_bodies(recs, 1) if b["step"] == "shuffle" and b["by"] is None)
    assert step["key"] == next(b for b in deck_bodies(recs, OWNER) if b["step"] == "shuffle")["key"]
    step["proof"] = next(b for b in deck_bodies(recs, OWNER) if b["op"] == step["op"]
                         and b["step"] == "shuffle")["proof"]  # alice's proof, not his
    path = tmp_path / "bad.jsonl"
    path.write_bytes(tm.join(tm.encode(tm.resign(recs, game.identities))))
    code, out = run_audit(path)
    assert code == 1 and "bob (seat 2) at fault" in out and "shuffle proof" in out, out
