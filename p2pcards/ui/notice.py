"""The full-screen table's notice: the line under the hand that says what needs saying now (a
hint, the only choice, whom the table waits for). A notice longer than its share of the screen
shows its first rows and a last one telling how to read it all (F4 or ``more``), on a page."""

from __future__ import annotations

from rich.text import Text

from .text import GLUE
from .widgets import NBSP, hanging_text


class NoticeCare:
    """Mixed into the Textual app (it needs ``_set``, ``texts``, ``size``, ``console``,
    ``query_one`` and ``_page``)."""

    #: The last row of a notice cut to its share of the screen (``NOTICE_SHARE``): the rest was
    #: simply not shown, a quarter of The Girl and the Robot's hints at 80×24 (ux23).
    MORE_TEXT = "… more: press F4 (or type 'more') to read it all"
    #: The share of the screen's rows the notice may take before it is cut.
    NOTICE_SHARE = 0.28

    def notice(self, text: str) -> None:
        self._notice = Text(text)
        self._set("notice", self._notice)
        self.query_one("#notice").display = bool(text)

    @property
    def notice_rows(self) -> int:
        """The most rows the notice takes on this screen, its last one saying how to read more."""
        return max(2, int(self.size.height * self.NOTICE_SHARE))

    def _notice_cut(self, content: Text, width: int) -> Text:
        """The notice wrapped to ``width``, every row after a line's first indented under its
        text (a hint's "  Why: ..." runs on under "Why", not at the margin), and cut to
        ``notice_rows`` with a last row that says how to read it all."""
        text = content.copy()
        text.plain = text.plain.replace(NBSP, GLUE)  # held together, then an ordinary space
        rows = list(hanging_text(text, width, self.console).split("\n", allow_blank=True))
        if len(rows) > self.notice_rows:
            rows = [*rows[:self.notice_rows - 1], Text(self.MORE_TEXT, style="bold")]
        return Text("\n").join(rows)

    def question_notice(self, text: str) -> None:
        """A notice about the open question (its hint, its only choice, a number out of range):
        it goes when the question is answered. A hint left below the hand after its question
        was gone read as advice for the next thing on screen (ux21)."""
        self.notice(text)
        self._question_said = self.texts.get("notice")

    def action_more(self) -> None:
        """F4 or 'more': the whole notice on a page (a long hint is cut to the notice's rows)."""
        if self._notice.plain:
            self._page(f"{self._notice.plain}\n\nPress Esc or q to close this page.")
