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
import threading
import time

from p2pcards.bots.pacing import QUICK, SEARCH, Paced, answer_floor, seat_bot
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

    def guessed_right(times: dict[bool, list[float]]) -> int:
        """The attacker's rule, set on the bare bot: slower than 20 ms means a Cancel Action."""
        return sum((t > 0.02) == holds for holds, ts in times.items() for t in ts)

    # the attack on the bare bot (what a seat played with before): the rule reads the hand
    bare = {k: answer_times(v, lambda s: make_bot(GAME, s, "normal", 1)) for k, v in qs.items()}
    assert guessed_right(bare) >= 11, bare  # of 12 (a garbage collection may slow one)
    # the seat's agent: every answer at the floor, whatever the hand
    floor = SEARCH[GAME, "normal"]
    seat = {k: answer_times(v, lambda s: seat_bot(GAME, s, "normal", 1)) for k, v in qs.items()}
    assert all(t >= floor - 0.002 for ts in seat.values() for t in ts), seat  # clock grain
    # the attacker's edge: the rule is right exactly when the hand holds one (6 of 12, chance),
    # and no other rule does better: the two kinds' medians are a few milliseconds apart (the
    # sleeps' jitter), where the bare bot's were 60 ms apart
    assert guessed_right(seat) == 6, seat
    gap = abs(statistics.median(seat[True]) - statistics.median(seat[False]))
    assert gap < 0.01, (gap, seat)


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


def test_while_a_bot_seat_searches_its_program_goes_on_answering():
    """The floor hid the search from the answer's time, but the search ran on the event loop,
    and every other reply of the bot's program waited for it: a peer asking for its ``heads``
    while the question was open read the search's length from the reply (a 1 ms probe on the
    loop: held about as long as the search, 31-77 ms for a strong bot holding a Cancel Action,
    2-8 ms holding none). The bot now thinks in a thread of its own (the probe: held 2-8 ms,
    median 3.4, with a search running). Shown here without a clock: a bot that thinks until
    the program has answered something else meanwhile gets its answer out; on the loop it
    waited in vain, for nothing else could run."""
    answered = threading.Event()
    qs = cancel_questions(1)[True]
    view, legal = qs[0]
    seen: list[bool] = []

    class Thinker:
        needs_view = True

        def decide(self, v, lg):
            seen.append(answered.wait(2.0))  # the program answers the table meanwhile
            return lg[0]

    async def table():
        async def reply():  # another message of the table's, answered while the bot thinks
            await asyncio.sleep(0.01)
            answered.set()

        other = asyncio.create_task(reply())
        action = await Paced(Thinker(), "strong").decide(view, legal)
        await other
        return action

    assert asyncio.run(table()) == legal[0]
    assert seen == [True]


def test_every_searching_bot_has_a_search_floor():
    """A game or level added without a floor would answer its searches at the quick floor, and
    their time would tell again: every normal and strong bot of the registry has one."""
    from p2pcards.bots.registry import BOTS

    missing = [(g, lv) for g, levels in BOTS.items() for lv in ("normal", "strong")
               if lv in levels and (g, lv) not in SEARCH]
    assert not missing
