"""The solver's advice for the prompts: looked up once per game, and warmed in the background so
the first ``hint`` of a session is as quick as the others (importing OR-Tools takes about a
second). A failing advisor costs the hint, never the game: the player is told and plays on."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import logging
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..background import in_thread

if TYPE_CHECKING:
    from ..engine import Action, GameState


def hinter(game: str) -> Callable[..., Any] | None:
    try:
        from solver.hints import hinter_for
    except ImportError:
        return None
    h = hinter_for(game)
    if h is None:
        return None
    threading.Thread(target=_warm, daemon=True, name="warm-solver").start()

    def safe(view: Any, legal: Any) -> str | None:
        try:
            return h(view, legal)
        except Exception as e:  # noqa: BLE001 -- a solver bug must not end the game
            return failed(e)

    return safe


async def in_background(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a daemon thread of its own (``p2pcards.background``), awaited: the
    solver may think for seconds, and the event loop (the screen, this seat's link to the
    table) must go on meanwhile."""
    return await in_thread(fn, *args, name="hint")


def _warm() -> None:
    with contextlib.suppress(ImportError):
        importlib.import_module("ortools.sat.python.cp_model")


def advisor(game: str) -> Callable[..., Any] | None:
    """Like ``hinter`` but answering with the solver's ``Advice`` (its action, text, plan and
    reason), so the screen can highlight the option; a failure is a one-line text."""
    try:
        from solver.hints import ADVISORS
    except ImportError:
        return None
    target = ADVISORS.get(game)
    if target is None:
        return None
    module = target.split(":")[0]
    threading.Thread(target=_warm, daemon=True, name="warm-solver").start()

    def safe(view: Any, legal: Any) -> Any:
        try:
            advise = importlib.import_module(module).advise
            if "deadline" in inspect.signature(advise).parameters:  # Go Out Girl samples
                return advise(view, legal, seed=0, deadline=0.17)
            return advise(view, legal, seed=0)
        except Exception as e:  # noqa: BLE001 -- a solver bug must not end the game
            return failed(e)

    return safe


def failed(e: Exception) -> str:
    """A solver bug, in one line for the player; its traceback goes to ``p2pcards.log`` for the
    report. "please report it" named nothing to report with and nowhere to find it (ux22)."""
    logging.getLogger("p2pcards.hint").error("the solver failed on a hint", exc_info=e)
    return (f"No hint this time: the solver failed on this position ({type(e).__name__}: {e}). "
            "Your game goes on; the details for a bug report are in p2pcards.log in the data "
            "folder.")


def hint_text(advice: Any, legal: Sequence[Any]) -> str:
    """The solver's advice in words, naming the option it recommends (the line prompts: the
    full-screen table highlights it)."""
    if advice is None:
        return "No hint for this position."
    if isinstance(advice, str):
        return advice
    text = advice.render()
    if advice.action in legal:
        text = f"Hint: option {list(legal).index(advice.action) + 1}, " + \
            text.removeprefix("Hint: ")
    return text


#: ``hint`` while you put cards in order (Manipulate): it said "Hints are given when it is your
#: turn to choose" on the screen, in place of how to type the order, while it was (ux21).
NO_ORDER_HINT = "No hint for an order of cards: the hints weigh choices among options, and this " \
    "order is yours to make."


class HintCare:
    """The full-screen table's ``hint`` (F2), mixed into the Textual app: the solver's advice is
    worked out in a thread, its option highlighted and numbered, its words on the notice line
    while the question it answers is open."""

    def action_hint(self) -> None:
        if getattr(self, "_ordering", None) is not None:  # the order's instructions stay
            self.notice(f"{NO_ORDER_HINT}\n{self._order_help}")
            return
        if not self.legal or self.view is None:
            self.notice("Hints are given when it is your turn to choose.")
            return
        if self.hinter is None:
            self.notice("No hint is available for this game.")
            return
        if self._hinting:
            self.question_notice("Still working out the hint...")
            return
        self._hinting = True
        self.question_notice("Working out a hint... (you may choose meanwhile)")
        # on a copy, in a thread: see ``_hint``
        self.hint_worker = self.run_worker(self._hint(self.view.clone(), self.legal),
                                           group="hint")

    async def _hint(self, view: GameState, legal: list[Action]) -> None:
        """The solver's advice, worked out in a thread of its own: with a big hand it may take
        up to about a second (a 46-card Out Of This World discard: 0.8 s of CPU within its work
        budget, 71 s before it had one), and the screen and this seat's link to the table must
        not stand still meanwhile. A program that answers nobody
        is shown away to the others, and its absences count toward the match's allowance
        (red team 16c). The advice is shown if the question is still open."""
        try:
            advice = await in_background(self.hinter, view, legal)
        finally:
            self._hinting = False
        if self.legal is not legal:  # answered meanwhile: the advice is for a question gone
            return
        if advice is None:
            self.question_notice("No hint for this position.")
            return
        text = advice if isinstance(advice, str) else advice.render()
        action = None if isinstance(advice, str) else advice.action
        if action is not None and action in self.legal:
            self.hinted = action
            where = self._where(action)
            if where:
                text = f"Option {where}: " + text.removeprefix("Hint: ")
            self._render_options()
        self.question_notice(text)

    def _where(self, action: Action) -> str:
        for i, e in enumerate(self._shown(), 1):
            for j, o in enumerate(e.options, 1):
                if o.action == action:
                    return str(i) if e.single else f"{i}, then {j}"
        return ""
