"""A policy that imitates the hands oracle (issue 15, twelfth pass).

The seventh pass's diagnostic oracle (``paired.HandsOracleBot``: the strong bot's search handed
the others' true hands and characters) wins 0.667 of its battles against three heuristic bots,
the strong bot 0.571. Here a policy that sees only the seat's view is fitted to the oracle's
choices, to stand where the tuned policy stands in the search:

1. ``collect``: paired matches (seeds from 1000, none of the benchmark's) with the oracle in the
   strong seat; at each of its decisions with a choice (not the character choice, which the
   oracle makes blind), a deal drawn from the seat's view alone (``ViewInfo.sample``: only the
   seat's own hand and public facts are read), the legal moves, the oracle's pick and its
   candidates' win rates (with the hands known).
2. ``fit``: a conditional logit (softmax over the legal moves) on ``features``: the third pass's
   move features (``expert.move_features``) plus whether the move is the tuned policy's or the
   heuristic's, a reveal by character, and a few terms for a nearly empty opponent hand and low
   life. Newton's method with a little L2 (numpy, at fitting time only); the weights are
   constants here (``W``), evaluated in pure Python.
3. ``policy``: the legal move of highest ``W . features`` (a move that empties the hand first).

Switches (module constants, ``paired.py --set imitate.NAME=value``; all off by default):
``PLAYOUT`` -- the policy plays the searching seat in its playouts and in the tree and gives
the search's default move (in place of the tuned policy); ``DEFAULT`` -- only the default move
the search must beat by ``advisor.MARGIN``; ``TOPK`` -- the root searches only the ``TOPK``
legal moves the policy rates highest (and the default move).
"""

from __future__ import annotations

import math
import pickle
import random
import sys

from .expert import N_FEATURES as N_MOVE
from .expert import _needed, move_features
from .model import LIFE, Battle
from .policy import heuristic, tuned

PLAYOUT = False
DEFAULT = False
TOPK = 0

EXTRA_NAMES = ("tuned", "heuristic") + tuple(f"reveal_char_{c}" for c in range(8)) + (
    "play_danger", "play_danger_number", "pass_danger", "guard_danger", "play_low_life",
    "guard_low_life")
N_FEATURES = N_MOVE + len(EXTRA_NAMES)


def _context(b: Battle) -> tuple:
    """What every move of the seat to move shares: the fewest plays now, the tuned policy's and
    the heuristic's moves, whether another seat in the battle holds at most 2 cards, whether
    the seat has at most 2 life left. Only the seat's own hand and public facts are read."""
    p = b.turn
    danger = any(b.alive[q] and q != p and b.size[q] <= 2 for q in range(b.n))
    low = LIFE[b.char[p]] - b.damage[p] <= 2
    return _needed(b.hands[p], b, p), tuned(b), heuristic(b), danger, low


def features(b: Battle, a: tuple, ctx: tuple | None = None) -> list[float]:
    """Move ``a``'s features for the seat to move (``expert.FEATURE_NAMES`` + ``EXTRA_NAMES``)."""
    now, tu, he, danger, low = _context(b) if ctx is None else ctx
    f = move_features(b, a, now)
    x = [0.0] * len(EXTRA_NAMES)
    x[0] = 1.0 if a == tu else 0.0
    x[1] = 1.0 if a == he else 0.0
    k = a[0]
    if k == "R":
        x[2 + b.char[b.turn]] = 1.0
    elif k == "P":
        if danger:
            x[10] = 1.0
            x[11] = a[1] / 13
        if low:
            x[14] = 1.0
    elif k in ("S", "W") and danger:
        x[12] = 1.0
    elif k == "G":
        if danger:
            x[13] = 1.0
        if low:
            x[15] = 1.0
    return f + x


def scores(b: Battle, moves: list[tuple], w=None) -> list[float]:
    w = W if w is None else w
    ctx = _context(b)
    return [sum(t * v for t, v in zip(w, features(b, a, ctx), strict=True) if v) for a in moves]


def policy(b: Battle) -> tuple:
    """The legal move of highest ``W . features`` (first in legal order on a tie); a move that
    empties the hand whenever there is one."""
    legal = b.legal()
    if len(legal) == 1:
        return legal[0]
    p = b.turn
    size = b.size[p]
    for a in legal:
        if (a[0] == "P" and sum(x for _, x in a[3]) == size) or (a[0] == "G" and size == 1):
            return a
    s = scores(b, legal)
    return legal[max(range(len(legal)), key=lambda i: (s[i], -i))]


def top(b: Battle, moves: list[tuple], k: int, keep: tuple | None = None) -> list[tuple]:
    """The ``k`` of ``moves`` the policy rates highest (in their order), and ``keep``."""
    if len(moves) <= k:
        return moves
    s = scores(b, moves)
    best = set(sorted(range(len(moves)), key=lambda i: (-s[i], i))[:k])
    return [a for i, a in enumerate(moves) if i in best or a == keep]


# ---- data and fit ----------------------------------------------------------------------------
def collect(first: int, end: int, out: str) -> None:
    """Play paired matches ``first..end`` with the hands oracle in the strong seat and append,
    per match, its decisions to ``out`` (pickle): (a deal drawn from the seat's view, the legal
    model moves, the oracle's pick, {candidate: (win rate, playouts)})."""
    from . import bots, paired
    from .convert import action_map
    from .determinize import ViewInfo
    real = bots.advise
    rows: list = []

    def spy(view, legal, **kw):
        adv = real(view, legal, **kw)
        if view.phase != "choose" and len(legal) > 1:
            b = ViewInfo(view).sample(random.Random(len(rows)))
            amap = action_map(view, legal)
            moves = [a for a in b.legal() if a in amap]
            chosen = next((c.model for c in adv.candidates if c.action == adv.action), None)
            if chosen in moves:
                b.rng = None
                rows.append((b, moves, chosen,
                             {c.model: (c.mean, c.runs) for c in adv.candidates}))
        return adv

    bots.advise = spy
    try:
        with open(out, "ab") as f:
            for seed in range(first, end):
                start = len(rows)
                r = paired.match(seed, "heuristic", paired.HandsOracleBot)
                pickle.dump(rows[start:], f)
                f.flush()
                print(seed, r, len(rows), flush=True)
    finally:
        bots.advise = real


def load(paths: list[str]) -> list:
    rows = []
    for path in paths:
        with open(path, "rb") as f:
            while True:
                try:
                    rows += pickle.load(f)
                except EOFError:
                    break
    return rows


def target(row, label: str = "pick", temperature: float = 0.05) -> list[float]:
    """The target distribution over a row's legal moves: the oracle's pick (``pick``), its
    candidate of best win rate (``best``), or a softmax of its candidates' win rates
    (``soft``, at ``temperature``)."""
    _, moves, pick, cands = row
    t = [0.0] * len(moves)
    if label == "pick":
        t[moves.index(pick)] = 1.0
    elif label == "best":
        live = {a: m for a, (m, n) in cands.items() if n == max(r for _, r in cands.values())}
        t[moves.index(max(live, key=lambda a: (live[a], a == pick)))] = 1.0
    else:
        live = {a: m for a, (m, n) in cands.items() if a in moves}
        top_ = max(live.values())
        for a, m in live.items():
            t[moves.index(a)] = math.exp((m - top_) / temperature)
        z = sum(t)
        t = [x / z for x in t]
    return t


def fit(rows, label: str = "pick", l2: float = 1e-3, iterations: int = 25,
        temperature: float = 0.05) -> list[float]:
    """Newton's method on the mean log-likelihood of ``target`` under softmax(features . w)
    over each row's legal moves (numpy, at fitting time only)."""
    import numpy as np
    xs, ts, starts = [], [], []
    for row in rows:
        b, moves = row[0], row[1]
        ctx = _context(b)
        starts.append(len(xs))
        xs += [features(b, a, ctx) for a in moves]
        ts += target(row, label, temperature)
    x = np.array(xs, float)
    t = np.array(ts, float)
    st = np.array(starts)
    group = np.repeat(np.arange(len(st)), np.diff(np.append(st, len(x))))
    n = len(st)
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        z = x @ w
        m = np.maximum.reduceat(z, st)[group]
        e = np.exp(z - m)
        p = e / np.add.reduceat(e, st)[group]
        g = x.T @ (p - t) / n + l2 * w
        gx = np.add.reduceat(p[:, None] * x, st)
        h = (x.T @ (p[:, None] * x) - gx.T @ gx) / n + l2 * np.eye(len(w))
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return [round(float(v), 3) for v in w]


def agreement(rows, choose) -> float:
    """The share of rows where ``choose(battle)`` is the oracle's pick."""
    return sum(choose(r[0].copy()) == r[2] for r in rows) / len(rows)


def main(argv: list[str]) -> None:
    if argv[0] == "collect":
        collect(int(argv[1]), int(argv[2]), argv[3])
        return
    # fit FILE...: 4/5 of the positions (by match file order: the last fifth held out)
    rows = load(argv[1:])
    cut = len(rows) * 4 // 5
    train, test = rows[:cut], rows[cut:]
    global W
    print(f"{len(rows)} positions, {len(train)} to fit, {len(test)} held out")
    for name, pol in (("tuned", tuned), ("heuristic", heuristic)):
        print(f"  {name}: held-out agreement {agreement(test, pol):.3f}")
    for label in ("pick", "best", "soft"):
        w = fit(train, label)
        W = tuple(w)
        print(f"  imitation ({label}): held-out agreement {agreement(test, policy):.3f}, "
              f"fit {agreement(train, policy):.3f}\n    W = {tuple(w)}")


W: tuple = (0.0,) * N_FEATURES

if __name__ == "__main__":
    main(sys.argv[1:])
