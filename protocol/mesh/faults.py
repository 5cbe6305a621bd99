"""Proof and blame: asking a holder to show an envelope, evidence of an equivocation, a
seat's fault named with its proof, and stopping the table (ours, or a peer's ``stop``)."""

from __future__ import annotations

import time
from typing import Any

from ..channel import TableStop
from ..envelope import (
    EnvelopeError,
    Equivocation,
    Message,
    canonical,
    check_foreign,
    envelope_hash,
    equivocation_of,
    is_int,
)
from ..evidence import overfull_box
from .budget import one_line
from .channel import _CLOSED
from .common import MeshEvent, log


class FaultMixin:
    def _ask_proof(self, peer: int, s: int, seq: int) -> None:
        if s in self._accused:
            return
        key = (peer, s, seq)
        now = time.monotonic()
        if now - self._proof_asked.get(key, -1e9) < self.timings.resend_after:
            return
        self._proof_asked[key] = now
        log.info(
            "seat %d: seat %d reports a different seat-%d envelope at seq %d; asking for it",
            self.seat,
            peer,
            s,
            seq,
        )
        self._send_ctl(peer, "proof?", {"seat": s, "seq": seq})

    def _on_proof_request(self, seat: int, msg: Message) -> None:
        assert self.verifier is not None
        s, seq = msg["seat"], msg["seq"]
        env = self.verifier.chains[s].get(seq)
        now = time.monotonic()  # each answer is a signed copy of an envelope: budgeted as a resend
        if env is not None and self._may_serve(seat, now) and \
                self._resend_bytes(seat, len(canonical(env)), now):
            self._send_ctl(seat, "proof", {"env": env})

    def _check_foreign(self, env: Any) -> tuple[Message, str]:
        """Shape, table and signature of an envelope we got as evidence (not for our chain)."""
        return check_foreign(env, self.table, self.seats, lambda s: self._members[s].key)

    def _on_proof(self, seat: int, msg: Message) -> None:
        assert self.verifier is not None
        raw = msg["env"]
        if not isinstance(raw, dict) or (seat, raw.get("from"), raw.get("seq")) not in \
                self._proof_asked:  # an honest program sends one only when asked
            self._useless(seat, "a proof this program did not ask for")
            return
        try:
            env, h = self._check_foreign(raw)
        except EnvelopeError as e:
            self._useless(seat, f"a proof that is no signed message of this table ({e})")
            return
        s, seq = env["from"], env["seq"]
        mine = self.verifier.chains[s].get(seq)
        if mine is not None and envelope_hash(mine) != h:
            self._equivocation(
                s,
                mine,
                env,
                f"seat {s + 1} signed two different envelopes with seq {seq} (found comparing heads with seat {seat + 1})",
            )

    def _on_evidence(self, seat: int, msg: Message, charge: bool = True) -> None:
        """A pair of envelopes that should prove an equivocation: checked here, and the author
        named if it does. Evidence that proves nothing is charged to ``seat`` (an honest program
        sends evidence only of what it proved); a stop's proof (``charge`` false) is not."""
        drop = self._useless if charge else lambda seat, what: self._drop(what)
        try:
            a, ha = self._check_foreign(msg["first"])
            b, hb = self._check_foreign(msg["second"])
        except EnvelopeError as e:
            drop(seat, f"evidence that is no pair of signed messages of this table ({e})")
            return
        s = a["from"]
        what = equivocation_of(a, ha, b, hb)
        if what is None:
            drop(seat, "evidence that proves nothing")
            return
        # in this program's own words: the forwarder's reason is its text, not a finding here
        self._equivocation(s, a, b, f"seat {s + 1} signed {what} (the pair, signed by seat "
                                    f"{s + 1}, came from seat {seat + 1})")

    def _equivocation(self, seat: int, first: Message, second: Message, reason: str) -> None:
        if seat in self._accused:
            return
        self._accused.add(seat)
        e = Equivocation(seat, first, second, reason)
        self.equivocations.append(e)
        log.error(
            "seat %d: EQUIVOCATION by %s (seat %d): %s", self.seat, self.name_of(seat), seat, reason
        )
        self._write(
            {"type": "fault", "seat": seat, "reason": reason, "first": first, "second": second}
        )
        self._emit(MeshEvent("equivocation", seat, self.name_of(seat), reason, (first, second)))
        for s in self._members:
            if s not in (self.seat, seat):
                self._send_ctl(s, "evidence", {"first": first, "second": second, "reason": reason})
        self.stop(
            seat,
            f"{self.name_of(seat)} sent different messages to different players ({reason})",
            (first, second),
        )

    def _sent_overfull(self, env: Message, why: str) -> str:
        """The finding against the author of a box that holds more than its envelope."""
        return f"sent {self.name_of(env['to'])} {why}"

    def _fault(
        self, seat: int, reason: str, proof: tuple[Message, ...], once: str | None = None,
        key: str | None = None,
    ) -> None:
        """``seat`` sent what cannot be right: recorded, and the table stopped naming it. ``key``:
        the key of the box in ``proof`` (an overfull box), which goes with the stop so that every
        peer checks it itself."""
        tag = once or f"{seat}:{reason}"
        if tag in self._accused_faults:
            return
        self._accused_faults.add(tag)
        log.error("seat %d: fault by %s (seat %d): %s", self.seat, self.name_of(seat), seat, reason)
        rec: Message = {"type": "fault", "seat": seat, "reason": reason}
        if proof:
            rec["first"] = proof[0]
        if key is not None:
            rec["key"] = key
        self._write(rec)
        self._emit(MeshEvent("fault", seat, self.name_of(seat), reason, proof))
        # a box's key goes with the box; other faults are this program's own finding
        self.stop(seat, f"{self.name_of(seat)}: {reason}", proof if key else (), box_key=key)

    # -- stopping ----------------------------------------------------------------------------

    def stop(self, culprit: int | None, reason: str, proof: tuple[Message, ...] = (),
             box_key: str | None = None) -> None:
        """Stop the table for everyone: a signed ``stop`` (reason, culprit and any proof: two
        envelopes of an equivocation, or one box with its key, ``box_key``) goes to every
        peer, is recorded, announced (a ``stop`` event) and ends every wait on the channel."""
        if self.closed or self.verifier is None:
            return
        if self.stopped is not None:
            st = self.stopped
            if st.culprit is None and culprit is not None:
                # a stop naming nobody came first (another peer's unproven claim, or a check
                # that could not tell who), and this program has now seen the deviation itself
                # (an equivocation's proof, its own engine or deck checks): that names it
                self._set_stopped(TableStop(culprit, self.blamed(culprit, reason), self.seat),
                                  notify=False)
            return
        reason = reason[:500] if culprit is None else self.blamed(culprit, reason)
        self._stop_payload = {"culprit": culprit, "reason": reason, "proof": list(proof),
                              "heads": [self.verifier.chains[s].seq for s in range(self.seats)]}
        if box_key is not None:
            self._stop_payload["box_key"] = box_key
        # signed before the record is written: the record keeps one copy as this seat's signed
        # word (the audit checks it), then every copy goes out
        out = [self._sign_ctl(s, "stop", self._stop_payload) for s in self._members
               if s != self.seat]
        self._set_stopped(TableStop(culprit, reason, self.seat), signed=out[0] if out else None)
        for msg in out:
            self._send_signed_ctl(msg["to"], msg)

    def _set_stopped(self, st: TableStop, notify: bool = True,
                     signed: Message | None = None) -> None:
        self.stopped = st
        who = None if st.by is None else self.name_of(st.by)
        rec: Message = {"type": "stop", "culprit": st.culprit, "reason": st.reason, "by": st.by}
        if st.claimed is not None:
            rec["claimed"] = st.claimed
        if signed is not None:  # the stopper's signed stop (``by``'s): its word, not a forgery
            rec["signed"] = signed
        self._write(rec)
        self._emit(
            MeshEvent(
                "stop",
                st.culprit,
                None if st.culprit is None else self.name_of(st.culprit),
                st.reason if st.by == self.seat or st.reason.startswith(f"{who} stopped the table")
                else f"{who} stopped the table: {st.reason}",
            )
        )
        if notify:
            for q in self._inboxes.values():
                q.put_nowait(_CLOSED)

    def _on_stop(self, seat: int, msg: Message) -> None:
        if self.stopped is not None:
            return
        proof = msg.get("proof")
        if isinstance(proof, list) and len(proof) == 1 and "box_key" in msg:
            # a box its recipient opened for all with its own key: checked here, its author
            # named in this program's own words if it holds more than its envelope
            try:
                env, _ = self._check_foreign(proof[0])
            except EnvelopeError:
                env = None
            why = None if env is None else overfull_box(env, msg["box_key"])
            if env is not None and why is not None:
                s = env["from"]
                self.stop(s, f"{self.name_of(s)}: {self._sent_overfull(env, why)} (the box's key "
                          f"shown by {self.name_of(seat)})", (env,), box_key=msg["box_key"])
                return
        if isinstance(proof, list) and len(proof) == 2:
            # an equivocation proof we can check ourselves: we name the equivocator, whoever sent it
            before = len(self.equivocations)
            self._on_evidence(
                seat, {"first": proof[0], "second": proof[1], "reason": msg.get("reason")},
                charge=False,
            )
            if len(self.equivocations) > before or self.stopped is not None:
                return
        culprit = msg.get("culprit")
        if not (culprit is None or (type(culprit) is int and 0 <= culprit < self.seats)):
            raise ValueError("bad culprit")
        reason = one_line(msg.get("reason"), 500)  # a peer's words: one line, no escapes obeyed
        stopper = self.name_of(seat)
        if culprit is None:
            self._stop_payload = {"culprit": None, "reason": reason, "proof": []}
            self._set_stopped(TableStop(None, f"{stopper} stopped the table: {reason}", seat),
                              signed=msg)
            return
        # An unproven stop naming a seat: that program's word, which this one cannot check. It is
        # recorded and shown as the stopper's claim, and no seat is recorded as the culprit on it
        # (the one named took the blame on a bare word before, and so did every bystander: a
        # modified client could get any honest player blamed). Only a proof this program checks
        # itself (an equivocation above, or its own engine or deck catching the deviation in a
        # message it holds: ``stop`` then upgrades the claim) records a culprit. The offline audit
        # of the record decides the rest.
        # the reason first, then whose word it is: at a routine end (a player away past the
        # wait, whose clock here is a moment behind) "without a proof" before the reason read as
        # an accusation of the stopper
        named = (f"this seat ({self.name_of(self.seat)})" if culprit == self.seat else
                 f"{self.name_of(culprit)} ({self.seat_text(culprit)})")
        text = (f"{stopper} stopped the table, naming {named}: {reason} ({stopper}'s claim: this "
                "program has not found it itself, so it names nobody)")
        # forwarded to a peer that missed it as the stopper's claim, never in our own name
        self._stop_payload = {"culprit": None, "proof": [], "reason": (
            f"{stopper} stopped the table, naming {self.name_of(culprit)}: {reason} ({stopper}'s "
            "claim, without proof)")}
        self._set_stopped(TableStop(None, text, seat, claimed=culprit), signed=msg)
        # what the stopper had accepted from each author when it stopped (its word too) is asked
        # for at once: in the claim's window this program reads it (channel.recv), so a
        # deviation the stopper saw is seen here by this program's own checks, even if it was
        # still on its way here
        heads = msg.get("heads")
        if isinstance(heads, list) and len(heads) == self.seats and all(
                is_int(h) and h >= 0 for h in heads):
            now = time.monotonic()
            for s, h in enumerate(heads):
                if s != self.seat and h > self.verifier.chains[s].seq:
                    self._known_max[s] = max(self._known_max[s], h)
                    self._check_behind(s, now)

    def _emit(self, ev: MeshEvent) -> None:
        self.events.append(ev)
        log.info("seat %d: %s", self.seat, ev)
        for q in self._subscribers:
            q.put_nowait(ev)
