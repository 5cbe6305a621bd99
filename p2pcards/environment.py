"""What p2pcards needs from the machine it runs on -- a data folder it can use, a terminal it
can write to, a disk with room -- and, for each of these going wrong, the words a player reads
instead of a traceback (red team 18); and for a bug, the last line of defence: one line on the
terminal and the traceback in ``crash.log``, the network's log lines in ``p2pcards.log``.
``cli`` calls these; the rules of each check live here."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path

import typer

#: errors of a write to a disk: full, over quota, read-only, failing, or the file too large
DISK_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EFBIG}


def safe_streams() -> None:
    """Standard output and error replace a character their encoding cannot show (a terminal
    set to ASCII or Latin-1 shown a card's ``●``) instead of stopping the program with an
    internal error."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a closed or odd stream: as it is
                reconfigure(errors="replace")


def home_problem() -> str | None:
    """Why the data folder named by ``P2PCARDS_HOME`` cannot be used at all (``~bob/cards``
    with no user bob), or ``None``. Checked before anything else runs: every command reads
    the data folder's name (the log file, the saved games)."""
    from protocol.identity import IdentityError, data_dir

    try:
        data_dir()
    except IdentityError as exc:
        return str(exc)
    return None


def write_failure(exc: OSError, rejoin: str) -> str | None:
    """Words for a networked seat whose record could not be written (its transcript or seat
    journal on a full or read-only disk), saying which file, that what came before is kept
    and how the seat is taken back; ``None`` for any other ``OSError``."""
    if exc.errno not in DISK_ERRORS:
        return None
    where = f" {exc.filename}" if exc.filename else ""
    why = exc.strerror or os.strerror(exc.errno or 0)
    fix = "free some space" if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) else \
        "make the data folder writable again"
    return (f"cannot write this seat's record{where}: {why}. The record keeps everything up "
            f"to there and your seat is kept: {fix}, then {rejoin}.")


def tables_problem(folder: Path) -> str | None:
    """Why the saved games in ``folder`` (the data folder's ``tables``) cannot be listed -- it
    is a file, or it cannot be read -- or ``None`` (also when it does not exist yet: no game
    has been saved)."""
    if not os.path.lexists(folder):
        return None
    if not folder.is_dir():
        what = "a link to nothing" if folder.is_symlink() and not folder.exists() else \
            "a file, not a folder"
        return f"the saved games are kept in {folder}, but that is {what}: move it aside"
    try:
        with os.scandir(folder) as entries:
            next(entries, None)
    except OSError as exc:
        return f"cannot list the saved games in {folder}: {exc.strerror or exc}"
    return None


def unreadable(path: str) -> str | None:
    """Why the file at ``path`` cannot be read by this user (its permissions), or ``None``."""
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        return f"cannot read {path}: {exc.strerror or exc}"
    return None


def output_broken(exc: OSError) -> bool:
    """Whether ``exc`` was raised writing standard output (a full disk, a closed device...): the
    innermost frame of its traceback was writing to a stream on that file descriptor (click's
    echo, or a ``print(..., file=self.out)``). Standard output is then pointed at the null
    device, so that the interpreter's last flush adds no traceback of its own."""
    import os
    import sys

    tb = exc.__traceback__
    if tb is None or exc.errno is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    seen = list(tb.tb_frame.f_locals.values())
    self_ = tb.tb_frame.f_locals.get("self")
    if hasattr(self_, "__dict__"):
        seen += list(vars(self_).values())

    def is_stdout(v: object) -> bool:
        if v is sys.stdout or v is sys.__stdout__:
            return True
        try:
            return callable(getattr(v, "fileno", None)) and v.fileno() == 1  # type: ignore[union-attr]
        except (OSError, ValueError, AttributeError, TypeError):
            return False

    if not any(is_stdout(v) for v in seen):
        return False
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass
    return True


def say_error(line: str) -> None:
    """One line on standard error, in red; nothing if that cannot be written either."""
    import contextlib

    with contextlib.suppress(OSError, ValueError, MemoryError):
        typer.secho(line, fg=typer.colors.RED, err=True)


def log_to_file() -> None:
    """The network's and the deck's log lines (a peer's fault, a refused join, a frame dropped, a
    bug caught in a network loop with its traceback) go to ``p2pcards.log`` in the data
    directory (private, 0600; at most three files of 1 MB; created at the first line), never
    onto the screen: what a player needs to know, the table says in its own words. A log that
    cannot be written is dropped."""
    import logging
    import os
    from logging.handlers import RotatingFileHandler

    from protocol.identity import data_dir, ensure_dir

    class LogFile(RotatingFileHandler):
        def _open(self):  # at the first line (delay=True) and after a rollover
            ensure_dir(data_dir())
            fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            return os.fdopen(fd, "a", encoding="utf-8")

        def handleError(self, record: logging.LogRecord) -> None:
            pass  # not on the screen either: a full disk must not print tracebacks into a game

    handler = LogFile(data_dir() / "p2pcards.log", maxBytes=1_000_000, backupCount=2,
                      delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(name)s %(levelname)s "
                                           "%(message)s"))
    log = logging.getLogger("p2pcards")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    # asyncio's own reports ("Task exception was never retrieved", with a traceback) too
    aio = logging.getLogger("asyncio")
    aio.addHandler(handler)
    aio.propagate = False


def redacted(args: list[str]) -> list[str]:
    """The command line without the table code (``--code X`` or ``--code=X``)."""
    out, hide = [], False
    for a in args:
        if hide:
            out.append("***")
        elif a.startswith("--code="):
            out.append("--code=***")
        else:
            out.append(a)
        hide = a == "--code"
    return out


def crash_log(exc: Exception) -> str:
    import datetime
    import os
    import sys
    import traceback

    from protocol.identity import data_dir

    text = "".join(traceback.format_exception(exc))
    try:
        path = data_dir() / "crash.log"
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)  # private: 0600
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(f"--- {datetime.datetime.now().isoformat(timespec='seconds')} "
                    f"p2pcards {' '.join(redacted(sys.argv[1:]))}\n{text}")
    except OSError as exc:  # no traceback on the screen: a temporary file, or nowhere
        why = f"crash.log cannot be written ({exc.strerror or exc})"
        try:
            import tempfile

            fd, tmp = tempfile.mkstemp(prefix="p2pcards-crash-", suffix=".log")  # 0600
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(f"p2pcards {' '.join(redacted(sys.argv[1:]))}\n{text}")
        except OSError:
            return f"The details could not be saved: {why}, nor a temporary file."
        return f"The details are in {tmp} ({why}); please report them."
    return f"The details are in {path}; please report them."
