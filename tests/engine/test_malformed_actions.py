"""A peer's decision is checked by every other copy. One that the rules cannot even read -- an
argument missing, of the wrong type or out of range, an unknown kind -- is a RuleViolation
naming its sender, in the sender's own copy, in another seat's copy and in the full state, and
never another exception. When another seat's copy accepts a claim about cards it cannot see, it
plays on and either finds the lie later (a RuleViolation) or the game goes on."""

from __future__ import annotations

import random

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.engine import Action, Decide, Decision, LocalDealer, RuleViolation, project
from p2pcards.games import new_game

ODD = [None, "x", -1, 10**9, 1.5, [], [None], ["a"], True, False]
GAMES = [("go-out-girl", 3), ("go-out-girl", 5), ("out-of-this-world", 3),
         ("out-of-this-world", 4), ("girl-and-robot", 2), ("girl-and-robot", 4)]


def mutants(a: Action, rng: random.Random, k: int = 4) -> list[Action]:
    out = []
    for _ in range(k):
        m = a.to_json()
        keys = [x for x in m if x != "kind"]
        r = rng.random()
        if keys and r < 0.5:
            key = rng.choice(keys)
            v = m[key]
            if isinstance(v, list) and v and rng.random() < 0.5:
                m[key] = rng.choice([v + v[:1], v[:-1], [rng.choice(ODD) for _ in v]])
            else:
                m[key] = rng.choice(ODD)
        elif keys and r < 0.7:
            del m[rng.choice(keys)]
        elif r < 0.85:
            m[rng.choice(["slot", "slots", "number", "stack", "target", "side"])] = \
                rng.choice([*ODD, 0, 1, 2])
        else:
            m["kind"] = rng.choice(["play", "pass", "take", "reveal", "equip", "ability", "nonsense"])
        out.append(Action.from_json(m))
    return out


def _play_on(full, view, seat: int, seed: int, n: int, game: str) -> None:
    """Play the cheater's world on (random decisions, a dealer), feeding ``view`` what it sees."""
    dealer = LocalDealer(seed)
    bots = [make_bot(game, x, "random", seed + x) for x in range(n)]
    for _ in range(200):
        req = full.pending()
        if req is None:
            return
        if isinstance(req, Decide):
            ev = Decision(req.player, bots[req.player].decide(full.view(req.player),
                                                              full.legal(req.player)))
            full.apply(ev, trusted=True)
            view.apply(ev)
        else:
            before = full.clone()
            ev = dealer.fulfil(full, req)
            full.apply(ev)
            view.apply(project(ev, req, before, seat))


@pytest.mark.parametrize("game, n", GAMES)
def test_malformed_decisions_are_violations_by_their_sender(game, n):
    rng = random.Random(f"{game}{n}")
    g = new_game(game, n)
    dealer = LocalDealer(n)
    bots = [make_bot(game, q, "easy", q) for q in range(n)]
    tried = refused = went_on = 0
    while (req := g.pending()) is not None:
        if isinstance(req, Decide):
            p = req.player
            legal = g.legal(p)
            if rng.random() < 0.25:
                for m in mutants(rng.choice(legal), rng):
                    legit = m in legal
                    for viewer in (p, (p + 1) % n, None):
                        copy = g.clone() if viewer is None else g.view(viewer)
                        tried += 1
                        try:
                            copy.apply(Decision(p, m))
                        except RuleViolation as exc:
                            assert exc.player == p
                            refused += 1
                            continue
                        assert legit or viewer not in (p, None), \
                            f"{m} accepted by a copy that sees the player's cards"
                        if viewer not in (p, None) and not legit and went_on < 6:
                            world = g.clone()
                            try:
                                world.apply(Decision(p, m), trusted=True)
                            except Exception:  # noqa: BLE001 -- no world in which the claim holds
                                continue
                            went_on += 1
                            try:
                                _play_on(world, copy, viewer, tried, n, game)
                            except RuleViolation as exc:
                                assert exc.player in (p, None), exc  # the liar, or the cards
            g.apply(Decision(p, bots[p].decide(g.view(p), legal)))
        else:
            g.apply(dealer.fulfil(g, req))
    assert tried > 100 and refused > tried // 2, (tried, refused)
