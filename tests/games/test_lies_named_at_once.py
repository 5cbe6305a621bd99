"""Every cheat is named the moment it happens (docs/deck.md, "For players"; the games' pages,
"Hidden information": a false claim "is named at once"), attacked as a modified program would.

At random decisions of seeded games of every game, the cheater looks for a *lie*: a move its own
rules refuse (its own copy, which sees its cards, says so) that another seat's copy, which cannot
see those cards, accepts -- another card of the same zone named in place of the listed one,
another target, or a well-formed move of any kind with in-range slots, seats and numbers. It
sends the lie and plays on in the world its lie makes (its engine applies it unchecked); the
other seats play at random. The promise: the liar is named (a ``RuleViolation`` naming it)
before any other seat decides again, by a check an honest seat makes itself -- its own copy of
the game refusing what is opened to it, or the deck refusing the liar's proof of a claim
(``Prove`` by the liar: the full-information copy's check on ``Proven`` stands for the zero-
knowledge proof the liar cannot make, tests/protocol/test_claims.py).

``tests/engine/test_malformed_actions.py`` lets a lie go unnamed ("or the game goes on"); this
one does not. Quick by default (a few lies a configuration); ``P2PCARDS_LONG=1`` tries more seeds."""

from __future__ import annotations

import os
import random

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.engine import Action, Decide, Decision, LocalDealer, Prove, RuleViolation, project
from p2pcards.games import new_game

LONG = os.environ.get("P2PCARDS_LONG") == "1"
SEEDS = range(24) if LONG else range(3)
LIES_A_KIND = 2  # lies of one kind and sort a game: a rare one (a pass that should withdraw) gets its turn
GAMES = [("go-out-girl", 3), ("go-out-girl", 5), ("out-of-this-world", 3),
         ("out-of-this-world", 4), ("girl-and-robot", 3), ("girl-and-robot", 4)]


def _value(g, typ: str, rng: random.Random):
    if typ == "slot":
        return rng.randrange(g.n_cards)
    if typ == "seat":
        return rng.randrange(g.n_players)
    if typ == "bool":
        return rng.random() < 0.5
    if typ == "str":
        return rng.choice(["1", "2", "3", "x"])
    if typ == "slots":
        return [rng.randrange(g.n_cards) for _ in range(rng.randrange(1, 4))]
    return rng.randrange(0, 15)


def lies(g, p: int, legal: list[Action], rng: random.Random) -> list[tuple[str, Action]]:
    """Candidate lies, each with its sort: each listed move with another slot of the same zone
    (for a list, in place of one of its slots) or another seat named ("swap"), with one slot
    fewer in a list ("fewer": "I declare no Foe"), every move that takes no argument ("bare":
    "pass", "withdraw", "safe", ...), and well-formed moves with in-range arguments
    (``ACTION_ARGS``, "any")."""
    out: list[tuple[str, Action]] = []
    for a in legal:
        if isinstance(a.get("slot"), int):
            out += [("swap", Action(a.kind, **{**dict(a.args), "slot": s}))
                    for s in g.zones[g.zone_of[a.slot]] if s != a.slot]
        for key, v in a.args:
            if isinstance(v, tuple) and v and all(isinstance(x, int) for x in v):
                i = rng.randrange(len(v))
                out += [("swap", Action(a.kind, **{**dict(a.args), key: [*v[:i], s, *v[i + 1:]]}))
                        for s in g.zones[g.zone_of[v[i]]] if s not in v]
                out.append(("fewer", Action(a.kind, **{**dict(a.args), key: [*v[:i], *v[i + 1:]]})))
        for key in ("target", "to"):
            if isinstance(a.get(key), int):
                out += [("swap", Action(a.kind, **{**dict(a.args), key: t}))
                        for t in range(g.n_players) if t != a.get(key)]
    out += [("bare", Action(kind)) for kind, spec in g.ACTION_ARGS.items()
            if all(k.endswith("?") for k in spec)]
    for _ in range(12):
        a = rng.choice(legal)
        m = a.to_json()
        spec = g.ACTION_ARGS.get(a.kind, {})
        keys = [k for k in m if k != "kind"]
        if keys and rng.random() < 0.7:
            key = rng.choice(keys)
            typ = spec.get(key, spec.get(key + "?", "int"))
            v = m[key]
            if isinstance(v, list) and v and rng.random() < 0.6:
                v = list(v)
                v[rng.randrange(len(v))] = rng.randrange(g.n_cards)
                m[key] = v
            else:
                m[key] = _value(g, typ, rng)
        else:
            kind = rng.choice(sorted(g.ACTION_ARGS))
            m = {"kind": kind, **{s.rstrip("?"): _value(g, t, rng)
                                  for s, t in g.ACTION_ARGS[kind].items()}}
        out.append(("any", Action.from_json(m)))
    rng.shuffle(out)
    return out


def refused(copy, p: int, action: Action) -> bool:
    """Whether ``copy`` refuses seat p's ``action`` (``check`` does not change the copy)."""
    try:
        copy.check(p, action)
    except RuleViolation:
        return True
    return False


def follow(world, watcher, w: int, liar: int, seed: int, game: str) -> str:
    """Play on in the liar's world until someone is named; ``""`` when the liar is named, by a
    check seat ``w`` makes itself, before another seat decides; else what happened."""
    n = world.n_players
    dealer = LocalDealer(seed)
    bots = [make_bot(game, x, "random", seed + x) for x in range(n)]
    while (req := world.pending()) is not None:
        if isinstance(req, Decide):
            if req.player != liar:
                return f"seat {req.player + 1} was asked to decide before the liar was named"
            ev = Decision(liar, bots[liar].decide(world.view(liar), world.legal(liar)))
            world.apply(ev, trusted=True)
            watcher.apply(ev)
            continue
        before = world.clone()
        ev = dealer.fulfil(world, req)
        try:
            world.apply(ev)
        except RuleViolation as exc:
            if exc.player != liar:
                return f"seat {exc.player} named instead ({exc.reason})"
            if isinstance(req, Prove) and req.by == liar:
                return ""  # the deck refuses the liar's proof: every seat names it
        try:
            watcher.apply(project(ev, req, before, w))
        except RuleViolation as exc:
            return "" if exc.player == liar else f"seat {exc.player} named by the watcher"
        if world.pending() is req:
            return f"{req} named the liar where seat {w + 1} cannot see it"
    return "the game ended and nobody was named"


@pytest.mark.parametrize("game,n", GAMES)
def test_a_lie_the_others_cannot_see_is_named_before_anyone_else_decides(game, n):
    tried = 0
    for seed in SEEDS:
        rng = random.Random(f"{game}{n}:{seed}")
        g = new_game(game, n)
        dealer = LocalDealer(seed)
        bots = [make_bot(game, q, "random", seed * 7 + q) for q in range(n)]
        told: dict[tuple[str, str], int] = {}
        while (req := g.pending()) is not None:
            if not isinstance(req, Decide):
                g.apply(dealer.fulfil(g, req))
                continue
            p = req.player
            legal = g.legal(p)
            w = rng.choice([q for q in range(n) if q != p])
            own, others = g.view(p), g.view(w)
            done: set[str] = set()  # one lie of each sort at a decision
            for sort, lie in lies(g, p, legal, rng)[:40]:
                if sort in done or told.get((lie.kind, sort), 0) >= LIES_A_KIND:
                    continue
                if not refused(own, p, lie) or refused(others, p, lie):
                    continue
                world, watcher = g.clone(), g.view(w)
                try:
                    world.apply(Decision(p, lie), trusted=True)
                except Exception:  # noqa: BLE001 -- no world in which the lie can be played
                    continue
                watcher.apply(Decision(p, lie))
                told[lie.kind, sort] = told.get((lie.kind, sort), 0) + 1
                tried += 1
                what = follow(world, watcher, w, p, seed * 1000 + tried, game)
                assert what == "", (f"{game} x{n} seed {seed}: seat {p + 1}'s lie "
                                    f"{lie} (seat {w + 1} accepted it): {what}")
                done.add(sort)
            g.apply(Decision(p, bots[p].decide(g.view(p), legal)))
    assert tried >= 2 * len(SEEDS), tried
