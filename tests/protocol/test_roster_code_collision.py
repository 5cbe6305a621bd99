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
grind -- changes what the mesh compares in ``heads`` and needs a new mesh version: left to the
lead (this test is a strict xfail until then; it passes once the code resists the search).
"""

from __future__ import annotations

import hashlib

import nacl.bindings as nb
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol.envelope import b64
from protocol.identity import Identity, fingerprint
from protocol.roster import Member, check_roster, entry_payload, roster_digest

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


@pytest.mark.xfail(strict=True, reason="red team 16b: the 40-bit roster code collides in ~2^21 "
                   "key trials; a longer code needs a new mesh version (left to the lead)")
def test_a_host_cannot_show_two_players_two_rosters_with_one_code() -> None:
    dan, alice, bob = honest(b"dan"), honest(b"alice"), honest(b"bob")
    seen_by_alice = [entry(0, "dan", dan), entry(1, "alice", alice), forged(2, "bob", FAKE_BOB_SCALAR)]
    seen_by_bob = [entry(0, "dan", dan), forged(1, "alice", FAKE_ALICE_SCALAR), entry(2, "bob", bob)]
    for roster in (seen_by_alice, seen_by_bob):
        check_roster(roster)  # every peer's own check of the roster it is given
    assert seen_by_alice != seen_by_bob
    # what still tells them apart: the players' fingerprints
    assert fingerprint(seen_by_bob[1].key) != fingerprint(alice.public_key)
    assert roster_digest(seen_by_alice) != roster_digest(seen_by_bob), \
        f"both players read roster code {roster_digest(seen_by_alice)}"
