"""The interactive prompt for a networked table.

One input loop runs for the whole game, so you can chat, ask ``who`` or ``status`` while others
play; when the game asks you to decide, the options are listed and a number takes one. Table
events print above the prompt (prompt_toolkit's ``patch_stdout``). When standard input is not a
terminal, plain lines are read instead (scripts, tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from ..engine import Action, GameState
from . import arrange as arrange_ui
from .hints import NO_ORDER_HINT, hint_text, in_background
from .present import lookup, presenter_for, said_to, trigger, turn_line
from .text import DEALT_ALREADY, type_a_number, typed_number
from .waiting import Absent, away_turn, waiting_text

HELP = """Commands (any time):
  <number>     take that option (when it is your turn)
  say <text>   chat with the table (the game's table-talk rules apply)
  status       the table and your options       who    the players, who is away, whose turn
  hint         advice for your seat (solver)     help   this text
  rules        how a turn goes                  card NAME   a card's text
  quit         leave the table (run the same join command to come back)"""


class Left(Exception):
    """The player typed quit. ``wait``: how long the others wait for this seat to come back
    (a networked table's ``--wait``), for the line that says so."""

    def __init__(self, wait: float | None = None) -> None:
        super().__init__()
        self.wait = wait


async def stdin_lines() -> AsyncIterator[str]:
    """Lines from a non-terminal standard input, without blocking the event loop.

    A daemon thread reads them: a read blocked on an input that stays open (a pipe from a script
    that never closes it) must not keep the program from ending when the game is over, as a read
    in the event loop's executor did (``asyncio.run`` waits for the executor's threads)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def put(item: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody reads any more
            loop.call_soon_threadsafe(queue.put_nowait, item)

    def read() -> None:
        try:
            for line in iter(sys.stdin.readline, ""):
                put(line)
        except (OSError, ValueError):  # standard input closed or unreadable: input ends
            pass
        put(None)

    threading.Thread(target=read, name="stdin-lines", daemon=True).start()
    while (line := await queue.get()) is not None:
        yield line.rstrip("\n")


async def prompt_lines(message: str = "> ") -> AsyncIterator[str]:
    from prompt_toolkit import PromptSession

    session: PromptSession[str] = PromptSession()
    errors = 0
    while errors < 20:  # a terminal that keeps failing ends the input, not the program
        try:
            line = await session.prompt_async(message)
        except (EOFError, KeyboardInterrupt):
            return
        except Exception as exc:  # noqa: BLE001 -- a key sequence the line editor cannot read
            errors += 1
            print(f"(that input could not be read: {type(exc).__name__}; type it again)")
            continue
        errors = 0
        yield line


#: Under a question with one option: The Girl and the Robot asks everyone about every Action
#: card, and a player holding no Cancel Action typed "1" for each, Enter doing nothing (ux21).
ONLY_ONE = "     (the only option: Enter takes it)"


class TerminalPlayer:
    """A human seat at a networked table. ``chat(text)`` sends a line (returning a refusal
    reason or ``None``); ``who()`` returns lines about the players; ``hinter(view, legal)``
    returns advice text."""

    needs_view = True

    def __init__(self, seat: int, *, chat: Callable[[str], Awaitable[str | None]] | None = None,
                 who: Callable[[], Sequence[str]] | None = None,
                 hinter: Callable[[GameState, list[Action]], Any] | None = None,
                 lines: AsyncIterator[str] | None = None, out: Callable[[str], Any] = print,
                 absent: Callable[[], Sequence[Absent]] | None = None,
                 wait: float | None = None, seats: int = 0) -> None:
        self.seat = seat
        self.absent = absent  # the seats the table waits for (ui/waiting.py), and how long
        self.wait = wait
        self.seats = seats
        self.chat = chat
        self.who = who
        self.hinter = hinter
        self.out = out
        self.view: GameState | None = None
        self._lines = lines
        self._pending: asyncio.Future[Action] | None = None
        self._legal: list[Action] = []
        self._quit = asyncio.Event()
        self._arranging: tuple[asyncio.Future[list[int] | str], tuple[int, ...]] | None = None
        self.rng = random.Random()
        self.live: Callable[[], GameState] | None = None  # the table's current view, once seated
        self._hint_task: asyncio.Task[None] | None = None  # a hint being worked out
        #: the table's last line about another player ("bot2 plays Scout."): the question names
        #: it as what triggered it, as the full-screen table does (``heard``)
        self.last_other_line: str | None = None
        self.name: str | None = None  # this seat's name at the table, once known

    def heard(self, line: str) -> None:
        """A line of the table's, as it is printed: kept when it is about someone else."""
        self.last_other_line = trigger(line, self.name, self.last_other_line)

    def turn_line(self) -> str | None:
        """Whose turn it is, from the table's current view."""
        view = self.live() if self.live is not None else self.view
        if view is None:
            return None
        gone = away_turn(view, self.absent()) if self.absent is not None else None
        if gone is not None:  # not deciding: gone, and the table waits for them
            return gone
        return turn_line(view, self.seat,
                         yours=" — type a number from the options ('status' lists them again)",
                         theirs="; the table waits for them")

    def options_lines(self) -> list[str]:
        view = self.view
        if view is None or not self._legal:
            return []
        q = presenter_for(view.game).question(view, self.seat, self._legal, self.last_other_line)
        only = [ONLY_ONE] if len(self._legal) == 1 else []
        return [q, "Your options:"] + [f"  {i + 1:>2}. {view.describe(a)}"
                                       for i, a in enumerate(self._legal)] + only

    async def run_input(self) -> None:
        """The input loop; returns (and sets ``quit``) when the player leaves or input ends."""
        lines = self._lines
        if lines is None:
            lines = prompt_lines() if sys.stdin.isatty() else stdin_lines()
        async for raw in lines:
            text = raw.strip()
            if not text and self._arranging is None:  # Enter keeps an arrangement as it is
                if self._pending is not None and not self._pending.done() \
                        and len(self._legal) == 1:
                    text = "1"  # and takes a question's only option
                else:
                    continue
            try:
                await self.handle(text)
            except Left:
                break
        self._quit.set()
        if self._pending is not None and not self._pending.done():
            self._pending.set_exception(Left())

    @property
    def left(self) -> bool:
        return self._quit.is_set()

    async def handle(self, text: str) -> None:
        if self._arranging is not None and (text[:1].isdigit() or not text.strip()):
            fut, slots = self._arranging
            if not fut.done():
                fut.set_result(arrange_ui.parse(text, slots))
            return
        word, _, rest = text.partition(" ")
        word = word.lower()
        if (i := typed_number(word)) is not None:
            if self._pending is None or self._pending.done():
                self.out("It is not your turn to choose.")
                return
            if not 1 <= i <= len(self._legal):
                self.out(f"Not a choice: {type_a_number(len(self._legal))}.")
                return
            self._pending.set_result(self._legal[i - 1])
        elif word in ("help", "?"):
            self.out(HELP)
        elif word == "status":
            view = self.live() if self.live is not None else self.view
            if view is not None:
                for line in view.status(self.seat):
                    self.out(line)
            for line in self.options_lines():
                self.out(line)
        elif word == "who":
            for line in (self.who() if self.who else []):
                self.out(line)
            turn = self.turn_line()
            if turn:
                self.out(turn)
            paused = waiting_text(list(self.absent()), seats=self.seats, me=self.seat,
                                  wait=self.wait) if self.absent is not None else ""
            if paused:
                self.out(paused)
        elif word == "rules" and self.view is not None:
            self.out(presenter_for(self.view.game).rules())
        elif word == "card":
            game = (self.live() if self.live is not None else self.view)
            self.out(lookup(presenter_for(game.game), rest) if game is not None
                     else "Card texts are shown once the game has started.")
        elif word == "say":
            if not rest.strip():
                self.out("say what? e.g. 'say I need a Toy card'")
            elif self.chat is None:
                self.out("Chat is not available here.")
            else:
                refusal = await self.chat(rest.strip())
                if refusal:
                    self.out(f"Not sent: {refusal}")
                else:
                    game = self.live() if self.live is not None else self.view
                    self.out(f"{said_to(game, self.seat)}: {rest.strip()}")
        elif word == "hint":
            if self.hinter is not None and self.view is not None and self._legal:
                # on a copy, in a thread: it may take seconds, and this program must go on
                # answering the table meanwhile (see ui/app.py, TableApp._hint); the prompt
                # takes a choice meanwhile too
                self.out("(working out a hint...; you may choose meanwhile)")
                self._hint_task = asyncio.create_task(self._hint(self.view.clone(), self._legal))
            elif self._arranging is not None:
                self.out(NO_ORDER_HINT)
            else:
                self.out("No hint right now (hints are given when it is your turn).")
        elif word in ("quit", "exit"):
            raise Left()
        elif word in ("deal", "start"):
            self.out(DEALT_ALREADY)
        else:
            self.out(f"Unknown command {word!r}; type 'help'.")

    async def _hint(self, view: GameState, legal: list[Action]) -> None:
        advice = await in_background(self.hinter, view, list(legal))
        if self._legal is legal:  # the question is still open
            self.out(hint_text(advice, legal))

    async def decide(self, view: GameState, legal: list[Action]) -> Action:
        if self.left:
            raise Left()
        self.view = view
        self._legal = legal
        self.out("")
        for line in view.status(self.seat):
            self.out(line)
        for line in self.options_lines():
            self.out(line)
        self._pending = asyncio.get_running_loop().create_future()
        try:
            action = await self._pending
            self.out(f"You chose: {view.describe(action).rstrip('.')}. The table moves on ('who' says whose "
                     "turn it is).")
            return action
        finally:
            self._pending = None
            self._legal = []

    async def arrange(self, view: GameState, slots: tuple[int, ...]) -> list[int]:
        prompt = view.arrangement_prompt(self.seat, slots)
        if prompt is None:
            order = list(slots)
            self.rng.shuffle(order)
            return order
        for line in arrange_ui.question(view, slots, prompt):
            self.out(line)
        while True:
            self._arranging = (asyncio.get_running_loop().create_future(), slots)
            try:
                answer = await self._arranging[0]
            finally:
                self._arranging = None
            if isinstance(answer, list):
                return answer
            self.out(f"Not an order: {answer}")
