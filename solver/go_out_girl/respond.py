"""Search against a *known policy* of the others (a measurement tool, docs/solver-passes.md, Go Out Girl,
fourteenth pass).

The heuristic bot is deterministic given its hand and the public state (fourth pass), so with
every hand known the other seats are not opponents but a known function: from a position, the
seat's problem is a single-agent one, with chance only in the deck's order. ``Responder`` asks
the single-agent question: is there a line of the seat's own moves that wins this battle when
every other seat plays ``policy.heuristic`` (the bot's own rule over the model; the history
tests check it replays the engine bot's every play, Guard and pass)? Depth-first over the seat's
moves, the others' moves applied in between, positions memoised, at most ``node_limit`` of the
seat's decisions searched (``OutOfBudget`` beyond). It differs from ``exact.ExactSolver`` only
at the others' nodes: one known move instead of every move (a forced win against any play).

A reshuffle (the deck runs out and the discard pile is shuffled) draws its order from the
battle's ``rng``, as in a playout: past a reshuffle a line is a sample, not a proof.

``Expectimax`` asks the same with the deck's order unknown: the seat's best expected result
against the known policy, each card drawn an average over what the deck may yield (exact over
the first ``chance_depth`` cards drawn on a line, playouts beyond).
"""

from __future__ import annotations

import random
import sys

from .exact import _order
from .model import DRAW, OVER, Battle
from .policy import heuristic, rollout, tuned

# paired.KnownPolicyHandsBot (here, so ``paired.py --set respond.KNOWN_CARDS=16`` reaches them):
KNOWN_CARDS = 20  # its endgame from this many cards in the battle's hands
KNOWN_DEALS = 4  # ... on this many deals of the deck and the face-down damage
KNOWN_NODES = 20_000  # ... each searched in at most this many positions
KNOWN_CHANCE = 1  # ... exact over this many cards drawn, then playouts (None: to the end)
KNOWN_ROLLOUTS = 4  # ... this many a position


class OutOfBudget(RuntimeError):
    pass


def advance(b: Battle, me: int, policy=heuristic) -> Battle:
    """Play the other seats' moves by ``policy`` until ``me`` decides, a card is drawn from a
    pool of unknown order (exact mode) or the battle is over."""
    while b.phase != OVER and b.phase != DRAW and b.turn != me:
        b.apply(policy(b))
    return b


class Responder:
    """Does seat ``me`` have a line that wins the battle against the others' known policy?"""

    def __init__(self, me: int, node_limit: int = 20_000, policy=heuristic) -> None:
        self.me = me
        self.node_limit = node_limit
        self.policy = policy
        self.nodes = 0
        self.memo: dict[tuple, tuple | None] = {}  # key -> the winning move (None: no win)

    def child(self, b: Battle, a: tuple) -> Battle:
        c = b.copy()
        c.apply(a)
        return advance(c, self.me, self.policy)

    def moves(self, b: Battle) -> list[tuple]:
        """The seat's moves, the tuned policy's first (it usually is the winning one)."""
        acts = _order(b, b.legal(), self.me)
        first = tuned(b)
        if first in acts:
            acts.remove(first)
            acts.insert(0, first)
        return acts

    def wins(self, b: Battle) -> bool:
        """``b`` is at the seat's decision (or over)."""
        if b.phase == OVER:
            return b.winner == self.me
        if not b.alive[self.me]:
            return False
        key = b.key()
        if key in self.memo:
            return self.memo[key] is not None
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise OutOfBudget(self.nodes)
        for a in self.moves(b):
            if self.wins(self.child(b, a)):
                self.memo[key] = a
                return True
        self.memo[key] = None
        return False

    def solve(self, b: Battle) -> tuple | None | bool:
        """The seat's winning move from ``b`` (its decision), ``False`` if no line wins, ``None``
        if the budget ran out first."""
        assert b.turn == self.me and b.phase != OVER
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            if self.wins(b):
                return self.memo[b.key()]
            return False
        except OutOfBudget:
            return None
        finally:
            sys.setrecursionlimit(old)

    def line(self, b: Battle) -> list[tuple[tuple, tuple]]:
        """After a win was found: the seat's (position key, move) pairs along it."""
        out = []
        b = b.copy()
        while b.phase != OVER and b.turn == self.me:
            a = self.memo.get(b.key())
            if a is None:
                break
            out.append((b.key(), a))
            b = self.child(b, a)
        return out


class Expectimax(Responder):
    """The seat's best chance of winning against the others' known policy when the deck's order
    is unknown: the battle in exact mode (the deck a pool, ``pool_from_deck``), the seat's
    decisions maximised, each card drawn from the pool an average over its composition, the
    others' moves applied. Positions memoised; ``OutOfBudget`` past ``node_limit`` positions.

    ``follow``: the seat's own later decisions are the tuned policy's instead of maximised --
    the candidate's value with no choice fitted to the deal's hands (on a deal drawn from the
    view, maximising over them plans on hands the others may not hold: strategy fusion).

    ``chance_depth``: past this many cards drawn on a line, the position is scored by
    ``rollouts`` playouts to the end of the battle instead (the pool shuffled, the seat playing
    the tuned policy, the others the known one): an exact expectimax that far, and beyond it an
    estimate. ``None``: exact to the end."""

    def __init__(self, me: int, node_limit: int = 20_000, policy=heuristic, *,
                 chance_depth: int | None = None, rollouts: int = 4, seed: int = 0,
                 follow: bool = False) -> None:
        super().__init__(me, node_limit, policy)
        self.chance_depth = chance_depth
        self.follow = follow  # past the candidates, the seat plays the tuned policy (no max)
        self.rollouts = rollouts
        self.rng = random.Random(seed)

    def leaf(self, b: Battle) -> float:
        total = 0.0
        for _ in range(self.rollouts):
            c = b.copy()
            c.pool = c.pool[:]  # type: ignore[index]
            while c.phase == DRAW:  # the cards being drawn, at random from the pool
                pool = c.pool
                n = self.rng.choices(range(14), weights=pool)[0]  # type: ignore[arg-type]
                c.apply(("N", n))
            deck = [n for n in range(14) for _ in range(c.pool[n])]  # type: ignore[index]
            self.rng.shuffle(deck)
            c.deck, c.pool, c.exact = deck, None, False
            c.rng = self.rng
            if c.phase == OVER:
                total += c.winner == self.me
            else:
                total += rollout(c, self.me, 1_000, self.policy, mine=tuned)[0]
        return total / self.rollouts

    def value(self, b: Battle, drawn: int = 0) -> float:
        if b.phase == OVER:
            return 1.0 if b.winner == self.me else 0.0
        if not b.alive[self.me]:
            return 0.0
        key = (b.key(), drawn)
        v = self.memo.get(key)  # type: ignore[arg-type]
        if v is not None:
            return v  # type: ignore[return-value]
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise OutOfBudget(self.nodes)
        if b.phase == DRAW:
            if self.chance_depth is not None and drawn >= self.chance_depth:
                v = self.leaf(b)
            else:
                pool = b.pool
                total = sum(pool)  # type: ignore[arg-type]
                v = sum(k / total * self.value(self.child(b, ("N", n)), drawn + 1)
                        for n, k in enumerate(pool) if k)  # type: ignore[arg-type]
        else:
            v = 0.0
            for a in ([tuned(b)] if self.follow else self.moves(b)):
                v = max(v, self.value(self.child(b, a), drawn))
                if v >= 1.0:
                    break
        self.memo[key] = v  # type: ignore[index]
        return v

    def scores(self, b: Battle, candidates: list[tuple]) -> dict[tuple, float]:
        """Each candidate's value from ``b`` (the seat's decision, exact mode)."""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            return {a: self.value(self.child(b, a)) for a in candidates}
        finally:
            sys.setrecursionlimit(old)


def pool_from_deck(b: Battle) -> Battle:
    """``b`` in exact mode with its deck's order forgotten: the deck's cards become a pool that
    is drawn from one card at a time (``DRAW``), every order equally likely."""
    c = b.copy()
    c.exact = True
    pool = [0] * 14
    for n in c.deck:
        pool[n] += 1
    c.deck = []
    c.pool = pool
    return c
