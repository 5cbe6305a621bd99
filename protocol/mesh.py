"""The ZeroMQ mesh: every seat of a table talks to every other seat, no server.

Each peer binds one ROUTER (its inbox) and connects one DEALER to every other peer's ROUTER
(zguide's "Harmony" pattern, as in Zyre). Everything a peer sends goes out on its DEALERs; the
ROUTER only ever receives (and answers join handshakes). See ``docs/network.md`` for the full
wire format; in short every ZeroMQ message is two frames, ``[kind, canonical JSON]``:

- ``hs``: join handshake (hello → challenge → join → welcome | refused), the only unsigned-by-roster
  traffic; the table code is proven with an HMAC, never sent.
- ``ctl``: control messages signed by a seated peer (link, heads, roster, want, proof?, proof,
  evidence, bye), bound to the table and fresh by (session, counter).
- ``env`` / ``relay``: an envelope (``protocol.envelope``) sent by its author / forwarded by
  another peer during catch-up.

Usage::

    mesh = await Mesh.host(identity, seats=3, port=0, game_info={"game": "go-out-girl"})
    print(mesh.code, mesh.address)             # tell the other players
    await mesh.wait_full()
    ch = mesh.channel                          # a protocol.channel.Channel
    await ch.broadcast("game", {"hello": 1})

    mesh = await Mesh.join(identity, "192.168.1.5:7000", code="ABC-DEF", name="bob")
    mesh = await Mesh.resume(identity, table_id)   # after a crash: replay from the transcript
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import secrets
import socket
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zmq
import zmq.asyncio

from .channel import Channel, ChannelClosed
from .envelope import (
    DUPLICATE,
    FUTURE,
    NEW,
    EnvelopeError,
    Equivocation,
    Message,
    Verifier,
    b64,
    box_key,
    canonical,
    check_shape,
    check_signature,
    envelope_hash,
    open_box,
    parse_canonical,
    seal,
    unb64,
)
from .identity import Identity, fingerprint, public_key_from_hex, verify
from .roster import Member, check_name, entry_payload, normalize_address, roster_digest
from .tablecode import code_key, code_proof, new_code, new_table_id, normalize_code, proofs_equal
from .transcript import (
    TRANSCRIPT_VERSION,
    Transcript,
    TranscriptWriter,
    read_transcript,
    transcript_path,
)

log = logging.getLogger("p2pcards.mesh")

MESH_VERSION = 1
CTL_DOMAIN = b"p2pcards/v1/ctl\n"
HS_DOMAIN = b"p2pcards/v1/hs\n"
K_HS, K_CTL, K_ENV, K_RELAY = b"hs", b"ctl", b"env", b"relay"
MAX_FRAME = 4 * 1024 * 1024
HWM = 10_000
MAX_PENDING_HANDSHAKES = 32
MAX_FUTURE = 5_000
MAX_BATCH = 1_000


class MeshError(Exception):
    """A mesh operation failed; the message is meant for the player."""


class JoinRefused(MeshError):
    """The table refused us (wrong code, full, name taken, ...); ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"refused: {reason}")
        self.reason = reason


class JoinFailed(MeshError):
    """The join could not complete (no answer, bad answer)."""


class ReplayDivergence(MeshError):
    """A peer re-running from its transcript tried to send something other than what it had sent."""


@dataclass
class Timings:
    """Liveness and retry timings in seconds. Defaults suit a LAN; tests use ``fast()``."""

    ping_after: float = 1.5  # a peer quiet this long is pinged
    away_after: float = 6.0  # ... and this long is marked away
    heads_every: float = 1.0  # gossip our transcript heads at most this often when they change
    resend_after: float = 1.0  # a gap or a missing envelope persisting this long is re-requested
    handshake_timeout: float = 10.0
    tick: float = 0.25

    @classmethod
    def fast(cls) -> Timings:
        return cls(
            ping_after=0.2,
            away_after=1.5,
            heads_every=0.1,
            resend_after=0.15,
            handshake_timeout=5.0,
            tick=0.03,
        )


def _split_address(addr: str) -> tuple[str, int]:
    host, _, port = addr[len("tcp://") :].rpartition(":")
    return host, int(port)


def _route_ip(target: str) -> str:
    """The local IP this machine uses to reach ``target`` (a UDP connect sends no packet)."""
    if target.startswith("127.") or target == "localhost":
        return "127.0.0.1"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((target, 9))
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"


# -- events and replay ------------------------------------------------------------------------


@dataclass
class MeshEvent:
    """Something the table may want to show: ``kind`` is one of joined, full, away, back, left,
    equivocation, fault. ``proof`` holds the signed envelopes behind an equivocation or fault."""

    kind: str
    seat: int | None = None
    name: str | None = None
    detail: str = ""
    proof: tuple[Message, ...] = ()

    def __str__(self) -> str:
        parts = [self.kind]
        if self.seat is not None:
            parts.append(f"{self.name} (seat {self.seat})" if self.name else f"seat {self.seat}")
        if self.detail:
            parts.append(self.detail)
        return ": ".join(parts)


@dataclass
class Replay:
    """What a restarted peer recorded sending, per topic, for its re-run to be checked against.

    ``recorded[topic]`` is every ``(to, body)`` the transcript shows sent on that topic (``to`` None
    for a broadcast), in order; ``pending(topic)`` is the part the re-run has not re-sent yet."""

    recorded: dict[str, list[tuple[int | None, Message]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    _queue: dict[str, deque[tuple[int | None, bytes, int]]] = field(
        default_factory=lambda: defaultdict(deque)
    )
    swallowed: int = 0

    def add(self, topic: str, to: int | None, body: Message, seq: int) -> None:
        self.recorded[topic].append((to, body))
        self._queue[topic].append((to, canonical(body), seq))

    @property
    def active(self) -> bool:
        return any(self._queue.values())

    def pending(self, topic: str) -> list[tuple[int | None, Message]]:
        q = self._queue.get(topic)
        if not q:
            return []
        return self.recorded[topic][len(self.recorded[topic]) - len(q) :]

    def match(self, topic: str, to: int | None, body: Message) -> bool:
        """True if this send is the next recorded one on ``topic`` (swallow it); False if the
        topic's record is used up (send live); ``ReplayDivergence`` if it differs."""
        q = self._queue.get(topic)
        if not q:
            return False
        rto, rbody, seq = q[0]
        if rto != to or rbody != canonical(body):
            what = "broadcast" if rto is None else f"send to seat {rto}"
            raise ReplayDivergence(
                f"re-run diverged on topic {topic!r}: the transcript's next message (seq {seq}) is a {what} of "
                f"{rbody.decode()[:200]}, the re-run sent {'a broadcast' if to is None else f'to seat {to}'} "
                f"{canonical(body).decode()[:200]}"
            )
        q.popleft()
        self.swallowed += 1
        return True


_CLOSED = object()


class MeshChannel(Channel):
    """The ``Channel`` over the mesh: ``recv`` gives the authenticated sender seat; private sends
    are encrypted to their recipient. On a resumed peer the channel replays first (see ``Replay``)."""

    def __init__(self, mesh: Mesh) -> None:
        self._mesh = mesh

    @property
    def seat(self) -> int:  # type: ignore[override]
        return self._mesh.seat

    @property
    def seats(self) -> int:  # type: ignore[override]
        return self._mesh.seats

    async def send(self, to: int, topic: str, body: Message) -> None:
        if not isinstance(to, int) or to == self.seat or not 0 <= to < self.seats:
            raise ValueError(f"seat {self.seat} cannot send to seat {to}")
        await self._mesh._send(to, topic, body)

    async def broadcast(self, topic: str, body: Message) -> None:
        await self._mesh._send(None, topic, body)

    async def recv(self, topic: str, timeout: float | None = None) -> tuple[int, Message]:
        mesh = self._mesh
        if mesh.closed:
            raise ChannelClosed()
        q = mesh._inbox(topic)
        item = await (q.get() if timeout is None else asyncio.wait_for(q.get(), timeout))
        if item is _CLOSED:
            q.put_nowait(_CLOSED)
            raise ChannelClosed()
        return item

    # -- extras for the table ----------------------------------------------------------------

    @property
    def replaying(self) -> bool:
        """True while the re-run has recorded messages left to re-send."""
        return self._mesh.replay.active

    def recorded(self, topic: str) -> list[tuple[int | None, Message]]:
        """Every ``(to, body)`` the transcript shows this seat sent on ``topic`` before a restart."""
        return list(self._mesh.replay.recorded.get(topic, []))

    def pending_replay(self, topic: str) -> list[tuple[int | None, Message]]:
        """The recorded sends on ``topic`` not yet re-sent: e.g. a human's decisions to re-apply."""
        return self._mesh.replay.pending(topic)

    def away(self) -> set[int]:
        return set(self._mesh.away)

    def waiting_for(self) -> list[str]:
        return self._mesh.waiting_for()


# -- the mesh ---------------------------------------------------------------------------------


class Mesh:
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
    ) -> None:
        self.identity = identity
        self.timings = timings or Timings()
        self.home = home if home is not None else identity.home
        self.bind_host = bind
        self.ctx = zmq.asyncio.Context()
        self.router = self.ctx.socket(zmq.ROUTER)
        self.router.setsockopt(zmq.LINGER, 0)
        self.router.setsockopt(zmq.RCVHWM, HWM)
        self.router.setsockopt(zmq.MAXMSGSIZE, MAX_FRAME)
        self.port = self._bind(port, fallback_port)
        # table state, set by _setup_table
        self.table: str = ""
        self.seats = 0
        self.seat = -1
        self.game_info: dict[str, Any] = {}
        self.code: str | None = None
        self._code_key: bytes | None = None
        self._members: dict[int, Member] = {}
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
        self._dealer_addr: dict[int, str] = {}
        self._inboxes: dict[str, asyncio.Queue[Any]] = {}
        self._subscribers: list[asyncio.Queue[MeshEvent]] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._full = asyncio.Event()
        self._ready = asyncio.Event()
        self._box_keys: dict[tuple[int, int], bytes] = {}
        self._pending_hs: dict[bytes, dict[str, Any]] = {}
        self._future: dict[int, dict[int, tuple[Message, str]]] = defaultdict(dict)
        self._sent_at: list[float] = []  # monotonic send time of our own envelope seq i+1
        self._sess = secrets.token_hex(8)
        self._boot = time.time_ns()
        self._ctr = 0
        self._ctl_state: dict[int, tuple[str, int, int]] = {}
        now = time.monotonic()
        self._started = now
        self._last_tick = now
        self._last_heard: dict[int, float] = {}
        self._ever_heard: set[int] = set()
        self._last_ping: dict[int, float] = {}
        self._heads_sent: dict[int, tuple[Any, float]] = {}
        self._peer_heads: dict[int, list[int]] = {}
        self._known_max: dict[int, int] = defaultdict(int)
        self._behind_since: dict[int, float] = {}
        self._last_want: dict[int, float] = {}
        self._resent: dict[tuple[int, int], tuple[int, float]] = {}
        self._proof_asked: dict[tuple[int, int, int], float] = {}
        self._accused: set[int] = set()
        self._accused_faults: set[str] = set()
        self._stuck: set[int] = set()  # senders whose next envelope we had to reject
        self._cp_answers: dict[int, dict[int, Any]] = {}
        self._log_budget = [20.0, now]

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
    ) -> Mesh:
        """Open a table of ``seats`` seats with us at seat 0. ``mesh.code`` is the code to share."""
        if not isinstance(seats, int) or not 2 <= seats <= 16:
            raise ValueError("a table has 2 to 16 seats")
        name = check_name(name or "host")
        code = normalize_code(code) if code else new_code()
        game_info = dict(game_info or {})
        canonical(game_info)
        self = cls(identity, bind=bind, port=port, timings=timings, home=home)
        try:
            table = new_table_id()
            self._code_key = await asyncio.to_thread(code_key, code, table)
            self._setup_table(table, seats, 0, game_info, code)
            self._set_member(self._own_entry(name, self._advertised(None)))
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
        if code is not None:
            code = normalize_code(code)
        self = cls(identity, bind=bind, port=port, timings=timings, home=home)
        try:
            await self._handshake(address, code, name)
        except BaseException:
            await self.close(announce=False)
            raise
        return self

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
        t = read_transcript(transcript, identity, tolerate_torn_tail=True)
        if t.key != identity.key_hex:
            raise MeshError(
                f"{transcript} belongs to another identity ({fingerprint(bytes.fromhex(t.key))})"
            )
        old_port = 0
        for m in t.roster:
            if m.get("seat") == t.seat:
                with contextlib.suppress(ValueError):
                    old_port = _split_address(normalize_address(m["addr"]))[1]
        self = cls(
            identity,
            bind=bind,
            port=old_port if port is None else port,
            timings=timings,
            home=home,
            fallback_port=port is None,
        )
        try:
            self._restore(t)
            self._start()
            self._link_all(force=True)
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
                self.ctx.term()
                raise MeshError(f"cannot listen on {host}:{port}: {e.strerror}") from None
        endpoint = self.router.getsockopt(zmq.LAST_ENDPOINT).decode()
        return int(endpoint.rsplit(":", 1)[1])

    def _advertised(self, toward: str | None) -> str:
        host = self.bind_host
        if host in ("0.0.0.0", "*", ""):
            host = _route_ip(toward or "192.0.2.1")
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
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.SNDHWM, HWM)
        sock.setsockopt(zmq.RECONNECT_IVL, 100)
        sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
        sock.connect(addr)
        self._dealers[seat] = sock
        self._dealer_addr[seat] = addr

    def _start(self) -> None:
        self._tasks.append(asyncio.create_task(self._recv_loop(), name=f"mesh-recv-{self.seat}"))
        self._tasks.append(asyncio.create_task(self._tick_loop(), name=f"mesh-tick-{self.seat}"))

    # -- joining -----------------------------------------------------------------------------

    async def _handshake(self, address: str, code: str | None, name: str) -> None:
        t = self.timings
        dealer = self.ctx.socket(zmq.DEALER)
        dealer.setsockopt(zmq.LINGER, 0)
        dealer.setsockopt(zmq.SNDHWM, HWM)
        owned = True
        try:
            dealer.connect(address)
            jnonce = secrets.token_hex(32)
            addr = self._advertised(_split_address(address)[0])
            key = self.identity.key_hex
            hello = {
                "t": "hello",
                "v": MESH_VERSION,
                "name": name,
                "key": key,
                "addr": addr,
                "nonce": jnonce,
            }
            await dealer.send_multipart([K_HS, canonical(hello)])
            ch = await self._hs_answer(dealer, address, t.handshake_timeout, "challenge")
            try:
                table, hnonce, hkey_hex = ch["table"], ch["nonce"], ch["key"]
                seats, rseat = ch["seats"], ch["seat"]
                bytes.fromhex(table)
                hkey = public_key_from_hex(hkey_hex)
                if (
                    len(table) != 32
                    or not isinstance(hnonce, str)
                    or not isinstance(seats, int)
                    or not isinstance(rseat, int)
                ):
                    raise ValueError("bad fields")
            except (KeyError, ValueError, TypeError) as e:
                raise JoinFailed(f"{address} sent a malformed challenge ({e})") from None
            ck = await asyncio.to_thread(code_key, code, table) if code is not None else None
            proof = code_proof(ck, "join", table, hnonce, jnonce, key, hkey_hex) if ck else None
            signed = {
                "t": "join",
                "table": table,
                "hnonce": hnonce,
                "jnonce": jnonce,
                "key": key,
                "proof": proof,
            }
            join = {
                "t": "join",
                "proof": proof,
                "sig": b64(self.identity.sign(HS_DOMAIN + canonical(signed))),
                "entry_sig": b64(self.identity.sign(entry_payload(table, name, key, addr))),
            }
            await dealer.send_multipart([K_HS, canonical(join)])
            w = await self._hs_answer(dealer, address, t.handshake_timeout, "welcome")
            sig = w.pop("sig", None)
            try:
                ok = verify(hkey, unb64(sig, "welcome signature"), HS_DOMAIN + canonical(w))
            except ValueError:
                ok = False
            if not ok:
                raise JoinFailed(f"{address} sent a welcome it did not sign")
            rejoin = w.get("rejoin") is True
            if (
                ck is not None
                and not rejoin
                and not proofs_equal(
                    w.get("hproof"), code_proof(ck, "host", table, hnonce, jnonce, key, hkey_hex)
                )
            ):
                raise JoinFailed(
                    f"{address} did not prove it knows the table code: not the table you were given"
                )
            try:
                seat, game_info = w["seat"], w["game_info"]
                if w["table"] != table or w["seats"] != seats or not isinstance(game_info, dict):
                    raise ValueError("inconsistent welcome")
                roster = [Member.from_json(m, table, seats) for m in w["roster"]]
                mine = [m for m in roster if m.seat == seat]
                if len(mine) != 1 or mine[0].key != self.identity.public_key:
                    raise ValueError("the roster does not give us our seat")
                if not any(m.seat == rseat and m.key == hkey for m in roster):
                    raise ValueError("the roster does not hold the peer we talked to")
            except (KeyError, ValueError, TypeError) as e:
                raise JoinFailed(f"{address} sent a malformed welcome ({e})") from None
            path = transcript_path(table, self.home)
            if rejoin and not path.exists() and w.get("yourseq") == 0:
                log.info(
                    "no transcript of seat %d here, and the table holds nothing from it: starting afresh",
                    w.get("seat"),
                )
                rejoin = False
            if rejoin:
                if not path.exists():
                    raise MeshError(
                        f"you already have seat {seat} at this table, but there is no transcript of it at {path}; "
                        "restart with the data directory (P2PCARDS_HOME) you played with"
                    )
                tr = read_transcript(path, self.identity, tolerate_torn_tail=True)
                self._dial[rseat] = address
                self._dealers[rseat] = dealer
                self._dealer_addr[rseat] = address
                owned = False
                self._restore(tr)
                self._start()
                self._link_all(force=True)
                return
            self._setup_table(table, seats, seat, game_info, None)
            self._dial[rseat] = address
            self._dealers[rseat] = dealer
            self._dealer_addr[rseat] = address
            owned = False
            self._open_transcript(fresh=True)
            for m in roster:
                self._set_member(m, record=False)
            own = self._own_entry(name, addr)
            if self._members[seat] != own:  # a seat we take back: our address has changed
                self._set_member(own, record=False)
            self._record_roster()
            self._start()
            self._link_all()
        finally:
            if owned:
                dealer.close(0)

    async def _hs_answer(
        self, dealer: zmq.asyncio.Socket, address: str, timeout: float, want: str
    ) -> Message:
        try:
            frames = await asyncio.wait_for(dealer.recv_multipart(), timeout)
        except TimeoutError:
            raise JoinFailed(
                f"no answer from {address} within {timeout:g} s: check the address and that the host is running"
            ) from None
        try:
            if len(frames) != 2 or frames[0] != K_HS:
                raise ValueError("not a handshake frame")
            msg = parse_canonical(frames[1], "handshake")
        except ValueError as e:
            raise JoinFailed(
                f"{address} answered with garbage ({e}): is that a p2pcards table?"
            ) from None
        if msg.get("t") == "refused":
            raise JoinRefused(str(msg.get("reason", "no reason given")))
        if msg.get("t") != want:
            raise JoinFailed(f"{address} answered {msg.get('t')!r} when {want!r} was expected")
        return msg

    def _hs_reply(self, rid: bytes, msg: Message) -> None:
        self._send_now(self.router, [rid, K_HS, canonical(msg)])

    def _refuse(self, rid: bytes, reason: str, who: str) -> None:
        log.warning("seat %d refused %s: %s", self.seat, who, reason)
        self._hs_reply(rid, {"t": "refused", "reason": reason})

    def _on_hello(self, rid: bytes, msg: Message) -> None:
        if msg.get("v") != MESH_VERSION:
            self._hs_reply(
                rid,
                {
                    "t": "refused",
                    "reason": f"incompatible p2pcards mesh version {msg.get('v')!r} (this table speaks {MESH_VERSION})",
                },
            )
            return
        try:
            check_name(msg["name"])
            public_key_from_hex(msg["key"])
            normalize_address(msg["addr"])
            if not isinstance(msg["nonce"], str) or len(msg["nonce"]) != 64:
                raise ValueError("bad nonce")
        except (KeyError, ValueError, TypeError) as e:
            self._drop(f"malformed hello ({e})")
            return
        if len(self._pending_hs) >= MAX_PENDING_HANDSHAKES:
            self._pending_hs.pop(next(iter(self._pending_hs)))
        hnonce = secrets.token_hex(32)
        self._pending_hs[rid] = {"hello": msg, "hnonce": hnonce}
        self._hs_reply(
            rid,
            {
                "t": "challenge",
                "v": MESH_VERSION,
                "table": self.table,
                "seats": self.seats,
                "seat": self.seat,
                "key": self.identity.key_hex,
                "nonce": hnonce,
            },
        )

    def _on_join(self, rid: bytes, msg: Message) -> None:
        p = self._pending_hs.pop(rid, None)
        if p is None:
            self._drop("join without a hello")
            return
        hello, hnonce = p["hello"], p["hnonce"]
        name, key_hex, addr, jnonce = hello["name"], hello["key"], hello["addr"], hello["nonce"]
        who = f"{name!r} ({fingerprint(bytes.fromhex(key_hex))})"
        key = bytes.fromhex(key_hex)
        proof = msg.get("proof")
        signed = {
            "t": "join",
            "table": self.table,
            "hnonce": hnonce,
            "jnonce": jnonce,
            "key": key_hex,
            "proof": proof,
        }
        try:
            ok = verify(key, unb64(msg.get("sig"), "sig"), HS_DOMAIN + canonical(signed))
            entry = Member.from_json(
                {
                    "seat": 0,
                    "name": name,
                    "key": key_hex,
                    "addr": addr,
                    "sig": msg.get("entry_sig"),
                },
                self.table,
                self.seats,
            )
        except ValueError as e:
            self._drop(f"malformed join from {who} ({e})")
            return
        if not ok:
            self._drop(f"join from {who} with a bad signature")
            return
        existing = next((m for m in self._members.values() if m.key == key), None)
        hproof = None
        if existing is not None:
            # it links to everyone with its own entry (and maybe a new address) once it resumes
            log.info("seat %d: %s takes seat %d back", self.seat, who, existing.seat)
            seat, rejoin = existing.seat, True
        elif self.seat != 0:
            self._refuse(
                rid, "this peer does not seat new players; join through the host's address", who
            )
            return
        elif self._full.is_set():
            self._refuse(rid, "the table is full", who)
            return
        elif self._code_key is None or not proofs_equal(
            proof,
            code_proof(
                self._code_key, "join", self.table, hnonce, jnonce, key_hex, self.identity.key_hex
            ),
        ):
            self._refuse(
                rid, "wrong table code" if proof else "this table needs its code (--code)", who
            )
            return
        elif any(m.name.casefold() == name.casefold() for m in self._members.values()):
            self._refuse(rid, f"the name {name!r} is taken at this table; pick another one", who)
            return
        else:
            seat, rejoin = len(self._members), False
            hproof = code_proof(
                self._code_key, "host", self.table, hnonce, jnonce, key_hex, self.identity.key_hex
            )
        welcome: Message = {
            "t": "welcome",
            "table": self.table,
            "seats": self.seats,
            "seat": seat,
            "game_info": self.game_info,
            "rejoin": rejoin,
            "yourseq": self.verifier.chains[seat].seq if self.verifier is not None else 0,
            "hproof": hproof,
            "roster": [m.to_json() for m in self.roster]
            + ([] if rejoin else [{**entry.to_json(), "seat": seat}]),
        }
        welcome["sig"] = b64(self.identity.sign(HS_DOMAIN + canonical(welcome)))
        if not rejoin:
            newcomer = Member(seat, name, key, addr, entry.sig)
            log.info("seat %d: %s joins at seat %d", self.seat, who, seat)
            self._set_member(newcomer)
            roster_msg = {"roster": [m.to_json() for m in self.roster]}
            for s in self._members:
                if s not in (self.seat, seat):
                    self._send_ctl(s, "roster", roster_msg)
            self._send_ctl(seat, "link", self._link_payload())
        self._hs_reply(rid, welcome)

    # -- resuming ----------------------------------------------------------------------------

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
            elif e.body is not None and (e.to is None or e.to == self.seat):
                self._inbox(e.topic).put_nowait((e.sender, _copy(e.body)))
        for f in t.faults:
            with contextlib.suppress(KeyError, TypeError):
                self._accused.add(f["seat"])
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
        for s, m in self._members.items():
            if s != self.seat:
                return _split_address(self._dial.get(s) or m.addr)[0]
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

    # -- public API --------------------------------------------------------------------------

    @property
    def roster(self) -> list[Member]:
        return [self._members[s] for s in sorted(self._members)]

    @property
    def roster_digest(self) -> str:
        return roster_digest(self._members.values())

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
        return m.name if m else f"seat {seat}"

    async def wait_full(self, timeout: float | None = None) -> None:
        """Wait until every seat is taken and we have heard from every other peer directly."""
        await asyncio.wait_for(self._ready.wait(), timeout)

    def subscribe(self) -> asyncio.Queue[MeshEvent]:
        """A queue receiving every ``MeshEvent`` from now on."""
        q: asyncio.Queue[MeshEvent] = asyncio.Queue()
        self._subscribers.append(q)
        return q

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

    async def checkpoint(self, timeout: float | None = 10.0) -> list[Equivocation]:
        """Compare transcript heads with every other peer now: returns once every peer has
        answered for everything we hold (and any mismatch has been proven), with every
        equivocation found so far. ``TimeoutError`` if some peer does not answer in time."""
        target = [seq for seq, _ in self._heads_list()]
        cp = secrets.token_hex(4)
        others = [s for s in self._members if s != self.seat]
        for s in others:
            self._cp_answers.pop(s, None)

        async def run() -> None:
            while True:
                missing = [s for s in others if not self._cp_done(s, cp, target)]
                if not missing and not self._proof_pending():
                    return
                for s in missing:
                    self._send_heads(s, reply=True, extra={"cp": cp, "cpat": target})
                await asyncio.sleep(self.timings.tick)

        await asyncio.wait_for(run(), timeout)
        return list(self.equivocations)

    async def close(self, announce: bool = True) -> None:
        """Leave: tell the others (unless ``announce`` is False, as in a crash) and close all."""
        if self.closed:
            return
        if announce and self.verifier is not None and self.seat >= 0:
            for s in self._members:
                if s != self.seat:
                    self._send_ctl(s, "bye", {})
        self.closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        linger = 200 if announce else 0
        for sock in self._dealers.values():
            sock.close(linger)
        self.router.close(0)
        if announce:
            await asyncio.to_thread(self.ctx.destroy, linger)
        else:
            self.ctx.destroy(0)
        if self.transcript is not None:
            self.transcript.close()
        for q in self._inboxes.values():
            q.put_nowait(_CLOSED)

    async def __aenter__(self) -> Mesh:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- sending -----------------------------------------------------------------------------

    def _inbox(self, topic: str) -> asyncio.Queue[Any]:
        q = self._inboxes.get(topic)
        if q is None:
            q = self._inboxes[topic] = asyncio.Queue()
        return q

    async def _send(self, to: int | None, topic: str, body: Message) -> None:
        if self.closed:
            raise ChannelClosed()
        if not isinstance(topic, str) or not 0 < len(topic) <= 64:
            raise ValueError("a topic is a string of 1 to 64 characters")
        if not isinstance(body, dict):
            raise ValueError("a message body must be a dict")
        canonical(body)
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
        env = seal(
            self.identity, self.table, self.seat, chain.seq + 1, chain.head, topic, body, to, key
        )
        h = envelope_hash(env)
        self.verifier.append(env, h)
        self._write({"type": "out", "env": env})
        self._sent_at.append(time.monotonic())
        frame = canonical(env)
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
        assert not {"t", "table", "from", "sess", "boot", "ctr", "sig"} & set(payload)
        self._ctr += 1
        msg = {
            "t": t,
            "table": self.table,
            "from": self.seat,
            "sess": self._sess,
            "boot": self._boot,
            "ctr": self._ctr,
            **payload,
        }
        msg["sig"] = b64(self.identity.sign(CTL_DOMAIN + canonical(msg)))
        self._send_frames(seat, [K_CTL, canonical(msg)])

    def _heads_list(self) -> list[list[Any]]:
        assert self.verifier is not None
        return [[c.seq, c.head] for _, c in sorted(self.verifier.chains.items())]

    def _send_heads(self, seat: int, reply: bool, extra: Message | None = None) -> None:
        heads = self._heads_list()
        self._heads_sent[seat] = (heads, time.monotonic())
        digest = self.roster_digest if self._full.is_set() else None  # compared only once full
        self._send_ctl(
            seat, "heads", {"heads": heads, "reply": reply, "roster": digest, **(extra or {})}
        )

    def _write(self, record: Message) -> None:
        if self.transcript is not None and not self.transcript.closed:
            self.transcript.write(record)

    # -- receiving ---------------------------------------------------------------------------

    async def _recv_loop(self) -> None:
        while True:
            frames = await self.router.recv_multipart()
            try:
                self._on_frames(frames)
            except Exception:  # a bug must not take the peer down
                log.exception("seat %d: error handling a frame", self.seat)

    def _drop(self, reason: str, level: int = logging.WARNING) -> None:
        budget = self._log_budget
        now = time.monotonic()
        budget[0] = min(20.0, budget[0] + (now - budget[1]) * 10)
        budget[1] = now
        if budget[0] >= 1 or level < logging.WARNING:
            budget[0] -= 1 if level >= logging.WARNING else 0
            log.log(level, "seat %d dropped a message: %s", self.seat, reason)

    def _on_frames(self, frames: list[bytes]) -> None:
        rid, parts = frames[0], frames[1:]
        if len(parts) != 2:
            self._drop(f"expected 2 frames (kind, payload), got {len(parts)}")
            return
        kind, data = parts
        if kind in (K_ENV, K_RELAY):
            self._on_env(data, direct=kind == K_ENV)
        elif kind == K_CTL:
            self._on_ctl(data)
        elif kind == K_HS:
            if self.verifier is None:
                return
            try:
                msg = parse_canonical(data, "handshake")
            except ValueError as e:
                self._drop(str(e))
                return
            if msg.get("t") == "hello":
                self._on_hello(rid, msg)
            elif msg.get("t") == "join":
                self._on_join(rid, msg)
            else:
                self._drop(f"unexpected handshake message {msg.get('t')!r}")
        else:
            self._drop(f"unknown frame kind {kind[:16]!r}")

    def _on_env(self, data: bytes, direct: bool) -> None:
        if self.verifier is None:
            return
        try:
            env = parse_canonical(data, "envelope")
            status, h = self.verifier.classify(env)
        except Equivocation as e:
            self._equivocation(e.seat, e.first, e.second, e.reason)
            return
        except (ValueError, EnvelopeError) as e:
            unknown = isinstance(e, EnvelopeError) and e.reason.endswith("has no key yet")
            self._drop(f"envelope rejected: {e}", logging.DEBUG if unknown else logging.WARNING)
            return
        sender = env["from"]
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
        if direct:
            self._heard(sender)
        if status == FUTURE:
            buf = self._future[sender]
            if len(buf) < MAX_FUTURE:
                buf[env["seq"]] = (env, h)
            self._known_max[sender] = max(self._known_max[sender], env["seq"])
            self._check_behind(sender, time.monotonic())
            return
        self._accept(env, h)
        buf = self._future.get(sender)
        while buf:
            nxt = buf.pop(self.verifier.chains[sender].seq + 1, None)
            if nxt is None:
                break
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
        if buf:  # drop what the chain has passed
            for seq in [q for q in buf if q <= self.verifier.chains[sender].seq]:
                del buf[seq]

    def _accept(self, env: Message, h: str) -> None:
        assert self.verifier is not None
        sender, to = env["from"], env["to"]
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
        self.verifier.append(env, h)
        self._write({"type": "in", "env": env})
        if body is not None:
            self._inbox(env["topic"]).put_nowait((sender, _copy(body)))

    def _on_ctl(self, data: bytes) -> None:
        if self.verifier is None:
            return
        try:
            msg = parse_canonical(data, "control message")
            seat = msg.get("from")
            if (
                not isinstance(seat, int)
                or isinstance(seat, bool)
                or not isinstance(msg.get("t"), str)
            ):
                raise ValueError("control message without a sender or type")
            if msg.get("table") != self.table:
                raise ValueError(
                    f"control message for another table {str(msg.get('table'))[:40]!r}"
                )
            if not (
                isinstance(msg.get("sess"), str)
                and isinstance(msg.get("boot"), int)
                and isinstance(msg.get("ctr"), int)
            ):
                raise ValueError("control message without session and counter")
        except ValueError as e:
            self._drop(str(e))
            return
        member = self._members.get(seat)
        if member is None or seat == self.seat:
            self._drop(f"control message from unknown seat {seat}", logging.DEBUG)
            return
        unsigned = {k: v for k, v in msg.items() if k != "sig"}
        try:
            sig = unb64(msg.get("sig"), "signature")
        except ValueError as e:
            self._drop(f"control message from seat {seat}: {e}")
            return
        if not verify(member.key, sig, CTL_DOMAIN + canonical(unsigned)):
            self._drop(f"control message with a bad signature for seat {seat}")
            return
        if not self._fresh(seat, msg):
            self._drop(f"replayed control message from seat {seat}")
            return
        t = msg["t"]
        try:
            if t == "bye":
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
            else:
                self._drop(f"unknown control message {t!r} from seat {seat}")
        except (KeyError, TypeError, ValueError, IndexError) as e:
            self._drop(f"malformed {t!r} from seat {seat} ({e})")

    def _fresh(self, seat: int, msg: Message) -> bool:
        sess, boot, ctr = msg["sess"], msg["boot"], msg["ctr"]
        cur = self._ctl_state.get(seat)
        if cur is None or (sess != cur[0] and boot > cur[1]) or (sess == cur[0] and ctr > cur[2]):
            self._ctl_state[seat] = (sess, boot, ctr)
            return True
        return False

    def _heard(self, seat: int) -> None:
        self._last_heard[seat] = time.monotonic()
        if seat in self.away:
            self.away.discard(seat)
            self._emit(MeshEvent("back", seat, self.name_of(seat)))
            self._resent.pop((seat, self.seat), None)
            self._send_heads(seat, reply=True)
        if seat not in self._ever_heard:
            self._ever_heard.add(seat)
            self._maybe_ready()

    def _maybe_ready(self) -> None:
        heard_all = all(s in self._ever_heard for s in self._members if s != self.seat)
        if self._full.is_set() and not self._ready.is_set() and heard_all:
            self._ready.set()

    def _mark_away(self, seat: int, left: bool = False) -> None:
        if seat not in self.away:
            self.away.add(seat)
            self._emit(MeshEvent("left" if left else "away", seat, self.name_of(seat)))

    # -- control handlers --------------------------------------------------------------------

    def _parse_heads(self, raw: Any) -> list[tuple[int, str]]:
        if not isinstance(raw, list) or len(raw) != self.seats:
            raise ValueError("heads list of the wrong length")
        out = []
        for item in raw:
            seq, h = item
            if not isinstance(seq, int) or seq < 0 or not isinstance(h, str):
                raise ValueError("bad head")
            out.append((seq, h))
        return out

    def _on_heads(self, seat: int, msg: Message, force: bool = False) -> None:
        assert self.verifier is not None
        heads = self._parse_heads(msg["heads"])
        now = time.monotonic()
        self._peer_heads[seat] = [seq for seq, _ in heads]
        digest = msg.get("roster")
        if self._full.is_set() and isinstance(digest, str) and digest != self.roster_digest:
            self._fault(
                seat,
                f"seat {seat} sees a different roster ({digest}, ours is {self.roster_digest})",
                (),
                once=f"roster{seat}",
            )
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
                    if isinstance(seq, int) and s < self.seats
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

    def _cp_done(self, seat: int, cp: str, target: list[int]) -> bool:
        answers = self._cp_answers.get(seat, {})
        return all(answers.get(s, -1) >= seq for s, seq in enumerate(target))

    def _proof_pending(self) -> bool:
        now = time.monotonic()
        return any(
            now - t < 5 * self.timings.resend_after + 1 and s not in self._accused
            for (_, s, _), t in self._proof_asked.items()
        )

    def _resend_own(self, seat: int, theirs: int, force: bool) -> None:
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
        self._resent[(seat, self.seat)] = (theirs, now)
        upto = min(upto, theirs + MAX_BATCH)
        log.debug("seat %d resends its seq %d..%d to seat %d", self.seat, theirs + 1, upto, seat)
        for seq in range(theirs + 1, upto + 1):
            env = chain.get(seq)
            assert env is not None
            self._send_frames(seat, [K_ENV, canonical(env)])

    def _check_behind(self, s: int, now: float) -> None:
        """We hold fewer of ``s``'s envelopes than someone has: after a grace, ask for them."""
        assert self.verifier is not None
        have = self.verifier.chains[s].seq
        if have >= self._known_max[s] or s in self._accused or s in self._stuck:
            self._behind_since.pop(s, None)
            return
        since = self._behind_since.setdefault(s, now)
        if (
            now - since < self.timings.resend_after
            or now - self._last_want.get(s, 0.0) < self.timings.resend_after
        ):
            return
        target = s if s not in self.away else None
        if target is None:  # the author is away: ask someone who has them
            for p, seqs in self._peer_heads.items():
                if p not in self.away and p != s and seqs[s] > have:
                    target = p
                    break
        if target is None:
            return
        self._last_want[s] = now
        log.debug(
            "seat %d asks seat %d for seat %d's envelopes from %d", self.seat, target, s, have + 1
        )
        self._send_ctl(target, "want", {"seat": s, "start": have + 1})

    def _on_want(self, seat: int, msg: Message) -> None:
        assert self.verifier is not None
        s, start = msg["seat"], msg["start"]
        if (
            not isinstance(s, int)
            or not 0 <= s < self.seats
            or not isinstance(start, int)
            or start < 1
        ):
            raise ValueError("bad want")
        if s == self.seat:
            self._resend_own(seat, start - 1, force=True)
            return
        chain = self.verifier.chains[s]
        now = time.monotonic()
        last = self._resent.get((seat, s))
        if last is not None and last[0] == start and now - last[1] < self.timings.resend_after:
            return
        self._resent[(seat, s)] = (start, now)
        for seq in range(start, min(chain.seq, start + MAX_BATCH - 1) + 1):
            env = chain.get(seq)
            assert env is not None
            self._send_frames(seat, [K_RELAY, canonical(env)])

    def _on_link(self, seat: int, msg: Message) -> None:
        m = Member.from_json(msg["entry"], self.table, self.seats)
        if m.seat != seat:
            raise ValueError("link entry for another seat")
        old = self._members[seat]
        if m.key != old.key:
            raise ValueError("link entry with another key")
        if m != old:
            log.info("seat %d: seat %d is now at %s", self.seat, seat, m.addr)
            self._set_member(m)
        self._resent.pop((seat, self.seat), None)
        self._on_heads(seat, {"heads": msg["heads"], "reply": True}, force=True)

    def _on_roster(self, seat: int, msg: Message) -> None:
        if seat != 0:
            raise ValueError("only the host (seat 0) sends roster updates")
        if self._full.is_set():
            return
        for d in msg["roster"]:
            m = Member.from_json(d, self.table, self.seats)
            if m.seat == self.seat:
                if m.key != self.identity.public_key:
                    raise ValueError("the roster gives our seat to another key")
                continue
            if m.seat not in self._members:
                self._set_member(m)
                self._send_ctl(m.seat, "link", self._link_payload())

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
        if env is not None:
            self._send_ctl(seat, "proof", {"env": env})

    def _check_foreign(self, env: Any) -> tuple[Message, str]:
        """Shape, table and signature of an envelope we got as evidence (not for our chain)."""
        check_shape(env, self.seats)
        if env["table"] != self.table:
            raise EnvelopeError("evidence from another table", env, env["from"])
        check_signature(env, self._members[env["from"]].key)
        return env, envelope_hash(env)

    def _on_proof(self, seat: int, msg: Message) -> None:
        assert self.verifier is not None
        try:
            env, h = self._check_foreign(msg["env"])
        except EnvelopeError as e:
            self._drop(f"proof from seat {seat} rejected: {e}")
            return
        s, seq = env["from"], env["seq"]
        mine = self.verifier.chains[s].get(seq)
        if mine is not None and envelope_hash(mine) != h:
            self._equivocation(
                s,
                mine,
                env,
                f"seat {s} signed two different envelopes with seq {seq} (found comparing heads with seat {seat})",
            )

    def _on_evidence(self, seat: int, msg: Message) -> None:
        try:
            a, ha = self._check_foreign(msg["first"])
            b, hb = self._check_foreign(msg["second"])
        except EnvelopeError as e:
            self._drop(f"evidence from seat {seat} rejected: {e}")
            return
        s = a["from"]
        conflict = (
            b["from"] == s
            and ha != hb
            and (a["seq"] == b["seq"] or (b["seq"] == a["seq"] + 1 and b["prev"] != ha))
        )
        if not conflict:
            self._drop(f"evidence from seat {seat} proves nothing")
            return
        self._equivocation(
            s, a, b, str(msg.get("reason") or f"seat {s} equivocated (evidence from seat {seat})")
        )

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

    def _fault(
        self, seat: int, reason: str, proof: tuple[Message, ...], once: str | None = None
    ) -> None:
        tag = once or f"{seat}:{reason}"
        if tag in self._accused_faults:
            return
        self._accused_faults.add(tag)
        log.error("seat %d: fault by %s (seat %d): %s", self.seat, self.name_of(seat), seat, reason)
        rec: Message = {"type": "fault", "seat": seat, "reason": reason}
        if proof:
            rec["first"] = proof[0]
        self._write(rec)
        self._emit(MeshEvent("fault", seat, self.name_of(seat), reason, proof))

    def _emit(self, ev: MeshEvent) -> None:
        self.events.append(ev)
        log.info("seat %d: %s", self.seat, ev)
        for q in self._subscribers:
            q.put_nowait(ev)

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
            for s in self._last_heard:
                self._last_heard[s] += stalled
        heads = self._heads_list()
        for s in list(self._members):
            if s == self.seat:
                continue
            quiet = now - self._last_heard.get(s, now)
            if s not in self.away:
                if quiet > t.away_after:
                    self._mark_away(s)
                    continue
                if quiet > t.ping_after and now - self._last_ping.get(s, 0.0) > t.ping_after:
                    self._last_ping[s] = now
                    self._send_heads(s, reply=True)
                    continue
            elif now - self._last_ping.get(s, 0.0) > t.away_after:
                self._last_ping[s] = now  # a slow ping, in case it came back on the same address
                self._send_heads(s, reply=True)
                continue
            sent = self._heads_sent.get(s)
            if sent is None or (sent[0] != heads and now - sent[1] > t.heads_every):
                self._send_heads(s, reply=False)
            if s not in self._ever_heard and now - self._last_ping.get(s, 0.0) > t.ping_after:
                self._last_ping[s] = now
                self._send_ctl(s, "link", self._link_payload())
        for s in list(self._behind_since):
            self._check_behind(s, now)


def _copy(v: Any) -> Any:
    return json.loads(canonical(v))
