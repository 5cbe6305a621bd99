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

MAX_PARTS = 3  # routing id, kind, payload: a message with more is drained and dropped
MAX_CONNS = 512  # connections we keep a budget for (least recently seen forgotten first)

# (rate per second, burst) for an unauthenticated connection and for a seated peer's connection
UNAUTH_MSGS = (20.0, 64.0)
UNAUTH_BYTES = (64 * 1024.0, 512 * 1024.0)
SEATED_MSGS = (4000.0, 20_000.0)
SEATED_BYTES = (32 * 1024 * 1024.0, 256 * 1024 * 1024.0)
HELLOS = (0.5, 4.0)  # hellos answered per connection (an honest joiner sends one)

# what a seated peer's signed traffic may make us hold
# distinct topics one sender may open (its message the first on a topic this program holds):
# counted per sender, so a seat filling the table's topics gets named, not the next honest one
MAX_TOPICS = 32
MAX_UNREAD_BYTES = 16 * 1024 * 1024  # bytes of one sender's messages waiting unread in inboxes
MAX_FUTURE_BYTES = 32 * 1024 * 1024  # bytes of one sender's envelopes held ahead of a gap
# bytes of one sender's envelopes we record (transcript, disk) while this program runs: a whole
# match of deck and game messages is a few MiB from every seat together, so a seat past this is
# flooding -- with chat the table does read, say -- and is named before our disk fills
MAX_SEAT_BYTES = 64 * 1024 * 1024
# bytes of recorded envelopes we send again at one seat's request (``want``, ``link``, heads
# that show a gap): a whole match fits in the burst, and a seat asking again and again for
# everything (each ask a few hundred bytes) cannot keep us busy serialising it
RESEND_BYTES = (8 * 1024 * 1024.0, 64 * 1024 * 1024.0)


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

    @classmethod
    def unauthenticated(cls, now: float) -> ConnBudget:
        return cls(Bucket(*UNAUTH_MSGS, now), Bucket(*UNAUTH_BYTES, now))

    def promote(self, seat: int, now: float) -> None:
        """The connection proved it carries ``seat``'s traffic: the seated budget from now on."""
        if self.seat is None:
            self.seat = seat
            self.msgs = Bucket(*SEATED_MSGS, now)
            self.bytes = Bucket(*SEATED_BYTES, now)

    def allow(self, size: int, now: float) -> bool:
        if self.msgs.take(1, now) and self.bytes.take(size, now):
            return True
        self.dropped += 1
        return False


@dataclass
class Budgets:
    """Every connection's budget, bounded in number."""

    conns: OrderedDict[bytes, ConnBudget] = field(default_factory=OrderedDict)
    dropped: int = 0  # messages dropped over budget, all connections

    def conn(self, rid: bytes, now: float) -> ConnBudget:
        b = self.conns.get(rid)
        if b is None:
            b = self.conns[rid] = ConnBudget.unauthenticated(now)
            while len(self.conns) > MAX_CONNS:
                self.conns.popitem(last=False)
        else:
            self.conns.move_to_end(rid)
        return b

    def allow(self, rid: bytes, size: int, now: float) -> bool:
        ok = self.conn(rid, now).allow(size, now)
        if not ok:
            self.dropped += 1
        return ok


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
