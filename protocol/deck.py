"""The mental-poker deck service: one ``DeckPeer`` per seat, no trusted dealer.

Every peer calls the same operations in the same order (their engines issue identical request
sequences); each operation is a small protocol on topic ``"deck"`` whose messages carry the
operation number and step, so a peer that runs ahead never confuses one that lags. The wire format,
the order of the steps and every check are specified in ``protocol/SPEC.md``; this module is the
reference implementation.

Cards are integers ``0..n_cards-1``. Slot ``s`` starts holding card ``s`` as a plain, public card
point; a shuffle puts every seat's layer on the slots it touches, an opening hands the layers' keys
to the seats that may look. All of a peer's secrets derive from its 32-byte ``seed`` (``kdf.py``),
so the audit reveals the seeds and recomputes every step (``audit.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from .audit import AuditReport, audit
from .channel import Channel
from .errors import (
    CheatDetected,
    DeckClosed,
    DeckError,
    DeckTimeout,
    Equivocation,
    PeerAborted,
    UndecodableCard,
)
from .group import (
    InvalidPoint,
    InvalidScalar,
    Point,
    Scalar,
    card_table,
    validate_points,
    validate_scalar,
)
from .kdf import PeerSecrets
from .params import TOPIC, VERSION, DeckParams
from .steps import (
    blind_points,
    commitment,
    decode,
    descriptor,
    descriptor_of,
    dleq_statement,
    dleq_verify,
    key_matches,
    lock_points,
    random_value,
    rekey_points,
    shuffle_chain,
    shuffle_points,
    vec_digest,
)

AUDIT = -1  # inbox key of the audit's secrets messages, which stand outside the operations


def _hex(b: bytes) -> str:
    return b.hex()


class _Malformed(ValueError):
    pass


def _unhex(v: Any, size: int) -> bytes:
    if not isinstance(v, str) or len(v) != 2 * size:
        raise _Malformed(f"expected {size} bytes of lowercase hex")
    try:
        b = bytes.fromhex(v)
    except ValueError:
        raise _Malformed("not hex") from None
    if b.hex() != v:
        raise _Malformed("hex must be lowercase")
    return b


class DeckPeer:
    """One seat's side of the deck. All operations are coroutines; call one at a time.

    ``seed`` (32 bytes, e.g. ``secrets.token_bytes(32)``) is the root of every secret of this
    peer; keep it to resume after a crash, reveal it only in the audit. ``timeout`` bounds every
    wait for one message (seconds). ``lock_proofs`` adds a batched Chaum-Pedersen proof to every
    lock step (every peer of a table must agree; see SPEC.md for the cost)."""

    def __init__(self, channel: Channel, table_id: bytes, deck_spec: str, n_cards: int, seed: bytes,
                 timeout: float = 60.0, *, lock_proofs: bool = True) -> None:
        if channel.seats < 2:
            raise ValueError("a deck needs at least two seats")
        self.ch = channel
        self.seat = channel.seat
        self.n = channel.seats
        self.params = DeckParams(bytes(table_id), deck_spec, n_cards, channel.seats, lock_proofs)
        self.timeout = timeout
        self.secrets = PeerSecrets(seed)
        self.card_points, self.card_index = card_table(self.params.table_id, deck_spec, n_cards)
        # public deck state, identical at every honest peer
        self.ct: list[Point] = list(self.card_points)
        self.lock_ref: list[tuple[int, int] | None] = [None] * n_cards  # (op, position) of its lock
        self.kref: list[list[tuple[Point, Point]] | None] = [None] * n_cards  # per seat (x, k*x)
        self.author: list[int | None] = [None] * n_cards  # seat that published ct[s]
        self.seen: set[bytes] = set(self.card_points)  # every point and commitment so far
        # what this seat knows
        self.plain: list[int | None] = list(range(n_cards))
        # operations
        self.op = 0  # number of the next operation
        self.ops: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []
        self.orders: dict[int, list[int]] = {}
        self.failed: DeckError | None = None
        self.closed = False
        self._inbox: dict[tuple[int, str, int], dict[str, Any]] = {}
        self._expected: dict[int, set[tuple[str, int]]] = {}
        self._public: list[tuple[int, dict[str, Any]]] = []
        self._auditing = False

    # ---- hooks (adversarial tests override these) ------------------------------------------------
    def _permutation(self, op: int, m: int) -> list[int]:
        return self.secrets.permutation(op, m)

    def _outgoing(self, to: int | None, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        """The messages actually sent for ``body`` (``to=None``: broadcast)."""
        return [(to, body)]

    # ---- public API --------------------------------------------------------------------------------
    def known(self, slot: int) -> int | None:
        """The card this seat knows to be in ``slot``, or ``None``."""
        return self.plain[slot]

    async def shuffle(self, slots: Sequence[int]) -> list[int | None]:
        """Shuffle pass + lock pass over ``slots`` (any slots: plain, locked, known to anyone):
        afterwards nobody knows which card is where. Returns what this seat knows of the slots
        (all ``None``)."""
        return await self._shuffle(slots, None, None)

    async def reorder(self, slots: Sequence[int], by: int, order: Sequence[int] | None = None
                      ) -> list[int | None]:
        """Private reorder by seat ``by``: the card in ``order[i]`` moves to ``slots[i]`` (``order``
        given by seat ``by`` only). The new ciphertexts are unlinkable to the old ones for everyone
        else. Returns what this seat knows of the slots afterwards (``by`` knows each card it
        knew before; the others nothing)."""
        if not 0 <= by < self.n:
            raise ValueError(f"no seat {by}")
        if by == self.seat:
            if order is None or sorted(order) != sorted(slots) or len(set(order)) != len(order):
                raise ValueError("the arranging seat must give the slots in their new order")
        elif order is not None:
            raise ValueError("only the arranging seat gives an order")
        return await self._shuffle(slots, by, order)

    async def open(self, slots: Sequence[int], to: Sequence[int]) -> list[int] | None:
        """Open ``slots`` to the seats ``to``: every other seat sends each of them its per-slot keys
        privately (everyone broadcasts them when ``to`` is every seat). Returns the cards if this
        seat is in ``to``, else ``None``."""
        to_l = sorted(set(to))
        if not to_l or any(not 0 <= r < self.n for r in to_l):
            raise ValueError(f"bad receivers {to!r}")
        self._check_slots(slots)
        return await self._run(descriptor("open", slots=list(slots), to=to_l), self._open_op)

    async def open_all(self, slots: Sequence[int]) -> list[int]:
        out = await self.open(slots, range(self.n))
        assert out is not None
        return out

    async def random(self, n: int) -> int:
        """A joint random integer in ``[0, n)`` (commit-reveal, rejection sampling)."""
        if n < 1:
            raise ValueError("random(n) needs n >= 1")
        return await self._run(descriptor("random", n=n), self._random_op)

    async def audit(self) -> AuditReport:
        """Reveal this seat's seed (and its private arrangements), collect everyone's, and run the
        audit over the public record. The deck is closed afterwards. Also the way to name the
        culprit after a failed operation (e.g. ``UndecodableCard``): every seat calls ``audit()``
        once all have stopped. The exchange is not a numbered operation, so seats that stopped at
        different operations still meet."""
        if self.closed:
            raise DeckClosed(None, "secrets", "the deck was already audited")
        self._auditing = True
        orders = {str(k): v for k, v in self.orders.items()}
        body = self._envelope(self.op, {"kind": "audit"}, "secrets", seed=_hex(self.secrets.seed),
                              orders=orders)
        await self._bcast(body)
        for j in range(self.n):
            if j != self.seat:
                await self._wait(AUDIT, "secrets", j)
        self.closed = True
        return audit(self.params, self.record()["messages"], ops=self.ops)

    def record(self) -> dict[str, Any]:
        """The public record: the parameters and every broadcast deck message this peer sent or
        received (``[sender, body]``), by operation. With the audit's secrets messages in it, it
        is all ``protocol.audit.audit`` needs."""
        msgs = sorted(enumerate(self._public), key=lambda x: (x[1][1]["op"], x[0]))
        return {"params": self.params.to_json(), "messages": [[s, b] for _, (s, b) in msgs]}

    # ---- operation framework ----------------------------------------------------------------------
    def _check_slots(self, slots: Sequence[int]) -> None:
        if len(set(slots)) != len(slots) or any(not 0 <= s < self.params.n_cards for s in slots):
            raise ValueError(f"bad slots {list(slots)!r}")

    async def _shuffle(self, slots: Sequence[int], by: int | None, order: Sequence[int] | None
                       ) -> list[int | None]:
        self._check_slots(slots)
        desc = descriptor("shuffle", slots=list(slots), by=by)
        if order is not None:
            self._order = [list(slots).index(s) for s in order]
        return await self._run(desc, self._shuffle_op)

    async def _run(self, desc: dict[str, Any], body: Any) -> Any:
        if self.failed is not None:
            raise DeckClosed(self.failed.peer, self.failed.step, f"the deck failed: {self.failed}")
        if self.closed or self._auditing:
            raise DeckClosed(None, desc["kind"], "the deck was audited; its secrets are public")
        op = self.op
        self.op += 1
        self.ops.append(desc)
        self._expected[op] = self._expect(op, desc)
        try:
            for (o, step, sender), msg in list(self._inbox.items()):
                if o == op:
                    self._check_expected(op, step, sender, msg)
            result = await body(op, desc)
        except DeckError as exc:
            if exc.op is None:
                exc.op = op
            self.failed = exc
            if not isinstance(exc, PeerAborted):
                await self._send_abort(op, desc, exc)
            raise
        self.results.append({"op": op, **desc, "result": result})
        return result

    def _expect(self, op: int, desc: dict[str, Any]) -> set[tuple[str, int]]:
        others = [j for j in range(self.n) if j != self.seat]
        kind = desc["kind"]
        if kind == "shuffle":
            chain = shuffle_chain(self.n, [self.lock_ref[s] is None for s in desc["slots"]],
                                     self.params.n_cards, self.params.lock_proofs)
            return {(st, j) for st, j in chain if j != self.seat}
        if kind == "open":
            to = desc["to"]
            if len(to) == self.n:
                return {("keys", j) for j in others}
            exp = {("ack", r) for r in to if r != self.seat}
            if self.seat in to:
                exp |= {("keys", j) for j in others}
            return exp
        if kind == "random":
            return {(st, j) for st in ("commit", "reveal") for j in others}
        return {("secrets", j) for j in others}

    def _is_private(self, desc: dict[str, Any], step: str) -> bool:
        return desc["kind"] == "open" and step == "keys" and len(desc["to"]) < self.n

    def _check_expected(self, op: int, step: str, sender: int, body: dict[str, Any]) -> None:
        desc = self.ops[op]
        if (step, sender) not in self._expected[op]:
            raise CheatDetected(sender, step, f"unexpected message for a {desc['kind']} operation", op)
        if descriptor_of(body) != desc:
            raise CheatDetected(sender, step, f"message describes another operation than {desc}", op)

    def _file(self, sender: int, body: Any) -> None:
        """File one received message (checks common to every message; SPEC.md "Envelope")."""
        if not isinstance(body, dict):
            raise CheatDetected(sender, "?", "malformed message (not an object)")
        step, op = body.get("step"), body.get("op")
        if not isinstance(step, str) or not isinstance(op, int) or isinstance(op, bool) or op < 0:
            raise CheatDetected(sender, str(step), "malformed message (op/step)")
        if body.get("seat") != sender:
            raise CheatDetected(sender, step, f"message claims to come from seat {body.get('seat')!r}", op)
        if body.get("v") != VERSION:
            raise CheatDetected(sender, step, f"unknown protocol version {body.get('v')!r}", op)
        if step == "abort":
            culprit = body.get("culprit")
            self._public.append((sender, body))
            if self.failed is None:  # once failed, the table audits: aborts are only recorded
                raise PeerAborted(sender, culprit if isinstance(culprit, int) else None,
                                  str(body.get("about")), str(body.get("reason")), op)
            return
        if step == "secrets":
            if body.get("kind") != "audit":
                raise CheatDetected(sender, step, "malformed secrets message", op)
            op = AUDIT
        key = (op, step, sender)
        if key in self._inbox:
            raise CheatDetected(sender, step, f"replayed message ({step} of op {op} already received)",
                                body["op"])
        stopped = self.failed is not None or self._auditing
        if 0 <= op < self.op and not stopped:
            self._check_expected(op, step, sender, body)
        self._inbox[key] = body
        desc = self.ops[op] if 0 <= op < self.op else descriptor_of(body)
        if desc is None or desc["kind"] == "audit" or not self._is_private(desc, step):
            self._public.append((sender, body))

    async def _wait(self, op: int, step: str, sender: int) -> dict[str, Any]:
        key = (op, step, sender)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while key not in self._inbox:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise DeckTimeout(sender, step, f"no {step} message within {self.timeout:g} s", op)
            try:
                s, body = await self.ch.recv(TOPIC, timeout=remaining)
            except TimeoutError:
                continue
            self._file(s, body)
        return self._inbox[key]

    def _envelope(self, op: int, desc: dict[str, Any], step: str, **fields: Any) -> dict[str, Any]:
        return {"v": VERSION, "op": op, **desc, "step": step, "seat": self.seat, **fields}

    async def _bcast(self, body: dict[str, Any]) -> dict[str, Any]:
        """Broadcast ``body``; returns what was actually published (the first message out, which
        differs from ``body`` only for an adversarial ``_outgoing``): the peer goes on from it."""
        out = self._outgoing(None, body)
        first = out[0][1] if out else body
        self._public.append((self.seat, first))
        for to, b in out:
            if to is None:
                await self.ch.broadcast(TOPIC, b)
            else:
                await self.ch.send(to, TOPIC, b)
        return first

    async def _send(self, to: int, body: dict[str, Any]) -> None:
        for t, b in self._outgoing(to, body):
            if t is None:
                await self.ch.broadcast(TOPIC, b)
            else:
                await self.ch.send(t, TOPIC, b)

    async def _send_abort(self, op: int, desc: dict[str, Any], exc: DeckError) -> None:
        body = self._envelope(op, desc, "abort", culprit=exc.peer, about=exc.step, reason=exc.reason)
        self._public.append((self.seat, body))
        with contextlib.suppress(Exception):  # best effort: the table is stopping anyway
            await self.ch.broadcast(TOPIC, body)

    # ---- field parsing -------------------------------------------------------------------------------
    async def _points(self, body: dict[str, Any], field: str, m: int, sender: int, step: str, op: int,
                validate: bool) -> list[Point]:
        v = body.get(field)
        if not isinstance(v, list) or len(v) != m:
            raise CheatDetected(sender, step, f"{field} must be a list of {m} points", op)
        try:
            pts = [_unhex(x, 32) for x in v]
        except _Malformed as exc:
            raise CheatDetected(sender, step, f"{field}: {exc}", op) from None
        if len(set(pts)) != m:
            raise CheatDetected(sender, step, f"{field}: two positions hold the same point (duplicate)", op)
        for i, p in enumerate(pts):
            if p in self.seen:
                raise CheatDetected(sender, step, f"{field}[{i}] repeats a point already seen (replay)", op)
        if validate:
            try:
                await asyncio.to_thread(validate_points, pts)
            except InvalidPoint as exc:
                raise CheatDetected(sender, step, f"{field}: {exc}", op) from None
        return pts

    def _scalar(self, v: Any, sender: int, step: str, op: int, what: str) -> Scalar:
        try:
            return validate_scalar(_unhex(v, 32))
        except (_Malformed, InvalidScalar) as exc:
            raise CheatDetected(sender, step, f"{what}: {exc}", op) from None

    def _my_key(self, slot: int) -> Scalar | None:
        ref = self.lock_ref[slot]
        return None if ref is None else self.secrets.lock_key(*ref)

    # ---- shuffle / reorder ---------------------------------------------------------------------------
    async def _shuffle_op(self, op: int, desc: dict[str, Any]) -> list[int | None]:
        S: list[int] = desc["slots"]
        by: int | None = desc["by"]
        m, n, me = len(S), self.n, self.seat
        sec, tid, proofs = self.secrets, self.params.table_id, self.params.lock_proofs
        chain = shuffle_chain(n, [self.lock_ref[s] is None for s in S], self.params.n_cards, proofs)
        cur = [self.ct[s] for s in S]
        cur_author: tuple[int, str] | None = None  # who published cur (None: the deck state)
        lock_io: list[tuple[list[Point], list[Point]]] = []
        my_perm: list[int] | None = None
        for idx, (step, j) in enumerate(chain):
            nxt = chain[idx + 1] if idx + 1 < len(chain) else None
            fresh: list[Point]
            if j == me:
                try:
                    if step == "blind":
                        fresh, proof = await asyncio.to_thread(blind_points, sec, op, me, cur, tid)
                    elif step == "rekey":
                        fresh = await asyncio.to_thread(rekey_points, sec, op, cur,
                                                        [self._my_key(s) for s in S])
                    elif step == "shuffle":
                        if by is None:
                            my_perm = self._permutation(op, m)
                        elif by == me:
                            my_perm = self._order
                            self.orders[op] = list(my_perm)
                        else:
                            my_perm = list(range(m))
                        strip = [self._my_key(s) for s in S] if me == 0 else None
                        fresh = await asyncio.to_thread(shuffle_points, sec, op, cur, my_perm, strip)
                    else:
                        locked, fresh, proof = await asyncio.to_thread(
                            lock_points, sec, op, me, cur, chain, tid, proofs)
                except InvalidPoint as exc:  # only an unvalidated input can be: the previous one
                    assert cur_author is not None
                    raise CheatDetected(cur_author[0], cur_author[1], f"points: {exc}", op) from None
                fields: dict[str, Any] = {"prev": _hex(vec_digest(cur))}
                if step == "lock":
                    fields["locked"] = [_hex(p) for p in locked]
                if step == "blind" or (step == "lock" and proofs):
                    fields["proof"] = None if proof is None else [_hex(x) for x in proof]
                fields["points"] = [_hex(p) for p in fresh]
                env = self._envelope(op, desc, step, **fields)
                sent = await self._bcast(env)
                if sent is not env:  # (adversarial tests) go on from what was really published
                    fresh = [bytes.fromhex(x) for x in sent["points"]]
                    if step == "lock":
                        locked = [bytes.fromhex(x) for x in sent["locked"]]
            else:
                body = await self._wait(op, step, j)
                if body.get("prev") != _hex(vec_digest(cur)):
                    self._equivocation(op, step, j, cur_author, S)
                if step == "blind":
                    fresh = await self._points(body, "points", m, j, step, op, validate=False)
                    await self._check_proof(body, op, j, step, cur, fresh)
                elif step == "lock":
                    proven = proofs and m > 0
                    locked = await self._points(body, "locked", m, j, step, op, validate=not proven)
                    self.seen.update(locked)
                    fresh = await self._points(body, "points", m, j, step, op,
                                               validate=not (proven or (nxt is not None and nxt[1] == me)))
                    if set(locked) & set(fresh):
                        raise CheatDetected(j, step, "locked and points share a point", op)
                    if proven:
                        await self._check_proof(body, op, j, step, locked, fresh)
                    elif body.get("proof") is not None:
                        raise CheatDetected(j, step, "an unexpected proof", op)
                else:
                    # validated now unless this seat multiplies it next (which validates it)
                    fresh = await self._points(body, "points", m, j, step, op,
                                               validate=not (nxt is not None and nxt[1] == me))
            self.seen.update(fresh)
            if step == "lock":
                lock_io.append((cur, locked))
            cur, cur_author = fresh, (j, step)
        old = [self.plain[s] for s in S]
        for i, s in enumerate(S):
            self.ct[s] = cur[i]
            self.lock_ref[s] = (op, i)
            self.kref[s] = [(lock_io[h][0][i], lock_io[h][1][i]) for h in range(n)]
            self.author[s] = n - 1
            self.plain[s] = old[my_perm[i]] if by == me and my_perm is not None else None
        return [self.plain[s] for s in S]

    def _equivocation(self, op: int, step: str, j: int, cur_author: tuple[int, str] | None,
                      S: list[int]) -> None:
        if cur_author is not None and cur_author[0] == self.seat:
            raise CheatDetected(j, step, "prev names a vector this seat never sent", op)
        if cur_author is not None:
            raise Equivocation(cur_author[0], j, step,
                               f"seat {j} built on another {cur_author[1]} vector of seat "
                               f"{cur_author[0]} than this seat received", op)
        authors = sorted({a for s in S if (a := self.author[s]) is not None and a != self.seat})
        if not authors:
            raise CheatDetected(j, step, "prev does not match the deck state", op)
        raise Equivocation(authors[0], j, step, f"seat {j} starts from another deck state", op)

    async def _check_proof(self, body: dict[str, Any], op: int, j: int, step: str,
                           before: list[Point], after: list[Point]) -> None:
        """Verify a batched proof that one scalar maps ``before`` to ``after`` (a blind step's
        plain points to its output; a lock step's ``locked`` to its ``points``). The proof's
        combinations multiply every point, so this also validates them all."""
        pr = body.get("proof")
        if not isinstance(pr, list) or len(pr) != 2:
            raise CheatDetected(j, step, "missing or malformed proof", op)
        e, z = (self._scalar(x, j, step, op, "proof") for x in pr)
        d = dleq_statement(step.encode(), self.params.table_id, op, j, before, after)
        try:
            ok = await asyncio.to_thread(dleq_verify, before, after, (e, z), d)
        except InvalidPoint as exc:
            m = len(before)
            idx = exc.index if exc.index is not None else 0
            field = "locked" if idx < m else "points"
            raise CheatDetected(j, step, f"{field}: point {idx % m if m else idx} is not a valid "
                                "element of the prime-order subgroup", op) from None
        if not ok:
            raise CheatDetected(j, step, "the proof fails: points are not all one scalar times "
                                "their inputs (a substituted card)", op)

    # ---- opening -------------------------------------------------------------------------------------
    async def _open_op(self, op: int, desc: dict[str, Any]) -> list[int] | None:
        S: list[int] = desc["slots"]
        to: list[int] = desc["to"]
        me = self.seat
        mine = [self._my_key(s) for s in S]
        keys_field = [None if k is None else _hex(k) for k in mine]
        everyone = len(to) == self.n
        if everyone:
            await self._bcast(self._envelope(op, desc, "keys", keys=keys_field))
        else:
            for r in to:
                if r != me:
                    await self._send(r, self._envelope(op, desc, "keys", keys=keys_field))
        if me not in to:
            return None
        keys: list[list[Scalar]] = [[k] if k is not None else [] for k in mine]
        for j in range(self.n):
            if j == me:
                continue
            body = await self._wait(op, "keys", j)
            v = body.get("keys")
            if not isinstance(v, list) or len(v) != len(S):
                raise CheatDetected(j, "keys", f"keys must be a list of {len(S)} entries", op)
            for i, s in enumerate(S):
                ref = self.kref[s]
                if ref is None:
                    if v[i] is not None:
                        raise CheatDetected(j, "keys", f"a key for plain slot {s}", op)
                    continue
                k = self._scalar(v[i], j, "keys", op, f"key for slot {s}")
                before, after = ref[j]
                if not key_matches(k, before, after):
                    raise CheatDetected(j, "keys", f"wrong key for slot {s} (k*x != locked)", op)
                keys[i].append(k)
        values = []
        for i, s in enumerate(S):
            c = decode(self.ct[s], keys[i], self.card_index)
            if c is None:
                raise UndecodableCard(None, "keys", f"slot {s} opens to no card: an earlier step was "
                                      "not honest; the audit names who", op)
            if self.plain[s] is not None and self.plain[s] != c:
                raise UndecodableCard(None, "keys", f"slot {s} opens to card {c} but this seat "
                                      f"knows it holds {self.plain[s]}", op)
            elsewhere = [t for t, v in enumerate(self.plain) if v == c and t != s]
            if elsewhere or c in values:
                raise UndecodableCard(None, "keys", f"card {c} opens in slot {s} but is also in slot "
                                      f"{elsewhere[0] if elsewhere else S[values.index(c)]}: a "
                                      "duplicated card; the audit names who", op)
            values.append(c)
        for s, c in zip(S, values, strict=True):
            self.plain[s] = c
        if not everyone:
            await self._bcast(self._envelope(op, desc, "ack"))
        return values

    # ---- joint randomness ----------------------------------------------------------------------------
    async def _random_op(self, op: int, desc: dict[str, Any]) -> int:
        me, n, tid = self.seat, self.n, self.params.table_id
        nonce = self.secrets.nonce(op)
        commits: list[bytes] = [b""] * n
        commits[me] = commitment(tid, op, me, nonce)
        await self._bcast(self._envelope(op, desc, "commit", commit=_hex(commits[me])))
        for j in range(n):
            if j != me:
                body = await self._wait(op, "commit", j)
                try:
                    c = _unhex(body.get("commit"), 32)
                except _Malformed as exc:
                    raise CheatDetected(j, "commit", f"commit: {exc}", op) from None
                if c in self.seen:
                    raise CheatDetected(j, "commit", "commit repeats an earlier one (replay)", op)
                commits[j] = c
        self.seen.update(commits)
        echo = [_hex(c) for c in commits]
        await self._bcast(self._envelope(op, desc, "reveal", nonce=_hex(nonce), echo=echo))
        nonces: list[bytes] = [b""] * n
        nonces[me] = nonce
        reveals = {j: await self._wait(op, "reveal", j) for j in range(n) if j != me}
        for j, body in reveals.items():  # first what is provable from this seat's own view ...
            try:
                nonces[j] = _unhex(body.get("nonce"), 32)
            except _Malformed as exc:
                raise CheatDetected(j, "reveal", f"nonce: {exc}", op) from None
            if commitment(tid, op, j, nonces[j]) != commits[j]:
                raise CheatDetected(j, "reveal", "the nonce does not open its commitment", op)
        for j, body in reveals.items():  # ... then whether every seat saw the same commitments
            their = body.get("echo")
            if not isinstance(their, list) or len(their) != n:
                raise CheatDetected(j, "reveal", f"echo must list {n} commitments", op)
            for i in range(n):
                if their[i] == echo[i]:
                    continue
                if i in (me, j):
                    raise CheatDetected(j, "reveal", f"echo misstates seat {i}'s commitment", op)
                raise Equivocation(i, j, "commit", f"seat {j} received another commitment from "
                                   f"seat {i} than this seat did", op)
        return random_value(tid, op, desc["n"], nonces)
