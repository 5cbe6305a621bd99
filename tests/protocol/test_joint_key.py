"""Every keyed step (shuffle, shares, member) states the joint key its sender computed (``key``,
SPEC.md 5.1), so that the audit can tell a wrong proof from a file whose key is not the one the
sender was shown (an owner that re-keyed in its own file, SPEC.md 9; the forged files are in
tests/table/test_audit_framing.py). Here, live: a step stating another key, or none, names its
sender at every honest seat; the audit of an honest seat's record names it too when the sender
itself had stated the record's key in an earlier message, and nobody otherwise (another seat's
statement is no witness: red team 17); a step stating the table's key with a wrong proof is
named everywhere, as before."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pytest

from protocol import group as g
from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import CheatDetected
from protocol.steps import KEY_MISMATCH, PublicDeck, key_digest

from .deck_helpers import adversary, by_op, first_errors, make_table, ok, rekey

N = 6
Op = Callable[[DeckPeer], Awaitable[Any]]


def other_key(pub: PublicDeck) -> PublicDeck:
    """The public deck as a seat would see it under another joint key (its last share moved by
    ``G``): a key the table does not have."""
    fake = copy.copy(pub)
    fake.set_keys([*pub.ys[:-1], g.add(pub.ys[-1], g.base_mul(g.sc(1)))])  # type: ignore[list-item]
    return fake


def shuffler(state_key: bool) -> type[DeckPeer]:
    """A seat whose shuffle steps are made under another joint key: stating that key (its proof
    holds for what it states), or stating the table's (``state_key=False``: its proof fails)."""

    class Other(DeckPeer):
        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            pub = self.pub

            def make_shuffle(sec: Any, op: int, seat: int, cur: Any, perm: Any) -> Any:
                outs, fields = PublicDeck.make_shuffle(other_key(pub), sec, op, seat, cur, perm)
                if not state_key:
                    fields["key"] = pub.key_hex
                return outs, fields

            pub.make_shuffle = make_shuffle  # type: ignore[method-assign]

    return Other


def play(seats: int, culprit: int, cls: type[DeckPeer], ops: Sequence[Op], tag: str
         ) -> tuple[list[Any], list[DeckPeer]]:
    """Runs ``ops`` in turn until one fails somewhere: each seat's first error."""
    _, peers = make_table(seats, N, tag=tag, classes={culprit: cls})
    return asyncio.run(first_errors(peers, ops)), peers


def named_live(errors: list[Any], culprit: int, op: int, step: str, why: str) -> None:
    for seat, err in enumerate(errors):
        if seat != culprit:
            assert isinstance(err, CheatDetected), f"seat {seat}: {err!r}"
            assert (err.peer, err.op, err.step) == (culprit, op, step), f"seat {seat}: {err!r}"
            assert why in err.reason, f"seat {seat}: {err!r}"


def audited(peer: DeckPeer, seat: int | None) -> Any:
    """The audit of ``peer``'s record, as ``p2pcards audit`` runs it (the owner's seat given)."""
    rec = peer.record()
    return audit(rec["params"], rec["messages"], seat=seat).verdict


def shuffle_all(p: DeckPeer) -> Any:
    return p.shuffle(list(range(N)))


def open_all(p: DeckPeer) -> Any:
    return p.open_all([0, 1])


def test_a_shuffler_stating_a_key_the_table_does_not_have_is_named_live_not_in_an_audit() -> None:
    """Seat 3 shuffles under a key it made up and says so. Every honest seat names it. The
    audit of an honest seat's record names nobody: the other honest seat's step before it
    states the record's key, but a seat colluding with a record's owner states whatever key the
    owner gave itself in its file (red team 17: the audit named the honest seat 3 of two
    colluders' file on that witness, tests/protocol/test_audit_coalition.py)."""
    errors, peers = play(3, 2, shuffler(True), [shuffle_all], "wrong-key")
    named_live(errors, 2, 1, "shuffle", KEY_MISMATCH)
    assert all(e.confirm for e in errors[:2])  # (a third seat's share could explain it: grace)
    for owner in (0, 1):
        v = audited(peers[owner], owner)
        assert v.culprit is None and (v.op, v.step) == (1, "shuffle"), v
        assert "never stated this record's key itself" in v.reason, v
        assert "nobody is named" in v.reason, v


def test_the_first_shuffler_stating_another_key_is_named_once_it_stated_the_key_itself() -> None:
    """Seat 1 goes first. In seat 2's record, the record cannot show whether seat 1 or the
    record's owner lied about the key (the owner could have re-keyed in its file): nobody is
    named. After an opening, whose shares seat 1 signed with the record's key, seat 1's own
    statement settles it: seat 1 is named. (Seat 3's statement did before red team 17; a seat
    colluding with the owner makes one for any key.)"""
    errors, peers = play(3, 0, shuffler(True), [shuffle_all], "first-wrong-key")
    named_live(errors, 0, 1, "shuffle", KEY_MISMATCH)
    v = audited(peers[1], 1)
    assert v.culprit is None and (v.op, v.step) == (1, "shuffle"), v
    assert "nobody is named" in v.reason and "states another joint key" in v.reason, v

    errors, peers = play(3, 0, shuffler(True), [open_all, shuffle_all], "later-wrong-key")
    named_live(errors, 0, 2, "shuffle", KEY_MISMATCH)
    v = audited(peers[1], 1)
    assert (v.culprit, v.op, v.step) == (0, 2, "shuffle"), v
    assert "it stated this record's key itself at op 1" in v.reason, v


@pytest.mark.parametrize("seats", [2, 3])
def test_a_shuffler_stating_the_table_s_key_with_a_wrong_proof_is_named(seats: int) -> None:
    """What the audit's new rule must not excuse: a step that states the record's key and
    fails its proof is its sender's own, also at two seats, where a key that differs names
    nobody in an audit."""
    culprit = seats - 1
    errors, peers = play(seats, culprit, shuffler(False), [shuffle_all], f"bad-proof{seats}")
    named_live(errors, culprit, 1, "shuffle", "shuffle proof")
    for owner in range(culprit):
        v = audited(peers[owner], owner)
        assert (v.culprit, v.op, v.step) == (culprit, 1, "shuffle"), v
        assert "shuffle proof" in v.reason, v


@pytest.mark.parametrize("owner", [0, 1, 2])
def test_an_owner_re_keying_its_record_of_three_seats_gets_nobody_named(owner: int) -> None:
    """The attacker is the record's owner, after an honest three-seat game: it replaces its key
    share (valid proof) and re-makes its later messages under the new key. Every other seat
    stated the real key, none the file's: whatever the owner's seat, the first other seat's
    keyed step fails on its key and nobody is named (the old audit named that seat whenever
    the owner did not shuffle first). Untouched, the record audits clean."""
    async def main() -> list[DeckPeer]:
        _, peers = make_table(3, N, tag="rekey3")
        await ok(peers, lambda p: p.random(6))
        await ok(peers, shuffle_all)
        await ok(peers, lambda p: p.open([0], [owner]))
        await ok(peers, open_all)
        await ok(peers, lambda p: p.finish())
        return peers

    peers = asyncio.run(main())
    rec = peers[owner].record()
    assert audit(rec["params"], rec["messages"], seat=owner).verdict.clean
    rekey(by_op(rec["messages"]), peers[owner].params, owner, b"\x07" * 32)
    v = audit(rec["params"], rec["messages"], seat=owner).verdict
    assert not v.clean and v.culprit is None and (v.op, v.step) == (2, "shuffle"), v
    assert "states another joint key" in v.reason and "nobody is named" in v.reason, v


def _restate(step: str, value: Any) -> type[DeckPeer]:
    """A seat that sends its ``step`` messages with ``key`` replaced (``None``: removed)."""
    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["step"] == step:
            if value is None:
                del body["key"]
            else:
                body["key"] = value(peer)
        return [(None, body)]
    return adversary(tamper)


@pytest.mark.parametrize(("step", "ops", "op"), [
    ("shuffle", [shuffle_all], 1),
    ("shares", [shuffle_all, open_all], 2),
    ("member", [shuffle_all, lambda p: p.open([0], [1]), lambda p: p.prove([0], 1, list(range(N)))], 3),
], ids=["shuffle", "shares", "member"])
@pytest.mark.parametrize(("value", "why"), [
    (lambda peer: key_digest(other_key(peer.pub).y).hex(), KEY_MISMATCH),  # another key's
    (lambda peer: "ab" * 32, KEY_MISMATCH),  # no key's digest
    (lambda peer: peer.pub.key_hex.upper(), "key is not 64 lowercase hex"),  # not the wire format
    (None, "fields missing: key"),
], ids=["other-key", "no-key", "uppercase", "missing"])
def test_every_keyed_step_with_a_wrong_or_missing_key_names_its_sender(
        step: str, ops: list[Op], op: int, value: Any, why: str) -> None:
    errors, peers = play(3, 1, _restate(step, value), ops, f"restate-{step}")
    named_live(errors, 1, op, step, why)
    v = audited(peers[0], None)  # (no owner given: nothing rests on an owner's messages)
    assert (v.culprit, v.op, v.step) == (1, op, step), v


def test_honest_keyed_steps_pass_and_state_one_key() -> None:
    """The control: the same operations with every seat honest; every keyed step of the
    record states the digest of the one joint key, ``SHA-256("p2pcards/v3/key" || Y)``."""
    import hashlib

    async def main() -> list[DeckPeer]:
        _, peers = make_table(3, N, tag="keyed-control")
        await ok(peers, shuffle_all)
        await ok(peers, lambda p: p.open([0], [1]))
        await ok(peers, lambda p: p.prove([0], 1, list(range(N))))
        await ok(peers, open_all)
        return peers

    peers = asyncio.run(main())
    y = peers[0].pub.y
    assert y is not None and all(p.pub.y == y for p in peers)
    want = hashlib.sha256(b"p2pcards/v3/key" + y).hexdigest()
    keyed = [b for _, b in peers[2].record()["messages"] if b["step"] in ("shuffle", "shares", "member")]
    assert {b["step"] for b in keyed} == {"shuffle", "shares", "member"}
    assert {b["key"] for b in keyed} == {want}
    for owner in range(3):
        assert audited(peers[owner], owner).clean
