"""The roster code players read aloud, at a real table (3 seats over the loopback mesh,
``play_seat``): it is made from the deck's joint draw at operation 1 (commit-reveal), so every
seat shows one code, and a seat whose reveal does not match its commitment -- a host trying to
steer the code after seeing the others' nonces -- is named by every honest seat and by
``p2pcards audit``. (Red team 16b: the old code, a digest of the roster alone, could be ground
by a host for two rosters with one code; tests/protocol/test_roster_code_collision.py.)"""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.audit import audit_transcript
from p2pcards.bots.registry import make_bot
from p2pcards.lobby import play_seat
from p2pcards.table import TableStopped
from protocol.roster import CODE_DRAW, roster_code
from tests.mesh.helpers import close_all, run_async
from tests.table.test_table_rules import alter_sends, honest_results, table_of

pytestmark = pytest.mark.network

LINE = "Roster code: "


def person_seat(said: list[str]):
    """``play_seat`` as a person's seat runs it (``bot=False``: it shows the code), played by
    the easy bot, its lines kept in ``said``."""
    return lambda m: play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                               say=said.append, deck_timeout=5.0)


@run_async(timeout=120)
async def test_every_seat_shows_one_roster_code_made_from_the_joint_draw(tmp_path):
    meshes = await table_of(tmp_path, 3)
    said: list[list[str]] = [[], [], []]
    runs = [asyncio.create_task(person_seat(said[s])(m)) for s, m in enumerate(meshes)]
    try:
        for _ in range(600):  # until every seat has drawn and shown its code (no game needed)
            if all(any(x.startswith(LINE) for x in lines) for lines in said):
                break
            await asyncio.sleep(0.05)
        codes = [[x for x in lines if x.startswith(LINE)] for lines in said]
        assert all(len(c) == 1 for c in codes), codes
        assert len({c[0] for c in codes}) == 1, codes
        assert codes[0][0].endswith("— read it aloud: everyone should see the same one.")
        code = codes[0][0][len(LINE):].split(" ")[0]
        # the code is the roster's with the deck's draw at operation 1, not the roster alone
        host = meshes[0]  # every seat drew one value: recompute it from the host's record
        assert code != host.roster_digest
        assert code in {roster_code(host.roster, v) for v in _draws(host)}
    finally:
        for r in runs:
            r.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        await close_all(meshes)


def _draws(mesh) -> list[int]:
    """The values the deck's operation-1 draw gives on the signed record so far."""
    from p2pcards.audit import deck_params
    from p2pcards.games import new_game
    from p2pcards.lobby import GameInfo
    from protocol.steps import random_value
    from protocol.transcript import read_transcript

    t = read_transcript(mesh.transcript_path, tolerate_torn_tail=True)
    info = GameInfo.from_json(t.game_info)
    n_cards = new_game(info.game, info.players, info.options).n_cards
    msgs = [(e.sender, e.body) for e in t.entries if e.topic == "deck" and e.body is not None]
    params, _, _ = deck_params(t, info, n_cards, msgs)
    reveals = {s: bytes.fromhex(b["nonce"]) for s, b in msgs
               if b.get("op") == 1 and b.get("step") == "reveal"}
    if len(reveals) < t.seats:  # this seat's own reveal is in its record too
        return []
    return [random_value(params, 1, CODE_DRAW, [reveals[s] for s in range(t.seats)])]


@run_async(timeout=120)
async def test_a_seat_whose_code_reveal_does_not_match_its_commitment_is_named(tmp_path):
    """The host (seat 0) commits, then reveals another nonce at the code's draw (as a host that
    had seen the others' nonces and wanted another code would): both honest seats name it, and
    the audit of an honest seat's record does too."""
    meshes = await table_of(tmp_path, 3)
    lied = []

    def steering(topic, body):
        if topic == "deck" and isinstance(body, dict) and body.get("op") == 1 \
                and body.get("n") == CODE_DRAW and body.get("step") == "reveal":
            body = dict(body, nonce="11" * 32)
            lied.append(body)
        return body

    alter_sends(meshes[0], steering)
    said: dict[int, list[str]] = {s: [] for s in range(3)}
    try:
        results = await honest_results(meshes, lambda m: person_seat(said[m.seat])(m), liar=0)
        assert lied, "the host's program never revealed at operation 1 (no code draw)"
        assert all(isinstance(r, TableStopped) and r.culprit == 0 for r in results[1:]), results
        for s in (1, 2):  # no honest seat shows a code from a draw that did not check out
            assert not any(x.startswith(LINE) for x in said[s]), said[s]
        for m in meshes[1:]:
            rep = audit_transcript(str(m.transcript_path))
            assert rep.verdict is not None and rep.verdict.culprit == 0, rep.checks
            assert rep.culprit == 0, rep.checks
    finally:
        await close_all(meshes)


@run_async(timeout=120)
async def test_a_seat_that_comes_back_shows_the_same_code(tmp_path):
    """bob's program crashes mid-match and comes back (``Mesh.resume``, as ``join --resume``):
    its deck re-makes the draw from the journal's seed and the record, and it shows the code it
    showed before -- the one the others read."""
    from p2pcards import resume
    from protocol.mesh import Mesh, Timings
    from tests.mesh.helpers import LOOPBACK, identity

    meshes = await table_of(tmp_path, 3)
    said: dict[str, list[str]] = {"alice": [], "bob": [], "carol": [], "bob2": []}
    tables: list = []

    def run(m, lines, **kw):
        return asyncio.create_task(play_seat(m, make_bot("go-out-girl", m.seat, "easy", m.seat),
                                             say=lines.append, deck_timeout=5.0, **kw))

    runs = {m.name: run(m, said[m.name], on_table=tables.append if m.seat == 1 else None)
            for m in meshes}
    bob, bob2 = meshes[1], None
    try:
        for _ in range(400):  # into the match: a few moves played
            await asyncio.sleep(0.05)
            if tables and tables[0].step >= 3:
                break
        first = [x for x in said["bob"] if x.startswith(LINE)]
        assert len(first) == 1 and tables[0].step >= 3, (said["bob"], tables[0].step)
        runs["bob"].cancel()
        await asyncio.gather(runs["bob"], return_exceptions=True)
        await bob.close(announce=False)  # bob's machine crashes
        bob2 = await Mesh.resume(identity(tmp_path, 1), bob.table, bind=LOOPBACK,
                                 timings=Timings.fast(), home=tmp_path / "home1")
        real_say, resume.say = resume.say, lambda line: None
        try:
            await resume._find_the_others(bob2, 8.0)  # as 'join --resume' does, then the table
        finally:
            resume.say = real_say
        runs["bob"] = run(bob2, said["bob2"])
        for _ in range(400):
            if any(x.startswith(LINE) for x in said["bob2"]):
                break
            await asyncio.sleep(0.05)
        again = [x for x in said["bob2"] if x.startswith(LINE)]
        assert again == first, (first, said["bob2"])
        assert [x for x in said["alice"] if x.startswith(LINE)] == first
    finally:
        for r in runs.values():
            r.cancel()
        await asyncio.gather(*runs.values(), return_exceptions=True)
        await close_all([m for m in meshes if m is not bob] + ([bob2] if bob2 else []))


@run_async(timeout=120)
async def test_the_audit_shows_the_code_every_seat_was_shown(tmp_path):
    """``p2pcards audit`` makes the code again from the record's draw: a player can check, after
    the game, that the record is of the table whose code they read aloud."""
    from tests.table.transcript_mutants import cli_audit

    meshes = await table_of(tmp_path, 2)
    said: list[list[str]] = [[], []]
    try:
        await asyncio.gather(*(person_seat(said[s])(m) for s, m in enumerate(meshes)))
    finally:
        await close_all(meshes)
    shown = {x[len(LINE):].split(" ")[0] for lines in said for x in lines if x.startswith(LINE)}
    assert len(shown) == 1, said
    code = shown.pop()
    for m in meshes:
        exit_code, out, js = cli_audit(m.transcript_path)
        assert exit_code == 0 and js["roster_code"] == code, (out, js.get("roster_code"))
        assert f"roster code {code})" in out.splitlines()[0], out
