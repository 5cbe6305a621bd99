"""The full-screen table, played through key presses with Textual's Pilot against bots: whole
games, every game's screen at 80×24 and 140×45 with no word broken, the forced single option,
rules, card text, hints highlighted, typed moves."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.engine import Action
from p2pcards.ui import saved
from p2pcards.ui.app import TableApp, TextScreen
from p2pcards.ui.session import LocalGame
from tests.games.go_out_girl.rig import setup
from tests.ui.pilot import broken_words, play_until, screen_lines


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    return tmp_path


def local_app(game: str, players: int, seed: int, **kw) -> tuple[LocalGame, TableApp]:
    lg = LocalGame(game, players, players - 1, seed, {})
    app = TableApp(game, lg.seat, lg.run, names=lg.names, forced_delay=kw.pop("forced_delay", 0.0),
                   **kw)
    return lg, app


@pytest.mark.slow  # (goes first: tests/conftest.py)
def test_a_whole_go_out_girl_match_played_with_the_keyboard(home):
    async def go():
        lg, app = local_app("go-out-girl", 3, 5)
        async with app.run_test(size=(140, 45)) as pilot:
            # Enter takes the highlighted option; a group opens and Enter takes its first member
            n = await play_until(pilot, app, lambda: app.finished_text is not None)
            assert n > 10
            assert "wins the match" in app.finished_text
            assert app.texts["status"].startswith("Game over")
            assert any("wins the match" in line for line in app.lines_seen)
        return lg
    lg = asyncio.run(go())
    assert lg.state.outcome() is not None
    # the game was saved, and its record replays to the same result
    (path,) = saved.find_local_games(str(home))
    g = saved.read(path)
    assert g.finished and g.seat == 0 and g.result_text == lg.state.result_text()
    assert saved.frames(g, 0)[-1].view.outcome() == lg.state.outcome()


def test_an_out_of_this_world_round_played_with_the_keyboard():
    async def go():
        lg, app = local_app("out-of-this-world", 3, 2)
        async with app.run_test(size=(140, 45)) as pilot:
            n = await play_until(pilot, app, lambda: lg.watcher.round >= 2
                                 or app.finished_text is not None, keys=("1", "enter"))
            assert n >= 3
            assert lg.watcher.round >= 2 or app.finished_text
            assert any("Taking Care of Things" in line or "round 2" in line.lower()
                       for line in app.lines_seen + [app.texts["shared"]])
    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (140, 45)])
@pytest.mark.parametrize("game,players", [("go-out-girl", 3), ("out-of-this-world", 3),
                                          ("girl-and-robot", 3)])
def test_every_game_fits_the_screen_with_no_word_broken(game, players, size):
    async def go():
        long_hint = "a reason that runs on for a while, " * 6
        lg, app = local_app(game, players, 11,
                            hinter=lambda v, legal: FakeAdvice(legal[-1], long_hint))
        async with app.run_test(size=size) as pilot:
            # play a few turns so the log, the field and the options have something to show
            for _ in range(400):
                await pilot.pause()
                if app.legal and len(app.lines_seen) > 8 and len(app.legal) > 1:
                    break
                if app.legal:
                    await pilot.press("enter")
            assert app.legal, "the game reached a question"
            await pilot.pause()
            assert broken_words(app) == []
            # every part of the table is on screen
            for wid in ("status", "seats", "hand", "question", "options", "input"):
                w = app.query_one(f"#{wid}")
                assert w.region.height >= 1 and w.region.bottom <= size[1], wid
            assert "Your turn" in app.texts["status"]
            assert app.texts["hand"].startswith("Your hand:")
            # with a long hint up, the input line and the hinted option are still on screen
            await pilot.press("f2")
            await app.hint_worker.wait()  # the hint is worked out in a thread
            await pilot.pause()
            shown = "\n".join(screen_lines(app))
            assert "a number, a move" in shown
            assert "◀ hint" in shown
            assert broken_words(app) == []
            # a smaller terminal: everything redraws, still wrapped by word
            await pilot.resize_terminal(max(80, size[0] - 30), max(24, size[1] - 10))
            await pilot.pause()
            await pilot.pause()
            assert broken_words(app) == []
    asyncio.run(go())


def one_question(view, legal, **kw):
    """An app whose driver asks one question and returns the answer."""
    async def driver(app):
        return await app.ask(view, legal)
    return TableApp(view.game, view.viewer, driver, names=view.config["names"], **kw)


def gog_view():
    s, _ = setup(3, {0: "4 4 5 5 6 6 9 G", 1: "7", 2: "3"}, {0: "nerai"}, revealed=(0,))
    s.config["names"] = ["Ann", "Bot 1", "Bot 2"]
    return s.view(0)


def test_a_forced_single_option_is_taken_after_a_visible_notice():
    view = gog_view()
    only = view.legal(0)[-1]

    async def go(delay, keys):
        app = one_question(view, [only], forced_delay=delay)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            if keys:
                assert app.texts["notice"].startswith("Only one choice:")
                assert f"taken in {delay:g} s" in app.texts["notice"]
                assert app.result is None, "not taken while the notice is up"
                await pilot.press(*keys)
            for _ in range(200):  # bounded: the timer fires after the delay
                if app.result is not None:
                    break
                await pilot.pause(0.02)
            return app.result
    assert asyncio.run(go(30.0, ["enter"])) == only  # Enter takes it at once
    assert asyncio.run(go(0.05, [])) == only  # else it is taken by itself


def test_typed_moves_groups_and_numbers():
    view = gog_view()
    legal = view.legal(0)
    assert len(legal) > 20

    async def go():
        app = one_question(view, legal)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert len(app.entries) < len(legal), "near-identical plays are grouped"
            group = next(i for i, e in enumerate(app.entries, 1) if not e.single)
            await pilot.press(*str(group), "enter")  # opens the group: a second step
            assert app.group is not None and "which one?" in app.texts["question"]
            await pilot.press("escape")
            assert app.group is None
            await pilot.press(*"play 4 4 6 as 6", "enter")
            await pilot.pause()
            return app.result
    action = asyncio.run(go())
    assert action.kind == "play" and action.number == 6
    assert sorted(view.number(view.values[s]) for s in action.slots) == [4, 4, 6]


def test_rules_and_card_text_open_over_the_table():
    view = gog_view()

    async def go():
        app = one_question(view, view.legal(0))
        async with app.run_test(size=(100, 35)) as pilot:
            await pilot.press(*"rules", "enter")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            assert "On your turn, either" in app.screen.text
            await pilot.press("escape")
            await pilot.press(*"card nerai", "enter")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            assert app.screen.text.startswith("Matono Nerai — life 7")
            await pilot.press("escape")
            await pilot.press(*"card banana", "enter")
            await pilot.pause()
            assert "No card called 'banana'" in app.screen.text
            await pilot.press("escape")
            await pilot.press("f3")
            await pilot.pause()
            assert "card NAME" in app.screen.text
    asyncio.run(go())


class FakeAdvice:
    def __init__(self, action, text):
        self.action = action
        self.text = text

    def render(self):
        return f"Hint: {self.text}\n  Plan: then 9\n  Why: it empties your hand soonest"


def test_hint_highlights_the_option_and_names_its_number():
    view = gog_view()
    legal = view.legal(0)
    target = next(a for a in legal if a.kind == "guard")

    async def go():
        app = one_question(view, legal, hinter=lambda v, lg: FakeAdvice(target, "play Guard"))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("f2")
            await app.hint_worker.wait()  # the hint is worked out in a thread
            await pilot.pause()
            where = app._where(target)
            assert app.texts["notice"].startswith(f"Option {where}: play Guard")
            assert "Why: it empties your hand soonest" in app.texts["notice"]
            ol = app.query_one("#options")
            row = str(ol.get_option_at_index(int(where.split(",")[0]) - 1).prompt)
            assert "◀ hint" in row and ol.highlighted == int(where.split(",")[0]) - 1
            await pilot.press("enter")  # Enter takes the highlighted (hinted) option
            await pilot.pause()
            return app.result
    assert asyncio.run(go()) == target


def test_the_question_names_what_triggered_it():
    view = gog_view()
    app = TableApp("go-out-girl", 0, None, names=["Ann", "Bot 1", "Bot 2"])
    from p2pcards.ui.present import presenter_for

    q = presenter_for("girl-and-robot").question(view, 0, [Action("pass"), Action("cancel", slot=1)],
                                                 "Bot 2 plays Peace Treaty.")
    assert q == "Bot 2 plays Peace Treaty: let it resolve, or answer it with Cancel Action?"
    assert app.presenter.question(view, 0, view.legal(0), None).startswith(
        "The field is empty") or "on the field" in app.presenter.question(view, 0, view.legal(0), None)


def test_no_color_is_honoured(monkeypatch):
    """With NO_COLOR the screen is drawn through Textual's monochrome filter; without it, not."""
    from textual.filter import Monochrome, NoColor

    view = gog_view()

    async def filters(no_color: bool):
        if no_color:
            monkeypatch.setenv("NO_COLOR", "1")
        else:
            monkeypatch.delenv("NO_COLOR", raising=False)
        app = one_question(view, view.legal(0))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            return app.no_color, [type(f) for f in app._filters]
    on, fs = asyncio.run(filters(True))
    assert on and (Monochrome in fs or NoColor in fs)
    off, fs = asyncio.run(filters(False))
    assert not off and Monochrome not in fs and NoColor not in fs


def test_networked_seats_show_fingerprints_presence_and_the_chat_rule():
    view = gog_view()
    sent = []

    async def chat(text):
        if "secret" in text:
            return "only allies talk"
        sent.append(text)
        return None

    async def go():
        app = one_question(view, view.legal(0), seat_tags=lambda: {0: "AAAA-BBBB",
                                                                   2: "CCCC-DDDD · away"})
        app.chat = chat
        async with app.run_test(size=(140, 45)) as pilot:
            await pilot.pause()
            assert "[CCCC-DDDD · away]" in app.texts["seats"]
            assert app.texts["talk"].startswith("Chat: open")
            await pilot.press(*"say hello there", "enter")
            await pilot.press(*"say a secret", "enter")
            await pilot.pause()
            assert sent == ["hello there"]
            assert "(you): hello there" in app.lines_seen
            assert app.texts["notice"] == "Not sent: only allies talk"
    asyncio.run(go())


def test_leaving_mid_game_and_after_the_end():
    """quit mid-game hands back Left (the command says the game was left and where it is
    saved); after the end, Ctrl+Q closes the table with the result, also when the driver waits
    for the person to close it (a networked seat)."""
    from p2pcards.ui.app import Left

    view = gog_view()

    async def mid():
        app = one_question(view, view.legal(0))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press(*"quit", "enter")
            await pilot.pause()
        return app.return_value

    async def after():
        async def driver(app):
            app.show(view)
            app.finish("Ann wins")
            await app.wait_for_quit()
            return "the result"
        app = TableApp("go-out-girl", 0, driver, names=["Ann", "Bot 1", "Bot 2"])
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.texts["status"] == "Game over · Ann wins"
            await pilot.press("ctrl+q")
            await pilot.pause()
        return app.return_value

    assert isinstance(asyncio.run(mid()), Left)
    assert asyncio.run(after()) == "the result"


def test_the_status_line_says_whose_turn_and_what_they_decide():
    s, _ = setup(3, {0: "4 9 G", 1: "7", 2: "3"}, start=1)
    s.config["names"] = ["Ann", "Bob", "Cy"]
    view = s.view(0)

    async def driver(app):
        app.show(view)
        await app.wait_for_quit()

    async def go():
        app = TableApp("go-out-girl", 0, driver, names=["Ann", "Bob", "Cy"], title="Go Out Girl")
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            return app.texts["status"], app.texts["seats"]
    status, seats = asyncio.run(go())
    assert status.startswith("Go Out Girl · Bob's turn (seat 2) · 0:0")
    assert status.endswith("· to play or pass")
    assert "Bob:" in seats.splitlines()[1] and seats.splitlines()[1].endswith("←")


def test_a_slow_hint_leaves_the_screen_and_the_table_running():
    """Red team 16c: the hint was worked out on the screen's own event loop, which is also this
    seat's link to the table. With a big hand it takes seconds (21 Out Of This World cards at the
    discard: 21 s; 41: 74 s), and all that while the screen stood still and the program answered
    nobody: the others saw this seat away, and its absences counted toward the match's
    allowance. Now the hint is worked out in a thread, on a copy of the view: here a hint that
    finishes only once the loop has run something else (the table's part) gets it done."""
    import threading

    view = gog_view()
    legal = view.legal(0)
    target = next(a for a in legal if a.kind == "guard")
    loop_ran = threading.Event()

    def slow_hinter(v, lg):
        stood_still = not loop_ran.wait(5)  # the loop gets its turn while the hint thinks
        return FakeAdvice(target, "the screen stood still" if stood_still else "play Guard")

    async def go():
        app = one_question(view, legal, hinter=slow_hinter)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("f2")
            assert app.texts["notice"].startswith("Working out a hint")
            await pilot.press("f2")  # asked again meanwhile: one hint at a time
            assert app.texts["notice"].startswith("Still working out the hint")
            asyncio.get_running_loop().call_soon(loop_ran.set)  # the table's turn on the loop
            await app.hint_worker.wait()
            await pilot.pause()
            assert app.texts["notice"].startswith(f"Option {app._where(target)}: play Guard")
            await pilot.press("enter")  # the hinted option is taken
            await pilot.pause()
            return app.result
    assert asyncio.run(go()) == target
