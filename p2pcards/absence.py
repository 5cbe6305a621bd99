"""Who the table waits for, and for how long: the absence watcher of a seat at a networked table.

It reminds everyone whom the table waits for, with the time away, and ends the match for everyone
past the table's wait (``--wait``) or past a seat's allowance over the match (``ABSENCE_IN_ALL``
waits in all), naming who stayed away. Time in which this program heard nobody, or nobody heard
it (its own network cut), and time in which it stood still (suspended) is nobody's absence.
``_announce`` turns the mesh's away/back/left/stop events into the lines a player reads.
docs/network.md, "Leaving, waiting, and the clock", says what a player sees.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from typing import Any

from protocol.mesh import Mesh

from .table import OWN_PAUSE

REMIND_EVERY = 15.0  # seconds between "waiting for ..." reminders
UNHEARD_FIRST = 8.0  # seconds (at most half the wait) before an unheard seat is said (relays: ~4 s)
# a seat's absences over the whole match may add up to this many times the table's wait: one
# honest cut (up to a wait) and a few short drop-outs fit; a seat that goes away for just under
# the wait before every step (each spell alone allowed, the game moving in between) runs out
ABSENCE_IN_ALL = 3
# the absence watcher looks every 0.25 s; a look this much later means this program stood still
# (stopped, suspended, its loop stuck): that time is nobody's absence. Above the slowest honest
# deck step measured here (0.84 s), so a busy loop is still counted as usual. (table.OWN_PAUSE:
# the turn clock uses the same.)


def clock_text(seconds: float) -> str:
    """A span of time as the table says it: "0:40", "2:00", "12 s"."""
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}" if s >= 60 else f"{s} s"


_COUNTED: weakref.WeakKeyDictionary[Mesh, dict[int, float]] = weakref.WeakKeyDictionary()


_MATCH_LEFT: weakref.WeakKeyDictionary[Mesh, dict[int, float]] = weakref.WeakKeyDictionary()


def counted_away(mesh: Mesh) -> dict[int, float]:
    """Seat -> seconds of absence the table counts against it now (``_watch_absence``)."""
    try:
        return dict(_COUNTED.get(mesh, {}))
    except TypeError:  # not a mesh (a stand-in that cannot be weakly referenced): nothing counted
        return {}


def match_left(mesh: Mesh) -> dict[int, float]:
    """Seat away -> seconds left of its allowance for the whole match (``ABSENCE_IN_ALL`` times
    the wait, every spell counted): past it the table ends the match naming the seat, however
    short its spell now."""
    try:
        return dict(_MATCH_LEFT.get(mesh, {}))
    except TypeError:
        return {}


async def _watch_absence(mesh: Mesh, wait: float, say: Callable[[str], Any], bot: bool,
                         progress: Callable[[], Any] | None = None) -> None:
    """Remind everyone whom the table waits for, with the time away; after ``wait`` seconds
    of absence end the match for everyone, naming who left. A peer cut off from everyone
    (all others away) is told so and names nobody. A peer we hear but whose own heads show our
    messages do not reach it (a failed resume, a one-way link) is waited for and said so; it is
    not named here (the deck's clock names it once ``MAX_UNREACHED_PAUSE`` is spent, and at
    once if its claim contradicts what it signed it held: ``Mesh.unreached``).

    Absence adds up while the game makes no progress (``progress()``, the table's step, stays
    the same): a seat that leaves and comes back for a moment, again and again, restarts
    neither the wait nor anything else, so it cannot stall the table beyond ``wait``. And it
    adds up over the whole match: past ``ABSENCE_IN_ALL`` times ``wait`` in all the seat is
    named, so going away for just under the wait before every step (the game moving after
    each) cannot stall the table for a wait a step either.

    A seat that reached this program only through others since its last own frame did
    (``Mesh.carried``: its link to us cut, its word passed on by a carrier) is not named here:
    a carrier withholding its words, or ours from it, has it waited for as away, and this
    program cannot tell that from its leaving. Past its wait or allowance it is given
    ``away_after`` more, in which the seats that hear it directly (their count began no later)
    name it if it left; then the match ends naming nobody, saying through whom it was heard.

    Time this program itself stood still (stopped with Ctrl-Z, its computer suspended or too
    busy: a look that comes ``OWN_PAUSE`` late) is nobody's absence: it is not charged to a seat
    away meanwhile (the mesh forgives it to the seats it hears), and the person is told.

    So is a stretch in which this program heard nobody (every other seat away at once, not all
    of them gone with a goodbye, at more than two seats): most likely its own link was cut, and
    the others counted *it* away meanwhile. It is taken out of every spell that spans it, and
    counted neither since the last move nor over the match; the person is told when it ends.
    At most ``ABSENCE_IN_ALL`` waits of such stretches over the match (what the others allow
    this seat's own absences): past that a stretch counts as usual, so seats that go away
    together to look like this program's cut hold the table that much more, not for ever."""
    reminded: dict[Any, float] = {}
    unreached: dict[int, float] = {}  # seat -> since when: heard from, but our messages fail
    absent: dict[int, float] = {}  # seat -> seconds away since the game last made progress
    spells: dict[int, int] = {}  # seat -> times it went away since the game last made progress
    spell_of: dict[int, float] = {}  # seat -> the start of its spell away counted last
    total: dict[int, float] = {}  # seat -> seconds away over the whole match (never reset)
    # (seat, start of its spell) -> the part of it that was nobody's absence: our own pauses,
    # and stretches in which we heard nobody
    paused: dict[tuple[int, float], float] = {}
    allowance = ABSENCE_IN_ALL * wait
    alone_used = 0.0  # seconds of stretches hearing nobody forgiven over the match (<= allowance)
    stretch = [0.0, 0.0]  # the stretch under way: its length, and the part of it forgiven
    # the same for a stretch in which nobody heard us (``unheard_since``), and whether a seat
    # was away in it
    unheard: list[Any] = [0.0, 0.0, False]
    unheard_to = 0.0  # forgiven up to then
    held: dict[int, tuple[float, float]] = {}  # seat -> (spell, match) counted, at its last look

    def gone(s: int, now: float, since_unknown: float) -> float:  # its spell so far, less the above
        since = mesh.away_since.get(s, since_unknown)
        return max(0.0, now - since - paused.get((s, since), 0.0))

    mark = progress() if progress is not None else None
    last = time.monotonic()
    while True:
        # a quarter second: a spell that ends between two looks loses at most that much, so
        # many short spells cannot slip under the match's allowance
        await asyncio.sleep(0.25)
        now = time.monotonic()
        pause = now - last - 0.25
        paused = {k: v for k, v in paused.items() if mesh.away_since.get(k[0]) == k[1]}
        if pause > OWN_PAUSE:  # we stood still, not they: not part of anyone's spell away
            # The standstill is one stretch of ``pause`` inside [last, now], and the mesh marks a
            # seat away only while this program runs, so a spell began either before the
            # standstill or after it. One that began after it began at ``last + pause`` or later
            # (within the 0.25 s since waking); one that began before it, earlier, even after our
            # last look (marked just before the stop: it was charged the whole pause, and a
            # woken program named a seat it heard again at once).
            for s in mesh.away:
                since = mesh.away_since.get(s, now)
                if since < last + pause:
                    paused[s, since] = paused.get((s, since), 0.0) + pause
            say(f"** this program was paused for {clock_text(pause)} (stopped, or its computer "
                "asleep or too busy): that time is not counted against anyone")
            # forgiven as a pause: a stretch nobody heard us (none echoed us while we stood
            # still) starts after it, or it spent the allowance for our own cuts on the pause
            unheard_to = now
        else:
            pause = 0.0

        others = [s for s in range(mesh.seats) if s != mesh.seat]
        step = progress() if progress is not None else None
        if step != mark:  # the game moved on: nobody is stalling it
            mark, absent, spells = step, {}, {s: 1 for s in mesh.away}
            # each seat away now is in its one spell since, counted here: a spell that began in
            # this very look was counted twice below, and a player who quit once, as the game
            # moved, was named as one who "kept leaving and coming back" (ux23)
            spell_of.update({s: mesh.away_since.get(s, now) for s in mesh.away})
        for s in mesh.away:  # a new spell (however brief the return between): one more
            since = mesh.away_since.get(s, now)
            if spell_of.get(s) != since:
                spell_of[s] = since
                spells[s] = spells.get(s, 0) + 1
        # not while we are cut off, as far as we can tell: every other seat away at once, not
        # each with a goodbye (after a stop the others may go: its claim is still counted)
        part = 0.0
        if (mesh.stopped is None and mesh.seats > 2 and set(mesh.away) >= set(others)
                and not set(others) <= mesh.left):
            begun = max(mesh.away_since.get(s, now) for s in others)  # the last one went away
            whole = max(0.0, now - max(last + pause, begun))
            part = min(whole, max(0.0, allowance - alone_used))
            alone_used += part
            stretch = [stretch[0] + whole, stretch[1] + part]
            # nor is it a stretch nobody heard us as well: that one starts after it, or the cut
            # healing inbound first (nobody has echoed us yet) spent the allowance on it twice
            unheard_to = now
            for s in mesh.away:  # every spell under way spans it (each began by ``begun``)
                since = mesh.away_since.get(s, now)
                paused[s, since] = paused.get((s, since), 0.0) + part
        elif stretch[0] > 0.0:
            if not set(mesh.away) >= set(others):  # someone is heard again (not: all left)
                length, kept = stretch
                counted = "that time is not counted against anyone" if kept >= length - 0.5 else (
                    f"only {clock_text(kept)} of it is not counted against anyone (at most "
                    f"{clock_text(allowance)} over the match, {ABSENCE_IN_ALL} times the table's wait)")
                say(f"** this program heard nobody for {clock_text(length)} (every other player "
                    f"away at once: most likely its own network was cut): {counted}")
                # past what is forgiven, a seat that went over its wait or allowance in the
                # stretch is named, back or not: two seats back at the same moment are no excuse
                due = [(-t, -u, x) for x, (t, u) in held.items() if t >= wait or u >= allowance]
                if due and mesh.stopped is None:  # the one away longest (the lower seat on a tie)
                    t, u, x = min(due)
                    t, u = -t, -u
                    via = _carried(mesh, x)
                    if via is not None:  # heard only through others: as below
                        mesh.stop(None, _carried_away(mesh, x, via, t, u, wait, allowance))
                    else:
                        mesh.stop(x, _alone_too_long(mesh.name_of(x), t, u, wait, allowance))
                    return
            stretch, held = [0.0, 0.0], {}
        for s in mesh.away:  # the time away in this tick, not the whole tick
            tick = max(0.0, min(now - last - pause - part, gone(s, now, last)))
            absent[s] = absent.get(s, 0.0) + tick
            total[s] = total.get(s, 0.0) + tick
        # A stretch in which no seat heard this program (none echoed its words: its own link is
        # most likely cut one way) is nobody's absence either: a seat heard only through the
        # others cannot show meanwhile that its word is recent, and is waited for as away. Found
        # a moment in (``Mesh.unheard_since``), it is forgiven from its start, out of the same
        # allowance as a stretch hearing nobody, and only while a seat is away.
        since_unheard = mesh.unheard_since() if mesh.stopped is None and not part else None
        if since_unheard is not None and not set(mesh.away) >= set(others):
            start = max(since_unheard, unheard_to)
            whole = max(0.0, now - start)
            mute = min(whole, max(0.0, allowance - alone_used)) if mesh.away else 0.0
            unheard = [unheard[0] + whole, unheard[1] + mute, unheard[2] or bool(mesh.away)]
            unheard_to = now
            spent = 0.0  # what it forgives: the part of it a seat was away (not all of it)
            for s in mesh.away:  # the part of its spell in the stretch, counted above
                since = mesh.away_since.get(s, now)
                forgive = min(mute, max(0.0, now - max(start, since)))
                spent = max(spent, forgive)
                paused[s, since] = paused.get((s, since), 0.0) + forgive
                absent[s] = max(0.0, absent.get(s, 0.0) - forgive)
                total[s] = max(0.0, total.get(s, 0.0) - forgive)
            alone_used += spent
        elif unheard[0] > 0.0:
            length, kept, mattered = unheard
            unheard = [0.0, 0.0, False]
            counted = "that time is not counted against anyone" if kept >= length - 0.5 else (
                f"only {clock_text(kept)} of it is not counted against anyone (at most "
                f"{clock_text(allowance)} over the match, {ABSENCE_IN_ALL} times the table's wait)")
            if mattered:  # a seat was away meanwhile (else there is nothing to tell)
                say(f"** no other player heard this program for {clock_text(length)} (its "
                    f"messages reached nobody: most likely its own network was cut): {counted}")
        last = now
        away = {s: max(gone(s, now, now), absent.get(s, 0.0) if progress is not None else 0.0)
                for s in mesh.away}
        _COUNTED[mesh] = away
        _MATCH_LEFT[mesh] = {s: max(0.0, allowance - total.get(s, 0.0)) for s in mesh.away}
        cut = mesh.unreached() - mesh.away  # a failed resume, a one-way link: we wait, and say so
        unreached = {s: unreached.get(s, now) for s in cut}
        reminded = {k: v for k, v in reminded.items()
                    if not (isinstance(k, tuple) and k[1] not in unreached)}
        for s, since in sorted(unreached.items()):
            # not in the first seconds, as for a seat away: a link that fails for a moment (the
            # other end reconnecting, or this program just woken from a pause) is no news. Said
            # at once, it told a player whose own program had stood still 20 s that the others
            # were the ones to rerun their join command, "(0 s)" (ux23)
            if now - since >= min(5.0, wait / 2) and \
                    now - reminded.get(("unreached", s), -1e9) >= REMIND_EVERY:
                reminded[("unreached", s)] = now
                how = "" if bot else f"; {_comeback(s)}"
                say(f"** waiting for {mesh.name_of(s)} ({mesh.seat_text(s)}): our messages do not "
                    f"reach their program ({clock_text(now - since)}){how}")
        if not away:
            reminded = {k: v for k, v in reminded.items() if isinstance(k, tuple)}
            continue
        # every other seat away at once: most likely this program is the one cut off, so it
        # names nobody and keeps trying -- unless each of them said goodbye (a signed leave):
        # then nobody is cut off, and the table's wait runs for them as for anyone who left
        if (mesh.stopped is None and mesh.seats > 2 and set(away) >= set(others)
                and not set(others) <= mesh.left):
            held = {s: (t, total.get(s, 0.0)) for s, t in away.items()}
            # ... but not for ever: once every one of them is past the match's allowance, and
            # a whole wait of the stretch was counted (time to come back, and be named on it),
            # the match ends, naming nobody (red team 23: two of three going silent together
            # for good held a person's table until Ctrl-C, and were never named either)
            if stretch[0] - stretch[1] >= wait and all(
                    total.get(s, 0.0) >= allowance for s in others):
                mesh.stop(None, _nobody_heard(stretch[0], allowance, wait))
                return
            if now - reminded.get("cut", -1e9) >= REMIND_EVERY:
                reminded["cut"] = now
                say(f"** you are cut off from {', '.join(mesh.name_of(s) for s in others)} "
                    f"({clock_text(stretch[0])}); retrying")
            continue
        # the longest away first: past the wait, the one that went first is named (red team 21:
        # carol went silent, bob quit after her, and her goodbye, past the wait, had bob named,
        # the lower seat, both being past it at once)
        for s, t in sorted(away.items(), key=lambda kv: (-kv[1], kv[0])):
            if mesh.stopped is not None and s != mesh.stopped.claimed:
                continue  # stopped: only another's claim is still checked (the others may go)
            used = total.get(s, 0.0)
            via = _carried(mesh, s)
            if via is not None and (t >= wait or used >= allowance):
                # heard only through others: its absence here may be a carrier's withholding,
                # which this program cannot tell from it. The seats that hear it directly count
                # it themselves, from no later than here: they are given a moment more to name
                # it (their stop comes here as their claim); then this program names nobody
                if t >= wait + _grace(mesh) or used >= allowance + _grace(mesh):
                    mesh.stop(None, _carried_away(mesh, s, via, t, used, wait, allowance))
                    return
                continue
            if t >= wait:
                verb = "left the table" if s in mesh.left else "was away"
                if spells.get(s, 1) > 1:  # in spells, coming and going
                    mesh.stop(s, f"{mesh.name_of(s)} kept leaving and coming back: away "
                              f"{clock_text(t)} in all since the game last moved (at most {clock_text(wait)})")
                else:
                    mesh.stop(s, f"{mesh.name_of(s)} {verb} and did not come back within {clock_text(wait)}")
                return
            if used >= allowance:  # every spell under the wait, but again and again
                mesh.stop(s, f"{mesh.name_of(s)} was away too often: {clock_text(used)} in all over "
                          f"the match (at most {clock_text(allowance)}, {ABSENCE_IN_ALL} times the "
                          f"table's wait of {clock_text(wait)})")
                return
            if t >= min(5.0, wait / 2) and now - reminded.get(s, -1e9) >= REMIND_EVERY:
                reminded[s] = now
                how = "" if bot else f"; {_comeback(s, left=s in mesh.left)}"
                whom = "them" if via is None else (
                    f"nobody here (this program hears them only through "
                    f"{', '.join(mesh.name_of(x) for x in via) or 'the others'})")
                say(f"** waiting for {mesh.name_of(s)} ({mesh.seat_text(s)}): away {clock_text(t)} of "
                    f"at most {clock_text(wait)}; {clock_text(used)} of at most {clock_text(allowance)} "
                    f"in all this match; past either, the match ends naming {whom}{how}")


def _carried(mesh: Mesh, seat: int) -> list[int] | None:
    """The seats that carried ``seat`` to this program, if the last it heard of ``seat`` came
    only through them (``Mesh.carried``); ``None`` if a frame of its own was (or for a stand-in
    mesh that cannot tell)."""
    carried = getattr(mesh, "carried", None)
    return None if carried is None else carried(seat)


def _grace(mesh: Mesh) -> float:
    """How much longer than the wait a seat heard only through others is waited for before this
    program ends the match naming nobody: the time after which a seat is marked away, within
    which the seats that hear it directly have counted the same wait (their count began no later
    than ours, give or take a forwarded word's way, at most ``heads_every``) and named it."""
    timings = getattr(mesh, "timings", None)
    return float(getattr(timings, "away_after", 0.0))


def _carried_away(mesh: Mesh, seat: int, via: list[int], t: float, used: float, wait: float,
                  allowance: float) -> str:
    """The stop naming nobody for a seat past its wait or allowance that this program heard only
    through others (``_watch_absence``): what it knows, and why it names nobody."""
    name = mesh.name_of(seat)
    if t >= wait:
        how = f"was away {clock_text(t)} as far as this program can tell (at most {clock_text(wait)})"
    else:
        how = (f"was away {clock_text(used)} in all over the match as far as this program can tell "
               f"(at most {clock_text(allowance)}, {ABSENCE_IN_ALL} times the table's wait)")
    names = [mesh.name_of(x) for x in via]
    carriers = (" and ".join(names) if len(names) <= 2 else
                ", ".join(names[:-1]) + f" and {names[-1]}") if names else "the other players"
    return (f"{name} {how}; it hears {name} only through {carriers}, so it cannot tell {name} "
            f"leaving from {carriers} not passing {name}'s messages on; the match ends naming "
            "nobody")


def _nobody_heard(length: float, allowance: float, wait: float) -> str:
    """The stop when this program has heard nobody for so long, past what it forgives, that
    every other seat is past its allowance for the match (``_watch_absence``)."""
    return (f"this program has heard nobody for {clock_text(length)}: every other player has "
            f"been away at once, each past the most the table waits for a player over the match "
            f"({clock_text(allowance)}, {ABSENCE_IN_ALL} times the table's wait of "
            f"{clock_text(wait)}), beyond the {clock_text(allowance)} of such time not counted "
            "against anyone. This program cannot tell its own cut network from all of them "
            "going silent together, so the match ends naming nobody")


def _alone_too_long(name: str, t: float, used: float, wait: float, allowance: float) -> str:
    """The stop for a seat found past its wait or allowance when this program, having heard
    nobody for longer than it forgives (``_watch_absence``), hears someone again."""
    why = (f"away {clock_text(t)} (at most {clock_text(wait)})" if t >= wait else
           f"away too often: {clock_text(used)} in all over the match (at most {clock_text(allowance)})")
    return (f"{name} was {why}, the end of it while every other player was away too: such time "
            f"is not counted against anyone for up to {clock_text(allowance)} over the match, "
            "and that was used up")


def _comeback(seat: int, command: str = "their join command", *, left: bool = True) -> str:
    """How a seat that is away comes back: a joiner reruns its join command; the host (seat 0)
    has none (running ``host`` again opens a new table), it runs ``join --resume``. A seat away
    without a goodbye (``left`` False) may only have lost its network, and its program comes
    back by itself: "they rerun ..." read, to the others, as if it never would, and to nobody
    as a reason not to start a second program for the seat (ux23)."""
    how = "they run 'p2pcards join --resume'" if seat == 0 else f"they rerun {command}"
    return how if left else f"their program reconnects by itself, or, if it closed, {how}"


async def _announce(mesh: Mesh, q: asyncio.Queue, say: Callable[[str], Any], bot: bool) -> None:
    while True:
        ev = await q.get()
        if ev.kind == "away":
            others = {s for s in range(mesh.seats) if s != mesh.seat}
            if mesh.seats > 2 and others <= set(mesh.away) and not others <= mesh.left:
                # every other player away at once: most likely this program is the one cut off
                say(f"** {ev.name} ({mesh.seat_text(ev.seat)}) is away too: every other player "
                    "is away at once, so most likely it is this program that is cut off (its "
                    "network); it keeps trying to reach them.")
                continue
            how = "" if bot else \
                f" ({_comeback(ev.seat, 'the same join command', left=ev.seat in mesh.left)})"
            say(f"** {ev.name} ({mesh.seat_text(ev.seat)}) is away; the table waits for them to "
                f"come back{how}.")
        elif ev.kind == "left":
            say(f"** {ev.name} ({mesh.seat_text(ev.seat)}) left the table.")
        elif ev.kind == "back":
            say(f"** {ev.name} ({mesh.seat_text(ev.seat)}) is back.")
        elif ev.kind == "stop":
            say(f"** the table stopped: {ev.detail}")
        elif ev.kind in ("equivocation", "fault"):
            say(f"** {ev}")
