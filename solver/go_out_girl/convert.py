"""Between the engine and the model: a full-information engine state (or a determinized view)
becomes a ``Battle``; engine actions and model actions map onto each other by card numbers."""

from __future__ import annotations

from collections import Counter

from p2pcards.engine import Action
from p2pcards.games.go_out_girl.game import Game

from .model import (
    AFTER_BARRIER,
    AFTER_DAMAGE,
    DAMAGE_PH,
    DISCARD_PH,
    GIVE,
    LEAD,
    TURN,
    Battle,
)

PHASES = {"turn": TURN, "lead": LEAD, "damage": DAMAGE_PH, "discard": DISCARD_PH, "give": GIVE}


def counts_of(game: Game, slots: list[int]) -> list[int]:
    c = [0] * 14
    for s in slots:
        v = game.values[s]
        if v is None:
            raise ValueError(f"slot {s} is unknown to this copy of the game")
        c[game.number(v)] += 1
    return c


def battle_from_game(game: Game) -> Battle:
    """The model of the battle in progress in a state where every battle card and every chosen
    character is known (the full state, or a determinized view). The state must be waiting for
    a decision in a battle phase."""
    req = game.req
    if req is None or req["type"] != "decide" or game.phase not in PHASES:
        raise ValueError(f"no battle decision is pending (phase {game.phase!r})")
    n = game.n_players
    b = Battle(n)
    for p in range(n):
        b.hands[p] = counts_of(game, game.hand(p))
        b.size[p] = len(game.hand(p))
        ch = game.own_character(p) if game.revealed[p] is None else game.revealed[p]
        if ch is None:
            chosen = game.zones[f"char{p}"]
            v = game.values[chosen[0]] if chosen else None
            if v is None:
                raise ValueError(f"seat {p}'s character is unknown to this copy of the game")
            ch = game.character_of_card(v)[1]
        b.char[p] = ch
        b.revealed[p] = game.revealed[p] is not None
    b.deck = [game.number(game.values[s]) for s in game.zones["deck"]]  # type: ignore[arg-type]
    if any(game.values[s] is None for s in game.zones["deck"]):
        raise ValueError("the deck is unknown to this copy of the game")
    b.discard = counts_of(game, game.zones["discard"])
    b.field = counts_of(game, game.zones["field"])
    b.alive = list(game.alive)
    b.damage = list(game.damage)
    t = game.top
    b.top = None if t is None else (t["number"], t["count"], t["damage"], t["owner"])
    b.turn = req["player"]
    b.phase = PHASES[game.phase]
    task = game.task
    if b.phase in (DAMAGE_PH, DISCARD_PH):
        assert task is not None
        b.left = task["left"]
        if task["then"] == "damage_laid":
            b.extra = task["kw"]["extra"]
            b.after = AFTER_DAMAGE
        else:
            b.extra = 0
            b.after = AFTER_BARRIER if task["then"] == "barrier_done" else AFTER_DAMAGE
    return b


def abstract(game: Game, a: Action) -> tuple:
    """The model action for an engine action of the player to move (whose cards this copy
    knows)."""
    k = a.kind
    if k == "play":
        c = Counter(game.number(game.values[s]) for s in a.slots)  # type: ignore[arg-type]
        return ("P", a.number, a.count, tuple(sorted(c.items())))
    if k == "reset":
        c = Counter(game.number(game.values[s]) for s in a.slots)  # type: ignore[arg-type]
        return ("X", c[2], c[3])
    if k in ("damage", "discard", "give"):
        return ({"damage": "D", "discard": "C", "give": "V"}[k],
                game.number(game.values[a.slot]))  # type: ignore[arg-type]
    simple = {"reveal": ("R",), "guard": ("G",), "pass": ("S",), "withdraw": ("W",),
              "barrier": ("B",), "keep": ("K",)}
    if k in simple:
        return simple[k]
    raise ValueError(f"no model action for {a!r}")


def action_map(game: Game, legal: list[Action]) -> dict[tuple, Action]:
    """Model action -> the engine action (from ``legal``) it stands for. Actions the model has
    no counterpart for (character choice) are left out."""
    out: dict[tuple, Action] = {}
    for a in legal:
        if a.kind == "character":
            continue
        out.setdefault(abstract(game, a), a)
    return out
