"""The echo: how old a forwarded word is. Every signed ``heads`` says, per seat, the newest of that
seat's control messages its author has seen, by its counter and a tag only a receiver of that
message knows; a program keeps when it signed its own, so a seat's word that echoes one of them is
known to be no older than that (presence through the others, recovery.py), and a program whose
words no seat echoes knows nobody hears it (``unheard_since``)."""

from __future__ import annotations

import hashlib
import hmac
import re
import time

from ..envelope import Message, is_int

ECHO_KEPT = 16_384  # signing times and tags of our latest control messages kept for the echo
TAG_HEX = 16  # an echo's tag: the first 8 bytes of the SHA-256 of the echoed message's ``sig``
_TAG = re.compile(r"[0-9a-f]{16}")


def echo_tag(sig: str) -> str:
    """The tag an echo of a control message carries (mesh version 8): the first 8 bytes, in hex,
    of the SHA-256 of its ``sig``. Ed25519's signature cannot be told before its signer makes
    it, so only a program that received the message (or a copy forwarded whole, in a ``vouch``)
    knows it: a liar can echo a counter it never got, but not its tag."""
    return hashlib.sha256(sig.encode()).hexdigest()[:TAG_HEX]


class EchoMixin:
    # -- the echo: how old a forwarded word is ----------------------------------------------------
    # Every signed ``heads`` carries, per seat, the newest of that seat's own control messages its
    # author has seen (directly or forwarded), as ``[ctr, tag]``: ``echo``. Nothing in a word says
    # when it was signed, so a forwarder could ask a seat for its word many times, keep them, and
    # once the seat sends a message it withholds from us, pass on the older words one at a time
    # (each newer than the last, none stating the withheld message): the seat stayed present
    # here for as long as the hoard lasted. A word echoing one of our own messages was signed
    # after we signed it, and we know when that was: a forwarded word counts as presence only if
    # that is within ``away_after``. A forwarder that withholds our words from the seat starves
    # its echo: the seat is waited for as away, as with a withheld message. The tag (mesh version
    # 8) makes the echo proof of receipt: a counter alone counts up at a pace every seat sees, and
    # a liar echoing one of ours it never got hid from a program whose words reach nobody that
    # nobody hears it (red team 25). An echo whose tag is not the one we signed at that counter
    # counts as nothing, and names nobody: the echo does not say which run of our program it
    # echoes, and a seat that has not yet heard this run after a ``join --resume`` honestly
    # echoes the last run's message at a counter this run may sign again.

    def _note_signed(self, tag: str) -> None:
        """Keep when our control message ``self._ctr`` was signed (``_sign_ctl``), and its tag, for
        as long as an echo of it may count (``away_after``; at most ``ECHO_KEPT`` of them)."""
        now, kept = time.monotonic(), self._signed_at
        if self._signed_first + len(kept) != self._ctr:
            kept.clear()
            self._signed_first = self._ctr
        kept.append((now, tag))
        while len(kept) > 1 and (len(kept) > ECHO_KEPT or now - kept[0][0] > self.timings.away_after):
            kept.popleft()
            self._signed_first += 1

    def _echo(self) -> list[list[int | str] | None]:
        """What our heads echo: per seat, the newest of its program's control messages we have
        seen, directly or forwarded, as ``[ctr, tag]`` (``None``: none; ours is ``None``)."""
        out: list[list[int | str] | None] = []
        for s in range(self.seats):
            best, tag = None, None
            for cur, cur_tag in ((self._ctl_state.get(s), self._ctl_tag.get(s)),
                                 (self._through_state.get(s), self._through_tag.get(s))):
                if cur is not None and (best is None or (cur[0] == best[0] and cur[2] > best[2])
                                        or (cur[0] != best[0] and cur[1] > best[1])):
                    best, tag = cur, cur_tag
            out.append(None if s == self.seat or best is None or tag is None else [best[2], tag])
        return out

    def _parse_echo(self, raw: object) -> list[tuple[int, str] | None]:
        """A heads message's ``echo``: per seat ``null`` or ``[ctr, tag]``, ``ctr`` in 1..2^63-1
        and ``tag`` 16 lowercase hex digits (``ValueError`` otherwise)."""
        if not isinstance(raw, list) or len(raw) != self.seats:
            raise ValueError("an echo that is not one entry per seat")
        out: list[tuple[int, str] | None] = []
        for e in raw:
            if e is None:
                out.append(None)
            elif isinstance(e, list) and len(e) == 2 and is_int(e[0]) and 0 < e[0] < 2**63 \
                    and isinstance(e[1], str) and _TAG.fullmatch(e[1]):
                out.append((e[0], e[1]))
            else:
                raise ValueError("an echo entry that is not null or [counter, 16 hex digits]")
        return out

    def _echo_fresh(self, word: Message, now: float) -> bool:
        """Whether a seat's signed heads echo one of our own control messages signed within
        ``away_after``: the word is no older than that. A word echoing a message we never
        signed (a counter not ours yet, or a tag not the one we signed at it: a guess, a lie
        its author signed) proves nothing, and counts as nothing."""
        try:
            mine = self._parse_echo(word.get("echo"))[self.seat]
        except ValueError:
            return False
        signed = self._signed_time(mine)
        return signed is not None and now - signed <= self.timings.away_after

    def _signed_time(self, mine: tuple[int, str] | None) -> float | None:
        """When we signed our control message echoed as ``(ctr, tag)``, if it is among those
        kept and the tag is the one we signed at that counter."""
        if mine is None:
            return None
        c, tag = mine
        i = c - self._signed_first
        if c < 1 or c > self._ctr or not 0 <= i < len(self._signed_at):
            return None
        signed, ours = self._signed_at[i]
        return signed if hmac.compare_digest(tag, ours) else None

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
