"""What a person reads while a networked table waits for someone: whom it waits for, for how long
so far, how long it waits at most, what happens then, and how the one away comes back. The same
words serve the full-screen table (a line kept up to date over the question) and the plain
prompt (``who`` and the turn line)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Absent:
    """A seat the table is waiting for: gone quiet (``left`` False) or left with ``quit``."""

    seat: int
    name: str
    fingerprint: str
    seconds: float  # away this long, as the table counts it (since the game last moved)
    left: bool = False
    # what is left of the seat's allowance for the whole match (the table's wait three times
    # over, every spell counted), when the table knows it: a seat away in spells, again and
    # again, runs out of it before the wait
    match_left: float | None = None


def clock(seconds: float) -> str:
    """A span of time as the table says it elsewhere: "0:40", "2:00", "12 s"."""
    s = max(0, int(round(seconds)))
    return f"{s // 60}:{s % 60:02d}" if s >= 60 else f"{s} s"


def comeback(seat: int) -> str:
    """How a seat that is away takes its seat back: a joiner reruns its join command; the host
    (seat 0) has none to rerun (``host`` again opens a new table)."""
    return "by running 'p2pcards join --resume'" if seat == 0 else \
        "by rerunning their join command"


def who_text(a: Absent) -> str:
    return f"{a.name} (seat {a.seat + 1}, {a.fingerprint})"


def waiting_text(absent: Sequence[Absent], *, seats: int, me: int | None,
                 wait: float | None) -> str:
    """The table's pause in words, or "" when nobody is away. When every other player is away
    at a table of three or more, it is this program that is cut off: nobody is named for it
    here, and the person is told so."""
    if not absent:
        return ""
    limit = f"at most {clock(wait)}" if wait else "a while"
    others = {s for s in range(seats) if s != me}
    gone = {a.seat for a in absent}
    if seats > 2 and others and gone >= others:
        longest = min(a.seconds for a in absent)
        names = ", ".join(a.name for a in sorted(absent, key=lambda a: a.seat))
        return (f"You are cut off from the other players ({names}) for {clock(longest)}: your "
                f"program keeps trying. If they do not hear from you within "
                f"{clock(wait) if wait else 'their wait'}, they end the match, naming you; nothing "
                "is lost meanwhile.")
    if len(absent) == 1:
        (a,) = absent
        what = f"left the table (away {clock(a.seconds)})" if a.left else \
            f"is away ({clock(a.seconds)})"
        waits = f"It waits {limit} for them"
        if wait and a.match_left is not None and a.match_left < wait - a.seconds:
            waits = (f"It waits only {clock(a.match_left)} more for them (what is left of their "
                     "time away for the whole match)")
        # gone without a goodbye, perhaps only their network: their program comes back by
        # itself, and "they come back by rerunning" alone read as if it never would (ux23)
        back = f"They come back {comeback(a.seat)}" if a.left else \
            f"If their program closed, they come back {comeback(a.seat)}"
        return (f"The table is paused: {who_text(a)} {what}. {waits}, then the match ends, "
                f"naming them. {back}.")
    listed = "; ".join(f"{who_text(a)}, {'left' if a.left else 'away'} {clock(a.seconds)}"
                       for a in sorted(absent, key=lambda a: a.seat))
    return (f"The table is paused, waiting for {listed}. It waits {limit} for an absent "
            "player, then the match ends, naming whoever is still away. They come back by "
            "rerunning their join command (the host: 'p2pcards join --resume').")


def away_turn(view: object, absent: Sequence[Absent]) -> str | None:
    """``who``'s turn line when the seat to move is away ("Turn: carol (seat 3), away 19 s · the
    table waits for them."): it is not deciding, whatever the game's state says."""
    away = {a.seat: a for a in absent}
    p = getattr(view.pending(), "player", None)  # type: ignore[attr-defined]
    if p is None or p not in away:
        return None
    return f"Turn: {view.pname(p)} (seat {p + 1}), {turn_away(away[p])}."  # type: ignore[attr-defined]


def left_text(wait: float | None) -> str:
    """What a person who left a networked match reads: that the seat is kept, how to take it
    back, and for how long the others wait before the match ends without them."""
    until = "" if not wait else f" (at most {clock(wait)}; then the match ends, naming you)"
    return (f"You left the table. Your seat is kept: 'p2pcards join --resume' takes it back "
            f"while the others wait{until}.")


def interrupted_text(again: str, wait: float | None) -> str:
    """Ctrl-C as a signal at a dealt table (input from a pipe or a file: no prompt reads the
    key): the seat is kept, how to take it back (``again``: the command's way, "run the same
    command again to take it back"), and how long the others wait, then what -- as the first
    Ctrl-C at a terminal says."""
    until = "" if not wait else \
        f" The others wait for you at most {clock(wait)}, then end the match, naming you."
    return f"Interrupted. Your seat is kept: {again}.{until}"


def when_text(created: float, now: float | None = None) -> str:
    """When something happened, as a person says it: "today at 14:05", "yesterday at 09:30",
    "on 3 Dec at 21:10" (with the year when not this one); "" for a time that cannot be one."""
    import datetime
    import time

    try:
        at = datetime.datetime.fromtimestamp(created)
        today = datetime.datetime.fromtimestamp(time.time() if now is None else now).date()
    except (OverflowError, OSError, ValueError):
        return ""
    clock_at = f"{at:%H:%M}"
    days = (today - at.date()).days
    if days == 0:
        return f"today at {clock_at}"
    if days == 1:
        return f"yesterday at {clock_at}"
    year = "" if at.year == today.year else f" {at.year}"
    return f"on {at.day} {at:%b}{year} at {clock_at}"


def resuming_text(game: str, created: float, seat: int, seats: int, record: str,
                  now: float | None = None) -> str:
    """Which table ``join --resume`` takes a seat back at, in what a person recognises: the game,
    when it started, their seat, and the record's file (as 'p2pcards tables' lists it) -- not
    the table's hex id alone ("Resuming table 03804c..."). The players follow (whom it looks
    for)."""
    from .present import presenter_for
    from .text import printable

    title = presenter_for(game).title  # (a game this version does not know: its own name)
    name = title if title != "p2pcards" else printable(game, newlines=False) or "a game"
    when = when_text(created, now)
    return (f"Resuming table: {name}{f', started {when}' if when else ''}, you in seat "
            f"{seat + 1} of {seats} (its record: {record})")


def recheck(record: object) -> str:
    """After a stop: the person's own record of the match is kept, and how to re-check it."""
    import shlex

    return (f"Your record of this match is kept: 'p2pcards audit {shlex.quote(str(record))}' "
            "re-checks every proof in it, with no secret.")


def kept(record: object) -> str:
    """After a match played to its end: what the person can do with it now. The result and the
    audit were the last words, and nothing said where the match was kept (ux21)."""
    import shlex

    q = shlex.quote(str(record))
    return (f"Your record of this match is kept: 'p2pcards replay {q}' steps through it as you "
            f"saw it, 'p2pcards audit {q}' re-checks every proof in it ('p2pcards tables' lists "
            "your games).")


def turn_away(a: Absent) -> str:
    """The top line's tail when the seat to move is away: it is not deciding, it is gone."""
    return f"{'left' if a.left else 'away'} {clock(a.seconds)} · the table waits for them"


def deck_waits(absent: Sequence[Absent]) -> str:
    """The top line while the deck's step waits for a seat away: every seat adds its share to
    a shuffle or an opened card, so nothing is dealt meanwhile. It said "the deck · 0:05 ·
    dealing or turning cards over" while the table was paused for a player who had quit."""
    from .text import fit_cells

    first = max(absent, key=lambda a: (a.seconds, -a.seat))
    more = f" (and {len(absent) - 1} more)" if len(absent) > 1 else ""
    return (f"the deck · waits for {fit_cells(first.name, 20)} (seat {first.seat + 1}){more} · "
            f"{'left' if first.left else 'away'} {clock(first.seconds)}")  # (one row at 80)


def said_live(line: str) -> bool:
    """Whether a table line is one the live line about an absence (``#waiting``) says better:
    someone away, the reminder of it. It stays in the log, and the notice line stays free."""
    return line.startswith("** ") and (" is away; the table waits" in line or (
        line.startswith("** waiting for ") and "): away " in line))


def comings_and_goings(line: str) -> bool:
    """Whether a table line only says someone left, went quiet or came back ("** bob (seat 3,
    ...) left the table."): no news once the table has stopped or the match is over. Said then,
    it came just before "Result:", as if bob's leaving had a part in it (ux21)."""
    return line.startswith("** ") and (
        line.endswith((" left the table.", " is back.")) or " is away; the table waits" in line
        or " is away too: " in line or (line.startswith("** waiting for ") and "): away " in line))


def over(view: Any) -> bool:
    """Whether the match in ``view`` (a game state, or None before the deal) is over."""
    return view is not None and view.pending() is None
