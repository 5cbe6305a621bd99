"""The pure computations and checks of every protocol step, shared by the live peers and the audit.

``PublicDeck`` is the public state of a table's deck (key shares, joint key, the ciphertext in every
slot) and holds every receiver check: a live peer runs each received message through it on
arrival, and the offline audit runs every recorded message through the very same code, so a live
seat and an auditor always reach the same verdict. The ``make_*`` functions build a seat's own
messages from its secrets (``kdf``) and the public inputs. SPEC.md is the normative description.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from . import elgamal as eg
from . import proofs as pf
from .envelope import is_int
from .errors import CheatDetected, Equivocation
from .group import Point, Scalar, add, base_mul, card_table, lp, sub, u32, u64
from .kdf import PeerSecrets
from .params import MAX_SEATS, VERSION, DeckParams
from .proof_common import hex32
from .seating import Seating

Ciphertext = tuple[Point, Point]

# ---- operation descriptors ---------------------------------------------------------------------
#: The fields that describe an operation, by kind; every message of the operation repeats them.
DESC_FIELDS: dict[str, tuple[str, ...]] = {
    "key": (),
    "shuffle": ("slots", "by"),
    "open": ("slots", "to"),
    "random": ("n",),
    "prove": ("slots", "by", "in"),
    "end": (),
}
#: The fields of each step's message besides the envelope (``v op kind <desc> step seat``).
STEP_FIELDS: dict[str, tuple[str, ...]] = {
    "key": ("desc", "y", "proof"),
    "shuffle": ("key", "prev", "cts", "proof"),
    "shares": ("key", "prev", "shares", "proof", "enc"),
    "commit": ("commit",),
    "reveal": ("nonce", "echo"),
    "member": ("key", "prev", "proofs"),
    "end": ("digest",),
    "abort": ("culprit", "about", "reason"),
}
STEPS_OF: dict[str, tuple[str, ...]] = {
    "key": ("key",), "shuffle": ("shuffle",), "open": ("shares",), "random": ("commit", "reveal"),
    "prove": ("shares", "member"), "end": ("end",),
}


#: a step whose input is another seat's output, naming another (SPEC.md 5.3)
PREV_MISMATCH = "prev does not name the vector this step must take as input"
#: the steps whose checks depend on the joint key ``Y``: each states the key its sender computed
#: (``key``, SPEC.md 5.1); a record made before they did has none (``keyed=False``)
KEYED_STEPS = ("shuffle", "shares", "member")
#: a keyed step whose ``key`` is not this seat's (or the record's) joint key
KEY_MISMATCH = "key does not name the joint key the table's key shares make"


def descriptor(kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, **{k: fields[k] for k in DESC_FIELDS[kind]}}


def descriptor_of(body: dict[str, Any]) -> dict[str, Any] | None:
    kind = body.get("kind")
    if not isinstance(kind, str) or kind not in DESC_FIELDS:
        return None
    if any(k not in body for k in DESC_FIELDS[kind]):
        return None
    return {"kind": kind, **{k: body[k] for k in DESC_FIELDS[kind]}}


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``true`` is not ``1`` and ``1.0`` is not ``1`` (Python's ``==``
    says they are, so a message that swapped one for the other would pass for the original)."""
    return _json(a) == _json(b)


def _json(x: Any) -> str:
    return json.dumps(x, sort_keys=True, separators=(",", ":"))


def _index_list(v: Any, bound: int, what: str, empty: bool = False) -> str | None:
    if not isinstance(v, list) or (not v and not empty):
        return f"{what} is not a {'' if empty else 'non-empty '}list"
    if len(v) > bound or any(not is_int(x) or not 0 <= x < bound for x in v):
        return f"{what} holds something other than a number from 0 to {bound - 1}"
    if len(set(v)) != len(v):
        return f"{what} repeats an entry"
    return None


def descriptor_problem(desc: dict[str, Any], n_cards: int, seats: int) -> str | None:
    """What is wrong with an operation descriptor (``None``: well formed): slots are distinct
    card positions, ``to`` is an ascending list of distinct seats, ``by`` a seat or ``null`` (a
    seat for a claim), a claim's ``in`` an ascending list of distinct cards, a random range fits
    in 64 bits."""
    kind = desc.get("kind")
    if kind not in DESC_FIELDS:
        return f"unknown operation kind {kind!r}"
    if kind in ("shuffle", "open"):
        problem = _index_list(desc.get("slots"), n_cards, "slots", empty=True)
        if problem:
            return problem
    if kind == "shuffle":
        by = desc.get("by")
        if by is not None and (not is_int(by) or not 0 <= by < seats):
            return f"by is {by!r}, not a seat"
    elif kind == "open":
        to = desc.get("to")
        problem = _index_list(to, seats, "to")
        if problem:
            return problem
        if to != sorted(to):
            return "to is not in ascending order"
    elif kind == "prove":
        problem = _index_list(desc.get("slots"), n_cards, "slots")
        if problem:
            return problem
        by = desc.get("by")
        if not is_int(by) or not 0 <= by < seats:
            return f"by is {by!r}, not a seat"
        allowed = desc.get("in")
        problem = _index_list(allowed, n_cards, "in")
        if problem:
            return problem
        if allowed != sorted(allowed):
            return "in is not in ascending order"
    elif kind == "random":
        n = desc.get("n")
        if not is_int(n) or not 0 < n < 2**64:
            return f"n is {n!r}, not a range size from 1 to 2^64 - 1"
    return None


# ---- digests and contexts ------------------------------------------------------------------------
def canonical(v: Any) -> bytes:
    """The canonical JSON of ``v``: sorted keys, no spaces, ASCII only."""
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def vec_digest(cts: Sequence[Ciphertext]) -> bytes:
    """``SHA-256(b"p2pcards/v2/vec" || u32be(m) || a_0 || b_0 || ... )``: names a vector of
    ciphertexts (a shuffle step's input; the ``prev`` field)."""
    h = hashlib.sha256(b"p2pcards/v2/vec" + u32(len(cts)))
    for a, b in cts:
        h.update(a)
        h.update(b)
    return h.digest()


def op_digest(desc: dict[str, Any]) -> bytes:
    """``SHA-256(b"p2pcards/v2/op" || canonical(descriptor))``: the input of an operation that
    consumes no ciphertext (key share, random)."""
    return hashlib.sha256(b"p2pcards/v2/op" + canonical(desc)).digest()


def context(p: DeckParams, op: int, step: str, seat: int, inp: bytes) -> bytes:
    """Every proof's context: ``SHA-256(b"p2pcards/v2/ctx" || lp(T) || desc_digest || u64be(op)
    || lp(step) || u32be(seat) || input_digest)``."""
    return hashlib.sha256(b"p2pcards/v2/ctx" + lp(p.table_id) + p.digest + u64(op)
                          + lp(step.encode()) + u32(seat) + inp).digest()


def key_digest(y: Point) -> bytes:
    """``SHA-256(b"p2pcards/v3/key" || Y)``: names the joint key ``Y``; every keyed step states
    the one its sender computed (the ``key`` field, SPEC.md 2.2, 5.1)."""
    return hashlib.sha256(b"p2pcards/v3/key" + y).digest()


def commitment(p: DeckParams, op: int, seat: int, nonce: bytes) -> bytes:
    return hashlib.sha256(b"p2pcards/v2/commit" + lp(p.table_id) + p.digest + u64(op) + u32(seat)
                          + nonce).digest()


def random_value(p: DeckParams, op: int, n: int, nonces: Sequence[bytes]) -> int:
    """The joint value in ``[0, n)``: ``d = SHA-256(b"p2pcards/v2/random" || lp(T) || u64be(op) ||
    u64be(n) || nonce_0 || ... || nonce_{k-1})``; for ``ctr = 0, 1, ...`` take
    ``x = SHA-256(d || u32be(ctr))`` as a big-endian integer and return ``x mod n`` for the first
    ``x < 2^256 - (2^256 mod n)`` (rejection sampling: no modulo bias)."""
    d = hashlib.sha256(b"p2pcards/v2/random" + lp(p.table_id) + u64(op) + u64(n)
                       + b"".join(nonces)).digest()
    limit = (1 << 256) - (1 << 256) % n
    ctr = 0
    while True:
        x = int.from_bytes(hashlib.sha256(d + u32(ctr)).digest(), "big")
        if x < limit:
            return x % n
        ctr += 1  # pragma: no cover - probability < n / 2^256


def message_key(body: dict[str, Any]) -> tuple[int, str, int]:
    return (body["op"], body["step"], body["seat"])


def record_digest(messages: Sequence[dict[str, Any]]) -> bytes:
    """``SHA-256(b"p2pcards/v2/record" || lp(canonical(m)) ...)`` over the messages sorted by
    ``(op, step, seat)``: what the end step compares."""
    h = hashlib.sha256(b"p2pcards/v2/record")
    for m in sorted(messages, key=message_key):
        h.update(lp(canonical(m)))
    return h.digest()


# ---- strict parsing ------------------------------------------------------------------------------
def _hex32(v: Any) -> bytes | None:
    if not isinstance(v, str) or len(v) != 64:
        return None
    try:
        b = bytes.fromhex(v)
    except ValueError:
        return None
    return b if b.hex() == v else None


class Check:
    """Raises ``CheatDetected`` naming ``seat`` at ``op``/``step``."""

    def __init__(self, seat: int, op: int, step: str) -> None:
        self.seat, self.op, self.step = seat, op, step

    def fail(self, reason: str) -> CheatDetected:
        return CheatDetected(self.seat, self.step, reason, self.op)

    def hex32(self, v: Any, what: str) -> bytes:
        b = _hex32(v)
        if b is None:
            raise self.fail(f"{what} is not 64 lowercase hex characters")
        return b

    def point(self, v: Any, what: str, check: bool = True) -> Point:
        """A point; ``check=False``: the hex format only, for a point that the proof about to be
        verified multiplies by a non-zero scalar (which decodes, so validates, it): each
        received point is then decoded with validation once, not twice."""
        p = pf.point_from_hex(v) if check else hex32(v)
        if p is None:
            raise self.fail(f"{what} is not a valid point")
        return p

    def cts(self, v: Any, m: int, what: str, check: bool = True) -> list[Ciphertext]:
        """``m`` ciphertexts; ``check=False``: the hex format only, for the outputs of a shuffle
        step, which an accepted proof of shuffle validates (each point is multiplied by a
        non-zero scalar, and libsodium refuses an invalid point): they are kept only then."""
        if not isinstance(v, list) or len(v) != m:
            raise self.fail(f"{what} is not a list of {m} ciphertexts")
        out = []
        for i, x in enumerate(v):
            ct = pf.ct_from_json(x, check)
            if ct is None:
                raise self.fail(f"{what}[{i}] is not a valid ciphertext")
            out.append(ct)
        return out

    def points(self, v: Any, m: int, what: str, check: bool = True) -> list[Point]:
        if not isinstance(v, list) or len(v) != m:
            raise self.fail(f"{what} is not a list of {m} points")
        return [self.point(x, f"{what}[{i}]", check) for i, x in enumerate(v)]

    def proof(self, reason: str | None, what: str) -> None:
        if reason is not None:
            exc = self.fail(f"{what}: {reason}")
            exc.on_key = True  # type: ignore[attr-defined]  # (the audit of a record without key)
            raise exc


#: the fields of a message, by (operation kind, step)
_WANT = {(kind, step): frozenset({"v", "op", "kind", "step", "seat", *DESC_FIELDS[kind],
                                  *STEP_FIELDS[step]})
         for kind in DESC_FIELDS for step in STEP_FIELDS}
#: fields a message may carry besides: a key share's host-signed game (``seated``, SPEC.md 5.2;
#: records made before it have none)
_MAY = {("key", "key"): frozenset({"seated"})}


def envelope_problem(body: Any, sender: int, seats: int, keyed: bool = True) -> str | None:
    """Checks common to every message (SPEC.md "Envelope"): an object with exactly the envelope,
    descriptor and step fields, ``v`` = VERSION (an integer), ``seat`` = the authenticated sender.
    ``keyed=False``: the audit of a record made before the keyed steps stated their joint key
    (SPEC.md 9): those steps have no ``key`` field."""
    if not isinstance(body, dict):
        return "malformed message (not an object)"
    step, op = body.get("step"), body.get("op")
    if not isinstance(step, str) or step not in STEP_FIELDS:
        return f"unknown step {step!r}"
    if not is_int(op) or not 0 <= op < 2**63:
        return "malformed message (op)"
    if not is_int(body.get("seat")) or body["seat"] != sender or not 0 <= sender < min(seats, MAX_SEATS):
        claimed = body.get("seat")
        return (f"message claims to come from seat {claimed + 1}" if is_int(claimed)
                else f"message claims to come from seat {claimed!r}")
    if not is_int(body.get("v")) or body["v"] != VERSION:
        return f"unknown protocol version {body.get('v')!r}"
    desc = descriptor_of(body)
    if desc is None:
        return "malformed operation descriptor"
    if step != "abort" and step not in STEPS_OF[desc["kind"]]:
        return f"step {step} does not belong to a {desc['kind']} operation"
    want = _WANT[desc["kind"], step]
    if not keyed and step in KEYED_STEPS:
        want = want - {"key"}
    if body.keys() - _MAY.get((desc["kind"], step), frozenset()) != want:
        extra, missing = sorted(set(body) - want), sorted(want - set(body))
        return f"fields {'missing: ' + ', '.join(missing) if missing else ''}" \
               f"{'; ' if missing and extra else ''}{'unexpected: ' + ', '.join(extra) if extra else ''}"
    return None


def envelope(op: int, desc: dict[str, Any], step: str, seat: int, /, **fields: Any) -> dict[str, Any]:
    return {"v": VERSION, "op": op, **desc, "step": step, "seat": seat, **fields}


# ---- the public deck -----------------------------------------------------------------------------
class PublicDeck:
    """The public state of a table's deck and every receiver check (SPEC.md "Receiver checks")."""

    def __init__(self, params: DeckParams, seating: Seating | None = None) -> None:
        self.p = params
        #: the host-signed game this seat was seated at, and how to weigh another seat's
        #: (SPEC.md 5.2); ``None``: a deck without a host (key shares carry no ``seated``)
        self.seating = seating
        self.n = params.seats
        self.card_points, self.card_index = card_table(params.table_id, params.deck_spec,
                                                       params.n_cards)
        self.ys: list[Point | None] = [None] * self.n
        self.y: Point | None = None
        #: ``key_digest(y)`` in hex, the ``key`` every keyed step states (SPEC.md 5.1)
        self.key_hex: str | None = None
        #: whether keyed steps carry ``key`` (``False``: the audit of an older record)
        self.keyed = True
        self.cts: list[Ciphertext] = []
        #: every ciphertext a slot has held (red team 26): a shuffle step may put none back, for
        #: the decryption shares published of it stay valid (``check_shuffle``)
        self.held: set[Ciphertext] = set()
        self.commits_seen: set[bytes] = set()

    # ---- key shares (op 0) --------------------------------------------------------------------
    def key_context(self, seat: int) -> bytes:
        return context(self.p, 0, "key", seat, self.p.digest)

    def make_key(self, sec: PeerSecrets, seat: int) -> tuple[Scalar, dict[str, Any]]:
        x = sec.key(self.p.table_id, self.p.digest)
        ctx = self.key_context(seat)
        proof = pf.prove_key(x, ctx, sec.seed32("proof", 0, ctx))
        fields = {"desc": self.p.digest.hex(), "y": base_mul(x).hex(), "proof": proof}
        if self.seating is not None and self.seating.mine is not None:
            fields["seated"] = self.seating.mine
        return x, fields

    def check_key(self, seat: int, body: dict[str, Any]) -> Point:
        c = Check(seat, 0, "key")
        if c.hex32(body["desc"], "desc") != self.p.digest:
            # the seat was told another game than this seat: the host seated them at different
            # games, or the message lies. The host's signature over the game the share shows
            # says which (SPEC.md 5.2); a deck without a host (no seating) names nobody
            if self.seating is None or self.seating.mine is None:
                raise Equivocation(None, "key", f"seat {seat + 1} plays another game description "
                                   "than this seat: the host told one of them another game, or "
                                   "that seat's message lies; nothing signed says which, so "
                                   "nobody is named", 0, seat)
            culprit, lies, why = self.seating.judge(seat, body)
            if lies:
                raise CheatDetected(seat, "key", why, 0)
            raise Equivocation(culprit, "key", why, 0, seat)
        y = c.point(body["y"], "y")
        if y in [v for i, v in enumerate(self.ys) if i != seat]:
            raise c.fail("the key share repeats another seat's")
        c.proof(pf.verify_key(y, body["proof"], self.key_context(seat)), "key proof")
        return y

    def set_keys(self, ys: Sequence[Point]) -> None:
        self.ys = list(ys)
        acc = ys[0]
        for y in ys[1:]:
            acc = add(acc, y)
        self.y = acc
        self.key_hex = key_digest(acc).hex()
        self.cts = [eg.public_encrypt(pt, acc) for pt in self.card_points]
        self.held = set(self.cts)

    def place(self, slots: Sequence[int], cts: Sequence[Ciphertext]) -> None:
        """A shuffle's outputs, once every step of it was checked, into their ``slots``."""
        for s, ct in zip(slots, cts, strict=True):
            self.cts[s] = ct
        self.held.update(cts)

    def check_joint_key(self, c: Check, body: dict[str, Any]) -> None:
        """A keyed step's ``key`` must name this seat's joint key ``Y`` (SPEC.md 5.1): a public
        value every honest seat computes alike from the signed key shares, so a seat stating
        another made its proofs for a key the table does not have. Checked first, so that the
        audit can tell that from a wrong proof (SPEC.md 9). A different key at a third seat's
        share would be an equivocation at operation 0, which the mesh proves: with more than two
        seats the sender is named after the mesh's grace (``confirm``), as for a wrong ``prev``."""
        if not self.keyed:
            return
        if c.hex32(body["key"], "key") != bytes.fromhex(self.key_hex or ""):
            exc = c.fail(KEY_MISMATCH)
            exc.confirm = self.n > 2
            raise exc

    # ---- shuffles ------------------------------------------------------------------------------
    def shufflers(self, desc: dict[str, Any]) -> list[int]:
        """The seats that take a shuffle step, in order: every seat, or the reordering seat."""
        return list(range(self.n)) if desc["by"] is None else [desc["by"]]

    def make_shuffle(self, sec: PeerSecrets, op: int, seat: int, cur: Sequence[Ciphertext],
                     perm: Sequence[int]) -> tuple[list[Ciphertext], dict[str, Any]]:
        assert self.y is not None
        inp = vec_digest(cur)
        outs, rands = eg.shuffle(self.y, list(cur), list(perm), sec.seed32("reenc", op, inp))
        ctx = context(self.p, op, "shuffle", seat, inp)
        proof = pf.prove_shuffle(self.y, list(cur), outs, list(perm), rands, ctx,
                                 sec.seed32("proof", op, ctx))
        return outs, {"key": self.key_hex, "prev": inp.hex(),
                      "cts": [pf.ct_to_json(ct) for ct in outs], "proof": proof}

    def check_prev(self, c: Check, body: dict[str, Any], inp: bytes, provable: bool) -> None:
        """``prev`` must name the input this seat holds, which is public: every message it was
        built from was broadcast and signed. A mismatch names the sender (SPEC.md 5.3): at once
        when this seat itself published that input (``provable``, or an auditor's record);
        otherwise with ``confirm``, for the table to give the mesh its grace first -- only a seat
        that sent the two seats different copies of an earlier message (an equivocation, which
        the mesh proves) could explain it, and that proof names the equivocator instead."""
        if c.hex32(body["prev"], "prev") == inp:
            return
        exc = c.fail(PREV_MISMATCH)
        exc.confirm = not provable
        exc.on_key = True  # type: ignore[attr-defined]  # the input depends on Y too
        raise exc

    def check_shuffle(self, op: int, seat: int, cur: Sequence[Ciphertext], body: dict[str, Any],
                      provable: bool = True) -> list[Ciphertext]:
        """A shuffle step of ``seat`` over input ``cur``: its outputs, once the proof holds."""
        assert self.y is not None
        c = Check(seat, op, "shuffle")
        inp = vec_digest(cur)
        self.check_joint_key(c, body)
        self.check_prev(c, body, inp, provable)
        outs = c.cts(body["cts"], len(cur), "cts", check=False)
        if len(set(outs)) != len(outs):
            raise c.fail("two outputs are the same ciphertext (a duplicate)")
        if not set(outs).isdisjoint(cur):  # r = 0: an honest seat's happens with odds 2^-252
            raise c.fail("an output is one of the inputs unchanged (a re-encryption without "
                         "randomness: the decryption shares already published of it stay valid)")
        if not self.held.isdisjoint(outs):  # a re-encryption undone (red team 26): the same odds
            raise c.fail("an output is a ciphertext the deck held before (a re-encryption "
                         "undone: the decryption shares already published of it stay valid)")
        ctx = context(self.p, op, "shuffle", seat, inp)
        c.proof(pf.verify_shuffle(self.y, list(cur), outs, body["proof"], ctx), "shuffle proof")
        return outs

    # ---- openings ------------------------------------------------------------------------------
    def share_plan(self, desc: dict[str, Any], seat: int) -> list[int] | None:
        """``None``: ``seat`` publishes plain shares; else the receivers it encrypts them to. A
        claim (``prove``) shares as an opening to its prover alone (SPEC.md 5.7)."""
        to = [desc["by"]] if desc["kind"] == "prove" else desc["to"]
        if len(to) == self.n or seat not in to:
            return None
        return [r for r in to if r != seat]

    def make_shares(self, sec: PeerSecrets, x: Scalar, op: int, desc: dict[str, Any], seat: int
                    ) -> dict[str, Any]:
        cur = [self.cts[s] for s in desc["slots"]]
        inp = vec_digest(cur)
        plan = self.share_plan(desc, seat)
        if plan is None:
            ctx = context(self.p, op, "shares", seat, inp)
            shares = [eg.share(x, ct) for ct in cur]
            proof = pf.prove_shares(x, cur, ctx, sec.seed32("proof", op, ctx), shares=shares,
                                    y=self.ys[seat])
            return {"key": self.key_hex, "prev": inp.hex(), "shares": [d.hex() for d in shares],
                    "proof": proof, "enc": []}
        enc = []
        for r in plan:
            y_to = self.ys[r]
            assert y_to is not None
            rhos = [sec.rho(op, inp, r, i) for i in range(len(cur))]
            encs = [pf.encrypt_share(x, ct, y_to, rho) for ct, rho in zip(cur, rhos, strict=True)]
            ctx = context(self.p, op, f"shares/{r}", seat, inp)
            proof = pf.prove_encrypted_shares(x, cur, y_to, encs, rhos, ctx,
                                              sec.seed32("proof", op, ctx))
            enc.append({"to": r, "cts": [pf.ct_to_json(e) for e in encs], "proof": proof})
        return {"key": self.key_hex, "prev": inp.hex(), "shares": None, "proof": None, "enc": enc}

    def check_shares(self, op: int, desc: dict[str, Any], seat: int, body: dict[str, Any],
                     provable: bool = True) -> tuple[list[Point] | None, dict[int, list[Ciphertext]]]:
        """A seat's shares of the opened slots: the plain shares, or the encrypted shares by
        receiver, once every proof holds."""
        c = Check(seat, op, "shares")
        cur = [self.cts[s] for s in desc["slots"]]
        m = len(cur)
        inp = vec_digest(cur)
        self.check_joint_key(c, body)
        self.check_prev(c, body, inp, provable)
        y_j = self.ys[seat]
        assert y_j is not None
        plan = self.share_plan(desc, seat)
        if plan is None:
            if body["enc"] != []:
                raise c.fail("enc must be an empty list when the shares are plain")
            # verify_shares multiplies every share by a non-zero scalar: that validates them
            shares = c.points(body["shares"], m, "shares", check=False)
            ctx = context(self.p, op, "shares", seat, inp)
            c.proof(pf.verify_shares(y_j, cur, shares, body["proof"], ctx), "share proof")
            return shares, {}
        if body["shares"] is not None or body["proof"] is not None:
            raise c.fail("plain shares of a card opened to this seat's own group would reveal it")
        enc = body["enc"]
        if not isinstance(enc, list) or len(enc) != len(plan):
            raise c.fail(f"enc must list {len(plan)} receivers")
        out: dict[int, list[Ciphertext]] = {}
        for r, item in zip(plan, enc, strict=True):
            # (``to`` a JSON integer: ``true`` and ``1.0`` are not seat 1, whatever ``==`` says)
            if not isinstance(item, dict) or set(item) != {"to", "cts", "proof"} \
                    or not is_int(item["to"]) or item["to"] != r:
                raise c.fail(f"enc entry for seat {r + 1} is malformed")
            # verify_encrypted_shares multiplies both points of each by a non-zero scalar
            encs = c.cts(item["cts"], m, f"enc to seat {r + 1}", check=False)
            y_to = self.ys[r]
            assert y_to is not None
            ctx = context(self.p, op, f"shares/{r}", seat, inp)
            c.proof(pf.verify_encrypted_shares(y_j, cur, y_to, encs, item["proof"], ctx),
                    f"encrypted share proof for seat {r + 1}")
            out[r] = encs
        return None, out

    # ---- claims (SPEC.md 5.7) -------------------------------------------------------------------
    def member_input(self, desc: dict[str, Any]) -> bytes:
        """``SHA-256("p2pcards/v2/member" || vec_digest(cts of S) || u32(k) || u32(v) ...)``."""
        allowed = desc["in"]
        return hashlib.sha256(b"p2pcards/v2/member" + vec_digest([self.cts[s] for s in desc["slots"]])
                              + u32(len(allowed)) + b"".join(u32(v) for v in allowed)).digest()

    def hidden(self, desc: dict[str, Any], shares: dict[int, Sequence[Point]]) -> list[Point]:
        """``D_i = b − Σ_{j ≠ by} d_{j,s_i}``: each claimed card under the prover's key alone,
        from the checked plain shares of every other seat."""
        by = desc["by"]
        out = []
        for i, s in enumerate(desc["slots"]):
            d = self.cts[s][1]
            for j in range(self.n):
                if j != by:
                    d = sub(d, shares[j][i])
            out.append(d)
        return out

    def make_member(self, sec: PeerSecrets, x: Scalar, op: int, desc: dict[str, Any],
                    shares: dict[int, Sequence[Point]]) -> dict[str, Any]:
        """The prover's ``member`` message. ``ValueError`` if a card of the slots is not in
        ``in`` (the peer checks this before the operation starts: here it is a bug)."""
        by, allowed = desc["by"], desc["in"]
        points = [self.card_points[v] for v in allowed]
        ctx = context(self.p, op, "member", by, self.member_input(desc))
        seed = sec.seed32("proof", op, ctx)
        proofs = []
        for i, (s, d) in enumerate(zip(desc["slots"], self.hidden(desc, shares), strict=True)):
            a = self.cts[s][0]
            card = self.card_index.get(sub(d, eg.share(x, self.cts[s])))
            if card not in allowed:
                raise ValueError(f"slot {s} holds card {card}, not one of {allowed}")
            proofs.append(pf.prove_member(x, i, a, d, points, allowed.index(card), ctx, seed))
        return {"key": self.key_hex, "prev": vec_digest([self.cts[s] for s in desc["slots"]]).hex(),
                "proofs": proofs}

    def check_member(self, op: int, desc: dict[str, Any], body: dict[str, Any],
                     shares: dict[int, Sequence[Point]], provable: bool = True) -> None:
        """The prover's ``member`` message, against the ``D_i`` this seat computes itself."""
        by, S = desc["by"], desc["slots"]
        c = Check(by, op, "member")
        self.check_joint_key(c, body)
        self.check_prev(c, body, vec_digest([self.cts[s] for s in S]), provable)
        proofs = body["proofs"]
        if not isinstance(proofs, list) or len(proofs) != len(S):
            raise c.fail(f"proofs is not a list of {len(S)} proofs")
        y_by = self.ys[by]
        assert y_by is not None
        points = [self.card_points[v] for v in desc["in"]]
        ctx = context(self.p, op, "member", by, self.member_input(desc))
        for i, (s, d) in enumerate(zip(S, self.hidden(desc, shares), strict=True)):
            c.proof(pf.verify_member(y_by, i, self.cts[s][0], d, points, proofs[i], ctx),
                    f"member proof of slot {s}")

    def decode(self, slot: int, shares: Sequence[Point]) -> int | None:
        return self.card_index.get(eg.decode(self.cts[slot], list(shares)))

    # ---- joint randomness ----------------------------------------------------------------------
    def check_commit(self, op: int, seat: int, body: dict[str, Any]) -> bytes:
        c = Check(seat, op, "commit")
        cm = c.hex32(body["commit"], "commit")
        if cm in self.commits_seen:
            raise c.fail("commit repeats an earlier one (replay)")
        return cm

    def check_reveal(self, op: int, seat: int, body: dict[str, Any], commits: Sequence[bytes],
                     me: int | None) -> bytes:
        """The nonce of ``seat``'s reveal. ``me``: the checking seat, whose own commitment an
        echo may not misstate (a third seat's misstated names the echoer with ``confirm``: after
        the mesh's grace); ``None``: an auditor, for whom the record's commitments are the
        reference (a record holds the mesh's proof of any equivocation)."""
        c = Check(seat, op, "reveal")
        nonce = c.hex32(body["nonce"], "nonce")
        if commitment(self.p, op, seat, nonce) != commits[seat]:
            raise c.fail("the nonce does not open its commitment")
        echo = body["echo"]
        if not isinstance(echo, list) or len(echo) != self.n:
            raise c.fail(f"echo must list {self.n} commitments")
        for i in sorted(range(self.n), key=lambda i: i not in (me, seat)):
            if echo[i] == commits[i].hex():
                continue
            exc = c.fail(f"echo misstates seat {i + 1}'s commitment")
            # a third seat's: it equivocated, or the echo lies. As for a wrong ``prev`` (5.3),
            # the table gives the mesh its grace to prove an equivocation, which names seat i;
            # without one, the echoer is named (red team 13: it was nobody, so a seat lying about
            # a third seat's commitment was named by that seat alone)
            exc.confirm = me is not None and i not in (me, seat)
            raise exc
        return nonce


def make_commit(p: DeckParams, sec: PeerSecrets, op: int, desc: dict[str, Any], seat: int
                ) -> tuple[bytes, bytes]:
    nonce = sec.seed32("nonce", op, op_digest(desc))
    return nonce, commitment(p, op, seat, nonce)
