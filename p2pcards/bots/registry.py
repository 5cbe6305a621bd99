"""Which bot plays which game at which level."""

from __future__ import annotations

import importlib

from ..engine import ConfigError
from .base import Bot, RandomBot

LEVELS = ("random", "easy", "normal", "strong")

# game -> level -> "module:Class"; "easy" is the heuristic bot, "normal"/"strong" the solver's.
BOTS: dict[str, dict[str, str]] = {
    "go-out-girl": {"easy": "p2pcards.bots.go_out_girl:GoOutGirlBot",
                    "normal": "solver.go_out_girl.bots:NormalBot",
                    "strong": "solver.go_out_girl.bots:StrongBot"},
    "out-of-this-world": {"easy": "p2pcards.bots.out_of_this_world:OutOfThisWorldBot",
                          "normal": "solver.out_of_this_world.bots:NormalBot",
                          "strong": "solver.out_of_this_world.bots:StrongBot"},
    "girl-and-robot": {"easy": "p2pcards.bots.girl_and_robot:GirlAndRobotBot",
                       "normal": "solver.girl_and_robot.bots:NormalBot",
                       "strong": "solver.girl_and_robot.bots:StrongBot"},
}


def make_bot(game: str, seat: int, level: str = "easy", seed: int | None = None) -> Bot:
    if level not in LEVELS:
        raise ConfigError(f"unknown bot level {level!r}; choose one of: {', '.join(LEVELS)}")
    if level == "random":
        return RandomBot(seat, seed)
    table = BOTS.get(game, {})
    # fall back to the strongest available level below the one asked for
    for lvl in LEVELS[LEVELS.index(level)::-1]:
        if lvl in table:
            module, cls = table[lvl].split(":")
            return getattr(importlib.import_module(module), cls)(seat, seed)
    return RandomBot(seat, seed)
