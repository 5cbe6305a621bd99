"""Puzzle positions (``docs/puzzles.md``): read a position file and hand it to its game's
module -- ``solve`` (exact, full information) or ``hint`` (a seat's view). A game joins by adding
its module to ``GAMES``; the module provides ``solve`` (taking ``limit=``), ``render_solve``,
``hint`` and ``render_hint``."""

from __future__ import annotations

import errno
import importlib
import json
import os
from pathlib import Path
from typing import Any

from .errors import PositionError
from .limits import Limit

FORMAT = 1
GAMES: dict[str, str] = {
    "go-out-girl": "solver.go_out_girl.puzzle",
    "out-of-this-world": "solver.out_of_this_world.puzzle",
}


def ids_that_say_nothing(g: Any, kind: Any, seat: int) -> None:
    """Give the cards ``seat`` sees the lowest ids of their kind, in slot order, and the cards
    it does not see the rest. A view's values are card ids; handed out in the order the cards
    were placed, a card the seat sees took whatever id its hidden twins left, so two positions
    differing only in hidden cards gave different views (with West holding an 8, placed before
    the field, the field's 8s were ids 43 and 44; with that 8 in the deck, 42 and 43).
    ``kind(card)`` is the card's rules class (``None``: a card left as it is)."""
    groups: dict[Any, list[int]] = {}
    for s, v in enumerate(g.values):
        if v is not None and (k := kind(v)) is not None:
            groups.setdefault(k, []).append(s)
    for slots in groups.values():
        ids = sorted(g.values[s] for s in slots)
        for s, v in zip(sorted(slots, key=lambda s: (not g.knows(seat, s), s)), ids, strict=True):
            g.values[s] = v


MAX_BYTES = 1 << 20  # a position file is a few KB; /dev/zero is not one
MAX_DIGITS = 100  # no number of a position needs more; Python refuses ints over 4,300 digits


def read(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    if path.exists() and not path.is_file():  # opening a pipe would wait for a writer for ever
        raise PositionError("", f"{path} is not a file (a folder, a pipe or a device)")
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise PositionError("", f"{path} is more than {MAX_BYTES // 2**20} MiB: too big "
                                "to be a position (one is a few KB)")
        text = raw.decode("utf-8-sig")  # UTF-8, with or without a byte order mark (Notepad)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # as 'replay' and 'audit' say it (p2pcards/ui/text.no_file)
            raise PositionError("", f"{path} is a loop of symbolic links (each one leads back "
                                "to another): no file") from None
        if isinstance(exc, FileNotFoundError) and os.path.islink(path):
            raise PositionError("", f"{path} is a link to {os.readlink(path)}, which does not "
                                "exist") from None
        raise PositionError("", f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise PositionError("", f"{path} is not UTF-8 text (byte {exc.start} cannot be "
                            "decoded)") from None

    def integer(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_DIGITS:
            raise PositionError("", f"{path} has a number of {len(digits.lstrip('-'))} "
                                f"digits (at most {MAX_DIGITS})")
        return int(digits)

    def constant(name: str) -> Any:
        raise PositionError("", f"{path} is not valid JSON ({name} is not a JSON number)")

    if not text.strip():  # "is not valid JSON (line 1: Expecting value)" said nothing (ux22)
        raise PositionError("", f"{path} is empty: a position is a JSON object (docs/puzzles.md "
                            "shows one)")
    try:
        data = json.loads(text, parse_int=integer, parse_constant=constant)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()):  # the file stops before the JSON is closed
            raise PositionError("", f"{path} stops before its JSON is complete (line "
                                f"{exc.lineno}): the file is cut short, or a bracket or brace "
                                "is not closed") from None
        raise PositionError("", f"{path} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise PositionError("", f"{path} nests lists or objects too deeply to be a "
                            "position") from None
    return check_header(data)


def check_header(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise PositionError("", "a position is a JSON object")
    fmt = data.get("format", FORMAT)
    if isinstance(fmt, bool) or not isinstance(fmt, int) or fmt != FORMAT:  # not true, not 1.0
        raise PositionError("format", f"this p2pcards reads position format {FORMAT}, not {fmt!r}")
    game = data.get("game")
    known = ", ".join(GAMES)
    if game is None:
        raise PositionError("game", f"missing: a position names its game (one of: {known})")
    if not isinstance(game, str) or game not in GAMES:
        raise PositionError("game", f"{game!r} has no puzzle solver; positions exist for: {known}")
    return data


def _module(data: dict[str, Any]):
    return importlib.import_module(GAMES[data["game"]])


def solve(data: dict[str, Any], limit: Limit | None = None) -> tuple[dict[str, Any], str]:
    """The exact answer and its text. With ``limit`` (``solver.limits.Limit``: a time limit,
    progress reports) a search stopped early answers ``"proven": false``, with the best answer
    found so far if there is one; Ctrl+C stops it the same way."""
    data = check_header(data)
    m = _module(data)
    result = m.solve(data, limit=limit) if limit is not None else m.solve(data)
    return result, m.render_solve(result)


def hint(data: dict[str, Any], seed: int = 0) -> tuple[dict[str, Any], str]:
    data = check_header(data)
    m = _module(data)
    result = m.hint(data, seed)
    return result, m.render_hint(result)
