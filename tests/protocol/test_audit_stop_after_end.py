"""A stop that came after the game's last move is an honest act, not a damaged file.

The case: bob's program did not get the last message of the game's end in time (a slow link, a
peer that left once it had finished), so it stopped the table, honestly; alice's record holds
the whole game, every check passing, and then the stop line her program wrote on bob's signed
stop. The audit called that file "damaged record" (exit 1): the stop line was unsigned, so it
looked like one added by hand. A stop line now keeps the stopper's signed stop message
(``signed``): with it, beside a clean and whole signed record, the audit says the game was
played to its end and then bob stopped the table, blaming nobody (clean). A stop line without
a valid signed stop there is still not borne out by the record (damaged, blaming nobody)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from p2pcards.audit import audit_transcript
from protocol.envelope import CTL_DOMAIN, b64, canonical
from protocol.identity import Identity
from protocol.transcript import read_transcript
from tests.table import transcript_mutants as tm

# one worker plays the shared game once for every module reading it, and its proofs, checked
# live, are remembered there (protocol.proof_common.remember_holds): each audit of the record
# or of a mutant of it re-checks only what differs
pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]



@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    return tm.shared_game(tmp_path_factory)  # read only: the crafted records go to tmp_path


cli_audit = tm.cli_audit


def signed_stop(game: tm.Game, by: Identity, frm: int, to: int, culprit: int | None = 0,
                table: str | None = None) -> dict[str, Any]:
    """The control message a program sends when it stops the table, signed by ``by``."""
    table = table or tm.parse(game.lines[:1])[0]["table"]
    msg = {"t": "stop", "table": table, "from": frm, "to": to, "sess": "s1", "boot": 1,
           "ctr": 40, "culprit": culprit, "proof": [], "heads": [120, 118],
           "reason": "alice did not come back within 2:00"}
    msg["sig"] = b64(by.sign(CTL_DOMAIN + canonical(msg)))
    return msg


def bobs_stop_line(msg: dict[str, Any] | None) -> dict[str, Any]:
    """The stop line alice's program writes on bob's stop naming her (his claim)."""
    rec = {"type": "stop", "culprit": None, "by": 1, "claimed": 0,
           "reason": "bob stopped the table, naming this seat (alice) without proof: alice did "
                     "not come back within 2:00"}
    if msg is not None:
        rec["signed"] = msg
    return rec


def with_stop(game: tm.Game, tmp_path: Path, rec: dict[str, Any], after_end: bool) -> Path:
    """The finished game with the stop line after its end record (the stop came during the
    final comparison of records) or just before it (it came as the game's last step ended)."""
    lines = list(game.lines)
    at = len(lines) if after_end else len(lines) - 1
    assert b'"type":"end"' in lines[-1]
    lines.insert(at, canonical(rec))
    path = tmp_path / "t.jsonl"
    path.write_bytes(tm.join(lines))
    return path


@pytest.mark.parametrize("after_end", [True, False])
def test_an_honest_stop_after_the_last_move_is_no_damage(game, tmp_path, after_end):
    msg = signed_stop(game, game.identities[1], 1, 0)
    path = with_stop(game, tmp_path, bobs_stop_line(msg), after_end)
    code, out, js = cli_audit(path)
    assert code == 0, out
    assert js["verdict"] == "clean" and js["culprit"] is None and js["recorded_culprit"] is None
    assert not [c for c in js["checks"] if c["damaged"] or not c["ok"]], out
    # bob's stop named alice: his claim, which the record does not bear out, names nobody
    assert out.splitlines()[-1] == ("Verdict: clean: the game was played to its end; then bob "
                                    "(seat 2) stopped the table (their signed stop, above), "
                                    "naming alice (seat 1): a claim the signed record does not "
                                    "bear out, which names nobody"), out
    (st,) = [c for c in js["checks"] if c["check"] == "the table stopped"]
    assert "an unproven claim against alice (seat 1)" in st["detail"]
    assert "is not borne out by the signed record" in st["detail"]
    assert "bob (seat 2) signed this stop" in st["detail"]


def test_the_owners_own_stop_after_the_game_is_no_damage(game, tmp_path):
    """Alice's own stop naming nobody, kept with the copy she signed to bob."""
    msg = signed_stop(game, game.identities[0], 0, 1, culprit=None)
    rec = {"type": "stop", "culprit": None, "by": 0, "reason": "bob left and did not come back"}
    code, out, js = cli_audit(with_stop(game, tmp_path, {**rec, "signed": msg}, True))
    assert code == 0 and js["verdict"] == "clean", out
    assert "then alice (seat 1) stopped the table" in out.splitlines()[-1]


@pytest.mark.parametrize("how", [
    "no signed stop", "signed by alice, the line says bob", "another table's",
    "sent by bob to another seat", "a signature that does not verify",
])
def test_a_stop_line_without_its_stoppers_signed_stop_is_still_damaged(game, tmp_path, how):
    bob, alice = game.identities[1], game.identities[0]
    msg: dict[str, Any] | None = {
        "no signed stop": None,
        "signed by alice, the line says bob": signed_stop(game, alice, 0, 1),
        "another table's": signed_stop(game, bob, 1, 0, table="ab" * 16),
        "sent by bob to another seat": signed_stop(game, bob, 1, 1),
        "a signature that does not verify": {**signed_stop(game, bob, 1, 0), "culprit": 1},
    }[how]
    path = with_stop(game, tmp_path, bobs_stop_line(msg), True)
    assert read_transcript(path).stop_unsigned is not None
    code, out, js = cli_audit(path)
    assert code == 1 and js["verdict"] == "damaged record" and js["culprit"] is None, out
    (st,) = [c for c in js["checks"] if c["check"] == "the table stopped"]
    assert st["damaged"] and "Not borne out by the record" in st["detail"]


def test_a_signed_stop_with_a_culprit_the_record_does_not_bear_out_names_nobody(game, tmp_path):
    """Alice's program recorded bob as the culprit, after a whole, clean game: her own finding,
    signed by her, which the audit does not confirm. Not damaged, and nobody is named: the
    game's record is clean, and the audit says so (it said "NOT clean: the audit names nobody",
    so any player's stop after the game spoiled every clean record), with the claim not borne
    out. Alice is not named for it either: her claim is a timeout, which no record settles."""
    msg = signed_stop(game, game.identities[0], 0, 1, culprit=1)
    rec = {"type": "stop", "culprit": 1, "by": 0, "reason": "bob: no end message within 60 s"}
    code, out, js = cli_audit(with_stop(game, tmp_path, {**rec, "signed": msg}, True))
    assert code == 0 and js["verdict"] == "clean" and js["culprit"] is None, out
    assert js["recorded_culprit"] == 1 and not [c for c in js["checks"] if c["damaged"]]
    assert out.splitlines()[-1] == (
        "Verdict: clean: the game was played to its end; then alice (seat 1) stopped the table "
        "(their signed stop, above), naming bob (seat 2): a claim the signed record does not "
        "bear out, which names nobody"), out


def test_a_real_stop_keeps_the_stoppers_signed_message(tmp_path):
    """Through the mesh on 127.0.0.1: bob stops the table; both stop lines (bob's own and the
    one alice writes on his) hold bob's signed stop, which the transcript reader checks."""
    from tests.mesh.helpers import close_all, make_table, until

    async def go():
        meshes = await make_table(tmp_path, 2)
        alice, bob = meshes
        try:
            bob.stop(None, "bob left")
            await until(lambda: alice.stopped is not None, what="alice sees the stop")
            return alice.transcript_path, bob.transcript_path
        finally:
            await close_all(meshes)

    for path in asyncio.run(asyncio.wait_for(go(), 60)):
        t = read_transcript(path)
        assert t.stop is not None and t.stop["by"] == 1
        assert t.stop_unsigned is None and t.stop["signed"]["from"] == 1
        assert audit_transcript(str(path)).status != "damaged record"


def test_a_real_game_stopped_after_its_end_audits_clean(tmp_path):
    """The whole case through the real stack on 127.0.0.1: a two-player game played to its end
    by bots, then bob's program stops the table (as when the last message had not reached it)
    while alice's is still comparing records. Alice's transcript holds the whole game and then
    the stop line: clean, naming bob as the one who stopped, blaming nobody (it was "damaged
    record")."""
    from p2pcards.bots.registry import make_bot
    from p2pcards.lobby import GameInfo, play_seat
    from protocol.mesh import Mesh, Timings
    from tests.mesh.helpers import until

    async def go():
        info, t = GameInfo(tm.GAME, 2, {}), Timings.fast()
        ids = [Identity.load_or_create(tmp_path / n) for n in "ab"]
        a = await Mesh.host(ids[0], 2, game_info=info.to_json(), name="alice",
                            bind="127.0.0.1", timings=t, home=str(tmp_path / "a"))
        b = None
        try:
            b = await Mesh.join(ids[1], a.address.removeprefix("tcp://"), a.code, "bob",
                                bind="127.0.0.1", timings=t, home=str(tmp_path / "b"))
            quiet = lambda _text: None  # noqa: E731
            await asyncio.gather(play_seat(a, make_bot(tm.GAME, 0, "random", 1), say=quiet),
                                 play_seat(b, make_bot(tm.GAME, 1, "random", 2), say=quiet))
            b.stop(0, "alice: no end message within 60 s (deck step end)")
            await until(lambda: a.stopped is not None, what="alice gets bob's stop")
            return a.transcript_path
        finally:
            if b is not None:
                await b.close()
            await a.close()

    path = asyncio.run(asyncio.wait_for(go(), 90))
    t = read_transcript(path)
    assert t.finished and t.stop is not None and t.stop_line > 1
    code, out, js = cli_audit(path)
    assert code == 0 and js["verdict"] == "clean" and js["culprit"] is None, out
    assert "then bob (seat 2) stopped the table" in out.splitlines()[-1], out
