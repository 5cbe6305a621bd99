"""Red team 13, H1: after an honest game, a player rewrites its *own* deck messages in its own
transcript -- equally valid messages, signed with its own key, its own chain re-signed -- and
``p2pcards audit`` of that file named an honest seat, whose authentic messages (signed against
what it really received) no longer matched the record: "NOT clean: bot2 (seat 2) at fault" for
the winner of a clean match. A record's owner can rewrite its own messages, so what another seat
signed against them is no proof until a seat other than the owner confirms them: each of these
forgeries now names nobody. H2: a key share whose signed ``desc`` is a list crashed the audit."""

from __future__ import annotations

import os
from typing import Any

import pytest

from p2pcards.audit import audit_transcript, deck_params
from p2pcards.games import new_game
from p2pcards.lobby import GameInfo
from protocol.kdf import PeerSecrets
from protocol.proofs import point_from_hex
from protocol.steps import PublicDeck, commitment
from protocol.transcript import read_transcript

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
