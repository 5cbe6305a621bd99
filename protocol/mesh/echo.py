"""The echo: how old a forwarded word is. Every signed ``heads`` says, per seat, the newest of that
seat's control messages its author has seen; a program keeps when it signed its own, so a seat's
word that echoes one of them is known to be no older than that (presence through the others,
recovery.py), and a program whose words no seat echoes knows nobody hears it (``unheard_since``)."""

from __future__ import annotations

import time

from ..envelope import Message, is_int

ECHO_KEPT = 16_384  # signing times of our latest control messages kept for the echo


class EchoMixin:
    # -- the echo: how old a forwarded word is ----------------------------------------------------
    # Every signed ``heads`` carries, per seat, the newest ``ctr`` of that seat's own control
    # messages its author has seen (directly or forwarded): ``echo``. Nothing in a word says when
    # it was signed, so a forwarder could ask a seat for its word many times, keep them, and
    # once the seat sends a message it withholds from us, pass on the older words one at a time
    # (each newer than the last, none stating the withheld message): the seat stayed present
    # here for as long as the hoard lasted. A word echoing one of our own ctrs was signed after
    # we signed that ctr, and we know when that was: a forwarded word counts as presence only if
    # that is within ``away_after``. A forwarder that withholds our words from the seat starves
    # its echo: the seat is waited for as away, as with a withheld message.

    def _note_signed(self) -> None:
        """Keep when our control message ``self._ctr`` was signed (``_sign_ctl``), for as long as
        an echo of it may count (``away_after``; at most ``ECHO_KEPT`` of them)."""
        now, kept = time.monotonic(), self._signed_at
        if self._signed_first + len(kept) != self._ctr:
            kept.clear()
            self._signed_first = self._ctr
        kept.append(now)
        while len(kept) > 1 and (len(kept) > ECHO_KEPT or now - kept[0] > self.timings.away_after):
            kept.popleft()
            self._signed_first += 1

    def _echo(self) -> list[int]:
        """What our heads echo: per seat, the newest ``ctr`` of its program's control messages we
        have seen, directly or forwarded (0: none; ours is 0)."""
        out = []
        for s in range(self.seats):
            best = None
            for cur in (self._ctl_state.get(s), self._through_state.get(s)):
                if cur is not None and (best is None or (cur[0] == best[0] and cur[2] > best[2])
                                        or (cur[0] != best[0] and cur[1] > best[1])):
                    best = cur
            out.append(0 if s == self.seat or best is None else best[2])
        return out

    def _parse_echo(self, raw: object) -> list[int]:
        """A heads message's ``echo``: one counter per seat (``ValueError`` otherwise)."""
        if not isinstance(raw, list) or len(raw) != self.seats or \
                not all(is_int(c) and 0 <= c < 2**63 for c in raw):
            raise ValueError("an echo that is not one counter per seat")
        return raw

    def _echo_fresh(self, word: Message, now: float) -> bool:
        """Whether a seat's signed heads echo one of our own control messages signed within
        ``away_after``: the word is no older than that. A word echoing a counter we never
        signed (a lie its author signed) proves nothing, and counts as nothing."""
        try:
            c = self._parse_echo(word.get("echo"))[self.seat]
        except ValueError:
            return False
        signed = self._signed_time(c)
        return signed is not None and now - signed <= self.timings.away_after

    def _signed_time(self, c: int) -> float | None:
        """When we signed our control message ``c``, if it is among those kept."""
        i = c - self._signed_first
        if c < 1 or c > self._ctr or not 0 <= i < len(self._signed_at):
            return None
        return self._signed_at[i]

    def _note_reach(self, word: Message) -> None:
        """A seat's signed heads (its own, or forwarded): the newest of our words it echoes was
        heard by then (``unheard_since``)."""
        try:
            signed = self._signed_time(self._parse_echo(word.get("echo"))[self.seat])
        except ValueError:
            return
        if signed is not None and signed > self._reached_at:
            self._reached_at = signed

    def unheard_since(self) -> float | None:
        """Since when no seat has shown it heard this program (its own link most likely cut one
        way): the time we signed the newest of our words any seat's heads echo, if that is
        longer ago than a seat we hear takes to echo us (it pings us when we are quiet for
        ``ping_after``: two of those, two ``heads_every`` and two ticks); else ``None`` (and at
        two seats, where nothing is forwarded). Meanwhile a seat heard only through the others
        cannot show its word is recent (the echo): the absence watcher counts that time against
        nobody."""
        t = self.timings
        late = 2 * t.ping_after + 2 * t.heads_every + 2 * t.tick
        if self.seats <= 2 or time.monotonic() - self._reached_at <= late:
            return None
        return self._reached_at
