"""The key step weighs the host-signed games key shares show (protocol/seating.py, SPEC.md 5.2),
over the in-process mesh-like hub: who is named when the descriptions differ, live at every
seat and by the audit of every seat's record. Each test plays the cheat itself."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import CheatDetected, DeckError, Equivocation
from protocol.identity import Identity
from protocol.roster import keys_digest
from protocol.seating import Seating, evidence, sign_game

from .deck_helpers import TABLE, MeshLikeHub, seed, together

N, M = 3, 6
HOST = Identity.generate()
T = TABLE.hex()
KEYS = [(s, bytes([s + 1]) * 32) for s in range(N)]
GAME = {"game": "go-out-girl", "players": 3}
OTHER = {"game": "out-of-this-world", "players": 3}


def describe(game_info: Any, keys: str) -> str:
    if not isinstance(game_info, dict) or "game" not in game_info:
        raise ValueError("no game")
    return json.dumps({"g": game_info, "k": keys}, sort_keys=True)


def seat_of(hub: MeshLikeHub, s: int, game: dict, sig: str | None = None,
            keys: list | None = None, show: bool = True) -> DeckPeer:
    """Seat ``s`` playing ``game`` (with ``keys``), showing ``sig`` as the host's signature over
    it (default: the host's real one); ``show=False``: its share carries no evidence."""
    keys = KEYS if keys is None else keys
    sig = sign_game(HOST, T, game) if sig is None else sig
    spec = describe(game, keys_digest({"seat": k, "key": v.hex()} for k, v in keys))
    seating = Seating(T, HOST.public_key, describe, evidence(game, sig, keys) if show else None)
    return DeckPeer(hub.channel(s), TABLE, spec, M, seed(s), 5.0, seating=seating)


def play(peers: list[DeckPeer]) -> list[Any]:
    return asyncio.run(together(peers, lambda p: p.shuffle(list(range(M)))))


def audits(peers: list[DeckPeer], seating: bool = True) -> list[Any]:
    out = []
    for p in peers:
        rec = p.record()
        out.append(audit(rec["params"], rec["messages"],
                         seating=Seating(T, HOST.public_key, describe) if seating else None).verdict)
    return out


def named(results: list[Any], seats: list[int]) -> list[int | None]:
    for s in seats:
        assert isinstance(results[s], DeckError), (s, results[s])
        assert (results[s].op, results[s].step) == (0, "key"), results[s]
    return [results[s].peer for s in seats]


def test_a_host_that_signs_bob_another_game_is_named_by_every_seat_and_every_audit() -> None:
    hub = MeshLikeHub(N)
    peers = [seat_of(hub, 0, GAME), seat_of(hub, 1, OTHER), seat_of(hub, 2, GAME)]
    results = play(peers)
    assert named(results, [0, 1, 2]) == [0, 0, 0]
    assert all(isinstance(results[s], Equivocation) for s in (1, 2))
    assert "signed two different games" in results[2].reason
    for v in audits(peers):
        assert (v.clean, v.culprit, v.op) == (False, 0, 0), v


def test_a_joiner_showing_a_game_the_host_never_signed_is_named_never_the_host() -> None:
    """Bob plays another game and signs it himself: his evidence is not the host's signature."""
    hub = MeshLikeHub(N)
    forged = sign_game(Identity.generate(), T, OTHER)
    peers = [seat_of(hub, 0, GAME), seat_of(hub, 1, OTHER, forged), seat_of(hub, 2, GAME)]
    results = play(peers)
    assert named(results, [0, 2]) == [1, 1]
    assert all(isinstance(results[s], CheatDetected) for s in (0, 2))
    assert "not signed by the host" in results[2].reason
    for v in audits(peers):
        assert (v.culprit, v.op) == (1, 0), v


def test_a_joiner_whose_signed_game_does_not_yield_its_claim_is_named() -> None:
    """Bob shows the host's real signature over go-out-girl, but a description of another game:
    the evidence does not back the claim."""
    hub = MeshLikeHub(N)
    bob = seat_of(hub, 1, OTHER, sign_game(HOST, T, GAME))
    bob.pub.seating = Seating(T, HOST.public_key, describe,
                              evidence(GAME, sign_game(HOST, T, GAME), KEYS))
    peers = [seat_of(hub, 0, GAME), bob, seat_of(hub, 2, GAME)]
    results = play(peers)
    assert named(results, [0, 2]) == [1, 1]
    assert "do not yield the description it claims" in results[0].reason
    for v in audits(peers):
        assert v.culprit == 1, v


def test_a_joiner_that_shows_no_game_is_named() -> None:
    hub = MeshLikeHub(N)
    peers = [seat_of(hub, 0, GAME), seat_of(hub, 1, OTHER, show=False), seat_of(hub, 2, GAME)]
    results = play(peers)
    assert named(results, [0, 2]) == [1, 1]
    for v in audits(peers):
        assert v.culprit == 1, v


def test_one_signed_game_with_other_keys_names_nobody() -> None:
    """Bob was signed the same game but binds other keys (a host that showed players different
    rosters, or a changed program): nothing signed says which, so nobody is named."""
    hub = MeshLikeHub(N)
    other_keys = [(0, KEYS[0][1]), (1, KEYS[1][1]), (2, b"\x09" * 32)]
    peers = [seat_of(hub, 0, GAME), seat_of(hub, 1, GAME, keys=other_keys),
             seat_of(hub, 2, GAME)]
    results = play(peers)
    assert named(results, [0, 1, 2]) == [None, None, None]
    assert "nobody is named" in results[2].reason
    for v in audits(peers):
        assert not v.clean and v.culprit is None, v


def test_a_record_made_before_the_evidence_audits_as_before() -> None:
    """Key shares without ``seated`` (decks before it): a mismatch names nobody, with or without
    the table's seating given to the audit."""
    hub = MeshLikeHub(N)
    peers = [DeckPeer(hub.channel(s), TABLE, "spec" if s != 1 else "other", M, seed(s), 5.0)
             for s in range(N)]
    results = play(peers)
    assert named(results, [0, 1, 2]) == [None, None, None]
    for with_seating in (False, True):
        for v in audits(peers, with_seating):
            assert not v.clean and v.culprit is None and v.op == 0, v


def test_an_honest_table_shows_its_signed_game_and_plays_on() -> None:
    hub = MeshLikeHub(N)
    peers = [seat_of(hub, s, GAME) for s in range(N)]
    assert not any(isinstance(r, BaseException) for r in play(peers))
    for v in audits(peers):
        assert v.clean, v
