"""Exact round planning for full-information Out Of This World positions.

The team plays as one: every seat's take and action is the planner's choice, and the plan is the
best for the rest of the round, judged at the round's end by ``Round.outcome()``: first whether
the team wins, then the fewest Time tokens lost (net of any gained back), then the most points
equipped by the team. A random discard (a Possessed Doll taken, a Mall Phantom defeated...) is
an adversary's choice: the plan's outcome holds whatever card it hits.

Search: depth-first over the round model with memoisation on the whole state (so the same
position reached through different orders -- two Equips swapped, a Pass before or after a take
-- is solved once). Reductions: cards are equivalent by rules class (hands are sorted tuples of
classes), stacks with the same cards are interchangeable (the key sorts them, and a take from a
stack identical to one already tried is skipped), a Spend that only looks at a stack is left out
(every card is known), and the end of round's random discards and discarding down are left out
(they come after the victory check and cost no Time). A position whose search passes
``node_limit`` distinct states is refused (``TooBig``) rather than answered approximately.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..limits import Limit
from .model import CHANCE, OVER, TAKE, Round

NODE_LIMIT = 500_000


class TooBig(RuntimeError):
    pass


@dataclass
class Step:
    seat: int  # the seat acting, or the seat whose card a random discard takes
    action: tuple
    chance: bool
    card: int | None = None  # the card taken (for a take)


@dataclass
class PlanResult:
    outcome: tuple[bool, int, int]  # (won, -tokens lost, team points)
    line: list[Step]
    nodes: int

    @property
    def won(self) -> bool:
        return self.outcome[0]

    @property
    def tokens_lost(self) -> int:
        return -self.outcome[1]

    @property
    def points(self) -> int:
        return self.outcome[2]


def canonical_key(m: Round) -> tuple:
    k = m.key()
    return k[:3] + (tuple(sorted(k[3])),) + k[4:]


def moves(m: Round) -> list[tuple]:
    """The model's legal actions, with takes from identical stacks tried once."""
    acts = m.legal()
    if m.step != TAKE:
        return acts
    seen: set[tuple] = set()
    out = []
    for a in acts:
        if a[0] == "T":
            sig = (m.stacks[a[1]], a[2])
            if sig in seen:
                continue
            seen.add(sig)
        out.append(a)
    return out


class Planner:
    def __init__(self, root: Round, node_limit: int = NODE_LIMIT, score=None, *,
                 move_limit: int | None = None) -> None:
        # score(m) -> a comparable value of a round's end, bigger is better (default the
        # outcome: won, -Time tokens lost, team points)
        self.score = score or Round.outcome
        self.root = root.copy()
        self.memo: dict[tuple, tuple[bool, int, int]] = {}
        self.nodes = 0
        self.node_limit = node_limit
        # the moves listed at the positions searched: with a big hand a position has hundreds,
        # so a search under the node limit can still take a minute (a 45-card hand: 29 s)
        self.moves = 0
        self.move_limit = move_limit
        self.limit: Limit | None = None  # a time limit and progress reports (``solve``)
        # the root's first moves, how many were searched to the end, and the best of those:
        # (its outcome, the move, the position after it); what is known when a limit stops
        # the search
        self.first_moves = 0
        self.searched = 0
        self.best_first: tuple[tuple[bool, int, int], tuple, Round] | None = None

    def _moves(self, m: Round) -> list[tuple]:
        acts = moves(m)
        self.moves += len(acts)
        if self.move_limit is not None and self.moves > self.move_limit:
            raise TooBig(f"more than {self.move_limit:,} moves")
        return acts

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise TooBig(f"more than {self.node_limit:,} positions")
        if self.limit is not None and self.nodes % Limit.EVERY == 0:
            self.limit.check(self.nodes)

    def value(self, m: Round) -> tuple[bool, int, int]:
        if m.step == OVER:
            return self.score(m)
        key = canonical_key(m)
        v = self.memo.get(key)
        if v is not None:
            return v
        self._count()
        best: tuple[bool, int, int] | None = None
        chance = m.step == CHANCE
        for a in self._moves(m):
            c = m.copy()
            c.apply(a)
            r = self.value(c)
            if best is None or (r < best if chance else r > best):
                best = r
        assert best is not None, "a position with no move"
        self.memo[key] = best
        return best

    def _root_value(self, m: Round) -> tuple[bool, int, int]:
        """``value(m)`` for the root, the same search in the same order, keeping the best first
        move searched to the end so far (a plan the team can play, its outcome exact)."""
        if m.step in (OVER, CHANCE):  # a random discard's worst case is known only at the end
            return self.value(m)
        self._count()
        acts = self._moves(m)
        self.first_moves = len(acts)
        best: tuple[bool, int, int] | None = None
        for a in acts:
            c = m.copy()
            c.apply(a)
            r = self.value(c)
            self.searched += 1
            if best is None or r > best:
                best = r
                self.best_first = (r, a, c)
        assert best is not None, "a position with no move"
        self.memo[canonical_key(m)] = best
        return best

    def solve(self) -> PlanResult:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            best = self._root_value(self.root)
            self.limit = None  # the line reads the memo: every position on it is searched
            line = self.line(self.root, best)
        finally:
            sys.setrecursionlimit(limit)
        return PlanResult(best, line, self.nodes)

    def best_so_far(self) -> PlanResult | None:
        """After ``solve`` was stopped by a limit or Ctrl+C: the best plan among the first moves
        searched to the end (not proven the best: the others were not), or ``None``."""
        if self.best_first is None:
            return None
        outcome, a, c = self.best_first
        self.limit = None
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            m = self.root
            first = Step(m.turn, a, False, m.stacks[a[1]][-1] if a[0] == "T" else None)
            return PlanResult(outcome, [first, *self.line(c, outcome)], self.nodes)
        finally:
            sys.setrecursionlimit(limit)

    def line(self, m: Round, target: tuple[bool, int, int]) -> list[Step]:
        """The principal line: at each decision the first move that keeps the best outcome; at
        each random discard the card that hurts most."""
        out: list[Step] = []
        m = m.copy()
        while m.step != OVER:
            chance = m.step == CHANCE
            seat = m.pending[1][1] if chance else m.turn
            for a in moves(m):
                c = m.copy()
                c.apply(a)
                if self.value(c) == target:
                    card = m.stacks[a[1]][-1] if a[0] == "T" else None
                    out.append(Step(seat, a, chance, card))
                    m = c
                    break
            else:  # pragma: no cover - the memo guarantees a move
                raise AssertionError("no move keeps the outcome")
        return out


def plan(root: Round, node_limit: int = NODE_LIMIT, score=None) -> PlanResult:
    return Planner(root, node_limit, score).solve()
