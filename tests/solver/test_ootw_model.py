"""The solver's round model plays the same rounds as the Out Of This World engine: in random
games (random and heuristic decisions, every adventure and character), at each Go For It!
decision the model built from the engine state has the same legal actions (but the Spends that
only look at a stack), and after applying the same action -- with the engine's random discards
fed to the model's chance nodes -- it equals the model of the engine's next decision, or ends
the round with the engine's result and Time."""

from __future__ import annotations

import os
import random
from collections import Counter

from p2pcards.bots.out_of_this_world import OutOfThisWorldBot
from p2pcards.engine import Decide, Decision, LocalDealer
from p2pcards.games import new_game
from solver.out_of_this_world.model import (
    CHANCE,
    OVER,
    abstract,
    action_map,
    describe,
    round_from_game,
    rules_of,
)

ADVENTURES = ["patrol-the-block", "birthday-bash", "hit-the-books", "night-school",
              "stained-glass", "confrontation"]
# 18 games in the suite (it was 36; 18 still reach every kind of model move, 4,754 steps and
# 112 rounds), 72 with P2PCARDS_LONG=1
LONG = os.environ.get("P2PCARDS_LONG") == "1"
GAMES = 72 if LONG else 18
CHARS = ["malala_bart", "zoe_zack", "rita_rick", "nina_ned", "penny_percy"]


def _state(m) -> dict:
    d = m.as_dict()
    d.pop("time0")
    return d


def _feed_chances(m, g) -> int:
    """Resolve the model's random discards with the cards the engine's discards took."""
    fed = 0
    while m.step == CHANCE:
        seat = m.pending[1][1]
        gone = Counter(m.hands[seat]) - Counter(g._cls[g.values[s]] for s in g.hand(seat))
        assert gone, "the model expects a random discard the engine did not make"
        m.apply(("X", sorted(gone)[0]))
        fed += 1
    return fed


def test_model_in_lockstep_with_engine():
    steps = 0
    kinds: Counter = Counter()
    rounds = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        n = 3 + seed % 3
        adv = ADVENTURES[seed % len(ADVENTURES)]
        diff = ["standard", "tough", "epic"][seed % 3]
        g = new_game("out-of-this-world", n, {"adventure": adv, "difficulty": diff})
        dealer = LocalDealer(seed)
        bots = [OutOfThisWorldBot(q, seed * 7 + q) for q in range(n)]
        chars = CHARS[seed % 5:] + CHARS[:seed % 5]
        rules = None
        pending = None  # the model advanced by the last action, waiting for the next decision
        pending_round = 0
        while (req := g.pending()) is not None:
            if not isinstance(req, Decide):
                g.apply(dealer.fulfil(g, req))
                continue
            p = req.player
            legal = g.legal(p)
            if g.step == "character":
                a = next((x for x in legal if x.key == chars[0]), legal[0])
                chars = chars[1:] + chars[:1]
                g.apply(Decision(p, a))
                continue
            in_round = g.phase == "go" and g.step in ("take", "action", "give")
            if pending is not None:
                if in_round and g.round == pending_round:
                    kinds["X"] += _feed_chances(pending, g)
                    assert pending.result is None, f"seed {seed}: the model ended the round early"
                    assert _state(pending) == _state(round_from_game(g, rules)), \
                        f"seed {seed}: the model diverged from the engine"
                else:
                    # the round is over: the same result and the same Time
                    _feed_chances(pending, g)
                    assert pending.step == OVER, f"seed {seed}: the engine ended the round"
                    won = g.result == "won"
                    assert (pending.result == "won") == won, f"seed {seed}: result differs"
                    if not won:
                        assert pending.time == g.time, f"seed {seed}: Time differs"
                    rounds += 1
                pending = None
            if in_round:
                rules = rules or rules_of(g)
                m = round_from_game(g, rules)
                amap = action_map(g, legal)
                assert set(m.legal()) == set(amap), f"seed {seed}: legal actions differ"
                a = rng.choice(legal) if rng.random() < 0.3 else bots[p].decide(g.view(p), legal)
                ma = abstract(g, a)
                if ma in amap:  # looking at a stack is not a model move
                    kinds[ma[0]] += 1
                    assert describe(rules, ma)
                    m.apply(ma)
                    pending, pending_round = m, g.round
                    steps += 1
            else:
                a = bots[p].decide(g.view(p), legal) if len(legal) > 1 else legal[0]
            g.apply(Decision(p, a))
        if pending is not None:  # the game ended on that round
            _feed_chances(pending, g)
            assert pending.step == OVER
            assert (pending.result == "won") == (g.result == "won"), f"seed {seed}"
            if g.result != "won":
                assert pending.time == g.time
            rounds += 1
    assert steps > 200 * GAMES, steps
    assert rounds > 4 * GAMES, rounds
    assert set(kinds) >= {"T", "L", "N", "P", "E", "D", "S", "V", "X"}, kinds
