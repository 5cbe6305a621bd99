"""Self-play tuning of the playout policy's weights (``policy.TUNED_W``), reproducibly.

Battles are played in the fast model (``model.Battle``): a deal of 11 cards to each of 4 seats
from a shuffled battle deck, each seat's character picked by the heuristic's rule among all
eight, a random start seat. The tuned seat is ``seed % 4``; the other three play the heuristic
(``policy.heuristic``). ``share(w, seeds)`` is the tuned seat's share of battle wins (an equal
player gets 0.25).

``search`` is a coordinate search: for each weight in turn, try each value of its grid on the
same fixed seeds (common random numbers) and keep a change only when the share rises by more
than ``step`` (0.004, about the standard error of a difference on 12,000 paired battles).

How ``TUNED_W`` was found (2 Dec 2026): ``search`` from ``HEURISTIC_W`` on seeds
100000-111999, two sweeps over ``GRID``, then the weights found at the grid's edge extended
(follow_plan 6 and 10, keep_pair 10 and 20, lead_plan 8): share 0.247 (the heuristic's own
weights) -> 0.353 (follow_plan 4.0) -> 0.367 (follow_plan 10.0). On held-out seeds
200000-211999 the follow_plan 4.0 weights took 0.360. The gains, in the order found:
lead_plan 2 (lead what leaves the fewest plays), follow_plan 4 then 10 (follow with the play
that keeps the hand's groups: +0.04), keep_pair 6 (lay singles as damage, keep groups),
hold13 99 (never hold a 13 back), guard_damage 1 (a Guard rather than any damage: +0.05).
Tried and not kept: pass_damage/pass_life (pass rather than make a play that does not shorten
the hand): at best 0.3716 against 0.3667 on the tuning seeds, 0.376 against 0.3745 held out.

``fit_estimate`` fits the leaf estimate (``policy.estimate``: a softmax over the seats' ratings)
to who actually wins: positions at three random decisions (5-79) of model battles of one tuned
seat against three heuristic seats -- the positions playouts stop at -- and a conditional logit
(the winner among the seats still in) fitted by gradient descent on the log-loss.
``FITTED_ESTIMATE_W`` came from seeds 300000-305999 (11,811 positions; held-out seeds
400000-402999, 5,912 positions: log-loss 1.162 with the hand-set weights, 1.114 fitted). What it
says: the fewest plays left is most of it (weight 0.65 at temperature 1, against 0.83); holding
the initiative is worth 0.21; a Guard 0.11 (was 0.29); life above 1 nothing (was 0.21 a point).

Run: ``python -m solver.go_out_girl.tune [battles]``; ``... tune fit [battles]`` fits the
estimate.
"""

from __future__ import annotations

import math
import random
import sys

from .model import GUARD, LIFE, OVER, Battle, empty_counts
from .policy import (
    HAND_ESTIMATE_W,
    HEURISTIC_W,
    TUNED_W,
    WEIGHT_NAMES,
    choose_character,
    heuristic,
    plays_needed,
    tuned,
    weighted,
)

DECK = [n for n in range(1, 14) for _ in range(6)] + [0] * 8
GRID: dict[int, list[float]] = {0: [1.0, 2.0, 3.0, 4.0], 1: [0.1, 0.25, 0.5, 1.0],
                                2: [0.0, 0.5, 1.0, 2.0, 4.0], 3: [0.0, 1.0, 2.0, 4.0],
                                4: [0.0, 1.5, 3.0, 6.0], 5: [2, 4, 6, 99], 6: [1, 2, 3, 9],
                                7: [0, 1, 2, 3], 8: [0, 1, 2, 3]}
MAX_STEPS = 3_000  # decisions per battle (a battle is about 60)


def deal(seed: int, n: int = 4) -> Battle:
    """A battle about to start, dealt from ``seed``."""
    r = random.Random(seed)
    d = DECK[:]
    r.shuffle(d)
    b = Battle(n)
    b.rng = random.Random(seed ^ 77)
    for q in range(n):
        h = empty_counts()
        for c in d[q * 11:(q + 1) * 11]:
            h[c] += 1
        b.hands[q] = h
        b.size[q] = 11
        b.char[q] = choose_character(h, list(range(8)), r)
    b.deck = d[n * 11:]
    b.turn = r.randrange(n)
    return b


def share(w: tuple, seeds) -> float:
    """The share of battles the seat playing ``weighted(., w)`` wins against three heuristic
    seats (the seat is ``seed % 4``)."""
    return share_of(lambda b: weighted(b, w), seeds)


def share_of(policy, seeds, opponent=heuristic) -> float:
    """The share of battles the seat playing ``policy`` wins against three ``opponent`` seats
    (the seat is ``seed % 4``)."""
    won = total = 0
    for s in seeds:
        b = deal(s)
        me = s % 4
        steps = 0
        while b.phase != OVER and steps < MAX_STEPS:
            b.apply(policy(b) if b.turn == me else opponent(b))
            steps += 1
        won += b.winner == me
        total += 1
    return won / total


def search(seeds, start: tuple = HEURISTIC_W, sweeps: int = 2, step: float = 0.004,
           log=print) -> tuple[tuple, float]:
    w = list(start)
    best = share(tuple(w), seeds)
    log(f"start {w} {best:.4f}")
    for _ in range(sweeps):
        for i, values in GRID.items():
            for v in values:
                if v == w[i]:
                    continue
                t = list(w)
                t[i] = v
                s = share(tuple(t), seeds)
                log(f"  {WEIGHT_NAMES[i]} = {v}: {s:.4f}")
                if s > best + step:
                    best, w = s, t
        log(f"-> {w} {best:.4f}")
    return tuple(w), best


def search_linear(theta, seeds, sweeps: int = 1, step: float = 0.004, log=print) -> tuple:
    """Coordinate search of a linear policy's weights (``expert.linear``) by self-play, from a
    start fitted to the search's labels (``expert.fit``): each weight in turn moves by -1 or +1
    (and once more the same way if that gains again), kept when the share of battles against
    three heuristic seats rises by more than ``step`` on the same seeds."""
    from .expert import FEATURE_NAMES, linear
    th = list(theta)
    best = share_of(linear(th), seeds)
    log(f"start {best:.4f}")
    for _ in range(sweeps):
        for i, name in enumerate(FEATURE_NAMES):
            for delta in (-1.0, 1.0):
                moved = False
                for _ in range(2):  # a step, and one more the same way if it pays again
                    t = list(th)
                    t[i] = round(t[i] + delta, 3)
                    s = share_of(linear(t), seeds)
                    if s <= best + step:
                        break
                    log(f"  {name} {th[i]} -> {t[i]}: {s:.4f}")
                    best, th, moved = s, t, True
                if moved:
                    break
    return tuple(th), best


def _features(b: Battle, q: int) -> list[float]:
    """The estimate's features of seat q, in the order of ``policy.ESTIMATE_NAMES`` (signed so
    that a positive weight times the feature adds to the rating)."""
    life = LIFE[b.char[q]] - b.damage[q]
    top = b.top
    lead = (top[3] == q) if top is not None else (b.turn == q)
    return [-float(plays_needed(b, q)), float(b.hands[q][GUARD]), float(min(life, 4)),
            -1.0 if life <= 1 else 0.0, 1.0 if lead else 0.0]


def positions(seeds) -> list[tuple[list[list[float]], int]]:
    """(features of each seat still in, index of the eventual winner among them) at three random
    decisions of each battle: one tuned seat (``seed % 4``) against three heuristic seats."""
    out = []
    for s in seeds:
        b = deal(s)
        me = s % 4
        r = random.Random(s)
        marks = {r.randrange(5, 80) for _ in range(3)}
        snaps = []
        steps = 0
        while b.phase != OVER and steps < MAX_STEPS:
            if steps in marks:
                alive = [q for q in range(b.n) if b.alive[q]]
                snaps.append((alive, [_features(b, q) for q in alive]))
            b.apply(tuned(b) if b.turn == me else heuristic(b))
            steps += 1
        for alive, f in snaps:
            if b.winner in alive:
                out.append((f, alive.index(b.winner)))
    return out


def log_loss(w: list[float], data, l2: float = 0.0) -> tuple[float, list[float]]:
    """Mean negative log-likelihood of the chosen options under softmax(features . w) (a
    conditional logit; ``data`` holds (options' features, index chosen)), plus ``l2 / 2 |w|^2``,
    and its gradient. Fits the leaf estimate here and the expert policy (``expert.fit``)."""
    total = 0.0
    grad = [0.0] * len(w)
    for fs, y in data:
        zs = [sum(a * x for a, x in zip(w, f, strict=True)) for f in fs]
        m = max(zs)
        es = [math.exp(z - m) for z in zs]
        tot = sum(es)
        total -= math.log(es[y] / tot + 1e-12)
        for j in range(len(w)):
            grad[j] -= fs[y][j] - sum(e * f[j] for e, f in zip(es, fs, strict=True)) / tot
    return (total / len(data) + 0.5 * l2 * sum(t * t for t in w),
            [g / len(data) + l2 * t for g, t in zip(grad, w, strict=True)])


def fit_estimate(train, iterations: int = 150, rate: float = 0.5) -> tuple:
    """Weights for ``policy.estimate`` (temperature 1) fitted on ``train`` (``positions``)."""
    wp, wg, wl, wlow, wlead, t = HAND_ESTIMATE_W
    w = [wp / t, wg / t, wl / t, wlow / t, wlead / t]
    for _ in range(iterations):
        _, g = log_loss(w, train)
        w = [a - rate * d for a, d in zip(w, g, strict=True)]
    return (*(round(a, 3) for a in w), 1.0)


def _scaled(w: tuple) -> list[float]:
    return [a / w[5] for a in w[:5]]


if __name__ == "__main__":
    if sys.argv[1:2] == ["fit"]:
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 6_000
        train = positions(range(300_000, 300_000 + n))
        test = positions(range(400_000, 400_000 + n // 2))
        w = fit_estimate(train)
        print(f"{len(train)} positions; fitted {w}; held-out log-loss "
              f"{log_loss(_scaled(w), test)[0]:.4f} (hand-set "
              f"{log_loss(_scaled(HAND_ESTIMATE_W), test)[0]:.4f}, {len(test)} positions)")
        sys.exit()
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 12_000
    print(f"tuned {TUNED_W}: {share(TUNED_W, range(200_000, 200_000 + n)):.4f} on held-out seeds, "
          f"heuristic weights {share(HEURISTIC_W, range(200_000, 200_000 + n)):.4f}")
