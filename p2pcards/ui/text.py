"""Text from other peers on this terminal: chat lines, names, refusal reasons and anything else a
peer can put into a message are shown with their control characters (escape sequences, carriage
returns, bidirectional overrides...) made visible, so that a peer cannot repaint the screen or
forge a line of the game's log."""

from __future__ import annotations

import unicodedata


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
