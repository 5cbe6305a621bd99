import json
import os

import pytest

from protocol.envelope import (
    DUPLICATE,
    FUTURE,
    GENESIS,
    NEW,
    EnvelopeError,
    Equivocation,
    Verifier,
    box_key,
    canonical,
    envelope_hash,
    open_box,
    parse_canonical,
    seal,
)
from protocol.identity import Identity
from protocol.tablecode import new_table_id

TABLE = new_table_id()


@pytest.fixture(scope="module")
def ids():
    return [Identity.generate() for _ in range(3)]


def keys(ids):
    return {i: x.public_key for i, x in enumerate(ids)}


def chain(ids, seat, bodies, table=TABLE):
    out, prev = [], GENESIS
    for seq, body in enumerate(bodies, start=1):
        env = seal(ids[seat], table, seat, seq, prev, "t", body)
        prev = envelope_hash(env)
        out.append(env)
    return out


def test_canonical_encoding():
    assert canonical({"b": 1, "a": [True, None, "é"]}) == b'{"a":[true,null,"\\u00e9"],"b":1}'
    assert parse_canonical(b'{"a":1}') == {"a": 1}
    with pytest.raises(ValueError, match="canonical"):
        parse_canonical(b'{"a": 1}')
    with pytest.raises(ValueError, match="duplicate"):
        parse_canonical(b'{"a":1,"a":2}')
    with pytest.raises(ValueError, match="JSON"):
        parse_canonical(b"\xff\xfe")
    with pytest.raises(ValueError):
        canonical({"x": float("nan")})


def test_broadcast_chain_verifies_in_order(ids):
    v = Verifier(TABLE, 3, keys(ids))
    envs = chain(ids, 1, [{"n": i} for i in range(4)])
    for env in envs:
        status, h = v.classify(json.loads(canonical(env)))
        assert status == NEW
        v.append(env, h)
    assert v.heads()[1] == (4, envelope_hash(envs[-1]))
    assert v.classify(envs[1])[0] == DUPLICATE  # a replay of something already held


def test_future_envelope_is_flagged_not_accepted(ids):
    v = Verifier(TABLE, 3, keys(ids))
    envs = chain(ids, 0, [{}, {}, {}])
    assert v.classify(envs[2])[0] == FUTURE
    assert v.chains[0].seq == 0


@pytest.mark.parametrize(
    "mutate, reason",
    [
        (lambda e: e["body"].update(n=99), "bad signature"),
        (lambda e: e.update(table="0" * 32), "wrong table"),
        (lambda e: e.update({"from": 7}), "not a seat"),
        (lambda e: e.update(seq=0), "sequence"),
        (lambda e: e.update(sig="!!"), "base64"),
        (lambda e: e.pop("topic"), "fields"),
        (lambda e: e.update(to=2), "broadcast"),
    ],
)
def test_rejections_carry_a_reason(ids, mutate, reason):
    v = Verifier(TABLE, 3, keys(ids))
    env = json.loads(canonical(chain(ids, 1, [{"n": 1}])[0]))
    mutate(env)
    with pytest.raises(EnvelopeError, match=reason):
        v.classify(env)


def test_forged_sender_is_rejected(ids):
    v = Verifier(TABLE, 3, keys(ids))
    forged = seal(Identity.generate(), TABLE, 1, 1, GENESIS, "t", {"x": 1})
    with pytest.raises(EnvelopeError, match="bad signature"):
        v.classify(forged)


def test_two_envelopes_with_one_seq_are_proof(ids):
    v = Verifier(TABLE, 3, keys(ids))
    a = seal(ids[2], TABLE, 2, 1, GENESIS, "t", {"card": 1})
    b = seal(ids[2], TABLE, 2, 1, GENESIS, "t", {"card": 2})
    v.append(a, v.classify(a)[1])
    with pytest.raises(Equivocation) as e:
        v.classify(b)
    assert e.value.seat == 2 and e.value.first == a and e.value.second == b


def test_broken_chain_is_proof(ids):
    v = Verifier(TABLE, 3, keys(ids))
    a = seal(ids[2], TABLE, 2, 1, GENESIS, "t", {})
    v.append(a, v.classify(a)[1])
    bad = seal(ids[2], TABLE, 2, 2, "1" * 64, "t", {})
    with pytest.raises(Equivocation, match="broken chain"):
        v.classify(bad)
    first = seal(ids[1], TABLE, 1, 1, "2" * 64, "t", {})
    with pytest.raises(EnvelopeError, match="broken chain"):
        v.classify(first)


def test_private_payload_only_for_its_two_ends(ids):
    k01 = box_key(ids[0], ids[1].public_key, ids[0].public_key, ids[1].public_key, TABLE)
    secret = "a plain secret!"  # spaces and "!" never occur in hex, base64 or base64url
    env = seal(ids[0], TABLE, 0, 1, GENESIS, "deck", {"key": secret}, to=1, key=k01)
    assert "body" not in env and secret not in canonical(env).decode()
    # the recipient and the sender derive the same key; the third peer cannot
    k_recv = box_key(ids[1], ids[0].public_key, ids[0].public_key, ids[1].public_key, TABLE)
    assert open_box(env, k_recv) == {"key": secret}
    assert open_box(env, k01) == {"key": secret}
    k_other = box_key(ids[2], ids[0].public_key, ids[0].public_key, ids[1].public_key, TABLE)
    with pytest.raises(EnvelopeError, match="undecryptable"):
        open_box(env, k_other)
    # anyone can still check it belongs to seat 0's chain
    v = Verifier(TABLE, 3, keys(ids))
    assert v.classify(env)[0] == NEW
    # and the header is bound to the ciphertext
    moved = dict(env, topic="chat")
    with pytest.raises(EnvelopeError, match="undecryptable"):
        open_box(moved, k_recv)


def test_a_boxs_own_key_opens_that_box_and_no_other(ids):
    """Mesh version 4: each box is sealed with its envelope's own key (``envelope_key``), so its
    recipient can show what one box holds without showing any other message of the pair; a box
    of an older record (sealed with the pair's key) still opens when read back (``legacy``)."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from protocol.envelope import BOX_DOMAIN, b64, envelope_key
    from protocol.envelope import _header as header

    k01 = box_key(ids[0], ids[1].public_key, ids[0].public_key, ids[1].public_key, TABLE)
    one = seal(ids[0], TABLE, 0, 1, GENESIS, "chat", {"text": "one"}, to=1, key=k01)
    two = seal(ids[0], TABLE, 0, 2, envelope_hash(one), "chat", {"text": "two"}, to=1, key=k01)
    shown = envelope_key(k01, one)
    assert open_box(one, shown, own=True) == {"text": "one"}
    with pytest.raises(EnvelopeError, match="undecryptable"):
        open_box(two, shown, own=True)
    with pytest.raises(EnvelopeError, match="undecryptable"):
        open_box(one, k01, own=True)  # the pair's key itself is no box's key
    old = {k: v for k, v in two.items() if k not in ("box", "sig")}
    nonce = os.urandom(12)
    old["box"] = b64(nonce + ChaCha20Poly1305(k01).encrypt(
        nonce, canonical({"text": "old"}), BOX_DOMAIN + canonical(header(old))))
    with pytest.raises(EnvelopeError, match="undecryptable"):
        open_box(old, k01)  # live: only the envelope's own key
    assert open_box(old, k01, legacy=True) == {"text": "old"}


def test_every_peer_counts_a_private_envelope_alike_and_an_honest_one_keeps_the_bound(ids):
    """A private envelope costs every peer twice its own cost, opened or not, and an honest
    program's private messages -- chat lines, short or at their 500 characters -- never take more
    to hold than their envelope; red team 12's padded box does."""
    from protocol.envelope import envelope_cost, held_cost, overfull

    k01 = box_key(ids[0], ids[1].public_key, ids[0].public_key, ids[1].public_key, TABLE)
    for body in ({"text": "", "step": 0}, {"text": "hi", "step": 12},
                 {"text": "x" * 500, "step": 10_000}, {"text": "\u00e9" * 500, "step": 3}):
        env = seal(ids[0], TABLE, 0, 1, GENESIS, "chat", body, to=1, key=k01)
        raw = canonical(env)
        assert overfull(raw, body) is None, body
        assert envelope_cost(raw, 1) == 2 * held_cost(raw)
    padded = {"text": "x", "step": 0, "pad": [{}] * 2_000}
    env = seal(ids[0], TABLE, 0, 1, GENESIS, "chat", padded, to=1, key=k01)
    assert "a private message that takes" in overfull(canonical(env), padded)
