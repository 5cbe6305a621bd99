"""What the hidden cards the seat can count would tell a policy (issue 15, thirteenth pass).

A diagnostic, never a player. The twelfth pass fitted a policy from the seat's view to the hands
oracle's choices (``imitate.py``) and found it predicts few of the oracle's departures from the
tuned policy; its suggested next step was features of the hidden cards the seat can infer from
the public piles. This module measures that step against its own ceiling:

* ``unseen_counts(view)``: the multiset of battle cards the seat cannot see (the others' hands,
  their face-down damage, the deck), read from the view alone -- what the public piles and the
  seat's own cards leave;
* ``extras(b, a, pools)``: six features of move ``a`` about those cards: for a play, how many
  numbers above it the pools still hold as a group of its size, whether none does, the share
  of the pools' cards above it; for a card laid as damage (discarded, given), the share of the
  pools' cards above it and whether no single one of them beats it; for a pass or Guard,
  whether any pool could beat the pile. ``pools`` is ``[unseen]`` (public) or the others' true
  hands, one pool a seat (``true_hands``, the ceiling: what the same summaries would be worth
  with the hands known);
* ``collect``: the hands oracle's matches (``paired.HandsOracleBot``), each decision kept as
  ``imitate.collect`` keeps it plus ``{"unseen", "true"}``, and the per-seed rows as
  ``paired.py`` writes them (so the run doubles as the oracle's measurement);
* ``compare``: ``imitate``'s conditional logit fitted with no extras, the public extras and the
  true ones; held-out agreement with the oracle's pick where it kept and where it left the
  tuned policy's move.

``python -m solver.go_out_girl.hidden collect FIRST END ROWS.jsonl DATA.pkl`` and
``python -m solver.go_out_girl.hidden fit DATA.pkl...`` (numpy, at fitting time only).
Measured in docs/solver-passes.md, Go Out Girl, thirteenth pass.
"""

from __future__ import annotations

import json
import pickle
import random
import sys

from . import imitate
from .model import Battle, empty_counts
from .policy import tuned

N_EXTRAS = 6
EXTRA_NAMES = ("play_beaten_numbers", "play_unbeatable", "play_share_above",
               "card_share_above", "card_unbeatable", "pile_beatable")


def unseen_counts(view) -> list[int]:
    """Counts (index 0 the Guard) of the battle cards the seat cannot see; the view alone."""
    from .determinize import ViewInfo
    c = empty_counts()
    for n in ViewInfo(view).unseen:
        c[n] += 1
    return c


def true_hands(state, me: int) -> list[list[int]]:
    """The others' true hands as counts (a full state: the diagnostic's ceiling only)."""
    out = []
    for q in range(state.n_players):
        c = empty_counts()
        if q != me:
            for s in state.hand(q):
                c[state.number(state.values[s])] += 1
        out.append(c)
    return out


def _beating(pool: list[int], n: int, c: int) -> int:
    """How many numbers above ``n`` the pool holds at least ``c`` of."""
    return sum(1 for m in range(n + 1, 14) if pool[m] >= c)


def extras(b: Battle, a: tuple, pools: list[list[int]]) -> list[float]:
    """The six ``EXTRA_NAMES`` features of move ``a`` for the seat to move, from ``pools``."""
    x = [0.0] * N_EXTRAS
    total = sum(sum(p[1:]) for p in pools) or 1
    k = a[0]
    if k == "P":
        n, c = min(a[1], 13), a[2]
        most = max((_beating(p, n, c) for p in pools), default=0)
        x[0] = most / 13
        x[1] = 1.0 if most == 0 else 0.0
        x[2] = sum(sum(p[n + 1:]) for p in pools) / total
    elif k in ("D", "C", "V") and a[1] > 0:
        d = a[1]
        x[3] = sum(sum(p[d + 1:]) for p in pools) / total
        x[4] = 1.0 if all(_beating(p, d, 1) == 0 for p in pools) else 0.0
    elif k in ("S", "G", "W", "B") and b.top is not None:
        n, c = min(b.top[0], 13), b.top[1]
        x[5] = 1.0 if any(_beating(p, n, c) for p in pools) else 0.0
    return x


def pools(b: Battle, extra: dict, kind: str) -> list[list[int]]:
    """The pools ``extras`` reads: ``public`` the unseen multiset, ``true`` the true hands of
    the others still in the battle, ``none`` nothing."""
    if kind == "public":
        return [extra["unseen"]]
    if kind == "true":
        return [h for q, h in enumerate(extra["true"]) if q != b.turn and b.alive[q]]
    return []


def row_features(row, kind: str) -> list[list[float]]:
    b, moves = row[0], row[1]
    ctx = imitate._context(b)
    ps = pools(b, row[4], kind) if kind != "none" else None
    return [imitate.features(b, a, ctx) + (extras(b, a, ps) if ps is not None else [])
            for a in moves]


def fit(rows, kind: str, label: str = "pick", l2: float = 1e-3, iterations: int = 30):
    """Newton's method on the conditional logit (as ``imitate.fit``) with ``kind``'s extras."""
    import numpy as np
    xs, ts, starts = [], [], []
    for row in rows:
        starts.append(len(xs))
        xs += row_features(row, kind)
        ts += imitate.target(row[:4], label)
    x, t, st = np.array(xs, float), np.array(ts, float), np.array(starts)
    group = np.repeat(np.arange(len(st)), np.diff(np.append(st, len(x))))
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        z = x @ w
        e = np.exp(z - np.maximum.reduceat(z, st)[group])
        p = e / np.add.reduceat(e, st)[group]
        g = x.T @ (p - t) / len(st) + l2 * w
        gx = np.add.reduceat(p[:, None] * x, st)
        h = (x.T @ (p[:, None] * x) - gx.T @ gx) / len(st) + l2 * np.eye(len(w))
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return [float(v) for v in w]


def agreement(rows, w, kind: str) -> dict:
    """Agreement with the oracle's pick: all rows, where it kept and where it left the tuned
    policy's move, as (agreed, rows)."""
    out = {"all": [0, 0], "kept": [0, 0], "left": [0, 0]}
    for row in rows:
        b, moves, pick = row[0], row[1], row[2]
        s = [sum(t * v for t, v in zip(w, f, strict=True)) for f in row_features(row, kind)]
        ok = moves[max(range(len(moves)), key=lambda i: (s[i], -i))] == pick
        for key in ("all", "kept" if tuned(b.copy()) == pick else "left"):
            out[key][0] += ok
            out[key][1] += 1
    return {k: tuple(v) for k, v in out.items()}


def collect(first: int, end: int, rows_out: str, data_out: str) -> None:
    """The hands oracle's matches ``first..end``: per-seed rows (JSON lines, as ``paired.py``)
    and per decision (pickle, one list a match) ``imitate.collect``'s row plus
    ``{"unseen", "true"}``."""
    from . import bots, paired
    from .convert import action_map
    from .determinize import ViewInfo
    real = bots.advise
    rows: list = []
    now: dict = {}

    class Oracle(paired.HandsOracleBot):
        def decide(self, view, legal):
            now["state"] = self.state
            return super().decide(view, legal)

    def spy(view, legal, **kw):
        adv = real(view, legal, **kw)
        if view.phase != "choose" and len(legal) > 1:
            b = ViewInfo(view).sample(random.Random(len(rows)))
            amap = action_map(view, legal)
            moves = [a for a in b.legal() if a in amap]
            chosen = next((c.model for c in adv.candidates if c.action == adv.action), None)
            if chosen in moves:
                b.rng = None
                rows.append((b, moves, chosen, {c.model: (c.mean, c.runs) for c in adv.candidates},
                             {"unseen": unseen_counts(view),
                              "true": true_hands(now["state"], view.viewer)}))
        return adv

    bots.advise = spy
    try:
        with open(rows_out, "a") as fr, open(data_out, "ab") as fd:
            for seed in range(first, end):
                start = len(rows)
                r = paired.match(seed, "heuristic", Oracle)
                pickle.dump(rows[start:], fd)
                fd.flush()
                fr.write(json.dumps(r) + "\n")
                fr.flush()
                print(seed, r, len(rows), flush=True)
    finally:
        bots.advise = real


def compare(paths: list[str]) -> None:
    train, test = [], []
    for path in paths:
        rows = imitate.load([path])
        cut = len(rows) * 4 // 5
        train += rows[:cut]
        test += rows[cut:]
    print(f"{len(train)} decisions to fit, {len(test)} held out (the last fifth of each file)")
    for label in ("pick", "best"):
        for kind in ("none", "public", "true"):
            w = fit(train, kind, label)
            got = agreement(test, w, kind)
            text = "; ".join(f"{k} {a / max(n, 1):.3f} of {n}" for k, (a, n) in got.items())
            print(f"labels {label}, extras {kind}: held out {text}")
            if kind != "none":
                print("   " + ", ".join(f"{nm} {v:+.2f}" for nm, v in
                                        zip(EXTRA_NAMES, w[-N_EXTRAS:], strict=True)))


if __name__ == "__main__":
    if sys.argv[1] == "collect":
        collect(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5])
    else:
        compare(sys.argv[2:])
