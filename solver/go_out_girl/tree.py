"""A tree over this seat's own next decisions, for the advisor's playouts (issue 15, sixth pass).

The flat search (``advisor.advise``) plays each root candidate out with the tuned policy for this
seat's every later decision, so a root move is valued by what the tuned policy would make of it.
Here the seat's next ``depth`` decisions after the root move are instead chosen in-tree, over
all the deals of the search: single-observer information-set MCTS (Cowling, Powley & Whitehouse
2012) with the others' moves played by the opponent model outside the tree, as the playouts
play them. A node is a point of this seat's own decision sequence -- the root move, then the
seat's own moves in order -- whatever the others did in between
(open loop: the deals differ, and the seat sees the others' moves only as they happen). Its
actions are the legal moves of the deal at hand -- the tuned policy's move first, then the
heuristic's and the expert policy's, then the root's pruned order; at most ``WIDTH``, one more
every ``WIDEN`` visits of the node (progressive widening) -- so an action is scored over the
deals where it was available: UCB1 with availability counts (the ISMCTS rule) and a progressive
bias towards the tuned policy's move, which is tried first and is left only for an action whose
mean beats it.

Each playout descends the tree for at most ``depth`` of the seat's decisions (one new node a
playout), then continues as ``policy.rollout`` does (the tuned policy, the others as
modelled, ``HORIZON`` decisions in all, ``estimate`` at the end); its value is backed up the
path. The root candidates keep the flat search's common random numbers and its ``MARGIN`` guard
(advisor.py); only what follows a root move changes.

Like the rest of the advisor it is handed only deals drawn from the seat's view.

Measured (docs/solver-passes.md, Go Out Girl, sixth pass): against three heuristic bots, depth 2 at
12,000 decisions a move wins 0.553 of its battles over match seeds 0-399 against 0.496 for the
flat search at 4,000 (paired +0.059 +- 0.020; +0.080 +- 0.028 on the held-out seeds 200-399) and
beats the flat search at 12,000 on the same seeds by +0.076 +- 0.030 (0-199); depth 1 (4,000 or
12,000) and depth 2 at 4,000 measured no better. The strong bot plays depth 2 at 12,000
(``bots.STRONG_TREE_DEPTH``, ``STRONG_BUDGET``); the hint stays flat.

Two switches of the sixteenth pass, both off (docs/solver-passes.md, Go Out Girl, sixteenth
pass: each measured below the base on seeds 0-39): ``RESAMPLE`` takes the others' moves in the
tree on hidden cards dealt afresh at each of their decisions (their next move a draw from its
distribution over the deals, not one deal's hand throughout); ``OBSERVE`` keys the in-tree
nodes by the pile the seat then faces (closed loop on the others' replies).
"""

from __future__ import annotations

import math
import random

from .model import OVER, Battle
from .policy import estimate

DEPTH = 1  # own decisions after the root move chosen in-tree
WIDTH = 3  # actions considered at a node (pruned as at the root: the policy's move first)
WIDEN = 6  # progressive widening: one more action each WIDEN visits of the node
C = 0.35  # UCB exploration constant (win values in 0..1)
BIAS = 1.0  # progressive bias of the tuned policy's move: BIAS / (visits + 1)
# Sixteenth pass (off: see docs/solver-passes.md): the others' moves as a distribution over the
# deals instead of one deal's hands throughout. With RESAMPLE "tree", at each other seat's
# decision while the playout is in the tree (from the root move to this seat's reply after its
# last in-tree decision) the hidden cards -- every other seat's hand bar the cards this seat
# knows are there (``fixed``), and the deck -- are dealt afresh (``redeal``) before the model
# picks that seat's move, so her move is the model's on a hand drawn from what this seat cannot
# see; "all": at every other seat's decision of the playout. None: one deal throughout.
RESAMPLE: str | None = None
# With OBSERVE (off) the in-tree nodes are closed-loop on what the seat sees: a decision's node
# is found by the seat's own moves *and* the pile it then faces (the top's number and count,
# and the phase: public), so its second decision is planned separately for each thing the others may have put
# down -- their replies a chance node whose branches come as often as the deals make them.
# OBSERVE = "lead": keyed only by whether the seat then leads or follows (and the phase).
OBSERVE: bool | str = False


class Node:
    __slots__ = ("stats", "children", "visits")

    def __init__(self) -> None:
        self.stats: dict[tuple, list[float]] = {}  # action -> [visits, total value, available]
        self.children: dict[tuple, Node] = {}  # action -> this seat's next decision
        self.visits = 0

    def select(self, acts: list[tuple], first: tuple) -> tuple:
        """The action to play among ``acts`` (this deal's legal moves here, ``first`` the tuned
        policy's): the tuned policy's move until it has been tried, then UCB1 over availability
        with a bias towards it. Every available action's availability counts up."""
        best, best_v = first, -math.inf
        for a in acts:
            s = self.stats.get(a)
            if s is None:
                s = self.stats[a] = [0, 0.0, 0]
            s[2] += 1
        if self.stats[first][0] == 0:
            return first
        for a in acts:
            n, tot, avail = self.stats[a]
            if n == 0:
                v = 1e9 - acts.index(a)  # untried: in the pruned order
            else:
                v = tot / n + C * math.sqrt(math.log(avail) / n)
                if a == first:
                    v += BIAS / (n + 1)
            if v > best_v:
                best, best_v = a, v
        return best

    def best(self) -> tuple | None:
        """The most visited action (a diagnostic: what the tree settled on)."""
        if not self.stats:
            return None
        return max(self.stats, key=lambda a: self.stats[a][0])


def redeal(b: Battle, me: int, rng: random.Random,
           fixed: list[list[int]] | None = None) -> None:
    """Deal the cards ``me`` cannot see afresh, in place: every other living seat's hand (less
    the cards ``fixed[q]`` says ``me`` knows are in it) and the deck go into one pile, which is
    shuffled and dealt back -- each seat as many cards as it gave, the rest the deck. Hand sizes,
    ``me``'s hand, the public piles and the characters are unchanged."""
    pile = b.deck[:]
    back: list[tuple[list[int], int]] = []
    for q in range(b.n):
        if q == me or not b.alive[q]:
            continue
        h = b.hands[q]
        f = fixed[q] if fixed is not None else None
        k = 0
        for n in range(14):
            x = h[n] - f[n] if f is not None else h[n]
            if x > 0:
                pile += [n] * x
                h[n] -= x
                k += x
        back.append((h, k))
    rng.shuffle(pile)
    i = 0
    for h, k in back:
        for c in pile[i:i + k]:
            h[c] += 1
        i += k
    b.deck = pile[i:]


def playout(b: Battle, me: int, root: Node, horizon: int, prune, own, opp, *,
            noise: list[float], rng: random.Random, depth: int = DEPTH,
            width: int | None = None, alts=(), resample: str | None = None,
            fixed: list[list[int]] | None = None,
            observe: bool | str = False) -> tuple[float, int]:
    """Play ``b`` (the root move already made) on: this seat's next ``depth`` decisions from the
    tree under ``root``, the rest as ``policy.rollout`` plays (``own`` for this seat, ``opp`` for
    the others with per-seat ``noise``). An in-tree decision considers ``own``'s move, then
    ``alts``' moves (other policies), then the others in ``prune``'s order, at most ``width``
    and one more every ``WIDEN`` visits of the node (progressive widening). ``resample``
    (``RESAMPLE``'s values): the others' decisions in the tree, or all of them, are taken on
    hidden cards dealt afresh (``redeal``, ``fixed`` the cards known in each hand). ``observe``
    (``OBSERVE``): ``root`` and each in-tree action lead to a hub whose nodes are keyed by the
    public (top's number and count, phase) the seat faces at its next decision ("lead": whether
    it leads, and the phase). Backs the value up the path;
    (value, decisions)."""
    steps = 0
    node: Node | None = None if observe else root
    hub: Node | None = root if observe else None  # observe: the nodes by what is faced
    path: list[tuple[Node, tuple]] = []
    mine = 0
    width = WIDTH if width is None else width
    rnd, pick = rng.random, rng.choice
    fresh = resample is not None  # the others' moves still on a hand drawn afresh
    while b.phase != OVER and steps < horizon:
        t = b.turn
        if t == me:
            if hub is not None and mine < depth:
                top = b.top
                if observe == "lead":  # only whether the seat leads or follows, the phase
                    key = (top is None, b.phase)
                else:  # the number and count faced, the phase
                    key = (top and top[:2], b.phase)
                node = hub.children.get(key)  # type: ignore[call-overload]
                if node is None:
                    node = hub.children[key] = Node()  # type: ignore[index]
                hub = None
            if node is not None and mine < depth:
                legal = b.legal()
                first = own(b)
                k = min(width, 1 + node.visits // WIDEN)
                acts = [first]
                for pol in alts:  # the other policies' moves, then the pruned order
                    if len(acts) < k and (x := pol(b)) not in acts:
                        acts.append(x)
                if len(acts) < k:
                    acts += [x for x in prune(b, legal, k + len(acts), own)
                             if x not in acts][:k - len(acts)]
                a = node.select(acts, first)
                path.append((node, a))
                mine += 1
                b.apply(a)
                nxt = node.children.get(a)
                if observe:
                    if nxt is None and mine < depth:
                        nxt = node.children[a] = Node()  # the hub after this move
                    hub, nxt = nxt, None
                elif nxt is None and mine < depth:
                    node.children[a] = Node()  # one new node a playout
                node = nxt
            else:
                fresh = resample == "all"
                b.apply(own(b))
        elif noise[t] and rnd() < noise[t]:
            b.apply(pick(b.legal()))
        else:
            if fresh:
                redeal(b, me, rng, fixed)
            b.apply(opp(b))
        steps += 1
    v = (1.0 if b.winner == me else 0.0) if b.phase == OVER else estimate(b, me)
    for n, a in path:
        s = n.stats[a]
        s[0] += 1
        s[1] += v
        n.visits += 1
    return v, steps
