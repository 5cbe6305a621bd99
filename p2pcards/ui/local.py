"""Local play: one human at this terminal (a plain prompt) against bots, with a trusted
in-process dealer. The human sees only their own seat's copy of the game."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from ..bots.registry import make_bot
from ..engine import SPECTATOR, Action, ConfigError, GameState, LocalDealer, RuleViolation, play
from ..games import new_game
from . import arrange as arrange_ui

HELP = """Type the number of an action to take it. Other commands:
  status  show the table again      hint  advice from the solver (where available)
  help    this text                 quit  leave the game"""


class Quit(Exception):
    """The human left the game."""


class PromptHuman:
    """A human at a plain text prompt. ``hinter(view, legal)`` gives advice text, if any."""

    needs_view = True

    def __init__(self, seat: int, *, inp: Callable[[str], str] = input, out: TextIO | None = None,
                 hinter: Callable[[GameState, list[Action]], str] | None = None) -> None:
        self.seat = seat
        self.input = inp
        self.out = out if out is not None else sys.stdout
        self.hinter = hinter
        self.rng = random.Random()

    def show(self, lines: Sequence[str]) -> None:
        for line in lines:
            print(line, file=self.out)

    def decide(self, view: GameState | None, legal: list[Action]) -> Action:
        assert view is not None
        self.show(view.take_notes())
        self.show(["", *view.status(self.seat), "Your options:"])
        self.show([f"  {i + 1:>2}. {view.describe(a)}" for i, a in enumerate(legal)])
        while True:
            try:
                text = self.input("> ").strip().lower()
            except EOFError:
                raise Quit() from None
            if text.isdigit() and 1 <= int(text) <= len(legal):
                action = legal[int(text) - 1]
                try:
                    view.check(self.seat, action)
                except RuleViolation as exc:  # cannot happen for a listed action; say so anyway
                    self.show([f"Not allowed: {exc.reason}"])
                    continue
                return action
            if text in ("help", "?"):
                self.show([HELP])
            elif text in ("status", "who"):
                self.show(view.status(self.seat))
            elif text == "hint":
                if self.hinter is None:
                    self.show(["No hint is available for this game yet."])
                else:
                    self.show([self.hinter(view, legal)])
            elif text in ("quit", "exit"):
                raise Quit()
            elif text:
                self.show([f"Not a choice: type a number from 1 to {len(legal)}, or 'help'."])

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
               out: TextIO | None = None, hinter=None) -> GameState:
    """Run a whole game in-process. With ``bots == players`` every seat is a bot and the public
    log is printed; otherwise seat 1 is the human at this prompt."""
    if not 0 <= bots <= players:
        raise ConfigError(f"--bots must be between 0 and --players ({players}), not {bots}")
    if players - bots > 1:
        raise ConfigError("local play has one human seat; use 'p2pcards host' to play with "
                          "more people")
    out = out if out is not None else sys.stdout
    rng = random.Random(seed)
    names = ["Player"] + [f"Bot {i}" for i in range(1, players)] if bots < players else \
        [f"Bot {i + 1}" for i in range(players)]
    state = new_game(game, players, {**options, "names": names})
    agents: list = [make_bot(game, p, bot_level, rng.randrange(2**32)) for p in range(players)]
    human = None
    if bots < players:
        human = PromptHuman(0, inp=inp, out=out, hinter=hinter)
        agents[0] = human
        watcher = state.view(0)
    else:
        watcher = state.view(SPECTATOR)
    watcher.narrate()

    def on_step(st: GameState, ev) -> None:
        if human is None:
            for line in watcher.take_notes():
                print(line, file=out)

    final = play(state, agents, LocalDealer(rng.randrange(2**32)), copies={watcher.viewer: watcher}
                 if human is not None else {SPECTATOR: watcher}, on_step=on_step)
    for line in watcher.take_notes():
        print(line, file=out)
    return final
