"""The person at the full-screen table while it waits for someone (ux19). A player's program went
quiet (a crash) and the table paused: the top line went on saying "carol's turn (seat 3) · 0:29
· choosing a character" as if carol were thinking, and the only other word was the last
reminder in the notice line ("away 5 s of at most 40 s"), 15 s stale between reminders and
silent on what happens when the wait runs out. The screen now keeps a line up to date: whom the
table waits for, for how long so far, how long it waits at most, that the match then ends naming
them, and how they come back."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards import net
from p2pcards.bots.registry import make_bot
from p2pcards.engine import Decide, Decision
from p2pcards.engine.dealer import LocalDealer
from p2pcards.games import new_game
from p2pcards.lobby import GameInfo, play_seat
from p2pcards.ui.app import TableApp
from p2pcards.ui.waiting import Absent, waiting_text
from tests.mesh.helpers import close_all, make_table, run_async
from tests.ui.test_net_screen import headless_apps

NAMES = ["alice", "bob", "carol"]


@pytest.mark.network
@run_async(timeout=150)
async def test_a_player_gone_quiet_is_named_with_the_wait_and_what_happens_after_it(
        tmp_path, monkeypatch):
    apps = headless_apps(tmp_path, monkeypatch, (120, 36))
    meshes = await make_table(tmp_path, 3,
                              game_info=GameInfo("go-out-girl", 3, {}, wait=60.0).to_json())
    others = [asyncio.create_task(play_seat(meshes[s], make_bot("go-out-girl", s, "easy", s),
                                            say=lambda line: None)) for s in (1, 2)]
    screen = asyncio.create_task(net._on_screen(meshes[0], ["Players: ..."]))
    try:
        for _ in range(600):  # the deal
            await asyncio.sleep(0.05)
            app = apps[0] if apps else None
            if app is not None and app.live_view is not None and app.live_view().hand(0):
                break
        else:
            pytest.fail("the deal did not reach the screen")
        assert not app.query_one("#waiting").display
        others[1].cancel()  # carol's program dies: no goodbye
        await asyncio.gather(others[1], return_exceptions=True)
        await meshes[2].close(announce=False)
        fp = meshes[0].roster[2].fingerprint
        for _ in range(400):
            await asyncio.sleep(0.05)
            if "carol" in app.texts.get("waiting", ""):
                break
        said = app.texts["waiting"]
        assert said.startswith(f"The table is paused: carol (seat 3, {fp}) is away ("), said
        assert "It waits at most 1:00 for them, then the match ends, naming them." in said, said
        assert "If their program closed, they come back by rerunning their join command." in said
        assert app.query_one("#waiting").display
        # the table's own lines about it are in the log, and not repeated in the notice line
        assert any(line.startswith("** carol (seat 3") for line in app.lines_seen)
        assert not app.texts.get("notice", "").startswith("** carol"), app.texts["notice"]
        first = said
        await asyncio.sleep(2.2)  # kept up to date between the table's 15 s reminders
        assert app.texts["waiting"] != first, first
    finally:
        for t in [screen, *others]:
            t.cancel()
        await asyncio.gather(screen, *others, return_exceptions=True)
        await close_all(meshes)


def _turn_of(player: int):
    """A Go Out Girl table of three where it is ``player``'s turn."""
    state = new_game("go-out-girl", 3, {"names": NAMES})
    dealer = LocalDealer(3)
    for _ in range(500):
        req = state.pending()
        if isinstance(req, Decide) and req.player == player:
            return state
        state.apply(Decision(req.player, state.legal(req.player)[0]) if isinstance(req, Decide)
                    else dealer.fulfil(state, req))
    raise AssertionError("no turn for that player")


def test_the_top_line_says_the_player_to_move_is_away_not_deciding():
    state = _turn_of(2)
    gone = [Absent(2, "carol", "7KQW-M2XD", 83.0)]

    async def go():
        app = TableApp("go-out-girl", 0, None, names=NAMES, title="Go Out Girl",
                       absent=lambda: gone, wait=120.0)
        async with app.run_test(size=(80, 24)) as pilot:
            app.show(state.view(0))
            await pilot.pause()
            top = app.texts["status"]
            assert top == "Go Out Girl · carol's turn (seat 3) · away 1:23 · the table waits " \
                          "for them", top
            assert app.texts["waiting"] == (
                "The table is paused: carol (seat 3, 7KQW-M2XD) is away (1:23). It waits at "
                "most 2:00 for them, then the match ends, naming them. If their program "
                "closed, they come back by rerunning their join command.")
            await app.handle("who")  # not "Turn: carol (seat 3) is deciding."
            assert app.lines_seen[-2] == "Turn: carol (seat 3), away 1:23 · the table waits for " \
                                         "them.", app.lines_seen[-3:]
            assert app.lines_seen[-1].startswith("The table is paused: carol (seat 3")
            gone.append(Absent(1, "bob", "BBBB-BBBB", 80.0))  # every other seat: we are cut off
            app._tick()
            await pilot.pause()
            assert app.texts["waiting"].startswith("You are cut off from the other players")
            assert "away" not in app.texts["status"], app.texts["status"]  # nobody named there
            gone.clear()  # carol is back
            app._tick()
            await pilot.pause()
            assert not app.query_one("#waiting").display
            assert "away" not in app.texts["status"]
            assert "carol's turn (seat 3) · 0:0" in app.texts["status"]
    asyncio.run(go())


def test_the_words_for_the_host_for_a_quit_for_several_and_for_being_cut_off():
    host = Absent(0, "alice", "AAAA-AAAA", 12.0, left=True)
    bob = Absent(1, "bob", "BBBB-BBBB", 5.0)
    carol = Absent(2, "carol", "CCCC-CCCC", 7.0)
    assert waiting_text([host], seats=3, me=2, wait=40.0) == (
        "The table is paused: alice (seat 1, AAAA-AAAA) left the table (away 12 s). It waits at "
        "most 40 s for them, then the match ends, naming them. They come back by running "
        "'p2pcards join --resume'.")
    two = waiting_text([host, bob], seats=4, me=3, wait=40.0)
    assert two.startswith("The table is paused, waiting for alice (seat 1, AAAA-AAAA), left "
                          "12 s; bob (seat 2, BBBB-BBBB), away 5 s.")
    assert "naming whoever is still away" in two
    # every other seat of three is away: it is this program that is cut off, and nobody is named
    cut = waiting_text([bob, carol], seats=3, me=0, wait=40.0)
    assert cut.startswith("You are cut off from the other players (bob, carol) for 5 s"), cut
    assert "If they do not hear from you within 40 s, they end the match, naming you" in cut
    assert waiting_text([], seats=3, me=0, wait=40.0) == ""


def test_the_line_about_a_pause_gives_what_is_left_of_the_matchs_allowance_when_it_is_less():
    """A seat away in spells, again and again, is named once its time away over the whole match
    passes three times the wait, however short the spell now: the line said "It waits at most
    40 s for them" when 10 s were left."""
    spells = Absent(1, "bob", "BBBB-BBBB", 5.0, match_left=10.0)
    said = waiting_text([spells], seats=3, me=0, wait=40.0)
    assert "It waits only 10 s more for them (what is left of their time away for the whole " \
        "match), then the match ends, naming them." in said, said
    # with more of the allowance left than of the wait, the wait is what ends it
    plenty = Absent(1, "bob", "BBBB-BBBB", 5.0, match_left=100.0)
    assert "It waits at most 40 s for them" in waiting_text([plenty], seats=3, me=0, wait=40.0)


def test_a_stop_is_said_once_and_a_goodbye_after_it_does_not_take_the_notice_line():
    """A stop was said three times at once on screen -- the log, the question area, and again
    under it in the notice line -- and the programs leaving after it ("** bot1 (seat 2) left the
    table.") then took the notice line under "The table stopped", as if bot1's going mattered
    now. The question area says the stop; the notice line is left empty; the log keeps all."""
    state = _turn_of(2)
    stop = "the table stopped: carol was away and did not come back within 40 s (seat 3, X)"

    async def go():
        app = TableApp("go-out-girl", 0, None, names=NAMES, title="Go Out Girl")
        async with app.run_test(size=(100, 30)) as pilot:
            app.show(state.view(0))
            app.write_log([f"** {stop}"])  # the table's own line comes first
            app.finish(stop, stopped=True)
            app.write_log(["** bob (seat 2, Y) left the table."])
            await pilot.pause()
            assert app.texts["question"].startswith("The table stopped: carol was away")
            assert app.texts.get("notice", "") == "" and not app.query_one("#notice").display
            assert app.lines_seen[-1] == "** bob (seat 2, Y) left the table."
    asyncio.run(go())


@pytest.mark.network
@run_async(timeout=120)
async def test_a_player_who_leaves_a_match_is_told_how_long_the_others_wait_for_them(tmp_path):
    """"You left the table. Your seat is kept: 'p2pcards join --resume' takes it back while the
    others wait." -- but not for how long, nor what then: a person who went for a coffee came
    back to a match ended in their name. The line now says both."""
    from p2pcards.ui.terminal import Left, TerminalPlayer
    from p2pcards.ui.waiting import left_text

    meshes = await make_table(tmp_path, 2,
                              game_info=GameInfo("go-out-girl", 2, {}, wait=40.0).to_json())

    async def typed():
        yield "quit"

    host = asyncio.create_task(play_seat(meshes[0], make_bot("go-out-girl", 0, "easy", 0),
                                         say=lambda line: None))
    try:
        with pytest.raises(Left) as left:
            await net._play(meshes[1], TerminalPlayer(1, lines=typed(), out=lambda t: None))
        assert left_text(left.value.wait) == (
            "You left the table. Your seat is kept: 'p2pcards join --resume' takes it back while "
            "the others wait (at most 40 s; then the match ends, naming you).")
    finally:
        host.cancel()
        await asyncio.gather(host, return_exceptions=True)
        await close_all(meshes)


def test_who_at_the_plain_prompt_says_the_player_to_move_is_away_and_what_the_wait_is(capsys):
    """At the plain prompt, 'who' during a pause said "Turn: carol (seat 3) is deciding; the
    table waits for them." -- carol, whose program had died, was not deciding -- and nothing of
    how long the table waits or what then. It now says she is away, for how long, and the wait."""
    import time
    from types import SimpleNamespace

    state = _turn_of(2)
    state.view(0)
    now = time.monotonic()
    member = [SimpleNamespace(seat=s, fingerprint=f"FP{s}", name=n) for s, n in enumerate(NAMES)]
    mesh = SimpleNamespace(seat=0, seats=3, roster=member, away={2}, left=set(),
                           away_since={2: now - 19.2}, name_of=lambda s: NAMES[s],
                           game_info=GameInfo("go-out-girl", 3, {}, wait=40.0).to_json())
    player = net._terminal(mesh)
    player.live = lambda: state.view(0)
    asyncio.run(player.handle("who"))
    out = capsys.readouterr().out
    assert "seat 3: carol [FP2] — away for 19 s" in out, out
    assert "Turn: carol (seat 3), away 19 s · the table waits for them." in out, out
    assert "The table is paused: carol (seat 3, FP2) is away (19 s). It waits at most 40 s for " \
           "them, then the match ends, naming them." in " ".join(out.split()), out


def test_a_seat_taken_back_says_so_at_the_top_of_its_table():
    """After 'join --resume' (or the same join command again) the full-screen table opened over
    the search's lines ("alice answered. ... Everyone answered: back at the table.") and its log
    began as a new table's: nothing said the seat had been taken back mid-match."""
    from types import SimpleNamespace

    member = [SimpleNamespace(seat=s, fingerprint=f"FP{s}", name=n) for s, n in enumerate(NAMES)]
    mesh = SimpleNamespace(seat=2, seats=3, roster=member, name_of=lambda s: NAMES[s],
                           game_info=GameInfo("go-out-girl", 3, {}, wait=40.0).to_json())
    lines = net._intro(mesh, resumed=True)
    assert lines[0] == "Players: alice (FP0), bob (FP1), carol (FP2)"
    assert lines[-1].startswith("You took your seat back at seat 3: your program caught up")
    assert not any("back" in line for line in net._intro(mesh))


def test_after_a_stop_the_screen_and_the_command_say_where_the_record_is_and_how_to_recheck_it(
        tmp_path, monkeypatch, capsys):
    """A cheat caught: the screen said who and why, "Nothing more is played at this table", and
    the command "error: the table stopped: ..." -- and nothing of what the person can do now.
    Their own record is kept and 'p2pcards audit' re-checks it: both now say so, naming it."""
    import typer

    from p2pcards.cli import _network_errors
    from p2pcards.table import TableStopped
    from p2pcards.ui import netscreen

    apps = headless_apps(tmp_path, monkeypatch, (100, 30))
    record = tmp_path / "tables" / "abc 1.jsonl"

    async def run_seat(player, say, on_table):
        raise TableStopped(1, "bob: played 2 as 13 (seat 2, FP1)")

    async def on_screen():
        screen = asyncio.create_task(netscreen.play_on_screen(
            "go-out-girl", 0, NAMES, run_seat, who=None, hinter=None, record=record))
        for _ in range(200):
            await asyncio.sleep(0.05)
            if apps and apps[0].finished_text is not None:
                break
        app = apps[0]
        await asyncio.sleep(0.1)
        assert app.lines_seen[-1] == (f"Your record of this match is kept: 'p2pcards audit "
                                      f"'{record}'' re-checks every proof in it, with no secret.")
        app.action_quit_game()
        with pytest.raises(TableStopped):
            await asyncio.wait_for(screen, 10)

    asyncio.run(on_screen())

    class Mesh:  # what net._played reads of a mesh
        transcript_path = record

    async def stopped(*a, **kw):
        raise TableStopped(1, "bob: played 2 as 13 (seat 2, FP1)")

    monkeypatch.setattr(net, "_play", stopped)
    with pytest.raises(typer.Exit) as done:
        _network_errors(lambda: net._played(Mesh(), None, False))()
    assert done.value.exit_code == 3
    err = capsys.readouterr().err
    # not "error:" (ux23): the program did not fail, the match ended
    assert "The match ended with no winner: the table stopped: bob: played 2 as 13 (seat 2, " \
        "FP1)\n" in err
    assert "error" not in err
    assert f"'p2pcards audit '{record}'' re-checks every proof in it" in err


@pytest.mark.network
@run_async(timeout=60)
async def test_a_resume_nobody_answers_for_the_whole_wait_says_the_match_has_most_likely_ended(
        tmp_path):
    """bob's program crashed; the table waited its 40 s and ended, naming him; the others'
    programs closed. His 'join --resume' looked 40 s and said "Your seat is saved: try 'p2pcards
    join --resume' again later, once they are back" -- as if the match still waited for him.
    Nobody answering for as long as the table waits now says what that most likely means."""
    from p2pcards.resume import _find_the_others
    from protocol.mesh import Mesh, MeshError, Timings
    from tests.mesh.helpers import LOOPBACK, NAMES, identity
    from tests.table.procs import transcript_of

    info = GameInfo("go-out-girl", 2, {}, wait=1.0).to_json()
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 2, bind=LOOPBACK, timings=t, name=NAMES[0],
                           game_info=info)
    bob = await Mesh.join(identity(tmp_path, 1), host.address, host.code, NAMES[1],
                          bind=LOOPBACK, timings=t)
    await asyncio.gather(host.wait_full(10), bob.wait_full(10))
    for m in (host, bob):
        await m.close(announce=False)
    back = await Mesh.resume(identity(tmp_path, 1), transcript=transcript_of(tmp_path / "home1"),
                             bind=LOOPBACK, timings=t, home=tmp_path / "home1")
    try:
        with pytest.raises(MeshError) as gave_up:
            await _find_the_others(back, 1.5)
        said = str(gave_up.value)
        assert said.startswith("could not reach alice (the host, at "), said
        assert "nobody answered. Their table waits 1 s for an absent player, and you have been " \
               "away longer: unless their programs are all down too, their match has most " \
               "likely ended without you. Your seat is saved: try 'p2pcards join --resume' " \
               "again later" in said, said
        # a look shorter than the table's wait does not say so
        with pytest.raises(MeshError) as short:
            await _find_the_others(back, 0.5)
        assert "most likely ended" not in str(short.value)
    finally:
        await back.close(announce=False)


def test_the_first_ctrl_c_at_a_match_says_what_leaving_means_for_the_seat():
    """The first Ctrl+C said "Press Ctrl+C again to leave the table (or type quit)." -- at a
    networked match, nothing of what a second press does to the person's seat. It now says the
    seat is kept, how long the others wait, and what then; once the match is over, it does not."""
    state = _turn_of(0)

    async def go():
        app = TableApp("go-out-girl", 0, None, names=NAMES, title="Go Out Girl", wait=120.0,
                       absent=lambda: [])
        async with app.run_test(size=(100, 30)) as pilot:
            app.show(state.view(0))
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert app.texts["notice"] == (
                "Press Ctrl+C again to leave the table (or type quit): your seat is kept, and the "
                "others wait for you at most 2:00, then end the match, naming you.")
            assert app.is_running
            app._ctrl_c_at = None
            app._ctrl_c_lapsed(0.0)  # the window lapses: the line goes
            assert app.texts["notice"] == ""
            app.finish("alice wins the match")
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert app.texts["notice"] == "Press Ctrl+C again to leave the table (or type quit)."
    asyncio.run(go())


def test_a_joiner_waiting_for_the_deal_hears_seats_taken_and_when_every_seat_is(monkeypatch):
    """A joiner saw "The host deals once every seat is taken (and may free a seat before that)."
    and then nothing, however long the host took: not whether others sat down, nor that every
    seat was taken and the deal was now the host's to make."""
    from types import SimpleNamespace

    said: list[str] = []
    monkeypatch.setattr(net, "say", said.append)
    mesh = SimpleNamespace(seats=3, free_seats=1, sealed=False, seat=1, name_of=NAMES.__getitem__)

    async def go():
        task = asyncio.create_task(net._seats_taken(mesh, every=0.01))
        await asyncio.sleep(0.05)
        assert said == []  # what join already said: two of three seated
        mesh.free_seats = 0
        await asyncio.sleep(0.05)
        assert said == ["Every seat is taken: alice, the host, deals when they are ready."]
        mesh.free_seats = 1  # the host freed a seat
        await asyncio.sleep(0.05)
        assert said[1:] == ["2 of 3 seats taken."]
        mesh.sealed = True  # dealt: done
        await asyncio.wait_for(task, 1)
    asyncio.run(go())


def test_at_the_plain_prompt_programs_leaving_after_a_stop_are_no_news(monkeypatch):
    """The host's plain prompt read "** the table stopped: bob was away ..." and then "** bot1
    (seat 2, NK35-919J) left the table." -- the bot ending with the table, shown as news after
    the stop. Before the stop such lines are shown as always."""
    from types import SimpleNamespace

    said: list[str] = []
    monkeypatch.setattr(net, "say", said.append)
    mesh = SimpleNamespace(stopped=None)
    told = net._table_lines(mesh)
    told("** bot1 (seat 2, NK35-919J) left the table.")
    mesh.stopped = object()
    told("** the table stopped: bob was away and did not come back within 40 s (seat 3, X)")
    told("** bot1 (seat 2, NK35-919J) left the table.")
    told("** carol (seat 4, Y) is away; the table waits for them to come back (they rerun ...).")
    told("carol (seat 4): gg")
    assert said == ["** bot1 (seat 2, NK35-919J) left the table.",
                    "** the table stopped: bob was away and did not come back within 40 s (seat 3, X)",
                    "carol (seat 4): gg"]


def test_the_line_about_a_pause_gives_the_time_the_table_counts_not_only_this_spell(monkeypatch):
    """carol was away 30 s, back for a moment, and away again: the table counts 38 s against her
    (absences since the game last moved, as its reminders say), while her spell is 8 s. The
    screen's line said 8 s of at most 40 s -- 32 s left, as a person would read it, where 2 s
    were. It now gives the table's own count."""
    import time
    from types import SimpleNamespace

    now = time.monotonic()
    member = [SimpleNamespace(seat=s, fingerprint=f"FP{s}", name=n) for s, n in enumerate(NAMES)]
    mesh = SimpleNamespace(seat=0, seats=3, roster=member, away={2}, left=set(),
                           away_since={2: now - 8.0}, name_of=lambda s: NAMES[s])
    monkeypatch.setattr(net, "counted_away", lambda m: {2: 38.0} if m is mesh else {})
    (carol,) = net._absent(mesh)
    assert carol.seat == 2 and round(carol.seconds) == 38
    monkeypatch.setattr(net, "counted_away", lambda m: {})  # not counted yet: the spell
    (carol,) = net._absent(mesh)
    assert round(carol.seconds) == 8


def test_the_line_about_a_pause_leaves_out_the_time_this_program_heard_nobody(monkeypatch):
    """Red team 22: alice's own link was cut 40 s (every other seat away at once: the table
    counts that against nobody); carol came back, bob a moment later. The table counts 5 s
    against bob, but the screen's line gave his whole spell, 45 s of at most 60 s, where 55 s
    were left. It gives the table's count; while every other seat is away it still says how
    long the spells have run ("you are cut off ... for")."""
    import time
    from types import SimpleNamespace

    now = time.monotonic()
    member = [SimpleNamespace(seat=s, fingerprint=f"FP{s}", name=n) for s, n in enumerate(NAMES)]
    mesh = SimpleNamespace(seat=0, seats=3, roster=member, away={1}, left=set(),
                           away_since={1: now - 45.0}, name_of=lambda s: NAMES[s])
    monkeypatch.setattr(net, "counted_away", lambda m: {1: 5.0} if m is mesh else {})
    (bob,) = net._absent(mesh)
    assert bob.seat == 1 and round(bob.seconds) == 5
    mesh.away, mesh.away_since = {1, 2}, {1: now - 45.0, 2: now - 44.0}
    monkeypatch.setattr(net, "counted_away", lambda m: {1: 0.2, 2: 0.1} if m is mesh else {})
    assert [round(a.seconds) for a in net._absent(mesh)] == [45, 44]


def test_the_top_line_says_the_deck_waits_for_the_player_away_not_that_it_deals():
    """ux23, walked: carol quit while the deck was opening a card, and the top line went on
    saying "the deck · 0:05 · dealing or turning cards over" under "The table is paused": every
    seat adds its share to an opened card, so nothing is dealt until she is back (or named)."""
    from p2pcards.engine import Reveal, Shuffle

    names = [*NAMES, "dave"]
    state = new_game("go-out-girl", 4, {"names": names})
    dealer = LocalDealer(3)
    while not isinstance(state.pending(), (Reveal, Shuffle)):
        state.apply(dealer.fulfil(state, state.pending()))
    gone = [Absent(2, "carol", "7KQW-M2XD", 6.0, left=True)]

    async def go():
        app = TableApp("go-out-girl", 0, None, names=names, title="Go Out Girl",
                       absent=lambda: gone, wait=20.0)
        async with app.run_test(size=(80, 24)) as pilot:
            app.show(state.view(0))
            await pilot.pause()
            top = app.texts["status"]
            assert top == "Go Out Girl · the deck · waits for carol (seat 3) · left 6 s", top
            assert "dealing" not in top and "shuffling" not in top
            gone.append(Absent(1, "bob", "BBBB-BBBB", 2.0))  # two away of three others
            app._tick()
            assert "waits for carol (seat 3) (and 1 more) · left 6 s" in app.texts["status"]
            gone.clear()  # back: the deck's own words again
            app._tick()
            assert "waits for" not in app.texts["status"]
            assert app.texts["status"].startswith("Go Out Girl · the deck · 0:0")
    asyncio.run(go())
