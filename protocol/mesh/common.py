"""Constants, errors, timings and events shared by the mesh's modules."""

from __future__ import annotations

import json
import logging
import os
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zmq
from zmq.utils import z85

from ..envelope import (
    CTL_DOMAIN as CTL_DOMAIN,  # defined beside ENV_DOMAIN: a transcript checks a signed stop
)
from ..envelope import (
    Message,
    canonical,
)
from ..errors import MeshError
from ..identity import IdentityError, ensure_dir

log = logging.getLogger("p2pcards.mesh")


class _OneLine(logging.Filter):
    """Every mesh log line as one line with its control characters escaped: the reasons it
    logs quote what peers sent, and the log may be the player's terminal."""

    def filter(self, record: logging.LogRecord) -> bool:
        from .budget import one_line

        record.msg, record.args = one_line(record.getMessage(), 1000), None
        return True


log.addFilter(_OneLine())

MESH_VERSION = 8  # 3: the welcome carries the host's signature over its game (protocol/seating.py);
# 4: each private box has a key of its own (protocol/envelope.py, ``envelope_key``); 5: the
# deck's operation 1 is the roster code's draw (p2pcards/lobby.py; the game's operations shift);
# 6: every envelope states the heads its author held (``heads``, protocol/envelope.py); 7: every
# ``heads`` control message echoes the newest ``ctr`` its author saw of each seat (``echo``:
# a forwarded word counts as presence only if it is recent, recovery.py); 8: the echo is
# ``[ctr, tag]`` per seat, the tag from the echoed message's signature, so that only a program
# that received it can echo it (echo.py)
HS_DOMAIN = b"p2pcards/v1/hs\n"
K_HS, K_CTL, K_ENV, K_RELAY = b"hs", b"ctl", b"env", b"relay"
MAX_FRAME = 512 * 1024  # bytes in one frame: a peer sending a larger one is disconnected
HWM = 1_000  # messages queued to send per connection
# A connection that has not finished its CurveZMQ handshake within this time is closed (libzmq
# waits 30 s by default: a slowloris of partial greetings would hold a descriptor each for that long).
HANDSHAKE_MS = 5_000
# TCP keepalive on the ROUTER's connections: one whose other end vanished (no FIN, no reset) is
# closed after IDLE + INTVL × CNT seconds of silence (kept open, it counts at the gate for good)
KEEPALIVE_IDLE, KEEPALIVE_INTVL, KEEPALIVE_CNT = 60, 10, 3
# A peer's gate (gate.py) that refused our connection is dialled again after this many seconds
# (libzmq itself does not dial again after a refusal)
REDIAL_AFTER = 5.0
# Descriptors: a program on a desktop often starts with a soft limit of 1,024; a LAN host's
# half-open connections could use them all (no honest join, no transcript write). Each program
# raises its soft limit to the hard one, up to this.
FD_WANT = 1 << 16
RCV_HWM = 64  # messages queued per incoming connection: at most 32 MiB (RCV_HWM × MAX_FRAME)
MAX_FUTURE = 5_000
MAX_BATCH = 1_000


@dataclass
class Curve:
    """CurveZMQ keys (Z85): the table's server pair, derived from its code and shared by every
    peer's ROUTER, and this process's own ephemeral client pair for its DEALERs."""

    server_public: bytes
    server_secret: bytes
    client_public: bytes
    client_secret: bytes

    @classmethod
    def from_secret(cls, secret: bytes) -> Curve:
        sec = z85.encode(secret)
        pub, csec = zmq.curve_keypair()
        return cls(zmq.curve_public(sec), sec, pub, csec)

    def serve(self, sock: zmq.Socket) -> None:
        sock.curve_server = True
        sock.curve_secretkey = self.server_secret
        sock.curve_publickey = self.server_public

    def dial(self, sock: zmq.Socket) -> None:
        sock.curve_serverkey = self.server_public
        sock.curve_publickey = self.client_public
        sock.curve_secretkey = self.client_secret


class JoinRefused(MeshError):
    """The table refused us (wrong code, full, name taken, ...); ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"refused: {reason}")
        self.reason = reason


class JoinFailed(MeshError):
    """The join could not complete (no answer, bad answer)."""


class ReplayDivergence(MeshError):
    """A peer re-running from its transcript tried to send something other than what it had sent."""


def _seconds_from_env(name: str, default: float) -> float:
    """A positive number of seconds from the environment variable ``name``, else ``default``."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if 0 < value < float("inf") else default


@dataclass
class Timings:
    """Liveness and retry timings in seconds. Defaults suit a LAN; tests use ``fast()``."""

    ping_after: float = 1.5  # a peer quiet this long is pinged
    # ... and this long is marked away (6 s; ``P2PCARDS_AWAY_AFTER`` sets it, for the tests that
    # cut a real program's link and must wait past it)
    away_after: float = field(default_factory=lambda: _seconds_from_env("P2PCARDS_AWAY_AFTER", 6.0))
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


def _route_ip(target: str) -> str | None:
    """The local IP this machine uses to reach ``target`` (a UDP connect sends no packet), or
    ``None`` without a route (a LAN with no default route, for instance)."""
    if target.startswith("127.") or target == "localhost":
        return "127.0.0.1"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((target, 9))
            ip = s.getsockname()[0]
    except OSError:
        return None
    return None if ip in ("0.0.0.0", "") else ip


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback and link-local, in interface order."""
    try:
        import ifaddr  # zeroconf's own dependency

        adapters = ifaddr.get_adapters()
    except Exception:  # noqa: BLE001 -- no interface list: the route lookup is all we have
        return []
    return [
        ip.ip
        for a in adapters
        for ip in a.ips
        if isinstance(ip.ip, str) and not ip.ip.startswith(("127.", "169.254."))
    ]


def local_ip(toward: str | None) -> str:
    """The address other machines reach us by: the one on the route toward ``toward`` (a peer),
    else the one on the default route, else the first LAN interface's; loopback only when
    ``toward`` is loopback or the machine has nothing else."""
    if toward is not None and (toward.startswith("127.") or toward == "localhost"):
        return "127.0.0.1"
    for target in ([toward] if toward else []) + ["192.0.2.1"]:
        ip = _route_ip(target)
        if ip is not None and not ip.startswith("127."):
            return ip
    addrs = lan_addresses()
    return addrs[0] if addrs else "127.0.0.1"


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
            n = self.seat + 1  # seats are numbered from 1 wherever a person reads them
            parts.append(f"{self.name} (seat {n})" if self.name else f"seat {n}")
        if self.detail:
            parts.append(self.detail)
        return ": ".join(parts)


def _copy(v: Any) -> Any:
    return json.loads(canonical(v))


def raise_fd_limit(want: int = FD_WANT) -> int:
    """Raise this process's soft limit on open descriptors towards ``want`` (never above the hard
    limit, never lower than it is); returns the soft limit now in force."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        return int(soft)
    except (ImportError, OSError, ValueError):  # not on this platform, or not allowed
        return -1


def hold_transcript(path: Path) -> int | None:
    """Lock this seat's transcript for this process (``<table>.lock`` beside it, holding our
    process id) for as long as the mesh is open: two programs playing one seat from one data
    directory (``join --resume`` run twice) would both append to it, and the second one's crash
    recovery would cut the first one's last line, spoiling the record for good. ``MeshError``
    in words when another process holds it. ``None`` where there is no ``flock``."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system: no lock
        return None
    lock = Path(path).with_suffix(".lock")
    try:
        ensure_dir(lock.parent)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except (OSError, IdentityError) as e:
        raise MeshError(f"cannot lock {lock}: {getattr(e, 'strerror', None) or e}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pid = os.read(fd, 20).decode("ascii", "replace").strip() or "?"
        os.close(fd)
        raise MeshError(
            f"this seat's game is already open in another p2pcards on this machine (process "
            f"{pid}); use that one, or end it first (two programs on one seat would spoil its "
            "record)") from None
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    return fd
