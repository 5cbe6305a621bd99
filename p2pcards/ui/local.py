"""Local play: one human at this terminal (a plain prompt) against bots, with a trusted
in-process dealer. The human sees only their own seat's copy of the game."""

from __future__ import annotations

import random
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from ..bots.registry import make_bot
from ..engine import SPECTATOR, Action, GameState, LocalDealer, RuleViolation, play
from ..games import new_game
from . import arrange as arrange_ui
from .hints import hint_text
from .present import Presenter, lookup, presenter_for, turn_line
from .text import type_a_number, typed_number, wrap_cells

COMMANDS = ("help", "?", "status", "who", "hint", "rules", "card", "say", "quit", "exit")



HELP = """Type the number of an action to take it, or the move itself ('play 5 5', 'take 2').
Other commands:
  status  the game: the table, scores and your hand (shown again)
  who     the seats: who plays each (you, a bot) and whose turn it is
  hint    advice from the solver (where available)
  rules   how a turn goes;  card NAME  a card's text
  help    this text;  quit  leave the game"""


def width() -> int:
    return max(40, min(shutil.get_terminal_size((100, 24)).columns, 160))


def wrap(line: str, cols: int | None = None) -> list[str]:
    """A line wrapped by word to the terminal (in cells), continuation lines indented under the
    text."""
    return wrap_cells(line, cols or width(), rest=2)


class Quit(Exception):
    """The human left the game."""


class PromptHuman:
    """A human at a plain text prompt. ``hinter(view, legal)`` gives advice text, if any."""

    needs_view = True

    def __init__(self, seat: int, *, inp: Callable[[str], str] = input, out: TextIO | None = None,
                 hinter: Callable[[GameState, list[Action]], str] | None = None,
                 who: Callable[[], Sequence[str]] | None = None) -> None:
        self.seat = seat
        self.who = who  # the seats' lines for 'who'
        self.input = inp
        self.out = out if out is not None else sys.stdout
        self.hinter = hinter
        self.rng = random.Random()

    def show(self, lines: Sequence[str]) -> None:
        for text in lines:
            for line in str(text).split("\n"):
                for part in wrap(line):
                    print(part, file=self.out)

    def decide(self, view: GameState | None, legal: list[Action]) -> Action:
        assert view is not None
        notes = view.take_notes()
        self.show(notes)
        question = self.presenter(view).question(view, self.seat, legal, notes[-1] if notes else None)
        self.show(["", *view.status(self.seat), question, "Your options:"])
        self.show([f"  {i + 1:>2}. {view.describe(a)}" for i, a in enumerate(legal)])
        while True:
            try:
                text = self.input("> ").strip().lower()
            except EOFError:
                raise Quit() from None
            action = None
            n = typed_number(text)
            if n is not None and 1 <= n <= len(legal):
                action = legal[n - 1]
            elif text and not text.isdigit() and text.split()[0] not in COMMANDS:
                found = self.presenter(view).match(view, legal, text)
                if len(found) == 1:
                    action = found[0].action
                elif found:
                    self.show([f"'{text}' could be any of {len(found)}: " + "; ".join(
                        f"{o.index + 1}. {o.text}" for o in found) + ". Type the number."])
                    continue
            if action is not None:
                try:
                    view.check(self.seat, action)
                except RuleViolation as exc:  # cannot happen for a listed action; say so anyway
                    self.show([f"Not allowed: {exc.reason}"])
                    continue
                return action
            if text in ("help", "?"):
                self.show([HELP])
            elif text == "status":
                self.show(view.status(self.seat))
            elif text == "who":
                self.show([*(self.who() if self.who is not None else []),
                           turn_line(view, self.seat)])
            elif text == "hint":
                if self.hinter is None:
                    self.show(["No hint is available for this game yet."])
                else:
                    self.show([hint_text(self.hinter(view, legal), legal)])
            elif text == "rules":
                self.show([self.presenter(view).rules()])
            elif text.split()[0] == "card" if text else False:
                self.show([lookup(self.presenter(view), text[4:])])
            elif text.split()[0] == "say" if text else False:
                self.show(["Nobody reads chat in a local game: the bots play on."])
            elif text in ("quit", "exit"):
                raise Quit()
            elif text:
                self.show([f"Not a choice: {type_a_number(len(legal))}, a move such as "
                           f"'{' '.join(self.presenter(view).words(view, legal[0]))}', or 'help'."])

    def presenter(self, view: GameState) -> Presenter:
        return presenter_for(view.game)

    def arrange(self, view: GameState, slots: tuple[int, ...]) -> list[int]:
        prompt = view.arrangement_prompt(self.seat, slots)
        if prompt is None:
            order = list(slots)
            self.rng.shuffle(order)
            return order
        self.show(view.take_notes())
        self.show(arrange_ui.question(view, slots, prompt))
        while True:
            try:
                answer = arrange_ui.parse(self.input("order> "), slots)
            except EOFError:
                raise Quit() from None
            if isinstance(answer, list):
                return answer
            self.show([f"Not an order: {answer}"])


def play_local(game: str, players: int, bots: int, seed: int | None, options: dict,
               bot_level: str = "easy", *, inp: Callable[[str], str] = input,
               out: TextIO | None = None, hinter=None, save: bool = False) -> GameState:
    """Run a whole game in-process. With ``bots == players`` every seat is a bot and the public
    log is printed; otherwise seat 1 is the human at this prompt. ``save`` keeps the record in
    the data directory (``ui/saved.py``) for ``p2pcards tables`` and ``replay``."""
    from .saved import Recorder
    from .session import check_seats, seat_lines, seat_names

    check_seats(players, bots)
    out = out if out is not None else sys.stdout
    rng = random.Random(seed)
    names = seat_names(players, bots)
    state = new_game(game, players, {**options, "names": names})
    agents: list = [make_bot(game, p, bot_level, rng.randrange(2**32)) for p in range(players)]
    human = None
    if bots < players:
        human = PromptHuman(0, inp=inp, out=out, hinter=hinter,
                            who=lambda: seat_lines(names, 0, bot_level))
        agents[0] = human
        watcher = state.view(0)
    else:
        watcher = state.view(SPECTATOR)
    watcher.narrate()
    recorder = Recorder(game, players, options, names, 0 if human else None) if save else None

    def on_step(st: GameState, ev) -> None:
        if recorder is not None:
            recorder.event(ev)
        if human is None:
            for line in watcher.take_notes():
                for part in wrap(line):
                    print(part, file=out)

    try:
        final = play(state, agents, LocalDealer(rng.randrange(2**32)),
                     copies={watcher.viewer: watcher} if human is not None else {SPECTATOR: watcher},
                     on_step=on_step,
                     disguise=random.SystemRandom() if seed is None
                     else random.Random(f"{seed}/disguise"))
    except (Quit, KeyboardInterrupt) as exc:  # the command line says where the game is kept
        if recorder is not None and recorder.error is None:
            exc.saved = recorder.path  # type: ignore[union-attr]
        raise
    finally:
        if recorder is not None:
            if state.pending() is None:
                recorder.finish(state)
            else:
                recorder.close()
            if recorder.error is not None:
                print(recorder.error, file=out)
    for line in watcher.take_notes():
        for part in wrap(line):
            print(part, file=out)
    return final
