"""A local game on the full-screen table: one person against bots with the trusted in-process
dealer, driven step by step so the screen redraws after every move. The record is saved as it
goes (``ui/saved.py``)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

from ..bots.registry import make_bot
from ..engine import SPECTATOR, ConfigError, Decide, Decision, GameState, LocalDealer, project
from ..games import new_game
from .saved import Recorder

SLOW_LEVELS = ("normal", "strong")  # bots that think long enough to think in a thread


def seat_names(players: int, bots: int) -> list[str]:
    return ["Player"] + [f"Bot {i}" for i in range(1, players)] if bots < players else \
        [f"Bot {i + 1}" for i in range(players)]


def seat_lines(names: Sequence[str], you: int | None, bot_level: str) -> list[str]:
    """``who`` in a local game: each seat, who plays it (you at this terminal, or a bot)."""
    return [f"  seat {i + 1}: {name} " +
            ("(you, at this terminal)" if i == you else f"(a bot, {bot_level})")
            for i, name in enumerate(names)]


def check_seats(players: int, bots: int) -> None:
    if not 0 <= bots <= players:
        raise ConfigError(f"--bots must be between 0 and --players ({players}), not {bots}")
    if players - bots > 1:
        raise ConfigError("local play has one human seat; use 'p2pcards host' to play with "
                          "more people")


class LocalGame:
    """Everything a local game needs, made before the screen opens (so bad options fail as a
    one-line error on the terminal)."""

    def __init__(self, game: str, players: int, bots: int, seed: int | None, options: dict,
                 bot_level: str = "easy", *, save: bool = True, home: str | None = None) -> None:
        check_seats(players, bots)
        self.game = game
        self.rng = random.Random(seed)
        self.names = seat_names(players, bots)
        self.state: GameState = new_game(game, players, {**options, "names": self.names})
        self.agents: list[Any] = [make_bot(game, p, bot_level, self.rng.randrange(2**32))
                                  for p in range(players)]
        self.slow = bot_level in SLOW_LEVELS
        self.bot_level = bot_level
        self.seat: int | None = 0 if bots < players else None
        self.viewer = SPECTATOR if self.seat is None else self.seat
        self.watcher = self.state.view(self.viewer)
        self.watcher.narrate()
        self.dealer = LocalDealer(self.rng.randrange(2**32))
        # the card each move names, picked among the equivalent ones (GameState.disguise), so
        # the saved record does not tell where the rest of a hand lies: OS randomness, or the
        # seed's own stream when a seed makes the game repeatable
        self.disguise_rng: random.Random = random.SystemRandom() if seed is None else \
            random.Random(f"{seed}/disguise")
        self.recorder = Recorder(game, players, options, self.names, self.seat, home=home) \
            if save else None

    async def run(self, app: Any) -> GameState:
        """Play to the end on ``app`` (a ``TableApp``); returns the full final state."""
        state, watcher = self.state, self.watcher
        app.write_log(watcher.take_notes())
        app.show(watcher)
        try:
            for _ in range(1_000_000):
                req = state.pending()
                if req is None:
                    break
                if isinstance(req, Decide):
                    p = req.player
                    if p == self.seat:
                        action = await app.ask(watcher, watcher.legal(p))
                    else:
                        v = state.view(p)
                        legal = v.legal(p)
                        if self.slow:
                            action = await asyncio.to_thread(self.agents[p].decide, v, legal)
                        else:
                            action = self.agents[p].decide(v, legal)
                    ev = Decision(p, state.disguise(p, action, self.disguise_rng))
                    state.apply(ev)
                    watcher.apply(ev)
                else:
                    before = state.clone()
                    if getattr(req, "by", None) == self.seat and self.seat is not None:
                        prompt = watcher.arrangement_prompt(self.seat, req.slots)  # type: ignore[union-attr]
                        if prompt is not None:
                            order = await app.ask_order(watcher, req.slots, prompt)  # type: ignore[union-attr]
                            ev = self.dealer.fulfil(state, req, lambda by, slots, o=order: o)
                        else:
                            ev = self.dealer.fulfil(state, req)
                    else:
                        ev = self.dealer.fulfil(state, req, self._arrange)
                    state.apply(ev)
                    watcher.apply(project(ev, req, before, self.viewer))
                if self.recorder is not None:
                    self.recorder.event(ev)
                notes = watcher.take_notes()
                if notes:
                    app.write_log(notes)
                app.show(watcher)
                if notes and app.pace > 0 and isinstance(req, Decide) and req.player != self.seat:
                    await asyncio.sleep(app.pace)
                elif isinstance(req, Decide) and req.player == self.seat:
                    # the bots think in this event loop: your move is on screen before they do
                    await app.redrawn()
                else:
                    await asyncio.sleep(0)
        finally:
            if self.recorder is not None:
                if state.pending() is None:
                    self.recorder.finish(state)
                else:
                    self.recorder.close()
        app.finish(state.result_text())
        return state

    def who(self) -> list[str]:
        """The seats, for the table's ``who``."""
        return seat_lines(self.names, self.seat, self.bot_level)

    def _arrange(self, by: int, slots: tuple[int, ...]) -> list[int]:
        return list(self.agents[by].arrange(self.state.view(by), slots))
