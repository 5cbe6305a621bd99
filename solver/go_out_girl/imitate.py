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
legal moves the policy rates highest (and the default move); ``TREE`` -- the tree's first
alternative to the tuned policy's move at an in-tree decision (before the heuristic's and the
expert policy's), the playouts and the default move left to the tuned policy.

Measured (docs/solver-passes.md, Go Out Girl, twelfth pass): from the seat's view the fit predicts few
of the oracle's departures from the tuned policy (they are made on the others' hands), so it
agrees with the oracle no more often than the tuned policy does (0.716 against 0.720 held out).
Against three heuristic bots, paired with the default: ``PLAYOUT`` -0.064 +- 0.045 (71 seeds,
stopped), ``TOPK`` 4 -0.060 +- 0.040 (67 seeds, stopped), ``TREE`` -0.011 +- 0.016 (seeds
0-199). All stay off.
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
TREE = False
WEIGHTS = "best"  # the weight set the policy uses: "pick", "best" or "soft" (below)

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


# Fitted by ``python -m solver.go_out_girl.imitate fit`` to 3,109 decisions of the hands oracle
# (match seeds 1000-1061 and 2000-2059, the last fifth of each file held out: 778 decisions),
# labelled by the oracle's pick (``W_PICK``), its candidate of best win rate (``W_BEST``) or a
# softmax of its candidates' win rates at temperature 0.05 (``W_SOFT``). Held-out agreement
# with the oracle's pick: 0.729, 0.716, 0.702 (the tuned policy 0.720, the heuristic 0.623).
W_PICK: tuple[float, ...] = (
    0.428, -0.137, -0.45, 1.814, -1.288, 0.587, -0.175, -0.443, 0.621, 0.208, 0.392, 0.092,
    -0.526, -0.907, 0.625, -0.184, -0.784, 0.434, 0.401, 1.055, 0.529, 0.255, -0.656, -1.945,
    -0.105, 1.701, -0.255, 1.339, 0.191, 0.351, 0.461, 0.806, -0.458, 0.0, -1.022, 0.296, 0.0,
    -0.28, 0.547, 0.373, 0.598, 0.139, -0.059)
W_BEST: tuple[float, ...] = (
    0.598, -0.121, -0.516, 1.983, -1.624, 0.664, -0.229, -0.427, 1.026, 0.588, 0.632, -0.015,
    -0.408, -1.075, 0.448, 0.048, -0.981, 0.836, 0.101, 1.0, 0.742, 0.405, -0.859, -2.157,
    0.039, 1.749, -0.405, 0.576, 0.067, 0.565, 0.287, 0.748, -0.37, 0.0, -1.407, 1.014, 0.0,
    -0.631, 0.512, 0.264, 0.613, 0.363, 0.106)
W_SOFT: tuple[float, ...] = (
    0.391, 0.06, -0.58, 1.513, -1.326, 0.402, -0.24, -0.115, 0.167, 0.322, 0.398, -0.026,
    -0.437, -0.488, 0.381, 0.077, -0.895, 0.66, 0.24, 0.711, 0.741, 0.18, -0.759, -1.392,
    0.103, 1.086, -0.18, 0.156, 0.073, 0.305, 0.365, 0.248, 0.083, 0.0, -0.964, 0.625, 0.0,
    -0.431, 0.313, -0.003, 0.028, 0.002, -0.09)
W: tuple[float, ...] | None = None  # explicit weights (the fit's report), else WEIGHTS' set


def weights() -> tuple[float, ...]:
    if W is not None:
        return W
    return {"pick": W_PICK, "soft": W_SOFT}.get(WEIGHTS, W_BEST)


def scores(b: Battle, moves: list[tuple], w=None) -> list[float]:
    w = weights() if w is None else w
    ctx = _context(b)
    return [sum(t * v for t, v in zip(w, features(b, a, ctx), strict=True) if v) for a in moves]


_MEMO: dict = {}  # (weights, the seat's part of the position) -> move: playouts revisit hands


def policy(b: Battle) -> tuple:
    """The legal move of highest ``W . features`` (first in legal order on a tie); a move that
    empties the hand whenever there is one. Memoised on everything the features read (the
    seat's hand, character, reveal, damage and size, the pile, the phase, the danger flag)."""
    p = b.turn
    w = weights()
    key = (id(w), p, b.phase, tuple(b.hands[p]), b.top, b.size[p], b.char[p], b.revealed[p],
           b.damage[p], any(b.alive[q] and q != p and b.size[q] <= 2 for q in range(b.n)))
    got = _MEMO.get(key)
    if got is not None:
        return got
    legal = b.legal()
    size = b.size[p]
    best = None
    if len(legal) == 1:
        best = legal[0]
    for a in legal:
        if best is None and ((a[0] == "P" and sum(x for _, x in a[3]) == size)
                             or (a[0] == "G" and size == 1)):
            best = a
    if best is None:
        s = scores(b, legal, w)
        best = legal[max(range(len(legal)), key=lambda i: (s[i], -i))]
    if len(_MEMO) > 200_000:
        _MEMO.clear()
    _MEMO[key] = best
    return best


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


def report(rows, choose) -> str:
    """Agreement with the oracle's pick: in all rows, where the oracle kept the tuned policy's
    move, and where it left it."""
    kept = [r for r in rows if tuned(r[0].copy()) == r[2]]
    left = [r for r in rows if tuned(r[0].copy()) != r[2]]
    return (f"{agreement(rows, choose):.3f} (kept the tuned move: {agreement(kept, choose):.3f} "
            f"of {len(kept)}; left it: {agreement(left, choose):.3f} of {len(left)})")


def recall(rows, k: int, w=None) -> float:
    """How often the oracle's pick is among the ``k`` legal moves rated highest."""
    hit = 0
    for b, moves, pick, _ in rows:
        s = scores(b, moves, w)
        best = sorted(range(len(moves)), key=lambda i: (-s[i], i))[:k]
        hit += moves.index(pick) in best
    return hit / len(rows)


def main(argv: list[str]) -> None:
    if argv[0] == "collect":
        collect(int(argv[1]), int(argv[2]), argv[3])
        return
    # fit FILE...: 4/5 of each file's positions to fit, its last fifth held out (whole matches)
    train, test = [], []
    for path in argv[1:]:
        rows = load([path])
        cut = len(rows) * 4 // 5
        train += rows[:cut]
        test += rows[cut:]
    global W
    print(f"{len(train) + len(test)} positions, {len(train)} to fit, {len(test)} held out")
    for name, pol in (("tuned", tuned), ("heuristic", heuristic)):
        print(f"  {name}: held-out agreement {report(test, pol)}")
    for label in ("pick", "best", "soft"):
        w = fit(train, label)
        W = tuple(w)
        print(f"  imitation ({label}): held-out agreement {report(test, policy)}; "
              f"fit {agreement(train, policy):.3f}; pick in top 3/4: "
              f"{recall(test, 3):.3f}/{recall(test, 4):.3f}\n    W = {tuple(w)}")


if __name__ == "__main__":
    main(sys.argv[1:])
