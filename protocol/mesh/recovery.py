"""Recovery: taking a seat back from the transcript, re-linking, checkpoints and liveness
(pings, away, back)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..channel import TableStop
from ..envelope import (
    Equivocation,
    Message,
    ctl_signature_problem,
    heads_digest,
    heads_hold,
    is_int,
)
from ..identity import Identity, fingerprint
from ..roster import Member, normalize_address
from ..tablecode import code_key, transport_secret
from ..transcript import (
    Transcript,
    read_transcript,
    transcript_path,
)
from .common import (
    K_RELAY,
    MAX_BATCH,
    MeshError,
    MeshEvent,
    Timings,
    _split_address,
    hold_transcript,
    log,
)
from .echo import echo_tag

if TYPE_CHECKING:
    from .core import Mesh

def _transport_of(t: Transcript) -> bytes:
    """The table's transport key, as our transcript recorded it (or from the code the host keeps)."""
    note = t.notes.get("transport")
    if isinstance(note, str):
        with contextlib.suppress(ValueError):
            raw = bytes.fromhex(note)
            if len(raw) == 32:
                return raw
    if t.code is not None:
        return transport_secret(t.code)
    raise MeshError(
        f"{t.path} does not hold this table's connection key: run your original join command "
        "(with --code) to take the seat back"
    )


class RecoveryMixin:
    @classmethod
    async def resume(
        cls,
        identity: Identity,
        table: str | None = None,
        *,
        transcript: str | Path | None = None,
        bind: str = "0.0.0.0",
        port: int | None = None,
        timings: Timings | None = None,
        home: str | Path | None = None,
    ) -> Mesh:
        """Take our seat back after a crash, from our transcript (by table id or path): rebind (the
        old port if free), reconnect to everyone, replay, and catch up on what we missed."""
        home = home if home is not None else identity.home
        if transcript is None:
            if table is None:
                raise ValueError("resume needs a table id or a transcript path")
            transcript = transcript_path(table, home)
        lock = hold_transcript(Path(transcript))  # before reading: another may be writing it
        try:
            t = read_transcript(transcript, identity, tolerate_torn_tail=True)
            if t.key != identity.key_hex:
                raise MeshError(f"{transcript} belongs to another identity "
                                f"({fingerprint(bytes.fromhex(t.key))})")
        except BaseException:
            if lock is not None:
                os.close(lock)
            raise
        old_port = 0
        for m in t.roster:
            if m.get("seat") == t.seat:
                with contextlib.suppress(ValueError):
                    old_port = _split_address(normalize_address(m["addr"]))[1]
        secret = _transport_of(t)
        self = cls(
            identity,
            bind=bind,
            port=old_port if port is None else port,
            timings=timings,
            home=home,
            fallback_port=port is None,
            transport=secret,
        )
        self._transcript_lock = lock
        try:
            self._restore(t)
            self._start()
            self._link_all(force=True)
        except BaseException:
            await self.close(announce=False)
            raise
        return self

    def _restore(self, t: Transcript) -> None:
        """Rebuild our state from our transcript and set up the replay."""
        self._setup_table(t.table, t.seats, t.seat, t.game_info, t.code)
        if t.code is not None and t.seat == 0:
            self._code_key = code_key(t.code, t.table)
        assert self.transcript_path is not None and self.verifier is not None
        if t.path.resolve() != self.transcript_path.resolve():
            self.transcript_path = t.path
        if t.torn_tail or t.valid_bytes < t.path.stat().st_size:
            log.warning("%s: dropping a torn last line left by the crash", t.path)
            with open(t.path, "r+b") as f:
                f.truncate(t.valid_bytes)
        self._open_transcript(fresh=False)
        self.notes = dict(t.notes)
        # a table held by its host and not yet dealt stays held: we wait for its seal again
        self._sealed = not (self.notes.get("hold") is True and self.notes.get("sealed") is not True)
        removed = self.notes.get("removed")
        for k in removed if isinstance(removed, list) else []:
            with contextlib.suppress(TypeError, ValueError):
                self._removed_keys.add(bytes.fromhex(k))
        mine_name = "?"
        for d in t.roster:
            m = Member.from_json(d, t.table, t.seats)
            if m.seat == self.seat:
                mine_name = m.name
            self._set_member(m, record=False)
        now = time.monotonic()
        for e in t.entries:
            self.verifier.append(e.env, e.hash)
            if e.direction == "out":
                self._sent_at.append(0.0)
                body = e.body if e.body is not None else {}
                self.replay.add(e.topic, e.to, body, e.seq)
            else:
                # each seat's budgets stand as they were (``_accept``: what its envelopes take
                # to hold, a box we open with its contents; its lines on a capped topic), so a
                # program back from a crash refuses a flooder's next envelope like every other
                self._recorded_bytes[e.sender] = self._recorded_bytes.get(e.sender, 0) + e.cost
                self._over_cap(e.sender, e.topic, e.to, check=False)
                if e.body is not None and (e.to is None or e.to == self.seat):
                    self._deliver(e.sender, e.topic, e.body, check=False)
        for f in t.faults:
            with contextlib.suppress(KeyError, TypeError):
                self._accused.add(f["seat"])
        if t.stop is not None:  # the table had stopped: it stays stopped
            st = t.stop
            self.stopped = TableStop(st.get("culprit"), str(st.get("reason")), st.get("by"),
                                     st.get("claimed"))
            self._stop_payload = {
                "culprit": st.get("culprit"),
                "reason": str(st.get("reason")),
                "proof": [],
            }
        own = self._own_entry(mine_name, self._advertised(self._peer_host()))
        if self._members.get(self.seat) != own:
            self._set_member(own, record=False)
        self._record_roster()
        for s in self._members:
            if s != self.seat:
                self._last_heard[s] = now
        log.info(
            "seat %d resumed table %s from %s: %d envelopes, %d of ours to replay",
            self.seat,
            self.table,
            t.path,
            len(t.entries),
            sum(len(v) for v in self.replay.recorded.values()),
        )

    def _peer_host(self) -> str | None:
        """A peer's host to work out our own address toward (not loopback unless we are bound
        there: a stale loopback address in the roster must not make us announce loopback)."""
        loop_ok = self.bind_host.startswith("127.")
        for s, m in self._members.items():
            if s != self.seat:
                host = _split_address(self._dial.get(s) or m.addr)[0]
                if loop_ok or not host.startswith("127."):
                    return host
        return None

    def _link_payload(self) -> Message:
        return {"entry": self._members[self.seat].to_json(), "heads": self._heads_list()}

    def _link_all(self, force: bool = False) -> None:
        payload = self._link_payload()
        for s in self._members:
            if s != self.seat:
                self._send_ctl(s, "link", payload)
                if force:
                    self._resent.pop((s, self.seat), None)

    async def prove_culprit(self, seats: list[int] | None = None, answered: bool = False) -> bool:
        """Compare heads now with ``seats`` (every other seat by default) for a few rounds of
        heads and asks for proof: if an author signed two different envelopes with one seq and
        those seats hold the other copy, the comparison proves the equivocation and the table's
        stop names the author. ``True`` once a stop here names a culprit. For a stop that could
        not tell who (or another seat's abort over a message that checks out here) before it is
        shown: at most ``2 resend_after + 2 heads_every + 0.5`` seconds.

        ``answered``: return as soon as every seat has answered for all we hold and no proof is
        pending (a round trip; ``checkpoint``). Before this program names another seat on its
        own finding (a move its engine refuses, a deck message that describes another
        operation): an author that sent two players different messages under one number makes
        their games part ways, and the first honest message made from the other copy looks, to
        a program holding the first, like its honest sender's deviation (red team 19: a forked
        move, and every time one honest program named the other)."""
        def named() -> bool:
            return self.stopped is not None and self.stopped.culprit is not None

        if named():
            return True
        t = self.timings
        within = 2 * t.resend_after + 2 * t.heads_every + 0.5
        loop = asyncio.get_running_loop()
        end = loop.time() + within + (0.5 if answered else 0.0)
        compare = None
        if answered:
            compare = asyncio.create_task(self.checkpoint(within))
        else:
            for s in seats if seats is not None else [s for s in range(self.seats) if s != self.seat]:
                self._send_heads(s, reply=True)
        try:
            while loop.time() < end and not named() and not (compare is not None and compare.done()):
                await asyncio.sleep(min(0.1, t.tick))
        finally:
            if compare is not None:
                compare.cancel()
                with contextlib.suppress(BaseException):
                    await compare
        return named()

    def out_of_reach(self, seat: int) -> bool:
        """Whether ``seat`` and this program cannot compare heads directly now: its own frames
        have not reached us for a while (``_quiet``), or by its own reports ours do not reach
        it (``unreached``)."""
        return self._quiet(seat, time.monotonic()) or seat in self.unreached()

    def _stated_heads(self) -> Message:
        """What this program holds now, as its next envelope states it (``heads``)."""
        assert self.verifier is not None
        chains = [c for _, c in sorted(self.verifier.chains.items())]
        return {"seqs": [c.seq for c in chains], "hash": heads_digest([c.head for c in chains])}

    def made_from_ours(self, seat: int) -> bool | None:
        """Whether ``seat`` made its latest envelope we hold from exactly what this program
        holds: every chain its ``heads`` states is ours at that seq (``True``), or one is not
        (``False``: another copy of someone's message, or heads it never had). ``None``: it
        states none (a program from before mesh version 6), or a seq we do not hold yet.

        Before this program names ``seat`` on a message of its it refuses: an honest author's
        chain only grows, so its latest envelope states all the refused one was made from and
        more. ``True`` means the author made it from what this program holds, and the refusal
        is the author's own doing, whether or not its program can still be reached (red team
        20: a cheat sent to one program, whose author then vanished, was named by nobody). A
        heads made up (seqs nobody holds, a wrong hash) is never ``True``: the author gets
        what it had before, and the seat whose chain it names is not concerned."""
        assert self.verifier is not None
        env = self.verifier.chains[seat].get(self.verifier.chains[seat].seq)
        heads = None if env is None else env.get("heads")
        if not isinstance(heads, dict):
            return None
        chains = self.verifier.chains
        return heads_hold(heads, lambda s, n: chains[s].hash_at(n))

    async def checkpoint(
        self, timeout: float | None = 10.0, patient: bool = False, cap: float = 600.0
    ) -> list[Equivocation]:
        """Compare transcript heads with every other peer now: returns once every peer has
        answered for everything we hold (and any mismatch has been proven), with every
        equivocation found so far. ``TimeoutError`` (with words) if some peer does not answer
        in time; with ``patient`` the clock only runs while no peer is away (at most ``cap``
        seconds in all); a peer that left the table (a signed leave) does not stop it."""
        target = [seq for seq, _ in self._heads_list()]
        cp = secrets.token_hex(4)
        others = [s for s in self._members if s != self.seat]
        for s in others:
            self._cp_answers.pop(s, None)
        loop = asyncio.get_running_loop()
        start = last = loop.time()
        used, asked = 0.0, -1e9
        while True:
            missing = [s for s in others if not self._cp_done(s, cp, target)]
            if not missing and not self._proof_pending():
                return list(self.equivocations)
            now = loop.time()
            if not (patient and self.away - self.left):  # one who left is not coming back
                used += now - last
            last = now
            if (timeout is not None and used > timeout) or now - start > cap or self.closed:
                # a proof asked and never shown names the seat asked (it said "from a proof",
                # and the table's line "could not compare transcripts with a proof": red team 22)
                owed = []
                for p, authors in sorted(self._proofs_owed().items()):
                    whose = " or ".join(f"{self.name_of(a)}'s" for a in sorted(authors))
                    owed.append(f"{self.name_of(p)}, who never showed a message of {whose} "
                                "that their heads state otherwise")
                names = ", ".join(self.name_of(s) for s in missing) or "; ".join(owed) or "a proof"
                raise TimeoutError(f"no checkpoint answer from {names}")
            if now - asked >= self.timings.resend_after:  # ask again, not every tick
                asked = now
                for s in missing:
                    self._send_heads(s, reply=True, extra={"cp": cp, "cpat": target})
            await asyncio.sleep(self.timings.tick)

    def _heard(self, seat: int, direct: bool = True) -> None:
        """``seat``'s program is there: a fresh frame of its own (``direct``), or its fresh signed
        word forwarded by another seat (``_heard_through``)."""
        now = self._last_heard[seat] = time.monotonic()
        if direct:
            self._direct_at[seat] = now
            self._carriers.pop(seat, None)
            self._carrier_claims.pop(seat, None)
        if seat in self.away:
            self.away.discard(seat)
            self.away_since.pop(seat, None)
            self.left.discard(seat)
            self._emit(MeshEvent("back", seat, self.name_of(seat)))
            self._resent.pop((seat, self.seat), None)
            self._send_heads(seat, reply=True)
            if self._stop_payload is not None:  # it missed the stop while away
                self._send_ctl(seat, "stop", self._stop_payload)
        if seat not in self._ever_heard:
            self._ever_heard.add(seat)
            self._maybe_ready()

    # -- presence through the others ------------------------------------------------------------
    # A seat that hears another only through the others (a firewall, a one-way link, or a program
    # that never sends it a frame) is not without it: the table's envelopes reach it through
    # relays (``want``, and pushed: ``_push_relayed``), and its presence comes the same way. Its
    # heads say which seats it has not heard directly for a while (``quiet``); a seat that hears
    # one of those forwards that seat's latest signed heads to it (a ``vouch``), and a fresh one
    # (a counter past every word of that program we have seen) is as good as a frame of its own:
    # the seat is there, dealt in, not away. Nobody can forge one; a relay can only hold some
    # back, or forward hoarded ones late, each once (red team 12, H2: one silent joiner left an
    # honest seat unready, and every other program named it when the deck's clock ran out).
    # (Not also "no older than its envelopes we hold": those are pushed faster than its heads
    # come, and a busy seat was taken for away.)

    def _quiet(self, seat: int, now: float) -> bool:
        """Whether ``seat``'s own frames have not reached us for a while: no heartbeat of its
        own, and nothing at all on a connection it proved is its own (an author sending us
        envelopes ahead of a gap is not quiet: the gap is filled by asking, not by a push)."""
        return now - self._own_frame_at(seat) > 2 * self.timings.ping_after

    def _note_carrier(self, seat: int, via: int, echoed: float | None, ours: object) -> None:
        """``via`` brought us a signed word or envelope of ``seat``'s that shows its program got
        something of ours: the message of ours it echoes, signed at ``echoed``, or our envelope
        ``ours`` (the seq of our chain its heads state it holds), sent when we know. If that was
        well after its own frames stopped reaching us (``2 ping_after + heads_every``), its
        program was there and reached us only through ``via`` (``carried``)."""
        times = [] if echoed is None else [echoed]
        if is_int(ours) and 0 < ours <= len(self._sent_at):
            times.append(self._sent_at[ours - 1])
        t = self.timings
        if times and max(times) - self._own_frame_at(seat) > 2 * t.ping_after + t.heads_every:
            self._carriers.setdefault(seat, set()).add(via)

    def _stated_carrier(self, seat: int, via: int, heads: Message) -> None:
        """A relayed envelope of ``seat``'s, first brought by ``via``, states ``heads``: the
        envelope of ours they name is evidence for ``_note_carrier`` only if those heads are what
        we hold (``heads_hold``): a seq of ours stated ahead of what its author held, with a hash
        it could not know, is no proof it heard us (red team 27: bob's move signed in advance,
        stating alice's next message, kept by carol until alice sent it, made alice hold him
        "carried", a seat that left shielded by one forged move). Heads naming a seq we do not
        hold yet are kept (a few) and checked again (``carried``)."""
        assert self.verifier is not None
        chains = self.verifier.chains
        held = heads_hold(heads, lambda s, n: chains[s].hash_at(n))
        if held is None:
            claims = self._carrier_claims.setdefault(seat, [])
            claims.append((via, heads))
            del claims[:-8]
            return
        if held:
            self._note_carrier(seat, via, None, heads["seqs"][self.seat])

    def _own_frame_at(self, seat: int) -> float:
        """When a frame of ``seat``'s own last reached us: a heartbeat of its own, or anything on
        a connection it proved is its own (``_quiet``)."""
        last = self._direct_at.get(seat, self._started)
        for rid in self.budgets.by_seat.get(seat, ()):
            conn = self.budgets.seated.get(rid)
            if conn is not None and conn.seen > last:
                last = conn.seen
        return last

    def _quiet_seats(self) -> list[int]:
        """The seats whose own frames have not reached us for a while (a relay's cue)."""
        now = time.monotonic()
        return [s for s in sorted(self._members) if s != self.seat and self._quiet(s, now)]

    def _heard_through(self, via: int, seat: int, word: Message) -> None:
        """``via`` forwarded ``seat``'s signed heads (``vouch``): if it is fresh, ``seat`` is
        heard. A bad signature is the forwarder's fault (``ValueError``: dropped as malformed)."""
        assert self.verifier is not None
        if word.get("to") != via or not isinstance(word.get("sess"), str) or \
                not is_int(word.get("boot")) or not is_int(word.get("ctr")):
            return  # only what that seat said to the forwarder itself
        sess, boot, ctr = word["sess"], word["boot"], word["ctr"]
        for cur in (self._ctl_state.get(seat), self._through_state.get(seat)):
            if cur is not None and not ((sess != cur[0] and boot > cur[1])
                                        or (sess == cur[0] and ctr > cur[2])):
                return  # no newer than a word of that program we have seen
        heads = self._parse_heads(word["heads"])
        problem = ctl_signature_problem(word, self._members[seat].key)
        if problem is not None:
            raise ValueError(f"a forwarded heads message with {problem} for seat {seat}")
        self._through_state[seat] = (sess, boot, ctr)
        try:
            echoed = self._signed_time(self._parse_echo(word.get("echo"))[self.seat])
        except ValueError:
            echoed = None
        # counted whether or not the word is still fresh enough to count as presence below; the
        # envelope of ours it states, only with our hash at that seq (a seq stated ahead of what
        # it held, in a word signed in advance, is no proof it heard us: ``_stated_carrier``)
        ours, our_hash = heads[self.seat]
        held = self.verifier.chains[self.seat].hash_at(ours) == our_hash
        self._note_carrier(seat, via, echoed, ours if held else None)
        self._through_tag[seat] = echo_tag(word["sig"])
        self._note_reach(word)
        now = time.monotonic()
        if heads[seat][0] > self._known_max[seat]:  # it signed more than we hold: ask for it
            self._known_max[seat] = heads[seat][0]
            self._check_behind(seat, now)
        chains = self.verifier.chains
        if all(seq > chains[s].seq or chains[s].hash_at(seq) == h
               for s, (seq, h) in enumerate(heads)):
            # what it holds, as it signed it (a checkpoint's last comparison, ``_cp_done``, and
            # ``unreached`` read it); a different hash is left to the seats that hear it directly
            self._peer_heads[seat] = [seq for seq, _ in heads]
        # Behind on what the seat's own word says it signed, not on what any seat's heads claim
        # of its chain: one heads message of a liar's stating bob's chain a thousand past what
        # bob signed left us "behind" on bob for good, every vouch for him was ignored, and an
        # honest seat carried by another honest seat was marked away and named (red team 22)
        since: float | None = None
        if heads[seat][0] > chains[seat].seq:
            since = self._starved_since.setdefault(seat, now)
        else:
            self._starved_since.pop(seat, None)
        if since is not None and now - since > self._starved_after():
            # its word comes, its envelopes do not: a forwarder that passes on its presence and
            # withholds its messages would have our clocks run on it. It is waited for (away),
            # as one we cannot hear (red team 3, item 1)
            return
        if not self._echo_fresh(word, now):
            # no proof the word is recent: a forwarder could have hoarded it and be withholding
            # what the seat said since (red team 23). It is waited for (away), as above
            return
        self._heard(seat, direct=False)

    def _starved_after(self) -> float:
        """How long we may lack an author's envelopes (that some seat showed us exist) before its
        forwarded word stops counting as presence: a few asks of the holders, in turn."""
        t = self.timings
        return 3 * t.resend_after + 2 * t.heads_every + 2 * t.tick

    def _relay_presence(self, now: float) -> None:
        """Forward to each seat the latest signed heads of the seats its heads say it does not
        hear directly (``quiet``), once per new word and at most once per ``heads_every``."""
        for b, msg in list(self._latest_heads.items()):
            quiet = msg.get("quiet")
            if b in self.away or not isinstance(quiet, list):
                continue
            for d in quiet[: self.seats]:
                if not is_int(d) or d in (self.seat, b) or d in self.away or self._quiet(d, now):
                    continue  # only the word of a seat we hear ourselves, now
                if self._pusher(b, d):
                    self._push_relayed(b, d, now)
                word = self._latest_heads.get(d)
                if word is None:
                    continue
                stamp, last = (word["sess"], word["ctr"]), self._forwarded.get((d, b))
                if last is not None and (last[0] == stamp or now - last[1] < self.timings.heads_every):
                    continue
                self._forwarded[(d, b)] = (stamp, now)
                self._send_ctl(b, "vouch", {"heads": word})

    def _pusher(self, b: int, d: int) -> bool:
        """Whether we are the one to push ``d``'s envelopes to ``b`` as they come (``b`` does not
        hear ``d`` directly): the seat ``b``'s latest heads name as the one whose relay brought
        it ``d``'s envelopes first (``via``), if that seat hears both directly; else the lowest
        seat that, by its own latest heads, hears both directly (so that one seat pushes, not
        every one: a second copy would be charged as a copy). So a carrier that holds back what
        it carries is pushed aside by the first seat that carries it faster (red team 20: at
        four seats the lowest carrier's slow copies set the match's pace, while an honest
        second carrier only answered asks, each a round late, the slow one asked first)."""
        now = time.monotonic()
        if self._quiet(d, now) or self._quiet(b, now):
            return False
        said = self._latest_heads.get(b, {})
        quiet, via = said.get("quiet"), said.get("via")
        if isinstance(quiet, list) and isinstance(via, list) and len(via) == len(quiet) \
                and d in quiet[: self.seats]:
            x = via[quiet.index(d)]
            if is_int(x) and x == self.seat:
                return True
            heard = self._latest_heads.get(x, {}).get("quiet") if is_int(x) else None
            if is_int(x) and x in self._members and x not in (b, d) and x not in self.away \
                    and x in self._latest_heads and not (isinstance(heard, list)
                                                         and (b in heard or d in heard)):
                return False  # x hears both and carries faster: it pushes
        for x in sorted(self._members):
            if x == self.seat:
                return True
            if x in (b, d) or x in self.away:
                continue
            quiet = self._latest_heads.get(x, {}).get("quiet")
            if x in self._latest_heads and not (isinstance(quiet, list) and
                                                (b in quiet or d in quiet)):
                return False  # x hears both and comes first: it pushes
        return False

    def _push_relayed(self, b: int, d: int, now: float) -> None:
        """Send ``b`` the envelopes of ``d``'s we hold past what its heads show it holds (and
        past what we pushed within ``resend_after``), as relays: without waiting for its ask,
        each of ``d``'s messages reaches it about as fast as if ``d`` had sent it."""
        assert self.verifier is not None
        seqs = self._peer_heads.get(b)
        if seqs is None or d >= len(seqs):
            return
        start, chain = seqs[d], self.verifier.chains[d]
        last = self._pushed.get((d, b))
        if last is not None and last[0] > start and now - last[1] < self.timings.resend_after:
            start = last[0]  # pushed that far already: its heads will say
        end = min(chain.seq, start + MAX_BATCH)
        if end <= start:
            return
        self._pushed[(d, b)] = (end, now)
        for seq in range(start + 1, end + 1):
            env = chain.get(seq)
            if env is None or not self._serve(b, K_RELAY, env, now):
                break

    def carried(self, seat: int) -> list[int] | None:
        """Whether ``seat`` has reached us only through other seats since the last frame of its
        own did: the seats that carried it, lowest first (each forwarded us a signed word or
        envelope of its showing it got a message of ours -- echoed, or our envelope stated in
        its heads -- signed or sent well after, ``2 ping_after + heads_every``, its own frames
        stopped reaching us: its program was there and heard us, and its frames did not come;
        with the seat whose relays bring us its envelopes, ``via``); ``None`` if nothing such
        came since its last own frame (a seat that went quiet on a working link, or one whose
        carrier passed on nothing showing it heard us from the moment its link to us was cut:
        nothing here tells either from the seat leaving).

        For a seat away, this says whether its absence here is one we cannot tell from a carrier
        withholding it: a seat heard only through others is waited for as away the moment a
        carrier holds back its words, or ours from it (the echo starved), its messages carried
        all along (``absence._watch_absence`` names nobody for it; the seats that hear it
        directly count it themselves)."""
        for via, heads in self._carrier_claims.pop(seat, []):  # checkable now, or kept again
            self._stated_carrier(seat, via, heads)
        carriers = set(self._carriers.get(seat, ()))
        if not carriers:
            return None
        via = self._via.get(seat)
        if via is not None:
            carriers.add(via)
        return sorted(carriers - {seat, self.seat})

    def heard_through_others(self) -> list[int]:
        """The seats heard since this program started only through the others' relays."""
        return sorted(s for s in self._ever_heard if s not in self._direct_at)

    def _maybe_ready(self) -> None:
        heard_all = all(s in self._ever_heard for s in self._members if s != self.seat)
        if self._full.is_set() and self._sealed and not self._ready.is_set() and heard_all:
            self._ready.set()

    def _mark_away(self, seat: int, left: bool = False) -> None:
        if left and seat not in self.left:
            self.left.add(seat)
            self.away.add(seat)
            self.away_since.setdefault(seat, time.monotonic())
            self._emit(MeshEvent("left", seat, self.name_of(seat)))
        elif seat not in self.away:
            self.away.add(seat)
            self.away_since[seat] = time.monotonic()
            self._emit(MeshEvent("away", seat, self.name_of(seat)))

    # -- liveness ----------------------------------------------------------------------------

    async def _tick_loop(self) -> None:
        t = self.timings
        while True:
            await asyncio.sleep(t.tick)
            try:
                self._tick(time.monotonic())
            except Exception:
                log.exception("seat %d: error in the liveness loop", self.seat)

    def _tick(self, now: float) -> None:
        t = self.timings
        stalled = now - self._last_tick - t.tick
        self._last_tick = now
        if stalled > t.ping_after:  # our own loop was stuck (or the machine slept): not their fault
            # (never past now: a frame read on waking, before this tick, was heard after the
            # stall, and moved on by it a seat that leaves next is marked away a stall late)
            for s in self._last_heard:
                self._last_heard[s] = min(now, self._last_heard[s] + stalled)
            for s in self._direct_at:  # nor a cue for the others to relay
                self._direct_at[s] = min(now, self._direct_at[s] + stalled)
        heads, quiet_now = self._heads_list(), self._quiet_seats()
        for s in list(self._members):
            if s == self.seat:
                continue
            quiet = now - self._last_heard.get(s, now)
            if s not in self.away:
                if quiet > t.away_after:
                    self._mark_away(s)
                    continue
                # heard through the others only, its own link is still tried (it may come back)
                direct = now - self._direct_at.get(s, self._started)
                if max(quiet, direct) > t.ping_after and \
                        now - self._last_ping.get(s, 0.0) > t.ping_after:
                    self._last_ping[s] = now
                    self._send_heads(s, reply=True)
                    continue
            elif now - self._last_ping.get(s, 0.0) > t.away_after:
                self._last_ping[s] = now  # a slow ping, in case it came back on the same address
                self._send_heads(s, reply=True)
                continue
            sent = self._heads_sent.get(s)
            if sent is None or (sent[0] != ((heads, quiet_now) if quiet_now else heads) and now - sent[1] > t.heads_every):
                self._send_heads(s, reply=False)
            if s not in self._direct_at and now - self._last_ping.get(s, 0.0) > t.ping_after:
                self._last_ping[s] = now
                self._send_ctl(s, "link", self._link_payload())
        for s in list(self._behind_since):
            self._check_behind(s, now)
        self._vouch(now)
        self._relay_presence(now)
        self._check_refused(now)
