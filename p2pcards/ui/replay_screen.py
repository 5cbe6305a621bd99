"""``p2pcards replay``: a finished game stepped forward and back on the same screen as play, as
one seat saw it (or as a spectator). ← → step, Home/End jump, q leaves."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Input, RichLog

from .app import TableApp
from .saved import Frame, unfinished


class ReplayApp(TableApp):
    BINDINGS = [
        Binding("right", "step(1)", "Next", priority=True),
        Binding("left", "step(-1)", "Back", priority=True),
        Binding("pagedown", "step(10)", "+10", show=False, priority=True),
        Binding("pageup", "step(-10)", "-10", show=False, priority=True),
        Binding("home", "jump(0)", "Start", priority=True),
        Binding("end", "jump(-1)", "End", priority=True),
        Binding("f1", "rules", "Rules"),
        Binding("q", "quit_replay", "Quit"),
        Binding("ctrl+q", "quit_replay", "Quit", show=False),
    ]
    LEAVE_TEXT = "q leaves the replay."
    CTRL_C_TEXT = "Press Ctrl+C again to leave the replay (or press q)."

    def __init__(self, game: str, seat: int | None, frames: Sequence[Frame], *,
                 names: Sequence[str] = (), title: str = "") -> None:
        super().__init__(game, seat, None, names=names, title=title)
        self.frames = list(frames)
        self.at = 0

    def on_mount(self) -> None:
        self.query_one("#input", Input).display = False
        self.query_one("#options").display = False
        self.render_frame()

    def render_frame(self) -> None:
        f = self.frames[self.at]
        log = self.query_one("#log", RichLog)
        log.clear()
        self.lines_seen = []
        self.write_log(f.log)
        self.show(f.view)
        last = len(self.frames) - 1
        where = "the start" if self.at == 0 else f"after {f.label}'s move" \
            if f.label != "the end" else "the end"
        if self.at == last and unfinished(self.frames):
            where += "; the record stops here, the game unfinished"
        self._set("question", Text(
            f"Replay: step {self.at} of {last} ({where}) · ← → step · Home/End · q leaves",
            style="bold"))

    def _tick_status(self) -> None:  # (the table's ``_tick`` lets it go as the screen closes)
        view = self.view
        if view is None:
            return
        who = "as a spectator" if self.seat is None else f"as {self.names[self.seat]} saw it"
        req = view.pending()
        cut = " · unfinished record" if unfinished(self.frames) else ""
        turn = "game over" if req is None else (
            f"{view.pname(req.player)} to decide" if hasattr(req, "player") else "the deck")
        self._set("status", Text(f"Replay {who}{cut} · {turn}"))

    def action_step(self, d: int) -> None:
        self.at = max(0, min(len(self.frames) - 1, self.at + d))
        self.render_frame()

    def action_jump(self, i: int) -> None:
        self.at = len(self.frames) - 1 if i < 0 else i
        self.render_frame()

    def action_quit_replay(self) -> None:
        self.exit(None)

    def action_quit_game(self) -> None:  # a second Ctrl+C, Ctrl+Q over a page
        self.action_quit_replay()
