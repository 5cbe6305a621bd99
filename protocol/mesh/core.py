"""The ``Mesh``: one seat's view of a table and its sockets (construction, roster, public API).
The rest of its methods live by subject in ``transport``, ``handshake``, ``intake``,
``chain``, ``faults``, ``recovery`` and ``echo``."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import secrets
import time
from collections import defaultdict, deque
from pathlib import Path
from typing import Any

import zmq
import zmq.asyncio

from ..channel import TableStop
from ..envelope import (
    Equivocation,
    Message,
    Verifier,
    b64,
    canonical,
)
from ..identity import Identity
from ..params import MAX_SEATS
from ..roster import Member, check_name, entry_payload, normalize_address, roster_digest
from ..seating import sign_game
from ..tablecode import code_key, new_code, new_table_id, normalize_code, transport_secret
from ..transcript import (
    TRANSCRIPT_VERSION,
    TranscriptWriter,
    transcript_path,
)
from .budget import Bucket, Budgets, give_big_buffers_back
from .chain import ChainMixin
from .channel import _CLOSED, MeshChannel, Replay
from .common import (
    HANDSHAKE_MS,
    HWM,
    KEEPALIVE_CNT,
    KEEPALIVE_IDLE,
    KEEPALIVE_INTVL,
    MAX_FRAME,
    RCV_HWM,
    REDIAL_AFTER,
    Curve,
    MeshError,
    MeshEvent,
    Timings,
    hold_transcript,
    local_ip,
    log,
    raise_fd_limit,
)
from .echo import EchoMixin
from .faults import FaultMixin
from .gate import DEFAULT_MAX_TOTAL, Gate
from .handshake import HandshakeMixin
from .intake import IntakeMixin
from .recovery import RecoveryMixin
from .transport import TransportMixin


class Mesh(TransportMixin, HandshakeMixin, IntakeMixin, ChainMixin, FaultMixin, RecoveryMixin,
           EchoMixin):
    """One seat's view of a table and its sockets. Build with ``host``, ``join`` or ``resume``."""

    def __init__(
        self,
        identity: Identity,
        *,
        bind: str = "0.0.0.0",
        port: int = 0,
        timings: Timings | None = None,
        home: str | Path | None = None,
        fallback_port: bool = False,
        transport: bytes | None = None,
    ) -> None:
        give_big_buffers_back()  # a flood's dropped frames must not stay in this process
        self.identity = identity
        # CurveZMQ: the table's server key from its code (None: plain TCP, for tools and tests)
        self._transport_secret = transport
        self.curve = Curve.from_secret(transport) if transport is not None else None
        self.timings = timings or Timings()
        self.home = home if home is not None else identity.home
        self.bind_host = bind
        self.ctx = zmq.asyncio.Context()
        self.router = self.ctx.socket(zmq.ROUTER)
        self.router.setsockopt(zmq.LINGER, 0)
        self.router.setsockopt(zmq.RCVHWM, RCV_HWM)
        self.router.setsockopt(zmq.MAXMSGSIZE, MAX_FRAME)
        # half-open connections (a slowloris of partial handshakes) are closed. No ZMTP
        # heartbeats: libzmq 4.3.5 aborts the process ("!_io_error", stream_engine_base.cpp:310)
        # when a ping goes unanswered while the receive queue is full, which a flood causes.
        self.router.setsockopt(zmq.HANDSHAKE_IVL, HANDSHAKE_MS)
        # TCP keepalive closes a connection whose other end is gone without a word (a laptop
        # off the network): it would otherwise count against its address at the gate for good
        self.router.setsockopt(zmq.TCP_KEEPALIVE, 1)
        self.router.setsockopt(zmq.TCP_KEEPALIVE_IDLE, KEEPALIVE_IDLE)
        self.router.setsockopt(zmq.TCP_KEEPALIVE_INTVL, KEEPALIVE_INTVL)
        self.router.setsockopt(zmq.TCP_KEEPALIVE_CNT, KEEPALIVE_CNT)
        fds = raise_fd_limit()
        if self.curve is not None:
            self.curve.serve(self.router)
        # connections admitted per address and in all, at the encrypted handshake (gate.py)
        self.gate = Gate(self.ctx, self.router, fds // 2 if fds > 0 else DEFAULT_MAX_TOTAL)
        self.port = self._bind(port, fallback_port)
        self.gate.start(self.port)
        # table state, set by _setup_table
        self.table: str = ""
        self.seats = 0
        self.seat = -1
        self.game_info: dict[str, Any] = {}
        self.code: str | None = None
        self._code_key: bytes | None = None
        self._members: dict[int, Member] = {}
        self._digest_of: tuple[tuple, str] | None = None  # (the members it was made of, digest)
        self._dial: dict[
            int, str
        ] = {}  # our own override of a member's address (the one we dialed)
        self.verifier: Verifier | None = None
        self.transcript: TranscriptWriter | None = None
        self.transcript_path: Path | None = None
        self.replay = Replay()
        self.notes: dict[str, Any] = {}
        self.events: list[MeshEvent] = []
        self.equivocations: list[Equivocation] = []
        self.away: set[int] = set()
        self.closed = False
        self.channel = MeshChannel(self)
        self._dealers: dict[int, zmq.asyncio.Socket] = {}
        # per seat, a monitor of our DEALER's refusals by that peer's gate, and when to dial again
        self._dealer_mons: dict[int, zmq.asyncio.Socket] = {}
        self._redial_at: dict[int, float] = {}
        self._watches = 0
        self._dealer_addr: dict[int, str] = {}
        self._inboxes: dict[str, asyncio.Queue[Any]] = {}
        self._topics_opened: dict[int, set[str]] = {}  # per sender: the topics it opened
        self._want_tries: dict[int, int] = {}  # per author: asks for its envelopes while behind
        self._transcript_lock: int | None = None  # hold_transcript's descriptor
        self._subscribers: list[asyncio.Queue[MeshEvent]] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._full = asyncio.Event()
        self._ready = asyncio.Event()
        self._box_keys: dict[tuple[int, int], bytes] = {}
        self._future: dict[int, dict[int, tuple[Message, str]]] = defaultdict(dict)
        self._sent_at: list[float] = []  # monotonic send time of our own envelope seq i+1
        self._sess = secrets.token_hex(8)
        self._boot = time.time_ns()
        self._ctr = 0
        # when each of our latest control messages was signed, and its tag, from ctr
        # ``_signed_first`` on: a forwarded word counts as presence only if it echoes one of them
        # (``_echo_fresh``)
        self._signed_at: deque[tuple[float, str]] = deque()
        self._signed_first = 1
        self._ctl_state: dict[int, tuple[str, int, int]] = {}
        self._ctl_tag: dict[int, str] = {}  # the tag of each seat's message in ``_ctl_state``
        now = time.monotonic()
        self._started = now
        self._reached_at = now  # when we signed the newest of our words a seat echoed
        self._last_tick = now
        self._last_heard: dict[int, float] = {}
        self._ever_heard: set[int] = set()
        self._direct_at: dict[int, float] = {}  # seat -> when a frame of its own last came
        # per seat, the newest of its signed words another seat forwarded us (``_heard_through``),
        # and per (seat, recipient) the last of its words we forwarded (``_relay_presence``)
        self._through_state: dict[int, tuple[str, int, int]] = {}
        self._through_tag: dict[int, str] = {}
        # per seat, the seats that forwarded us a word of its signed after the last frame of its
        # own reached us (fresh or not: ``_heard_through``); ``carried``
        self._carriers: dict[int, set[int]] = {}
        # per seat, relayed envelopes' stated heads not yet checkable (a seq we do not hold
        # yet): (via, heads), at most a few (``_stated_carrier``)
        self._carrier_claims: dict[int, list[tuple[int, dict]]] = {}
        self._forwarded: dict[tuple[int, int], tuple[tuple[str, int], float]] = {}
        self._pushed: dict[tuple[int, int], tuple[int, float]] = {}  # (author, to) -> (seq, when)
        # per author we do not hear directly, the seat whose relay last brought us one of its
        # envelopes first: said in our heads (``via``), it is the seat that pushes them to us
        self._via: dict[int, int] = {}
        # per (author, seat), until when that seat may not be our via again (``_new_via``)
        self._via_demoted: dict[tuple[int, int], float] = {}
        self._last_ping: dict[int, float] = {}
        self._heads_sent: dict[int, tuple[Any, float]] = {}
        self._peer_heads: dict[int, list[int]] = {}
        self._known_max: dict[int, int] = defaultdict(int)
        self._behind_since: dict[int, float] = {}
        # seat -> since when we hold fewer of its envelopes than its own forwarded word says it
        # signed (``_heard_through``: past a while, that word no longer counts as presence)
        self._starved_since: dict[int, float] = {}
        self._last_want: dict[int, float] = {}
        self._resent: dict[tuple[int, int], tuple[int, float]] = {}
        self._proof_asked: dict[tuple[int, int, int], float] = {}
        self._accused: set[int] = set()
        self._accused_faults: set[str] = set()
        self._stuck: set[int] = set()  # senders whose next envelope we had to reject
        self._cp_answers: dict[int, dict[int, Any]] = {}
        self._log_budget = [20.0, now]
        self.budgets = Budgets()
        self.stopped: TableStop | None = None
        self._stop_payload: Message | None = None
        self._unread_bytes: dict[int, int] = {}
        self._recorded_bytes: dict[int, int] = {}  # seat -> bytes of its envelopes we recorded
        # Topics whose messages every seat must get (the table's moves, the deck): a private
        # envelope on one tells one seat what the others never learn. Its topic and recipient
        # are in the clear at every peer, so every peer names its author (set by the table).
        self.public_topics: frozenset[str] = frozenset()
        # the only topics this table's programs use (None: any, up to MAX_TOPICS): an envelope
        # on another is named by every peer at once, its topic being in the clear
        self.topics: frozenset[str] | None = None
        # Topics on which a sender may send at most so many envelopes (set by the table: chat);
        # counted on the chain, so every peer names a flooder at the same envelope
        self.topic_caps: dict[str, int] = {}
        # Topics whose broadcasts a re-run after a crash would make again byte for byte, and
        # which therefore state no ``heads`` (what a re-run holds when it makes them differs).
        # Any other envelope of ours (one stating its heads, a chat line, a private box: its
        # nonce is random) is on disk before it goes: one sent and lost with the end of the
        # record (a power cut) would leave its seq to another envelope after the comeback, and
        # every peer would name this seat for two envelopes under one number (red team 19). The
        # table sets none (every envelope states its heads: red team 20). None: nothing is
        # synced, and every envelope states its heads.
        self.remade_topics: frozenset[str] | None = None
        self._topic_counts: dict[int, dict[tuple[str, int | None], int]] = {}
        self._delivered: dict[int, dict[str, int]] = {}  # per author, its messages per topic queued
        self._resend_budget: dict[int, Bucket] = {}  # seat -> bytes we may resend at its asking
        # digests of the bytes of every envelope we hold (a copy is dropped on them, unparsed),
        # and per seat the copies it sent us and its budget of them
        self._held_wire: set[bytes] = set()
        self._copies: dict[int, int] = {}
        self._copy_budget: dict[int, Bucket] = {}
        # per seat we asked for envelopes (``want``), and per chain we asked it for, the range
        # asked (first, last seq), how many copies in it the seat may send uncharged and until
        # when: what we asked for may cross what its author sent us meanwhile. Per chain, the
        # holder last asked (holder, first seq asked, what its heads claimed), and per (holder,
        # chain) the claim of a holder that sent nothing of it when asked (``_check_behind``)
        self._excused: dict[int, dict[int, tuple[int, int, int, float]]] = {}
        # per seat, what our heads to it invited it to send again (``_invite``): ranges of its
        # chain, the copies excused in each and until when; and the last of our heads' counts
        self._invited: dict[int, list[tuple[int, int, int, float]]] = {}
        self._last_invite: dict[int, tuple[int, float]] = {}
        self._asked_holder: dict[int, tuple[int, int, int]] = {}
        self._failed_holder: dict[tuple[int, int], int] = {}
        # per seat, its control messages' budgets by kind (``CTL_BUDGETS``), and those of its
        # control messages that did nothing, with their budget (``USELESS``)
        self._ctl_budget: dict[int, dict[str, Bucket]] = {}
        self._useless_ctl: dict[int, int] = {}
        self._useless_budget: dict[int, Bucket] = {}
        # per seat, the envelopes its connections sent that we refused, and its budget of them
        self._rejects: dict[int, int] = {}
        self._reject_budget: dict[int, Bucket] = {}
        self._unsigned_digests: dict[str | None, bytes] = {}  # prefilter.unsigned_digest by hash
        # per seat, (its session, the last seq of our chain it signed it holds), its latest
        # signed heads, and per (seat, recipient) what of those we forwarded: ``_note_held``
        self._held_ours: dict[int, tuple[str, int]] = {}
        self._latest_heads: dict[int, Message] = {}
        self._vouched: dict[tuple[int, int], tuple[str, int, float]] = {}
        self._resend_asks: dict[int, Bucket] = {}  # seat -> its asks we may still answer
        self._future_bytes: dict[int, int] = {}
        self.away_since: dict[int, float] = {}
        self.left: set[int] = set()
        self._hs_secret = secrets.token_bytes(32)
        # A host that holds the deal (``Mesh.host(hold=True)``, a person at the host's terminal)
        # may remove a seat until it seals the roster; nobody is ready before then. Both facts
        # are noted in the transcript (``hold``, ``sealed``), so that a program restarted before
        # the deal holds too, and waits for the seal (``_restore``).
        self._sealed = True
        self._removed_keys: set[bytes] = set()

    # -- construction ------------------------------------------------------------------------

    @classmethod
    async def host(
        cls,
        identity: Identity,
        seats: int,
        *,
        port: int = 0,
        code: str | None = None,
        game_info: dict[str, Any] | None = None,
        name: str | None = None,
        bind: str = "0.0.0.0",
        timings: Timings | None = None,
        home: str | Path | None = None,
        hold: bool = False,
    ) -> Mesh:
        """Open a table of ``seats`` seats with us at seat 0. ``mesh.code`` is the code to share.
        ``hold``: the deal waits for ``seal()`` and ``remove(seat)`` may clear a seat until then."""
        if not isinstance(seats, int) or not 2 <= seats <= MAX_SEATS:
            raise ValueError("a table has 2 to 16 seats")
        name = check_name(name or "host")
        code = normalize_code(code) if code else new_code()
        game_info = dict(game_info or {})
        canonical(game_info)
        secret = await asyncio.to_thread(transport_secret, code)
        self = cls(identity, bind=bind, port=port, timings=timings, home=home, transport=secret)
        try:
            table = new_table_id()
            self._code_key = await asyncio.to_thread(code_key, code, table)
            self._setup_table(table, seats, 0, game_info, code)
            self._sealed = not hold
            self._set_member(self._own_entry(name, self._advertised(None)))
            if hold:
                self.note("hold", True)
            self.note("transport", secret.hex())
            self._start()
        except BaseException:
            await self.close(announce=False)
            raise
        return self

    @classmethod
    async def join(
        cls,
        identity: Identity,
        address: str,
        code: str | None,
        name: str,
        *,
        bind: str = "0.0.0.0",
        port: int = 0,
        timings: Timings | None = None,
        home: str | Path | None = None,
    ) -> Mesh:
        """Join the table at ``address`` (HOST:PORT) with its ``code``. If this identity already has
        a seat there (we crashed), we take it back and resume from our transcript."""
        address = normalize_address(address)
        name = check_name(name)
        if code is None:
            raise MeshError(
                "joining needs the table code (--code); to take a seat back after a crash "
                "without it, run: p2pcards join --resume"
            )
        code = normalize_code(code)
        secret = await asyncio.to_thread(transport_secret, code)
        self = cls(identity, bind=bind, port=port, timings=timings, home=home, transport=secret)
        try:
            await self._handshake(address, code, name)
        except BaseException:
            await self.close(announce=False)
            raise
        return self

    def _bind(self, port: int, fallback: bool) -> int:
        host = self.bind_host
        try:
            self.router.bind(f"tcp://{host}:{port or '*'}")
        except zmq.ZMQError as e:
            if fallback and port and e.errno == errno.EADDRINUSE:
                self.router.bind(f"tcp://{host}:*")
            else:
                self.router.close(0)
                self.gate.close()
                self.ctx.term()
                why = os.strerror(e.errno) if e.errno else e.strerror  # (pyzmq's strerror
                # repeats the endpoint: "... (addr='tcp://0.0.0.0:7000')")
                if e.errno == errno.EADDRINUSE:
                    why += " (another program listens there: choose another --port, or none)"
                raise MeshError(f"cannot listen on {host}:{port}: {why}") from None
        endpoint = self.router.getsockopt(zmq.LAST_ENDPOINT).decode()
        return int(endpoint.rsplit(":", 1)[1])

    def _advertised(self, toward: str | None) -> str:
        host = self.bind_host
        if host in ("0.0.0.0", "*", ""):
            host = local_ip(toward)
        return f"tcp://{host}:{self.port}"

    def _setup_table(
        self, table: str, seats: int, seat: int, game_info: dict[str, Any], code: str | None
    ) -> None:
        self.table, self.seats, self.seat, self.game_info, self.code = (
            table,
            seats,
            seat,
            game_info,
            code,
        )
        self.verifier = Verifier(table, seats, {})
        self.transcript_path = transcript_path(table, self.home)

    def _open_transcript(self, fresh: bool) -> None:
        assert self.transcript_path is not None
        if self._transcript_lock is None:
            self._transcript_lock = hold_transcript(self.transcript_path)
        if fresh and self.transcript_path.exists():
            raise MeshError(
                f"a transcript for table {self.table} already exists at {self.transcript_path}"
            )
        self.transcript = TranscriptWriter(self.transcript_path)
        if fresh:
            rec: Message = {
                "type": "table",
                "mesh": TRANSCRIPT_VERSION,
                "table": self.table,
                "seats": self.seats,
                "seat": self.seat,
                "key": self.identity.key_hex,
                "game_info": self.game_info,
                "created": time.time(),
            }
            if self.code is not None and self.seat == 0:
                rec["code"] = self.code
            self.transcript.write(rec)

    def _own_entry(self, name: str, addr: str) -> Member:
        sig = b64(self.identity.sign(entry_payload(self.table, name, self.identity.key_hex, addr)))
        return Member(self.seat, name, self.identity.public_key, addr, sig)

    def _set_member(self, m: Member, record: bool = True) -> None:
        """Add or update a roster member (and our dealer to it)."""
        assert self.verifier is not None
        old = self._members.get(m.seat)
        if old is not None and old.key != m.key:
            raise MeshError(f"seat {m.seat} cannot change its key")
        self._members[m.seat] = m
        self.verifier.keys[m.seat] = m.key
        if m.seat != self.seat:
            if old is None:
                self._last_heard[m.seat] = time.monotonic()
            if old is not None and old.addr != m.addr:
                self._dial.pop(m.seat, None)
            self._connect(m.seat)
        if record:
            if self.transcript is None:
                self._open_transcript(fresh=True)
            self._record_roster()
        if old is None and m.seat != self.seat:
            self._emit(MeshEvent("joined", m.seat, m.name, m.fingerprint))
        if len(self._members) == self.seats and not self._full.is_set():
            self._full.set()
            self._emit(MeshEvent("full", detail=f"roster {self.roster_digest}"))
            self._maybe_ready()

    def _record_roster(self) -> None:
        self._write({"type": "roster", "roster": [m.to_json() for m in self.roster]})

    def _connect(self, seat: int) -> None:
        addr = self._dial.get(seat) or self._members[seat].addr
        sock = self._dealers.get(seat)
        if sock is not None:
            if self._dealer_addr.get(seat) == addr:
                return
            sock.close(0)
        sock = self.ctx.socket(zmq.DEALER)
        if self.curve is not None:
            self.curve.dial(sock)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.SNDHWM, HWM)
        sock.setsockopt(zmq.RECONNECT_IVL, 100)
        sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
        try:
            sock.connect(addr)
        except zmq.ZMQError as e:  # roster.normalize_address should have refused it already
            sock.close(0)
            self._dealers.pop(seat, None)
            self._dealer_addr.pop(seat, None)
            raise ValueError(f"cannot dial {addr[:80]!r} ({e.strerror})") from None
        self._dealers[seat] = sock
        self._dealer_addr[seat] = addr
        self._watch_dealer(seat)

    def _watch_dealer(self, seat: int) -> None:
        """Watch our DEALER to ``seat`` for its gate's refusal (gate.py): libzmq does not dial
        again after one, so ``_check_refused`` does, later."""
        old = self._dealer_mons.pop(seat, None)
        if old is not None:
            old.close(0)
        self._watches += 1  # an address of its own (the handshake's monitor may still hold one)
        self._dealer_mons[seat] = self._dealers[seat].get_monitor_socket(
            zmq.EVENT_HANDSHAKE_FAILED_AUTH, f"inproc://p2pcards-dealer-{id(self):x}-{self._watches}")

    def _check_refused(self, now: float) -> None:
        """Dial again, ``REDIAL_AFTER`` seconds later, a peer whose gate refused our connection
        (too many from our address at it: someone here holds them), and say so once."""
        for seat, mon in list(self._dealer_mons.items()):
            refused = False
            while mon.getsockopt(zmq.EVENTS) & zmq.POLLIN:
                fut = mon.recv_multipart(zmq.NOBLOCK)
                if not fut.done() or fut.exception() is not None:
                    break
                refused = True
            if refused and seat not in self._redial_at:
                self._redial_at[seat] = now + REDIAL_AFTER
                log.warning("seat %d: %s's program refused our connection (too many connections "
                            "from this machine's address are open to it); dialling again in %g s",
                            self.seat, self.name_of(seat), REDIAL_AFTER)
        for seat, at in list(self._redial_at.items()):
            if now >= at:
                del self._redial_at[seat]
                sock = self._dealers.pop(seat, None)
                if sock is not None and seat in self._members:
                    sock.close(0)
                    self._connect(seat)

    def _start(self) -> None:
        self._tasks.append(asyncio.create_task(self._recv_loop(), name=f"mesh-recv-{self.seat}"))
        self._tasks.append(asyncio.create_task(self._tick_loop(), name=f"mesh-tick-{self.seat}"))

    # -- public API --------------------------------------------------------------------------

    @property
    def roster(self) -> list[Member]:
        return [self._members[s] for s in sorted(self._members)]

    @property
    def game_sig(self) -> str | None:
        """The host's signature over this table's game (``protocol.seating``): the host's own,
        or the one its welcome gave us (``None``: a transcript from before it was kept)."""
        if self.seat == 0:
            return sign_game(self.identity, self.table, self.game_info)
        sig = self.notes.get("game_sig")
        return sig if isinstance(sig, str) else None

    @property
    def roster_digest(self) -> str:
        """The roster's digest (``roster.roster_digest``), compared in every heads sent and
        received: made again only when a seat's name or key changed (3 % of a match's CPU)."""
        now = tuple((m.seat, m.name, m.key) for m in self._members.values())
        if self._digest_of is None or self._digest_of[0] != now:
            self._digest_of = (now, roster_digest(self._members.values()))
        return self._digest_of[1]

    @property
    def full(self) -> bool:
        return self._full.is_set()

    @property
    def free_seats(self) -> int:
        return self.seats - len(self._members)

    @property
    def address(self) -> str:
        """Our ROUTER's address as we announce it (``tcp://HOST:PORT``)."""
        m = self._members.get(self.seat)
        return m.addr if m else self._advertised(None)

    @property
    def name(self) -> str:
        return self._members[self.seat].name

    def name_of(self, seat: int) -> str:
        m = self._members.get(seat)
        return m.name if m else f"seat {seat + 1}"  # from 1, as people count

    def seat_text(self, seat: int) -> str:
        """What tells ``seat`` apart from every other whatever its name looks like: its number
        and its key's fingerprint ("seat 2, Q3GN-RVT9"), for every line that blames a seat."""
        m = self._members.get(seat)
        return f"seat {seat + 1}, {m.fingerprint}" if m else f"seat {seat + 1}"

    def blamed(self, seat: int, reason: str, limit: int = 500) -> str:
        """``reason`` (at most ``limit`` characters) ending with the seat it blames told apart
        ("bob was away ... (seat 2, Q3GN-RVT9)"): a look-alike name cannot take the blame."""
        tag = f" ({self.seat_text(seat)})"
        return reason[:limit] if reason.endswith(tag) else reason[:limit - len(tag)] + tag

    @property
    def sealed(self) -> bool:
        """False while a holding host may still remove seats (the deal waits for it)."""
        return self._sealed

    def remove(self, seat: int, *, bar: bool = True) -> str:
        """The host removes ``seat``'s player before the deal (a squatter, a stranger): the seat
        is free again, its key may not sit down again at this table (``bar``; a player who left
        of their own accord may), and every peer (the removed one too) is told. Returns the
        removed player's name."""
        if self.seat != 0 or self._sealed:
            raise MeshError("only a host holding the deal can remove a seat, before the deal")
        if seat == self.seat or seat not in self._members:
            raise MeshError(f"there is nobody to remove at seat {seat + 1}")
        gone = self._members[seat]
        if bar:
            self._removed_keys.add(gone.key)
            # noted, so that the key stays out after a restart of the host's program too
            self.note("removed", sorted(k.hex() for k in self._removed_keys))
        msg = {"roster": [m.to_json() for m in self.roster if m.seat != seat]}
        self._send_ctl(seat, "roster", msg)  # the removed player is told too, then cut off
        self._forget_seat(seat)
        self._record_roster()
        for s in self._members:
            if s != self.seat:
                self._send_roster(s)
        sock = self._dealers.pop(seat, None)
        self._dealer_addr.pop(seat, None)
        if sock is not None:
            asyncio.get_running_loop().call_later(2.0, sock.close, 0)
        self._emit(MeshEvent("removed", seat, gone.name, gone.fingerprint))
        return gone.name

    def seal(self) -> None:
        """The holding host deals: the roster is final; every peer gets ready once full."""
        if self._sealed:
            return
        if not self._full.is_set():
            raise MeshError("the table is not full yet")
        self._set_sealed()
        for s in self._members:
            if s != self.seat:
                self._send_roster(s)

    def _set_sealed(self) -> None:
        """The roster is final (our host dealt): noted, so that a restart knows it."""
        self._sealed = True
        if self.notes.get("hold") is True:
            self.note("sealed", True)
        self._maybe_ready()

    def _send_roster(self, seat: int) -> None:
        """A holding host tells ``seat`` the roster as it stands, and whether it is sealed."""
        msg: dict[str, Any] = {"roster": [m.to_json() for m in self.roster]}
        if self._sealed:
            msg["sealed"] = True
        self._send_ctl(seat, "roster", msg)

    def _forget_seat(self, seat: int) -> None:
        """Everything this peer holds about ``seat``'s player, before the deal (nothing of the
        game is kept yet): the seat is free for another key."""
        self._members.pop(seat, None)
        self._dial.pop(seat, None)
        self.budgets.unseat(seat)  # its connections are nobody's now, not the next player's
        if self.verifier is not None:
            self.verifier.keys.pop(seat, None)
        for d in (self._ctl_state, self._last_heard, self._last_ping, self._heads_sent,
                  self._peer_heads, self._behind_since, self._starved_since, self._last_want,
                  self._future,
                  self._unread_bytes, self._recorded_bytes, self._resend_budget,
                  self._resend_asks, self._future_bytes, self.away_since, self._known_max,
                  self._want_tries, self._topics_opened, self._copies, self._copy_budget,
                  self._excused, self._invited, self._last_invite, self._topic_counts, self._delivered,
                  self._rejects, self._reject_budget, self._asked_holder, self._ctl_budget,
                  self._useless_ctl, self._useless_budget,
                  self._held_ours, self._latest_heads, self._direct_at, self._through_state,
                  self._ctl_tag, self._through_tag, self._carriers, self._carrier_claims):
            d.pop(seat, None)
        for k in [k for k in (*self._forwarded, *self._pushed) if seat in k]:
            self._forwarded.pop(k, None)
            self._pushed.pop(k, None)
        for k in [k for k, v in self._via.items() if seat in (k, v)]:
            del self._via[k]
        for k in [k for k in self._via_demoted if seat in k]:
            del self._via_demoted[k]
        for k in [k for k in self._box_keys if seat in k]:
            del self._box_keys[k]
        for k in [k for k in self._resent if seat in k]:
            del self._resent[k]
        for k in [k for k in self._vouched if seat in k]:
            del self._vouched[k]
        for k in [k for k in self._failed_holder if seat in k]:
            del self._failed_holder[k]
        for st in (self._ever_heard, self.away, self.left):
            st.discard(seat)
        self._full.clear()

    async def wait_full(self, timeout: float | None = None) -> None:
        """Wait until every seat is taken and we have heard from every other peer directly;
        ``MeshError`` with its reason if the table stops first (a roster this peer refuses)."""

        async def ready() -> None:
            while not self._ready.is_set():
                if self.stopped is not None:
                    raise MeshError(f"the table stopped before the deal: {self.stopped.reason}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._ready.wait(), 0.2)

        await asyncio.wait_for(ready(), timeout)

    def subscribe(self) -> asyncio.Queue[MeshEvent]:
        """A queue receiving every ``MeshEvent`` from now on."""
        q: asyncio.Queue[MeshEvent] = asyncio.Queue()
        self._subscribers.append(q)
        return q

    def unreached(self, grace: float = 3.0) -> set[int]:
        """Seats that, by their own latest heads, still lack an envelope of ours sent more than
        ``grace`` seconds ago: our messages are not getting through to them (a wrong address, a
        one-way link), so a timeout must not name them for being slow."""
        assert self.verifier is not None
        mine = self.verifier.chains[self.seat].seq
        now = time.monotonic()
        out = set()
        for s, seqs in self._peer_heads.items():
            have = seqs[self.seat] if self.seat < len(seqs) else mine
            held, cur = self._held_ours.get(s), self._ctl_state.get(s)
            if held is not None and cur is not None and held[0] == cur[0]:
                # what it signed it held, in this run of its program (to us or to another
                # seat): a claim to lack those is its own contradiction, and waits for nothing
                have = max(have, held[1])
            if have < mine and have < len(self._sent_at) and now - self._sent_at[have] > grace:
                out.add(s)
        return out

    def not_heard_from(self) -> list[int]:
        """The seated seats, other than ours, that this program has heard nothing from since it
        started (after a resume: the peers it has not reached again yet)."""
        return sorted(s for s in self._members if s != self.seat and s not in self._ever_heard)

    def waiting_for(self) -> list[str]:
        """Names of the peers marked away (for "waiting for <name>")."""
        return [self.name_of(s) for s in sorted(self.away)]

    def heads(self) -> dict[int, tuple[int, str]]:
        """Per seat, ``(seq, hash)`` of the last envelope we hold from it."""
        assert self.verifier is not None
        return self.verifier.heads()

    def note(self, key: str, value: Any) -> None:
        """Save a local value (e.g. the deck service's seed) in the transcript for a restart."""
        canonical(value)
        self.notes[key] = value
        self._write({"type": "note", "key": key, "value": value})

    def finish(self, result: Any = None) -> None:
        """Mark the game finished in the transcript."""
        self._write({"type": "end", "result": result})

    async def close(self, announce: bool = True) -> None:
        """Leave: tell the others (unless ``announce`` is False, as in a crash) and close all."""
        if self.closed:
            return
        if announce and self.verifier is not None and self.seat >= 0:
            # our final heads go with the leave: a peer still in its final checkpoint may have
            # nothing newer from us, and we will not answer its question any more
            bye = {"heads": self._heads_list()}
            for s in self._members:
                if s != self.seat:
                    self._send_ctl(s, "bye", bye)
        self.closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        linger = 200 if announce else 0
        for mon in self._dealer_mons.values():
            mon.close(0)
        for sock in self._dealers.values():
            sock.close(linger)
        self.router.close(0)
        self.gate.close()  # after the ROUTER: without a handler, libzmq admits everyone
        if announce:
            await asyncio.to_thread(self.ctx.destroy, linger)
        else:
            self.ctx.destroy(0)
        if self.transcript is not None:
            self.transcript.close()
        if self._transcript_lock is not None:
            os.close(self._transcript_lock)  # and so the lock goes
            self._transcript_lock = None
        for q in self._inboxes.values():
            q.put_nowait(_CLOSED)

    async def __aenter__(self) -> Mesh:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
