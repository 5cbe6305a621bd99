"""The prompts a person types into: bad input gets a one-line reason and the prompt again with
nothing changed; a private arrangement the game leaves to the player is asked for."""

from __future__ import annotations

import asyncio
import io

import pytest

from p2pcards.engine import Action
from p2pcards.ui import arrange as arrange_ui
from p2pcards.ui.local import PromptHuman, Quit, play_local
from p2pcards.ui.terminal import TerminalPlayer
from tests.games.go_out_girl.rig import setup


async def asked_at_the_network_prompt(lines: list[str], **kw):
    """A seat's line-mode network prompt (``TerminalPlayer``, its input fed from a queue) asked
    its first question of a 3-seat Go Out Girl position, the options on screen: the player, the
    feed, the input loop's task, the legal moves and the decision's task."""
    feed: asyncio.Queue[str] = asyncio.Queue()

    async def source():
        while True:
            yield await feed.get()

    p = TerminalPlayer(0, lines=source(), out=lines.append, **kw)
    loop_task = asyncio.create_task(p.run_input())
    s, _ = setup(3, {0: "5 9", 1: "7", 2: "3"})
    view = s.view(0)
    legal = view.legal(0)
    decision = asyncio.create_task(p.decide(view, legal))
    while "Your options:" not in lines:  # type only once the options are on screen
        await asyncio.sleep(0.01)
    return p, feed, loop_task, legal, decision



def scripted(*answers):
    it = iter(answers)

    def inp(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return inp


def test_bad_input_gets_a_reason_and_the_prompt_again():
    s, _ = setup(3, {0: "5 9", 1: "7", 2: "3"})
    view = s.view(0)
    before = view.clone()
    out = io.StringIO()
    human = PromptHuman(0, inp=scripted("banana", "0", "99", "help", "2"), out=out)
    legal = view.legal(0)
    action = human.decide(view, legal)
    assert action == legal[1]
    text = out.getvalue()
    assert text.count("Not a choice: type a number from 1 to") == 3
    assert "Type the number of an action" in text
    assert view == before, "typing changes nothing until an action is taken"


def test_end_of_input_leaves_the_game():
    s, _ = setup(3, {0: "5 9", 1: "7", 2: "3"})
    with pytest.raises(Quit):
        PromptHuman(0, inp=scripted(), out=io.StringIO()).decide(s.view(0), s.view(0).legal(0))


def test_a_whole_local_game_with_a_human_who_always_takes_option_one():
    out = io.StringIO()
    final = play_local("go-out-girl", 3, 2, 5, {}, inp=lambda prompt: "1", out=out)
    assert final.outcome() is not None and "wins the match" in final.result_text()
    assert "Your hand:" in out.getvalue()


def test_arrangement_answers():
    slots = (10, 11, 12)
    assert arrange_ui.parse("3 1 2", slots) == [12, 10, 11]
    assert arrange_ui.parse("", slots) == [10, 11, 12]
    assert arrange_ui.parse("3", slots) == [12, 10, 11], "the rest keep their order"
    assert "each at most once" in arrange_ui.parse("1 1 2", slots)
    assert isinstance(arrange_ui.parse("4", slots), str)
    assert isinstance(arrange_ui.parse("x", slots), str)


class Manipulating:
    """A stand-in view whose game asks the player to arrange (as Manipulate does)."""

    def __init__(self):
        self.values = {10: 1, 11: 2, 12: 3}

    def arrangement_prompt(self, by, slots):
        return "Put them back in the order you choose."

    def card_name(self, v):
        return f"card{v}"

    def take_notes(self):
        return []


def test_local_prompt_asks_for_an_arrangement():
    out = io.StringIO()
    human = PromptHuman(0, inp=scripted("2 2 1", "0", "2 3 1"), out=out)
    assert human.arrange(Manipulating(), (10, 11, 12)) == [11, 12, 10]
    assert "Put them back" in out.getvalue() and "Not an order" in out.getvalue()


def test_network_prompt_takes_numbers_commands_and_arrangements():
    async def main():
        lines: list[str] = []
        sent: list[str] = []

        async def chat(text):
            if text == "forbidden":
                return "only the Vocal Player may talk now"
            sent.append(text)
            return None

        p, feed, loop_task, legal, decision = await asked_at_the_network_prompt(
            lines, chat=chat, who=lambda: ["  seat 1: you"])
        for text in ("7", "99", "say hello", "say forbidden", "who", "2"):
            await feed.put(text)
        action = await asyncio.wait_for(decision, 5)
        assert action == legal[1]
        assert sent == ["hello"]
        assert any("Not sent: only the Vocal Player" in ln for ln in lines)
        assert any("Not a choice" in ln for ln in lines)
        assert "  seat 1: you" in lines
        order = asyncio.create_task(p.arrange(Manipulating(), (10, 11, 12)))
        while not any("Put them back" in ln for ln in lines):
            await asyncio.sleep(0.01)
        await feed.put("3 2 1")
        assert await asyncio.wait_for(order, 5) == [12, 11, 10]
        # "Enter keeps them as they are" (issue 16: the empty line was dropped before it was read)
        await feed.put("")  # an empty line outside an arrangement is ignored...
        order = asyncio.create_task(p.arrange(Manipulating(), (10, 11, 12)))
        while sum("Put them back" in ln for ln in lines) < 2:
            await asyncio.sleep(0.01)
        await feed.put("")  # ...and inside one it keeps the order
        assert await asyncio.wait_for(order, 5) == [10, 11, 12]
        await feed.put("quit")
        await asyncio.wait_for(loop_task, 5)
        assert p.left

    asyncio.run(main())


def test_listed_actions_are_always_legal():
    s, _ = setup(3, {0: "5 5 9 G", 1: "7", 2: "3"})
    view = s.view(0)
    for a in view.legal(0):
        view.validate(0, a)
    assert Action("pass") not in view.legal(0), "no pass on an empty field"


def test_a_failing_advisor_costs_the_hint_not_the_game(monkeypatch, caplog):
    """A bug in an advisor is reported at the prompt; the player still gets to choose. It said
    "please report it" with nothing to report (ux22): the traceback is in p2pcards.log, and the
    line says so."""
    import solver.hints
    from p2pcards.ui import hints

    monkeypatch.setitem(solver.hints.ADVISORS, "go-out-girl", f"{__name__}:_broken_advisor")
    s, _ = setup(3, {0: "5 9", 1: "7", 2: "3"})
    view = s.view(0)
    legal = view.legal(0)
    out = io.StringIO()
    human = PromptHuman(0, inp=scripted("hint", "1"), out=out, hinter=hints.hinter("go-out-girl"))
    assert human.decide(view, legal) == legal[0]
    assert "No hint this time: the solver failed on this position (IndexError" in out.getvalue()
    said = " ".join(out.getvalue().split())  # the prompt wraps to the terminal's width
    assert "the details for a bug report are in p2pcards.log in the data folder" in said
    (rec,) = [r for r in caplog.records if r.name == "p2pcards.hint"]
    assert rec.exc_info and rec.exc_info[0] is IndexError  # the traceback, for the report


def _broken_advisor(view, legal, seed=0):
    raise IndexError("list index out of range")


def test_the_network_prompt_goes_on_answering_the_table_while_a_hint_thinks():
    """Red team 16c: ``hint`` at the line-mode network prompt ran the solver on the event loop
    that also carries this seat's link to the table: seconds to a minute with a big hand, with
    the program answering nobody (shown away to the others). Now it runs in a thread, on a
    copy of the view; here a hint that finishes only once the loop has run something else."""
    import threading

    async def main():
        lines: list[str] = []
        loop_ran = threading.Event()

        def slow_hinter(view, legal):
            return "play the 9" if loop_ran.wait(5) else "the table stood still"

        p, feed, loop_task, legal, decision = await asked_at_the_network_prompt(
            lines, hinter=slow_hinter)
        await feed.put("hint")
        while not any(ln.startswith("(working out a hint") or ln == "the table stood still"
                      for ln in lines):
            await asyncio.sleep(0.01)
        loop_ran.set()  # the table's turn on the loop, while the hint thinks
        while not any(ln in ("play the 9", "the table stood still") for ln in lines):
            await asyncio.sleep(0.01)
        await feed.put("1")
        await asyncio.wait_for(decision, 5)
        loop_task.cancel()
        return lines

    lines = asyncio.run(main())
    assert "play the 9" in lines and "the table stood still" not in lines


def test_a_hint_thinks_in_a_thread_the_program_does_not_wait_for_when_it_ends():
    """The hint's thread is a daemon: the loop's own executor threads are joined when the
    program ends, so a person who quits in the middle of a minute-long hint would have waited
    that minute for the terminal back. Its errors reach the awaiting coroutine."""
    import threading

    from p2pcards.ui.hints import in_background

    def where():
        return threading.current_thread().daemon, threading.current_thread().name

    def broken():
        raise IndexError("solver bug")

    async def main():
        daemon, name = await in_background(where)
        with pytest.raises(IndexError):
            await in_background(broken)
        return daemon, name

    assert asyncio.run(main()) == (True, "hint")


def test_a_solver_that_raises_stopiteration_costs_the_hint_not_the_wait():
    """A ``next()`` without a default that finds nothing raises ``StopIteration``, which an
    asyncio future refuses to hold: handed over as it was, the loop logged a ``TypeError`` and
    the hint never came back (the bot seats' thread had the fault, red team 25; the hint's
    thread was its twin, found by ``duplicates``). It reaches the prompt as a ``RuntimeError``
    at once, which the prompt's advisor wrapper turns into a line."""
    from p2pcards.ui.hints import in_background

    def exhausted():
        return next(iter(()))

    async def main():
        with pytest.raises(RuntimeError, match="StopIteration"):
            await asyncio.wait_for(in_background(exhausted), 5)

    asyncio.run(main())
