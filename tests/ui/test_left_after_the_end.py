"""The known leftover of ux20: "** bob (seat 2, ...) left the table." came just before
"Result: ..." at the end of a match, on the plain prompt and on the full-screen table: every
program leaves once the match is over, and a player leaving then is no news. A player leaving
while the match is on is still said, as always."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from p2pcards import net
from p2pcards.bots.registry import make_bot
from p2pcards.engine.dealer import LocalDealer, play
from p2pcards.games import new_game
from p2pcards.ui import netscreen
from p2pcards.ui.app import TableApp

LEFT = "** bob (seat 2, RQ1W-X2AT) left the table."


def views():
    """bob's seat's view of a two-player Go Out Girl at its first question, and at its end."""
    s = new_game("go-out-girl", 2, {"names": ["alice", "bob"]})
    live = s.view(1)
    start = None

    def step(state, event):
        nonlocal start
        if start is None and live.pending() is not None and live.legal(1):
            start = live.clone()
    play(s, [make_bot("go-out-girl", p, "random", p) for p in range(2)], LocalDealer(1),
         copies={1: live}, on_step=step)
    assert live.pending() is None and start is not None
    return start, live


def test_at_the_plain_prompt_a_player_leaving_after_the_last_move_is_not_said(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(net, "say", said.append)
    start, end = views()
    player = SimpleNamespace(live=lambda: start, heard=lambda line: None)
    told = net._table_lines(SimpleNamespace(stopped=None), player)
    told(LEFT)  # mid-match: news
    player.live = lambda: end
    told("alice wins the match after 5 battles")
    told(LEFT)
    told("** carol (seat 3, X) is back.")
    told("alice (seat 1): gg")
    assert said == [LEFT, "alice wins the match after 5 battles", "alice (seat 1): gg"]


def test_on_the_screen_a_player_leaving_after_the_last_move_is_not_in_the_log(monkeypatch):
    start, end = views()
    apps: list[TableApp] = []
    real_run = TableApp.run_async

    def headless(self, *a, **kw):
        apps.append(self)
        return real_run(self, *a, headless=True, size=(120, 40))
    monkeypatch.setattr(TableApp, "run_async", headless)
    table = SimpleNamespace(state=start, send_chat=None, on_change=None)

    async def run_seat(player, *, say, on_table):
        on_table(table)
        say(LEFT)  # mid-match
        table.state = end
        say(LEFT)  # after the last move, as the programs end
        return SimpleNamespace(text="alice wins the match", verdict=None)

    async def go():
        seat = asyncio.create_task(netscreen.play_on_screen(
            "go-out-girl", 1, ["alice", "bob"], run_seat, who=None, hinter=None))
        for _ in range(200):
            await asyncio.sleep(0.02)
            if apps and apps[0].finished_text is not None:
                break
        app = apps[0]
        lines = list(app.lines_seen)
        app.action_quit_game()
        await asyncio.wait_for(seat, 5)
        return lines
    lines = asyncio.run(go())
    assert lines.count(LEFT) == 1
    assert lines[-1] == "Result: alice wins the match"
    assert LEFT not in lines[lines.index(LEFT) + 1:]


def test_the_end_of_a_match_says_where_it_is_kept_and_what_to_do_with_it(monkeypatch, tmp_path):
    """ux21: a match played to its end closed with "Result: ..." and "Audit: clean ...", and
    nothing said where it was kept or how to see it again; after a stop, the record was named.
    A person's program now names it, with 'p2pcards replay' and 'p2pcards audit'; a bot's does
    not."""
    said: list[str] = []
    monkeypatch.setattr(net, "say", said.append)
    path = tmp_path / "tables" / "abc.jsonl"
    mesh = SimpleNamespace(seats=2, name_of=["alice", "bob"].__getitem__, transcript_path=path)
    result = SimpleNamespace(text="alice wins the match", verdict=None)
    net._results(mesh, result)
    net._what_next(mesh)
    assert said == ["Result: alice wins the match",
                    f"Your record of this match is kept: 'p2pcards replay {path}' steps through it "
                    f"as you saw it, 'p2pcards audit {path}' re-checks every proof in it "
                    "('p2pcards tables' lists your games)."]
    said.clear()
    net._results(mesh, result)  # a bot's seat (botseat.py): no more
    assert said == ["Result: alice wins the match"]
