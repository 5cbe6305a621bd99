"""``identity.verify`` checks signatures with libsodium and remembers those that checked out
(docs/network.md, "Envelopes"). Written as a forger would try it: whatever OpenSSL refuses,
libsodium refuses too, however often the true signature was checked before -- a remembered
signature is remembered for its own key and data only. And every signature an honest signer
makes is accepted, as OpenSSL accepts it (a program of before reads the same records alike)."""

from __future__ import annotations

import random

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from protocol import identity
from protocol.identity import Identity, verify

L = 2**252 + 27742317777372353535851937790883648493  # the order of Ed25519's base point


def openssl(key: bytes, sig: bytes, data: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(sig, data)
    except (InvalidSignature, ValueError):
        return False
    return True


def flip(b: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(b))
    return b[:i] + bytes([b[i] ^ (1 << rng.randrange(8))]) + b[i + 1:]


def test_what_openssl_refuses_is_refused_even_right_after_the_true_signature_checked_out():
    rng = random.Random(7)
    ids = [Identity.generate() for _ in range(3)]
    for n in range(300):
        who = ids[n % 3]
        data = rng.randbytes(rng.choice([0, 1, 64, 1000, 70_000]))
        sig = who.sign(data)
        assert verify(who.public_key, sig, data) and openssl(who.public_key, sig, data)
        assert verify(who.public_key, sig, data)  # again: remembered, still true
        for forged in ((who.public_key, flip(sig, rng), data),
                       (who.public_key, sig, flip(data, rng) if data else b"\0"),
                       (ids[(n + 1) % 3].public_key, sig, data),
                       (who.public_key, sig, data + b"\0"),
                       (who.public_key, sig[:32] + sig[32:], data[:-1])):
            if forged[2] == data and forged[0] == who.public_key and forged[1] == sig:
                continue
            assert verify(*forged) is openssl(*forged) is False, forged[1].hex()


def test_a_signature_whose_s_is_not_reduced_is_refused_as_openssl_refuses_it():
    who = Identity.generate()
    sig = who.sign(b"a move")
    s = int.from_bytes(sig[32:], "little") + L  # the same point equation, S out of range
    malleated = sig[:32] + s.to_bytes(32, "little")
    assert not openssl(who.public_key, malleated, b"a move")
    assert not verify(who.public_key, malleated, b"a move")


def test_wrong_lengths_and_types_are_refused_not_raised():
    who = Identity.generate()
    sig = who.sign(b"x")
    for args in ((who.public_key[:31], sig, b"x"), (who.public_key, sig[:63], b"x"),
                 (who.public_key, sig + b"\0", b"x"), (who.public_key.hex(), sig, b"x"),
                 (who.public_key, sig, "x"), (None, sig, b"x")):
        assert verify(*args) is False


def test_what_is_remembered_is_bounded(monkeypatch):
    monkeypatch.setattr(identity, "_VERIFIED", {})
    monkeypatch.setattr(identity, "VERIFIED_KEPT", 50)
    who = Identity.generate()
    for i in range(200):
        data = i.to_bytes(4, "big")
        assert verify(who.public_key, who.sign(data), data)
    assert len(identity._VERIFIED) == 50
