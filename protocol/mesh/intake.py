"""The intake of envelope bytes: what a program does with each envelope frame before the chain
accepts it (``ChainMixin._accept``). A copy of one held is found on its bytes, what can be
refused is refused on its bytes (``prefilter``), the rest is parsed and classified; an envelope
from ahead of a gap waits in a bounded buffer; and what a seat's connection sends that an
honest program never sends (copies, refused envelopes) is charged to that seat, which is named
past its budget (``COPIES``, ``REJECTS``)."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable

from ..envelope import (
    DUPLICATE,
    FUTURE,
    NEW,
    EnvelopeError,
    Equivocation,
    canonical,
    parse_canonical,
)
from . import prefilter
from .budget import COPIES, MAX_FUTURE_BYTES, REJECTS, USELESS, Bucket, held_cost, one_line
from .common import MAX_BATCH, MAX_FUTURE

#: how many of our heads' invitations to a seat are kept, and for how long (``_invite``)
INVITES = 64
INVITE_S = 30.0
# a carrier replaced as ``via`` by a holder we asked stands aside this many ``resend_after``
# (a minute at a real table): ``IntakeMixin._new_via``
VIA_DEMOTED = 60


class IntakeMixin:
    def _on_env(self, data: bytes, direct: bool, rid: bytes | None = None) -> None:
        if self.verifier is None:
            return
        # A copy of an envelope we already hold is found on its bytes, before it is parsed or
        # its signature checked (2.5 ms for a 42 KB one: a seat resending one of its own 700
        # times a second took a core of ours and slowed the table 4x). Different bytes for a
        # seq we hold go the full way below: that may be an equivocation.
        wire = self._wire_digest(data)
        if wire in self._held_wire:
            self._drop("duplicate envelope (the bytes of one this program holds: a replay, or a "
                       "resend we no longer need)", logging.INFO)
            self._copy_from(rid, data)
            return
        # Then what can be refused without parsing: the header at the envelope's end, and its
        # signature over the bytes as they came (red team 8: copies with one signature
        # character changed, or one space added, were parsed in full and went uncounted).
        why = prefilter.problem(data, wire, self.verifier, self.budgets.seat_of(rid),
                                self._held_unsigned)
        if why is prefilter.HELD:
            self._held_wire.add(wire)
            self._drop("duplicate envelope (one this program holds)", logging.INFO)
            self._copy_from(rid, data)
            return
        if why is not None:
            self._rejected(rid, why)
            return
        try:
            env = parse_canonical(data, "envelope")
            status, h = self.verifier.classify(env)
        except Equivocation as e:
            self._equivocation(e.seat, e.first, e.second, e.reason)
            return
        except (ValueError, EnvelopeError) as e:
            self._rejected(rid, e.reason if isinstance(e, EnvelopeError) else str(e))
            return
        sender = env["from"]
        if status == DUPLICATE:  # checked against what we hold: its bytes are known from now on
            self._held_wire.add(wire)
            self._copy_from(rid, data)
        if sender == self.seat:
            if status != DUPLICATE:
                self._drop(f"an envelope of our own seat we never sent (seq {env['seq']})")
            return
        if status == DUPLICATE:
            self._drop(
                f"duplicate envelope seat {sender} seq {env['seq']} (a replay, or a resend we no longer need)",
                logging.INFO,
            )
            return
        # Presence: a new envelope that came straight from its author. Anyone can forward a signed
        # envelope, and as a direct frame too: only a connection that proved it is the author's
        # (its own fresh control message on it, ``_on_ctl``) says the author is there, and only
        # with the next envelope of its chain -- one ahead of a gap, or one already buffered, is
        # no news from it (a forwarder sent alice one of bob's later envelopes again and again,
        # while withholding the one she lacked: alice held bob present, her clocks ran, and she
        # named him). Nor does an envelope seat a connection: that takes a control message.
        if direct and status == NEW and self.budgets.seat_of(rid) == sender:
            self._heard(sender)
        if status == FUTURE:
            buf = self._future[sender]
            earlier = buf.get(env["seq"])
            if earlier is not None:  # one is buffered at that number already
                if earlier[1] != h:  # two signed envelopes numbered alike: an equivocation
                    self._equivocation(sender, earlier[0], env, f"seat {sender + 1} signed two "
                                       f"different envelopes with seq {env['seq']}")
                else:
                    self._copy_from(rid, data)  # a copy of one we hold, ahead of a gap
                return
            size = held_cost(data)
            held = self._future_bytes.get(sender, 0)
            if len(buf) < MAX_FUTURE and held + size <= MAX_FUTURE_BYTES:
                buf[env["seq"]] = (env, h)
                self._future_bytes[sender] = held + size
            elif self.budgets.seat_of(rid) == sender:
                # from its author, more ahead of a gap than a whole match holds (a match is a
                # few hundred envelopes, 2 MB, a seat): each was parsed for nothing. A relay
                # is not charged: it may forward an author's long, valid chain
                self._rejected(rid, f"more of seat {sender + 1}'s messages ahead of one this "
                               "program lacks than a whole match holds")
                return
            self._known_max[sender] = max(self._known_max[sender], env["seq"])
            self._check_behind(sender, time.monotonic())
            return
        via = self.budgets.seat_of(rid)
        if via is not None and via != sender:  # the first copy came from a relay: its carrier
            self._new_via(sender, via)
            stated = env.get("heads")  # what it held of ours when it signed this (``carried``)
            seqs = stated.get("seqs") if isinstance(stated, dict) else None
            if isinstance(seqs, list) and len(seqs) == self.seats:
                # evidence only once the heads are what we hold (``_stated_carrier``): a seq of
                # ours stated ahead of what it held is no proof it heard us (red team 27)
                self._stated_carrier(sender, via, stated)
        self._accept(env, h, data)
        buf = self._future.get(sender)
        while buf:
            nxt = buf.pop(self.verifier.chains[sender].seq + 1, None)
            if nxt is None:
                break
            self._future_bytes[sender] = max(
                0, self._future_bytes.get(sender, 0) - held_cost(canonical(nxt[0]))
            )
            try:
                status, h = self.verifier.classify(nxt[0])
            except Equivocation as e:
                self._equivocation(e.seat, e.first, e.second, e.reason)
                break
            except EnvelopeError as e:
                self._drop(f"buffered envelope rejected: {e}")
                break
            if status == NEW:
                self._accept(nxt[0], h)
        if buf:  # drop what the chain has passed (it came another way), and its cost
            for seq in [q for q in buf if q <= self.verifier.chains[sender].seq]:
                self._future_bytes[sender] = max(
                    0, self._future_bytes.get(sender, 0) - held_cost(canonical(buf.pop(seq)[0])))
        if not buf:
            self._future_bytes.pop(sender, None)

    @staticmethod
    def _wire_digest(data: bytes) -> bytes:
        return hashlib.sha256(data).digest()

    def _held_unsigned(self, seat: int, seq: int) -> bytes:
        """``prefilter.unsigned_digest`` of the envelope we hold at ``seat``'s ``seq``, kept
        once asked (a flood of re-signed copies asks again and again)."""
        assert self.verifier is not None
        h = self.verifier.chains[seat].hash_at(seq)
        d = self._unsigned_digests.get(h)
        if d is None:
            env = self.verifier.chains[seat].get(seq)
            assert env is not None
            d = self._unsigned_digests[h] = prefilter.unsigned_digest(env)
        return d

    def _rejected(self, rid: bytes | None, reason: str) -> None:
        """An envelope that came on connection ``rid`` was refused for ``reason``: charged to the
        seat that connection proved it is (an honest program sends none); a seat past
        ``REJECTS`` floods and is named. Before every seat is known, an envelope of a seat we
        hold no key for may be a newcomer's, racing its seating: not charged."""
        unknown = reason.endswith("has no key yet") and not self._full.is_set()
        self._drop(f"envelope rejected: {reason}", logging.DEBUG if unknown else logging.WARNING)
        if not unknown:
            self._charge_refused(rid, reason)

    def _refused_frame(self, rid: bytes | None, reason: str) -> None:
        """A frame that came on connection ``rid`` and that no honest program sends there was
        refused for ``reason`` -- a handshake message on a connection that proved a seat, a
        frame of an unknown kind, a control message that is malformed, of another table or
        seat, badly signed, addressed to another seat or replayed: charged like a refused
        envelope to the seat that connection proved it is (``REJECTS``). Before, each was
        dropped uncounted after its parse and often a signature check (0.2-0.9 ms; 8.6 ms for
        64 KB of 28,000 values): a seat sending them at its connection's 4,000 a second kept a
        peer's program at a whole core for good, and nobody was named (red team 16a). A seat
        that changes hands before the deal has its connections unseated (``Budgets.unseat``),
        so nothing of its former player's is charged to the next one."""
        self._drop(reason)
        self._charge_refused(rid, reason)

    def _charge_refused(self, rid: bytes | None, reason: str) -> None:
        self._charge(rid, self._rejects, self._reject_budget, REJECTS, lambda who, n: (
            f"{who} sent {n:,} messages this program had to refuse (forged, damaged or not "
            f"of this table; the last: {one_line(reason, 100)}): an honest program sends "
            "none (a flood)"))

    def _new_via(self, sender: int, via: int) -> None:
        """``via``'s relay brought us ``sender``'s next envelope first: it becomes the seat our
        heads name for ``sender`` (``via``: it pushes, and is asked first) if we had none, or
        the one we had is away; or if we asked ``via`` for it (the holder last asked), and then
        the one it replaces stands aside for ``VIA_DEMOTED`` asks' time: it held back what it
        carried. A relay nobody asked for does not unseat the carrier we have, nor does a
        carrier that stood aside come back at once: a seat that relayed every other envelope
        the moment it held it, ahead of the carrier's push on its tick, and held back the rest,
        was named ``via`` again and again, the carrier stood aside, and each envelope held back
        waited for an ask (red team 21: p90 280-380 ms late in the tests' timings, not 35)."""
        cur = self._via.get(sender)
        if cur == via:
            return
        now = time.monotonic()
        if cur is None or cur in self.away:
            self._via[sender] = via
            return
        asked = self._asked_holder.get(sender)
        if asked is not None and asked[0] == via and \
                self._via_demoted.get((sender, via), 0.0) <= now:
            self._via[sender] = via
            self._via_demoted[(sender, cur)] = now + VIA_DEMOTED * self.timings.resend_after

    def _copy_from(self, rid: bytes | None, data: bytes) -> None:
        """One more copy of an envelope we already held (``data``, its bytes) came on connection
        ``rid``: charged to the seat that connection proved it is; a seat past ``COPIES`` floods
        and is named. A seat we asked for envelopes (``want``) is excused as many as we asked
        for, for a while, if they are of the chain and in the range we asked for: what it sends
        may cross what their author's own connection brought meanwhile. (Round 11 excused any
        copy: heads that lied about a chain earned a seat 10x its budget of copies of others.)"""
        seat = self.budgets.seat_of(rid) if rid is not None else None
        asked = self._excused.get(seat) if seat is not None else None
        invited = self._invited.get(seat) if seat is not None else None
        if asked or invited:
            i = data.rfind(b',"from":')
            m = prefilter.TAIL.fullmatch(data, i) if i > 0 else None
            s = int(m["from"]) if m is not None else None
            excused = asked.get(s) if asked and s is not None else None
            now = time.monotonic()
            if excused is not None:
                start, end, left, until = excused
                if left > 0 and now < until:
                    if start <= int(m["seq"]) <= end:
                        asked[s] = (start, end, left - 1, until)
                        return
                else:
                    del asked[s]
            if invited and s == seat:  # its own, answering our heads
                seq = int(m["seq"])
                for k, (start, end, left, until) in enumerate(invited):
                    if left > 0 and now < until and start <= seq <= end:
                        invited[k] = (start, end, left - 1, until)
                        return
        self._charge(rid, self._copies, self._copy_budget, COPIES, lambda who, n: (
            f"{who} sent {n:,} copies of messages this program already held (a flood)"))

    def _excuse(self, target: int, s: int, first: int, end: int, now: float) -> None:
        """Copies from ``target`` of ``s``'s envelopes ``first``..``end`` are excused, as many
        as that (at most ``2 MAX_BATCH`` at once), for ``5 resend_after + 2`` seconds."""
        asked = self._excused.setdefault(target, {})
        lo, hi, left, until = asked.get(s, (first, end, 0, 0.0))
        if until <= now:
            lo, hi, left = first, end, 0
        asked[s] = (min(lo, first), max(hi, end), min(left + end - first + 1, 2 * MAX_BATCH),
                    now + 5 * self.timings.resend_after + 2.0)

    def _invite(self, seat: int, theirs: int) -> None:
        """Our heads to ``seat`` say we hold its chain up to ``theirs``: an honest program
        answers with its envelopes after that, up to ``MAX_BATCH``, once per heads that shows
        another ``theirs`` or once per ``resend_after`` (``_resend_own``). When we are only slow
        (its envelopes wait unread in our queue), those cross the originals and arrive as
        copies: they are excused, up to what our heads invited. Before, a seat chatting fast to
        a loaded machine was named for its own resends ("carol sent 5,179 copies ...")."""
        now = time.monotonic()
        last = self._last_invite.get(seat)
        if last is not None and last[0] == theirs and now - last[1] < self.timings.resend_after:
            return
        self._last_invite[seat] = (theirs, now)
        # Each invitation on its own (a range, a count): merged, a stale one's low end would be
        # refilled by every later heads, and a seat flooding copies of an envelope we held then
        # would be excused for good. Kept for a while (its answer waits in our queue as long as
        # we are behind): the last ``INVITES`` of them, for ``INVITE_S`` seconds.
        until = now + max(INVITE_S, 5 * self.timings.resend_after + 2.0)
        invited = [i for i in self._invited.get(seat, []) if i[2] > 0 and i[3] > now]
        self._invited[seat] = [*invited[1 - INVITES:], (theirs + 1, theirs + MAX_BATCH,
                                                         MAX_BATCH, until)]

    def _useless(self, seat: int, what: str) -> None:
        """A control message ``seat`` signed did nothing (``what``, in words): dropped, and
        charged like a refused envelope (an honest program sends none); a seat past ``USELESS``
        floods and is named."""
        self._drop(f"a control message from seat {seat} that does nothing: {what}")
        self._charge_seat(seat, self._useless_ctl, self._useless_budget, USELESS,
                          lambda who, n: (
                              f"{who} sent {n:,} control messages that do nothing (the last: "
                              f"{one_line(what, 100)}): an honest program sends none (a flood)"))

    def _charge(self, rid: bytes | None, counts: dict[int, int], buckets: dict[int, Bucket],
                budget: tuple[float, float], words: Callable[[str, int], str]) -> None:
        """One more of something an honest program sends little or none of, on connection
        ``rid``: counted for the seat that connection proved it is (``_charge_seat``). A
        connection without a seat is held to the strangers' budget instead."""
        seat = self.budgets.seat_of(rid) if rid is not None else None
        if seat is not None:
            self._charge_seat(seat, counts, buckets, budget, words)

    def _charge_seat(self, seat: int, counts: dict[int, int], buckets: dict[int, Bucket],
                     budget: tuple[float, float], words: Callable[[str, int], str]) -> None:
        """One more of something an honest program sends little or none of, from ``seat``:
        counted against its ``budget`` (rate, burst); past it the seat is named, in
        ``words(name, count)``. (A stop naming nobody that came first is upgraded.)"""
        if seat == self.seat:
            return
        now = time.monotonic()
        n = counts[seat] = counts.get(seat, 0) + 1
        bucket = buckets.get(seat)
        if bucket is None:
            bucket = buckets[seat] = Bucket(*budget, now)
        if not bucket.take(1, now):
            self.stop(seat, words(self.name_of(seat), n))
