"""Red team 6a #6: a player forges his own transcript so that ``p2pcards audit`` "proves" another
player cheated. Roster entries are signed by their own key only, so the forger gives the victim's
seat a key he made, re-signs and re-chains every one of the victim's envelopes with it, and breaks
one of the victim's proofs (``/work/tmp/redteam6a/f1_forge_roster.py``'s method). The deck's game
description now binds every seat's key (protocol/SPEC.md 2.1): the forger's own signed messages
still bind the victim's real key, so the forged file no longer matches them, and nobody is named.
The audit also prints each seat's fingerprint in its header and beside a culprit."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from p2pcards.cli import app
from protocol.envelope import ENV_DOMAIN, GENESIS, b64, canonical, envelope_hash
from protocol.identity import Identity
from protocol.roster import entry_payload

from . import transcript_mutants as tm

# the game is the one the audit tests share (tm.shared_game, played once in the "shared-game"
# group's worker); the records made by an earlier version below are played here
pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]

runner = CliRunner()
VICTIM = 1  # bob; the file is alice's (seat 0), the forger's own transcript


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    return tm.shared_game(tmp_path_factory)  # read only: the forged records go to tmp_path


def audit(path: Path) -> tuple[int, str, dict[str, Any]]:
    res = runner.invoke(app, ["audit", str(path)])
    js = runner.invoke(app, ["audit", "--json", str(path)])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res.exit_code, res.output, json.loads(js.output)


def forge(g: tm.Game, out: Path, signer: Identity | None) -> Path:
    """The victim's seat re-keyed to ``signer`` (a key the forger made; ``None``: the victim's
    own key, which only a test holds), every envelope of the victim's re-signed and re-chained
    with it, and the proof of the victim's first shuffle step broken."""
    victim_id = signer or g.identities[VICTIM]
    recs = [json.loads(ln) for ln in g.lines]
    table = recs[0]["table"]
    seq, head, broken = 0, GENESIS, False
    for r in recs:
        if r["type"] == "roster" and signer is not None:
            for m in r["roster"]:
                if m["seat"] == VICTIM:
                    m["key"] = signer.key_hex
                    m["sig"] = b64(signer.sign(entry_payload(table, m["name"], signer.key_hex,
                                                             m["addr"])))
        elif r["type"] in ("in", "out") and r["env"]["from"] == VICTIM:
            env = r["env"]
            body = env.get("body")
            if (not broken and env["topic"] == "deck" and isinstance(body, dict)
                    and body.get("step") == "shuffle"):
                body = copy.deepcopy(body)
                body["proof"]["s1"] = body["proof"]["s2"]  # a proof that does not verify
                env["body"] = body
                broken = True
            seq += 1
            env["seq"], env["prev"] = seq, head
            env.pop("sig", None)
            env["sig"] = b64(victim_id.sign(ENV_DOMAIN + canonical(env)))
            head = envelope_hash(env)
    assert broken
    out.write_bytes(b"".join(canonical(r) + b"\n" for r in recs))
    journal = g.path.with_suffix(".seat")
    if journal.exists():
        shutil.copy(journal, out.with_suffix(".seat"))
    return out


def test_a_re_keyed_seat_no_longer_proves_its_player_cheated(game, tmp_path):
    fake = Identity.load_or_create(tmp_path / "fake")
    code, out, js = audit(forge(game, tmp_path / "forged.jsonl", fake))
    assert "signatures and hash chains" in out and "[ok] signatures" in out, out  # it verifies
    assert js["culprit"] is None, out  # bob is not "proven" to cheat, nor anyone else
    assert "at fault" not in out and "bob (seat 2)" not in out.split("Verdict:")[1], out
    assert code == 1 and "the record's game description is not the one the peers played" in out
    # the header shows the key the file gives bob: the forger's, not the one bob reads out
    assert f"players: alice {game.identities[0].fingerprint}, bob {fake.fingerprint}" in out


def test_the_audit_shows_each_seat_s_fingerprint_beside_its_name_and_the_culprit(game, tmp_path):
    code, out, js = audit(game.path)
    fa, fb = game.identities[0].fingerprint, game.identities[VICTIM].fingerprint
    assert code == 0 and f"players: alice {fa}, bob {fb}, roster code " in out, out
    assert js["fingerprints"] == [fa, fb]
    # the same break signed with bob's own key (only this test holds it): bob is at fault
    code, out, js = audit(forge(game, tmp_path / "bob.jsonl", None))
    assert code == 1 and js["culprit"] == VICTIM, out
    assert f"Verdict: NOT clean: bob (seat 2) at fault, fingerprint {fb} (" in out, out


def test_a_record_made_before_the_keys_were_bound_still_audits_and_says_so(tmp_path, monkeypatch):
    """A record whose key shares bind the description without the keys (made before this
    version) is audited as before, with a line saying its keys are vouched for by nobody else,
    instead of "the record's game description is not the one the peers played". And it still
    replays (``p2pcards replay``): the replay refused it with "the deck audit fails"."""
    g = made_by_an_earlier_version(tmp_path, monkeypatch, keys=False)
    code, out, js = audit(g.path)
    assert code == 0 and "Verdict: clean" in out, out
    assert "[ok] the players' keys: this record was made before the deck bound every" in out, out
    assert_it_replays(g)


def made_by_an_earlier_version(tmp_path: Path, monkeypatch: Any, keys: bool,
                               secrecy: int = 0) -> tm.Game:
    """A game played as programs of the engine's ``secrecy`` played it: 0, before claims were
    proven (no ``prove`` operation, a description without ``claims``); 1, with claims proven and
    each followed by a re-mix, but no re-encryption before shares add up (``"claims": 1``); 2,
    this engine's. And before the deck bound the keys unless ``keys``; always before the roster
    code's draw (no ``"code"`` in the description, the game's first operation at 1)."""
    import functools

    import p2pcards.lobby as lobby
    from p2pcards.engine.state import GameState

    with monkeypatch.context() as m:
        m.setattr(GameState, "secrecy", secrecy)
        m.setattr(lobby, "deck_spec", functools.partial(lobby.deck_spec, secrecy=secrecy, code=False))
        if not keys:
            m.setattr(lobby, "keys_digest", lambda _roster: None)
        return tm.make_game(tmp_path)


def assert_it_replays(g: tm.Game, secrecy: int = 0) -> None:
    from p2pcards.ui import saved
    s = saved.load_any(g.path)
    assert s.finished and s.viewer == 0 and s.secrecy == secrecy, s
    assert saved.frames(s, 0)[-1].log[-1] == f"Result: {s.result_text}"


@pytest.mark.parametrize("secrecy", [0, 1, 2])
def test_a_record_made_by_an_earlier_engine_still_audits_and_replays(tmp_path, monkeypatch,
                                                                     secrecy):
    """Secrecy 0: its deck holds no proofs where this version's engine asks for one (a Go Out
    Girl pass with a face-down character): the audit derived a ``prove`` operation there and
    named the honest player whose message was of the old kind ("alice (seat 1) at fault ...
    message describes another operation"), and the replay refused the record. Secrecy 1: its
    deck holds a re-mix after each proof, which this version no longer makes. Secrecy 2: this
    engine's, but made before the roster code's draw: its operation 1 is the game's first, not
    the draw (mesh version 4). Such a record is read as its own version played it."""
    g = made_by_an_earlier_version(tmp_path, monkeypatch, keys=True, secrecy=secrecy)
    code, out, js = audit(g.path)
    assert code == 0 and "Verdict: clean" in out and js["culprit"] is None, out
    assert_it_replays(g, secrecy)

