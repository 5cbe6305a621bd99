import json

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
