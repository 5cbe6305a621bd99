"""Who told whom which game (protocol/SPEC.md 5.2), written as the attackers. A host that seats
one joiner at another game, and a joiner that claims another game than the one it was seated
at, both stop the table at the key step, before any card. Before, every seat and the audit named
nobody there: nothing signed said whether the host equivocated or the sender lied. Now the host
signs its table's game in each welcome and every key share shows the game its sender was
signed: the liar is named by every seat and by the audit of every seat's transcript, and never
an honest one."""

from __future__ import annotations

import asyncio
import copy

import pytest

from p2pcards.audit import audit_transcript
from p2pcards.bots.registry import make_bot
from p2pcards.lobby import DECK_TOPIC, GameInfo, play_seat
from p2pcards.table import TableStopped
from protocol.mesh import Mesh, Timings
from tests.mesh.helpers import LOOPBACK, NAMES, close_all, identity, run_async

pytestmark = pytest.mark.network

GAME = GameInfo("go-out-girl", 3, {}).to_json()
OTHER = GameInfo("out-of-this-world", 3, {}).to_json()


async def table(tmp_path, welcome_bob_at: dict | None = None) -> list[Mesh]:
    """Alice hosts go-out-girl for 3; bob and carol join. ``welcome_bob_at``: alice's program is
    modified to seat bob at that game instead (her welcome to him, signed, says it); she and
    carol play go-out-girl."""
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name=NAMES[0],
                           game_info=GAME)
    meshes = [host]
    try:
        for i in (1, 2):
            if i == 1 and welcome_bob_at is not None:
                host.game_info = welcome_bob_at  # what her welcome to bob says, and signs
            try:
                meshes.append(await Mesh.join(identity(tmp_path, i), host.address, host.code,
                                              NAMES[i], bind=LOOPBACK, timings=t))
            finally:
                host.game_info = GAME
        await asyncio.gather(*(m.wait_full(10) for m in meshes))
    except BaseException:
        await close_all(meshes)
        raise
    return meshes


async def play(meshes: list[Mesh], on_table=None) -> list:
    async def seat(m: Mesh):
        return await play_seat(m, make_bot(m.game_info["game"], m.seat, "easy", m.seat),
                               say=lambda s: None, deck_timeout=10,
                               on_table=on_table.get(m.seat) if on_table else None)

    return await asyncio.gather(*(seat(m) for m in meshes), return_exceptions=True)


def assert_named(meshes: list[Mesh], results: list, culprit: int, words: str) -> None:
    """Every honest seat stopped at the key step naming ``culprit``, and the audit of every
    seat's transcript (the liar's too) names the same seat."""
    for s, r in enumerate(results):
        if s == culprit:
            continue
        assert isinstance(r, TableStopped), (s, r)
        assert r.culprit == culprit, (s, r.culprit, r.reason)
        assert words in r.reason, (s, r.reason)
    for m in meshes:
        rep = audit_transcript(str(m.transcript_path))
        assert rep.culprit == culprit, (m.seat, rep.culprit, rep.checks)
        assert not rep.clean


@run_async(timeout=120)
async def test_a_host_that_seats_bob_at_another_game_is_named_by_every_seat_and_the_audit(
        tmp_path):
    """Alice's program welcomes bob at out-of-this-world (signed), carol at go-out-girl. Bob
    honestly plays what he was told; every seat stopped naming nobody. Bob's key share shows
    alice's signature over his game: two games signed at one table are her doing, and every
    seat names alice, the audit of every transcript too. No card was dealt."""
    meshes = await table(tmp_path, welcome_bob_at=OTHER)
    try:
        assert meshes[1].game_info == OTHER and meshes[2].game_info == GAME
        results = await play(meshes)
        assert_named(meshes, results, 0, "signed two different games")
        assert isinstance(results[0], TableStopped)  # alice's own program stops too
    finally:
        await close_all(meshes)


def claim_desc(zero: bool):
    """Bob's client puts another ``desc`` in his key share before signing it: all zeros
    (``zero``), keeping the host-signed game he shows, which then does not yield it."""
    def hook(t) -> None:
        real = t.channel.broadcast

        async def broadcast(topic, body):
            if topic == DECK_TOPIC and isinstance(body, dict) and body.get("step") == "key":
                body = copy.deepcopy(body)
                body["desc"] = "00" * 32
            await real(topic, body)

        t.channel.broadcast = broadcast
    return hook


@pytest.mark.parametrize("how", ["plays another game", "claims another desc"])
@run_async(timeout=120)
async def test_a_joiner_that_claims_another_game_is_named_and_never_the_host(tmp_path, how):
    """Bob was welcomed at go-out-girl like everyone. His program plays out-of-this-world
    instead (the game it shows is not the one alice signed), or sends a made-up description
    beside the signed game (which does not yield it). Every other seat, and the audit of every
    transcript, names bob -- never alice, whom a bare claim used to be able to frame."""
    meshes = await table(tmp_path)
    try:
        hooks = None
        if how == "plays another game":
            meshes[1].game_info = OTHER
        else:
            hooks = {1: claim_desc(True)}
        results = await play(meshes, hooks)
        assert_named(meshes, results, 1, "its message lies")
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_the_honest_seats_key_shares_show_the_game_the_host_signed(tmp_path):
    """An honest table: every key share carries the game alice signed, with her signature
    over it, and the keys of the roster; the game goes on past the key step."""
    from protocol.seating import game_signed

    meshes = await table(tmp_path)
    try:
        host_key = meshes[0].identity.public_key
        for m in meshes:
            assert game_signed(host_key, m.table, GAME, m.game_sig)
        results = await play(meshes)
        assert not any(isinstance(r, BaseException) for r in results), results
        from protocol.transcript import read_transcript

        tr = read_transcript(meshes[2].transcript_path)
        shares = [e.body for e in tr.entries if e.topic == DECK_TOPIC and
                  isinstance(e.body, dict) and e.body.get("step") == "key"]
        assert len(shares) == 3
        for b in shares:
            assert b["seated"]["game"] == GAME
            assert game_signed(host_key, m.table, GAME, b["seated"]["sig"])
        assert audit_transcript(str(meshes[2].transcript_path)).clean
    finally:
        await close_all(meshes)
