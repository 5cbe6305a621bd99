"""The offline audit: a pure function over one peer's public record (no secret needed).

It runs every recorded message through the same receiver checks the live peers ran
(``steps.PublicDeck``): every key proof, every proof of shuffle, every share proof, every
commitment. The first message that fails names its sender, at the step where it happened. On a
record that stops early (a failure, a leaver) it says which seat deviated, if any, or that none did
and where the record stops.

It also returns the public outcome of every operation: the cards opened to everyone, the random
values, and -- given the record owner's seed (``owner``) -- the cards opened to that seat. Hidden
cards stay hidden: nothing in the record decodes them.

No I/O, no clock, no randomness: ``p2pcards audit TRANSCRIPT`` calls it on a saved record.
"""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import elgamal as eg
from .envelope import is_int
from .errors import DeckError
from .group import Point
from .kdf import PeerSecrets
from .params import VERSION, DeckParams
from .steps import (
    PublicDeck,
    canonical,
    descriptor_of,
    descriptor_problem,
    envelope_problem,
    random_value,
    record_digest,
    same_json,
    vec_digest,
)


@dataclass(frozen=True)
class Verdict:
    """``clean`` (no seat deviated), or the seat to blame (``culprit``), the operation, the step
    and the reason. ``complete``: the record reaches its last operation's last message."""

    clean: bool
    culprit: int | None = None
    op: int | None = None
    step: str | None = None
    reason: str = ""
    complete: bool = True
    #: the record was made by an older deck version: not checked, nobody blamed
    older: bool = False

    def __str__(self) -> str:
        if self.older:
            return self.reason
        if self.clean:
            return "clean" if self.complete else f"no seat deviated; {self.reason}"
        who = "no seat" if self.culprit is None else f"seat {self.culprit}"
        return f"{who} at op {self.op} {self.step}: {self.reason}"


CLEAN = Verdict(True)


@dataclass
class AuditReport:
    verdict: Verdict
    #: per operation, in order: the descriptor plus ``values`` (open: the cards, or ``None`` when
    #: the record cannot decode them; shuffle: ``None``, with ``input``: the hex digest of the
    #: shuffled ciphertexts) or ``value`` (random)
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    #: the abort claims found in the record: (accuser, claimed culprit, reason)
    aborts: list[tuple[int, Any, str]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return self.verdict.clean


class _Stop(Exception):
    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict


def audit(params: DeckParams | dict[str, Any], messages: Iterable[Any],
          ops: Sequence[dict[str, Any]] | None = None,
          owner: tuple[int, bytes] | None = None) -> AuditReport:
    """Audit a deck record. ``messages``: the deck messages as ``(sender, body)`` pairs (the
    authenticated sender, not the body's claim), in any order. ``ops``: the operation descriptors
    the caller's engine issued, if known (default: read from the messages). ``owner``: the seat
    and seed of the record's owner, to decode the cards opened to it."""
    if isinstance(params, dict):
        params = DeckParams.from_json(params)
    messages = list(messages)
    try:  # a pure function: the same record gives the same report (memoised, a few records)
        key = hashlib.sha256(canonical([params.to_json(), messages, ops,
                                        None if owner is None else [owner[0], owner[1].hex()]])
                             ).digest()
    except (TypeError, ValueError, AttributeError):
        key = None
    if key is not None and key in _MEMO:
        return copy.deepcopy(_MEMO[key])
    report = _Auditor(params, messages, ops, owner).run()
    if key is not None:
        _MEMO[key] = copy.deepcopy(report)
        while len(_MEMO) > 8:
            _MEMO.pop(next(iter(_MEMO)))
    return report


_MEMO: dict[bytes, AuditReport] = {}


class _Auditor:
    def __init__(self, params: DeckParams, messages: list[Any], ops: Sequence[dict[str, Any]] | None,
                 owner: tuple[int, bytes] | None) -> None:
        self.p = params
        self.n = params.seats
        self.pub = PublicDeck(params)
        self.messages = messages
        self.ops_in = list(ops) if ops is not None else None
        self.outcomes: list[dict[str, Any]] = []
        self.owner = owner
        self.x = None if owner is None else PeerSecrets(owner[1]).key(params.table_id, params.digest)

    def stop(self, culprit: int | None, op: int | None, step: str | None, reason: str,
             complete: bool = True) -> None:
        raise _Stop(Verdict(False, culprit, op, step, reason, complete))

    def older_version(self) -> None:
        """A record in which no message has this version and some has an older one was made by an
        older deck version (before ristretto255: version 2): it cannot be checked here, and
        nobody deviated for it. A record that mixes versions goes on: its odd message is named."""
        vs = {v for _, b in (m for m in self.messages if isinstance(m, (list, tuple))
                             and len(m) == 2) if isinstance(b, dict)
              for v in [b.get("v")] if type(v) is int}
        old = sorted(v for v in vs if 0 < v < VERSION)
        if old and VERSION not in vs:
            raise _Stop(Verdict(False, None, None, None,
                                f"made by an older deck version ({old[-1]}): this program checks "
                                f"version {VERSION} records only; nobody is blamed", older=True))

    def group(self) -> None:
        self.byop: dict[int, dict[tuple[str, int], dict[str, Any]]] = {}
        self.aborts: list[tuple[int, int, Any, str]] = []
        self.older_version()
        for item in self.messages:
            sender, body = item
            problem = envelope_problem(body, sender, self.n) if is_int(sender) else "bad sender"
            if problem is not None:
                op = body.get("op") if isinstance(body, dict) else None
                step = body.get("step") if isinstance(body, dict) else None
                self.stop(sender if is_int(sender) else None,
                          op if is_int(op) else None,
                          step if isinstance(step, str) else None, problem)
            op, step = body["op"], body["step"]
            if step == "abort":
                self.aborts.append((op, sender, body.get("culprit"), str(body.get("reason"))))
                continue
            slot = self.byop.setdefault(op, {})
            if (step, sender) in slot:
                if not same_json(slot[(step, sender)], body):
                    self.stop(sender, op, step, "two different messages for one step")
                continue  # the same message seen twice (e.g. two records merged)
            slot[(step, sender)] = body
        self.last_op = max(self.byop, default=-1)

    def msg(self, op: int, step: str, seat: int) -> dict[str, Any]:
        body = self.byop.get(op, {}).get((step, seat))
        if body is None:
            aborted = [a for a in self.aborts if a[0] <= op]
            if aborted:
                o, a, c, r = aborted[0]
                if a == seat:
                    self.stop(seat, op, step, f"stopped the table (blaming {c!r}: {r}) although "
                              "every message before was sound", complete=False)
            self.stop(None, op, step, f"the record stops here: seat {seat}'s {step} message is "
                      "missing (it withheld it, left, or the record's owner stopped first)",
                      complete=False)
        return body  # type: ignore[return-value]

    def describe(self, op: int) -> dict[str, Any]:
        msgs = self.byop.get(op, {})
        if op == 0:
            desc = {"kind": "key"}
        elif self.ops_in is not None:
            desc = self.ops_in[op]
        else:
            votes = Counter(repr(d) for b in msgs.values() if (d := descriptor_of(b)) is not None
                            and descriptor_problem(d, self.p.n_cards, self.n) is None)
            if not votes:
                bad = sorted((sender, step, problem) for (step, sender), b in msgs.items()
                             if (d := descriptor_of(b)) is not None and
                             (problem := descriptor_problem(d, self.p.n_cards, self.n)) is not None)
                if bad:
                    sender, step, problem = bad[0]
                    self.stop(sender, op, step, f"malformed operation: {problem}")
                self.stop(None, op, None, "the record stops before this operation", complete=False)
            best = votes.most_common(1)[0][0]
            desc = next(d for b in msgs.values() if repr(d := descriptor_of(b)) == best)
            late = self.outcomes and self.outcomes[-1]["kind"] == "end"
            if desc["kind"] == "key" or late:
                sender = min(sender for (_, sender) in msgs)
                self.stop(sender, op, None, "a key-share operation after operation 0" if not late
                          else "a deck message after the end of the game")
        for (step, sender), body in sorted(msgs.items(), key=lambda x: x[0][1]):
            got = descriptor_of(body)
            if not same_json(got, desc):
                problem = None if got is None else descriptor_problem(got, self.p.n_cards, self.n)
                self.stop(sender, op, step, f"malformed operation: {problem}" if problem else
                          f"message describes another operation than {desc}")
        return desc

    def run(self) -> AuditReport:
        verdict = CLEAN
        try:
            self.group()
            n_ops = len(self.ops_in) if self.ops_in is not None else self.last_op + 1
            for op in range(n_ops):
                desc = self.describe(op)
                getattr(self, "op_" + desc["kind"])(op, desc)
            if self.aborts:
                o, a, c, r = self.aborts[0]
                self.stop(a, o, "abort", f"stopped the table blaming {c!r} ({r}), but the record "
                          "shows no deviation")
            if not self.outcomes or self.outcomes[-1]["kind"] != "end":
                self.stop(None, n_ops, None, f"the record stops after operation {n_ops - 1}, "
                          "before the end of the game", complete=False)
        except _Stop as s:
            verdict = s.verdict
        except DeckError as exc:  # a receiver check failed: its sender deviated
            verdict = Verdict(False, exc.peer, exc.op, exc.step, exc.reason)
        if verdict.culprit is None and not verdict.clean and not verdict.complete \
                and not verdict.older:
            verdict = Verdict(True, None, verdict.op, verdict.step, verdict.reason, False)
        return AuditReport(verdict, self.outcomes, [(a, c, r) for _, a, c, r in self.aborts])

    # ---- operations ------------------------------------------------------------------------------
    def op_key(self, op: int, desc: dict[str, Any]) -> None:
        bodies = [self.byop.get(op, {}).get(("key", j)) for j in range(self.n)]
        if all(b is not None and b["desc"] != self.p.digest.hex() for b in bodies) and \
                len({b["desc"] for b in bodies}) == 1:  # type: ignore[index]
            # every seat bound one same description, not the record's: the (unsigned) table
            # record, or a seat's key in its (self-signed) roster, was changed after the game; no
            # seat deviated
            self.stop(None, op, "key", "the record's game description is not the one the peers "
                      "played (every seat's key share binds another one: the file's game or the "
                      "keys of its roster were changed)")
        ys: list[Point] = []
        for j in range(self.n):
            body = self.msg(op, "key", j)
            self.pub.ys = ys + [None] * (self.n - len(ys))  # type: ignore[operator]
            ys.append(self.pub.check_key(j, body))
        self.pub.set_keys(ys)
        self.outcomes.append({"op": op, **desc})

    def op_shuffle(self, op: int, desc: dict[str, Any]) -> None:
        S = desc["slots"]
        cur = [self.pub.cts[s] for s in S]
        inp = vec_digest(cur)
        for j in self.pub.shufflers(desc):
            cur = self.pub.check_shuffle(op, j, cur, self.msg(op, "shuffle", j))
        extra = [s for (st, s) in self.byop.get(op, {}) if s not in self.pub.shufflers(desc)]
        if extra:
            self.stop(extra[0], op, "shuffle", "a shuffle message from a seat that takes no step")
        for s, ct in zip(S, cur, strict=True):
            self.pub.cts[s] = ct
        self.outcomes.append({"op": op, **desc, "values": None, "input": inp.hex()})

    def op_open(self, op: int, desc: dict[str, Any]) -> None:
        S, to = desc["slots"], desc["to"]
        got: dict[int, list[Point]] = {}
        me = None if self.owner is None else self.owner[0]
        for j in range(self.n):
            plain, enc = self.pub.check_shares(op, desc, j, self.msg(op, "shares", j))
            if plain is not None:
                got[j] = plain
            elif me is not None and me in enc:
                got[j] = [eg.decode(e, [eg.share(self.x, e)]) for e in enc[me]]  # type: ignore[arg-type]
        if me is not None and me in to and me not in got:
            got[me] = [eg.share(self.x, self.pub.cts[s]) for s in S]  # type: ignore[arg-type]
        values = None
        if len(got) == self.n:
            values = []
            for i, s in enumerate(S):
                c = self.pub.decode(s, [got[j][i] for j in range(self.n)])
                if c is None:
                    self.stop(None, op, "shares", f"slot {s} opens to no card although every proof "
                              "holds (a broken proof system, not a seat)")
                values.append(c)
        self.outcomes.append({"op": op, **desc, "values": values})

    def op_random(self, op: int, desc: dict[str, Any]) -> None:
        commits = []
        for j in range(self.n):
            commits.append(self.pub.check_commit(op, j, self.msg(op, "commit", j)))
        self.pub.commits_seen.update(commits)
        nonces = [self.pub.check_reveal(op, j, self.msg(op, "reveal", j), commits, None)
                  for j in range(self.n)]
        self.outcomes.append({"op": op, **desc, "value": random_value(self.p, op, desc["n"], nonces)})

    def op_end(self, op: int, desc: dict[str, Any]) -> None:
        want = record_digest([b for o, msgs in self.byop.items() if o < op for b in msgs.values()])
        for j in range(self.n):
            if self.msg(op, "end", j)["digest"] != want.hex():
                self.stop(j, op, "end", "its digest of the public record differs from this record")
        self.outcomes.append({"op": op, **desc})


__all__ = ["AuditReport", "Verdict", "audit"]
