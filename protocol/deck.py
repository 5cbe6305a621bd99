"""The mental-poker deck service (protocol v2): one ``DeckPeer`` per seat, no trusted dealer.

Barnett-Smart: every card is an ElGamal ciphertext under the table's joint key (the sum of every
seat's key share). A shuffle is a chain of re-encryptions and permutations, one per seat, each
carrying a proof of shuffle; an opening is decryption shares, each with a proof. Every seat checks
every message on arrival (``steps.PublicDeck``), so a deviation is named at the step where it
happens, by every honest seat, from messages anyone can check. No secret is ever published: the
end of the game only compares digests of the public record. ``protocol/SPEC.md`` is normative.

Every peer calls the same operations in the same order (their engines issue identical request
sequences); each operation's messages carry its number and step, so a peer that runs ahead never
confuses one that lags.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from . import elgamal as eg
from . import proofs as pf
from .channel import Channel
from .envelope import is_int
from .errors import CheatDetected, DeckClosed, DeckError, DeckTimeout, PeerAborted, UndecodableCard
from .group import Point, Scalar, base_mul
from .kdf import PeerSecrets
from .params import TOPIC, DeckParams
from .seating import Seating
from .steps import (
    DESC_FIELDS,
    PublicDeck,
    descriptor,
    descriptor_of,
    envelope,
    envelope_problem,
    make_commit,
    random_value,
    record_digest,
    same_json,
    vec_digest,
)

MAX_AHEAD = 64  # operations a peer's message may arrive ahead of this seat (bounds buffering)
THREAD_MIN = 16  # a step over this many cards runs in a worker thread (the loop keeps receiving)


async def _work(m: int, fn: Any, *args: Any) -> Any:
    """Run a proof or check: in a worker thread when it is big (libsodium releases the GIL, and
    the event loop goes on filing messages meanwhile), inline when a thread hop costs more."""
    if m >= THREAD_MIN:
        return await asyncio.to_thread(fn, *args)
    return fn(*args)


def _claimed_cts(v: Any, m: int) -> list[tuple[bytes, bytes]] | None:
    """``m`` ciphertexts from their JSON form (hex format only), or ``None``."""
    if not isinstance(v, list) or len(v) != m:
        return None
    out = [pf.ct_from_json(x, check=False) for x in v]
    return None if any(ct is None for ct in out) else out  # type: ignore[return-value]


class _Ahead:
    """A shuffle step prepared ahead on claimed inputs (see ``DeckPeer._prepare_ahead``)."""

    def __init__(self, cur: list[tuple[bytes, bytes]], task: asyncio.Future[Any]) -> None:
        self.cur, self.task = cur, task
        # a failure of the prepared work is never an error: the step is then made again
        task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def result(self, cur: Sequence[tuple[bytes, bytes]]) -> Any:
        """The prepared ``(outputs, fields)`` when they were made on exactly ``cur``, else
        ``None``."""
        if list(cur) != self.cur:
            self.drop()
            return None
        try:
            return await self.task
        except Exception:
            return None

    def drop(self) -> None:
        self.task.cancel()


class DeckPeer:
    """One seat's side of the deck. All operations are coroutines; call one at a time.

    ``seed`` (32 bytes, e.g. ``secrets.token_bytes(32)``) is the root of every secret of this
    peer; keep it (privately) to resume after a crash: it is never sent to anyone. ``timeout``
    bounds every wait for one message (seconds). ``seating``: the game the host signed to this
    seat, which its key share shows, and how to weigh another seat's when their descriptions
    differ (SPEC.md 5.2); without it a mismatch names nobody."""

    def __init__(self, channel: Channel, table_id: bytes, deck_spec: str, n_cards: int, seed: bytes,
                 timeout: float = 60.0, seating: Seating | None = None) -> None:
        if channel.seats < 2:
            raise ValueError("a deck needs at least two seats")
        self.ch = channel
        self.seat = channel.seat
        self.n = channel.seats
        self.params = DeckParams(bytes(table_id), deck_spec, n_cards, channel.seats)
        self.timeout = timeout
        self.secrets = PeerSecrets(seed)
        self.pub = PublicDeck(self.params, seating)  # seating: the host-signed game (SPEC 5.2)
        self.x: Scalar = self.secrets.key(self.params.table_id, self.params.digest)
        # what this seat knows: the initial deck is public (slot s holds card s)
        self.plain: list[int | None] = list(range(n_cards))
        self.op = 0  # number of the next operation
        self.ops: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []
        #: this seat's private reorders: op -> permutation (output i took input perm[i]); local only
        self.orders: dict[int, list[int]] = {}
        self.failed: DeckError | None = None
        self.closed = False
        self._order: list[int] | None = None
        self._mix = False
        self._inbox: dict[tuple[int, str, int], dict[str, Any]] = {}
        #: keys of the messages filed before their operation started (checked when it starts)
        self._early: dict[int, list[tuple[int, str, int]]] = {}
        self._public: list[tuple[int, dict[str, Any]]] = []
        self._aborts: dict[int, dict[str, Any]] = {}

    # ---- hooks (adversarial tests override these) -------------------------------------------------
    def _outgoing(self, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        """The messages actually sent for the broadcast ``body`` (``to=None``: everyone)."""
        return [(None, body)]

    def _permutation(self, op: int, inp: bytes, m: int) -> list[int]:
        return self.secrets.permutation("perm", op, inp, m)

    # ---- public API ---------------------------------------------------------------------------------
    def known(self, slot: int) -> int | None:
        """The card this seat knows to be in ``slot``, or ``None``."""
        return self.plain[slot]

    async def start(self) -> None:
        """The key-share operation (op 0): run once, before the first other operation (every
        operation starts it when needed)."""
        if self.op == 0:
            await self._run(descriptor("key"), self._key_op)

    async def shuffle(self, slots: Sequence[int]) -> list[int | None]:
        """Every seat in turn re-encrypts, permutes and proves: afterwards nobody knows which card
        is where among ``slots`` (any slots: the deck or a subset). Returns what this seat knows of
        them (all ``None``)."""
        return await self._shuffle(slots, None, None)

    async def reorder(self, slots: Sequence[int], by: int, order: Sequence[int] | None = None,
                      *, mix: bool = False) -> list[int | None]:
        """Private reorder by seat ``by`` alone (proven): the card in ``order[i]`` moves to
        ``slots[i]``. ``order`` is given by seat ``by`` only, or not at all with ``mix=True``: then
        seat ``by`` picks a uniformly random order derived from its seed and the operation (a
        hand mixed by its holder). Returns what this seat knows of the slots afterwards."""
        if not 0 <= by < self.n:
            raise ValueError(f"no seat {by}")
        if by == self.seat and not mix:
            if order is None or sorted(order) != sorted(slots) or len(set(order)) != len(order):
                raise ValueError("the arranging seat must give the slots in their new order")
        elif order is not None:
            raise ValueError("only the arranging seat gives an order, and not for a mix")
        self._mix = mix
        return await self._shuffle(slots, by, order)

    async def open(self, slots: Sequence[int], to: Sequence[int]) -> list[int] | None:
        """Open ``slots`` to the seats ``to``: every seat publishes its proven decryption shares
        (encrypted to each receiver when a receiver's own share must stay hidden from the others).
        Returns the cards if this seat is in ``to``, else ``None``."""
        to_l = sorted(set(to))
        if not to_l or any(not 0 <= r < self.n for r in to_l):
            raise ValueError(f"bad receivers {to!r}")
        self._check_slots(slots)
        return await self._run(descriptor("open", slots=list(slots), to=to_l), self._open_op)

    async def open_all(self, slots: Sequence[int]) -> list[int]:
        out = await self.open(slots, range(self.n))
        assert out is not None
        return out

    async def prove(self, slots: Sequence[int], by: int, allowed: Sequence[int]) -> None:
        """A claim by seat ``by`` that the card in each of ``slots`` is one of ``allowed``, proven
        in zero knowledge (SPEC.md 5.7): every seat calls it at the same operation; it returns
        once every slot's proof has verified, and nobody learns more than the claim. At seat
        ``by`` a claim it cannot prove (a slot whose card it does not know, a card not in
        ``allowed``) raises ``ValueError`` before anything is sent."""
        self._check_slots(slots)
        allowed_l = list(allowed)
        if not slots or not is_int(by) or not 0 <= by < self.n or not allowed_l \
                or any(not is_int(v) or not 0 <= v < self.params.n_cards for v in allowed_l) \
                or allowed_l != sorted(set(allowed_l)):
            raise ValueError(f"bad claim: slots {list(slots)!r}, by {by!r}, in {allowed_l!r}")
        if by == self.seat:
            for s in slots:
                if self.plain[s] is None:
                    raise ValueError(f"seat {by + 1} does not know the card in slot {s}")
                if self.plain[s] not in allowed_l:
                    raise ValueError(f"slot {s} holds card {self.plain[s]}, not one of {allowed_l}")
        desc = descriptor("prove", slots=list(slots), by=by, **{"in": allowed_l})
        await self._run(desc, self._prove_op)

    async def random(self, n: int) -> int:
        """A joint random integer in ``[0, n)`` (commit-reveal). A seat that withholds its reveal
        is named and the deck stops: no value is ever drawn again."""
        if not 0 < n < 2**64:
            raise ValueError("random(n) needs 1 <= n < 2^64")
        return await self._run(descriptor("random", n=n), self._random_op)

    async def finish(self) -> bytes:
        """The end-of-game step: every seat publishes the digest of the public deck record, and
        every seat checks they are all the same. Reveals nothing. The deck is closed afterwards."""
        digest = await self._run(descriptor("end"), self._end_op)
        self.closed = True
        return digest

    def record(self) -> dict[str, Any]:
        """The public record: the parameters and every deck message this peer sent or received
        (``[sender, body]``), by operation. ``protocol.audit.audit`` checks it offline."""
        def op_of(b: dict[str, Any]) -> int:
            op = b.get("op")
            return op if isinstance(op, int) and not isinstance(op, bool) else -1
        msgs = sorted(enumerate(self._public), key=lambda x: (op_of(x[1][1]), x[0]))
        return {"params": self.params.to_json(), "messages": [[s, b] for _, (s, b) in msgs]}

    # ---- operation framework -------------------------------------------------------------------------
    def _check_slots(self, slots: Sequence[int]) -> None:
        if len(set(slots)) != len(slots) or any(not 0 <= s < self.params.n_cards for s in slots):
            raise ValueError(f"bad slots {list(slots)!r}")

    async def _shuffle(self, slots: Sequence[int], by: int | None, order: Sequence[int] | None
                       ) -> list[int | None]:
        self._check_slots(slots)
        self._order = None if order is None else [list(slots).index(s) for s in order]
        return await self._run(descriptor("shuffle", slots=list(slots), by=by), self._shuffle_op)

    async def _run(self, desc: dict[str, Any], body: Any) -> Any:
        if self.failed is not None:
            raise DeckClosed(self.failed.peer, self.failed.step, f"the deck failed: {self.failed}")
        if self.closed:
            raise DeckClosed(None, desc["kind"], "the deck is closed (the game ended)")
        if self.op == 0 and desc["kind"] != "key":
            await self.start()
        op = self.op
        self.op += 1
        self.ops.append(desc)
        try:
            for key in self._early.pop(op, ()):
                self._check_belongs(op, key[1], key[2], self._inbox[key])
            result = await body(op, desc)
        except DeckError as exc:
            if exc.op is None:
                exc.op = op
            self.failed = exc
            await self._send_abort(op, desc, exc)
            raise
        self.results.append({"op": op, **desc, "result": result})
        return result

    def _senders(self, op: int, desc: dict[str, Any], step: str) -> list[int]:
        if desc["kind"] == "shuffle":
            return self.pub.shufflers(desc)
        if step == "member":
            return [desc["by"]]
        return list(range(self.n))

    def _check_belongs(self, op: int, step: str, sender: int, body: dict[str, Any]) -> None:
        desc = self.ops[op]
        if not same_json(descriptor_of(body), desc):
            raise CheatDetected(sender, step, f"message describes another operation than {desc}", op)
        if sender not in self._senders(op, desc, step):
            raise CheatDetected(sender, step, f"unexpected {step} message for this operation", op)

    def _file(self, sender: int, body: Any) -> None:
        """File one received message (checks common to every message; SPEC.md "Envelope")."""
        problem = envelope_problem(body, sender, self.n)
        if isinstance(body, dict) and body.get("step") != "abort":
            self._public.append((sender, body))  # signed by its sender: evidence, even malformed
        if problem is not None:
            op = body.get("op") if isinstance(body, dict) else None
            step = body.get("step") if isinstance(body, dict) else None
            raise CheatDetected(sender, str(step), problem, op if isinstance(op, int) else None)
        op, step = body["op"], body["step"]
        if step == "abort":
            self._public.append((sender, body))
            self._aborts.setdefault(sender, body)
            return
        if op >= self.op + MAX_AHEAD:
            raise CheatDetected(sender, step, f"op {op} is too far ahead of this seat", op)
        key = (op, step, sender)
        if key in self._inbox:
            raise CheatDetected(sender, step, f"replayed message ({step} of op {op} already "
                                "received)", op)
        if op < self.op:
            self._check_belongs(op, step, sender, body)
        else:
            self._early.setdefault(op, []).append(key)
        self._inbox[key] = body

    async def _wait(self, op: int, step: str, sender: int) -> dict[str, Any]:
        key = (op, step, sender)
        if key in self._inbox:  # already filed (and checked on arrival)
            return self._inbox[key]
        return (await self._wait_any(op, step, [sender]))[1]

    async def _wait_any(self, op: int, step: str, senders: Sequence[int]
                        ) -> tuple[int, dict[str, Any]]:
        """The ``step`` message of the first of ``senders`` (in their order) already filed, else
        of the first of them to arrive: a seat checks what has come while it waits for the rest
        (on a LAN the receiver of an opening then checks the last share alone once it comes, not
        every share after the slowest one). A sender among them that aborted is named at once;
        nothing within ``timeout``: the first of them is named."""
        # the channel's clock, if it keeps one: a channel that stands its waits still while a
        # peer is away or unreached (the lobby's) counts only the time its waits ran, and a
        # deadline on the wall clock would name the peer waited on the moment a message from it
        # for another step, filed below, ended a long pause
        clock = getattr(self.ch, "clock", None) or asyncio.get_running_loop().time
        deadline = clock() + self.timeout
        while True:
            for j in senders:
                if (op, step, j) in self._inbox:
                    return j, self._inbox[op, step, j]
            for j in senders:
                if j in self._aborts:
                    a = self._aborts[j]
                    claimed = a.get("culprit")
                    # (a seat it blames must sit at this table: "blaming seat 100" is no one)
                    raise PeerAborted(j, claimed if is_int(claimed) and 0 <= claimed < self.n
                                      else None, step,
                                      str(a.get("reason"))[:200], op)
            remaining = deadline - clock()
            if remaining <= 0:
                raise DeckTimeout(senders[0], step, f"no {step} message within "
                                  f"{self.timeout:g} s", op)
            try:
                s, body = await self.ch.recv_from(TOPIC, senders, timeout=remaining,
                                                  awaiting=(op, step))
            except TimeoutError:
                continue
            self._file(s, body)

    async def _bcast(self, op: int, desc: dict[str, Any], step: str, /, **fields: Any) -> dict[str, Any]:
        """Broadcast this seat's message; returns what was actually published (the first message
        out, which differs only for an adversarial ``_outgoing``): the peer goes on from it."""
        body = envelope(op, desc, step, self.seat, **fields)
        out = self._outgoing(body)
        first = out[0][1] if out else body
        self._public.append((self.seat, first))
        for to, b in out:
            if to is None:
                await self.ch.broadcast(TOPIC, b)
            else:
                await self.ch.send(to, TOPIC, b)
        return first

    async def _send_abort(self, op: int, desc: dict[str, Any], exc: DeckError) -> None:
        body = envelope(op, desc, "abort", self.seat, culprit=exc.peer, about=exc.step,
                        reason=exc.reason[:500])
        self._public.append((self.seat, body))
        with contextlib.suppress(Exception):  # best effort: the table is stopping anyway
            await self.ch.broadcast(TOPIC, body)

    # ---- key shares -------------------------------------------------------------------------------------
    async def _key_op(self, op: int, desc: dict[str, Any]) -> None:
        me = self.seat
        _, fields = self.pub.make_key(self.secrets, me)
        await self._bcast(op, desc, "key", **fields)
        ys: list[Point | None] = [None] * self.n
        ys[me] = base_mul(self.x)
        self.pub.ys = list(ys)
        for j in range(self.n):
            if j != me:
                body = await self._wait(op, "key", j)
                ys[j] = self.pub.check_key(j, body)
                self.pub.ys[j] = ys[j]
        self.pub.set_keys(ys)  # type: ignore[arg-type]

    # ---- shuffle / reorder ---------------------------------------------------------------------------
    async def _shuffle_op(self, op: int, desc: dict[str, Any]) -> list[int | None]:
        S: list[int] = desc["slots"]
        by: int | None = desc["by"]
        m, me = len(S), self.seat
        cur = [self.pub.cts[s] for s in S]
        mine = False  # whether this seat published ``cur`` itself (then a wrong prev is provable)
        my_perm: list[int] | None = None
        order = self.pub.shufflers(desc)
        ahead: _Ahead | None = None
        for k, j in enumerate(order):
            if j == me:
                inp = vec_digest(cur)
                if by is None:
                    my_perm = self._permutation(op, inp, m)
                elif self._mix or self._order is None:
                    my_perm = self.secrets.permutation("mix", op, inp, m)
                else:
                    my_perm = self._order
                if by == me:
                    self.orders[op] = list(my_perm)
                made = await ahead.result(cur) if ahead is not None else None
                outs, fields = made if made is not None else await _work(
                    len(cur), self.pub.make_shuffle, self.secrets, op, me, cur, my_perm)
                sent = await self._bcast(op, desc, "shuffle", **fields)
                if sent["cts"] != fields["cts"]:  # (adversarial tests) go on from what was sent
                    outs = [(bytes.fromhex(a), bytes.fromhex(b)) for a, b in sent["cts"]]
                cur, mine = outs, True
            else:
                body = await self._wait(op, "shuffle", j)
                if by is None and m >= THREAD_MIN and k + 1 < len(order) and order[k + 1] == me:
                    ahead = self._prepare_ahead(op, body, m)
                try:
                    cur = await _work(len(cur), self.pub.check_shuffle, op, j, cur, body, mine)
                except BaseException:
                    if ahead is not None:
                        ahead.drop()  # the check failed: what was prepared is never used
                    raise
                mine = False
        old = [self.plain[s] for s in S]
        # a private reorder of one slot moves nothing (its proof shows the one card re-encrypted):
        # every seat that knew the card still does (the engine's re-encryption, SPEC 5.7)
        keep = by is not None and len(S) == 1
        self.pub.place(S, cur)
        for i, s in enumerate(S):
            if not keep:
                self.plain[s] = old[my_perm[i]] if by == me and my_perm is not None else None
        self._order, self._mix = None, False
        return [self.plain[s] for s in S]

    def _prepare_ahead(self, op: int, body: dict[str, Any], m: int) -> _Ahead | None:
        """Start this seat's own shuffle step on the outputs ``body`` claims, in a worker thread,
        while the proof of those outputs is being verified (on a LAN the next shuffler would
        otherwise verify, then prove, one after the other). Nothing is sent before the
        verification passes, and what was prepared is used only if the verified outputs are
        exactly the claimed ones; a malformed claim prepares nothing (the check will name it)."""
        claimed = _claimed_cts(body.get("cts") if isinstance(body, dict) else None, m)
        if claimed is None:
            return None
        perm = self._permutation(op, vec_digest(claimed), m)
        task = asyncio.ensure_future(asyncio.to_thread(
            self.pub.make_shuffle, self.secrets, op, self.seat, claimed, perm))
        return _Ahead(claimed, task)

    # ---- opening -------------------------------------------------------------------------------------
    async def _open_op(self, op: int, desc: dict[str, Any]) -> list[int] | None:
        S: list[int] = desc["slots"]
        to: list[int] = desc["to"]
        me = self.seat
        fields = (self.pub.make_shares(self.secrets, self.x, op, desc, me) if len(S) < THREAD_MIN
                  else await _work(len(S), self.pub.make_shares, self.secrets, self.x, op, desc, me))
        await self._bcast(op, desc, "shares", **fields)
        cur = [self.pub.cts[s] for s in S]
        got: dict[int, list[Point]] = {}
        if me in to:  # this seat's own share: only a receiver needs it (a plain one is published)
            got[me] = ([bytes.fromhex(d) for d in fields["shares"]] if fields["shares"] is not None
                       else [eg.share(self.x, ct) for ct in cur])
        got.update(await self._others_shares(op, desc))
        if me not in to:
            return None
        values: list[int] = []
        for i, s in enumerate(S):
            c = self.pub.decode(s, [got[j][i] for j in range(self.n)])
            if c is None:
                raise UndecodableCard(None, "shares", f"slot {s} opens to no card although every "
                                      "step was proven: a bug, not a cheat", op)
            values.append(c)
        for s, c in zip(S, values, strict=True):
            self.plain[s] = c
        return values

    async def _others_shares(self, op: int, desc: dict[str, Any]) -> dict[int, list[Point]]:
        """Every other seat's checked ``shares`` message of an opening or a claim: its plain
        shares, or the share it encrypted to this seat (decrypted), by seat."""
        n_slots, me = len(desc["slots"]), self.seat
        got: dict[int, list[Point]] = {}
        pending = [j for j in range(self.n) if j != me]
        while pending:  # in arrival order: what has come is checked while the rest comes
            j, body = await self._wait_any(op, "shares", pending)
            pending.remove(j)
            # (the slots are the public deck, which this seat did not publish alone: a wrong
            # prev names its sender once the mesh had its grace, SPEC.md 5.3)
            plain, enc = (self.pub.check_shares(op, desc, j, body, False) if n_slots < THREAD_MIN
                          else await _work(n_slots, self.pub.check_shares, op, desc, j, body, False))
            if plain is not None:
                got[j] = plain
            elif me in enc:
                got[j] = [eg.decode(e, [eg.share(self.x, e)]) for e in enc[me]]
        return got

    # ---- claims ------------------------------------------------------------------------------------
    async def _prove_op(self, op: int, desc: dict[str, Any]) -> None:
        """SPEC.md 5.7: the others' plain shares (the prover's message is empty), then the
        prover's membership proofs, which every other seat checks against the ``D_i`` it
        computes itself."""
        S: list[int] = desc["slots"]
        by, me = desc["by"], self.seat
        fields = self.pub.make_shares(self.secrets, self.x, op, desc, me)
        await self._bcast(op, desc, "shares", **fields)
        got = await self._others_shares(op, desc)
        if me != by:
            got[me] = [bytes.fromhex(d) for d in fields["shares"]]
        work = len(S) * len(desc["in"])
        if me == by:
            try:
                member = await _work(work, self.pub.make_member, self.secrets, self.x, op, desc, got)
            except ValueError:  # DeckPeer.prove refused a false claim: a bug
                # (the reason is broadcast with the abort: it names no card, which stays hidden)
                raise UndecodableCard(None, "member", f"this seat's own claim about slots {S} "
                                      "does not hold although it knew the cards (a bug)",
                                      op) from None
            await self._bcast(op, desc, "member", **member)
            return None
        body = await self._wait(op, "member", by)
        # (the slots are the public deck, which this seat did not publish alone: a wrong prev
        # names the prover once the mesh had its grace, SPEC.md 5.3)
        await _work(work, self.pub.check_member, op, desc, body, got, False)
        return None

    # ---- joint randomness ----------------------------------------------------------------------------
    async def _random_op(self, op: int, desc: dict[str, Any]) -> int:
        me, n = self.seat, self.n
        nonce, mine = make_commit(self.params, self.secrets, op, desc, me)
        commits: list[bytes] = [b""] * n
        commits[me] = mine
        await self._bcast(op, desc, "commit", commit=mine.hex())
        for j in range(n):
            if j != me:
                commits[j] = self.pub.check_commit(op, j, await self._wait(op, "commit", j))
        self.pub.commits_seen.update(commits)
        await self._bcast(op, desc, "reveal", nonce=nonce.hex(), echo=[c.hex() for c in commits])
        nonces: list[bytes] = [b""] * n
        nonces[me] = nonce
        for j in range(n):
            if j != me:
                body = await self._wait(op, "reveal", j)
                nonces[j] = self.pub.check_reveal(op, j, body, commits, me)
        return random_value(self.params, op, desc["n"], nonces)

    # ---- end of game ---------------------------------------------------------------------------------
    async def _end_op(self, op: int, desc: dict[str, Any]) -> bytes:
        mine = record_digest([b for _, b in self._public if b["op"] < op and b["step"] != "abort"])
        # (every message filed before this operation passed its checks: the record is well formed)
        await self._bcast(op, desc, "end", digest=mine.hex())
        for j in range(self.n):
            if j != self.seat:
                body = await self._wait(op, "end", j)
                if body["digest"] != mine.hex():
                    raise CheatDetected(j, "end", "its digest of the public deck record differs "
                                        "from this seat's (every message is broadcast and signed, "
                                        "so an honest seat holds the same record)", op)
        return mine


__all__ = ["DESC_FIELDS", "DeckPeer"]
