"""Transport: the sockets, sending (envelopes and signed control messages), the receive loop and the
dispatch of control messages."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Any

import zmq
import zmq.asyncio

from ..channel import CLAIM_WINDOW, ChannelClosed
from ..envelope import (
    MAX_ITEMS,
    Message,
    b64,
    box_key,
    canonical,
    ctl_signature_problem,
    envelope_hash,
    is_int,
    json_items,
    parse_canonical,
    seal,
)
from .budget import (
    CTL_BUDGETS,
    MAX_PARTS,
    SMALL_CTL_BYTES,
    SMALL_CTL_ITEMS,
    UNAUTH_MAX_ITEMS,
    Bucket,
    one_line,
    short,
)
from .channel import _CLOSED
from .common import (
    CTL_DOMAIN,
    K_CTL,
    K_ENV,
    K_HS,
    K_RELAY,
    log,
)
from .echo import echo_tag

# the end of a canonical control message of a kind that carries envelopes: its keys are sorted,
# so ``t``, ``table`` and ``to`` come last, and a string holds no bare quote
BIG_CTL = re.compile(rb',"t":"(?:evidence|proof|stop)","table":"[0-9a-f]{32}","to":[0-9]{1,6}\}')


def _waiting_frame(sock: zmq.asyncio.Socket) -> zmq.Frame | None:
    """The socket's next frame if one is waiting, read at once (``None`` if none is, or the
    socket is closed: the caller then awaits it as usual). pyzmq's asyncio ``recv`` costs a
    future, an event registration and a few flag operations per frame: measured on a busy
    four-seat table, a sixth of the whole process's CPU went to reading frames that were
    already there. Reading through the socket's synchronous twin (``_shadow_sock``, what pyzmq
    itself reads with) is the same read without that; the asyncio socket still waits for the
    next frame when none is there. Only ``_recv_loop`` reads the ROUTER, so nothing awaiting
    a frame is passed over."""
    if sock.closed:
        return None
    try:
        return sock._shadow_sock.recv(zmq.DONTWAIT, copy=False)
    except zmq.Again:
        return None


class TransportMixin:
    #: the failed write of this seat's transcript that stopped this program, if one did
    record_lost: OSError | None = None

    def _inbox(self, topic: str) -> asyncio.Queue[Any]:
        q = self._inboxes.get(topic)
        if q is None:
            q = self._inboxes[topic] = asyncio.Queue()
        return q

    async def _send(self, to: int | None, topic: str, body: Message) -> None:
        st = self.stopped
        if st is not None and not (st.claimed is not None and st.by != self.seat
                                   and time.monotonic() < st.at + CLAIM_WINDOW):
            # in another's claim's window this program still plays (its move may be the one a
            # clock is waiting for: an on-time move must not be held back by a bare word)
            raise st
        if self.closed:
            raise ChannelClosed()
        if not isinstance(topic, str) or not 0 < len(topic) <= 64:
            raise ValueError("a topic is a string of 1 to 64 characters")
        if not isinstance(body, dict):
            raise ValueError("a message body must be a dict")
        if json_items(canonical(body)) > MAX_ITEMS - 64:  # what every receiver refuses unparsed
            raise ValueError(f"a message body holds more than {MAX_ITEMS - 64} items")
        if not self._full.is_set():
            await self._full.wait()
        if self.replay.match(topic, to, body):
            return
        self._send_env(to, topic, body)

    def _send_env(self, to: int | None, topic: str, body: Message) -> Message:
        """Seal, record, then send one envelope to every other peer (synchronously)."""
        assert self.verifier is not None
        chain = self.verifier.chains[self.seat]
        key = self._box_key(self.seat, to) if to is not None else None
        # what this program holds, stated (``heads``) unless a re-run after a crash is to make
        # this envelope again byte for byte (``remade_topics``): it would hold other things then
        remade = self.remade_topics is not None and to is None and topic in self.remade_topics
        env = seal(
            self.identity, self.table, self.seat, chain.seq + 1, chain.head, topic, body, to, key,
            heads=None if remade else self._stated_heads(),
        )
        h = envelope_hash(env)
        self.verifier.append(env, h)
        self._write({"type": "out", "env": env})
        if self.remade_topics is not None and not remade \
                and self.transcript is not None and not self.transcript.closed:
            self.transcript.sync()  # on disk before anyone holds it (``remade_topics``)
        self._sent_at.append(time.monotonic())
        frame = canonical(env)
        self._held_wire.add(self._wire_digest(frame))
        for s in self._members:
            if s != self.seat:
                self._send_frames(s, [K_ENV, frame])
        return env

    def _box_key(self, sender: int, recipient: int) -> bytes:
        k = self._box_keys.get((sender, recipient))
        if k is None:
            other = recipient if sender == self.seat else sender
            k = box_key(
                self.identity,
                self._members[other].key,
                self._members[sender].key,
                self._members[recipient].key,
                self.table,
            )
            self._box_keys[(sender, recipient)] = k
        return k

    def _send_frames(self, seat: int, frames: list[bytes]) -> None:
        sock = self._dealers.get(seat)
        if sock is not None and not self.closed:
            self._send_now(sock, frames)

    def _send_now(self, sock: zmq.asyncio.Socket, frames: list[bytes]) -> None:
        """Non-blocking send; at the high-water mark the message is dropped (the transcript and
        the catch-up protocol make up for it)."""
        try:
            fut = sock.send_multipart(frames, flags=zmq.DONTWAIT)
        except zmq.ZMQError as e:
            log.debug("seat %d: send failed: %s", self.seat, e)
            return
        if fut.done():
            exc = fut.exception()
            if isinstance(exc, zmq.Again):
                log.debug("seat %d: high-water mark reached, message dropped for now", self.seat)
            elif exc is not None:
                log.debug("seat %d: send failed: %s", self.seat, exc)

    def _send_ctl(self, seat: int, t: str, payload: Message) -> None:
        self._send_signed_ctl(seat, self._sign_ctl(seat, t, payload))

    def _send_signed_ctl(self, seat: int, msg: Message) -> None:
        self._send_frames(seat, [K_CTL, canonical(msg)])

    def _sign_ctl(self, seat: int, t: str, payload: Message) -> Message:
        """A control message to ``seat``, signed; sent by ``_send_signed_ctl`` (a stop is kept
        in the transcript as signed before it is sent)."""
        assert not {"t", "table", "from", "to", "sess", "boot", "ctr", "sig"} & set(payload)
        self._ctr += 1
        msg = {
            "t": t,
            "table": self.table,
            "from": self.seat,
            "to": seat,  # named: one captured on its way to another seat is refused here
            "sess": self._sess,
            "boot": self._boot,
            "ctr": self._ctr,
            **payload,
        }
        msg["sig"] = b64(self.identity.sign(CTL_DOMAIN + canonical(msg)))
        self._note_signed(echo_tag(msg["sig"]))  # an echo of it shows when it was heard
        return msg

    def _write(self, record: Message) -> None:
        if self.transcript is not None and not self.transcript.closed:
            self.transcript.write(record)

    # -- receiving ---------------------------------------------------------------------------

    async def _recv_loop(self) -> None:
        """Read the ROUTER one message at a time, yielding to the other tasks after each: pyzmq
        hands back finished futures while messages wait, so without the yield a flood of traffic
        would starve the table and the deck."""
        sock = self.router
        while True:
            first = _waiting_frame(sock)
            if first is None:
                first = await sock.recv(copy=False)
            try:
                await self._read_message(sock, first)
            except OSError as exc:
                if self.transcript is None or exc is not self.transcript.failed:
                    log.exception("seat %d: error handling a frame", self.seat)
                else:
                    self._record_lost(exc)
            except Exception:  # a bug must not take the peer down
                log.exception("seat %d: error handling a frame", self.seat)
            await asyncio.sleep(0)

    def _record_lost(self, exc: OSError) -> None:
        """This seat's transcript cannot be written (a full or read-only disk): a message
        taken in now would be played but not kept, so this program stops playing -- whoever
        waits on the table's channel gets ``exc`` (``record_lost``) -- and its seat is kept for
        ``join --resume`` once the disk has room (red team 18: the frame was dropped with a
        line in the log, and the seat waited for it for ever)."""
        if self.record_lost is None:
            self.record_lost = exc
            log.error("seat %d: cannot write the transcript: %s", self.seat, exc)
            for q in self._inboxes.values():
                q.put_nowait(_CLOSED)

    async def _read_message(self, sock: zmq.asyncio.Socket, first: zmq.Frame) -> None:
        rid = first.bytes
        parts: list[bytes] = []
        n, size, more = 1, 0, first.more
        while more:
            # a message's frames arrive together (ZeroMQ delivers a message whole), so the rest
            # are read at once, without a future each
            f = _waiting_frame(sock)
            if f is None:  # (an empty frame is a frame: not ``or``)
                f = await sock.recv(copy=False)
            more = f.more
            n += 1
            size += len(f)
            if n <= MAX_PARTS:
                parts.append(f.bytes)
            elif n % 4096 == 0:
                await asyncio.sleep(0)  # a message of a million parts does not freeze us
        now = time.monotonic()
        if n > MAX_PARTS:
            self.budgets.dropped += 1
            self._drop(f"a message of {n - 1} frames (at most {MAX_PARTS - 1})")
            return
        try:  # the connection's remote address: strangers' connections share its budget
            source = first.get("Peer-Address")
        except (zmq.ZMQError, AttributeError):
            source = ""
        why = self.budgets.admit(rid, parts[0] if parts else b"", size, now, source)
        if why is not None:
            self._drop(why, logging.DEBUG)
            self._log_over_budget(now)
            return
        self._on_frames([rid, *parts])

    def _log_over_budget(self, now: float) -> None:
        last = getattr(self, "_budget_logged", 0.0)
        if now - last >= 5.0:
            self._budget_logged = now
            log.warning(
                "seat %d: dropping traffic over budget (%d messages so far)",
                self.seat,
                self.budgets.dropped,
            )

    def _drop(self, reason: str, level: int = logging.WARNING) -> None:
        budget = self._log_budget
        now = time.monotonic()
        budget[0] = min(20.0, budget[0] + (now - budget[1]) * 10)
        budget[1] = now
        if budget[0] >= 1 or level < logging.WARNING:
            budget[0] -= 1 if level >= logging.WARNING else 0
            if len(reason) > 240:
                reason = reason[:239] + "…"
            log.log(level, "seat %d dropped a message: %s", self.seat, reason)

    def _on_frames(self, frames: list[bytes]) -> None:
        rid, parts = frames[0], frames[1:]
        if len(parts) != 2:
            self._refused_frame(rid, f"expected 2 frames (kind, payload), got {len(parts)}")
            return
        kind, data = parts
        if kind in (K_ENV, K_RELAY):
            self._on_env(data, direct=kind == K_ENV, rid=rid)
        elif kind == K_CTL:
            self._on_ctl(data, rid)
        elif kind == K_HS:
            if self.verifier is None:
                return
            if self.budgets.seat_of(rid) is not None:
                # a joiner's connection is seated by its first signed control message, after its
                # handshake: one that proved a seat has no handshake left to make (red team 16a:
                # a seat replayed its join at 4,000 a second, each a cookie, two signature checks
                # and a signed welcome, 0.9 ms: a core's worth, nobody named)
                self._refused_frame(rid, "a handshake message on a connection that proved a seat")
                return
            now = time.monotonic()
            conn = self.budgets.get(rid) or self.budgets.conn(rid, now)
            if not conn.hellos.take(1, now):  # a hello and its join: one of each per joiner
                self._drop("a handshake message over the handshake budget", logging.DEBUG)
                return
            try:
                msg = parse_canonical(data, "handshake", UNAUTH_MAX_ITEMS)
            except ValueError as e:
                self._drop(str(e))
                return
            if msg.get("t") == "hello":
                self._on_hello(rid, msg)
            elif msg.get("t") == "join":
                self._on_join(rid, msg)
            else:
                self._drop(f"unexpected handshake message {short(msg.get('t'))}")
        else:
            self._refused_frame(rid, f"unknown frame kind {kind[:16]!r}")

    def _on_ctl(self, data: bytes, rid: bytes | None = None) -> None:
        if self.verifier is None:
            return
        # a connection that has not proven a seat yet: only as much as a link or heads needs;
        # a seat's: as much as its kind needs (``SMALL_CTL_BYTES``), told by its tail unparsed
        items = UNAUTH_MAX_ITEMS
        if self.budgets.seat_of(rid) is not None:
            items = MAX_ITEMS if BIG_CTL.fullmatch(data, max(0, data.rfind(b',"t":"'))) \
                else SMALL_CTL_ITEMS
            if items == SMALL_CTL_ITEMS and len(data) > SMALL_CTL_BYTES:
                self._refused_frame(rid, f"a control message of {len(data):,} bytes, not of a "
                                    "kind that carries envelopes")
                return
        try:
            msg = parse_canonical(data, "control message", items)
            seat = msg.get("from")
            if (
                not is_int(seat)
                or not isinstance(msg.get("t"), str)
            ):
                raise ValueError("control message without a sender or type")
            if msg.get("table") != self.table:
                raise ValueError(
                    f"control message for another table {str(msg.get('table'))[:40]!r}"
                )
            if not (
                isinstance(msg.get("sess"), str)
                and is_int(msg.get("boot"))
                and is_int(msg.get("ctr"))
            ):
                raise ValueError("control message without session and counter")
        except ValueError as e:
            self._refused_frame(rid, str(e))
            return
        member = self._members.get(seat)
        if member is None or seat == self.seat:
            if self.budgets.seat_of(rid) is None:  # a newcomer's, racing its seating
                self._drop(f"control message from unknown seat {seat}", logging.DEBUG)
            else:
                self._refused_frame(rid, f"a control message from unknown seat {seat}")
            return
        problem = ctl_signature_problem(msg, member.key)
        if problem is not None:
            self._refused_frame(rid, f"a control message with {problem} for seat {seat}")
            return
        if msg.get("to") != self.seat:
            self._refused_frame(rid, f"a control message from seat {seat} addressed to "
                                "another seat")
            return
        if not self._fresh(seat, msg):
            self._refused_frame(rid, f"a replayed control message from seat {seat}")
            return
        if rid is not None:
            self.budgets.promote(rid, seat, time.monotonic())
        t = msg["t"]
        if not self._ctl_allowed(seat, t, msg):
            return
        try:
            if t == "bye":
                try:
                    if "heads" in msg:  # what it held as it left, compared like any heads
                        self._on_heads(seat, {"heads": msg["heads"]})
                finally:  # a leave is a leave, even with heads we cannot read
                    self._mark_away(seat, left=True)
                return
            self._heard(seat)
            if t == "heads":
                self._on_heads(seat, msg)
            elif t == "link":
                self._on_link(seat, msg)
            elif t == "roster":
                self._on_roster(seat, msg)
            elif t == "want":
                self._on_want(seat, msg)
            elif t == "proof?":
                self._on_proof_request(seat, msg)
            elif t == "proof":
                self._on_proof(seat, msg)
            elif t == "evidence":
                self._on_evidence(seat, msg)
            elif t == "vouch":
                self._on_vouch(seat, msg)
            elif t == "stop":
                self._on_stop(seat, msg)
            else:
                self._useless(seat, f"a control message of no known kind ({one_line(t, 40)})")
        except (KeyError, TypeError, ValueError, IndexError) as e:
            self._useless(seat, f"a malformed {one_line(t, 40)} ({one_line(e, 100)})")

    def _ctl_allowed(self, seat: int, t: str, msg: Message) -> bool:
        """Whether ``seat`` may send us one more control message of kind ``t`` (``CTL_BUDGETS``,
        a heads asking an answer counted on its own): one over its kind's budget is dropped
        unread and charged as doing nothing (``_useless``), so a seat flooding any kind is named
        within a second."""
        kind = "heads?" if t == "heads" and (msg.get("reply") is True or "cp" in msg) else t
        budget = CTL_BUDGETS.get(kind)
        if budget is None:
            return True  # an unknown kind: charged when it is read
        now = time.monotonic()
        buckets = self._ctl_budget.setdefault(seat, {})
        bucket = buckets.get(kind)
        if bucket is None:
            bucket = buckets[kind] = Bucket(*budget, now)
        if bucket.take(1, now):
            return True
        self._useless(seat, f"more {kind} messages than an honest program sends "
                      f"({budget[0]:g} a second)")
        return False

    def _fresh(self, seat: int, msg: Message) -> bool:
        sess, boot, ctr = msg["sess"], msg["boot"], msg["ctr"]
        cur = self._ctl_state.get(seat)
        if cur is None or (sess != cur[0] and boot > cur[1]) or (sess == cur[0] and ctr > cur[2]):
            self._ctl_state[seat] = (sess, boot, ctr)
            self._ctl_tag[seat] = echo_tag(msg["sig"])  # what our heads echo of it
            return True
        return False
