"""Red team (round 5, suspicion 1): an observer's own pause charged to a seat that is away. The
absence watcher added each tick's time to every seat marked away, ``min(now - last, now -
away_since)``; the mesh forgives its own stalls for the seats it hears (``_last_heard`` moves on
by the stall), but not a seat already away. So if alice's program is stopped (Ctrl-Z, the laptop
sleeps) while bob is briefly away, the whole pause was bob's: alice named him on waking, while
the others, who ran all along, saw alice go quiet. Written as the attack on the watcher, with
the stall made as a stop makes it: the event loop stands still (``time.sleep``)."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.mesh.helpers import AwayInSpells, run_async


class Still(AwayInSpells):
    """Seat 1 (bob) is away only when the test says so."""

    def tick(self) -> None:
        pass


async def paused_while_away(wait: float, pause: float, back_after: float, times: int = 1,
                            steps: bool = False) -> tuple[Still, list[str]]:
    from p2pcards.lobby import _watch_absence

    fake = Still([])
    said: list[str] = []
    clock = time.monotonic()
    progress = (lambda: int(time.monotonic() - clock)) if steps else (lambda: 0)
    watcher = asyncio.create_task(_watch_absence(fake, wait, said.append, bot=False,
                                                 progress=progress))
    for _ in range(times):
        await asyncio.sleep(0.6)
        fake.away, fake.away_since = {1}, {1: time.monotonic()}  # bob drops out for a moment
        await asyncio.sleep(0.3)
        time.sleep(pause)  # alice's program is stopped: nothing of hers runs, the clock goes on
        await asyncio.sleep(back_after)  # bob's messages, queued meanwhile, are read a moment later
        fake.away, fake.away_since = set(), {}
    await asyncio.sleep(1.0)
    watcher.cancel()
    await asyncio.gather(watcher, return_exceptions=True)
    return fake, said


def test_a_pause_of_this_program_is_charged_to_nobody_and_forgives_nothing_else():
    """Three pauses of alice's program while bob is away, each watched in a thread of its own
    with its own event loop (a pause stands one loop still, as a stop does, and not the
    others'), side by side: the cases were one wait after another (5, 10 and 7.5 s).

    Not charged: bob is away 0.3 s, alice's program stands still 3 s (the wait is 2 s), bob's
    messages are read 0.4 s after it resumes: about 0.7 s of bob's absence, nobody named.
    Before, bob was named "away and did not come back within 0:02" as soon as alice's program
    ran again. The person at alice's terminal is told that the program was paused and that the
    pause counts against nobody.

    Nor against the match's allowance: four such pauses of 1.2 s, each under the 2 s wait, the
    game moving in between: each was charged to bob, about 6.8 s in all, past the match's
    allowance (3 waits, 6 s), and bob was named "away too often". Now he was away about 0.5 s
    each time.

    Forgiving the pause forgives nothing else: bob stays away after alice's program resumes,
    and is named once his own time away (not counting the pause) reaches the wait."""
    cases = {
        "not charged": dict(wait=2.0, pause=3.0, back_after=0.4),
        "allowance": dict(wait=2.0, pause=1.2, back_after=0.2, times=4, steps=True),
        "still away": dict(wait=2.0, pause=3.0, back_after=2.6),
    }
    with ThreadPoolExecutor(len(cases)) as pool:
        running = {k: pool.submit(asyncio.run, paused_while_away(**kw))  # type: ignore[arg-type]
                   for k, kw in cases.items()}
        (fake, said), (fake4, said4), (fake_away, said_away) = (
            running[k].result(timeout=60) for k in cases)
    assert fake.stopped is None, fake.stopped
    assert any("this program was paused" in s and "not counted against anyone" in s
               for s in said), said
    assert fake4.stopped is None, (fake4.stopped, said4)
    assert fake_away.stopped is not None and fake_away.stopped.culprit == 1, (fake_away.stopped,
                                                                              said_away)


class Timed(Still):
    """``Still``, with the time it was stopped at."""

    stopped_at: float | None = None

    def stop(self, culprit: int | None, reason: str) -> None:
        super().stop(culprit, reason)
        self.stopped_at = time.monotonic()


async def marked_at_the_stop(wait: float, pause: float, back_after: float | None,
                             after: bool = False, steps: bool = False
                             ) -> tuple[Timed, list[str], float]:
    """Bob is marked away in the same stretch of alice's loop as her program's stop: just
    before it (no look of the watcher between them), or with ``after`` just after it, before
    the watcher's first look. Returns the stand-in, what was said, and when alice woke."""
    from p2pcards.lobby import _watch_absence

    fake = Timed([])
    said: list[str] = []
    watcher = asyncio.create_task(_watch_absence(fake, wait, said.append, bot=False,
                                                 progress=(lambda: 0) if steps else None))
    await asyncio.sleep(0.6)

    def mark() -> None:
        fake.away, fake.away_since = {1}, {1: time.monotonic()}

    if not after:
        mark()  # the mesh marks bob away ...
    time.sleep(pause)  # ... and alice's program is stopped before the watcher looks again
    woke = time.monotonic()
    if after:
        mark()
    if back_after is None:
        await asyncio.sleep(wait + 2.0)
    else:
        await asyncio.sleep(back_after)  # bob's messages, queued meanwhile, are read
        fake.away, fake.away_since = set(), {}
        await asyncio.sleep(1.0)
    watcher.cancel()
    await asyncio.gather(watcher, return_exceptions=True)
    return fake, said, woke


def test_a_seat_marked_away_just_before_the_stop_is_not_charged_the_pause():
    """The real-process test below named carol in a few loaded runs with a 6 s wait (docs/
    network.md once called it unexplained, and suspected the mesh's gate): alice's mesh marked
    carol away 74-236 ms before alice's program was stopped, after the watcher's last look; the
    watcher forgave its own pause only to spells begun by that look, so the whole 6.5 s stop
    was carol's, and its first look on waking named her (away 6.6 s of 6), 4 ms before her
    queued messages were read. A spell begun before the stop gets the pause forgiven however
    close to the stop it began. Scaled: a wait of 2 s, a stop of 3 s, bob back 0.4 s after
    alice wakes: nobody named (with and without the game's progress counted).

    And a spell that begins just after the stop, before the watcher's first look, is not
    forgiven a pause it had no part in: bob marked away as alice wakes and staying away is
    named about the wait later, not the wait and the pause."""
    cases = {
        "before": dict(wait=2.0, pause=3.0, back_after=0.4),
        "before, steps": dict(wait=2.0, pause=3.0, back_after=0.4, steps=True),
        "after": dict(wait=2.0, pause=3.0, back_after=None, after=True),
    }
    with ThreadPoolExecutor(len(cases)) as pool:
        running = {k: pool.submit(asyncio.run, marked_at_the_stop(**kw))  # type: ignore[arg-type]
                   for k, kw in cases.items()}
        results = {k: running[k].result(timeout=60) for k in cases}
    for k in ("before", "before, steps"):
        fake, said, _ = results[k]
        assert fake.stopped is None, (k, fake.stopped, said)
        assert any("this program was paused" in s for s in said), (k, said)
    fake, said, woke = results["after"]
    assert fake.stopped is not None and fake.stopped.culprit == 1, said
    assert fake.stopped_at is not None and fake.stopped_at - woke < 2.0 + 1.5, \
        (fake.stopped_at - woke, said)


@run_async(30)
async def test_a_pause_during_a_deck_wait_is_not_the_awaited_seats_lateness():
    """The deck's clock had the same fault: alice's program stopped while waiting for bob's deck
    message charged the whole pause to bob as lateness (named once past the match's budget, 120
    s), and ran down the deck's own deadline on him (60 s: named "no message within"). Scaled:
    a budget of 1 s, a pause of 2 s, bob's message 0.2 s after alice resumes: not charged, and
    the channel's clock stood still through the pause."""
    from p2pcards.lobby import PatientChannel
    from protocol.channel import InMemoryHub
    from tests.mesh.test_stalling import _Present

    hub = InMemoryHub(2)
    me = PatientChannel(hub.channel(0), _Present(), late_after=0.3, late_budget=1.0)

    async def stopped_then_bob():
        await asyncio.sleep(0.2)
        time.sleep(2.0)  # alice's program is stopped
        await asyncio.sleep(0.2)
        await hub.channel(1).send(0, "deck", {})

    before = me.clock()
    other = asyncio.create_task(stopped_then_bob())
    assert (await me.recv_from("deck", [1], timeout=5.0))[0] == 1
    await other
    assert me.late.get(1, 0.0) < 0.5, me.late
    assert me.clock() - before < 1.5


@pytest.mark.slow  # (goes first: tests/conftest.py)
def test_a_stopped_program_names_nobody_on_waking(tmp_path):
    """The same with real processes and real signals. Alice, bob and carol each run in their own
    process with the absence watcher (wait 6 s). Carol is stopped 2.5 s (alice marks her away);
    2 s in, alice's process is stopped (SIGSTOP) for 6.5 s, and carol resumes meanwhile. On
    waking alice named carol -- "carol was away and did not come back within 6 s" -- and bob and
    carol were handed that claim. Now nobody is named, and alice is told she was paused.

    The wait leaves carol 3.5 s to be heard again after she resumes. With a wait of 4 s (1.5 s
    to spare) a loaded run of the suite (four workers) once had bob name her: a stopped process
    takes a while to be scheduled and heard again on a busy machine, which is the watcher's
    business, not this test's.

    Alice marks carol away 1.3-1.5 s after carol's stop, or 1.8-1.9 s after it when the last
    word of carol's she has is bob's vouch for her (relayed heads, 0.26-0.43 s after the stop):
    then often after the watcher's last look before alice's own stop, 2 s after carol's. With
    four busy loops beside, 8 loaded runs of 48 named carol on waking (with the mesh's gate or
    without it), each one where the mark came after that look (the whole stop was charged to
    her), though alice read carol's queued messages within 40 ms of waking in every run:
    ``test_a_seat_marked_away_just_before_the_stop_is_not_charged_the_pause``, fixed."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    peer = str(Path(__file__).with_name("pause_peer.py"))

    def start(*args: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, peer, *args], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)

    procs = [start("host", str(tmp_path / "a"))]
    try:
        _, address, code = procs[0].stdout.readline().split()
        procs += [start("join", str(tmp_path / n), n, address, code) for n in ("bob", "carol")]
        for p in procs:
            assert p.stdout.readline().startswith("FULL")
        alice, carol = procs[0], procs[2]
        time.sleep(1.0)
        os.kill(carol.pid, signal.SIGSTOP)
        time.sleep(2.0)
        os.kill(alice.pid, signal.SIGSTOP)
        time.sleep(0.5)
        os.kill(carol.pid, signal.SIGCONT)
        time.sleep(6.0)
        os.kill(alice.pid, signal.SIGCONT)
        outs = [p.communicate(timeout=60)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                os.kill(p.pid, signal.SIGCONT)
                p.kill()
                p.wait()
    assert all(out.rstrip().endswith("NOT STOPPED") for out in outs), outs
    assert "this program was paused" in outs[0], outs[0]


@run_async(timeout=30)
async def test_a_pause_during_a_turn_is_not_the_thinking_players_time():
    """Red team 14: the turn clock had the same fault. Alice's program waits on bob's move (the
    others name a silent program after the turn time and its grace: 330 s by default); her laptop
    sleeps longer than that while bob, present, thinks it over, and on waking her program named
    bob at once -- "bob's program did not play its turn within 330 s" -- and stopped the table
    with a claim against an honest player whose clock, at everyone else's, had not run out.
    Scaled: a limit of 2 s, a pause of 3 s, bob's move 0.3 s after alice's program runs again:
    it is bob's move, and nobody is named."""
    from p2pcards.table import Table
    from protocol.channel import InMemoryHub

    hub = InMemoryHub(2)
    table = Table("go-out-girl", 2, {}, 0, hub.channel(0), None, None, names=["alice", "bob"],
                  say=lambda line: None, peer_turn_time=2.0)

    async def paused_then_bob():
        await asyncio.sleep(0.2)
        time.sleep(3.0)  # alice's program is stopped; bob thinks
        await asyncio.sleep(0.3)
        await hub.channel(1).broadcast("game", {"step": table.step, "action": {}})

    bob = asyncio.create_task(paused_then_bob())
    sender, move = await table._recv_game(1)
    await bob
    assert sender == 1 and move["step"] == table.step
