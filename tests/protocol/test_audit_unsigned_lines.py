"""Red team (REPORT section 6): the lines of a transcript nobody signed -- ``stop`` and ``fault``
-- are not evidence. One line ``{"type": "stop", "culprit": 1, ...}`` added to a clean, finished
game used to make ``p2pcards audit`` print "[FAIL] the table stopped: ... (recorded culprit:
bob (seat 2))" beside a deck audit and a replay that both passed, and one ``fault`` line with a
junk "proof" used to count as "1 proof(s) of a peer sending different things". Now:

- a ``fault`` line is checked with the mesh's own check of an equivocation proof (two envelopes
  validly signed by the seat it names, one place in that seat's chain, different contents); one
  that does not verify is reported as a line the signed record does not support (the verdict is
  *damaged record*), never as a proof against the seat it names;
- a ``stop`` line's culprit is shown as what the transcript's own program recorded at the time;
  the audit names a seat only when a verified proof or its own checks find that seat; a stop line
  beside a signed record that reached its end with every check passing is flagged as not borne
  out by that record, and nobody is blamed on it.
"""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from p2pcards.audit import audit_transcript
from p2pcards.cli import app
from protocol.envelope import ENV_DOMAIN, GENESIS, b64, box_key, canonical, envelope_hash, seal
from protocol.identity import Identity
from protocol.transcript import read_transcript
from tests.table import transcript_mutants as tm

# one worker plays the shared game once for every module reading it, and its proofs, checked
# live, are remembered there (protocol.proof_common.remember_holds): each audit of the record
# or of a mutant of it re-checks only what differs
pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]

runner = CliRunner()
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    """A real, clean, finished two-player game: seat 0's (alice's) transcript, both keys."""
    return tm.shared_game(tmp_path_factory)


def cli_audit(path: Path) -> tuple[int, str, dict[str, Any]]:
    res = runner.invoke(app, ["audit", str(path)])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    js = runner.invoke(app, ["audit", "--json", str(path)])
    return res.exit_code, res.output, json.loads(js.output)


def with_lines(game: tm.Game, tmp_path: Path, extra: list[dict[str, Any]],
               keep: int | None = None) -> tuple[Path, int]:
    """The game's transcript with ``extra`` records inserted before its end record (where the
    program would have written them), or after its first ``keep`` lines; returns the path and
    the line number of the first inserted record."""
    lines = list(game.lines[:keep]) if keep is not None else list(game.lines[:-1])
    at = len(lines) + 1
    lines += [canonical(r) for r in extra]
    if keep is None:
        lines.append(game.lines[-1])
    path = tmp_path / "t.jsonl"
    path.write_bytes(tm.join(lines))
    return path, at


def sign(env: dict[str, Any], who: Identity) -> dict[str, Any]:
    env = {k: v for k, v in env.items() if k != "sig"}
    env["sig"] = b64(who.sign(ENV_DOMAIN + canonical(env)))
    return env


def bobs_envelope(game: tm.Game, nth: int = 3) -> dict[str, Any]:
    envs = [r["env"] for r in tm.parse(game.lines)
            if r.get("type") == "in" and r["env"]["from"] == 1 and r["env"]["to"] is None]
    return copy.deepcopy(envs[nth])


def other_copy(game: tm.Game, env: dict[str, Any]) -> dict[str, Any]:
    """Another envelope in ``env``'s place of bob's chain, signed with bob's real key: with ``env``,
    a true proof that bob signed two different things as one message."""
    twin = copy.deepcopy(env)
    twin["body"] = {**twin["body"], "twin": 1}
    return sign(twin, game.identities[1])


FORGED_STOP = {"type": "stop", "culprit": 1, "by": 0, "claimed": None,
               "reason": "bob: the share proof fails (deck step shares)"}
JUNK_FAULT = {"type": "fault", "seat": 1, "reason": "signed two different envelopes with seq 7",
              "first": {"junk": 1}, "second": None}


def test_the_clean_game_audits_clean(game, tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(game.data)
    code, out, js = cli_audit(path)
    assert code == 0 and "Verdict: clean" in out, out
    assert js["verdict"] == "clean" and js["clean"] and js["culprit"] is None


def test_a_forged_stop_line_in_a_clean_finished_game_blames_nobody(game, tmp_path):
    """The attack as written: the stop line is not the record's, and the record contradicts it."""
    path, at = with_lines(game, tmp_path, [FORGED_STOP])
    code, out, js = cli_audit(path)
    assert code == 1, out
    assert "[ok] deck audit" in out and "[ok] game replayed" in out, out
    assert "Verdict: damaged record" in out and "NOT clean" not in out, out
    (stop,) = [c for c in js["checks"] if c["check"] == "the table stopped"]
    assert not stop["ok"] and stop["damaged"]
    assert f"line {at}" in stop["detail"]
    assert "the signed record shows the game played to its end" in stop["detail"]
    assert "nobody is blamed" in stop["detail"]
    assert js["verdict"] == "damaged record" and js["culprit"] is None
    assert js["recorded_culprit"] == 1 and js["outcome"] is not None


def test_a_fault_line_with_a_junk_proof_is_an_unverified_line_not_a_proof(game, tmp_path):
    path, at = with_lines(game, tmp_path, [JUNK_FAULT])
    t = read_transcript(path)
    assert t.faults == [] and [(u.line, u.seat) for u in t.unverified] == [(at, 1)]
    code, out, js = cli_audit(path)
    assert code == 1, out
    assert "proof(s) of a peer sending different things" not in out, out
    assert "Verdict: damaged record" in out and "[ok] game replayed" in out, out
    bad = [c for c in js["checks"] if c.get("damaged")]
    assert len(bad) == 1 and f"line {at}" in bad[0]["detail"]
    assert "no proof against bob (seat 2)" in bad[0]["detail"]
    assert js["verdict"] == "damaged record" and js["culprit"] is None


def _second_spelling(env: dict[str, Any]) -> dict[str, Any]:
    sig = env["sig"]
    return dict(env, sig=sig[:-3] + B64[B64.index(sig[-3]) ^ 1] + "==")


@pytest.mark.parametrize("how", [
    "the same envelope twice",
    "a second spelling of its signature",
    "a pair whose second is not signed by bob",
    "a true pair against bob, the line naming alice",
    "two of bob's envelopes at different places",
    "no second envelope, a junk first",
])
def test_a_fault_line_that_does_not_verify_names_nobody(game, tmp_path, how):
    env = bobs_envelope(game)
    seat, first, second = 1, env, other_copy(game, env)
    if how == "the same envelope twice":
        second = env
    elif how == "a second spelling of its signature":
        second = _second_spelling(env)  # the mesh refuses it; its hash differs, its bytes do not
    elif how == "a pair whose second is not signed by bob":
        second = sign(second, game.identities[0])
    elif how == "a true pair against bob, the line naming alice":
        seat = 0
    elif how == "two of bob's envelopes at different places":
        second = bobs_envelope(game, 7)
    else:
        first, second = {"from": 1, "seq": 4}, None
    rec = {"type": "fault", "seat": seat, "reason": "lies", "first": first, "second": second}
    path, at = with_lines(game, tmp_path, [rec])
    assert read_transcript(path).faults == []
    code, out, js = cli_audit(path)
    assert code == 1 and "Verdict: damaged record" in out, out
    assert js["culprit"] is None and "[ok] game replayed" in out
    assert [c["detail"].split(":")[0] for c in js["checks"] if c.get("damaged")] == [f"line {at}"]


def test_a_true_equivocation_proof_names_its_author(game, tmp_path):
    """Keep what works: two envelopes bob really signed for one place in his chain name bob, with
    or without a stop line of the program's naming him too."""
    env = bobs_envelope(game)
    fault = {"type": "fault", "seat": 1, "first": env, "second": other_copy(game, env),
             "reason": f"seat 2 signed two different envelopes with seq {env['seq']}"}
    path, _ = with_lines(game, tmp_path, [fault, dict(FORGED_STOP, reason="bob sent different "
                                                      "messages to different players")])
    (rec,) = read_transcript(path).faults
    assert rec["seat"] == 1
    code, out, js = cli_audit(path)
    assert code == 1 and "Verdict: NOT clean: bob (seat 2)" in out, out
    assert js["verdict"] == "not clean" and js["culprit"] == 1 and js["recorded_culprit"] == 1
    (eq,) = [c for c in js["checks"] if c["check"] == "no equivocation recorded"]
    assert not eq["ok"] and not eq.get("damaged")
    assert f"bob (seat 2) signed two different envelopes with seq {env['seq']}" in eq["detail"]
    (stop,) = [c for c in js["checks"] if c["check"] == "the table stopped"]
    assert "the audit finds the same" in stop["detail"] and not stop.get("damaged")


def test_a_broken_chain_proof_names_its_author(game, tmp_path):
    """The mesh's other kind of proof: bob's next envelope signed twice, one copy not following
    the envelope before it."""
    env = bobs_envelope(game)
    nxt = copy.deepcopy(env)
    nxt["seq"], nxt["prev"], nxt["body"] = env["seq"] + 1, "ab" * 32, {"fork": 1}
    fault = {"type": "fault", "seat": 1, "reason": "fork", "first": env,
             "second": sign(nxt, game.identities[1])}
    path, _ = with_lines(game, tmp_path, [fault])
    code, out, js = cli_audit(path)
    assert js["culprit"] == 1 and js["verdict"] == "not clean", out
    assert f"seq {env['seq'] + 1} does not follow its seq {env['seq']}" in out


def bobs_private(game: tm.Game, topic: str) -> dict[str, Any]:
    """A private envelope bob really signed, to alice, on ``topic``."""
    alice, bob = game.identities[0], game.identities[1]
    table = tm.parse(game.lines[:1])[0]["table"]
    key = box_key(bob, alice.public_key, bob.public_key, alice.public_key, table)
    return seal(bob, table, 1, 999, GENESIS, topic, {"x": 1}, to=0, key=key)


def test_a_move_sent_to_one_seat_alone_is_named_on_its_signed_message(game, tmp_path):
    """The mesh's other fault line holds one message: a move or deck message sent privately,
    which every seat must get. Bob's signature on it, with its topic and recipient in the clear,
    is the proof; the same message on a line naming alice proves nothing against her."""
    env = bobs_private(game, "game")
    rec = {"type": "fault", "seat": 1, "first": env,
           "reason": "sent a game message to alice alone; every seat must get those"}
    path, at = with_lines(game, tmp_path, [rec])
    code, out, js = cli_audit(path)
    assert js["culprit"] == 1 and js["verdict"] == "not clean", out
    assert f"bob (seat 2) sent a game message to alice (seat 1) alone (line {at}" in out
    path, at = with_lines(game, tmp_path, [dict(rec, seat=0)])
    code, out, js = cli_audit(path)
    assert js["culprit"] is None and js["verdict"] == "damaged record", out
    assert "is signed by seat 2, not by the seat the line names" in out


def test_a_private_message_judged_at_the_time_is_this_programs_word(game, tmp_path):
    """A private payload the program could not open: only its two ends can check that, so the
    line is the program's word. Beside a game played to its end with every check passing it is
    not borne out; in a game that stopped early it is shown as the program's finding, naming
    nobody."""
    rec = {"type": "fault", "seat": 1, "first": bobs_private(game, "chat"),
           "reason": "undecryptable private payload (authentication failed)"}
    path, at = with_lines(game, tmp_path, [rec])
    code, out, js = cli_audit(path)
    assert js["culprit"] is None and js["verdict"] == "damaged record", out
    assert "Not borne out by the record" in out and f"line {at}" in out
    path, at = with_lines(game, tmp_path, [rec], keep=len(game.lines) // 2)
    code, out, js = cli_audit(path)
    assert js["culprit"] is None and js["verdict"] == "not clean", out
    (judged,) = [c for c in js["checks"] if c["check"] == "a message judged at the time"]
    assert "this program's own finding at the time" in judged["detail"]
    assert not judged["damaged"]


def test_a_stop_line_in_a_game_that_stopped_early_is_this_programs_record(game, tmp_path):
    """A record that stops before the game's end, with a stop line naming bob: the audit shows
    the culprit as the program's own record at the time and names nobody itself."""
    path, at = with_lines(game, tmp_path, [FORGED_STOP], keep=len(game.lines) // 2)
    code, out, js = cli_audit(path)
    assert code == 1 and "Verdict: NOT clean" in out, out
    (stop,) = [c for c in js["checks"] if c["check"] == "the table stopped"]
    assert "recorded culprit: bob (seat 2), this program's own finding at the time" in stop["detail"]
    assert not stop.get("damaged")
    assert js["verdict"] == "not clean" and js["culprit"] is None and js["recorded_culprit"] == 1
    assert "the audit names nobody" in out.splitlines()[-1]


@pytest.mark.parametrize("claim", [True, False])
def test_a_stop_naming_nobody_beside_a_clean_finished_game_is_flagged(game, tmp_path, claim):
    rec = {"type": "stop", "culprit": None, "by": 1, "reason": "bob stopped the table"}
    if claim:
        rec["claimed"] = 0
    path, _ = with_lines(game, tmp_path, [rec])
    code, out, js = cli_audit(path)
    assert code == 1 and "Verdict: damaged record" in out, out
    assert js["culprit"] is None and js["recorded_culprit"] is None


# -- honest stopped tables, through the real stack ------------------------------------------------


def test_a_real_equivocation_at_a_table_is_named_by_the_audit(tmp_path):
    """The mesh catches bob sending alice and carol two different envelopes for one seq; alice's
    transcript holds its fault line (the two envelopes) and its stop: the audit checks the proof
    and names bob, and shows the stop's culprit as the same."""
    from protocol.mesh.common import K_ENV
    from protocol.transcript import read_transcript as read
    from tests.mesh.helpers import close_all, make_table, until

    async def go():
        meshes = await make_table(tmp_path, 3)
        host, bob, carol = meshes
        try:
            chain = bob.verifier.chains[1]
            a = seal(bob.identity, bob.table, 1, chain.seq + 1, chain.head, "deck", {"card": 1})
            b = seal(bob.identity, bob.table, 1, chain.seq + 1, chain.head, "deck", {"card": 2})
            bob.verifier.append(a, envelope_hash(a))
            bob._sent_at.append(0.0)
            bob._send_frames(0, [K_ENV, canonical(a)])
            bob._send_frames(2, [K_ENV, canonical(b)])
            await until(lambda: all(m.stopped is not None and m.stopped.culprit == 1
                                    for m in (host, carol)), what="stops naming bob")
            return host.transcript_path
        finally:
            await close_all(meshes)

    path = asyncio.run(asyncio.wait_for(go(), 60))
    t = read(path)
    assert [f["seat"] for f in t.faults] == [1] and not t.unverified and t.stop["culprit"] == 1
    rep = audit_transcript(str(path))
    js = rep.to_json()
    assert js["culprit"] == 1 and js["recorded_culprit"] == 1 and js["verdict"] == "not clean"
    assert rep.lines()[-1].startswith("Verdict: NOT clean: bob (seat 2)")
    (stop,) = [d for w, _, d in rep.checks if w == "the table stopped"]
    assert "the audit finds the same" in stop


def test_an_honestly_stopped_game_audits_with_the_right_culprit(tmp_path):
    """Carol's client signs a deck message with one value changed; every honest program names her
    and stops. Alice's transcript audits naming carol, by the deck audit's own check, and the
    stop it recorded agrees."""
    from p2pcards.bots.registry import make_bot
    from p2pcards.lobby import play_seat
    from tests.mesh.helpers import close_all
    from tests.table.test_game_lies import forge_deck_message
    from tests.table.test_table_rules import honest_results, table_of

    async def go():
        meshes = await table_of(tmp_path, 3)
        try:
            async def seat(m):
                return await play_seat(
                    m, make_bot("go-out-girl", m.seat, "easy", m.seat), say=lambda s: None,
                    on_table=(lambda t: forge_deck_message(t, 3)) if m.seat == 2 else None,
                    deck_timeout=20)

            await honest_results(meshes, seat, 2)  # carol's own end is not waited for
            assert meshes[0].stopped is not None and meshes[0].stopped.culprit == 2
            return meshes[0].transcript_path
        finally:
            await close_all(meshes)

    path = asyncio.run(asyncio.wait_for(go(), 120))
    rep = audit_transcript(str(path))
    js = rep.to_json()
    assert js["culprit"] == 2 and js["recorded_culprit"] == 2 and js["verdict"] == "not clean"
    assert rep.lines()[-1].startswith("Verdict: NOT clean: carol (seat 3)"), rep.lines()
    (stop,) = [d for w, _, d in rep.checks if w == "the table stopped"]
    assert "the audit finds the same" in stop
    assert not [c for c in js["checks"] if c.get("damaged")]


def test_a_box_holding_more_than_its_envelope_is_named_on_its_own_key(game, tmp_path):
    """A box that takes more to hold than its envelope (padding only its recipient could see):
    the fault line holds the box's own key (mesh version 4), which opens that box alone, so the
    audit opens it and names its signer. A key that does not open it shows nothing: the line is
    no proof and names nobody."""
    from protocol.envelope import envelope_key

    alice, bob = game.identities[0], game.identities[1]
    table = tm.parse(game.lines[:1])[0]["table"]
    pair = box_key(bob, alice.public_key, bob.public_key, alice.public_key, table)
    env = seal(bob, table, 1, 999, GENESIS, "chat", {"text": "x", "step": 0, "pad": [{}] * 2_000},
               to=0, key=pair)
    rec = {"type": "fault", "seat": 1, "first": env, "key": envelope_key(pair, env).hex(),
           "reason": "sent alice a private message that takes more to hold than its envelope"}
    path, at = with_lines(game, tmp_path, [rec])
    code, out, js = cli_audit(path)
    assert js["culprit"] == 1 and js["verdict"] == "not clean", out
    assert (f"bob (seat 2) sent alice (seat 1) a private message that takes more to hold than "
            f"its envelope (line {at}") in out
    path, at = with_lines(game, tmp_path, [dict(rec, key="00" * 32)])
    code, out, js = cli_audit(path)
    assert js["culprit"] is None and js["verdict"] == "damaged record", out
    assert "its key does not show the box holding more than its envelope" in out


def test_a_message_on_a_topic_no_program_uses_is_named_on_its_signed_message(game, tmp_path):
    """The topic of a signed envelope is in the clear: bob's message on a topic no program at a
    table uses (a private one fills only its recipient's memory) names him."""
    rec = {"type": "fault", "seat": 1, "first": bobs_private(game, "junk"),
           "reason": "sent a message on topic 'junk', which no program at this table uses"}
    path, at = with_lines(game, tmp_path, [rec])
    code, out, js = cli_audit(path)
    assert js["culprit"] == 1 and js["verdict"] == "not clean", out
    assert f"bob (seat 2) sent a message on topic 'junk' (line {at}" in out
