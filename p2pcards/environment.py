"""What p2pcards needs from the machine it runs on -- a data folder it can use, a terminal it
can write to, a disk with room -- and, for each of these going wrong, the words a player reads
instead of a traceback (red team 18). ``cli`` calls these; the rules of each check live here."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path

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
