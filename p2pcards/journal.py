"""A seat's journal (``tables/<table>.seat``): its deck secret, its private arrangements and its
own decisions, each on the disk before it is sent, so that a program taking its seat back
re-makes exactly the same messages (docs/network.md "What is kept on disk"); and its one reader,
shared with the audit."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from protocol.transcript import sync_file

from .engine import ConfigError

#: the largest seat journal read: a table writes a seed, its arrangements and its decisions (a
#: few KiB a match); a larger file is not read whole
MAX_JOURNAL = 16 * 1024 * 1024


class JournalDamaged(Exception):
    """A seat journal that cannot be used; ``str()`` says why, in words ("line 3 is damaged")."""


def journal_records(path: Path) -> tuple[list[dict[str, Any]], int] | None:
    """The records of the seat journal at ``path`` and the length of the whole lines they were
    read from (a torn last line, a crash mid-write, was never written), or ``None`` when there is
    none. Raises ``JournalDamaged`` for a file that is no journal -- a folder, a pipe (which would
    make reading wait for a writer for ever), one larger than any table writes, a line that is
    not a JSON object (or is nested thousands deep) -- and ``OSError`` for one that cannot be
    read. The one reader of both the seat coming back (``SeatJournal``) and the audit."""
    if path.is_dir():
        raise JournalDamaged("it is a folder, not a file")
    if path.exists() and not path.is_file():
        raise JournalDamaged("it is not a file (a pipe or a device)")
    try:
        with path.open("rb") as f:
            data = f.read(MAX_JOURNAL + 1)
    except FileNotFoundError:
        return None
    if len(data) > MAX_JOURNAL:
        raise JournalDamaged("it is larger than any seat journal a table writes "
                             f"({MAX_JOURNAL // 2**20} MiB)")
    whole = data.rfind(b"\n") + 1
    records = []
    for n, line in enumerate(data[:whole].splitlines(), 1):
        try:
            rec = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            rec = None  # (RecursionError: a line nested thousands deep)
        if not isinstance(rec, dict):
            raise JournalDamaged(f"line {n} is damaged")
        records.append(rec)
    return records, whole


class SeatJournal:
    """This seat's private journal: the deck seed first, then its own decisions and
    arrangements, one JSON object per flushed line (0600)."""

    def __init__(self, path: Path, *, write: bool = True) -> None:
        self.path = path
        self.records: list[dict[str, Any]] = []
        self._f: Any = None
        try:
            self._open(path, write)
        except JournalDamaged as exc:
            raise ConfigError(f"this seat's journal {path} cannot be used: {exc}: move it "
                              "aside; without the journal this seat cannot be taken back") from None
        except OSError as exc:
            raise ConfigError(f"this seat's journal {path} cannot be read or written: "
                              f"{exc.strerror or exc}") from None

    @classmethod
    def read_only(cls, path: Path) -> SeatJournal:
        """The journal's records, the file left as it is."""
        return cls(path, write=False)

    def _open(self, path: Path, write: bool) -> None:
        read = journal_records(path)
        if read is not None:
            self.records, whole = read
            if write and whole < path.stat().st_size:  # a torn last line was never written
                with path.open("r+b") as f:
                    f.truncate(whole)
        if write:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            self._f = os.fdopen(fd, "a", buffering=1)

    def append(self, record: dict[str, Any]) -> None:
        """One line, on the disk before the choice it records is sent (after a power cut the
        comeback would choose again: red team 19); an ``OSError`` naming this file if it
        cannot be (a full disk: the choice is then not sent)."""
        try:
            self._f.write(json.dumps(record, separators=(",", ":")) + "\n")
            self._f.flush()
            sync_file(self._f.fileno())
        except OSError as e:
            raise OSError(e.errno, e.strerror or str(e), str(self.path)) from None

    def has_seed(self) -> bool:
        return any(r.get("kind") == "seed" for r in self.records)

    def seed(self) -> bytes:
        for r in self.records:
            if r.get("kind") == "seed":
                try:
                    return bytes.fromhex(r["deck"])
                except (KeyError, TypeError, ValueError):
                    raise ConfigError(f"{self.path}: the deck seed is damaged") from None
        seed = secrets.token_bytes(32)  # a new table (or one not dealt yet): see journal_lost
        self.append({"kind": "seed", "deck": seed.hex()})
        return seed

    def close(self) -> None:
        if self._f is not None:
            self._f.close()


def journal_lost(transcript: Any, contacted: bool = False) -> str | None:
    """Why the seat of ``transcript`` (a ``read_transcript`` of our own record) cannot be taken
    back, or ``None``: once this seat has sent its part of the deck, its journal holds the deck
    secret those messages were made from, and a new secret can never re-make them (the re-run
    would diverge from the record). Said before the table is contacted."""
    if not any(e.sender == transcript.seat and e.topic == "deck" for e in transcript.entries):
        return None  # not dealt yet: a new secret is as good as the lost one
    path = Path(transcript.path).with_suffix(".seat")
    if not path.exists():
        what = "is missing"
    else:
        try:
            journal = SeatJournal.read_only(path)
        except ConfigError as exc:
            return (f"{exc}. It holds this seat's deck secret, so the seat cannot be taken back "
                    "without it")
        if journal.has_seed():
            return None
        what = "is empty" if not journal.records else "holds no deck secret"
    sent = "This program leaves the table" if contacted else "Nothing was sent to the table"
    return (f"this seat's journal ({path}) {what}: it held this seat's deck secret, which the "
            f"cards already dealt were made from, so this seat cannot be taken back. {sent}; "
            "the others' table stops when its wait for this seat runs out (see 'p2pcards "
            "tables')")
