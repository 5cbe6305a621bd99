"""Red team 17, end to end: two players collude against the audit of one of their files.

A real three-player match (alice, bob, carol on 127.0.0.1, random bots). Alice and bob then
rewrite their steps of the game's first full shuffle in alice's file, each step over the one
before it (other permutations, valid proofs), and each re-signs their own chain: every
signature and chain of the file holds, and carol's authentic step, signed over bob's real
output, no longer matches. ``p2pcards audit`` of that file said "NOT clean: carol (seat 3) at
fault (the deck audit: prev does not name the vector ...)": bob's forged step "confirmed"
alice's, and the audit took him as a witness. Nobody is named now."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from p2pcards.audit import deck_params
from p2pcards.games import new_game
from p2pcards.lobby import GameInfo
from protocol.identity import Identity
from protocol.kdf import PeerSecrets
from protocol.proofs import point_from_hex
from protocol.steps import PublicDeck
from protocol.transcript import read_transcript

from . import transcript_mutants as tm
from .test_audit_framing import deck_ops
from .test_transcript_fuzz import run_audit

pytestmark = [pytest.mark.network]

GAME = "go-out-girl"


async def _play3(root: Path) -> tuple[Path, dict[int, Identity]]:
    from p2pcards.bots.registry import make_bot
    from p2pcards.lobby import play_seat
    from protocol.mesh import Mesh, Timings

    info = GameInfo(GAME, 3, {})
    t = Timings.fast()
    ids = {s: Identity.load_or_create(root / n) for s, n in enumerate("abc")}
    a = await Mesh.host(ids[0], 3, game_info=info.to_json(), name="alice", bind="127.0.0.1",
                        timings=t, home=str(root / "a"))
    meshes = [a]
    try:
        for s, name in ((1, "bob"), (2, "carol")):
            meshes.append(await Mesh.join(ids[s], a.address.removeprefix("tcp://"), a.code,
                                          name, bind="127.0.0.1", timings=t,
                                          home=str(root / "abc"[s])))
        quiet = lambda _text: None  # noqa: E731
        results = await asyncio.gather(*(play_seat(m, make_bot(GAME, s, "random", s + 1),
                                                   say=quiet) for s, m in enumerate(meshes)))
        assert all(r.verdict is not None and r.verdict.clean for r in results)
        assert a.transcript_path is not None
        return a.transcript_path, ids
    finally:
        for m in reversed(meshes):
            await m.close()


@pytest.fixture(scope="module")
def match(tmp_path_factory) -> tuple[Path, dict[int, Identity]]:
    root = tmp_path_factory.mktemp("three")
    return asyncio.run(asyncio.wait_for(_play3(root), 120))


def test_the_three_player_file_audits_clean(match):
    path, _ = match
    code, out = run_audit(path)
    assert code == 0 and "Verdict: clean" in out, out


def test_two_colluders_rewriting_their_shuffle_steps_in_one_file_frame_nobody(match, tmp_path):
    path, ids = match
    t = read_transcript(path)
    info = GameInfo.from_json(t.game_info)
    n_cards = new_game(info.game, info.players, info.options).n_cards
    params, _, _ = deck_params(t, info, n_cards, [(e.sender, e.body) for e in t.entries
                                                  if e.topic == "deck" and e.to is None])
    recs = tm.parse(path.read_bytes().splitlines())
    ops = deck_ops(recs)
    pub = PublicDeck(params)
    pub.set_keys([point_from_hex(ops[0][("key", j)]["y"]) for j in range(3)])
    op = min(o for o, m in ops.items() if ("shuffle", 2) in m
             and next(iter(m.values())).get("by") is None)
    slots = ops[op][("shuffle", 0)]["slots"]
    assert all(o in (0, 1) or ("shuffle", 0) not in ops[o] for o in ops if o < op)  # the deal
    cur = [pub.cts[s] for s in slots]
    for j in (0, 1):  # alice's step, then bob's over it: other permutations, valid proofs
        sec = PeerSecrets(os.urandom(32))
        cur, made = pub.make_shuffle(sec, op, j, cur, sec.permutation("perm", op, b"", len(cur)))
        ops[op][("shuffle", j)].update(made)
    forged = tmp_path / path.name
    forged.write_bytes(tm.join(tm.encode(tm.resign(recs, {0: ids[0], 1: ids[1]}))))
    assert read_transcript(forged).seat == 0  # every signature and chain holds
    code, out = run_audit(forged)
    assert "carol (seat 3) at fault" not in out, out  # named here before
    assert "at fault" not in out and "nobody is named" in out and code == 1, out
    assert "prev does not name the vector" in out, out
