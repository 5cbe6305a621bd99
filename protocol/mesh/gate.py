"""The gate: which connections the ROUTER admits at the end of the encrypted handshake.

ZeroMQ's ROUTER cannot close one connection, and nothing else closes one that finished its
CurveZMQ handshake and then stays idle (ZMTP heartbeats are off: ``core.py``). Someone with the
table code could open tens of thousands of them and use up the program's descriptors, and then
nobody could connect to it, a player coming back included (red team 16a). So the gate counts
the connections admitted from each remote address and refuses the handshake of one more past
``MAX_PER_ADDRESS`` (and past ``max_total`` in all), through libzmq's ZAP: every CurveZMQ
handshake of the ROUTER asks the handler bound at ``inproc://zeromq.zap.01`` in its context,
with the remote IP address, before it finishes. A refusal (ZAP status 400) makes libzmq send
the client an ERROR and close the connection at once; a libzmq client then stops dialling that
address (an honest program never gets there: ``MAX_PER_ADDRESS``).

The count goes down when a connection closes, seen on the ROUTER's socket monitor: the event
``ACCEPTED`` carries the new connection's descriptor (its remote address read with
``getpeername``) and ``DISCONNECTED`` the same descriptor when it closes. A ZAP request carries
the address but neither the descriptor nor the port, so the gate cannot tell which of an
address's connections still in their handshake a request is for. It keeps, per address, the
connections open (``open``) and how many of them it admitted (``admitted``), and when one
closes it lowers ``admitted`` only when fewer are open than were admitted: the count is never
below the truth (an attacker gains nothing by mixing half-open connections with full ones),
and above it only while one of the address's connections is still in its handshake (5 s at
most) or refused and closing. Connections still in their handshake are not counted (a slowloris
of half-open greetings must not keep a player on its machine out: ``HANDSHAKE_MS`` closes them).

Ordering: libzmq writes ``ACCEPTED`` to the monitor before the connection's first byte is read,
so the gate reads every pending monitor event before it answers a ZAP request; a descriptor is
closed only after its ``DISCONNECTED`` is written, so a reused descriptor's ``ACCEPTED`` comes
after it. The gate runs in its own thread: a table's event loop busy with the deck must not
hold up an honest peer's handshake."""

from __future__ import annotations

import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from itertools import count

import zmq

from .common import log

ZAP_ENDPOINT = b"inproc://zeromq.zap.01"
ZAP_DOMAIN = b"p2pcards"
# Connections admitted from one address at a time. Measured (tests/mesh/test_gate.py): at a
# table of 5 on one machine (as a host and four bots, and every test's table) each peer holds 4
# from 127.0.0.1, one per other seat, through cuts and ``join --resume``s (an old connection is
# seen closed before its program dials again); at 16 seats, the most a table has, 15. A
# red-team test's attacker opens 64 (``tests/mesh/attacker.py``). 128 is 32 times the largest
# game's need (5 seats) and 8 times the largest table's, and holds a flood from one address to
# 128 descriptors and about 3 MB.
MAX_PER_ADDRESS = 128
# In all: half the descriptors the program may open (``raise_fd_limit``), so that files and the
# program's own connections keep the other half, whatever many addresses hold.
DEFAULT_MAX_TOTAL = 32_768
LOG_EVERY = 10.0  # seconds between two log lines about refused connections

_gates = count()


def _peer_ip(fd: int, port: int) -> str | None:
    """The remote IP address of the TCP connection on descriptor ``fd`` accepted on ``port``,
    or ``None`` if ``fd`` is no longer such a connection (closed and reused meanwhile). The
    descriptor belongs to libzmq: it is only looked at, never closed."""
    try:
        s = socket.socket(fileno=fd)
    except OSError:  # not a socket (closed, or reused by a file)
        return None
    try:
        if s.type != socket.SOCK_STREAM or s.getsockname()[1] != port:
            return None  # another socket of this process (a DEALER's, another table's)
        return str(s.getpeername()[0])
    except (OSError, IndexError, TypeError):
        return None
    finally:
        s.detach()  # the descriptor stays libzmq's


@dataclass
class GateStats:
    """What the gate has done, for tests and benchmarks (read from any thread)."""

    requests: int = 0
    admitted: int = 0
    refused: int = 0
    # per address, the most connections admitted and open at once
    peak: dict[str, int] = field(default_factory=dict)


class Gate:
    """The ZAP handler and connection count of one ``Mesh``'s ROUTER. Build before the ROUTER
    binds, ``start(port)`` once it has, ``close()`` before its context ends."""

    def __init__(self, ctx: zmq.Context, router: zmq.Socket, max_total: int = DEFAULT_MAX_TOTAL
                 ) -> None:
        self.max_per_address = MAX_PER_ADDRESS
        self.max_total = max(MAX_PER_ADDRESS, max_total)
        self.stats = GateStats()
        self.open: dict[str, int] = {}  # address -> its connections open (any stage)
        self.admitted: dict[str, int] = {}  # address -> its connections admitted (an upper bound)
        self._fds: dict[int, str] = {}  # descriptor -> address, for the connections open
        self._total = 0
        self._port = -1
        self._logged = 0.0
        self._unlogged = 0
        sync = zmq.Context.shadow(ctx.underlying)  # plain sockets, for the gate's thread
        n = next(_gates)
        mon_addr = f"inproc://p2pcards-gate-{id(self):x}-{n}".encode()
        self._zap = sync.socket(zmq.ROUTER)
        self._zap.setsockopt(zmq.LINGER, 0)
        self._zap.bind(ZAP_ENDPOINT)
        router.setsockopt(zmq.ZAP_DOMAIN, ZAP_DOMAIN)  # a plain-TCP mesh asks the gate too
        router.monitor(mon_addr, zmq.EVENT_ACCEPTED | zmq.EVENT_DISCONNECTED)
        self._mon = sync.socket(zmq.PAIR)
        self._mon.setsockopt(zmq.LINGER, 0)
        self._mon.setsockopt(zmq.RCVHWM, 0)  # no event is ever dropped: the count relies on it
        self._mon.connect(mon_addr)
        wake = f"inproc://p2pcards-gate-wake-{id(self):x}-{n}"
        self._wake_r = sync.socket(zmq.PAIR)
        self._wake_r.setsockopt(zmq.LINGER, 0)
        self._wake_r.bind(wake)
        self._wake_w = sync.socket(zmq.PAIR)
        self._wake_w.setsockopt(zmq.LINGER, 0)
        self._wake_w.connect(wake)
        self._router = router
        self._thread: threading.Thread | None = None
        self._closed = False

    def start(self, port: int) -> None:
        """Answer from now on (requests wait in their pipe until then)."""
        self._port = port
        self._thread = threading.Thread(target=self._run, name=f"p2pcards-gate-{port}",
                                        daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and close the gate's sockets (the ROUTER is closed first: with no
        handler, libzmq would admit every connection)."""
        if self._closed:
            return
        self._closed = True
        if self._thread is not None:
            self._wake_w.send(b"", zmq.DONTWAIT)
            self._thread.join(5.0)
        else:
            self._close_sockets()
        self._wake_w.close(0)

    # -- the gate's thread --------------------------------------------------------------------

    def _run(self) -> None:
        poller = zmq.Poller()
        for s in (self._zap, self._mon, self._wake_r):
            poller.register(s, zmq.POLLIN)
        try:
            while True:
                ready = dict(poller.poll())
                if self._wake_r in ready:
                    break
                try:
                    self._read_monitor()
                    if self._zap in ready:
                        self._answer()
                except zmq.ZMQError:
                    raise
                except Exception:  # a bug must not stop the gate: nobody could connect
                    log.exception("error in the connection gate")
        except zmq.ZMQError as e:  # the context is ending under us
            log.debug("gate stopped: %s", e)
        finally:
            self._close_sockets()

    def _close_sockets(self) -> None:
        for s in (self._zap, self._mon, self._wake_r):
            s.close(0)

    def _read_monitor(self) -> None:
        while True:
            try:
                frames = self._mon.recv_multipart(zmq.DONTWAIT)
            except zmq.Again:
                return
            if len(frames) != 2 or len(frames[0]) != 6:
                continue
            event, fd = struct.unpack("=HI", frames[0])
            if event == zmq.EVENT_ACCEPTED:
                self._accepted(fd)
            elif event == zmq.EVENT_DISCONNECTED:
                self._disconnected(fd)

    def _accepted(self, fd: int) -> None:
        old = self._fds.pop(fd, None)
        if old is not None:  # (its DISCONNECTED would have come first: never seen)
            self._forget(old)
        ip = _peer_ip(fd, self._port)
        if ip is None:
            return
        self._fds[fd] = ip
        self.open[ip] = self.open.get(ip, 0) + 1

    def _disconnected(self, fd: int) -> None:
        ip = self._fds.pop(fd, None)
        if ip is not None:
            self._forget(ip)

    def _forget(self, ip: str) -> None:
        n = self.open.get(ip, 0) - 1
        if n > 0:
            self.open[ip] = n
        else:
            self.open.pop(ip, None)
            n = 0
        self._clamp(ip, n)

    def _clamp(self, ip: str, n_open: int) -> None:
        """No more admitted than open: a connection that closed was one of those admitted
        only if too few are left open for all of them."""
        a = self.admitted.get(ip, 0)
        if a > n_open:
            self._total -= a - n_open
            if n_open:
                self.admitted[ip] = n_open
            else:
                self.admitted.pop(ip, None)

    def _answer(self) -> None:
        while True:
            try:
                req = self._zap.recv_multipart(zmq.DONTWAIT)
            except zmq.Again:
                return
            self._read_monitor()  # this connection's ACCEPTED is among them
            if len(req) < 8 or req[1] != b"":
                continue  # not a ZAP request (libzmq sends nothing else here)
            rid, version, request_id, address = req[0], req[2], req[3], req[5]
            try:
                ok, text = self._admit(address.decode("ascii", "replace"))
            except Exception:  # a bug: admit (the budgets still hold), never hang a handshake
                log.exception("error in the connection gate")
                ok, text = True, b"OK"
            # (a request is always answered: libzmq holds the handshake until it is)
            self._zap.send_multipart(
                [rid, b"", version, request_id, b"200" if ok else b"400", text, b"", b""])

    def _admit(self, ip: str) -> tuple[bool, bytes]:
        st = self.stats
        st.requests += 1
        a = self.admitted.get(ip, 0)
        if a >= self.max_per_address:
            return self._refuse(ip, f"{a} connections from {ip} already (at most "
                                f"{self.max_per_address} from one address)")
        if self._total >= self.max_total:
            return self._refuse(ip, f"{self._total} connections open (at most "
                                f"{self.max_total})")
        st.admitted += 1
        self.admitted[ip] = a + 1
        self._total += 1
        self._clamp(ip, self.open.get(ip, 0))  # (its ACCEPTED was read too late to place it)
        n = self.admitted.get(ip, 0)
        if n > st.peak.get(ip, 0):
            st.peak[ip] = n
        return True, b"OK"

    def _refuse(self, ip: str, why: str) -> tuple[bool, bytes]:
        self.stats.refused += 1
        now = time.monotonic()
        if now - self._logged >= LOG_EVERY:
            more = f" ({self._unlogged} more refused before)" if self._unlogged else ""
            log.warning("refused a connection from %s at the encrypted handshake: %s%s",
                        ip, why, more)
            self._logged, self._unlogged = now, 0
        else:
            self._unlogged += 1
        return False, b"too many connections"
