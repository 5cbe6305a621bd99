"""Red team 22 (red team 21's finding 2): time this program spent cut off counted against the
others. While every other seat is away at once (no goodbyes), the absence watcher names nobody
("you are cut off ...; retrying") and adds nothing to the since-last-move count or the match's
allowance, but a seat's current spell (``mesh.away_since``) still held that stretch. So when
alice's own link went down for a while, under the table's wait, and came back with carol a
moment before bob, alice named bob at once for staying away the whole wait -- though bob was
away from everyone else for a second or two, and the others, rightly, had been counting *alice*
away all along (and had not named her: her spell was under the wait).

Whole tables at the tests' timings (a seat is marked away 1.5 s after its last frame); a cut
is made by dropping frames in ``_send_frames``, both ways."""

from __future__ import annotations

import asyncio
import time

import pytest

from p2pcards.lobby import _watch_absence
from protocol.mesh import Mesh
from tests.mesh.helpers import (
    AwayInSpells,
    close_all,
    make_table,
    run_async,
    short_claim_window,
    until,
)

from .test_stall_budgets import watch as watch_fake  # the watcher on a stand-in mesh

pytestmark = pytest.mark.network
ALICE, BOB, CAROL = range(3)


def cut(mesh: Mesh, seats: set[int]) -> None:
    """Drop what ``mesh`` sends to ``seats`` (an empty set: nothing dropped)."""
    send = getattr(mesh, "_uncut", None) or mesh._send_frames
    mesh._uncut = send  # type: ignore[attr-defined]
    mesh._send_frames = lambda seat, frames: None if seat in seats else send(seat, frames)


def watch(meshes: list[Mesh], wait: float) -> tuple[list[asyncio.Task], list[list[str]]]:
    said: list[list[str]] = [[] for _ in meshes]
    tasks = [asyncio.create_task(_watch_absence(m, wait, said[i].append, bot=True))
             for i, m in enumerate(meshes)]
    return tasks, said


@run_async(timeout=60)
async def test_a_stretch_this_program_heard_nobody_is_not_the_late_comers_absence(
        tmp_path, monkeypatch):
    """Alice's link is cut both ways for 4.5 s (each side marks the other away 1.5 s in: about
    3 s of spell, under the 4 s wait: nobody names alice). It comes back to carol first; bob's
    own program is silent 2 s longer (to everyone: carol marks him away for a moment too). At
    alice bob's spell was the whole stretch and those 2 s, about 5 s: alice named him "away and
    did not come back within 0:04" and the table stopped, with bob and carol holding her claim.
    Now the stretch in which alice heard nobody is nobody's absence: bob was away 2 s, nobody is
    named at any seat, and alice is told once that the time she heard nobody is not counted."""
    short_claim_window(monkeypatch)
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    tasks, said = watch(meshes, 4.0)
    try:
        cut(alice, {1, 2})
        cut(bob, {0})
        cut(carol, {0})
        await until(lambda: {1, 2} <= alice.away and 0 in bob.away and 0 in carol.away,
                    timeout=10, what="alice cut off")
        await asyncio.sleep(4.5 - 1.5)
        cut(bob, {0, 2})  # bob's program goes quiet to everyone for a moment ...
        cut(alice, {1})
        cut(carol, set())  # ... as alice's link to carol comes back
        await until(lambda: 2 not in alice.away, timeout=5, what="carol back at alice")
        await asyncio.sleep(2.0)
        cut(bob, set())
        cut(alice, set())
        await until(lambda: not (alice.away or bob.away or carol.away), timeout=5,
                    what="everyone back")
        await asyncio.sleep(1.0)
        assert [m.stopped for m in meshes] == [None, None, None], [m.stopped for m in meshes]
        assert not any(t.done() for t in tasks)
        told = [s for s in said[0] if "heard nobody" in s]
        assert len(told) == 1 and "not counted against anyone" in told[0], said[0]
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await close_all(meshes)


class Together(AwayInSpells):
    """Seats 1 and 2 (bob and carol, colluding) away together in the given spells: to alice,
    alone with them at a 3-seat table, exactly her own cut link."""

    stopped_at = 0.0

    def stop(self, culprit: int | None, reason: str) -> None:
        super().stop(culprit, reason)
        self.stopped_at = time.monotonic()

    def tick(self) -> None:
        t = time.monotonic() - self.t0
        gone = any(a <= t < b for a, b in self.spells)
        if gone and not self.away:
            now = time.monotonic()
            self.away, self.away_since = {1, 2}, {1: now, 2: now}
        elif not gone and self.away:
            self.away, self.away_since = set(), {}


@run_async(timeout=40)
async def test_two_seats_that_go_away_together_as_if_this_program_were_cut_off_are_named():
    """The other side of the rule: alice cannot tell her own cut from two colluders at a 3-seat
    table going silent at the same moment. Forgiving every such stretch would let them hold
    the table for ever, coming back in between; on main they already could, coming back at the
    same moment (nothing was counted while every other seat was away, and a seat back is not
    named). Now such stretches are forgiven up to the match's allowance (3 waits) -- about what
    the others would wait for alice's own absences before naming her -- and past that count as
    any absence. Scaled to a 1 s wait (3 s of allowance), side by side:

    Once, for 5.5 s, back at the same moment: nobody was named on main. Now, as they are heard
    again, the one away longest is named, in words that say the forgiven time was used up.

    Again and again, 0.8 s together and 0.3 s back, the game moving each time: on main nobody
    was named in 15 s (as long as they like). Now they are named once the forgiven 3 s and the
    seat's own 3 s are used: about 6 s of time away, 9.8 s of the table's time (measured)."""
    clock = time.monotonic()
    once = Together([(0.2, 5.7)])  # (back before 6.2 s: then the match ends naming nobody)
    again = Together([(1.1 * i, 1.1 * i + 0.8) for i in range(14)])
    await asyncio.gather(watch_fake(once, 1.0, 8.0, progress=lambda: 0),
                         watch_fake(again, 1.0, 15.0,
                                    progress=lambda: int((time.monotonic() - clock) / 1.1)))
    assert once.stopped is not None and once.stopped.culprit == 1, once.stopped  # a tie: the lower seat
    assert "used up" in once.stopped.reason, once.stopped
    assert again.stopped is not None and again.stopped.culprit in (1, 2), again.stopped
    assert again.stopped_at - again.t0 < 12.0, again.stopped_at - again.t0


@run_async(timeout=20)
async def test_at_two_seats_the_other_away_is_counted_as_usual():
    """At a table of two, "every other seat away" is the one other seat: forgiving that would
    let a player stall for ever. Nothing changes there: bob away past the wait is named (and
    his program, counting alice away alike, names her: both clocks run)."""

    class Two(AwayInSpells):
        seats = 2

    fake = Two([(0.2, 5.0)])
    said = await watch_fake(fake, 1.0, 4.0, progress=lambda: 0)
    assert fake.stopped is not None and fake.stopped.culprit == 1, (fake.stopped, said)
    assert not any("heard nobody" in s for s in said), said


@run_async(timeout=30)
async def test_two_seats_that_go_away_together_and_never_come_back_do_not_hold_the_table_for_ever():
    """Red team 23. The rule above names the colluders only when one of them is heard again:
    while every other seat is away at once this program names nobody ("you are cut off ...;
    retrying"). So bob and carol, two of three, simply going silent together for good (no
    goodbye: a goodbye has the wait run for them) held alice's table for ever, past the three
    forgiven waits too -- a person's program waited until Ctrl-C, naming nobody, and the two
    were never named either (on main: no stop in 12 s at a 1 s wait, nor ever). Now, once
    every other seat is past its allowance for the match in such a stretch (3 waits counted,
    after the 3 forgiven), the match ends naming nobody: this program still cannot tell its
    own cut from theirs, but nobody may hold a table for ever (about 6 waits, measured)."""
    gone = Together([(0.2, 1000.0)])
    said = await watch_fake(gone, 1.0, 12.0, progress=lambda: 0)
    assert gone.stopped is not None, said  # on main: None, still "cut off ...; retrying"
    assert gone.stopped.culprit is None, gone.stopped
    assert "naming nobody" in gone.stopped.reason, gone.stopped
    assert gone.stopped_at - gone.t0 < 7.5, gone.stopped_at - gone.t0


@run_async(timeout=30)
async def test_a_program_whose_messages_reach_nobody_finds_it_from_the_echo(tmp_path):
    """Mesh version 7: every heads echoes the newest counter its author saw of each seat. When
    none of bob's own words reaches anyone (his sends cut, he still hears both), no seat echoes
    him any more: ``unheard_since`` says since when (about the last word of his that got
    through), a moment in, and nothing once his words flow again. alice, who hears him, and
    carol never think themselves unheard."""
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        await asyncio.sleep(1.0)
        assert [m.unheard_since() for m in meshes] == [None, None, None]
        cut_at = time.monotonic()
        cut(bob, {0, 2})
        await until(lambda: bob.unheard_since() is not None, timeout=3, what="bob unheard")
        found = time.monotonic() - cut_at
        assert found < 1.2, found  # 2 ping_after + 2 heads_every + 2 ticks at these timings
        assert cut_at - 0.5 < bob.unheard_since() <= cut_at + 0.05
        assert alice.unheard_since() is None and carol.unheard_since() is None
        await asyncio.sleep(1.0)
        cut(bob, set())
        await until(lambda: bob.unheard_since() is None, timeout=3, what="bob heard again")
    finally:
        await close_all(meshes)


class Scripted:
    """A stand-in mesh at seat 0 of 3 for the absence watcher: each other seat away in the given
    spells, and the stretches in which no seat echoes this program (``unheard_since``: its start
    from ``since``), all in seconds from the start."""
    seats, seat, stopped = 3, 0, None

    def __init__(self, spells: dict[int, list[tuple[float, float]]],
                 unheard: list[tuple[float, float, float]]) -> None:
        self.spells, self.unheard, self.t0 = spells, unheard, time.monotonic()
        self.away: set[int] = set()
        self.away_since: dict[int, float] = {}
        self.left: set[int] = set()

    def name_of(self, s: int) -> str:
        return ["alice", "bob", "carol"][s]

    def seat_text(self, s: int) -> str:
        return f"seat {s + 1}"

    def unreached(self) -> set[int]:
        return set()

    def unheard_since(self) -> float | None:
        t = time.monotonic() - self.t0
        return next((self.t0 + since for a, b, since in self.unheard if a <= t < b), None)

    def stop(self, culprit: int | None, reason: str) -> None:
        from protocol.channel import TableStop
        self.stopped = TableStop(culprit, reason)

    def tick(self) -> None:
        t = time.monotonic() - self.t0
        for s, spells in self.spells.items():
            spell = next(((a, b) for a, b in spells if a <= t < b), None)
            if spell is None:
                self.away.discard(s)
                self.away_since.pop(s, None)
            elif s not in self.away:
                self.away.add(s)
                self.away_since[s] = self.t0 + spell[0]


@run_async(timeout=30)
async def test_a_cut_that_heals_inbound_first_is_forgiven_once_not_twice():
    """Red team 25. Alice's own link is cut both ways for 1.9 s (wait 1.5 s: her allowance for
    such stretches 4.5 s over the match): she hears nobody. It heals inbound first: she hears bob
    again at once, carol 0.3 s later, and for those 0.3 s nobody has echoed her words yet
    (``unheard_since``: since the cut began, the last of her words anyone echoed). Later her link
    is cut again for 1.5 s; bob is heard at its end, carol 1 s after. Forgiven in all: 1.9 + 0.3 +
    1.5 = 3.7 s, within the 4.5 s, and carol, counted 1 s after the second cut, is under the wait:
    nobody is named. On main the stretch nobody heard alice went back to its start, the cut she
    had already been forgiven, and spent the allowance on it again (3.7 s used by the first cut):
    the second cut was counted against carol, who was named, an honest player blamed for alice's
    own network (the game moving each second)."""
    from tests.table.test_stall_budgets import watch

    fake = Scripted({1: [(0.3, 2.2), (3.0, 4.5)], 2: [(0.3, 2.5), (3.0, 5.5)]},
                    unheard=[(2.2, 2.5, 0.3)])
    said = await watch(fake, 1.5, 6.5, progress=lambda: int(time.monotonic() - fake.t0))
    assert fake.stopped is None, (fake.stopped, said)
    assert any("heard nobody for 2 s" in s for s in said), said
    assert any("no other player heard this program" in s for s in said), said


class SleepsOnce(Scripted):
    """... and this program stands still (its loop: a stop, a laptop asleep) ``pause`` seconds
    once, at ``at``."""

    def __init__(self, *args, at: float, pause: float, **kw) -> None:
        super().__init__(*args, **kw)
        self.at, self.pause = at, pause

    def tick(self) -> None:
        if self.pause and time.monotonic() - self.t0 >= self.at:
            time.sleep(self.pause)
            self.pause = 0.0
        super().tick()


@run_async(timeout=30)
async def test_a_pause_of_this_program_does_not_spend_the_allowance_for_its_own_cuts():
    """Red team 25. Bob drops out a moment before alice's program stands still 2.5 s (wait 1 s:
    her allowance for stretches she heard nobody, or nobody heard her, 3 s). On waking nobody
    has echoed her words since before the pause for a moment (``unheard_since``); bob is back
    0.3 s later. The pause is forgiven as a pause, out of no allowance. Then her link is cut for
    1.2 s; carol is heard at its end, bob 0.4 s after: 1.2 s forgiven out of the 3 s, bob counted
    0.4 s, nobody named. On main the stretch nobody heard her went back to before the pause,
    spent the allowance on the pause (2.5 s of 3), and bob was named for her cut."""
    from tests.table.test_stall_budgets import watch

    fake = SleepsOnce({1: [(0.3, 3.3), (3.6, 5.2)], 2: [(3.6, 4.8)]},
                      unheard=[(3.0, 3.3, 0.45)], at=0.5, pause=2.5)
    said = await watch(fake, 1.0, 6.0, progress=lambda: int(time.monotonic() - fake.t0))
    assert fake.stopped is None, (fake.stopped, said)
    assert any("this program was paused for" in s for s in said), said
    assert any("heard nobody for 1 s" in s for s in said), said


@pytest.mark.parametrize("guess", ["random-tags", "older-tag", "older-tag-newest-counter"])
@run_async(timeout=30)
async def test_a_liar_echoing_a_guessed_counter_hides_from_a_program_that_nobody_hears_it(
        tmp_path, guess):
    """Red team 25, written as carol, the liar. Bob's sends are cut (he hears both, nobody
    hears him): alice stops echoing him, and he should find a moment in that nobody hears him
    (``unheard_since``), so that he does not count against alice, heard only through carol, a
    stretch alice cannot show she is there. Carol instead echoes a counter of bob's she never
    saw: counters count up, at a pace anyone at the table sees before the cut, and here she is
    handed the counter that lands (one he signed a moment ago, which reached nobody). In mesh
    version 7 the echo was that counter alone: it was taken as proof that carol heard him
    recently, he never found himself unheard (strict xfail on main), and his program counted
    alice away through his own cut. Since mesh version 8 an echo carries the echoed message's
    tag (from its signature, which nobody can tell before bob signs it), and carol has none of
    those messages: a fresh random tag in every heads, the tag of the last message of his she
    did get under the newer counter, or under each newer counter bob signs, all count as
    nothing. Bob finds himself unheard as soon as when nobody lies (the test above), and
    names nobody for carol's lie: he cannot tell it from a word of his last run's."""
    import secrets

    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        real_echo = carol._echo

        def lying_echo() -> list:
            out = real_echo()
            if cut_at is None:
                return out
            ctr = bob._ctr if guess == "older-tag-newest-counter" else bob._ctr - 2
            if isinstance(out[CAROL], int):  # a version 7 program (main): the counter is all
                out[BOB] = ctr
                return out
            older = carol._ctl_tag[BOB]  # the tag of the last message of bob's she got
            tag = secrets.token_hex(8) if guess == "random-tags" else older
            out[BOB] = [ctr, tag]  # the counter that lands, handed to her
            return out

        cut_at = None
        carol._echo = lying_echo
        await asyncio.sleep(1.0)
        assert bob.unheard_since() is None
        cut_at = time.monotonic()
        cut(bob, {0, 2})
        await until(lambda: bob.unheard_since() is not None, timeout=3, what="bob unheard")
        found = time.monotonic() - cut_at
        assert found < 1.2, found  # as when nobody lies (the test above)
        assert cut_at - 0.5 < bob.unheard_since() <= cut_at + 0.05
        await asyncio.sleep(1.0)  # carol's lies go on: bob stays unheard, and names nobody
        assert bob.unheard_since() is not None
        assert [m.stopped for m in meshes] == [None, None, None]
        assert not [e for m in meshes for e in m.events if e.kind in ("fault", "stop")]
        cut(bob, set())  # his words reach alice again: she echoes them, he is heard
        await until(lambda: bob.unheard_since() is None, timeout=3, what="bob heard again")
    finally:
        await close_all(meshes)


@run_async(timeout=30)
async def test_a_stretch_nobody_heard_this_program_spends_only_what_it_forgives():
    """Red team 25. A stretch in which nobody echoed alice is found a moment in, and forgiven
    from its start; but it was charged to her allowance (3 s at a 1 s wait) from its start
    whoever was away, though carol went away only 0.2 s before it was found: twice 1.5 s
    charged for 0.5 s forgiven. Then alice's own cut of 1.2 s, carol back 0.4 s after it: 2.2 s
    forgiven in all, within the 3 s, nobody named. On main the allowance was spent by then, and
    carol, away from alice only through alice's own network, was named."""
    fake = Scripted({1: [(3.6, 4.8)], 2: [(1.0, 1.5), (2.3, 2.8), (3.6, 5.2)]},
                    unheard=[(1.2, 1.5, 0.0), (2.5, 2.8, 1.3)])
    said = await watch_fake(fake, 1.0, 6.0, progress=lambda: int(time.monotonic() - fake.t0))
    assert fake.stopped is None, (fake.stopped, said)
    assert sum("no other player heard this program" in s for s in said) == 2, said
