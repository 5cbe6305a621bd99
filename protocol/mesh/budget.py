"""Budgets: what one connection, one source address or one seated peer may cost us.

A ``Bucket`` is a token bucket (``rate`` per second, up to ``burst``). The receive loop keeps one
``ConnBudget`` per ZeroMQ connection (the ROUTER's routing id): an unauthenticated connection gets a
small budget in messages and bytes, a connection that has proven a seat (a fresh control message
with that seat's signature) a large one. Traffic over budget is dropped before it is parsed, and
counted; nobody is blamed for a connection's budget (anyone can open a connection), only for what a
seat signed (see ``SeatBudget``).
"""

from __future__ import annotations

import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field

from ..envelope import MAX_SEAT_BYTES as MAX_SEAT_BYTES  # re-exported: the budgets in one place
from ..envelope import held_cost as held_cost

MAX_PARTS = 3  # routing id, kind, payload: a message with more is drained and dropped
# connections that hold no seat we keep a budget for. When they are all taken, a new one takes
# the slot of the least recently heard connection of the address that holds the most slots: it
# is never refused for want of room. Refusing it (as a fix of red team round 3 did) let anyone
# with the code hold every slot with one tiny frame per connection every few seconds, within
# every budget, and then nothing from a new connection was read -- not a member's signed link
# after a crash (and the honest programs named it when the table's wait ran out), not an
# honest joiner's hello. Losing a slot costs an honest stranger nothing: the handshake keeps no
# state per connection (the cookie), and a member's first signed control message seats its
# connection, which then leaves this map. What bounds strangers' cost is their address's
# budget (``UNAUTH_SOURCE_*``), charged before a new connection is given a slot, and a new
# connection's small first allowance (``UNAUTH_START``): opening ever new connections buys
# neither more than the address may send nor a full burst each.
MAX_CONNS = 512
# connections remembered per seat: a reconnect (or a restart) opens a new one; the oldest of
# that seat's own is forgotten, never another seat's
MAX_SEAT_CONNS = 4

# (rate per second, burst) for an unauthenticated connection and for a seated peer's connection.
# A connection that holds no seat only ever needs to send a handshake (``hs``: a hello, a join)
# and the control message that proves its seat (``ctl``: a link, heads): anything else from it,
# or anything larger than ``UNAUTH_MAX_FRAME``, is refused unparsed, and what it may send is
# parsed with at most ``UNAUTH_MAX_ITEMS`` items (the largest honest one, a host's roster of five
# seats, has about 60). So a connection without a seat costs a few tens of microseconds a
# message, and all of them from one address together are held to ``UNAUTH_SOURCE_*``: 64
# connections pacing 200 KB frames of valid JSON within the old budget (64 KiB/s each) used to
# cost the victim 150-190 ms of parsing a frame, a whole core, and honest players were named.
UNAUTH_KINDS = (b"hs", b"ctl")
UNAUTH_MAX_FRAME = 8 * 1024
UNAUTH_MAX_ITEMS = 256
UNAUTH_MSGS = (10.0, 32.0)
# messages a new connection without a seat may send at once (its bucket then fills at
# ``UNAUTH_MSGS``' rate up to the burst): an honest one needs a hello and a join, or one link
UNAUTH_START = 4.0
UNAUTH_BYTES = (32 * 1024.0, 128 * 1024.0)
# A seat's control message is small unless it is one of the kinds that carry envelopes
# (``evidence``, ``proof``, ``stop``: found on the frame's canonical tail before it is parsed):
# the others -- heads, vouch, link, roster, want, bye -- hold a few hundred bytes and a few dozen
# values (measured in tests/mesh: at most 1,374 bytes and 48 values; a 16-seat roster is under
# 6 KB and 200). Before, any kind was parsed with up to 32,768
# values and 512 KiB: a seat sending validly signed heads and vouches padded with 28,000 values
# (8.6 ms each to read) within their budgets (40 and 160 a second) held a peer's program at more
# than a core, and nobody was named (red team 16a). Larger, it is refused unparsed and charged.
SMALL_CTL_BYTES = 16 * 1024
SMALL_CTL_ITEMS = 1024
UNAUTH_SOURCE_MSGS = (200.0, 800.0)
UNAUTH_SOURCE_BYTES = (256 * 1024.0, 1024 * 1024.0)
MAX_SOURCES = 1024  # source addresses we keep a budget for (least recently seen forgotten)
SEATED_MSGS = (4000.0, 20_000.0)
SEATED_BYTES = (32 * 1024 * 1024.0, 256 * 1024 * 1024.0)
HELLOS = (0.5, 4.0)  # hellos answered per connection (an honest joiner sends one)

# what a seated peer's signed traffic may make us hold
# distinct topics one sender may open (its message the first on a topic this program holds):
# counted per sender, so a seat filling the table's topics gets named, not the next honest one
MAX_TOPICS = 32
MAX_UNREAD_BYTES = 16 * 1024 * 1024  # bytes of one sender's messages waiting unread in inboxes
MAX_FUTURE_BYTES = 32 * 1024 * 1024  # bytes of one sender's envelopes held ahead of a gap
# bytes of one sender's envelopes we record (transcript, disk) and hold while this program runs,
# counted by ``held_cost``: a whole match of deck and game messages is a few MiB from every seat
# together, so a seat past ``MAX_SEAT_BYTES`` is flooding -- with chat the table does read, say --
# and is named before our disk or memory fills (both in protocol/envelope.py: a transcript
# holding more is refused too)
# bytes of recorded envelopes we send again at one seat's request (``want``, ``link``, heads
# that show a gap): a whole match fits in the burst, and a seat asking again and again for
# everything (each ask a few hundred bytes) cannot keep us busy serialising it
RESEND_BYTES = (8 * 1024 * 1024.0, 64 * 1024 * 1024.0)
# copies of envelopes this program already holds, counted per seat of the connection they came
# on, as (per second, burst): an honest seat sends one only in answer to our heads or a ``want``
# that raced the envelope itself, a few dozen in a match with a cut link (measured, see
# docs/network.md); a seat past the burst is flooding us with copies (each cost a full parse
# and signature check before: a seat sent 700 a second and slowed a table 4x) and is named
COPIES = (50.0, 5_000.0)
# envelopes a seat's connection sent that this program rejected (not in canonical form, a bad
# signature, another table, a bad shape, a seat without a key once every seat is known), as
# (per second, burst). An honest program never sends one: it signs its own envelopes and relays
# only what it checked and holds (measured: 0 in the whole of tests/mesh and tests/table). The
# burst lets a one-off -- a peer's bug, a frame from an older program -- pass with a warning (a
# seat that holds the envelope intact relays it); with nobody to relay it (two seats) a broken
# envelope asked for again about once a second (``want``) names its sender within half a
# minute, when the table could not go on anyway. A flood of
# altered copies (a signature character changed: each cost a full parse and a signature check,
# 2.75 ms for 42 KB, and went uncounted) names its sender at the 21st.
REJECTS = (0.2, 20.0)
# Control messages (signed by a seat, addressed to us) a seat may send us, per kind, as (per
# second, burst). Each costs us its parse and a signature check (0.13-0.45 ms), some a reply or
# two more checks; ``SEATED_MSGS`` alone let a seat send 4,000 a second of ones that do nothing
# (red team 12: evidence proving nothing kept a 5-second match from ending in 300 s, nobody
# named). Honest programs send a few a second: heads when their chains move (at most once per
# ``heads_every``) and in answer to ours, the rest when something is missing or wrong.
# Measured (docs/network.md): in the whole of tests/mesh and tests/table, whose timings are ten
# times a real table's, no honest stream of one kind from one seat needed a burst of more than
# 16 at these rates; in 5-seat matches with real timings, at most 6 of a kind in a second. So
# the budgets leave ten times that. ``heads?`` is a heads that asks for an answer.
CTL_BUDGETS: dict[str, tuple[float, float]] = {
    "heads": (40.0, 200.0),
    "heads?": (20.0, 100.0),
    # a seat forwards each other seat's word at most once per ``heads_every`` for each pair:
    # up to (seats - 2) / heads_every a second (16 seats, the tests' fast timings: 140)
    "vouch": (160.0, 800.0),
    "want": (40.0, 200.0),
    "proof?": (40.0, 200.0),
    "proof": (40.0, 200.0),
    "link": (10.0, 50.0),
    "roster": (10.0, 50.0),
    "evidence": (1.0, 40.0),
    "stop": (2.0, 20.0),
    "bye": (2.0, 20.0),
}
# control messages of a seat that did nothing, as (per second, burst), charged like refused
# envelopes (``REJECTS``): one over its kind's budget above (dropped unread), evidence that
# proves nothing, a proof nobody asked for, a want for the asker's own messages, an unknown or a
# malformed one. An honest program sends none (measured: none in tests/mesh and tests/table but
# from the tests that send them on purpose); a seat past the burst is named.
USELESS = (0.2, 20.0)


class Bucket:
    __slots__ = ("rate", "burst", "level", "t")

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate, self.burst, self.level = rate, burst, burst
        self.t = time.monotonic() if now is None else now

    def take(self, n: float, now: float) -> bool:
        self.level = min(self.burst, self.level + (now - self.t) * self.rate)
        self.t = now
        if self.level >= n:
            self.level -= n
            return True
        return False


@dataclass
class ConnBudget:
    msgs: Bucket
    bytes: Bucket
    seat: int | None = None
    dropped: int = 0
    hellos: Bucket = field(default_factory=lambda: Bucket(*HELLOS))
    seen: float = 0.0  # when it last sent anything
    source: str = ""  # the remote address (for a connection without a seat)

    @classmethod
    def unauthenticated(cls, now: float, source: str = "") -> ConnBudget:
        msgs = Bucket(*UNAUTH_MSGS, now)
        msgs.level = min(msgs.level, UNAUTH_START)
        return cls(msgs, Bucket(*UNAUTH_BYTES, now), seen=now, source=source)

    def seated(self, seat: int, now: float) -> None:
        """The connection proved it carries ``seat``'s traffic: the seated budget from now on."""
        self.seat = seat
        self.msgs = Bucket(*SEATED_MSGS, now)
        self.bytes = Bucket(*SEATED_BYTES, now)

    def allow(self, size: int, now: float) -> bool:
        self.seen = now
        if self.msgs.take(1, now) and self.bytes.take(size, now):
            return True
        self.dropped += 1
        return False


@dataclass
class Budgets:
    """Every connection's budget. Connections that proved a seat are kept apart and never
    forgotten for another's sake (at most ``MAX_SEAT_CONNS`` per seat, the oldest of that seat's
    own first); those that hold no seat are bounded in number (``MAX_CONNS``), and a new one
    takes the slot of the least recently heard connection of the address holding the most."""

    unauth: OrderedDict[bytes, ConnBudget] = field(default_factory=OrderedDict)
    # the same connections by address, each least recently heard first
    by_source: dict[str, OrderedDict[bytes, None]] = field(default_factory=dict)
    seated: dict[bytes, ConnBudget] = field(default_factory=dict)
    by_seat: dict[int, list[bytes]] = field(default_factory=dict)
    sources: OrderedDict[str, tuple[Bucket, Bucket]] = field(default_factory=OrderedDict)
    dropped: int = 0  # messages dropped over budget or refused, all connections
    evicted: int = 0  # connections without a seat whose slot a newer one took

    def get(self, rid: bytes) -> ConnBudget | None:
        return self.seated.get(rid) or self.unauth.get(rid)

    def seat_of(self, rid: bytes | None) -> int | None:
        """The seat this connection proved it carries (a fresh control message signed by it),
        or ``None``."""
        b = None if rid is None else self.seated.get(rid)
        return None if b is None else b.seat

    def conn(self, rid: bytes, now: float, source: str = "") -> ConnBudget:
        """The connection's budget; a new connection without a seat gets one, in the slot of
        another if they are all taken (``_make_room``). ``admit`` charges the address's budget
        before it calls this for a new connection."""
        b = self.seated.get(rid)
        if b is not None:
            return b
        b = self.unauth.get(rid)
        if b is not None:
            self.unauth.move_to_end(rid)
            self.by_source[b.source].move_to_end(rid)
            return b
        while len(self.unauth) >= MAX_CONNS:
            self._make_room()
        b = self.unauth[rid] = ConnBudget.unauthenticated(now, source)
        self.by_source.setdefault(source, OrderedDict())[rid] = None
        return b

    def _make_room(self) -> None:
        """Forget the least recently heard connection of the address holding the most slots:
        one address's connections push out their own, not a stranger's elsewhere mid-join."""
        rids = max(self.by_source.values(), key=len)
        self._forget(next(iter(rids)))
        self.evicted += 1

    def _forget(self, rid: bytes) -> ConnBudget | None:
        b = self.unauth.pop(rid, None)
        if b is not None:
            rids = self.by_source[b.source]
            del rids[rid]
            if not rids:
                del self.by_source[b.source]
        return b

    def promote(self, rid: bytes, seat: int, now: float) -> None:
        """``rid`` carried a fresh control message signed by ``seat``: a seated connection."""
        if rid in self.seated:
            return  # a connection keeps the first seat it proved
        b = self._forget(rid) or ConnBudget.unauthenticated(now)
        b.seated(seat, now)
        self.seated[rid] = b
        rids = self.by_seat.setdefault(seat, [])
        rids.append(rid)
        while len(rids) > MAX_SEAT_CONNS:
            self.seated.pop(rids.pop(0), None)

    def unseat(self, seat: int) -> None:
        """``seat``'s player is gone from the roster (removed before the deal, or the seat given
        to another key): the connections it proved are no longer that seat's. Kept seated, what
        came on them later was charged to the seat, so to whoever took it next (red team 16a: a
        removed squatter's damaged frames got the honest player in her old seat named)."""
        for rid in self.by_seat.pop(seat, []):
            self.seated.pop(rid, None)

    def admit(self, rid: bytes, kind: bytes, size: int, now: float, source: str = "") -> str | None:
        """``None`` if a message of ``size`` bytes may be read from ``rid``, else why not (it is
        dropped unparsed, and counted)."""
        why: str | None = None
        b = self.seated.get(rid)
        if b is not None:
            if b.allow(size, now):
                return None
            why = f"over the connection's budget ({size} bytes)"
        elif kind not in UNAUTH_KINDS:
            why = f"a {short(kind, 20)} message from a connection that has proven no seat"
        elif size > UNAUTH_MAX_FRAME:
            why = f"a message of {size} bytes from a connection that has proven no seat"
        elif rid in self.unauth:
            if not self.conn(rid, now).allow(size, now):
                why = f"over the connection's budget ({size} bytes)"
            elif not self._source_allows(source, size, now):
                why = f"over the budget of connections without a seat from {short(source, 60)}"
            else:
                return None
        elif not self._source_allows(source, size, now):  # before it takes anyone's slot
            why = f"over the budget of connections without a seat from {short(source, 60)}"
        elif not self.conn(rid, now, source).allow(size, now):
            why = f"over the connection's budget ({size} bytes)"
        else:
            return None
        self.dropped += 1
        return why

    def _source_allows(self, source: str, size: int, now: float) -> bool:
        """All connections without a seat from one address (``source``) together."""
        pair = self.sources.get(source)
        if pair is None:
            pair = self.sources[source] = (Bucket(*UNAUTH_SOURCE_MSGS, now),
                                           Bucket(*UNAUTH_SOURCE_BYTES, now))
            while len(self.sources) > MAX_SOURCES:
                self.sources.popitem(last=False)
        else:
            self.sources.move_to_end(source)
        return pair[0].take(1, now) and pair[1].take(size, now)


def short(value: object, n: int = 120) -> str:
    """``repr`` of a value cut to ``n`` characters: log lines never quote attacker bytes whole."""
    text = repr(value)
    return text if len(text) <= n else text[: n - 1] + "…"


def one_line(value: object, n: int = 500) -> str:
    """Text a peer supplied (a stop's reason, a refusal), as one line of at most ``n``
    characters for a person's screen or a log: every control or format character (newline,
    escape, carriage return, bidirectional override, zero-width...) shown as its escape, so the
    peer can neither forge a line nor repaint the terminal."""
    text = str(value)
    if not text.isprintable():
        text = "".join(
            c if c.isprintable() else " " if unicodedata.category(c) == "Zs"
            else repr(c)[1:-1] if c.isascii() else f"\\u{ord(c):04x}"
            for c in text
        )
    return text if len(text) <= n else text[: n - 1] + "…"


_ALLOCATOR_SET = False


def give_big_buffers_back() -> None:
    """With glibc, have every allocation of 128 KiB or more mapped on its own and unmapped when
    freed. Its default threshold grows to the largest block freed so far, after which frames of
    up to ``MAX_FRAME`` come from the heap, which keeps the memory after they are dropped: a
    flood of half-MiB frames from many connections left the victim's process ~35 MB larger for
    good (measured: 2 MB with this). Elsewhere, nothing to do."""
    global _ALLOCATOR_SET
    if _ALLOCATOR_SET:
        return
    _ALLOCATOR_SET = True
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-3, 128 * 1024)  # M_MMAP_THRESHOLD (glibc's malloc.h)
    except (OSError, AttributeError):
        pass
