"""A chat line cannot pass for one of the program's own (docs/network.md, "Names, and what other
players can put on your screen": "A chat line shows its sender's seat after the name, "bob (seat
2): gg" ... No line of the program's or a game's own has "(seat N)" right before a colon").

The attack (red team 14's, moved to the words of the seat marker): sit down under a name that is
the start of one of the program's lines, and chat the rest. The table shows the chat line as
``NAME (seat N): TEXT``, so if any line the program or a game prints itself is ``WORDS (seat
N): MORE`` with WORDS a name the table seats, a player named WORDS prints that line on every
screen, word for word but for the seat number. Every such line in the sources is found here
(a format string with ``(seat {...}):`` or ``(seat N):``): the one that may have it is the chat
line itself."""

from __future__ import annotations

import re
from pathlib import Path

from protocol.roster import check_name

ROOT = Path(__file__).resolve().parents[2]
#: a string literal's text up to " (seat {...}):" or " (seat 3):", from its opening quote
LINE = re.compile(r"""(?:^|[^\w])[rbuf]*["']([^"'\n]*?) ?\(seat (?:\{[^}]*\}|\d+)\):""")
#: the one line allowed the marker: the chat line, "NAME (seat N): TEXT" (p2pcards/table.py)
CHAT = "{self._name(sender)}"


def program_lines() -> list[tuple[str, str]]:
    """(where, the words before the seat marker) of every such line in the program and games."""
    found = []
    for path in sorted([*ROOT.glob("p2pcards/**/*.py"), *ROOT.glob("protocol/**/*.py")]):
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in LINE.finditer(text):
                found.append((f"{path.relative_to(ROOT)}:{n}", m.group(1)))
    return found


def test_the_scan_finds_the_chat_line():
    assert any(words == CHAT and where.startswith("p2pcards/table.py")
               for where, words in program_lines())


def test_no_line_of_the_programs_own_can_be_chatted_by_a_player_named_as_its_start():
    forged = []
    for where, words in program_lines():
        if words == CHAT:
            continue
        # what the words read on the screen: a value in them ("{name}") as a player's name would
        rendered = re.sub(r"\{[^}]*\}", "bob", words).strip()
        try:
            seated = check_name(rendered)
        except ValueError:
            continue  # no player can be called that: the line cannot be forged
        forged.append(f"{where}: a player named {seated!r} who chats the rest prints this line "
                      f"of the program's own on every screen ({words!r} (seat N): ...)")
    assert not forged, "\n".join(forged)
