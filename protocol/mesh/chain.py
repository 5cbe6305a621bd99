"""The signed chains: accepting envelopes in order, gossiping heads, catch-up (want, relay).
Proofs, faults and stopping the table are in ``faults``."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from ..channel import TableStop
from ..envelope import (
    EnvelopeError,
    Message,
    canonical,
    ctl_signature_problem,
    envelope_cost,
    envelope_key,
    is_int,
    open_box,
    overfull,
)
from ..roster import Member, check_roster
from .budget import (
    MAX_SEAT_BYTES,
    MAX_TOPICS,
    MAX_UNREAD_BYTES,
    RESEND_BYTES,
    Bucket,
    held_cost,
    one_line,
)
from .common import (
    K_ENV,
    K_RELAY,
    MAX_BATCH,
    MeshEvent,
    log,
)


class ChainMixin:
    def _heads_list(self) -> list[list[Any]]:
        assert self.verifier is not None
        return [[c.seq, c.head] for _, c in sorted(self.verifier.chains.items())]

    def _send_heads(self, seat: int, reply: bool, extra: Message | None = None) -> None:
        heads, quiet = self._heads_list(), self._quiet_seats()
        self._invite(seat, heads[seat][0])
        self._heads_sent[seat] = ((heads, quiet) if quiet else heads, time.monotonic())
        digest = self.roster_digest if self._full.is_set() else None  # compared only once full
        if quiet:  # the seats we do not hear directly: the others forward their word (recovery),
            # and the seat that brought each one's envelopes first pushes them (``_pusher``)
            extra = {"quiet": quiet, "via": [self._via.get(q) for q in quiet], **(extra or {})}
        self._send_ctl(seat, "heads", {"heads": heads, "reply": reply, "roster": digest,
                                       "echo": self._echo(), **(extra or {})})

    def _accept(self, env: Message, h: str, raw: bytes | None = None) -> None:
        assert self.verifier is not None
        sender, to = env["from"], env["to"]
        if self.topics is not None and env["topic"] not in self.topics:
            # a private one would fill only its recipient's memory, unread, where the others
            # could not see it; every peer sees the topic, so every peer names it alike
            self._fault(sender, f"sent a message on topic {one_line(env['topic'], 64)!r}, which "
                        "no program at this table uses", (env,))
            return
        if to is not None and env["topic"] in self.public_topics:
            self._fault(sender, f"sent a {env['topic']} message to {self.name_of(to)} alone; "
                        "every seat must get those", (env,))
            return
        if self._over_cap(sender, env["topic"], to):  # not recorded
            return
        raw = canonical(env) if raw is None else raw
        body: Message | None = None
        if to is None:
            body = env["body"]
        elif to == self.seat:
            try:
                body = open_box(env, self._box_key(sender, self.seat))
            except EnvelopeError as e:
                self._stuck.add(sender)
                self._fault(sender, e.reason, (env,))
                return
            why = overfull(raw, body)
            if why is not None:  # shown to every seat with the box's own key, which they check
                self._stuck.add(sender)
                self._fault(sender, self._sent_overfull(env, why), (env,),
                            key=envelope_key(self._box_key(sender, self.seat), env).hex())
                return
        # a private envelope counts twice its own cost at every seat, for the body its
        # recipient holds opened (no more than the envelope: ``overfull``), as
        # ``read_transcript`` counts it
        size = envelope_cost(raw, to)
        recorded = self._recorded_bytes[sender] = self._recorded_bytes.get(sender, 0) + size
        if recorded > MAX_SEAT_BYTES:  # not recorded: our disk and memory are not theirs to fill
            self.stop(sender, f"{self.name_of(sender)} sent more than {MAX_SEAT_BYTES // 2**20} MiB "
                      "to this table, counting what its messages take to hold (a whole match "
                      "is a few MiB)")
            return
        self.verifier.append(env, h)
        self._held_wire.add(self._wire_digest(raw))
        self._write({"type": "in", "env": env})
        if body is not None:
            self._deliver(sender, env["topic"], body)

    def _over_cap(self, sender: int, topic: str, to: int | None, check: bool = True) -> bool:
        """Count one more of ``sender``'s envelopes on a capped topic (``topic_caps``), per
        recipient (``to``, or everyone): a line said to every listener is one envelope to each
        (``Table.send_chat``), so the cap counts lines, whatever the number of seats. Past it
        (``check``) the sender is named, at the same envelope by every peer (each holds them
        all). Rebuilt from the transcript on a resume (``check`` false: every topic counted,
        as the table sets its caps later)."""
        cap = self.topic_caps.get(topic)
        if cap is None and check:
            return False
        counts = self._topic_counts.setdefault(sender, {})
        n = counts[(topic, to)] = counts.get((topic, to), 0) + 1
        if not check or cap is None or n <= cap:
            return False
        who = "the table" if to is None else self.name_of(to)
        self.stop(sender, f"{self.name_of(sender)} sent more than {cap:,} {topic} lines to "
                  f"{who} in this match (a flood)")
        return True

    def _deliver(self, sender: int, topic: str, body: Message, check: bool = True) -> None:
        """Queue a message for the table, within the sender's budget of topics and unread bytes:
        a seated peer over it is named and the table stops."""
        raw = canonical(body)
        if check and topic not in self._inboxes:
            opened = self._topics_opened.setdefault(sender, set())
            if len(opened) >= MAX_TOPICS:
                self.stop(sender, f"{self.name_of(sender)} used more than {MAX_TOPICS} message "
                          "topics")
                return
            opened.add(topic)
        cost = held_cost(raw)
        unread = self._unread(sender, cost)
        if check and unread > MAX_UNREAD_BYTES:
            self.stop(
                sender,
                f"{self.name_of(sender)} sent more than {MAX_UNREAD_BYTES // 2**20} MiB the table "
                "has not asked for",
            )
            return
        # the author's seq rides along: after another peer's claim, what that peer had accepted
        # from each author (its heads) is still read here, and nothing after it (channel.recv)
        seq = self.verifier.chains[sender].seq if self.verifier is not None else 0
        # and how many of the author's messages on each topic came before it (recv_stamped)
        counts = self._delivered.setdefault(sender, {})
        self._inbox(topic).put_nowait((sender, json.loads(raw), cost, seq, time.monotonic(),
                                       dict(counts)))
        counts[topic] = counts.get(topic, 0) + 1

    def _unread(self, sender: int, delta: int) -> int:
        n = self._unread_bytes[sender] = max(0, self._unread_bytes.get(sender, 0) + delta)
        return n

    # -- control handlers --------------------------------------------------------------------

    def _parse_heads(self, raw: Any) -> list[tuple[int, str]]:
        if not isinstance(raw, list) or len(raw) != self.seats:
            raise ValueError("heads list of the wrong length")
        out = []
        for item in raw:
            seq, h = item
            if not is_int(seq) or seq < 0 or not isinstance(h, str):
                raise ValueError("bad head")
            out.append((seq, h))
        return out

    def _on_heads(self, seat: int, msg: Message, force: bool = False) -> None:
        assert self.verifier is not None
        heads = self._parse_heads(msg["heads"])
        if "echo" in msg:  # what its author has seen of each seat's words (echo.py)
            self._parse_echo(msg["echo"])
            self._note_reach(msg)
        now = time.monotonic()
        self._peer_heads[seat] = [seq for seq, _ in heads]
        cur = self._ctl_state.get(seat)
        if cur is not None:
            self._note_held(seat, cur[0], *heads[self.seat])
            if msg.get("t") == "heads" and isinstance(msg.get("sig"), str):
                self._latest_heads[seat] = msg  # its signed word, forwarded to the others
        digest = msg.get("roster")
        # compared once dealt in: before, a holding host may still change the roster
        if self._ready.is_set() and isinstance(digest, str) and digest != self.roster_digest:
            # The players do not agree who sits at this table, so it cannot go on. But the
            # difference is no proof against the seat that reports it: a host that showed
            # different players different rosters (two entries it signed for itself, two keys
            # at one seat) gets every honest pair to disagree. Nobody is named here; the
            # transcripts hold each side's roster for the audit.
            self.stop(None, f"{self.name_of(seat)}'s program holds another roster of this "
                      f"table (code {one_line(digest, 24)}; ours is {self.roster_digest}): the "
                      "host showed players different tables, or a program was changed; nobody "
                      "is named")
        for s, (seq, h) in enumerate(heads):
            chain = self.verifier.chains[s]
            if seq <= chain.seq:
                if chain.hash_at(seq) != h:
                    self._ask_proof(seat, s, seq)
            else:
                self._known_max[s] = max(self._known_max[s], seq)
                if s != self.seat:
                    self._check_behind(s, now)
        # resend our own envelopes the peer lacks (old enough not to be merely in flight)
        theirs = heads[self.seat][0]
        mine = self.verifier.chains[self.seat].seq
        if theirs < mine:
            self._resend_own(seat, theirs, force or seat in self.away)
        if isinstance(msg.get("cp"), str):
            target = msg.get("cpat")
            at: list[Any] = []
            for s, seq in enumerate(target if isinstance(target, list) else []):
                h = (
                    self.verifier.chains[s].hash_at(seq)
                    if is_int(seq) and s < self.seats
                    else None
                )
                at.append([seq, h] if h is not None else None)
            self._send_heads(seat, reply=False, extra={"cpr": msg["cp"], "at": at})
        elif msg.get("reply") is True:
            self._send_heads(seat, reply=False)
        if isinstance(msg.get("cpr"), str) and isinstance(msg.get("at"), list):
            answers = self._cp_answers.setdefault(seat, {})
            for s, item in enumerate(msg["at"][: self.seats]):
                if item is None:
                    continue
                seq, h = item
                mine_h = self.verifier.chains[s].hash_at(seq)
                if mine_h is not None and mine_h != h:
                    self._ask_proof(seat, s, seq)
                answers[s] = max(answers.get(s, -1), seq)

    # -- what a seat holds of our chain, by its own signed word ---------------------------------
    # A seat's heads say which of our envelopes it lacks (``Mesh.unreached``: a deck wait stands
    # still for it). In one run of its program a seat never holds less than it once held, so
    # what it signed it held -- in heads to us, or in heads to another seat that forwards them
    # (a ``vouch``) -- it holds at least: a later claim to lack those contradicts itself, and
    # the clock runs on that seat (red team 7a: a staller told one honest seat alone that he
    # lacked its messages, froze its clock, and only the other honest seat named him).

    def _note_held(self, seat: int, sess: Any, seq: int, h: str) -> None:
        assert self.verifier is not None
        cur = self._ctl_state.get(seat)
        if cur is None or cur[0] != sess:  # another run of its program: its word now counts
            return
        if self.verifier.chains[self.seat].hash_at(seq) != h:  # not our chain as we sent it
            return
        old = self._held_ours.get(seat)
        if old is None or old[0] != sess or old[1] < seq:
            self._held_ours[seat] = (sess, seq)

    def _vouch(self, now: float) -> None:
        """Forward each seat's latest signed heads to the other seats, when it holds more of
        their chain than we last forwarded (at most once per ``heads_every`` for each pair)."""
        for s, msg in list(self._latest_heads.items()):
            seqs = self._peer_heads.get(s)
            if seqs is None or s in self.away:
                continue
            for t in self._members:
                if t in (self.seat, s) or t >= len(seqs) or seqs[t] == 0 or t in self.away:
                    continue
                last = self._vouched.get((s, t))
                if last is not None and (
                        (last[0] == msg["sess"] and last[1] >= seqs[t])
                        or now - last[2] < self.timings.heads_every):
                    continue
                self._vouched[(s, t)] = (msg["sess"], seqs[t], now)
                self._send_ctl(t, "vouch", {"heads": msg})

    def _on_vouch(self, seat: int, msg: Message) -> None:
        """Another seat's signed heads, forwarded by ``seat``: what that seat holds of our chain."""
        inner = msg["heads"]
        if not isinstance(inner, dict) or inner.get("t") != "heads" or \
                inner.get("table") != self.table:
            raise ValueError("a vouch without a heads message of this table")
        s = inner.get("from")
        if not is_int(s) or s in (self.seat, seat) or s not in self._members:
            raise ValueError("a vouch for no other seat")
        self._heard_through(seat, s, inner)  # its program is there (recovery.py)
        cur = self._ctl_state.get(s)
        if cur is None or inner.get("sess") != cur[0]:
            return
        problem = ctl_signature_problem(inner, self._members[s].key)
        if problem is not None:
            raise ValueError(f"a vouch with {problem} for seat {s}")
        heads = self._parse_heads(inner["heads"])
        self._note_held(s, inner["sess"], *heads[self.seat])

    def _cp_done(self, seat: int, cp: str, target: list[int]) -> bool:
        answers = self._cp_answers.get(seat, {})
        if all(answers.get(s, -1) >= seq for s, seq in enumerate(target)):
            return True
        # The peer's latest heads already showed every chain at exactly our target, and each of
        # those hashes was compared with ours when it arrived (a mismatch asks for a proof, which
        # keeps the checkpoint open): nothing is left to ask. This is what lets a checkpoint end
        # when a peer finished its own and left the table before our question reached it.
        heads = self._peer_heads.get(seat)
        return heads is not None and len(heads) == len(target) and heads == target

    def _proof_pending(self) -> bool:
        return bool(self._proofs_owed())

    def _proofs_owed(self) -> dict[int, set[int]]:
        """Seat asked -> the authors whose message it was asked to show (its heads stated
        another hash for it), for the asks still awaited."""
        now = time.monotonic()
        owed: dict[int, set[int]] = {}
        for (peer, s, _), t in self._proof_asked.items():
            if now - t < 5 * self.timings.resend_after + 1 and s not in self._accused:
                owed.setdefault(peer, set()).add(s)
        return owed

    def _resend_own(self, seat: int, theirs: int, force: bool, end: int | None = None) -> None:
        """Send ``seat`` our envelopes after its ``theirs`` again (up to ``end``, what it asked
        for, and ``MAX_BATCH`` at a time)."""
        assert self.verifier is not None
        now = time.monotonic()
        last = self._resent.get((seat, self.seat))
        if last is not None and last[0] == theirs and now - last[1] < self.timings.resend_after:
            return
        chain = self.verifier.chains[self.seat]
        upto = chain.seq
        if not force:  # only what has had time to arrive
            while upto > theirs and now - self._sent_at[upto - 1] < self.timings.resend_after:
                upto -= 1
        if upto <= theirs:
            return
        if not self._may_serve(seat, now):
            return
        self._resent[(seat, self.seat)] = (theirs, now)
        upto = min(upto, theirs + MAX_BATCH, end if end is not None else upto)
        log.debug("seat %d resends its seq %d..%d to seat %d", self.seat, theirs + 1, upto, seat)
        for seq in range(theirs + 1, upto + 1):
            env = chain.get(seq)
            assert env is not None
            if not self._serve(seat, K_ENV, env, now):
                break

    def _may_serve(self, seat: int, now: float) -> bool:
        """Whether to answer one more of ``seat``'s asks to send envelopes again: an honest peer
        asks about once per author per ``resend_after``; a seat asking all the time gets its
        excess asks ignored before any work is done."""
        bucket = self._resend_asks.get(seat)
        if bucket is None:
            rate = max(10.0, 4 * self.seats / self.timings.resend_after)
            bucket = self._resend_asks[seat] = Bucket(rate, 2 * rate, now)
        if bucket.take(1, now):
            return True
        self._drop(f"seat {seat} asks for resent envelopes too often", logging.DEBUG)
        return False

    def _serve(self, seat: int, kind: bytes, env: Message, now: float) -> bool:
        """Send a recorded envelope again at ``seat``'s asking, within its resend budget
        (``False``: over it; what is left waits for its next ask)."""
        data = canonical(env)
        if not self._resend_bytes(seat, len(data), now):
            return False
        self._send_frames(seat, [kind, data])
        return True

    def _resend_bytes(self, seat: int, size: int, now: float) -> bool:
        bucket = self._resend_budget.get(seat)
        if bucket is None:
            bucket = self._resend_budget[seat] = Bucket(*RESEND_BYTES, now)
        if bucket.take(size, now):
            return True
        self._drop(f"seat {seat} asks for more resent envelopes than its budget", logging.DEBUG)
        return False

    def _check_behind(self, s: int, now: float) -> None:
        """We hold fewer of ``s``'s envelopes than someone has: after a grace, ask for them."""
        assert self.verifier is not None
        have = self.verifier.chains[s].seq
        if have >= self._known_max[s] or s in self._accused or s in self._stuck:
            self._behind_since.pop(s, None)
            self._want_tries.pop(s, None)
            return
        since = self._behind_since.setdefault(s, now)
        # an author whose own frames do not reach us has nothing on its way here: ask a holder
        relayed = self._quiet(s, now)
        if (
            (now - since < self.timings.resend_after and not relayed)
            or now - self._last_want.get(s, 0.0) < self.timings.resend_after
        ):
            return
        # Ask the author first; if it is away, or we are still behind at the next ask (it did
        # not answer, or not to us), ask the peers that hold them, in turn. So an author that
        # sends its envelopes to some peers only cannot leave one peer without them, unable to
        # play on, for the others' clocks to name: every peer relays what it holds.
        # A holder we asked that sent nothing of what its heads claimed (the gap is where it was)
        # may be lying about the chain (red team 12: carol's heads claimed 1,000 of bob's
        # envelopes bob never signed, and every ask earned her an excuse for 1,000 copies): while
        # it claims the same it is not excused again, and is asked only every fourth round if
        # the author can be asked (a slow honest holder is still asked, and trusted again once
        # it delivers or its heads move).
        last = self._asked_holder.pop(s, None)
        if last is not None and have < last[1]:
            self._failed_holder[(last[0], s)] = last[2]
            self._excused.get(last[0], {}).pop(s, None)
        elif last is not None:
            self._failed_holder.pop((last[0], s), None)
        tries = self._want_tries.get(s, 0)
        holders = [p for p, seqs in sorted(self._peer_heads.items())
                   if p not in self.away and p not in (s, self.seat) and seqs[s] > have]
        # the holder whose relay brought s's envelopes first last time is asked first (a slow
        # carrier is asked first only until another has done better: red team 20)
        holders.sort(key=lambda p: p != self._via.get(s))
        trusted = [p for p in holders if self._failed_holder.get((p, s)) != self._peer_heads[p][s]]
        target = s if s not in self.away and not relayed else None
        if trusted and (target is None or tries % 2 == 1):
            target = trusted[(tries // 2) % len(trusted)]
        elif holders and (target is None or tries % 4 == 1):
            target = holders[(tries // 4) % len(holders)]
        if target is None:
            return
        # Only the gap: up to the first of s's envelopes we already hold ahead of it. Asked for
        # more, an honest peer would send again what we hold (red team 11: a seat withheld one
        # envelope from alice and sent her the next 999; alice asked bob, bob relayed all 1,000,
        # and alice named bob for 999 copies). The copies that still cross (what the author's own
        # connection brings meanwhile) are excused up to the number asked.
        buffered = self._future.get(s)
        end = min(min(buffered) - 1 if buffered else self._known_max[s], have + MAX_BATCH)
        self._want_tries[s] = tries + 1
        self._last_want[s] = now
        claim = self._peer_heads[target][s] if target != s else None
        if claim is not None:
            self._asked_holder[s] = (target, have + 1, claim)
        if claim is None or self._failed_holder.get((target, s)) != claim:
            # copies of s's envelopes in the range asked for are excused, up to the number asked
            self._excuse(target, s, have + 1, end, now)
        log.debug("seat %d asks seat %d for seat %d's envelopes %d..%d", self.seat, target, s,
                  have + 1, end)
        self._send_ctl(target, "want", {"seat": s, "start": have + 1, "end": end})

    def _on_want(self, seat: int, msg: Message) -> None:
        assert self.verifier is not None
        s, start = msg["seat"], msg["start"]
        end = msg.get("end", start + MAX_BATCH - 1)  # the last one wanted (older peers: a batch)
        if (
            not is_int(s)
            or not 0 <= s < self.seats
            or not is_int(start)
            or start < 1
            or not is_int(end)
            or end < start
        ):
            raise ValueError("bad want")
        end = min(end, start + MAX_BATCH - 1)
        if s == seat:  # a program holds its own messages (its transcript): it never asks
            self._useless(seat, "asked for its own messages")
            return
        if s == self.seat:
            self._resend_own(seat, start - 1, force=True, end=end)
            return
        chain = self.verifier.chains[s]
        now = time.monotonic()
        last = self._resent.get((seat, s))
        if last is not None and last[0] == start and now - last[1] < self.timings.resend_after:
            return
        if start > chain.seq or not self._may_serve(seat, now):
            return
        self._resent[(seat, s)] = (start, now)
        for seq in range(start, min(chain.seq, end) + 1):
            env = chain.get(seq)
            assert env is not None
            if not self._serve(seat, K_RELAY, env, now):
                break

    def _on_link(self, seat: int, msg: Message) -> None:
        m = Member.from_json(msg["entry"], self.table, self.seats)
        if m.seat != seat:
            raise ValueError("link entry for another seat")
        old = self._members[seat]
        if m.key != old.key:
            raise ValueError("link entry with another key")
        if m.name != old.name:
            # a seat keeps the name it was seated with (a program back from a crash takes it
            # from its transcript): a rename told to some peers only would split the roster
            # code the peers compare, and an honest peer reporting its own would be named
            raise ValueError(f"a link renaming seat {seat + 1} ({one_line(m.name, 40)})")
        if m != old:
            log.info("seat %d: seat %d is now at %s", self.seat, seat, m.addr)
            self._set_member(m)
        self._resent.pop((seat, self.seat), None)
        if self.seat == 0 and self.notes.get("hold") is True:
            # a peer (re)linking to a held table may have missed a removal or the seal while it
            # was down: it gets the roster again (a peer already dealt in ignores it)
            self._send_roster(seat)
        self._on_heads(seat, {"heads": msg["heads"], "reply": True}, force=True)

    def _on_roster(self, seat: int, msg: Message) -> None:
        if seat != 0:
            raise ValueError("only the host (seat 0) sends roster updates")
        if self._ready.is_set() or (self._full.is_set() and self._sealed):
            return
        given = [Member.from_json(d, self.table, self.seats) for d in msg["roster"]]
        host = self._members.get(0)
        who = "the host" if host is None else f"the host {host.name!r} ({host.fingerprint})"
        if not any(m.seat == self.seat and m.key == self.identity.public_key for m in given):
            if self._sealed:
                raise ValueError("the roster gives our seat to another key")
            # a holding host removed this seat before the deal: we leave, blaming nobody
            self._set_stopped(TableStop(None, f"{who} removed you from the table before the "
                                        "deal", 0))
            return
        try:  # the host's seating rules, re-checked here: a modified host could skip them
            if self._sealed:  # seats only fill: what we hold stands
                check_roster([*given, *(o for o in self._members.values()
                                        if all(m.seat != o.seat for m in given))])
                if any(m.seat in self._members and m.key != self._members[m.seat].key
                       for m in given):
                    raise ValueError("it gives a seat to another key")
            else:  # a holding host's roster is the whole of it (it may have removed a seat)
                check_roster(given)
        except ValueError as e:
            self.stop(0, f"refusing this table: {who} sent a roster that breaks the table's "
                      f"rules: {e}")
            return
        if not self._sealed:  # seats the holding host removed, or gave to another key
            kept = {m.seat: m.key for m in given}
            for s in [s for s in self._members if s not in (self.seat, 0)]:
                if kept.get(s) != self._members[s].key:
                    gone = self._members[s]
                    self._forget_seat(s)
                    sock = self._dealers.pop(s, None)
                    self._dealer_addr.pop(s, None)
                    if sock is not None:
                        sock.close(0)
                    self._record_roster()
                    self._emit(MeshEvent("removed", s, gone.name, gone.fingerprint))
        for m in given:
            if m.seat == self.seat:
                continue
            if m.seat not in self._members:
                self._set_member(m)
                self._send_ctl(m.seat, "link", self._link_payload())
        if msg.get("sealed") is True and not self._sealed:
            self._set_sealed()
