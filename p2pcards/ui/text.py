"""Text from other peers on this terminal: chat lines, names, refusal reasons and anything else a
peer can put into a message are shown with their control characters (escape sequences, carriage
returns, bidirectional overrides...) made visible, so that a peer cannot repaint the screen or
forge a line of the game's log."""

from __future__ import annotations

import io
import re
import shutil
import sys
import unicodedata
from functools import lru_cache

from rich.cells import cell_len, set_cell_size
from rich.console import Console
from rich.text import Text


def printable(text: str, *, newlines: bool = True) -> str:
    """``text`` with every control or format character replaced by its ``\\x..`` escape (a
    newline is kept when ``newlines``)."""
    if text.isprintable():
        return text
    out = []
    for c in text:
        if c == "\n" and newlines or c.isprintable():
            out.append(c)
        elif unicodedata.category(c) == "Zs":  # a no-break or other space
            out.append(" ")
        else:
            out.append(repr(c)[1:-1] if c.isascii() else f"\\u{ord(c):04x}")
    return "".join(out)


def shell_path(path: object) -> tuple[str, bool]:
    """``path`` as a person can copy it into a command: as it is when it is printable UTF-8,
    else as a bash/zsh ``$'...'`` word giving back its very bytes, and ``True``. 'p2pcards
    tables' listed a saved game whose file name is not UTF-8 as ``caf\\udce9.game``, a name
    that opens nothing when typed (ux22)."""
    text = str(path)
    try:
        text.encode("utf-8")
        if text.isprintable():
            return text, False
    except UnicodeEncodeError:
        pass
    out = []
    for c in text:
        if 0xDC80 <= ord(c) <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
            out.append(f"\\x{ord(c) - 0xDC00:02x}")
        elif c in "\\'":
            out.append("\\" + c)
        elif c.isprintable():
            out.append(c)
        else:
            out.append("".join(f"\\x{b:02x}" for b in c.encode("utf-8", "surrogatepass")))
    return "$'" + "".join(out) + "'", True


#: the space between a number and its unit ("3 s", "2 min", "1 MB"): a line never breaks there
#: (the log wrapped "... for 3" with "s" alone on the next row)
UNIT_SPACE = re.compile(r"(?<=\d) (?=(?:s|ms|min|minutes?|seconds?|hours?|h|days?|[kMG]B|bytes?)"
                        r"(?![\w-]))")
#: stands for such a space while a line is wrapped: a letter to Rich's wrapping (which breaks at
#: any white space, a no-break one too), one cell wide; ``printable`` escapes it in anything a
#: peer sends, so only these spaces carry it
GLUE = "\ue000"


def glued(text: str, glue: str = GLUE) -> str:
    """``text`` with every number's space before its unit made ``glue``: the same length."""
    return UNIT_SPACE.sub(glue, text)


def unglued(text: str) -> str:
    return text.replace(GLUE, " ")


def wrap_units_kept(text: Text, console: Console, width: int) -> list[Text]:
    """``text`` wrapped by words to ``width`` cells (a word longer than a row cut by cells),
    every figure keeping its unit on its row ("3 s"): glued while wrapped, the same length, so
    its styles hold."""
    if UNIT_SPACE.search(text.plain):
        text = text.copy()
        text.plain = glued(text.plain)
    rows = list(text.wrap(console, width, overflow="fold"))
    for row in rows:
        if GLUE in row.plain:
            row.plain = unglued(row.plain)
    return rows


@lru_cache(maxsize=4)
def _console(width: int) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)


def wrap_cells(line: str, width: int, rest: int = 3) -> list[str]:
    """``line`` wrapped by word to ``width`` terminal cells (a fullwidth ``＝`` or ``李`` is two,
    a combining mark none: what the terminal does, not what ``len`` counts), every row after the
    first indented past the line's own indent: under the text of a numbered option or bullet
    ("  12. ..."), else by ``rest`` more cells. So no row but a line's first starts where a line
    of its own would, and a chat line padded with wide characters cannot put a forged
    "** ..." at the start of a row. A word longer than a row is cut by cells."""
    if cell_len(line) <= width or width < 12:
        return [line]
    body = line.lstrip(" ")
    lead = len(line) - len(body)
    m = re.match(r"(\d+\.\s+|[-•*]\s+)", body)  # an option number or a bullet
    indent = min(lead + (len(m.group(1)) if m else rest), width // 3)
    rows = [r.plain.rstrip() for r in wrap_units_kept(Text(line), _console(width), width - indent)]
    return rows[:1] + [" " * indent + r.lstrip(" ") for r in rows[1:]]


def fit_cells(text: str, cells: int) -> str:
    """``text`` cut to at most ``cells`` terminal cells, ending with "…" when cut (a name of 32
    fullwidth letters is 64 cells: the top line shortens it so whose turn it is still shows)."""
    if cell_len(text) <= cells:
        return text
    return set_cell_size(text, cells - 1).rstrip() + "…"


def no_file(path: object) -> str:
    """Why the file ``path`` cannot be opened, in words: a loop of symbolic links, a link to a
    file that does not exist, or no such file."""
    import errno
    import os

    try:
        os.stat(str(path))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{path} is a loop of symbolic links (each one leads back to another): no file"
        if os.path.islink(str(path)):
            return f"{path} is a link to {os.readlink(str(path))}, which does not exist"
        return f"{path}: no such file"
    return f"{path}: no such file"


def outcome_words(outcome: object, names: list[str]) -> str:
    """A game's outcome dict in words, seats named: ``{'winner': 0, 'wins': [2, 0, 1]}`` with
    names Ann, Bob, Cy reads "winner Ann; wins Ann 2, Bob 0, Cy 1"."""
    if not isinstance(outcome, dict):
        return str(outcome)

    def name(v: object) -> str:
        return names[v] if isinstance(v, int) and not isinstance(v, bool) and \
            0 <= v < len(names) else str(v)

    parts = []
    for k, v in outcome.items():
        key = k.replace("_", " ")
        if k in ("winner", "seat", "loser") and isinstance(v, int):
            parts.append(f"{key} {name(v)}")
        elif k in ("winners", "losers", "battle_winners") and isinstance(v, list):
            parts.append(f"{key} {', '.join(name(x) for x in v) or 'none'}")
        elif isinstance(v, list) and len(v) == len(names) and names:
            parts.append(f"{key} " + ", ".join(f"{n} {x}" for n, x in zip(names, v, strict=True)))
        else:
            parts.append(f"{key} {v}")
    return "; ".join(parts)


#: What 'deal' (or 'start') typed during the game answers: a host whose input was not a terminal
#: was dealt without typing it, and 'Unknown command' read as if the deal had not happened (ux23).
DEALT_ALREADY = "The cards are dealt already: the game is under way ('who' says whose turn it is)."


def type_a_number(n: int) -> str:
    """How to pick one of ``n`` numbered options, in words: "type 1" when there is one."""
    return "type 1" if n == 1 else f"type a number from 1 to {n}"


def typed_number(text: str) -> int | None:
    """The number a person typed, for a numbered choice (1 and up): ``None`` when ``text`` is not
    digits; 0 -- no choice -- for digits that are no number the choice can be (a superscript
    '²' or a circled '①', which ``str.isdigit`` takes and ``int`` refuses, or more digits than
    any list has), so that such a line gets the usual "Not a choice", never a traceback."""
    if not text.isdigit():
        return None
    if not text.isdecimal() or len(text) > 9:
        return 0
    return int(text)


def say(text: str) -> None:
    print(hanging(printable(text)), flush=True)


def hanging(text: str) -> str:
    """At a terminal, long lines wrapped by word to the terminal's width in cells with the rest
    indented (``wrap_cells``): a peer's chat line that runs past the width, or a table's
    announced game in ``join``'s list, cannot put a forged "** ..." line of the program's own or
    a forged "1. alice ..." entry at a line's start."""
    if not sys.stdout.isatty():
        return text
    width = shutil.get_terminal_size().columns
    return "\n".join("\n".join(wrap_cells(line, width)) for line in text.split("\n"))
