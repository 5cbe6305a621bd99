"""The audit: a pure function over the public record and the revealed seeds.

Every deck message a peer broadcasts is a deterministic function of its seed, the operation and
the public messages before it (``steps.py``). Given the broadcast messages (from any peer's record
or from a saved transcript) and the seeds, ``audit`` re-runs every seat's every step on the
*recorded* inputs and compares its output with what that seat really sent, byte for byte. The first
message that differs names its sender. Because each recomputation starts from what was recorded,
a cheat is pinned on the seat that made it, never on the honest seats that built on it.

It also returns the full-information outcome of every operation (which card went where, what was
opened, the random value), decoded with the keys the seeds imply -- what the engine's
full-information copy needs to replay the game. Outcomes go on past a deviation as long as the
recorded ciphertexts still decode (a lazy shuffler changes nothing you can see); they stop at the
first operation that does not.

No I/O, no clock, no randomness: ``p2pcards audit TRANSCRIPT`` calls it on a saved record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .group import InvalidPoint, Point, Scalar, card_table
from .kdf import PeerSecrets
from .params import DeckParams
from .steps import (
    blind_points,
    commitment,
    decode,
    descriptor_of,
    descriptor_problem,
    lock_points,
    random_value,
    rekey_points,
    shuffle_chain,
    shuffle_points,
    vec_digest,
)


@dataclass(frozen=True)
class Verdict:
    """``clean``, or the seat to blame (``culprit``; ``None`` when the record cannot tell),
    the operation, the step and the reason."""

    clean: bool
    culprit: int | None = None
    op: int | None = None
    step: str | None = None
    reason: str = ""

    def __str__(self) -> str:
        if self.clean:
            return "clean"
        who = "unknown seat" if self.culprit is None else f"seat {self.culprit}"
        return f"{who} at op {self.op} {self.step}: {self.reason}"


CLEAN = Verdict(True)


@dataclass
class AuditReport:
    verdict: Verdict
    #: per operation, in order: the descriptor plus ``values`` (shuffle: the cards now in
    #: ``slots``; open: the cards opened) or ``value`` (random).
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    #: every deviation found, in record order (the verdict is the first)
    deviations: list[Verdict] = field(default_factory=list)
    #: the card in every slot after the last operation audited
    values: list[int] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return self.verdict.clean


class _Stop(Exception):
    pass


@dataclass(frozen=True)
class RevealedSecrets:
    seed: bytes
    orders: dict[int, list[int]]


def secrets_from_messages(messages: Iterable[tuple[int, dict[str, Any]] | Sequence[Any]]
                          ) -> dict[int, RevealedSecrets]:
    """The seeds and arrangements revealed by ``secrets`` messages in a record."""
    out: dict[int, RevealedSecrets] = {}
    for sender, body in messages:
        if not isinstance(body, dict) or body.get("step") != "secrets" or body.get("seat") != sender:
            continue
        try:
            seed = bytes.fromhex(body["seed"])
            orders = {int(k): [int(x) for x in v] for k, v in (body.get("orders") or {}).items()}
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        if len(seed) == 32 and sender not in out:
            out[sender] = RevealedSecrets(seed, orders)
    return out


def audit(params: DeckParams | dict[str, Any], messages: Iterable[Any],
          secrets: dict[int, RevealedSecrets] | None = None,
          ops: Sequence[dict[str, Any]] | None = None) -> AuditReport:
    """Audit a deck record.

    ``messages``: the broadcast deck messages as ``(sender, body)`` pairs (any order; the
    authenticated sender, not the body's claim). ``secrets``: seat -> revealed seed and
    arrangements (default: taken from the record's ``secrets`` messages). ``ops``: the operation
    descriptors the caller's engine issued, if known (default: read from the messages)."""
    if isinstance(params, dict):
        params = DeckParams.from_json(params)
    return _Auditor(params, list(messages), secrets, ops).run()


class _Auditor:
    def __init__(self, params: DeckParams, messages: list[Any],
                 secrets: dict[int, RevealedSecrets] | None, ops: Sequence[dict[str, Any]] | None
                 ) -> None:
        self.p = params
        self.n = params.seats
        self.tid = params.table_id
        self.points, self.index = card_table(params.table_id, params.deck_spec, params.n_cards)
        self.messages = messages
        self.secrets_in = secrets
        self.ops_in = list(ops) if ops is not None else None
        self.devs: list[Verdict] = []
        self.outcomes: list[dict[str, Any]] = []
        # simulated deck
        self.ct: list[Point] = list(self.points)
        self.lock_ref: list[tuple[int, int] | None] = [None] * params.n_cards
        self.values: list[int] = list(range(params.n_cards))
        self.decodable = True
        self.fresh = True  # no step has yet worked on the deck as the parameters describe it

    # ---- helpers -----------------------------------------------------------------------------------
    def dev(self, culprit: int | None, op: int | None, step: str | None, reason: str) -> None:
        self.devs.append(Verdict(False, culprit, op, step, reason))

    def stop(self, culprit: int | None, op: int, step: str, reason: str) -> None:
        self.dev(culprit, op, step, reason)
        raise _Stop

    def sec(self, seat: int, op: int, step: str) -> PeerSecrets:
        s = self.secrets.get(seat)
        if s is None:
            self.stop(seat, op, step, "revealed no secrets: its steps cannot be checked")
        return self.sec_obj[seat]

    def msg(self, op: int, step: str, seat: int) -> dict[str, Any]:
        body = self.byop.get(op, {}).get((step, seat))
        if body is None:
            if any(o <= op for o in self.aborts):
                raise _Stop  # the table stopped there: silence after it blames nobody
            self.stop(seat, op, step, "message missing from the record (withheld)")
        return body  # type: ignore[return-value]

    def vec(self, body: dict[str, Any], fieldname: str, m: int, seat: int, op: int, step: str
            ) -> list[Point]:
        v = body.get(fieldname)
        try:
            if not isinstance(v, list) or len(v) != m:
                raise ValueError
            pts = [bytes.fromhex(x) for x in v]
            if any(len(p) != 32 for p in pts):
                raise ValueError
        except (ValueError, TypeError):
            self.stop(seat, op, step, f"{fieldname} is malformed")
        return pts

    def compare(self, seat: int, op: int, step: str, fieldname: str, got: Any, want: Any) -> None:
        if got == want:
            return
        detail = ""
        if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
            i = next(i for i, (a, b) in enumerate(zip(got, want, strict=True)) if a != b)
            detail = f" (first at position {i})"
        self.dev(seat, op, step, f"{fieldname} does not match what its revealed seed gives{detail}")

    def key(self, seat: int, slot: int, op: int, step: str) -> bytes | None:
        ref = self.lock_ref[slot]
        return None if ref is None else self.sec(seat, op, step).lock_key(*ref)

    # ---- run ------------------------------------------------------------------------------------------
    def run(self) -> AuditReport:
        self.group()
        self.secrets = self.secrets_in if self.secrets_in is not None else secrets_from_messages(
            (s, b) for s, b in self.flat)
        self.sec_obj = {s: PeerSecrets(r.seed) for s, r in self.secrets.items()}
        n_ops = len(self.ops_in) if self.ops_in is not None else (max(self.byop, default=-1) + 1)
        try:
            for op in range(n_ops):
                desc = self.describe(op)
                kind = desc["kind"]
                if kind == "shuffle":
                    self.shuffle(op, desc)
                elif kind == "open":
                    self.open(op, desc)
                elif kind == "random":
                    self.random(op, desc)
                else:
                    self.stop(None, op, "?", f"unknown operation kind {kind!r}")
        except _Stop:
            pass
        # a seat that stopped the table left a claim: it stands when nothing earlier explains it
        # (it may be about a private message, e.g. a wrong key, which no record holds)
        for o in sorted(self.aborts):
            for a, c, about, reason in self.aborts[o]:
                seat = c if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < self.n \
                    else None  # an abort may name anyone, or no seat at all
                self.dev(seat, o, str(about),
                         f"claimed by seat {a}, which stopped the table: {reason}")
        devs = sorted(self.devs, key=lambda d: -1 if d.op is None else d.op)
        verdict = devs[0] if devs else CLEAN
        return AuditReport(verdict, self.outcomes, devs, list(self.values))

    def group(self) -> None:
        self.byop: dict[int, dict[tuple[str, int], dict[str, Any]]] = {}
        self.aborts: dict[int, list[tuple[int, Any, Any]]] = {}
        self.flat: list[tuple[int, dict[str, Any]]] = []
        for item in self.messages:
            sender, body = item
            if not isinstance(body, dict):
                self.dev(sender, None, None, "malformed message")
                continue
            op, step = body.get("op"), body.get("step")
            if not isinstance(op, int) or isinstance(op, bool) or op < 0 or not isinstance(step, str):
                self.dev(sender, None, None, "malformed message")
                continue
            if body.get("seat") != sender:
                self.dev(sender, op, step, f"message claims to come from seat {body.get('seat')!r}")
                continue
            if step == "abort":
                self.aborts.setdefault(op, []).append(
                    (sender, body.get("culprit"), body.get("about"), body.get("reason")))
                continue
            if step == "secrets":
                self.flat.append((sender, body))
                continue
            slot = self.byop.setdefault(op, {})
            if (step, sender) in slot:
                if slot[(step, sender)] != body:
                    self.dev(sender, op, step, "two different messages for one step")
                continue  # the same message seen twice (e.g. two records merged)
            slot[(step, sender)] = body
            self.flat.append((sender, body))

    def describe(self, op: int) -> dict[str, Any]:
        msgs = self.byop.get(op, {})
        if self.ops_in is not None:
            desc = self.ops_in[op]
        else:
            # only a well-formed descriptor can win the vote: a seat that sent slots off the deck,
            # a seat that is none, or a random range of 0 is named for it below
            votes = Counter(repr(d) for b in msgs.values() if (d := descriptor_of(b)) is not None
                            and self.malformed(d) is None)
            if not votes:
                bad = sorted((sender, step, problem) for (step, sender), b in msgs.items()
                             if (d := descriptor_of(b)) is not None
                             and (problem := self.malformed(d)) is not None)
                if bad:
                    sender, step, problem = bad[0]
                    self.stop(sender, op, step, f"malformed operation: {problem}")
                self.stop(None, op, "?", "no message of this operation in the record")
            best = votes.most_common(1)[0][0]
            desc = next(d for b in msgs.values() if repr(d := descriptor_of(b)) == best)
        for (step, sender), body in sorted(msgs.items(), key=lambda x: x[0][1]):
            got = descriptor_of(body)
            if got != desc:
                problem = None if got is None else self.malformed(got)
                self.dev(sender, op, step, f"malformed operation: {problem}" if problem else
                         f"message describes another operation than {desc}")
        return desc

    def malformed(self, desc: dict[str, Any]) -> str | None:
        return descriptor_problem(desc, self.p.n_cards, self.n)

    # ---- operations -----------------------------------------------------------------------------------
    def shuffle(self, op: int, desc: dict[str, Any]) -> None:
        S: list[int] = desc["slots"]
        by = desc["by"]
        m, n = len(S), self.n
        chain = shuffle_chain(n, [self.lock_ref[s] is None for s in S], self.p.n_cards,
                              self.p.lock_proofs)
        cur = [self.ct[s] for s in S]
        author: tuple[int, str] | None = None
        for step, j in chain:
            body = self.msg(op, step, j)
            if self.fresh:
                self.fresh = False
                if body.get("prev") != vec_digest(cur).hex():
                    # Every peer checked this step's prev against its own deck when it arrived,
                    # so the record's description of the deck is what differs, not the seat
                    self.stop(None, op, step, "the first step does not start from the deck these "
                              "parameters describe: the record's game description is not the "
                              "one the peers played")
            self.compare(j, op, step, "prev", body.get("prev"), vec_digest(cur).hex())
            sec = self.sec(j, op, step)
            locked_want: list[str] | None = None
            proof_want: list[Scalar] | None = None
            try:
                if step == "blind":
                    want, proof_want = blind_points(sec, op, j, cur, self.tid)
                elif step == "rekey":
                    want = rekey_points(sec, op, cur, [self.key(j, s, op, step) for s in S])
                elif step == "shuffle":
                    if by is None:
                        perm = sec.permutation(op, m)
                    elif by == j:
                        perm = self.secrets[j].orders.get(op)
                        if perm is None or sorted(perm) != list(range(m)):
                            self.stop(j, op, step, "its revealed arrangement is missing or not a "
                                      "permutation of the slots")
                    else:
                        perm = list(range(m))
                    strip = [self.key(0, s, op, step) for s in S] if j == 0 else None
                    want = shuffle_points(sec, op, cur, perm, strip)  # type: ignore[arg-type]
                else:
                    locked_l, want, proof_want = lock_points(sec, op, j, cur, chain, self.tid,
                                                             self.p.lock_proofs)
                    locked_want = [p.hex() for p in locked_l]
            except InvalidPoint as exc:
                assert author is not None  # the deck state only ever holds valid points
                self.stop(author[0], op, author[1], f"points: {exc}")
            if step == "lock":
                self.compare(j, op, step, "locked", body.get("locked"), locked_want)
            if step == "blind" or (step == "lock" and self.p.lock_proofs):
                self.compare(j, op, step, "proof", body.get("proof"),
                             None if proof_want is None else [x.hex() for x in proof_want])
            self.compare(j, op, step, "points", body.get("points"), [p.hex() for p in want])
            cur = self.vec(body, "points", m, j, op, step)
            author = (j, step)
        old = [self.values[s] for s in S]
        new: list[int] = []
        for i, s in enumerate(S):
            keys = [self.sec(h, op, "lock").lock_key(op, i) for h in range(n)]
            try:
                c = decode(cur[i], keys, self.index)
            except InvalidPoint:
                c = None
            if c is None:
                self.stop(None if not self.devs else self.devs[0].culprit, op, "lock",
                          f"slot {s} decodes to no card")
            new.append(c)  # type: ignore[arg-type]
        if sorted(new) != sorted(old):
            self.stop(None if not self.devs else self.devs[0].culprit, op, "lock",
                      "the shuffle changed which cards are in the slots")
        for i, s in enumerate(S):
            self.ct[s] = cur[i]
            self.lock_ref[s] = (op, i)
            self.values[s] = new[i]
        self.outcomes.append({"op": op, **desc, "values": new})

    def open(self, op: int, desc: dict[str, Any]) -> None:
        S: list[int] = desc["slots"]
        to: list[int] = desc["to"]
        if len(to) == self.n:
            for j in range(self.n):
                body = self.msg(op, "keys", j)
                want = [None if (k := self.key(j, s, op, "keys")) is None else k.hex() for s in S]
                self.compare(j, op, "keys", "keys", body.get("keys"), want)
        else:
            for r in to:
                self.msg(op, "ack", r)
        self.outcomes.append({"op": op, **desc, "values": [self.values[s] for s in S]})

    def random(self, op: int, desc: dict[str, Any]) -> None:
        n = self.n
        commits = [self.msg(op, "commit", j).get("commit") for j in range(n)]
        nonces: list[bytes] = []
        for j in range(n):
            sec = self.sec(j, op, "commit")
            nonce = sec.nonce(op)
            self.compare(j, op, "commit", "commit", commits[j], commitment(self.tid, op, j, nonce).hex())
            body = self.msg(op, "reveal", j)
            self.compare(j, op, "reveal", "nonce", body.get("nonce"), nonce.hex())
            self.compare(j, op, "reveal", "echo", body.get("echo"), commits)
            try:
                nonces.append(bytes.fromhex(body.get("nonce")))
            except (TypeError, ValueError):
                self.stop(j, op, "reveal", "nonce is malformed")
        self.outcomes.append({"op": op, **desc, "value": random_value(self.tid, op, desc["n"], nonces)})
