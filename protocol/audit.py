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
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from . import elgamal as eg
from .envelope import is_int
from .errors import DeckError
from .group import Point
from .kdf import PeerSecrets
from .params import VERSION, DeckParams
from .seating import FIELD, Seating
from .steps import (
    KEY_MISMATCH,
    KEYED_STEPS,
    PREV_MISMATCH,
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
        who = "no seat" if self.culprit is None else f"seat {self.culprit + 1}"
        return f"{who} at op {self.op} {self.step}: {self.reason}"


CLEAN = Verdict(True)


def _seat(seat: int | None) -> str:
    """A seat as every line shows it, counted from 1 (the wire counts from 0)."""
    return "nobody" if seat is None else f"seat {seat + 1}"


@dataclass
class AuditReport:
    verdict: Verdict
    #: per operation, in order: the descriptor plus ``values`` (open: the cards, or ``None`` when
    #: the record cannot decode them; shuffle: ``None``, with ``input``: the hex digest of the
    #: shuffled ciphertexts) or ``value`` (random); a claim (``prove``) is its descriptor alone
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    #: the abort claims found in the record: (accuser, claimed culprit -- a seat of this table or
    #: ``None`` --, reason)
    aborts: list[tuple[int, Any, str]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return self.verdict.clean


class _Stop(Exception):
    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict


class _Abort(NamedTuple):
    """An ``abort`` in the record: ``at`` is its place among the messages (file order)."""

    op: int
    seat: int
    culprit: Any
    reason: str
    about: Any
    desc: dict[str, Any] | None
    at: int


#: an abort whose claim is a timeout (``DeckTimeout``): the record cannot show what reached its
#: sender in time, so such a claim is never judged false
_TIMEOUT = re.compile(r"no \S+ message within ")

#: ``ops`` given as a function: the outcomes of operations ``0..k-1`` -> the descriptor of
#: operation ``k``, or ``None`` when it cannot be derived (the game's signed moves stop before it)
OpsOracle = Callable[[list[dict[str, Any]]], "dict[str, Any] | None"]


def audit(params: DeckParams | dict[str, Any], messages: Iterable[Any],
          ops: Sequence[dict[str, Any]] | OpsOracle | None = None,
          owner: tuple[int, bytes] | None = None, seat: int | None = None,
          seating: Seating | None = None,
          made_from_record: Iterable[tuple[int, int]] = ()) -> AuditReport:
    """Audit a deck record. ``messages``: the deck messages as ``(sender, body)`` pairs (the
    authenticated sender, not the body's claim), in the order they were recorded (file order:
    it shows whether an abort came after the messages its sender waited for), each one message
    as received -- two for one ``(op, step, sender)`` are a replay, which names its sender -- or
    as ``(sender, body, envelope)`` triples, ``envelope`` an id of the signed envelope that
    carried it (``[seq, hash]``): the very same envelope seen twice (two records merged) is
    skipped. ``ops``: the operation descriptors the caller's engine issued, as a list or as a
    function of the outcomes so far (``OpsOracle``); without them a descriptor is read from the
    messages, and a message that disagrees with another names nobody (a vote is no proof).
    ``owner``: the seat and seed of the record's owner, to decode the cards opened to it.
    ``seat``: the record owner's seat (default ``owner``'s): an echo that misstates a third
    seat's commitment names nobody (SPEC 5.5), as it does live. ``seating``: the table and its
    host's key, to weigh the host-signed games key shares show when their descriptions differ
    (SPEC 5.2); without it, or in a record whose shares show none, a mismatch names nobody.
    ``made_from_record``: the ``(sender, seq)`` of the envelopes whose ``heads`` state exactly
    what the record holds (``protocol.transcript.made_from_record``): their sender made them
    from the record's own messages, so a deviation in one is its sender's, never excused as
    resting on messages the record's owner could have rewritten (red team 20)."""
    if isinstance(params, dict):
        params = DeckParams.from_json(params)
    messages = list(messages)
    same = sorted({(int(a), int(b)) for a, b in made_from_record})
    if seat is None and owner is not None:
        seat = owner[0]
    try:  # a pure function: the same record gives the same report (memoised, a few records)
        if callable(ops):
            raise TypeError("ops derived by a function: not memoised")
        key = hashlib.sha256(canonical([params.to_json(), messages, ops,
                                        None if owner is None else [owner[0], owner[1].hex()],
                                        seat, None if seating is None else seating.ident(),
                                        same])
                             ).digest()
    except (TypeError, ValueError, AttributeError):
        key = None
    if key is not None and key in _MEMO:
        return copy.deepcopy(_MEMO[key])
    report = _Auditor(params, messages, ops, owner, seat, seating, set(same)).run()
    if key is not None:
        _MEMO[key] = copy.deepcopy(report)
        while len(_MEMO) > 8:
            _MEMO.pop(next(iter(_MEMO)))
    return report


_MEMO: dict[bytes, AuditReport] = {}


class _Auditor:
    def __init__(self, params: DeckParams, messages: list[Any],
                 ops: Sequence[dict[str, Any]] | OpsOracle | None,
                 owner: tuple[int, bytes] | None, seat: int | None = None,
                 seating: Seating | None = None,
                 same: set[tuple[int, int]] | None = None) -> None:
        self.p = params
        self.same = same or set()
        self.envs: dict[tuple[int, str, int], Any] = {}  # (op, step, sender) -> [seq, hash]
        self.seating = seating
        self.n = params.seats
        self.pub = PublicDeck(params)
        self.messages = messages
        self.oracle = ops if callable(ops) else None
        self.ops_in = list(ops) if ops is not None and not callable(ops) else None
        self.descs: dict[int, dict[str, Any]] = {}  # op -> its descriptor, once described
        self.outcomes: list[dict[str, Any]] = []
        self.owner = owner
        self.me = seat if is_int(seat) and 0 <= seat < self.n else None  # type: ignore[operator]
        self.x = None if owner is None else PeerSecrets(owner[1]).key(params.table_id, params.digest)
        # The record's owner can rewrite its own messages in its own file (it holds its key),
        # and any seats colluding with it can sign new messages of their own for that file (red
        # team 17): what a seat signed against the others' messages is proof against it only
        # where it had itself signed the same thing before. ``vouched``: per slot, the seats whose
        # signed steps bind the slot's current ciphertext (made it, or named it as an input);
        # ``made``: the seat whose shuffle step made it (``None``: the initial deck).
        self.vouched: dict[int, frozenset[int]] = {}
        self.made: dict[int, int | None] = {}
        # per seat ``r``, the seats whose signed messages hold ``r``'s key share as the file has
        # it: ``r`` itself, and every seat whose encrypted shares for ``r`` verified against it
        self.y_vouched: dict[int, set[int]] = {}

    def own_inputs(self, seat: int, op: int, step: str) -> bool:
        """Whether ``seat``'s message for ``op`` and ``step`` states it was made from exactly
        what this record holds (its envelope's ``heads``): then nothing the record's owner, or
        a seat colluding with it, could have rewritten in its file went into it, and a deviation
        in it is ``seat``'s own (red team 20). Never for the owner's own messages."""
        env = self.envs.get((op, step, seat))
        return seat != self.me and isinstance(env, (list, tuple)) and len(env) >= 1 \
            and (seat, env[0]) in self.same

    def stop(self, culprit: int | None, op: int | None, step: str | None, reason: str,
             complete: bool = True) -> None:
        raise _Stop(Verdict(False, culprit, op, step, reason, complete))

    def vouchers(self, slots: Sequence[int]) -> frozenset[int]:
        """The seats whose signed steps bind every ciphertext of ``slots`` as the record has it."""
        out = frozenset(range(self.n))
        for s in slots:
            out &= self.vouched.get(s, frozenset(range(self.n)))
        return out

    def rests_on_others(self, exc: DeckError, seat: int, op: int, step: str,
                        vouched: frozenset[int], makers: set[int | None]) -> None:
        """Names nobody when ``seat``'s deviation ``exc`` is its ``prev`` naming another input
        than the record's, and ``seat`` never signed that input itself (``vouched``: the seats
        that did). The input was made by other seats' messages (``makers``), which the record's
        owner could have rewritten in its file, with any of them that colluded with it (each
        signs anew for itself): no seat's word but ``seat``'s own binds it. (Once ``seat``'s own
        step names that input, a later wrong ``prev`` over it, or a bad proof, is its own.)"""
        if self.me is None or seat == self.me or exc.reason != PREV_MISMATCH or seat in vouched \
                or self.own_inputs(seat, op, step):
            return
        others = sorted(m for m in makers if m is not None and m != seat)
        self.unconfirmed(exc, seat, op, step, others)

    def confirmed(self, slots: Sequence[int], seat: int,
                  enc: dict[int, list[Any]]) -> None:
        """``seat``'s shares over ``slots`` passed: its ``prev`` named their ciphertexts, and
        its encrypted shares for each receiver verified against that receiver's key share."""
        for s in slots:
            self.vouched[s] = self.vouched.get(s, frozenset(range(self.n))) | {seat}
        for r in enc:
            self.y_vouched.setdefault(r, {r}).add(seat)

    def rests_on_key(self, exc: DeckError, seat: int, op: int, step: str) -> None:
        """Names nobody when ``seat``'s deviation ``exc`` may rest on the owner's own key share,
        which the owner can replace in its file (a new share with a valid proof, every later
        message of its own re-made: SPEC.md 9). A keyed step stating another joint key than the
        record's does, unless a third seat (neither the owner nor ``seat``) stated the record's
        key in a message ``seat`` checked before it sent its own: then ``seat`` stated a key
        the table did not have, and is named. In a record made before the keyed steps stated
        their key, any failure of another seat's prev or proof may rest on it."""
        if self.me is None or seat == self.me or self.own_inputs(seat, op, step):
            return
        if self.pub.keyed:
            if exc.reason != KEY_MISMATCH:
                return
            witness = self.key_witness(seat, op, step)
            if witness is not None:
                exc.reason = f"{KEY_MISMATCH} (it stated this record's key itself at op {witness})"
                return
            self.stop(None, op, step, f"seat {seat + 1}'s {step} message states another joint key "
                      f"than this record's key shares make, and seat {seat + 1} never stated this "
                      "record's key itself: the record's owner "
                      f"(seat {self.me + 1}) could have replaced its own key share in its file, "
                      "and any seat colluding with it could have stated the new key in messages "
                      "of its own, so nobody is named")
        if getattr(exc, "on_key", False):
            self.stop(None, op, step, f"seat {seat + 1}'s {step} message fails against this "
                      f"record ({exc.reason}), and the record was made before its steps stated "
                      "their joint key: its owner (seat "
                      f"{self.me + 1}) could have replaced its own key share in its file, so "
                      "nobody is named")

    def key_witness(self, seat: int, op: int, step: str) -> int | None:
        """The operation of an earlier keyed message of ``seat``'s own that states the record's
        joint key (``seat`` then contradicts itself). A third seat's statement is no witness
        (red team 17): a seat colluding with the owner signs new messages of its own for the
        owner's file, stating the key the owner gave itself there."""
        for (o, st, k), _ in sorted(self.at.items()):
            if k != seat or st not in KEYED_STEPS or o < 1 or o > op:
                continue
            if o == op and (st, step) != ("shares", "member"):  # (its shares before its proofs)
                continue
            if self.byop[o][(st, k)].get("key") == self.pub.key_hex:
                return o
        return None

    def unconfirmed(self, exc: DeckError, seat: int, op: int, step: str,
                    others: Sequence[int] = ()) -> None:
        """A deviation that rests on messages ``seat`` never confirmed names nobody."""
        mine = [m for m in others if m == self.me]
        rest = [m for m in others if m != self.me]
        if not rest:
            self.stop(None, op, step, f"seat {seat + 1}'s {step} message disagrees with this "
                      f"record ({exc.reason}) where the record holds its owner's own messages "
                      f"(seat {self.me + 1}'s) that seat {seat + 1} never confirmed: the owner "  # type: ignore[operator]
                      "could have rewritten them in its file, so nobody is named")
        who = ", ".join(f"seat {m + 1}" for m in rest + mine)
        self.stop(None, op, step, f"seat {seat + 1}'s {step} message disagrees with this record "
                  f"({exc.reason}) where the record holds messages of {who} that seat "
                  f"{seat + 1} never confirmed: the record's owner (seat {self.me + 1}), with "  # type: ignore[operator]
                  "any seat colluding with it, could have rewritten them in its file, so nobody "
                  "is named")

    def rests_on_receiver_key(self, exc: DeckError, seat: int, op: int) -> None:
        """Names nobody when ``seat``'s encrypted shares for a seat ``r`` fail against ``r``'s
        key share as the record has it, and ``seat`` never confirmed that share (its earlier
        encrypted shares for ``r`` verifying against it). Two colluding seats can move part of
        their secret from one key share to the other (``x + d``, ``x' - d``: the joint key, the
        deck and every card unchanged, so no step states another key) and re-make their own
        messages in the file of one of them: an honest seat's encrypted share for either,
        proven against the real share, then fails in that file (red team 17)."""
        if self.me is None or seat == self.me or self.own_inputs(seat, op, "shares"):
            return
        m = re.match(r"encrypted share proof for seat (\d+): ", exc.reason)
        if m is None:
            return
        r = int(m.group(1)) - 1
        if seat in self.y_vouched.get(r, {r}):
            return
        self.stop(None, op, "shares", f"seat {seat + 1}'s shares message fails against this "
                  f"record ({exc.reason}), and seat {seat + 1} never confirmed seat {r + 1}'s key "
                  f"share as this record has it: two seats (the record's owner, seat "
                  f"{self.me + 1}, and another) can move part of their keys from one share to "
                  "the other and re-make their own messages in the owner's file, so nobody is "
                  "named")

    def older_version(self) -> None:
        """A record in which no message has this version and some has an older one was made by an
        older deck version (before ristretto255: version 2): it cannot be checked here, and
        nobody deviated for it. A record that mixes versions goes on: its odd message is named."""
        vs = {v for _, b in (m[:2] for m in self.messages if isinstance(m, (list, tuple))
                             and len(m) in (2, 3)) if isinstance(b, dict)
              for v in [b.get("v")] if type(v) is int}
        old = sorted(v for v in vs if 0 < v < VERSION)
        if old and VERSION not in vs:
            raise _Stop(Verdict(False, None, None, None,
                                f"made by an older deck version ({old[-1]}): this program checks "
                                f"version {VERSION} records only; nobody is blamed", older=True))

    def group(self) -> None:
        """Files every message by ``(op, step, sender)``. A second message for one of them is
        its sender's: two different bodies (it equivocated), or the same body in another
        envelope (a replay, which every live seat names). Only the very same envelope, seen
        twice (two records merged: same sender, seq and hash), is skipped."""
        self.byop: dict[int, dict[tuple[str, int], dict[str, Any]]] = {}
        self.at: dict[tuple[int, str, int], int] = {}  # where each message lies in the record
        self.aborts: list[_Abort] = []
        # the same aborts by (seat, op) and by op: a record may hold a great many (one per
        # operation number a seat cares to sign), and a scan of them all per message took
        # time quadratic in their number (red team 15a: 8,000 took 3 s; the 58,000 of a
        # seat's 64 MiB some 2.5 minutes)
        self.abort_of: dict[tuple[int, int], _Abort] = {}
        self.aborts_at: dict[int, list[_Abort]] = {}
        envs = self.envs
        self.older_version()
        # a record made before the keyed steps stated their joint key holds no ``key`` field
        self.pub.keyed = any(isinstance(m, (list, tuple)) and len(m) in (2, 3)
                             and isinstance(m[1], dict) and m[1].get("step") in KEYED_STEPS
                             and "key" in m[1] for m in self.messages)
        for i, item in enumerate(self.messages):
            if not isinstance(item, (list, tuple)) or len(item) not in (2, 3):
                self.stop(None, None, None, f"item {i} of the record is not a message")
            sender, body = item[0], item[1]
            env = item[2] if len(item) == 3 else None
            problem = envelope_problem(body, sender, self.n, self.pub.keyed) if is_int(sender) \
                else "bad sender"
            if problem is not None:
                op = body.get("op") if isinstance(body, dict) else None
                step = body.get("step") if isinstance(body, dict) else None
                self.stop(sender if is_int(sender) else None,
                          op if is_int(op) else None,
                          step if isinstance(step, str) else None, problem)
            op, step = body["op"], body["step"]
            key = (op, step, sender)
            if key in envs and env is not None and same_json(envs[key], env):
                continue  # the very same envelope seen twice (two records merged)
            if step == "abort":
                if (sender, op) not in self.abort_of:
                    claimed = body.get("culprit")  # shown only if it is a seat of this table
                    claimed = claimed if is_int(claimed) and 0 <= claimed < self.n else None
                    a = _Abort(op, sender, claimed, str(body.get("reason")),
                               body.get("about"), descriptor_of(body), i)
                    self.aborts.append(a)
                    self.abort_of[sender, op] = a
                    self.aborts_at.setdefault(op, []).append(a)
                envs[key] = env
                continue
            slot = self.byop.setdefault(op, {})
            if (step, sender) in slot:
                if not same_json(slot[(step, sender)], body):
                    self.stop(sender, op, step, "two different messages for one step")
                self.stop(sender, op, step, f"replayed message ({step} of op {op} sent again, in "
                          "another envelope)")
            slot[(step, sender)] = body
            self.at[key] = i
            envs[key] = env
        self.last_op = max(self.byop, default=-1)

    # ---- aborts ------------------------------------------------------------------------------
    def unsettled(self, a: _Abort, step: str | None) -> str | None:
        """Why the record cannot show seat ``a.seat``'s abort false (``None``: it shows it
        false). It does only when the abort is for this very operation and ``step`` (``None``:
        any step of it), describes the operation the record does, claims no timeout (what
        reached its sender in time is not in any record), and came after every message its
        sender was waiting for -- every message of the operations before, and of this one up to
        its own step -- each of which passed its checks."""
        if self.me is not None and a.seat != self.me:
            # what reached that seat may not be what this file holds: the file's owner can
            # rewrite its own messages in it, and a seat colluding with it its own (red team 17:
            # a cheater put a sound step in its file in place of the one it sent, and the seat
            # that stopped the table on it was named)
            return (f"the messages it stopped on may not be the ones this record holds (its "
                    f"owner, seat {self.me + 1}, and any seat colluding with it, could have "
                    "rewritten their own in it)")
        if step is not None and a.about != step:
            return f"its abort is about the {a.about!s:.20} step, not the missing {step}"
        if _TIMEOUT.match(a.reason):
            return ("its claim is a timeout: what reached that seat in time is not in the "
                    "record, so the record cannot settle it")
        desc = self.descs.get(a.op)
        if desc is None or not same_json(a.desc, desc):
            return "its abort describes another operation than the record's"
        waited = [i for (o, st, s), i in self.at.items()
                  if o < a.op or (o == a.op and (step is None or self.before(o, st, s, step,
                                                                             a.seat)))]
        if any(i > a.at for i in waited):
            return "it stopped before every message it waited for was in the record"
        return None

    def before(self, op: int, st: str, sender: int, step: str, seat: int) -> bool:
        """Whether ``seat`` waits for ``sender``'s ``st`` message before it sends its own
        ``step`` message of operation ``op``: the shufflers ahead of it; every commitment
        before a reveal."""
        desc = self.descs[op]
        if desc["kind"] == "shuffle" and st == step == "shuffle":
            order = self.pub.shufflers(desc)
            return sender in order and seat in order and order.index(sender) < order.index(seat)
        if desc["kind"] == "prove":
            return (st, step) == ("shares", "member")
        return desc["kind"] == "random" and (st, step) == ("commit", "reveal")

    def msg(self, op: int, step: str, seat: int) -> dict[str, Any]:
        body = self.byop.get(op, {}).get((step, seat))
        if body is None:
            if (seat, op) in self.abort_of:
                a = self.abort_of[seat, op]
                why = self.unsettled(a, step)
                if why is None:
                    self.stop(seat, op, step, f"stopped the table (blaming {_seat(a.culprit)}: "
                              f"{a.reason}) although every message it waited for was in the "
                              "record before its abort, and sound", complete=False)
            else:
                a = next(iter(sorted(self.aborts, key=lambda a: a.at)), None)
                why = None
            said = "" if a is None else (
                f"; seat {a.seat + 1} stopped the table at op {a.op} claiming {a.reason!r} "
                f"(blaming {_seat(a.culprit)}){': ' + why if why else ''}; nobody is named")
            self.stop(None, op, step, f"the record stops here: seat {seat + 1}'s {step} message is "
                      f"missing (it withheld it, left, or the record's owner stopped first){said}",
                      complete=False)
        return body  # type: ignore[return-value]

    # ---- descriptors -------------------------------------------------------------------------
    def describe(self, op: int) -> dict[str, Any]:
        """Operation ``op``'s descriptor: the one the engines issued (``ops``, a list or derived
        from the game), against which a message with another names its sender; without
        ``ops``, read from the messages, where one that disagrees with another names nobody."""
        msgs = self.byop.get(op, {})
        voted = False
        if op == 0:
            desc: dict[str, Any] | None = {"kind": "key"}
        elif self.oracle is not None:
            desc = self.oracle(list(self.outcomes))  # (read, never changed)
            if desc is None:
                later = any(o >= op for o in self.byop)
                self.stop(None, op, None, (
                    f"operation {op} cannot be derived from the game's signed moves (they stop "
                    "before it), so its messages are not checked" if later else
                    f"the record stops after operation {op - 1}, before the end of the game"),
                    complete=False)
        elif self.ops_in is not None:
            desc = self.ops_in[op]
        else:
            desc, voted = self.vote(op, msgs), True
        assert desc is not None
        self.descs[op] = desc
        for (step, sender), body in sorted(msgs.items(), key=lambda x: x[0][1]):
            got = descriptor_of(body)
            if not same_json(got, desc):
                problem = None if got is None else descriptor_problem(got, self.p.n_cards, self.n)
                if problem:
                    self.stop(sender, op, step, f"malformed operation: {problem}")
                if voted:  # which message is right is not in the record: no seat is named
                    self.stop(None, op, step, f"the messages of operation {op} describe different "
                              "operations; without the game's requests the record cannot show "
                              "which is right, so nobody is named", complete=False)
                self.other_moves(sender, op, step, desc)
                self.stop(sender, op, step, f"message describes another operation than {desc}")
        for a in self.aborts_at.get(op, ()):  # an abort carries its sender's descriptor too
            if not voted and not same_json(a.desc, desc):
                self.other_moves(a.seat, op, "abort", desc)
                self.stop(a.seat, op, "abort", f"its abort describes another operation than {desc}")
        return desc

    def other_moves(self, seat: int, op: int, step: str, desc: dict[str, Any]) -> None:
        """Names nobody when ``seat``'s message describes another operation than the one the
        game's moves in this record give: the moves are every seat's, and the record's owner
        can rewrite its own in its file (any seat colluding with it, its own) -- a move that
        plays another card, say, and its own deck message for it -- after which every other
        seat's authentic message of that operation "describes another" (red team 17: one owner
        rewriting one of its own moves got the other player named). Live, every seat compares
        the descriptor with its own engine's, fed the moves it was really sent. An operation
        that rests on no other seat's move (the key step, the roster code's draw, the deal
        before the first move: the oracle's ``movers``) still names the seat, and so does a
        message whose ``heads`` state the record's own messages (``own_inputs``)."""
        if self.me is None or seat == self.me or self.own_inputs(seat, op, step):
            return
        movers = getattr(self.oracle, "movers", None)
        if self.oracle is None or (callable(movers) and set(movers(op)) <= {seat}):
            return  # (a list of the caller's engine's requests; or no other seat's move before)
        self.stop(None, op, step, f"seat {seat + 1}'s {step} message describes another operation "
                  f"than the game's moves in this record give ({desc}): the record's owner (seat "
                  f"{self.me + 1}) could have rewritten its own moves in its file, and any seat "
                  "colluding with it its own, so nobody is named")

    def vote(self, op: int, msgs: dict[tuple[str, int], dict[str, Any]]) -> dict[str, Any]:
        """Without ``ops``: the descriptor the well-formed messages carry (the most common, to
        go on; ``describe`` names nobody when they disagree)."""
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
        if desc["kind"] == "key":  # no vote decides this: a key share after operation 0
            sender, step = min((s, st) for (st, s), b in msgs.items()
                               if descriptor_of(b)["kind"] == "key")  # type: ignore[index]
            self.stop(sender, op, step, "a key-share operation after operation 0")
        return desc

    def run(self) -> AuditReport:
        verdict = CLEAN
        try:
            self.group()
            op = 0
            while not (self.outcomes and self.outcomes[-1]["kind"] == "end"):
                if self.ops_in is not None and op >= len(self.ops_in):
                    break
                if self.ops_in is None and self.oracle is None and op > self.last_op:
                    break
                desc = self.describe(op)
                getattr(self, "op_" + desc["kind"])(op, desc)
                op += 1
            n_ops = op
            after = sorted((i, o, st, s) for (o, st, s), i in self.at.items() if o >= n_ops)
            if after and self.outcomes and self.outcomes[-1]["kind"] == "end":
                _, o, st, s = after[0]
                self.stop(s, o, st, "a deck message after the end of the game")
            for a in sorted(self.aborts, key=lambda a: a.at):
                why = self.unsettled(a, None) if a.op < n_ops else "after the record's last operation"
                if why is None:
                    self.stop(a.seat, a.op, "abort", f"stopped the table blaming {_seat(a.culprit)} "
                              f"({a.reason}), but the record shows no deviation")
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
        return AuditReport(verdict, self.outcomes, [(a.seat, a.culprit, a.reason)
                                                    for a in self.aborts])

    # ---- operations ------------------------------------------------------------------------------
    def op_key(self, op: int, desc: dict[str, Any]) -> None:
        bodies = [self.byop.get(op, {}).get(("key", j)) for j in range(self.n)]
        if all(b is not None and b["desc"] != self.p.digest.hex() for b in bodies) and \
                len({str(b["desc"]) for b in bodies}) == 1:  # type: ignore[index]
            # every seat bound one same description, not the record's: the (unsigned) table
            # record, or a seat's key in its (self-signed) roster, was changed after the game; no
            # seat deviated
            self.stop(None, op, "key", "the record's game description is not the one the peers "
                      "played (every seat's key share binds another one: the file's game or the "
                      "keys of its roster were changed)")
        shares = [(j, b) for j, b in enumerate(bodies) if isinstance(b, dict)]
        if self.seating is not None and len({str(b.get("desc")) for _, b in shares}) > 1 and \
                any(FIELD in b for _, b in shares):
            # the shares show the games the host signed to their senders (SPEC 5.2): a share
            # its own evidence does not back names its sender; two host-signed games, the host
            # (the record may stop before every share: the ones it holds are weighed)
            culprit, why = self.seating.judge_all(shares)
            self.stop(culprit, op, "key", why)
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
        vouched, makers = self.vouchers(S), {self.made.get(s) for s in S}
        for j in self.pub.shufflers(desc):
            try:
                cur = self.pub.check_shuffle(op, j, cur, self.msg(op, "shuffle", j))
            except DeckError as exc:
                self.rests_on_key(exc, j, op, "shuffle")
                self.rests_on_others(exc, j, op, "shuffle", vouched, makers)
                raise
            # its output: bound by its own signature alone, until a later step names it
            vouched, makers = frozenset({j}), {j}
        extra = [s for (st, s) in self.byop.get(op, {}) if s not in self.pub.shufflers(desc)]
        if extra:
            self.stop(extra[0], op, "shuffle", "a shuffle message from a seat that takes no step")
        self.pub.place(S, cur)
        for s in S:
            self.vouched[s], self.made[s] = vouched, next(iter(makers))
        self.outcomes.append({"op": op, **desc, "values": None, "input": inp.hex()})

    def op_open(self, op: int, desc: dict[str, Any]) -> None:
        S, to = desc["slots"], desc["to"]
        got: dict[int, list[Point]] = {}
        me = None if self.owner is None else self.owner[0]
        vouched, makers = self.vouchers(S), {self.made.get(s) for s in S}
        for j in range(self.n):
            try:
                plain, enc = self.pub.check_shares(op, desc, j, self.msg(op, "shares", j))
            except DeckError as exc:
                self.rests_on_key(exc, j, op, "shares")
                self.rests_on_others(exc, j, op, "shares", vouched, makers)
                self.rests_on_receiver_key(exc, j, op)
                raise
            self.confirmed(S, j, enc)
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

    def op_prove(self, op: int, desc: dict[str, Any]) -> None:
        """A claim (SPEC.md 5.7): every seat's shares, then the prover's membership proofs
        against the ``D_i`` computed from the record. The outcome holds no value."""
        got: dict[int, list[Point]] = {}
        vouched, makers = self.vouchers(desc["slots"]), {self.made.get(s) for s in desc["slots"]}
        for j in range(self.n):
            try:
                plain, enc = self.pub.check_shares(op, desc, j, self.msg(op, "shares", j))
            except DeckError as exc:
                self.rests_on_key(exc, j, op, "shares")
                self.rests_on_others(exc, j, op, "shares", vouched, makers)
                raise
            self.confirmed(desc["slots"], j, enc)
            if plain is not None:
                got[j] = plain
        extra = sorted(s for (st, s) in self.byop.get(op, {}) if st == "member" and s != desc["by"])
        if extra:
            self.stop(extra[0], op, "member", "a member message from a seat that is not the prover")
        try:
            self.pub.check_member(op, desc, self.msg(op, "member", desc["by"]), got)
        except DeckError as exc:
            self.rests_on_key(exc, desc["by"], op, "member")
            self.rests_on_others(exc, desc["by"], op, "member", self.vouchers(desc["slots"]),
                                 {self.made.get(s) for s in desc["slots"]})
            raise
        self.outcomes.append({"op": op, **desc})

    def op_random(self, op: int, desc: dict[str, Any]) -> None:
        commits = []
        for j in range(self.n):
            commits.append(self.pub.check_commit(op, j, self.msg(op, "commit", j)))
        self.pub.commits_seen.update(commits)
        # as the owner checked them live: an echo misstating a third seat's commitment names
        # nobody (that seat equivocated, and the mesh's proof names it, or the echo lies)
        # ... and one misstating the owner's own commitment names nobody either in an audit:
        # the owner could have rewritten its commitment in its file
        nonces = []
        for j in range(self.n):
            try:
                nonces.append(self.pub.check_reveal(op, j, self.msg(op, "reveal", j), commits,
                                                    self.me))
            except DeckError as exc:
                # one misstating another seat's commitment (the owner's, or a seat colluding
                # with it, which can commit and reveal anew in the owner's file: red team 17)
                # names nobody either: only the echoer's own commitment is its word alone
                echo = self.byop[op][("reveal", j)].get("echo")
                i = next((i for i in range(self.n) if i != j and isinstance(echo, list)
                          and len(echo) == self.n and echo[i] != commits[i].hex()), None)
                if self.me is not None and j != self.me and i is not None and \
                        exc.reason == f"echo misstates seat {i + 1}'s commitment" and \
                        not self.own_inputs(j, op, "reveal"):
                    self.unconfirmed(exc, j, op, "reveal", [i])
                raise
        self.outcomes.append({"op": op, **desc, "value": random_value(self.p, op, desc["n"], nonces)})

    def op_end(self, op: int, desc: dict[str, Any]) -> None:
        want = record_digest([b for o, msgs in self.byop.items() if o < op for b in msgs.values()])
        digests = [self.msg(op, "end", j)["digest"] for j in range(self.n)]
        for j in range(self.n):
            if not (isinstance(digests[j], str) and re.fullmatch("[0-9a-f]{64}", digests[j])):
                self.stop(j, op, "end", "its digest of the public record is not a digest")
            if digests[j] != want.hex():
                # the digest covers every seat's messages, which the owner (its own) and any
                # seat colluding with it (theirs, signed anew) could have rewritten in the file:
                # another seat's digest agreeing with the file is no proof (red team 17)
                if self.me is not None and j != self.me:
                    agree = [k + 1 for k in range(self.n) if k != j and digests[k] == want.hex()]
                    self.stop(None, op, "end", f"seat {j + 1}'s digest of the public record "
                              f"differs from this record, with which seat(s) {agree} agree: the "
                              f"record's owner (seat {self.me + 1}) could have rewritten its own "
                              "messages in its file, and any seat colluding with it its own, so "
                              "nobody is named")
                self.stop(j, op, "end", "its digest of the public record differs from this record")
        self.outcomes.append({"op": op, **desc})


__all__ = ["AuditReport", "Verdict", "audit"]
