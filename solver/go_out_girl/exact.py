"""Exact search on full-information Go Out Girl positions: does the seat to move have a forced
battle win when every other seat plays against it?

An AND/OR search over the battle model: the solver's seat picks one move that wins, every other
seat (a coalition) and the reshuffled deck must be beaten whatever they do. When the deck runs
out, the discard pile becomes a pool whose order nobody knows, and the adversary chooses each
card drawn from it (a forced win must survive any shuffle). Reductions: cards are equivalent by
number (hands are count vectors, so two 9s never branch twice), the discard pile is a multiset,
face-down damage and eliminated seats' hands are forgotten, and positions are memoised
(transpositions such as laying 3-then-9 or 9-then-3 as damage meet). Every move either takes
cards out of the hands or adds damage, so the search graph has no cycles and ends.

The principal line follows the shortest win for the solver's seat and the longest resistance
for the others.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..limits import Limit, OutOfTime
from .model import OVER, Battle, narrate

NODE_LIMIT = 3_000_000


class TooBig(RuntimeError):
    pass


@dataclass
class Solution:
    wins: bool
    move: tuple | None  # the winning first move
    line: list[tuple[int, tuple]]  # (seat or -1 for the deck, action)
    nodes: int
    #: the line is the shortest win against the longest resistance (else: a winning line read
    #: off the proof, when working out the longest resistance ran past a limit)
    principal: bool = True


def _order(b: Battle, acts: list[tuple], me: int) -> list[tuple]:
    """Try first what usually decides: for the solver, plays that empty the hand and big plays;
    for the others, plays that take the lead away."""
    p = b.turn

    def key(a: tuple) -> tuple:
        k = a[0]
        if k == "P":
            size = sum(x for _, x in a[3])
            out = size == b.size[p]
            return (0 if out else 1, -size, a[1])
        return ({"X": 2, "G": 3, "B": 3, "R": 4, "V": 5, "D": 6, "C": 6, "K": 7, "N": 8,
                 "S": 9, "W": 10}[k], 0, 0)

    return sorted(acts, key=key)


class ExactSolver:
    def __init__(self, root: Battle, node_limit: int = NODE_LIMIT) -> None:
        self.root = root.copy()
        self.root.exact = True
        self.me = root.turn
        self.memo: dict[tuple, bool] = {}
        self.dist_memo: dict[tuple, int] = {}
        self.nodes = 0
        self.node_limit = node_limit
        self.limit: Limit | None = None  # a time limit and progress reports (``solve``)
        self.first_moves = 0  # the solver's first moves, and how many were shown not to win
        self.refuted = 0
        self.nodes_proof: int | None = None  # the proof's positions, once it is done
        self.line_cut: Exception | None = None  # the limit that cut the principal line short

    def _child(self, b: Battle, a: tuple) -> Battle:
        c = b.copy()
        c.apply(a)
        return c

    def wins(self, b: Battle) -> bool:
        if b.phase == OVER:
            return b.winner == self.me
        if not b.alive[self.me]:
            return False
        key = b.key()
        r = self.memo.get(key)
        if r is not None:
            return r
        self._count()
        acts = _order(b, b.legal(), self.me)
        if b.actor() == self.me:
            r = any(self.wins(self._child(b, a)) for a in acts)
        else:
            r = all(self.wins(self._child(b, a)) for a in acts)
        self.memo[key] = r
        return r

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise TooBig(f"the position needs more than {self.node_limit:,} search nodes")
        if self.limit is not None and self.nodes % Limit.EVERY == 0:
            self.limit.check(self.nodes)

    def _root_wins(self, b: Battle) -> bool:
        """``wins(b)`` for the root, the same search in the same order, counting the first moves
        shown not to win (what is known when a limit stops the search)."""
        if b.phase == OVER or not b.alive[self.me] or b.actor() != self.me:
            return self.wins(b)
        self._count()
        acts = _order(b, b.legal(), self.me)
        self.first_moves = len(acts)
        r = False
        for a in acts:
            if self.wins(self._child(b, a)):
                r = True
                break
            self.refuted += 1
        self.memo[b.key()] = r
        return r

    def dist(self, b: Battle) -> int:
        """Plies to the win under best play (shortest for me, longest for them); ``b`` is won."""
        if b.phase == OVER:
            return 0
        key = b.key()
        d = self.dist_memo.get(key)
        if d is not None:
            return d
        acts = b.legal()
        if b.actor() == self.me:
            d = min(1 + self.dist(c) for a in acts if self.wins(c := self._child(b, a)))
        else:
            d = max(1 + self.dist(self._child(b, a)) for a in acts)
        self.dist_memo[key] = d
        return d

    def _best(self, b: Battle, acts: list[tuple], actor: int) -> tuple[tuple, Battle]:
        if actor == self.me:
            scored = [(self.dist(c), i, a, c) for i, a in enumerate(acts)
                      if self.wins(c := self._child(b, a))]
            _, _, a, c = min(scored, key=lambda t: (t[0], t[1]))
        else:
            scored = [(self.dist(c), -i, a, c) for i, a in enumerate(acts)
                      for c in [self._child(b, a)]]
            _, _, a, c = max(scored, key=lambda t: (t[0], t[1]))
        return a, c

    def solve(self) -> Solution:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            if not self._root_wins(self.root):
                return Solution(False, None, [], self.nodes)
            self.nodes_proof = self.nodes
            self.nodes = 0  # a fresh allowance for the principal line
            return self._line(greedy=False)
        finally:
            sys.setrecursionlimit(old)

    def proven_win(self) -> Solution | None:
        """After ``solve`` was stopped (Ctrl+C) once the win was proven, working out the
        longest resistance: the win, with a line read off the proof (no more search)."""
        if self.nodes_proof is None or not self.memo.get(self.root.key()):
            return None
        return self._line(greedy=True)

    def _line(self, greedy: bool) -> Solution:
        b = self.root
        line: list[tuple[int, tuple]] = []
        while b.phase != OVER:
            actor = b.actor()
            acts = _order(b, b.legal(), self.me)
            if not greedy:
                try:
                    a, b = self._best(b, acts, actor)
                except (TooBig, OutOfTime) as exc:
                    greedy = True
                    self.line_cut = exc
            if greedy:  # the proof's own moves: every node on them is memoised
                if actor == self.me:
                    a, b = next((a, c) for a in acts
                                if self.memo.get((c := self._child(b, a)).key()) or
                                (c.phase == OVER and c.winner == self.me))
                else:
                    a = acts[0]
                    b = self._child(b, a)
            line.append((actor, a))
        assert self.nodes_proof is not None
        return Solution(True, line[0][1] if line else None, line, self.nodes + self.nodes_proof,
                        principal=not greedy)


def line_text(line: list[tuple[int, tuple]], names: list[str]) -> list[str]:
    out = []
    for actor, a in line:
        who = "Deck" if actor < 0 else names[actor]
        out.append(f"{who} {narrate(a)}")
    return out
