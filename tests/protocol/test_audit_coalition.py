"""Red team 17: two seats colluding against the audit of one of their records.

A record's owner can rewrite its own messages in its file (red team 13), and the audit names
nobody where another seat's message disagrees only with the owner's own. Two colluders can do
more: the owner re-signs its chain, its partner signs fresh messages of its own (its key is its
own), and the file they hand a third party holds *two* seats' rewritten messages, consistent
with each other. Every rule that took a seat other than the owner as a witness -- a later
shuffler confirming the owner's output, a third seat agreeing with the end digest, a third seat
stating the file's joint key -- then took the partner's word, and the audit of the file named
the honest seat: "NOT clean: seat 3 at fault". Here seats 1 and 2 (0 and 1 on the wire) collude,
seat 3 (2) plays honestly, and the file is seat 1's.

A step of the honest seat disagreeing with what the file's other seats signed is proof only
against a seat that has itself signed the thing it now disagrees with (its own output, a
ciphertext it named before, a key it stated before); otherwise the file may be the coalition's,
and nobody is named. The live table still names a seat sending a wrong ``prev``, echo, key or
digest: there every honest seat holds the messages it was really sent."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from protocol import proofs as pf
from protocol.audit import audit
from protocol.group import base_mul, sc_add, sc_from_int, sc_sub
from protocol.kdf import PeerSecrets
from protocol.params import DeckParams
from protocol.proofs import ct_from_json, point_from_hex
from protocol.steps import (
    PublicDeck,
    commitment,
    descriptor_of,
    make_commit,
    record_digest,
)

from .deck_helpers import by_op, make_table, ok, seed

N = 10
TAG = "coalition"
OWNER, PARTNER, HONEST = 0, 1, 2


async def a_game(peers: list[Any]) -> None:
    await ok(peers, lambda p: p.shuffle(list(range(N))))
    await ok(peers, lambda p: p.open([0, 1], [1]))
    await ok(peers, lambda p: p.open([2], [0, 2]))          # seat 3 encrypts its share to seat 1
    await ok(peers, lambda p: p.reorder([0, 1], 1, [1, 0] if p.seat == 1 else None))
    await ok(peers, lambda p: p.random(7))
    await ok(peers, lambda p: p.open_all([5, 6]))
    await ok(peers, lambda p: p.shuffle([3, 4, 5]))
    await ok(peers, lambda p: p.finish())


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    _, peers = make_table(3, N, tag=TAG)
    asyncio.run(a_game(peers))
    return peers[OWNER].record()


def copy_of(rec: dict[str, Any]) -> dict[str, Any]:
    import copy
    return copy.deepcopy(rec)


def forge(rec: dict[str, Any], *, shuffles: bool = False, commits: bool = False,
          key_proofs: bool = False, keys: dict[int, Any] | None = None) -> dict[str, Any]:
    """The coalition's file: every message of seats ``OWNER`` and ``PARTNER`` re-made over the
    file as it now stands (they hold their own keys and seeds), the honest seat's as signed.
    ``shuffles``: their shuffle steps with other permutations; ``commits``: the partner's random
    commitments with other nonces (both echoing them); ``key_proofs``: their key proofs made
    again with other randomness (the same keys); ``keys``: seat -> the key share it now claims."""
    rec = copy_of(rec)
    params = DeckParams.from_json(rec["params"])
    ops = by_op(rec["messages"])
    us = (OWNER, PARTNER)
    fresh = {j: PeerSecrets(bytes([0x40 + j]) * 32) for j in us}  # other randomness
    xs = {j: PeerSecrets(seed(j, TAG)).key(params.table_id, params.digest) for j in us}
    xs.update(keys or {})
    pub = PublicDeck(params)
    ys = [ops[0][("key", j)]["y"] for j in range(params.seats)]
    for j in us:
        if key_proofs or j in (keys or {}):
            ctx = pub.key_context(j)
            ops[0][("key", j)].update(y=base_mul(xs[j]).hex(),
                                      proof=pf.prove_key(xs[j], ctx, fresh[j].seed32("p", 0, ctx)))
    real = PublicDeck(params)
    real.set_keys([point_from_hex(y) for y in ys])
    pub.set_keys([point_from_hex(ops[0][("key", j)]["y"]) for j in range(params.seats)])
    remake = pub.key_hex != real.key_hex  # another joint key: every keyed step made again
    for op in sorted(o for o in ops if o > 0):
        msgs = ops[op]
        desc = descriptor_of(next(iter(msgs.values())))
        assert desc is not None
        kind = desc["kind"]
        if kind == "shuffle":
            cur = [pub.cts[s] for s in desc["slots"]]
            for j in pub.shufflers(desc):
                body = msgs[("shuffle", j)]
                if j in us and (shuffles or remake):
                    perm = fresh[j].permutation("perm", op, bytes(32), len(cur))
                    cur, made = pub.make_shuffle(fresh[j], op, j, cur, perm)
                    body.update(made)
                else:
                    cur = [ct_from_json(c, check=False) for c in body["cts"]]
            for s, ct in zip(desc["slots"], cur, strict=True):
                pub.cts[s] = ct
        elif kind in ("open", "prove"):
            for j in us:
                msgs[("shares", j)].update(pub.make_shares(fresh[j], xs[j], op, desc, j))
        elif kind == "random" and commits:  # the partner's commitment, the owner echoing it
            nonce, cm = make_commit(params, fresh[PARTNER], op, desc, PARTNER)
            assert commitment(params, op, PARTNER, nonce) == cm
            msgs[("commit", PARTNER)]["commit"] = cm.hex()
            msgs[("reveal", PARTNER)]["nonce"] = nonce.hex()
            for j in us:
                msgs[("reveal", j)]["echo"][PARTNER] = cm.hex()
        elif kind == "end":
            digest = record_digest([b for o, m in ops.items() if o < op for b in m.values()]).hex()
            for j in us:
                msgs[("end", j)]["digest"] = digest
    return rec


def owners_audit(rec: dict[str, Any]) -> Any:
    """``p2pcards audit`` of the owner's file: the auditor knows whose record it is."""
    return audit(rec["params"], rec["messages"], seat=OWNER).verdict


def test_the_untouched_record_is_clean_from_the_owners_seat(record):
    v = owners_audit(record)
    assert v.clean and v.complete, v


def test_two_colluders_rewriting_their_shuffle_steps_frame_nobody(record):
    """Seats 1 and 2 re-shuffle the first shuffle in their file, each step over the one before:
    seat 2's step 'confirms' seat 1's, and seat 3's honest step, signed over the real seat-2
    output, no longer matches. It was named (\"prev does not name the vector\")."""
    v = owners_audit(forge(record, shuffles=True))
    assert v.culprit is None and not v.clean, v
    assert "nobody is named" in v.reason and "prev does not name the vector" in v.reason, v


def test_two_colluders_rewriting_their_commitments_frame_nobody(record):
    """The partner commits and reveals other nonces in the file, and both echo them: seat
    3's honest echo misstates seat 2's commitment. It was named ("echo misstates seat 2's")."""
    v = owners_audit(forge(record, commits=True))
    assert v.culprit is None and not v.clean, v
    assert "nobody is named" in v.reason and "echo misstates seat 2's commitment" in v.reason, v


def test_a_colluder_agreeing_with_the_owners_end_digest_frames_nobody(record):
    """The two re-make their key proofs (same keys, other randomness: nothing else changes) and
    sign end digests over their file: seat 3's honest digest differs, seat 2's 'agrees'. It was
    named ("its digest of the public record differs")."""
    v = owners_audit(forge(record, key_proofs=True))
    assert v.culprit is None and not v.clean, v
    assert "nobody is named" in v.reason and "digest" in v.reason, v


def test_a_colluder_stating_the_owners_new_joint_key_frames_nobody(record):
    """The owner replaces its key share in its file and its partner re-makes every keyed step of
    its own under the new joint key: seat 2 'confirms' the file's key, and seat 3's first
    keyed step, made under the real one, was named ("seat 2 confirms this record's key")."""
    x_new = PeerSecrets(b"\x07" * 32).key(b"t", b"d")
    v = owners_audit(forge(record, keys={OWNER: x_new}))
    assert v.culprit is None and not v.clean, v
    assert "nobody is named" in v.reason and "joint key" in v.reason, v


def test_two_colluders_moving_key_between_their_shares_frame_nobody(record):
    """The two move a scalar from one key share to the other (x1 + d, x2 - d): the joint key,
    the deck, every shuffle and every card stay as played, so no step states another key. Seat
    3's encrypted share to seat 1, proven against seat 1's real key share, fails against the
    file's. It was named ("encrypted share proof for seat 1")."""
    params = DeckParams.from_json(record["params"])
    x = {j: PeerSecrets(seed(j, TAG)).key(params.table_id, params.digest) for j in (0, 1)}
    d = sc_from_int(123456789)
    forged = forge(record, keys={OWNER: sc_add(x[0], d), PARTNER: sc_sub(x[1], d)})
    joint = [b for s, b in forged["messages"] if b.get("step") == "shuffle"][0]["key"]
    assert joint == [b for s, b in record["messages"] if b.get("step") == "shuffle"][0]["key"]
    v = owners_audit(forged)
    assert v.culprit is None and not v.clean, v
    assert "nobody is named" in v.reason and "encrypted share proof for seat 1" in v.reason, v


@pytest.mark.parametrize("variant", ["shuffles", "commits", "key_proofs"])
def test_without_an_owner_the_auditor_names_as_a_live_seat_does(record, variant):
    """A verifier not told whose record it is (``seat=None``) reads every message as a live
    seat does, which holds the messages it was really sent: it names the honest seat's
    disagreement, as before. ``p2pcards audit`` always knows the file's owner."""
    forged = forge(record, **{variant: True})
    v = audit(forged["params"], forged["messages"]).verdict
    assert v.culprit == HONEST, v


# ---- an abort the owner's file "proves false" ------------------------------------------------
def _cheat_shuffle(peer: Any, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
    if body.get("step") == "shuffle":  # two outputs swapped: the proof of shuffle fails
        body["cts"][0], body["cts"][1] = body["cts"][1], body["cts"][0]
    return [(None, body)]


def test_an_owner_rewriting_the_message_an_honest_seat_stopped_on_frames_nobody():
    """Seat 1 sends a shuffle step whose proof fails; seats 2 and 3 stop the table, naming it
    (their aborts, about its step). In its own file seat 1 then puts a sound shuffle step in
    place of the one it sent: the file 'shows' that seat 2 stopped the table although every
    message it waited for came before its abort and was sound, and the audit named seat 2 for
    it -- the honest seat that caught the cheat. What reached seat 2 may be what the file's
    owner (or a seat colluding with it) rewrote: an abort in another seat's file names nobody."""
    from .deck_helpers import adversary, first_errors

    _, peers = make_table(3, N, tag="abort-frame", timeout=5.0,
                          classes={OWNER: adversary(_cheat_shuffle)})
    errors = asyncio.run(first_errors(peers, [lambda p: p.shuffle(list(range(N)))]))
    assert all(getattr(errors[s], "peer", None) == OWNER for s in (1, 2)), errors
    rec = peers[OWNER].record()
    params = DeckParams.from_json(rec["params"])
    ops = by_op(rec["messages"])
    pub = PublicDeck(params)
    pub.set_keys([point_from_hex(ops[0][("key", j)]["y"]) for j in range(3)])
    mine = ops[1][("shuffle", OWNER)]
    sec = PeerSecrets(seed(OWNER, "abort-frame"))
    _, made = pub.make_shuffle(sec, 1, OWNER, pub.cts[:N], sec.permutation("perm", 1, b"", N))
    mine.update(made)
    assert audit(rec["params"], rec["messages"]).verdict.culprit == 1  # no owner: as live
    v = audit(rec["params"], rec["messages"], seat=OWNER).verdict
    assert v.culprit is None, v  # seat 2 was named: "stopped the table ... and sound"
