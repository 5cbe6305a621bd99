"""The exact puzzle search agrees with an exhaustive minimax run on the engine itself (no
memoisation, no model: every legal action of every seat, cloned and applied) on small random
positions; and malformed positions get errors naming the field."""

from __future__ import annotations

import random

import pytest

from p2pcards.engine import Decide, LocalDealer, Shuffle
from p2pcards.engine.requests import Decision
from p2pcards.games.go_out_girl.data import CHARACTER_KEYS
from solver.errors import PositionError
from solver.go_out_girl.convert import battle_from_game
from solver.go_out_girl.exact import ExactSolver
from solver.go_out_girl.model import LIFE
from solver.go_out_girl.position import build, parse


class Reshuffle(Exception):
    pass


class Budget(Exception):
    pass


def engine_minimax(g, me: int, counter: list[int], limit: int, base: int | None = None) -> bool:
    dealer = LocalDealer(0)
    if base is None:
        base = len(g.battle_winners)
    while True:
        if len(g.battle_winners) > base:
            return g.battle_winners[-1] == me
        req = g.pending()
        if isinstance(req, Decide):
            break
        if isinstance(req, Shuffle):
            raise Reshuffle()
        g.apply(dealer.fulfil(g, req))
    if not g.alive[me]:
        return False
    counter[0] += 1
    if counter[0] > limit:
        raise Budget()
    p = req.player
    results = []
    for a in g.legal(p):
        c = g.clone()
        c.apply(Decision(p, a), trusted=True)
        r = engine_minimax(c, me, counter, limit, base)
        if p == me and r:
            return True
        if p != me and not r:
            return False
        results.append(r)
    return p != me


def random_position(rng: random.Random) -> dict:
    n = rng.choice([2, 2, 3])
    cards = [str(x) for x in range(1, 14) for _ in range(6)] + ["G"] * 8
    rng.shuffle(cards)
    seats = []
    for _ in range(n):
        ch = rng.randrange(8)
        k = rng.randint(1, 4)
        hand, cards = cards[:k], cards[k:]
        life = LIFE[ch]
        seats.append({"hand": hand, "character": CHARACTER_KEYS[ch],
                      "revealed": rng.random() < 0.5,
                      "damage": rng.randint(max(0, life - 4), life - 1)})
    to_move = rng.randrange(n)
    field = None
    if rng.random() < 0.5:
        owner = rng.choice([q for q in range(n) if q != to_move])
        num = rng.randint(1, 12)
        field = {"cards": [str(num)] * rng.choice([1, 1, 2]), "owner": owner}
        o = seats[owner]
        if o["revealed"] and o["character"] == "kyoko":
            field["count"] = len(field["cards"])
            field["cards"] = field["cards"][:1]
        if o["revealed"] and o["character"] in ("nerai", "toyoko"):
            o["revealed"] = False
    deck = [c for c in cards[:24] if all(c not in f.get("cards", []) for f in [field or {}])]
    return {"format": 1, "game": "go-out-girl", "seats": seats, "to_move": to_move,
            "field": field, "deck": deck[:18], "discard": []}


def test_exact_agrees_with_engine_minimax():
    rng = random.Random(2024)
    compared = wins = 0
    tries = 0
    while compared < 100 and tries < 600:
        tries += 1
        data = random_position(rng)
        try:
            pos = parse(data)
            g = build(pos)
        except PositionError:
            continue
        try:
            truth = engine_minimax(g.clone(), pos.to_move, [0], 4000)
        except (Reshuffle, Budget):
            continue
        root = battle_from_game(g)
        got = ExactSolver(root).solve()
        assert got.wins == truth, data
        if got.wins:
            # the principal line is a real game: replay it on the model to a win
            b = root.copy()
            b.exact = True
            for actor, a in got.line:
                assert b.actor() == actor and a in b.legal()
                b.apply(a)
            assert b.winner == pos.to_move
        compared += 1
        wins += got.wins
    assert compared >= 100
    assert 5 <= wins <= compared - 5, "the sample should hold both wins and losses"


BASE = {"format": 1, "game": "go-out-girl",
        "seats": [{"hand": ["9", "9"], "character": "nerai"},
                  {"hand": ["3"], "character": "kira", "damage": 1}],
        "to_move": 0}


def variant(path: str, value):
    import copy
    d = copy.deepcopy(BASE)
    node = d
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[int(k)] if k.isdigit() else node[k]
    last = keys[-1]
    if value is KeyError:
        del node[last]
    elif last.isdigit():
        node[int(last)] = value
    else:
        node[last] = value
    return d


@pytest.mark.parametrize("path,value,where", [
    ("seats.0.hand.1", "X", "seats[0].hand[1]"),
    ("seats.1.character", "zorro", "seats[1].character"),
    ("seats.1.damage", 4, "seats[1].damage"),
    ("seats.1.hand", [], "seats[1].hand"),
    ("to_move", 5, "to_move"),
    ("seats.0.character", KeyError, "seats[0].character"),
    ("field", {"cards": ["4", "5"], "owner": 1, "as": 6}, "field.cards[0]"),
    ("field", {"cards": ["8"], "owner": 0}, "field.owner"),
    ("field", {"cards": ["8"], "owner": 1, "count": 2}, "field.count"),
    ("field", {"cards": ["8"], "owner": 1, "damage": 3}, "field.damage"),
    ("deck", ["9"] * 5, "deck[4]"),
    ("phase", "lead", "phase"),
    ("seats", [{"hand": ["1"], "character": "nerai"}], "seats"),
    ("deck", 4, "deck"),
])
def test_bad_positions_name_the_field(path, value, where):
    with pytest.raises(PositionError) as e:
        build(parse(variant(path, value)))
    assert e.value.where == where, str(e.value)
