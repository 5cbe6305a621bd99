"""The transcript: one JSON Lines file per table per user, written as the game goes.

``<data dir>/tables/<table id>.jsonl`` (mode 0600). Every line is one canonical-JSON record
(see ``protocol.envelope.canonical``), written and flushed before the envelope it holds is sent or
delivered, so after a crash the file holds at least everything this peer said and everything it
acted on. Records, by ``type``:

- ``table`` (first line): ``table`` id, ``seats``, own ``seat``, own ``key`` (hex), ``game_info``,
  ``created`` (unix time), ``mesh`` (protocol version) and, for the host, the table ``code``.
- ``roster``: the full roster so far, a list of members ``{seat, name, key, addr, sig}``; written
  whenever it changes (a join, or a peer coming back on a new address).
- ``out``: ``env``, an envelope this peer sent. ``in``: ``env``, an envelope it accepted (every
  envelope of every peer reaches every peer, private ones encrypted, so this is the full record).
- ``note``: ``key``/``value`` saved by the local table for its own recovery (never sent).
- ``fault``: proof that a peer misbehaved (``seat``, ``reason``, ``first``/``second`` envelopes).
- ``stop``: the table stopped (``culprit``, ``reason``, ``by``, ``claimed``), as this program saw
  it at the time, with ``signed``: the stop message seat ``by`` signed (sent to this seat, or
  this seat's own, to the first other seat).
- ``end``: the game finished (``result``).

``read_transcript`` verifies every signature and every sender's chain and returns the messages,
decrypting the private ones this user may read when given its ``Identity``. The other records are
this program's own and not signed, so they are no evidence of what a peer did: a ``fault`` line
counts only when the signed envelopes it holds prove it (``protocol.evidence``: the checks a live
program runs on evidence handed to it, under the key the whole file finally gives its seat); one
that does not is kept in ``unverified`` with its line, and
never blames the seat it names. A ``stop`` is the program's record of the stop it saw, for the
audit to weigh against the signed record; its ``signed`` message, when its signature checks
(``stop_unsigned`` is None), shows that seat ``by`` really stopped the table.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .envelope import (
    GENESIS,
    MAX_SEAT_BYTES,
    NEW,
    EnvelopeError,
    Message,
    Verifier,
    box_key,
    canonical,
    envelope_cost,
    heads_hold,
    held_cost,
    is_int,
    open_box,
    overfull,
    parse_canonical,
)
from .evidence import check_fault, check_stop
from .identity import Identity, data_dir, ensure_dir, public_key_from_hex
from .params import MAX_SEATS
from .roster import Member

TRANSCRIPT_VERSION = 1
#: The longest line a table writes: an envelope is at most a frame (512 KiB), a fault's evidence
#: two of them; a longer line is refused before it is read whole.
MAX_LINE = 4 * 1024 * 1024
#: What the program's own ``note`` and ``fault`` records may take to hold, as ``held_cost`` counts
#: them: a table writes a few notes (KiB) and a fault holds at most two envelopes (1 MiB).
MAX_OWN_BYTES = 16 * 1024 * 1024
MAX_TIME = 253402300799  # 9999-12-31: a ``created`` time any platform can show


class TranscriptError(Exception):
    """A transcript file is unreadable, truncated or does not verify; ``line`` names the line."""

    def __init__(self, path: Path | str, line: int | None, reason: str) -> None:
        where = f"{path}, line {line}" if line is not None else str(path)
        super().__init__(f"{where}: {reason}")
        self.path = Path(path)
        self.line = line
        self.reason = reason


def tables_dir(home: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(home) / "tables"


def transcript_path(table: str, home: str | os.PathLike[str] | None = None) -> Path:
    return tables_dir(home) / f"{table}.jsonl"


class TranscriptWriter:
    """Appends records, one flushed line each. Creates the file (0600) and its directory."""

    def __init__(self, path: Path) -> None:
        ensure_dir(path.parent)
        self.path = path
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._f = os.fdopen(fd, "ab", buffering=0)
        #: the write that failed (a full or read-only disk), if one did: every later write fails
        #: the same way, so that no record lands after a line cut short
        self.failed: OSError | None = None

    def write(self, record: Message) -> None:
        """One whole line (an unbuffered write may take only part of it: the rest is written
        after); an ``OSError`` naming this file if the line cannot be written."""
        if self.failed is not None:
            raise self.failed
        data = memoryview(canonical(record) + b"\n")
        try:
            while data:
                n = self._f.write(data)
                if not n:  # nothing taken, no error said: the disk takes no more
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                data = data[n:]
        except OSError as e:
            self.failed = OSError(e.errno, e.strerror or str(e), str(self.path))
            raise self.failed from None

    def sync(self) -> None:
        """What is written so far, on the disk (not only in the system's cache): it outlives a
        power cut. An ``OSError`` naming this file if the disk refuses."""
        if self.failed is not None:
            raise self.failed
        try:
            sync_file(self._f.fileno())
        except OSError as e:
            self.failed = OSError(e.errno, e.strerror or str(e), str(self.path))
            raise self.failed from None

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()

    @property
    def closed(self) -> bool:
        return self._f.closed


def sync_file(fd: int) -> None:
    """A file's data on the disk (``fdatasync`` where there is one, else ``fsync``)."""
    (getattr(os, "fdatasync", None) or os.fsync)(fd)


class Unverified(NamedTuple):
    """A ``fault`` line whose signed envelopes do not prove it: ``seat`` as the line names it
    (unchecked), ``why`` in words."""

    line: int
    seat: Any
    why: str


@dataclass
class Entry:
    """One envelope of the transcript. ``body`` is the message if this reader could read it
    (broadcasts always; private ones to or from the reading identity), else ``None``."""

    line: int
    direction: str  # "in" or "out"
    env: Message
    hash: str
    body: Message | None
    cost: int = 0  # what holding it costs as read (``envelope_cost``), as the live table counted

    @property
    def sender(self) -> int:
        return self.env["from"]

    @property
    def seq(self) -> int:
        return self.env["seq"]

    @property
    def to(self) -> int | None:
        return self.env["to"]

    @property
    def topic(self) -> str:
        return self.env["topic"]


@dataclass
class Transcript:
    path: Path
    table: str
    seats: int
    seat: int
    key: str
    game_info: dict[str, Any]
    created: float
    code: str | None
    roster: list[dict[str, Any]]
    entries: list[Entry] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    # fault lines whose signed envelopes prove them (protocol.evidence), as written
    faults: list[Message] = field(default_factory=list)
    fault_lines: list[int] = field(default_factory=list)  # the line of each of ``faults``
    # each fault line that does not verify: the file is damaged or was edited
    unverified: list[Unverified] = field(default_factory=list)
    stop: Message | None = None  # this program's record of the stop that ended the table, if one did
    stop_line: int | None = None
    # why the stop line does not hold its stopper's signed stop (``protocol.evidence``), or None
    stop_unsigned: str | None = None
    result: Any = None
    finished: bool = False
    torn_tail: bool = False
    valid_bytes: int = 0  # length of the verified prefix of the file
    # ``read_transcript(..., keep_prefix=True)``: the first line that does not verify (nothing
    # from it on was read; everything here is the verified record before it), or None
    damaged: TranscriptError | None = None

    def messages(self) -> list[tuple[int, int | None, str, Message | None]]:
        """``(sender, to, topic, body)`` for every envelope in file order (``to`` None = all)."""
        return [(e.sender, e.to, e.topic, e.body) for e in self.entries]

    def made_from_record(self) -> set[tuple[int, int]]:
        """The ``(sender, seq)`` of every envelope whose ``heads`` (mesh version 6) state
        exactly what this transcript holds: each stated chain here at that seq, with the stated
        digest. Its sender made it from this file's own messages as they stand (an owner that
        rewrote one of them in its file changed its hash, and the statement no longer
        matches); the audit names such a message's deviation as its sender's own."""
        hashes: dict[int, list[str]] = {}
        for e in self.entries:  # each chain in order from seq 1 (a verified transcript)
            hashes.setdefault(e.sender, []).append(e.hash)
        out: set[tuple[int, int]] = set()
        for e in self.entries:
            heads = e.env.get("heads")
            if not isinstance(heads, dict):
                continue
            if heads_hold(heads, lambda s, n: GENESIS if n == 0 else (
                    hashes[s][n - 1] if n <= len(hashes.get(s, ())) else None)):
                out.add((e.sender, e.seq))
        return out

    def heads(self) -> dict[int, tuple[int, str]]:
        """Per sender, ``(seq, hash)`` of its last envelope in this transcript."""
        out: dict[int, tuple[int, str]] = {}
        for e in self.entries:
            out[e.sender] = (e.seq, e.hash)
        return out


def read_transcript(
    path: str | os.PathLike[str],
    identity: Identity | None = None,
    *,
    tolerate_torn_tail: bool = False,
    keep_prefix: bool = False,
) -> Transcript:
    """Read and verify a transcript; ``TranscriptError`` naming the line on any problem.

    With ``tolerate_torn_tail`` (crash recovery), a last line without its newline is treated as
    never written (``torn_tail`` is set and ``valid_bytes`` says where the good part ends).
    With ``keep_prefix`` (the audit), a line that does not verify after the table record ends
    the reading instead: the transcript holds the verified record before it and ``damaged``
    says which line and why (nothing after it is read, as a file cut short there would be)."""
    path = Path(path)
    if path.exists() and not path.is_file():  # opening a pipe would wait for a writer for ever
        raise TranscriptError(path, None, "not a file (a folder, a pipe or a device)")
    try:
        with path.open("rb") as f:
            return _read(path, f, identity, tolerate_torn_tail, keep_prefix)
    except OSError as e:
        raise TranscriptError(path, None, f"cannot read: {e.strerror or e}") from None


def _read(path: Path, f: Any, identity: Identity | None, tolerate_torn_tail: bool,
          keep_prefix: bool = False) -> Transcript:
    """``read_transcript`` on the open file ``f``, a line at a time: what it holds is bounded
    as a table bounds it (``MAX_LINE`` a line, ``MAX_SEAT_BYTES`` of each seat's envelopes as
    ``held_cost`` counts them), so a crafted file cannot take the reader's memory."""
    t: Transcript | None = None
    verifier: Verifier | None = None
    keys: dict[int, bytes] = {}
    box_keys: dict[tuple[int, int], bytes] = {}
    held: dict[int, int] = {}
    own = 0
    evidence: list[tuple[int, Message]] = []  # the fault lines, with their line numbers
    offset = 0
    torn = False
    n = 0
    while True:
        before = dict(keys)  # a roster line that fails half way leaves the keys as they were
        try:
            raw = f.readline(MAX_LINE + 1)
            if not raw:
                break
            n += 1
            if not raw.endswith(b"\n"):
                if len(raw) > MAX_LINE:
                    raise TranscriptError(path, n, f"a line longer than any record a table writes "
                                          f"({MAX_LINE // 2**20} MiB)")
                if tolerate_torn_tail:
                    torn = True
                    break
                raise TranscriptError(path, n,
                                      "truncated line (no end of line): the file was cut short")
            raw = raw[:-1]
            offset += len(raw) + 1
            try:
                rec = parse_canonical(raw, "record")
            except ValueError as e:
                raise TranscriptError(path, n, f"{e} (the line is damaged or truncated)") from None
            kind = rec.get("type")
            if t is None:
                if kind != "table":
                    raise TranscriptError(
                        path, n, "the first line is not a table record: not a p2pcards transcript"
                    )
                t = _table_record(path, n, rec)
                verifier = Verifier(t.table, t.seats, keys)
                t.valid_bytes = offset
                continue
            assert verifier is not None
            if kind in ("note", "fault"):  # this program's own: a handful of notes, a fault or two
                own += held_cost(raw)
                if own > MAX_OWN_BYTES:
                    raise TranscriptError(
                        path, n, "the program's own notes and fault records take more than "
                        f"{MAX_OWN_BYTES // 2**20} MiB to hold: more than any table writes")
            if kind == "roster":
                t.roster = _roster_record(path, n, rec, t, keys)
            elif kind in ("in", "out"):
                env = rec.get("env")
                try:
                    status, h = verifier.classify(env)
                except EnvelopeError as e:
                    raise TranscriptError(path, n, f"envelope rejected: {e.reason}") from None
                if status != NEW:
                    raise TranscriptError(
                        path,
                        n,
                        f"envelope seat {env['from']} seq {env['seq']} is {status}: the chain has a gap or a repeat",
                    )
                if (kind == "out") != (env["from"] == t.seat):
                    raise TranscriptError(
                        path, n, f"an '{kind}' record of an envelope from seat {env['from']}"
                    )
                body = _body(path, n, env, t, identity, keys, box_keys)
                raw = canonical(env)
                if body is not None and env["to"] is not None and (why := overfull(raw, body)):
                    # the live program never records one (``_accept`` names its sender instead)
                    raise TranscriptError(path, n, f"seat {env['from'] + 1} sent {why}")
                size = envelope_cost(raw, env["to"])  # what the live program counted (``_accept``)
                cost = held[env["from"]] = held.get(env["from"], 0) + size
                if cost > MAX_SEAT_BYTES:
                    raise TranscriptError(
                        path, n, f"seat {env['from'] + 1}'s messages take more than "
                        f"{MAX_SEAT_BYTES // 2**20} MiB to hold: more than any table accepts from "
                        "one seat")
                verifier.append(env, h)
                t.entries.append(Entry(n, kind, env, h, body, size))
            elif kind == "note":
                if not isinstance(rec.get("key"), str):
                    raise TranscriptError(path, n, "note without a key")
                t.notes[rec["key"]] = rec.get("value")
            elif kind == "fault":
                evidence.append((n, rec))  # checked once the roster's last word is read (below)
            elif kind == "stop":
                t.stop, t.stop_line = rec, n
            elif kind == "end":
                t.finished = True
                t.result = rec.get("result")
            else:
                raise TranscriptError(path, n, f"unknown record type {kind!r}")
            t.valid_bytes = offset
        except TranscriptError as e:
            if not keep_prefix or t is None:
                raise
            keys.clear()
            keys.update(before)
            t.damaged = e
            break
    if n == 0:
        raise TranscriptError(path, None, "empty file: not a p2pcards transcript")
    if t is None:
        raise TranscriptError(path, 1, "no table record: not a p2pcards transcript")
    # Evidence is checked against the keys the whole record gives its seats, not the ones at its
    # line: a seat's key may change in the file until that seat's first envelope (a holding host
    # seats another player), so a line checked with a key given for a moment would be signed by
    # whoever made that key (red team 15a forged an equivocation "by" an honest seat so).
    for n, rec in evidence:
        why = check_fault(rec, t.table, t.seats, keys)
        if why is None:
            t.faults.append(rec)
            t.fault_lines.append(n)
        else:
            t.unverified.append(Unverified(n, rec.get("seat"), why))
    if t.stop is not None:
        t.stop_unsigned = check_stop(t.stop, t.table, t.seats, t.seat, keys)
    t.torn_tail = torn
    return t


def _table_record(path: Path, n: int, rec: Message) -> Transcript:
    try:
        table, seats, seat, key = rec["table"], rec["seats"], rec["seat"], rec["key"]
        if rec.get("mesh") != TRANSCRIPT_VERSION:
            raise ValueError(f"unsupported transcript version {rec.get('mesh')!r}")
        if not (isinstance(table, str) and len(table) == 32):
            raise ValueError("bad table id")
        bytes.fromhex(table)
        if not (is_int(seats) and 2 <= seats <= MAX_SEATS):
            # every seat gets a hash chain: an unsigned line saying 2**63 would fill the memory
            raise ValueError(f"seats is {seats!r:.40}, not 2 to {MAX_SEATS}")
        if not (is_int(seat) and 0 <= seat < seats):
            raise ValueError(f"seat is {seat!r:.40}, not 0 to {seats - 1}")
        public_key_from_hex(key)
        game_info, created, code = rec.get("game_info", {}), rec.get("created", 0), rec.get("code")
        if not isinstance(game_info, dict):
            raise ValueError(f"game_info is {game_info!r:.40}, not an object")
        if not isinstance(created, int | float) or isinstance(created, bool) \
                or not 0 <= created <= MAX_TIME:
            raise ValueError(f"created is {created!r:.40}, not a time")
        if code is not None and not isinstance(code, str):
            raise ValueError(f"code is {code!r:.40}, not a string")
    except (KeyError, ValueError, TypeError) as e:
        raise TranscriptError(path, n, f"bad table record ({e})") from None
    return Transcript(
        path=path,
        table=table,
        seats=seats,
        seat=seat,
        key=key,
        game_info=game_info,
        created=created,
        code=code,
        roster=[],
    )


def _roster_record(
    path: Path, n: int, rec: Message, t: Transcript, keys: dict[int, bytes]
) -> list[Message]:
    roster = rec.get("roster")
    if not isinstance(roster, list):
        raise TranscriptError(path, n, "roster record without a roster list")
    for d in roster:
        try:
            m = Member.from_json(d, t.table, t.seats)
        except (KeyError, TypeError, ValueError) as e:
            raise TranscriptError(path, n, f"bad roster entry ({e})") from None
        seat, key = m.seat, m.key
        if seat in keys and keys[seat] != key and (
                seat == t.seat or any(e.sender == seat for e in t.entries)):
            # before the deal a holding host may remove a player and seat another at that seat
            raise TranscriptError(path, n, f"seat {seat} changes its key")
        keys[seat] = key
    if t.seat in keys and keys[t.seat].hex() != t.key:
        raise TranscriptError(path, n, "the roster gives this transcript's own seat another key")
    return roster


def _body(
    path: Path,
    n: int,
    env: Message,
    t: Transcript,
    identity: Identity | None,
    keys: dict[int, bytes],
    cache: dict[tuple[int, int], bytes],
) -> Message | None:
    if env["to"] is None:
        return env["body"]
    if identity is None or identity.key_hex != t.key or t.seat not in (env["from"], env["to"]):
        return None
    pair = (env["from"], env["to"])
    if pair not in cache:
        other = env["to"] if env["from"] == t.seat else env["from"]
        cache[pair] = box_key(identity, keys[other], keys[env["from"]], keys[env["to"]], t.table)
    try:
        return open_box(env, cache[pair], legacy=True)  # records of mesh version 3 too
    except EnvelopeError as e:
        raise TranscriptError(path, n, e.reason) from None


def find_transcripts(home: str | os.PathLike[str] | None = None) -> list[Path]:
    """Every transcript in the data dir, newest first."""
    d = tables_dir(home)
    if not d.is_dir():
        return []
    # only files: a pipe or a device under the name would block whoever opened it
    return sorted((p for p in d.glob("*.jsonl") if p.is_file()),
                  key=lambda p: p.stat().st_mtime, reverse=True)
