"""ElGamal over ristretto255: the cards of deck v2 (protocol/elgamal.py)."""

from __future__ import annotations

import random

import pytest

from protocol import elgamal as eg
from protocol import group as g


def _keys(n: int, tag: bytes = b"k") -> tuple[list[bytes], list[bytes], bytes]:
    xs = [g.hash_to_scalar(b"test/keys", tag, g.u32(i)) for i in range(n)]
    ys = [g.base_mul(x) for x in xs]
    return xs, ys, g.sum_points(ys)


def _cards(n: int) -> list[bytes]:
    return [g.card_point(b"table", "deck/v2", c) for c in range(n)]


def test_public_initial_deck_is_r_equals_one_and_decodes_with_every_share() -> None:
    xs, _, y = _keys(3)
    for m in _cards(4):
        ct = eg.public_encrypt(m, y)
        assert ct == (g.G, g.add(m, y))
        assert eg.decode(ct, [eg.share(x, ct) for x in xs]) == m
        # a share missing: the card stays hidden
        assert eg.decode(ct, [eg.share(x, ct) for x in xs[1:]]) != m


def test_identity_and_invalid_points_are_refused() -> None:
    _, _, y = _keys(2)
    with pytest.raises(g.InvalidPoint):
        eg.public_encrypt(g.IDENTITY, y)
    with pytest.raises(g.InvalidPoint):
        eg.public_encrypt(_cards(1)[0], g.IDENTITY)


def test_reencryption_changes_both_components_and_keeps_the_card() -> None:
    xs, _, y = _keys(2)
    m = _cards(1)[0]
    ct = eg.public_encrypt(m, y)
    ct2 = eg.reencrypt(y, ct, g.hash_to_scalar(b"test", b"r"))
    assert ct2[0] != ct[0] and ct2[1] != ct[1]
    assert eg.decode(ct2, [eg.share(x, ct2) for x in xs]) == m


def test_shuffle_output_i_takes_input_perm_i_with_r_i_from_the_nonce_stream() -> None:
    xs, _, y = _keys(2)
    cards = _cards(6)
    cts = [eg.public_encrypt(m, y) for m in cards]
    perm = [3, 0, 5, 1, 4, 2]
    out, rs = eg.shuffle(y, cts, perm, b"seed")
    nxt = g.nonce_stream(b"seed", b"reenc")
    assert rs == [nxt() for _ in range(6)]
    for i, ct in enumerate(out):
        assert ct == eg.reencrypt(y, cts[perm[i]], rs[i])
        assert eg.decode(ct, [eg.share(x, ct) for x in xs]) == cards[perm[i]]
    assert eg.shuffle(y, cts, perm, b"seed") == (out, rs)  # deterministic
    assert eg.shuffle(y, cts, perm, b"other")[0] != out


@pytest.mark.parametrize("perm", [[0, 0, 1], [0, 1], [0, 1, 3], [0, 1, 2, 3], [0, 1.0, 2]])
def test_shuffle_refuses_what_is_not_a_permutation(perm: list) -> None:
    _, _, y = _keys(1)
    cts = [eg.public_encrypt(m, y) for m in _cards(3)]
    with pytest.raises(ValueError):
        eg.shuffle(y, cts, perm, b"s")


def test_empty_and_single_card_shuffles() -> None:
    xs, _, y = _keys(2)
    assert eg.shuffle(y, [], [], b"s") == ([], [])
    m = _cards(1)[0]
    (ct,), _ = eg.shuffle(y, [eg.public_encrypt(m, y)], [0], b"s")
    assert eg.decode(ct, [eg.share(x, ct) for x in xs]) == m


def test_five_chained_shuffles_with_five_key_shares_recover_every_card() -> None:
    xs, _, y = _keys(5)
    cards = _cards(12)
    cts = [eg.public_encrypt(m, y) for m in cards]
    rng = random.Random(11)
    where = list(range(12))  # where[i]: the card at position i
    for seat in range(5):
        perm = rng.sample(range(12), 12)
        cts, _ = eg.shuffle(y, cts, perm, b"seat" + bytes([seat]))
        where = [where[perm[i]] for i in range(12)]
    assert sorted(where) == list(range(12))
    for i, ct in enumerate(cts):
        shares = [eg.share(x, ct) for x in rng.sample(xs, 5)]  # in any order
        assert eg.decode(ct, shares) == cards[where[i]]


def test_an_encrypted_share_is_read_by_its_receiver_only() -> None:
    xs, ys, y = _keys(3)
    ct = eg.public_encrypt(_cards(1)[0], y)
    from protocol.proofs import encrypt_share

    enc = encrypt_share(xs[0], ct, ys[1], g.hash_to_scalar(b"test", b"rho"))
    assert eg.decrypt_share(xs[1], enc) == eg.share(xs[0], ct)
    assert eg.decrypt_share(xs[2], enc) != eg.share(xs[0], ct)
