"""A seat at a networked table on the full-screen table: the table's narration and events (who
joined, who is away, chat) go to the log, the screen redraws whenever the table's state changes
(a deal, a card opened, a peer's move), and this seat's decisions are asked on screen."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from protocol.mesh import MeshError

from ..engine import Action, GameState
from ..table import TableStopped
from .app import Left, TableApp
from .waiting import Absent, comings_and_goings, over, recheck

WAIT_FOR_ENTER = -1.0  # ``TableApp``'s forced_delay at a networked table: no sole option by itself


class ScreenPlayer:
    """The person at this terminal, as the table's player."""

    needs_view = True

    def __init__(self, app: TableApp, seat: int) -> None:
        self.app = app
        self.seat = seat
        self.rng = random.Random()

    async def decide(self, view: GameState, legal: list[Action]) -> Action:
        return await self.app.ask(view, legal)

    async def arrange(self, view: GameState, slots: tuple[int, ...]) -> list[int]:
        prompt = view.arrangement_prompt(self.seat, slots)
        if prompt is None:
            order = list(slots)
            self.rng.shuffle(order)
            return order
        return await self.app.ask_order(view, slots, prompt)


async def play_on_screen(game: str, seat: int, names: Sequence[str], run_seat: Callable[..., Any],
                         *, who: Callable[[], Sequence[str]] | None, hinter: Any,
                         intro: Sequence[str] = (), title: str = "",
                         seat_tags: Callable[[], dict[int, str]] | None = None,
                         result_lines: Callable[[Any], Sequence[str]] = lambda r: [],
                         absent: Callable[[], Sequence[Absent]] | None = None,
                         wait: float | None = None, record: object = None) -> Any:
    """Run ``run_seat(player, say=..., on_table=...)`` (``lobby.play_seat`` bound to a mesh) with
    the screen as the seat's player; returns its result, or raises ``Left``. ``absent()``: the
    seats the table waits for (``ui/waiting.py``), ``wait``: how long it waits at most."""

    async def driver(app: TableApp) -> Any:
        def attach(table: Any) -> None:
            app.chat = table.send_chat
            app.live_view = lambda: table.state
            table.on_change = app.redraw_soon  # the deal's cards show without waiting for a line

        def say(line: str) -> None:
            if comings_and_goings(line) and app.live_view is not None and over(app.live_view()):
                return  # the match is over: someone leaving now is no news (before "Result:")
            app.write_log(line)
            app.redraw_soon()

        app.write_log(list(intro))
        try:
            result = await run_seat(ScreenPlayer(app, seat), say=say, on_table=attach)
        except (TableStopped, MeshError) as exc:  # a cheat caught, a seat gone for good, ...:
            # the screen stays, saying why, until the person leaves (it used to vanish at once,
            # the game's last moments and the reason with it); the command then says it again
            app.redraw_soon()
            app.finish(f"the table stopped: {exc.reason}" if isinstance(exc, TableStopped)
                       else str(exc) or type(exc).__name__, stopped=True)
            if record is not None and isinstance(exc, TableStopped):  # what now: re-check it
                app.write_log(recheck(record))
            await app.wait_for_quit()
            return exc
        app.redraw_soon()
        app.finish(result.text)
        app.write_log(list(result_lines(result)))
        await app.wait_for_quit()
        return result

    # A sole option is never taken by itself here: the others see how fast each answer comes,
    # and one taken after a second would tell them it was the only one (in The Girl and the
    # Robot, that this seat holds no Cancel Action: everyone is asked so that nobody can tell)
    app = TableApp(game, seat, driver, names=names, hinter=hinter, who=who, title=title,
                   seat_tags=seat_tags, absent=absent, wait=wait, forced_delay=WAIT_FOR_ENTER)
    result = await app.run_async()
    if isinstance(result, Left):
        raise result
    if isinstance(result, BaseException):
        raise result
    return result
