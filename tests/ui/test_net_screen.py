"""Red team 6b #6: a joiner on the full-screen table who does not move first saw "0 cards" and
"Your hand: (empty)" until the other player moved (up to the turn time), while ``status`` said
13 cards: the screen redrew on a log line or on the seat's own question, and the deal's cards
reached the table's state after the last line. It now redraws whenever the state changes."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import GameInfo, play_seat
from p2pcards.ui import netscreen
from p2pcards.ui.app import TableApp
from tests.mesh.helpers import close_all, make_table, run_async

pytestmark = pytest.mark.network


class Holding:
    """A bot that does not make its first decision until ``go`` is set."""

    needs_view = True

    def __init__(self, seat: int) -> None:
        self.bot = make_bot("go-out-girl", seat, "easy", seat)
        self.go = asyncio.Event()

    async def decide(self, view, legal):
        await self.go.wait()
        return self.bot.decide(view, legal)

    def arrange(self, view, slots):
        return self.bot.arrange(view, slots)


def headless_apps(tmp_path, monkeypatch, size) -> list[TableApp]:
    """Every full-screen table the test opens runs headless at ``size``; the list fills as they
    open."""
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path / "home"))
    apps: list[TableApp] = []
    real_run = TableApp.run_async

    def headless(self, *a, **kw):
        apps.append(self)
        return real_run(self, *a, headless=True, size=size)

    monkeypatch.setattr(TableApp, "run_async", headless)
    return apps


@run_async(timeout=120)
async def test_a_joiner_who_does_not_move_first_sees_the_dealt_hand(tmp_path, monkeypatch):
    apps = headless_apps(tmp_path, monkeypatch, (100, 30))
    meshes = await make_table(tmp_path, 2,
                              game_info=GameInfo("go-out-girl", 2, {}).to_json())
    host, joiner = meshes
    first = Holding(0)
    seats = []
    try:
        seats.append(asyncio.create_task(play_seat(host, first, say=lambda line: None)))

        def run_seat(player, say, on_table):
            return play_seat(joiner, player, say=say, on_table=on_table)

        seats.append(asyncio.create_task(netscreen.play_on_screen(
            "go-out-girl", 1, ["alice", "bob"], run_seat, who=None, hinter=None)))
        for _ in range(600):  # the deal takes a few seconds on loopback
            await asyncio.sleep(0.05)
            app = apps[0] if apps else None
            view = app.live_view() if app is not None and app.live_view is not None else None
            if view is not None and view.hand(1):
                break
        else:
            pytest.fail("the deal did not reach the joiner's table")
        for _ in range(200):  # no line is written meanwhile: alice holds her first move
            await asyncio.sleep(0.05)
            if "(empty)" not in app.texts.get("hand", "(empty)"):
                break
        # The first player is drawn by joint randomness: when it is the joiner (about half the
        # deals), its own question redraws the table anyway and the case cannot arise; when it
        # is alice, who holds her move, no line and no question come, and the table must show
        # the hand all the same.
        assert "(empty)" not in app.texts["hand"], app.texts["hand"]
        assert f"{len(view.hand(1))} cards" in app.texts["seats"], app.texts["seats"]
    finally:
        for t in seats:
            t.cancel()
        await asyncio.gather(*seats, return_exceptions=True)
        await close_all(meshes)


def test_the_top_line_says_whose_turn_it_is_with_a_name_of_32_wide_letters():
    """Red team 6b #6: a host named 32 fullwidth letters (64 cells) cut the top line to
    " Go Out Girl ·": the name, one unbreakable word, pushed whose turn it is off the row."""
    from p2pcards.engine import Decide
    from p2pcards.engine.dealer import LocalDealer
    from p2pcards.games import new_game
    from tests.ui.pilot import rendered

    names = ["\uff37" * 32, "carol"]
    state = new_game("go-out-girl", 2, {"names": names})
    dealer = LocalDealer(1)
    while not isinstance(req := state.pending(), Decide):
        state.apply(dealer.fulfil(state, req))
    assert req.player == 0

    async def go():
        app = TableApp("go-out-girl", 1, None, names=names, title="Go Out Girl")
        async with app.run_test(size=(80, 24)) as pilot:
            app.show(state.view(1))
            await pilot.pause()
            (top,) = [r for r in rendered(app, "status") if r.strip()]
            assert "'s turn (seat 1)" in top, top
            assert top.strip().startswith("Go Out Girl · \uff37")
    asyncio.run(go())


@run_async(timeout=150)
async def test_a_cheat_caught_at_the_full_screen_table_stays_on_screen_until_the_person_leaves(
        tmp_path, monkeypatch):
    """The full-screen table closed the moment the table stopped: a person who had just watched
    bob play a 2 "as 13" saw the whole screen vanish -- the table, its log, the reason -- and
    one red line in the terminal ("error: the table stopped: bob: played 2 as 13", the seat not
    told apart from a look-alike). Now the screen stays as the table last stood, the log and the
    question saying why the table stopped and who is named (seat and fingerprint), until the
    person leaves; the command then says it again, as before."""
    from p2pcards.table import TableStopped
    from tests.table.test_table_rules import Cheat, skip_own_checks

    apps = headless_apps(tmp_path, monkeypatch, (120, 36))
    meshes = await make_table(tmp_path, 3, game_info=GameInfo("go-out-girl", 3, {}).to_json())
    unchecked = skip_own_checks(monkeypatch, "go-out-girl")  # bob's own engine would refuse
    others = [asyncio.create_task(play_seat(meshes[1], Cheat(1), say=lambda line: None,
                                            on_table=lambda t: unchecked(t.state),
                                            deck_timeout=5)),
              asyncio.create_task(play_seat(meshes[2], make_bot("go-out-girl", 2, "easy", 2),
                                            say=lambda line: None, deck_timeout=5))]

    def run_seat(player, say, on_table):
        return play_seat(meshes[0], player, say=say, on_table=on_table, deck_timeout=5)

    screen = asyncio.create_task(netscreen.play_on_screen(
        "go-out-girl", 0, ["alice", "bob", "carol"], run_seat, who=None, hinter=None))
    try:
        for _ in range(1200):  # alice answers each question with its last option
            await asyncio.sleep(0.05)
            app = apps[0] if apps else None
            if screen.done() or (app is not None and app.finished_text is not None):
                break
            if app is not None and app.legal and app._pending is not None \
                    and not app._pending.done():
                app._pending.set_result(app.legal[-1])
        assert not screen.done(), screen  # (on main: closed, the stop raised at once)
        await asyncio.sleep(0.5)  # and it stays
        assert not screen.done()
        fp = meshes[0].roster[1].fingerprint
        said = app.finished_text
        assert said.startswith("the table stopped: bob") and "as 13" in said, said
        assert said.endswith(f"(seat 2, {fp})"), said
        assert "Nothing more is played at this table: the match ends here, with no winner. " \
            "Press Ctrl+Q" in app.texts["question"]  # (ux23: who won?)
        assert any(line == f"** {said}" for line in app.lines_seen), app.lines_seen[-5:]
        assert app.legal == [] and "Game over" in app.texts["status"]
        app.action_quit_game()  # the person leaves: the command gets the stop, as before
        with pytest.raises(TableStopped) as stop:
            await asyncio.wait_for(screen, 10)
        assert stop.value.culprit == 1 and stop.value.reason == said.removeprefix(
            "the table stopped: ")
    finally:
        for t in [screen, *others]:
            t.cancel()
        await asyncio.gather(screen, *others, return_exceptions=True)
        await close_all(meshes)
