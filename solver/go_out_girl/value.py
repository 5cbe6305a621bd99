"""A learned leaf value for cut playouts (issue 15, eleventh pass): ``policy.estimate`` with
``policy.LEAF_VALUE`` on.

The hand-set estimate rates each seat by five features and turns the ratings into win chances
by a softmax. Here the same form -- a conditional logit over the seats still in the battle --
has more features per seat (``FEATURE_NAMES``) and weights fitted (``W``) as a *guide* rather
than a predictor: the positions come from model battles where every seat leaves its policy for
a uniformly random legal move some of the time (the searching seat, the tuned policy, more
often than the heuristic seats: ``DEVIATE``), so that life is traded, Guards are spent and
groups broken for no reason the rest of the position explains; and the label of a position is
who wins when it is played on from there the way a playout plays it (the searching seat by the
tuned policy, the others by the heuristic, no deviation). The second pass fitted the
five weights on positions of the tuned policy's own play, where it protected its life by
itself, and found life worth nothing (docs/solver-passes.md, sixth pass): the random deviations are
meant to make the cost of a lost life visible to the fit.

``python -m solver.go_out_girl.value fit [BATTLES]`` draws the positions (battle seeds from
500,000; held-out ones from 600,000), fits the weights by Newton's method with a little L2
(numpy, at fitting time only) and prints them with the held-out log-loss of the fit and of the
hand-set estimate on the same positions; the printed tuples are pasted into ``W_FREE``,
``W_LIFE`` and ``W_NOCHAR`` below. At run time the value is pure Python: a few microseconds a
seat beyond the fewest-plays count the hand-set estimate computes too.

Measured (docs/solver-passes.md, Go Out Girl, eleventh pass): a far better predictor than the hand-set
estimate (held-out log-loss 1.037 against 1.204) but no better a guide for the strong bot's
search. With the character's own weight the search picks Kira (life 4) for almost any hand and
is eliminated far more often (-0.092 +- 0.054 after 69 seeds); without it (``W_NOCHAR``) it
measures level with the hand-set estimate (-0.021 +- 0.027 over seeds 0-199). Off by default.
"""

from __future__ import annotations

import math
import random
import sys

from .model import GUARD, KYOKO, LIFE, OVER, Battle
from .partition import min_plays_fast

FEATURE_NAMES = (
    "plays", "plays_1", "plays_2", "guards", "life", "life_1", "life_2", "cards", "thirteens",
    "high", "lead", "to_move", "can_beat", "pressure", "revealed", "me",
    "char_0", "char_1", "char_2", "char_3", "char_4", "char_5", "char_6", "char_7",
)
N_FEATURES = len(FEATURE_NAMES)


def features(b: Battle, q: int, me: int) -> list[float]:
    """Seat q's features (``FEATURE_NAMES``): the fewest plays its hand needs (ability counted
    once revealed, Kyoko's only then), whether that is 1 or 2, its Guards, life left (capped at
    4) and whether it is 1 or 2, cards held, 13s, other cards of 11-12, whether it holds the
    initiative (the pile on the field is its own, or it leads), is to move, could beat the pile
    on the field, the damage of a pile on the field it does not own, whether its character is
    revealed, whether it is the searching seat, and its character (one-hot)."""
    h = b.hands[q]
    ch = b.char[q]
    rev = b.revealed[q]
    plays = min_plays_fast(h, ch if (ch != KYOKO or rev) else None)
    life = LIFE[ch] - b.damage[q]
    top = b.top
    if top is None:
        lead = b.turn == q
        beat = 1.0
        pressure = 0.0
    else:
        lead = top[3] == q
        beat = 1.0 if any(h[n] >= top[1] for n in range(top[0] + 1, 14)) else 0.0
        pressure = 0.0 if lead else float(top[2])
    f = [-float(plays), 1.0 if plays <= 1 else 0.0, 1.0 if plays == 2 else 0.0, float(h[GUARD]),
         float(min(life, 4)), 1.0 if life <= 1 else 0.0, 1.0 if life == 2 else 0.0,
         float(b.size[q]), float(h[13]), float(h[11] + h[12]), 1.0 if lead else 0.0,
         1.0 if b.turn == q else 0.0, beat, pressure, 1.0 if rev else 0.0,
         1.0 if q == me else 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    f[16 + ch] = 1.0
    return f


# Fitted by ``python -m solver.go_out_girl.value fit`` (its output is in docs/solver-passes.md, Go Out
# Girl, eleventh pass): every weight free (``W_FREE``), life priced as the hand-set estimate
# prices it and the rest fitted around it (``W_LIFE``, ``LIFE_PRICE`` below), or no weight on
# the character (``W_NOCHAR``, ``NO_CHARACTER``). ``WEIGHTS`` ("free", "life", "nochar") picks
# the set the estimate uses (``paired.py --set value.WEIGHTS=nochar``).
W_FREE: tuple[float, ...] = (
    0.604, 0.809, 0.248, 0.266, 0.146, -0.348, 0.04, -0.049, 0.698, 0.304, 0.463, 0.25, 0.313,
    0.124, -0.031, 0.374, -0.256, -0.32, 0.0, -0.106, 0.0, 0.706, 0.0, -0.023)
W_LIFE: tuple[float, ...] = (
    0.611, 0.81, 0.243, 0.265, 0.208, -0.667, 0.0, -0.034, 0.705, 0.309, 0.462, 0.244, 0.317,
    0.12, -0.021, 0.383, -0.311, -0.329, 0.0, -0.102, 0.0, 0.735, 0.0, 0.006)
W_NOCHAR: tuple[float, ...] = (
    0.608, 0.801, 0.242, 0.28, 0.089, -0.431, 0.013, -0.068, 0.703, 0.31, 0.457, 0.262, 0.312,
    0.131, -0.08, 0.37, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
WEIGHTS = "free"


def rating(b: Battle, q: int, me: int, w: tuple = W_FREE) -> float:
    return sum(a * x for a, x in zip(w, features(b, q, me), strict=True))


def estimate(b: Battle, me: int, w: tuple | None = None) -> float:
    """My chance of winning this battle under the learned value (softmax of the seats'
    ratings), from a position where it is not over yet."""
    if b.phase == OVER:
        return 1.0 if b.winner == me else 0.0
    if not b.alive[me]:
        return 0.0
    if w is None:
        w = {"life": W_LIFE, "nochar": W_NOCHAR}.get(WEIGHTS, W_FREE)
    rs = [(q, rating(b, q, me, w)) for q in range(b.n) if b.alive[q]]
    top = max(r for _, r in rs)
    z = sum(math.exp(r - top) for _, r in rs)
    mine = next(r for q, r in rs if q == me)
    return math.exp(mine - top) / z


# ---- fitting ------------------------------------------------------------------------------------
# ``W_LIFE`` is fitted with life priced as the hand-set estimate prices it (its weights over its
# temperature: 0.25 / 1.2 a point of life up to 4, 0.8 / 1.2 for 1 or less left).
LIFE_PRICE = {"life": round(0.25 / 1.2, 3), "life_1": round(-0.8 / 1.2, 3), "life_2": 0.0}
# ``W_NOCHAR`` has no weight on the character itself: in the data a character is the heuristic's
# choice for its hand, so its weight is the worth of the hands it is chosen for, not of the
# character (with it, the search chose Kira at 141 of 200 first choices, against 27).
NO_CHARACTER = {f"char_{i}": 0.0 for i in range(8)}
DEVIATE = (0.2, 0.08)  # chance of a random legal move: the searching seat, each other seat
MAX_STEPS = 3_000


def positions(seeds, per_battle: int = 3, follow: float = 0.0
              ) -> list[tuple[list[list[float]], int, list]]:
    """(features of each seat still in, index of the winner among them, hand-set estimate's
    features of each seat) at ``per_battle`` random decisions of each battle: the seat
    ``seed % 4`` plays the tuned policy, the others the heuristic, each leaving its policy for
    a random legal move with the chance ``DEVIATE``; the label is the winner when the position
    is played on from there without deviations (but the searching seat's, with the chance
    ``follow``)."""
    from .policy import heuristic, tuned
    from .tune import _features, deal

    out = []
    for s in seeds:
        b = deal(s)
        me = s % 4
        r = random.Random(s * 7 + 1)
        marks = {r.randrange(0, 100) for _ in range(per_battle)}
        steps = 0
        while b.phase != OVER and steps < MAX_STEPS:
            if steps in marks and b.alive[me]:
                alive = [q for q in range(b.n) if b.alive[q]]
                c = b.copy()
                c.rng = random.Random(s * 13 + steps)
                k = 0
                while c.phase != OVER and k < MAX_STEPS:
                    if c.turn != me:
                        c.apply(heuristic(c))
                    elif follow and r.random() < follow:
                        c.apply(r.choice(c.legal()))
                    else:
                        c.apply(tuned(c))
                    k += 1
                if c.winner in alive:
                    # the searching seat first: its index is what the estimate returns
                    order = [me] + [q for q in alive if q != me]
                    out.append(([features(b, q, me) for q in order], order.index(c.winner),
                                [_features(b, q) for q in order]))
            t = b.turn
            if r.random() < DEVIATE[0 if t == me else 1]:
                b.apply(r.choice(b.legal()))
            else:
                b.apply(tuned(b) if t == me else heuristic(b))
            steps += 1
    return out


def _arrays(data, which: int = 0):
    import numpy as np

    n = len(data)
    f = len(data[0][which][0])
    x = np.zeros((n, 4, f))
    mask = np.zeros((n, 4), dtype=bool)
    y = np.zeros(n, dtype=int)
    for i, row in enumerate(data):
        for j, v in enumerate(row[which]):
            x[i, j] = v
            mask[i, j] = True
        y[i] = row[1]
    return x, mask, y


def _loss(w, x, mask, y, l2: float = 0.0):
    """Mean negative log-likelihood of the winners (a conditional logit over the seats still
    in), plus ``l2 / 2 |w|^2``; with its gradient and Hessian."""
    import numpy as np

    z = np.where(mask, x @ w, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    n = len(y)
    ll = -np.log(p[np.arange(n), y] + 1e-12).mean() + 0.5 * l2 * w @ w
    xbar = (p[..., None] * x).sum(axis=1)
    g = -(x[np.arange(n), y] - xbar).mean(axis=0) + l2 * w
    hx = np.einsum("nj,njf,njg->fg", p, x, x) / n - xbar.T @ xbar / n + l2 * np.eye(len(w))
    return ll, g, hx


def fit(train, l2: float = 1e-3, iterations: int = 25,
        fixed: dict[str, float] | None = None) -> tuple[float, ...]:
    """The weights maximising the penalised likelihood of the winners (Newton's method);
    ``fixed``: weights held at a value (by feature name), the others fitted around them."""
    import numpy as np

    x, mask, y = _arrays(train)
    w = np.zeros(x.shape[2])
    free = np.ones(len(w), dtype=bool)
    for name, v in (fixed or {}).items():
        w[FEATURE_NAMES.index(name)] = v
        free[FEATURE_NAMES.index(name)] = False
    for _ in range(iterations):
        _, g, hx = _loss(w, x, mask, y, l2)
        step = np.linalg.solve(hx[np.ix_(free, free)], g[free])
        w[free] -= step
        if abs(step).max() < 1e-6:
            break
    return tuple(round(float(a), 3) for a in w)


def log_loss(w, data) -> float:
    import numpy as np

    x, mask, y = _arrays(data)
    return float(_loss(np.asarray(w, dtype=float), x, mask, y)[0])


def hand_log_loss(data, w=None) -> float:
    """The hand-set estimate's log-loss on the same positions (its features, temperature)."""
    import numpy as np

    from .policy import HAND_ESTIMATE_W

    w = HAND_ESTIMATE_W if w is None else w
    x, mask, y = _arrays(data, 2)
    return float(_loss(np.asarray(w[:5], dtype=float) / w[5], x, mask, y)[0])


if __name__ == "__main__":
    if sys.argv[1:2] != ["fit"]:
        raise SystemExit("usage: python -m solver.go_out_girl.value fit [BATTLES [FOLLOW]]")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40_000
    follow = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    train = positions(range(500_000, 500_000 + n), follow=follow)
    test = positions(range(600_000, 600_000 + n // 4), follow=follow)
    print(f"{len(train)} positions, {len(test)} held out; hand-set estimate: held-out log-loss "
          f"{hand_log_loss(test):.4f}")
    for name, fix in (("W_FREE", None), ("W_LIFE", LIFE_PRICE), ("W_NOCHAR", NO_CHARACTER)):
        w = fit(train, fixed=fix)
        print(f"{name} = {w!r}\n  held-out log-loss {log_loss(w, test):.4f} "
              f"(train {log_loss(w, train):.4f})")
