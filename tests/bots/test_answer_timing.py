"""Red team 24: what a bot seat's answer *time* tells the table. Written as the attacker: every
other program at a networked table sees when each move arrives, so it times the bot's answers
and sorts them by the hidden fact it wants.

The question: in The Girl and the Robot, an Action card is played and each other player is asked
whether to cancel it -- "a player may cancel an Action by playing a Cancel Action card" -- and
every player is asked, so that nobody learns from the question who holds one. The bot answered
with one legal option (let it resolve) at once, and with two after weighing them: a ``normal``
bot searches, 58-91 ms against 0.2 ms on this machine (red team 24's measure: eight answers of
each kind, the slowest answer without a Cancel Action under a tenth of the quickest with one),
so one answer, read over a LAN, said whether the bot held a Cancel Action. The bot a seat plays
with at a table (``seat_bot``: ``p2pcards bot``, the host's ``--bots``) answers each question no
sooner than a floor that depends on its level and the question's phase only."""

from __future__ import annotations

import asyncio
import statistics
import time

from p2pcards.bots.pacing import QUICK, SEARCH, answer_floor, seat_bot
from p2pcards.bots.registry import make_bot
from p2pcards.engine import LocalDealer, play
from p2pcards.games import new_game

GAME = "girl-and-robot"


def cancel_questions(n: int) -> dict[bool, list]:
    """``n`` 'cancel this Action?' questions put to a seat holding a Cancel Action (True: two
    legal options) and ``n`` to one holding none (False), from seeded games of easy bots."""
    got: dict[bool, list] = {True: [], False: []}

    class Recorder:
        needs_view = True

        def __init__(self, bot):
            self.bot = bot

        def arrange(self, view, slots):
            return self.bot.arrange(view, slots)

        def decide(self, view, legal):
            holds = len(legal) > 1
            if view.phase == "respond" and len(got[holds]) < n:
                got[holds].append((view.clone(), list(legal)))
            return self.bot.decide(view, legal)

    seed = 0
    while min(map(len, got.values())) < n:
        agents = [Recorder(make_bot(GAME, p, "easy", p)) for p in range(3)]
        play(new_game(GAME, 3), agents, LocalDealer(seed))
        seed += 1
    return got


def answer_times(questions, agent_of) -> list[float]:
    """Seconds from each question to its answer, as the others would time them."""
    out = []
    for view, legal in questions:
        agent = agent_of(view.viewer)
        t0 = time.perf_counter()
        action = agent.decide(view, legal)
        if asyncio.iscoroutine(action):
            action = asyncio.run(action)
        out.append(time.perf_counter() - t0)
        assert action in legal
    return out


def test_a_bot_seats_answer_time_does_not_tell_whether_it_holds_a_cancel_action():
    qs = cancel_questions(6)
    # the attack on the bare bot (what a seat played with before): a threshold splits them all
    bare = {k: answer_times(v, lambda s: make_bot(GAME, s, "normal", 1)) for k, v in qs.items()}
    assert max(bare[False]) * 10 < min(bare[True]), bare
    # the seat's agent: every answer at the floor, whatever the hand
    floor = SEARCH["normal"]
    seat = {k: answer_times(v, lambda s: seat_bot(GAME, s, "normal", 1)) for k, v in qs.items()}
    assert all(t >= floor for ts in seat.values() for t in ts), seat
    # the attacker's edge: the medians of the two kinds a few milliseconds apart (sleeps'
    # jitter), where the bare bot's were 60 ms apart; and no answer past the floor by as much
    # as the quickest search took
    gap = abs(statistics.median(seat[True]) - statistics.median(seat[False]))
    assert gap < 0.01, (gap, seat)
    assert max(t for ts in seat.values() for t in ts) < floor + min(bare[True]), seat


def test_the_heuristic_bot_is_paced_too_and_the_floor_reads_nothing_hidden():
    """The easy bot's sole answers took 0.01 ms and its weighed ones about 0.2 ms: too little to
    read over a LAN one at a time, but padded all the same. The floor is read from the level,
    the bot's class and the question's phase; two questions of one phase, one with a Cancel
    Action in hand and one without, get the same floor at every level."""
    qs = cancel_questions(2)
    seat = {k: answer_times(v, lambda s: seat_bot(GAME, s, "easy", 1)) for k, v in qs.items()}
    assert all(t >= QUICK for ts in seat.values() for t in ts), seat
    for level in ("random", "easy", "normal", "strong"):
        floors = {answer_floor(make_bot(GAME, v.viewer, level, 1), level, v)
                  for k in qs for v, _ in qs[k]}
        assert len(floors) == 1, (level, floors)


async def _loop_held(agent, view, legal) -> float:
    """The longest the event loop was held (seconds past a 1 ms sleep) while ``agent`` answered:
    how much later than usual this program answered anything else meanwhile (a peer's ask for
    its ``heads``, say)."""
    held: list[float] = []
    answering = True

    async def probe():
        while answering:
            t = time.perf_counter()
            await asyncio.sleep(0.001)
            held.append(time.perf_counter() - t - 0.001)

    task = asyncio.create_task(probe())
    await asyncio.sleep(0.005)
    held.clear()
    await agent.decide(view, legal)
    answering = False
    await task
    return max(held)


def test_while_a_bot_seat_searches_its_program_goes_on_answering():
    """The floor hid the search from the answer's time, but the search ran on the event loop,
    and every other reply of the bot's program waited for it: a peer asking for its ``heads``
    while the question was open read the search's length from the reply (a strong bot's loop
    held about as long as its search, 31-77 ms a question holding a Cancel Action, against
    2-8 ms without one). The search now runs in a thread of its own: the loop is held a few
    milliseconds (2-8 ms, median 3.4, on this shared machine)."""
    qs = cancel_questions(5)[True]
    searches = answer_times(qs, lambda s: make_bot(GAME, s, "strong", 1))
    held = [asyncio.run(_loop_held(seat_bot(GAME, v.viewer, "strong", 1), v, legal))
            for v, legal in qs]
    assert statistics.median(held) < statistics.median(searches) / 3, (held, searches)
