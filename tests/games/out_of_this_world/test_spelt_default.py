"""Red team 10 #4: a move with an optional argument spelt out at its default is the same move.

A Defeat may carry ``twice: true`` (a Foe whose set played twice removes it); a legal Defeat
without it, sent with ``twice: false`` written out, was accepted by the other seats' copies
(which check what they can see) but refused by the mover's own copy and by the full state: the
copies disagreed about one signed move, and an audit of the mover's own record would have named
an honest move. Now every copy takes it as the move without the argument."""

from __future__ import annotations

import random

from p2pcards.engine import SPECTATOR, Action, Decide, Decision, LocalDealer, project
from p2pcards.games import new_game


def spelt(a: Action) -> Action:
    return Action(a.kind, **dict(a.args), twice=False)


def test_a_defeat_with_twice_false_spelt_out_is_taken_by_every_copy() -> None:
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game("out-of-this-world", 4)
        dealer = LocalDealer(seed)
        copies = {q: state.view(q) for q in [*range(4), SPECTATOR]}
        for _ in range(3000):
            req = state.pending()
            if req is None:
                break
            if not isinstance(req, Decide):
                before = state.clone()
                ev = dealer.fulfil(state, req)
                state.apply(ev)
                for q, c in copies.items():
                    c.apply(project(ev, req, before, q))
                continue
            p = req.player
            legal = state.legal(p)
            for a in legal:
                if a.kind == "defeat" and "twice" not in dict(a.args):
                    for c in [state, *copies.values()]:
                        c.clone().apply(Decision(p, spelt(a)))  # raises RuleViolation if refused
                    found += 1
                    break
            ev = Decision(p, rng.choice(legal))
            state.apply(ev)
            for c in copies.values():
                c.apply(ev)
        if found >= 5:
            break
    assert found >= 5, f"only {found} Defeats came up"
