"""Red team 16b: the roster code players read aloud is 40 bits, so a host can collide it.

docs/network.md said: "If all players read the same roster code aloud, nobody, not even the host,
is showing different players a different table." A host that runs a split view -- alice sees
(dan, alice, a bob whose key dan holds), bob sees (dan, an alice whose key dan holds, bob), each
honest player connected only to dan's endpoints -- chooses one key in each view after it knows
the honest players' keys (long-lived identity keys: known before the evening). Two sets of
2^20 candidate keys give about one pair of rosters with the same 40-bit code (a birthday
search, not a second preimage): ``scripts/roster_code_collision.py`` found the pair below in
43 s of CPU on this machine (libsodium point additions from Python, about 21 us a key).

The collision is real: both rosters are made of entries validly signed by their keys and pass
``Member.from_json`` and ``check_roster`` as every peer runs them. What still exposes the split
is the 40-bit *fingerprint* of each player, compared aloud: a fake alice must match the real
alice's fingerprint, a second preimage (about 2^40 keys per impersonated player). The fix -- a
longer code, or a short-authenticated-string exchange whose fresh randomness the host cannot
grind -- changes what the mesh compares in ``heads`` and needs a new mesh version.

The fix (mesh version 5): the code players read is ``roster_code``, made from the roster and the
deck's joint draw at operation 1 (commit-reveal, every commitment bound to the game description,
which holds every seat's key). The pair below still collides as a digest of the roster alone
(``roster_digest``, which the programs still compare among themselves), but the two worlds show
two codes; and a host that copies a player's commitment and nonce into the other world is named.
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

import nacl.bindings as nb
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.games import new_game
from p2pcards.lobby import GameInfo, deck_spec
from protocol.deck import DeckPeer
from protocol.envelope import b64
from protocol.errors import DeckError
from protocol.identity import Identity, fingerprint
from protocol.roster import (
    CODE_DRAW,
    Member,
    check_roster,
    entry_payload,
    keys_digest,
    roster_code,
    roster_digest,
)
from tests.protocol.deck_helpers import MeshLikeHub, adversary, seed, together

TABLE = "00112233445566778899aabbccddeeff"
L = 2**252 + 27742317777372353535851937790883648493
#: the host's fake keys: secret scalars ``START + index`` (the search's two walks)
FAKE_BOB_SCALAR = 1234567 + 65258
FAKE_ALICE_SCALAR = 7654321 + 54161


def honest(name: bytes) -> Identity:
    return Identity(Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"red16b " + name).digest()))


def entry(seat: int, name: str, identity: Identity) -> Member:
    key = identity.public_key.hex()
    addr = f"tcp://10.0.0.{seat + 1}:4000"
    sig = b64(identity.sign(entry_payload(TABLE, name, key, addr)))
    return Member.from_json({"seat": seat, "name": name, "key": key, "addr": addr, "sig": sig},
                            TABLE, 3)


def forged(seat: int, name: str, scalar: int) -> Member:
    """An entry the host signs with a key whose secret is the raw scalar ``scalar`` (Ed25519's
    equations, as a key file's expanded secret would give them)."""
    a = scalar.to_bytes(32, "little")
    pub = nb.crypto_scalarmult_ed25519_base_noclamp(a)
    key = pub.hex()
    addr = "tcp://10.0.0.1:4001"  # the host's own endpoint
    msg = entry_payload(TABLE, name, key, addr)
    r = int.from_bytes(hashlib.sha512(b"nonce" + a + msg).digest(), "little") % L
    big_r = nb.crypto_scalarmult_ed25519_base_noclamp(r.to_bytes(32, "little"))
    h = int.from_bytes(hashlib.sha512(big_r + pub + msg).digest(), "little") % L
    sig = big_r + ((r + h * scalar) % L).to_bytes(32, "little")
    return Member.from_json({"seat": seat, "name": name, "key": key, "addr": addr, "sig": b64(sig)},
                            TABLE, 3)


def split_view() -> tuple[list[Member], list[Member]]:
    """The two rosters the host shows: alice's (dan, alice, a bob whose key dan holds) and bob's
    (dan, an alice whose key dan holds, bob)."""
    dan, alice, bob = honest(b"dan"), honest(b"alice"), honest(b"bob")
    seen_by_alice = [entry(0, "dan", dan), entry(1, "alice", alice), forged(2, "bob", FAKE_BOB_SCALAR)]
    seen_by_bob = [entry(0, "dan", dan), forged(1, "alice", FAKE_ALICE_SCALAR), entry(2, "bob", bob)]
    for roster in (seen_by_alice, seen_by_bob):
        check_roster(roster)  # every peer's own check of the roster it is given
    assert seen_by_alice != seen_by_bob
    # the collision is real: as a digest of the roster alone, both read one code
    assert roster_digest(seen_by_alice) == roster_digest(seen_by_bob)
    # what also tells them apart: the players' fingerprints
    assert fingerprint(seen_by_bob[1].key) != fingerprint(alice.public_key)
    return seen_by_alice, seen_by_bob


INFO = GameInfo("go-out-girl", 3, {})
DAN_SEED, FAKE_SEED = seed(0, "host"), seed(9, "host")  # the host's seats, alike in both worlds


def world(roster: list[Member], honest_seat: int,
          classes: dict[int, type[DeckPeer]] | None = None) -> list[DeckPeer]:
    """One world of the split view as an in-memory deck table: the game description binds that
    world's keys (``lobby.deck_spec``, as every seat's ``play_seat`` builds it); the host's seats
    use the same seeds in both worlds, the honest player a fresh one."""
    hub = MeshLikeHub(3)
    spec = deck_spec(INFO, keys_digest(roster))
    n_cards = new_game(INFO.game, INFO.players, INFO.options).n_cards
    seeds = {s: DAN_SEED if s == 0 else FAKE_SEED for s in range(3)}
    seeds[honest_seat] = seed(honest_seat, "honest")
    return [(classes or {}).get(s, DeckPeer)(hub.channel(s), bytes.fromhex(TABLE), spec, n_cards,
                                             seeds[s], 10.0) for s in range(3)]


async def draws(peers: list[DeckPeer]) -> list[Any]:
    return await together(peers, lambda p: p.random(CODE_DRAW))  # operation 1, after the key


def test_a_host_cannot_show_two_players_two_rosters_with_one_code() -> None:
    """The colliding pair, each roster dealt as its world: alice's program and bob's show the
    code of their own world's draw, and the two differ (2^-40 for any one try of the host)."""
    seen_by_alice, seen_by_bob = split_view()
    a_world, b_world = world(seen_by_alice, 1), world(seen_by_bob, 2)

    async def both() -> tuple[list[Any], list[Any]]:
        return await draws(a_world), await draws(b_world)

    in_a, in_b = asyncio.run(both())
    assert all(isinstance(v, int) for v in in_a + in_b), (in_a, in_b)
    assert len(set(in_a)) == len(set(in_b)) == 1  # within a world, every seat one value
    alice_reads = roster_code(seen_by_alice, in_a[1])
    bob_reads = roster_code(seen_by_bob, in_b[2])
    assert alice_reads != bob_reads, f"both players read roster code {alice_reads}"


def test_a_host_that_copies_a_players_commitment_into_the_other_world_is_named() -> None:
    """The host waits for alice's commitment and nonce in her world, then plays them as its fake
    alice in bob's world (with bob's copied into hers, both worlds' draws would be alike): the
    commitment binds the game description, which holds that world's keys, so bob's program finds
    the nonce does not open it and names the fake alice's seat; it shows no code."""
    seen_by_alice, seen_by_bob = split_view()
    a_world = world(seen_by_alice, 1)
    asyncio.run(draws(a_world))
    alice = a_world[1]
    sent = [b for s, b in alice._public if s == 1 and b.get("op") == 1]
    commit = next(b["commit"] for b in sent if b["step"] == "commit")
    nonce = next(b["nonce"] for b in sent if b["step"] == "reveal")

    def copy_alice(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body.get("op") == 1 and body["step"] == "commit":
            body["commit"] = commit
        elif body.get("op") == 1 and body["step"] == "reveal":
            body["nonce"], body["echo"][1] = nonce, commit
        return [(None, body)]

    b_world = world(seen_by_bob, 2, {1: adversary(copy_alice)})
    got = asyncio.run(draws(b_world))
    assert isinstance(got[2], DeckError) and got[2].peer == 1, got
    assert "does not open its commitment" in str(got[2]), got[2]
