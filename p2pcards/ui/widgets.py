"""The full-screen table's parts (Textual): the log, the options list, the help and rules page,
the notice a terminal too small gets; ``app.TableApp`` puts them together."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.css.query import NoMatches
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.widgets import OptionList, RichLog, Static

from .text import wrap_units_kept

NBSP = "\u00a0"

#: Panels of the table that keep the tallest height they have had at the screen's width: a seat
#: or the shared area growing and shrinking by a line from move to move would otherwise move
#: everything under it, a new layout and a repaint of the whole screen after a peer's move.
STEADY = frozenset({"seats", "shared"})


def hanging_text(text: Text, width: int, console: Console) -> Text:
    """``text`` wrapped by words to ``width`` cells with every row after the first indented two
    cells past the entry's own indent: only a real entry of the log starts at its margin, so a
    chat line that runs past the width cannot put "carol left the table" or a forged "** ..."
    at the start of a row. A width too small to indent in is left to the log to wrap."""
    if width < 12:
        return text
    rows = []
    for part in text.split("\n"):
        plain = part.plain
        indent = min(len(plain) - len(plain.lstrip(" ")) + 2, width // 3)
        lines = wrap_units_kept(part, console, width - indent)  # "3 s" stays on one row
        rows.append(lines[0] if lines else part)
        for line in lines[1:]:
            rows.append(Text(" " * indent) + line)
    return Text("\n").join(rows)


class Hanging:
    """An option's row: its number, then its text wrapped under the text, not under the number
    (a long option's second row started at the list's margin, left of the numbers, as if it were
    an option of its own). A figure keeps its unit on its row. ``str()`` is the plain text."""

    def __init__(self, head: Text, body: Text) -> None:
        self.head, self.body = head, body

    def __str__(self) -> str:
        return self.head.plain + self.body.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        indent = cell_len(self.head.plain)
        if options.max_width < indent + 12:  # too narrow to indent in: the list wraps it
            yield self.head + self.body
            return
        rows = wrap_units_kept(self.body, console, options.max_width - indent)
        yield Text("\n").join([self.head + rows[0], *(Text(" " * indent) + r for r in rows[1:])])

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        width = cell_len(str(self))
        return Measurement(min(width, cell_len(self.head.plain) + 12), width)


def keep_together(line: str, longest: int = 28) -> str:
    """A status line whose short ``·``-separated parts wrap as units: ``Time ●●●●●●●● (8)`` or
    ``damage 0`` never split across two lines (long parts still wrap by word)."""
    parts = (p.replace(" ", NBSP) if len(p) <= longest else p for p in line.split(" · "))
    return f"{NBSP}· ".join(parts)  # a line may break after a '·', never before one


def wrap_spaces(text: str, width: int) -> str:
    """``text`` wrapped to ``width`` cells by turning ordinary spaces into newlines (the same
    length, so a styled text keeps its styles); no-break spaces hold words together."""
    out = list(text)
    start = 0
    for line in text.split("\n"):
        col, last_space = 0, None
        i = 0
        for word in line.split(" "):
            w = cell_len(word)
            if last_space is not None and col + 1 + w > width:
                out[start + last_space] = "\n"
                col = w
            else:
                col += (1 if last_space is not None else 0) + w
            i += len(word)
            last_space = i
            i += 1
        start += len(line) + 1
    return "".join(out)


class TextScreen(ModalScreen[None]):
    """A page of text (help, rules, a card) over the table; Esc or q closes it."""

    BINDINGS = [Binding("escape", "dismiss", "Close"), Binding("q", "dismiss", "Close"),
                # a modal screen hides the app's own bindings: leaving works here too
                Binding("ctrl+c", "interrupt", show=False),
                Binding("ctrl+q", "app.quit_game", "Quit", show=False)]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 96%; max-width: 110; height: auto; max-height: 95%;
                                  border: round $accent; padding: 0 1; background: $panel; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(self.text), id="page")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)

    def action_interrupt(self) -> None:
        if self.get_selected_text():  # Ctrl+C copies selected text, as on any Textual screen
            self.action_copy_text()
        else:
            self.app.action_interrupt()  # type: ignore[attr-defined]


#: The smallest terminal the table is laid out for (columns, rows). Below it, a notice says so in
#: place of a table with its top line or its input cut off; the table comes back when the window
#: is enlarged. (``docs/screens/go-out-girl-80x24.svg`` is the table at this size.)
MIN_SIZE = (80, 24)


class TooSmall(Screen[None]):
    """What a terminal smaller than ``MIN_SIZE`` shows instead of the table: its size, the size
    the table needs, and whose turn it is (the game goes on underneath)."""

    DEFAULT_CSS = """
    TooSmall { align: center middle; background: $background; }
    TooSmall > Static { width: 100%; height: auto; padding: 0 1; text-align: center; }
    """

    def __init__(self, leave: str) -> None:
        super().__init__()
        self.leave = leave
        self.size_text = ""
        self.status = ""

    def compose(self) -> ComposeResult:
        yield Static(self._text(), id="too-small")

    def _text(self) -> Text:
        text = Text(self.size_text, style="bold")
        if self.status:
            text.append(f"\n\n{self.status}")
        text.append(f"\n\n{self.leave}", style="dim")
        return text

    def say(self, size_text: str | None = None, status: str | None = None) -> None:
        if size_text is not None:
            self.size_text = size_text
        if status is not None:
            self.status = status
        with contextlib.suppress(NoMatches):  # not composed yet: compose shows it
            self.query_one("#too-small", Static).update(self._text())


def too_small_text(width: int, height: int) -> str:
    return (f"The terminal is {width}×{height}; the table needs at least "
            f"{MIN_SIZE[0]}×{MIN_SIZE[1]} — enlarge the window.")


class TableLog(RichLog):
    """The game's log. Lines are wrapped to the width when written, so a new width writes them
    again (a resized terminal never shows a word cut in two).

    A new line changes only the log's scrollable height, which needs no new layout of the
    screen: Textual's ``virtual_size`` asks for one (every widget arranged and the whole table
    repainted after every line), so here it repaints the log and its scrollbar only. The
    scrollbar showing or hiding still lays out the screen (``show_vertical_scrollbar``)."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    _line_style: Style | None = None

    def on_mount(self) -> None:
        # kept scrolled to the end when the log's height changes (your options appear or go)
        # until the person scrolls back; a new line scrolls to the end again
        self.anchor()

    def watch_virtual_size(self, size: Size) -> None:
        if self.is_mounted and self.container_size:
            self._scroll_update(size)
            self.refresh()

    def add_lines(self, lines: Sequence[Text]) -> None:
        """Write ``lines`` and scroll to the end in the same refresh (``RichLog`` scrolls after
        the next refresh, which paints the log twice for every line written)."""
        width = self.scrollable_content_region.width if self._size_known else 0
        for line in lines:
            self.write(hanging_text(line, width, self.app.console), scroll_end=False)
        if self.auto_scroll and lines:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def render_lines(self, crop: Region) -> list[Strip]:
        # the widget's style, worked out from its CSS once per paint rather than once per line
        self._line_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._line_style = None

    def render_line(self, y: int) -> Strip:
        style = self._line_style
        if style is None:
            return super().render_line(y)
        scroll_x, scroll_y = self.scroll_offset
        line = self._render_line(scroll_y + y, scroll_x, self.scrollable_content_region.width)
        return line.apply_style(style)

    def on_resize(self) -> None:
        self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        app = self.app
        try:
            app._rewrap()  # type: ignore[attr-defined]
            if app.view is not None:  # type: ignore[attr-defined]
                app.show(app.view)  # type: ignore[attr-defined]
        except NoMatches:  # the app is closing: nothing left to redraw
            pass


class TableOptions(OptionList):
    """The option list. Like the log, a new scrollable height repaints the list and its
    scrollbar without a second layout of the screen (the list's own height, from its options,
    is laid out once when they change)."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def watch_virtual_size(self, size: Size) -> None:
        if self.is_mounted and self.container_size:
            self._scroll_update(size)
            self.refresh()

    def clear_options(self) -> TableOptions:
        super().clear_options()
        self.refresh(layout=True)  # the list's height comes from its options: none now
        return self


class Left(Exception):
    """The person left the game (``quit``)."""

