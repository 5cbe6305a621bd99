"""The full-screen table (Textual): the other seats, the shared area, your hand, the log and chat,
the question being asked with its options, and a status line that always says whose turn it is.

The app does not run a game itself: a *driver* coroutine does (a local game against bots, a seat
at a networked table, or a replay) and calls ``show``, ``log``, ``ask`` and ``ask_order`` here.
Everything a person reads numbers seats from 1."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import Footer, Input, OptionList, Static

from ..engine import Action, Decide, GameState, Prove, Reveal, Shuffle
from . import arrange as arrange_ui
from .heap import HeapCare
from .hints import HintCare
from .notice import NoticeCare
from .present import (
    Entry,
    Option,
    Presenter,
    lookup,
    presenter_for,
    said_to,
    trigger,
    turn_line,
)
from .text import (
    DEALT_ALREADY,
    UNIT_SPACE,
    fit_cells,
    glued,
    printable,
    type_a_number,
    typed_number,
)
from .waiting import Absent, away_turn, clock, deck_waits, said_live, turn_away, waiting_text
from .widgets import (
    MIN_SIZE,
    NBSP,
    STEADY,
    Hanging,
    Left,
    TableLog,
    TableOptions,
    TextScreen,
    TooSmall,
    keep_together,
    too_small_text,
    wrap_spaces,
)

#: The most cells a name takes on the top line (one row at 80 columns and up): the rest of the
#: line says whose turn it is, and a long or fullwidth name must not push that off the row.
TOP_NAME = 20

HELP = """Playing at the table

  a number      pick that option (in a group, pick within it); Enter takes the highlighted one
  ↑ ↓           move the highlight; Enter on an empty line takes it; Esc goes back out of a group
  a form        type the move itself: 'play 4 4 4 as 6', 'equip 3 5 7', 'take 2', 'under 2'
  hint   (F2)   the solver's advice: the option is highlighted, with its plan and reason
  more   (F4)   the whole of a notice too long for its lines (a long hint), on a page
  rules  (F1)   how a turn goes in this game
  card NAME     a card's text, e.g. 'card Guard', 'card Provoke'
  say TEXT      chat (the game's table-talk rule applies; local games have no one to read it)
  who           the seats: who plays each (you, a bot; at a networked table, who is away)
                and whose turn it is
  status        the game in words, in the log: the table, scores and your hand
  quit  (^Q)    leave the game (Ctrl+C twice does the same)

Press Esc or q to close this page."""


Driver = Callable[["TableApp"], Awaitable[Any]]


class TableApp(NoticeCare, HintCare, HeapCare, App[Any]):
    TITLE = "p2pcards"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $accent; color: $text; padding: 0 1; }
    #top { height: 1fr; min-height: 3; }
    #table { width: 3fr; min-width: 30; }
    #seats { height: auto; padding: 0 1; }
    #shared { height: auto; padding: 0 1; color: $text-muted; }
    #right { width: 2fr; min-width: 24; border-left: vkey $primary; }
    #log { height: 1fr; padding: 0 1; }
    #talk { height: auto; max-height: 3; padding: 0 1; display: none; }
    #hand { height: auto; max-height: 3; padding: 0 1; border-top: hkey $primary; }
    #waiting { height: auto; max-height: 4; padding: 0 1; color: $warning; display: none; }
    #question { height: auto; max-height: 3; padding: 0 1; text-style: bold; }
    #notice { height: auto; padding: 0 1; color: $warning; }
    #options { height: auto; max-height: 25%; border: none; padding: 0 1; }
    #input { height: 1; min-height: 1; border: none; padding: 0 1; background: $boost; }
    """
    BINDINGS = [
        Binding("f1", "rules", "Rules"),
        Binding("f2", "hint", "Hint"),
        Binding("f3", "help", "Help"),
        Binding("f4", "more", "More", show=False),  # told on the notice when it is cut
        Binding("escape", "back", "Back", show=False),
        Binding("up", "move(-1)", "", show=False),
        Binding("down", "move(1)", "", show=False),
        Binding("ctrl+q", "quit_game", "Quit"),
        # not a priority: with text selected, the input or the screen copies it first
        Binding("ctrl+c", "interrupt", show=False),
    ]
    #: How to leave, for the notice of a terminal too small for the table.
    LEAVE_TEXT = "The game goes on meanwhile. Ctrl+Q leaves the table."
    #: What a first Ctrl+C says; a second one within ``CTRL_C_WINDOW`` seconds leaves.
    CTRL_C_TEXT = "Press Ctrl+C again to leave the table (or type quit)."
    CTRL_C_WINDOW = 5.0

    def __init__(self, game: str, seat: int | None, driver: Driver | None, *,
                 names: Sequence[str] = (), hinter: Callable[..., Any] | None = None,
                 chat: Callable[[str], Awaitable[str | None]] | None = None,
                 who: Callable[[], Sequence[str]] | None = None, forced_delay: float = 1.0,
                 pace: float = 0.0, title: str = "",
                 seat_tags: Callable[[], dict[int, str]] | None = None,
                 absent: Callable[[], Sequence[Absent]] | None = None,
                 wait: float | None = None) -> None:
        super().__init__()
        self.game = game
        self.seat = seat
        self.driver = driver
        self.names = list(names)
        self.presenter: Presenter = presenter_for(game)
        self.hinter = hinter
        self.chat = chat
        self.who = who
        self.forced_delay = forced_delay
        self.pace = pace
        self.seat_tags = seat_tags  # e.g. {2: "K7Q2-F2MX · away"}: fingerprints, presence
        self.absent = absent  # the seats a networked table waits for, and for how long
        self.wait = wait  # how long it waits for an absent player, then ends the match
        self.sub_title = title
        self.view: GameState | None = None
        self.legal: list[Action] = []
        self.entries: list[Entry] = []
        self.group: Entry | None = None  # the group opened in a second step
        self.hinted: Action | None = None
        self._hinting = False  # a hint is being worked out (``_hint``) by ``hint_worker``
        self.hint_worker: Any = None
        self._pending: asyncio.Future[Any] | None = None
        self._ordering: tuple[tuple[int, ...], Any] | None = None
        self._turn_since = time.monotonic()
        self._turn_key: Any = None
        self.last_other_line: str | None = None
        self.result: Any = None
        self._exit_when_done = False
        self.finished_text: str | None = None
        self.lines_seen: list[str] = []
        self.texts: dict[str, str] = {}
        self._shown_content: dict[str, Any] = {}
        self._lines_of: dict[str, tuple[int, int]] = {}
        self.live_view: Callable[[], GameState] | None = None  # the table's current view
        self._redraw_pending = False
        self._too_small: TooSmall | None = None  # the notice shown in place of the table
        self._ctrl_c_at: float | None = None  # when Ctrl+C was pressed, until it lapses
        self._question_said: str | None = None  # the notice ``question_notice`` put up
        self._order_help = ""  # how to type an order, while one is asked (``ask_order``)
        self._notice = Text()  # the notice as said, whole (``_set`` may show it cut)

    # ---- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        with Horizontal(id="top"):
            with VerticalScroll(id="table"):
                yield Static("", id="seats")
                yield Static("", id="shared")
            with Vertical(id="right"):
                yield TableLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=16)
                yield Static("", id="talk")
        yield Static("", id="hand")
        yield Static("", id="waiting")
        yield Static("", id="question")
        yield Static("", id="notice")
        yield TableOptions(id="options", markup=False)
        yield Input(placeholder=f"a number, a move ('{self.presenter.example}'), or: hint rules "
                                "card say help quit", id="input")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#input", Input).focus()
        self._fit()
        self.set_interval(1.0, self._tick)
        self.set_interval(60.0, self._settle_heap)  # a watcher, or a long wait for your turn
        if self.driver is not None:
            self.run_worker(self._drive(), exclusive=True, name="game")
        self._catch_signals()

    #: Signals that close the table as ``quit`` does: ``kill``, a terminal window closed (hang-up),
    #: an interrupt sent from elsewhere (Ctrl+C typed here is a key, see ``action_ctrl_c``).
    #: Without this a terminal was left in the table's screen mode and a local game read as
    #: "unfinished".
    LEAVE_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def _catch_signals(self) -> None:
        loop = asyncio.get_running_loop()
        self._signals_caught = []
        for sig in self.LEAVE_SIGNALS:
            # not in the main thread (some test runners), or a loop without signal support
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.action_quit_game)
                self._signals_caught.append(sig)

    def _release_signals(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in getattr(self, "_signals_caught", ()):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)
        self._signals_caught = []

    def on_resize(self, event: events.Resize) -> None:
        self.call_later(self._fit)

    @property
    def too_small(self) -> bool:
        """Whether the terminal is smaller than the table needs (``MIN_SIZE``)."""
        return self.size.width < MIN_SIZE[0] or self.size.height < MIN_SIZE[1]

    def _fit(self) -> None:
        """Show the notice in place of the table when the terminal is too small for it, and the
        table again once it is large enough."""
        if not self.is_running:
            return
        if self.too_small:
            if self._too_small is None:
                self._too_small = TooSmall(self.LEAVE_TEXT)
                self._too_small.say(status=self.texts.get("status", ""))
                self.push_screen(self._too_small)
            self._too_small.say(too_small_text(*self.size))
        elif self._too_small is not None:
            tiny, self._too_small = self._too_small, None
            if self.screen is tiny:
                self.pop_screen()
        if self._notice.plain:  # cut to the new height, or whole again
            with contextlib.suppress(NoMatches):
                self._set("notice", self._notice)

    def _page(self, text: str) -> None:
        """Open a page of text over the table (not over the notice of a terminal too small)."""
        if self._too_small is None:
            self.push_screen(TextScreen(text))

    def on_unmount(self) -> None:
        self._release_signals()
        self._release_gc()  # the refresh that would have released it may never come
        self._unfreeze_heap()  # back to the collector: another table may follow in this process

    async def _drive(self) -> None:
        assert self.driver is not None
        try:
            self.result = await self.driver(self)
            if self._exit_when_done:
                self.exit(self.result)
        except Left:
            self.exit(Left())
            return
        except Exception as exc:  # noqa: BLE001 -- shown and handed back to the command
            self.exit(exc)
            return

    # ---- what the driver calls -----------------------------------------------------------------
    def write_log(self, lines: str | Sequence[str]) -> None:
        if isinstance(lines, str):
            lines = [lines]
        self.hold_gc()
        shown = []
        for line in lines:
            line = printable(line)
            self.lines_seen.append(line)
            shown.append(self._log_text(line))
            if line.startswith("**") and self.finished_text is None and not (
                    self.absent is not None and said_live(line)):  # (after the end: the log)
                self.notice(line)
            me = self.names[self.seat] if self.seat is not None and \
                0 <= self.seat < len(self.names) else None
            self.last_other_line = trigger(line, me, self.last_other_line)
        self.query_one("#log", TableLog).add_lines(shown)

    def _mine(self, line: str) -> bool:
        me = self.names[self.seat] if self.seat is not None and 0 <= self.seat < len(self.names) \
            else None
        return bool(me) and line.startswith(f"{me} ")

    def _log_text(self, line: str) -> Text:
        style = "bold yellow" if line.startswith("**") else "bold" if self._mine(line) else ""
        return Text(line, style=style)

    def _rewrap(self) -> None:
        log = self.query_one("#log", TableLog)
        if log.size.width == getattr(self, "_log_width", None):
            return
        self._log_width = log.size.width
        log.clear()
        log.add_lines([self._log_text(line) for line in self.lines_seen[-2000:]])

    def show(self, view: GameState) -> None:
        """Redraw the table from this view."""
        self.hold_gc()
        self.view = view
        seat = self.seat if self.seat is not None and self.seat >= 0 else None
        try:
            lines = view.status(seat)
        except Exception:  # noqa: BLE001 -- a game that cannot describe itself yet (set-up)
            lines = ["Setting up the table..."]
        seats, shared = [], []
        for line in lines:
            if line.startswith("Your hand:"):
                continue
            (seats if line.startswith("  ") else shared).append(line)
        seat_text = Text()
        req = view.pending()
        tags = self.seat_tags() if self.seat_tags is not None else {}
        for i, line in enumerate(seats):
            if i:
                seat_text.append("\n")
            turn = line.endswith("←")
            style = "bold reverse" if turn else ("bold" if "(you)" in line else "")
            seat_text.append(keep_together(line.strip()), style=style)
            if tags.get(i):
                seat_text.append(f" [{tags[i]}]", style="yellow" if "away" in tags[i] or
                                 "left" in tags[i] else "dim")
        talk = None
        if self.chat is not None and seat is not None:
            try:
                talk = self.presenter.table_talk(view, seat)
            except Exception:  # noqa: BLE001 -- a rule that cannot be read yet: say nothing
                talk = None
        self._set("talk", Text(f"Chat: {talk}" if talk else "Chat: open — type 'say ...'",
                               style="dim") if self.chat is not None else "")
        self.query_one("#talk").display = self.chat is not None
        self._set("seats", seat_text)
        self._set("shared", Text("\n".join(keep_together(x) for x in shared)))
        if seat is not None:
            hand = Text("Your hand: ", style="bold")
            hand.append_text(self.presenter.hand(view, seat))
            self._set("hand", hand)
        else:
            self._set("hand", Text("Watching: every seat's hand is hidden",
                                                        style="dim"))
        key = (type(req).__name__, getattr(req, "player", getattr(req, "by", None))) \
            if req else None
        if key != self._turn_key:
            self._turn_key = key
            self._turn_since = time.monotonic()
        self._tick()

    async def redrawn(self, timeout: float = 0.5) -> None:
        """Return once the screen has been refreshed with what was just shown (or after
        ``timeout`` seconds, if it is not refreshing)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.call_after_refresh(lambda: done.done() or done.set_result(None))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done, timeout)

    def redraw_soon(self) -> None:
        """Redraw from ``live_view`` once the current burst of table events is written."""
        if self.live_view is None or self._redraw_pending:
            return
        self._redraw_pending = True

        def redraw() -> None:
            self._redraw_pending = False
            if self.live_view is not None:
                self.show(self.live_view())

        self.call_later(redraw)

    def _tick(self) -> None:
        with contextlib.suppress(NoMatches):  # the screen is closing: no status line to update
            self._tick_status()

    def _tick_status(self) -> None:
        view = self.view
        away = {a.seat: a for a in self.absent()} if self.absent is not None and \
            self.finished_text is None else {}
        said = waiting_text(list(away.values()), seats=len(self.names), me=self.seat,
                            wait=self.wait)
        if said.startswith("You are cut off"):  # it is not they who are away: no one is named
            away = {}
        if said or self.texts.get("waiting"):  # live: the table's reminders are 15 s apart
            self._set("waiting", Text(said))
            self.query_one("#waiting").display = bool(said)
        if self.finished_text is not None:
            self._set("status", Text(f"Game over · {self.finished_text}"))  # (or stopped: why)
            return
        if view is None:
            return
        req = view.pending()
        secs = int(time.monotonic() - self._turn_since)
        clock = f"{secs // 60}:{secs % 60:02d}"
        if req is None:
            text = "Game over"
        elif isinstance(req, Decide):
            if req.player == self.seat:
                text = f"Your turn · {clock} · you are deciding"
            else:
                name = fit_cells(view.pname(req.player), TOP_NAME)  # the line is one row
                text = f"{name}'s turn (seat {req.player + 1}) · " + (
                    turn_away(away[req.player]) if req.player in away else
                    f"{clock} · {self.presenter.deciding(view, req.player)}")
        elif isinstance(req, Prove) and not away:
            name = fit_cells(view.pname(req.by), TOP_NAME)
            text = f"the deck · {clock} · {name} proves a claim about a hidden card"
        elif isinstance(req, Shuffle) and req.by is not None and not req.mix:
            # a player puts cards in an order of their choice (privately): a person may be
            # thinking here, as on a turn, and the deck waits for them
            if req.by == self.seat:
                text = f"Your turn · {clock} · you are putting cards in order"
            else:
                name = fit_cells(view.pname(req.by), TOP_NAME)
                text = f"{name}'s turn (seat {req.by + 1}) · " + (
                    turn_away(away[req.by]) if req.by in away else
                    f"{clock} · putting cards in order, privately")
        elif away:  # the deck needs every seat's share: it is not dealing, it waits (ux23)
            text = deck_waits(list(away.values()))
        elif isinstance(req, Shuffle):
            text = f"the deck · {clock} · shuffling"
        elif isinstance(req, Reveal):
            text = f"the deck · {clock} · dealing or turning cards over"
        else:
            text = f"the deck · {clock} · drawing at random"
        if self.sub_title:
            text = f"{self.sub_title} · {text}"
        self._set("status", Text(text))

    def _set(self, wid: str, content: Text | str) -> None:
        """Update a panel, keeping its plain text (what tests and the bench compare)."""
        widget = self.query_one(f"#{wid}", Static)
        width = widget.content_region.width
        if wid == "notice":  # (hidden while empty: its width is the screen's, less its padding)
            width = self.size.width - 2
        if self._shown_content.get(wid) == (content, width, self.size.height):
            return  # unchanged: no repaint, no new layout
        self._shown_content[wid] = (content, width, self.size.height)
        # the plain text as said, not as wrapped to the panel (what tests and the bench compare)
        self.texts[wid] = (content.plain if isinstance(content, Text) else str(content)
                           ).replace(NBSP, " ")
        if wid == "notice" and isinstance(content, Text) and width > 0:
            content = self._notice_cut(content, width)
        elif isinstance(content, Text) and width > 0 and (
                NBSP in content.plain or UNIT_SPACE.search(content.plain)):
            # wrapped here, where a no-break space holds its words together (Textual's own
            # wrapping breaks at any white space), and a number its unit ("3 s")
            content = content.copy()
            content.plain = wrap_spaces(glued(content.plain, NBSP), width).replace(NBSP, " ")
        if wid == "status" and self._too_small is not None:
            self._too_small.say(status=self.texts[wid])
        # a panel whose height (wrapped to its width) stays the same needs no new layout
        text = content if isinstance(content, Text) else Text(str(content))
        height = len(text.wrap(self.console, width)) if width > 0 else -1
        known = self._lines_of.get(wid)
        if wid in STEADY and width > 0 and known is not None and known[0] == width \
                and height <= known[1]:  # shorter or the same: blank lines keep its height
            widget.update(content, layout=False)
            return
        if wid in STEADY and width > 0:
            widget.styles.min_height = height  # the tallest at this width, kept from now on
        self._lines_of[wid] = (width, height)
        widget.update(content, layout=not (width > 0 and known == (width, height)))

    async def ask(self, view: GameState, legal: list[Action]) -> Action:
        """The person's choice among ``legal`` (structured, typed, or forced)."""
        self.show(view)
        self.legal = legal
        self.hinted = None
        self.group = None
        self.entries = self.presenter.entries(view, legal)
        q = self.presenter.question(view, self.seat or 0, legal, self.last_other_line)
        self._set("question", Text(q))
        self.notice("")
        self._render_options()
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending = fut
        self.call_after_refresh(self._settle_heap)
        timer = None
        if len(legal) == 1:
            only = self.presenter.option_text(view, legal[0])
            if self.forced_delay >= 0:
                self.question_notice(f"Only one choice: {only} — taken in {self.forced_delay:g} s "
                                     "(or press Enter).")
                timer = self.set_timer(max(self.forced_delay, 0.001), lambda: self._take(legal[0]))
            else:  # a networked table: how fast it comes would tell the others it was the only one
                self.question_notice(f"Only one choice: {only} — press Enter to take it.")
        try:
            return await fut
        finally:
            if timer is not None:
                timer.stop()
            self._pending = None
            self.legal = []
            self.entries = []
            self.group = None
            self.query_one("#options", OptionList).clear_options()
            self._set("question", "")
            if self._question_said is not None and self.texts.get("notice") == self._question_said:
                self.notice("")
            self._question_said = None

    async def ask_order(self, view: GameState, slots: tuple[int, ...], prompt: str) -> list[int]:
        self.show(view)
        lines = arrange_ui.question(view, slots, prompt)
        self._set("question", Text(lines[0]))
        self._order_help = "\n".join(lines[1:])
        self.notice(self._order_help)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._ordering = (slots, fut)
        try:
            return await fut
        finally:
            self._ordering = None
            self._set("question", "")
            self.notice("")

    def finish(self, text: str, *, stopped: bool = False) -> None:
        """The match is over: ``text`` is its result, or (``stopped``) why the table stopped.
        Either stays on screen, the table as it last stood, until the person leaves."""
        self.finished_text = text
        self.legal, self.entries, self.group = [], [], None  # a question the stop cut short
        with contextlib.suppress(NoMatches):  # the question area says it now, not twice
            self.notice("")
        with contextlib.suppress(NoMatches):
            self._render_options()
        if stopped:
            if not any(text in line for line in self.lines_seen[-3:]):  # (said by the table?)
                self.write_log([f"** {text}"])
            # "Game over" and "Nothing more is played" left a newcomer asking who had won (ux23)
            # (the options and the notice are gone: room for a reason of several rows, and the
            # way out under it, which a three-row question cut off)
            self.query_one("#question").styles.max_height = 8
            self._set("question", Text(f"{text[:1].upper()}{text[1:]}\nNothing more is played "
                                       "at this table: the match ends here, with no winner. "
                                       "Press Ctrl+Q (or type quit) to leave.",
                                       style="bold red"))
        else:
            self.write_log([f"Result: {text}"])
            self._set("question",
                Text("The game is over. Press Ctrl+Q (or type quit) to leave.", style="bold"))
        self._tick()

    async def wait_for_quit(self) -> None:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending = fut
        await fut

    # ---- options ------------------------------------------------------------------------------
    def _shown(self) -> list[Entry]:
        if self.group is not None:
            return [Entry(o.text, [o]) for o in self.group.options]
        return self.entries

    def _render_options(self) -> None:
        ol = self.query_one("#options", OptionList)
        rows = []
        for i, e in enumerate(self._shown(), 1):
            label = e.label if e.single else f"{e.label} — {len(e.options)} ways ›"
            hinted = self.hinted is not None and any(o.action == self.hinted for o in e.options)
            t = Text(label, style="bold green reverse" if hinted else "")
            if hinted:
                t.append("  ◀ hint", style="bold green")
            rows.append(Hanging(Text(f"{i:>2}. ", style="dim"), t))
        if rows:
            ol.set_options(rows)  # one layout for the new list, not one to clear and one to fill
        else:
            ol.clear_options()
        if rows:
            ol.highlighted = next((i for i, e in enumerate(self._shown()) if self.hinted is not None
                                   and any(o.action == self.hinted for o in e.options)), 0)
        if self.group is not None:
            self._set("question",
                Text(f"{self.group.label}: which one? (Esc goes back)"))

    def _pick(self, n: int) -> None:
        shown = self._shown()
        if not 1 <= n <= len(shown):
            self.question_notice(f"Not a choice: {type_a_number(len(shown))}.")
            return
        e = shown[n - 1]
        if e.single:
            self._take(e.options[0].action)
        else:
            self.group = e
            self._render_options()

    def _take(self, action: Action) -> None:
        if self._pending is not None and not self._pending.done() and action in self.legal:
            self._pending.set_result(action)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self._pending is not None and self.legal:
            self._pick(event.option_index + 1)
        self.query_one("#input", Input).focus()

    def action_move(self, d: int) -> None:
        ol = self.query_one("#options", OptionList)
        if ol.option_count:
            ol.highlighted = ((ol.highlighted or 0) + d) % ol.option_count

    def action_back(self) -> None:
        if self.group is not None:
            self.group = None
            self._render_options()
            q = self.presenter.question(self.view, self.seat or 0, self.legal,  # type: ignore[arg-type]
                                        self.last_other_line) if self.view else ""
            self._set("question", Text(q))

    # ---- typed input --------------------------------------------------------------------------
    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        await self.handle(text)

    async def handle(self, text: str) -> None:
        """One line typed at the table."""
        self._ctrl_c_at = None  # something else was done: a later Ctrl+C asks again
        if self._ordering is not None and (text[:1].isdigit() or not text):
            slots, fut = self._ordering
            answer = arrange_ui.parse(text, slots)
            if isinstance(answer, list):
                fut.set_result(answer)
            else:
                self.notice(f"Not an order: {answer}")
            return
        word, _, rest = text.partition(" ")
        word = word.lower()
        asking = self._pending is not None and bool(self.legal)
        if not text:
            if asking:
                ol = self.query_one("#options", OptionList)
                self._pick((ol.highlighted or 0) + 1)
            elif self._pending is not None and self.finished_text is not None:
                pass
            return
        if (n := typed_number(word)) is not None and not rest:
            if asking:
                self._pick(n)
            else:
                self.notice("It is not your turn to choose.")
        elif word in ("help", "?"):
            self.action_help()
        elif word == "rules":
            self.action_rules()
        elif word == "card":
            self._page(lookup(self.presenter, rest))
        elif word == "hint":
            self.action_hint()
        elif word == "more":
            self.action_more()
        elif word == "say":
            await self._say(rest.strip())
        elif word == "who":
            lines = list(self.who()) if self.who else [
                f"  seat {i + 1}: {n}{' (you)' if i == self.seat else ''}"
                for i, n in enumerate(self.names)]
            absent = list(self.absent()) if self.absent is not None else []
            if self.view is not None:
                lines.append(away_turn(self.view, absent) or turn_line(self.view, self.seat))
            if absent and self.finished_text is None:
                lines.append(waiting_text(absent, seats=len(self.names), me=self.seat,
                                          wait=self.wait))
            self.write_log(lines)
        elif word == "status":
            if self.view is not None:
                self.write_log(self.view.status(self.seat))
        elif word in ("back",):
            self.action_back()
        elif word in ("quit", "exit"):
            self.action_quit_game()
        elif word in ("deal", "start") and not asking:  # (asking: a card's name may match)
            self.notice(DEALT_ALREADY)
        elif asking and self.view is not None:
            found = self.presenter.match(self.view, self.legal, text)
            if len(found) == 1:
                self._take(found[0].action)
            elif found:
                self.group = Entry(f"{len(found)} options match '{text}'", found)
                self._render_options()
            else:
                self.question_notice(f"No option matches '{text}'; "
                            f"{type_a_number(len(self._shown()))}, or 'help'.")
        else:
            self.notice(f"Unknown command {word!r}; type 'help'.")

    async def _say(self, text: str) -> None:
        if not text:
            self.notice("say what? e.g. 'say I need a Toy card'")
            return
        if self.chat is None:
            self.notice("Nobody reads chat in a local game: the bots play on.")
            return
        refusal = await self.chat(text)
        if refusal:
            self.notice(f"Not sent: {refusal}")
        else:
            view = self.live_view() if self.live_view is not None else self.view
            self.write_log([f"{said_to(view, self.seat)}: {text}"])

    # ---- actions ------------------------------------------------------------------------------
    def action_help(self) -> None:
        self._page(HELP)

    def action_rules(self) -> None:
        self._page(self.presenter.rules())

    def action_interrupt(self) -> None:
        """Ctrl+C. A terminal program's reflex, but the table runs in raw mode: it reaches here
        as a key (Textual's own binding only suggests another key, and the input's copy takes it
        when text is selected). The first press says how to leave; a second within
        ``CTRL_C_WINDOW`` seconds leaves exactly as ``quit`` does."""
        now = time.monotonic()
        if self._ctrl_c_at is not None and now - self._ctrl_c_at <= self.CTRL_C_WINDOW:
            self._ctrl_c_at = None
            self.action_quit_game()
            return
        self._ctrl_c_at = now
        again = self.CTRL_C_TEXT
        if self.wait is not None and self.finished_text is None:  # a match: what leaving means
            again = f"{again[:-1]}: your seat is kept, and the others wait for you at most " \
                    f"{clock(self.wait)}, then end the match, naming you."
        if self.screen is self.default_screen:
            self.notice(again)
        else:  # a page or the small-terminal notice covers the table's notice line
            self.notify(again, timeout=self.CTRL_C_WINDOW)
        self.set_timer(self.CTRL_C_WINDOW, lambda at=now: self._ctrl_c_lapsed(at))

    def _ctrl_c_lapsed(self, at: float) -> None:
        if self._ctrl_c_at == at:  # not pressed again since, nor used
            self._ctrl_c_at = None
        if self._ctrl_c_at is None and self.texts.get("notice", "").startswith(
                self.CTRL_C_TEXT[:-1]):
            with contextlib.suppress(NoMatches):  # the table is closing
                self.notice("")

    def action_quit_game(self) -> None:
        if self.finished_text is not None:
            if self._pending is not None and not self._pending.done():  # the driver waits
                self._exit_when_done = True
                self._pending.set_result(None)
            else:
                self.exit(self.result)
            return
        self.exit(Left())


def option_rows(entries: Sequence[Entry]) -> list[str]:
    """The option list as plain lines (for tests and line mode)."""
    return [f"{i}. {e.label}" + ("" if e.single else f" — {len(e.options)} ways")
            for i, e in enumerate(entries, 1)]


__all__ = ["HELP", "Left", "Option", "TableApp", "TextScreen", "option_rows"]
