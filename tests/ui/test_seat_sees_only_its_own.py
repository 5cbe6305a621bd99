"""What a seat is shown is that seat's view and nothing more, attacked where a player meets it:

- ``replay FILE --seat N`` "shows the game as seat N saw it" and ``--spectator`` "only the public
  cards" (docs/playing.md, "Looking back"), though a local game's record holds every hand: at
  every step of the replay, of every game, the copy on screen must be exactly the seat's (or a
  spectator's) view of the true game at that moment -- not one card more;
- ``hint`` "is computed from one seat's view alone, never the full state" (docs/solver.md): the
  advisor a person asks at the table is handed a copy in which every card the seat has not seen
  is blank.

The test before these only checked that a seat sees its own hand in the replay, which a replay
showing every hand passes too.
"""

from __future__ import annotations

import asyncio
import io

import pytest

from p2pcards.engine import SPECTATOR, Decision
from p2pcards.games import new_game
from p2pcards.ui import saved
from p2pcards.ui.local import Quit, play_local

GAMES = [("go-out-girl", 3, 5), ("out-of-this-world", 3, 5), ("girl-and-robot", 4, 5)]


def blank_where_unseen(view, seat: int) -> list[int]:
    """The slots of ``view`` holding a card ``seat`` has not been shown (none, for a view)."""
    need = view.all_mask if seat == SPECTATOR else 1 << seat
    return [s for s, v in enumerate(view.values) if v is not None and view.known[s] & need != need]


@pytest.mark.parametrize("game, players, seed", GAMES, ids=[g for g, _, _ in GAMES])
def test_a_replay_as_a_seat_or_a_spectator_is_exactly_what_it_saw_at_every_step(home, game,
                                                                                   players, seed):
    play_local(game, players, players, seed, {}, out=io.StringIO(), save=True)
    (path,) = saved.find_local_games()
    g = saved.read(path)
    # the first seat, the last seat, and a spectator (each replay is a whole game's work)
    for seat in (0, players - 1, None):
        viewer = SPECTATOR if seat is None else seat
        frames = saved.frames(g, seat)
        truth = new_game(g.game, g.players, {**g.options, "names": g.names}, secrecy=g.secrecy)
        moments = [truth.view(viewer)]
        for ev in g.events:
            truth.apply(ev)
            if isinstance(ev, Decision) or truth.pending() is None:
                moments.append(truth.view(viewer))
        assert len(frames) == len(moments), (seat, len(frames), len(moments))
        for i, (frame, seen) in enumerate(zip(frames, moments, strict=True)):
            shown = frame.view
            assert blank_where_unseen(shown, viewer) == [], (seat, i, frame.label)
            assert shown.values == seen.values, (seat, i, frame.label)
            assert shown == seen, (seat, i, frame.label)  # and nothing else beside the cards
        # the replay really hides something: other seats' cards are blank in it
        assert any(v is None for v in frames[-1].view.values), seat


@pytest.mark.parametrize("game, players, seed", GAMES, ids=[g for g, _, _ in GAMES])
def test_a_hint_asked_at_the_plain_prompt_is_handed_the_seats_view_only(home, game, players,
                                                                         seed):
    handed = []

    def spy(view, legal):
        handed.append((view.viewer, blank_where_unseen(view, 0), len(legal)))
        return None

    answers = iter(["hint", "1"] * 15)

    def person(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:  # enough hints asked: input ends, the person leaves
            raise EOFError from None

    with pytest.raises(Quit):
        play_local(game, players, players - 1, seed, {}, inp=person, out=io.StringIO(),
                   hinter=spy)
    assert len(handed) >= 3, handed
    for viewer, peeked, _ in handed:
        assert viewer == 0 and peeked == [], (viewer, peeked)


def test_a_hint_asked_on_the_full_screen_table_is_handed_the_seats_view_only(home):
    from p2pcards.ui.app import TableApp
    from p2pcards.ui.session import LocalGame

    handed = []

    def spy(view, legal):
        handed.append((view.viewer, blank_where_unseen(view, 0)))
        return None

    async def go():
        lg = LocalGame("go-out-girl", 3, 2, 5, {})
        app = TableApp("go-out-girl", lg.seat, lg.run, names=lg.names, forced_delay=0.0,
                       hinter=spy)
        async with app.run_test(size=(140, 45)) as pilot:
            for _ in range(4):
                for _ in range(200):  # until it is this seat's turn
                    await pilot.pause()
                    if app.legal:
                        break
                assert app.legal
                await pilot.press("f2")
                await app.hint_worker.wait()
                await pilot.pause()
                await pilot.press("1", "enter")
            app.exit()
    asyncio.run(go())
    assert len(handed) == 4
    for viewer, peeked in handed:
        assert viewer == 0 and peeked == [], (viewer, peeked)
