"""Expert iteration for the playout policy: imitate what a large-budget search picks.

1. ``collect``: whole engine matches of the strong bot against three heuristic bots; at each of
   the strong seat's decisions with a choice, the advisor runs at ``LABEL_BUDGET`` simulated
   decisions from the seat's view and the position is kept with its candidates (model actions),
   their playout values and the search's pick (the label).
2. ``fit``: a conditional logit over the candidates' features (``move_features``): the chance of
   a candidate is softmax(theta . features); theta maximises the log-likelihood of the labels
   (gradient descent, a little L2).
3. ``linear(theta)``: the policy that plays the legal move of highest theta . features (but a
   move that empties the hand whenever there is one) -- in playouts (this seat's own moves) and
   as the search's default move.

Features of a move for the seat to move (``FEATURE_NAMES``) are the ones the hand-written rules
look at, made linear: for a play its size and as-number, the fewest plays the hand needs after it
(against before), whether it leads, is a 13 or higher on a small pile, empties the hand; for a
pass the damage it takes and the life it leaves; a Guard and the damage it saves; a reveal, and
whether the heuristic's reveal rule holds; Kira's barrier, Shian's Reset; for a card laid as
damage, discarded or given its number, whether it is a Guard, whether it breaks a group and the
plays the hand needs after.
"""

from __future__ import annotations

import pickle
import random
import sys

from .model import (
    GUARD,
    KYOKO,
    LIFE,
    Battle,
)
from .partition import min_plays_fast
from .policy import should_reveal
from .tune import log_loss

FEATURE_NAMES = (
    "play", "play_size", "play_number", "plays_saved", "lead", "lead_size", "lead_number",
    "high_on_small", "empties", "one_play_left",
    "pass", "pass_damage", "pass_low_life", "withdraw", "guard", "guard_damage", "guard_lead",
    "reveal", "reveal_rule", "barrier_damage", "reset",
    "card", "card_number", "card_guard", "card_breaks_group", "card_plays_saved", "keep",
)
N_FEATURES = len(FEATURE_NAMES)
LABEL_BUDGET = 16_000
# fitted to the best-mean labels of 2,857 positions (match seeds 1000-1089, LABEL_BUDGET), 300
# steps at rate 1 (``python -m solver.go_out_girl.expert fit``): held-out agreement 0.577 (the
# tuned policy 0.580, the heuristic 0.545); model battles against three heuristic seats 0.386
# (the tuned policy 0.378, seeds 200000-203999)
FITTED_W = (-0.085, 0.15, -1.007, 2.23, -1.239, 0.841, -1.263, -0.043, 0.289, 0.635, -0.001,
            0.019, -0.375, -1.479, 0.057, -0.022, -0.943, 0.627, 1.174, 1.046, 1.009, 0.301,
            -1.388, -2.514, -0.144, 1.728, -0.301)

# FITTED_W then tuned by self-play (``tune.search_linear``, one sweep, 4,000 model battles a
# value on seeds 100000-103999): pass_low_life -0.375 -> -1.375 (0.4075 -> 0.4153),
# card_breaks_group -0.144 -> 0.856 (-> 0.4323). Held out (seeds 200000-207999): 0.418 against
# the tuned policy's 0.379.
SELF_PLAY_W = (-0.085, 0.15, -1.007, 2.23, -1.239, 0.841, -1.263, -0.043, 0.289, 0.635, -0.001,
               0.019, -1.375, -1.479, 0.057, -0.022, -0.943, 0.627, 1.174, 1.046, 1.009, 0.301,
               -1.388, -2.514, 0.856, 1.728, -0.301)


def _needed(h: list[int], b: Battle, p: int) -> int:
    ch = b.char[p]
    return min_plays_fast(h, ch if (ch != KYOKO or b.revealed[p]) else None)


def move_features(b: Battle, a: tuple, now: int | None = None) -> list[float]:
    """The features of move ``a`` for the seat to move in ``b`` (``FEATURE_NAMES``). ``now``:
    the fewest plays the hand needs before the move, if already known."""
    p = b.turn
    h = b.hands[p]
    f = [0.0] * N_FEATURES
    k = a[0]
    if now is None:
        now = _needed(h, b, p)
    top = b.top
    if k == "P":
        size = sum(x for _, x in a[3])
        after = h[:]
        for n, x in a[3]:
            after[n] -= x
        left = _needed(after, b, p)
        f[0] = 1.0
        f[1] = size
        f[2] = a[1] / 13
        f[3] = now - left
        if top is None:
            f[4] = 1.0
            f[5] = size
            f[6] = a[1] / 13
        elif a[1] >= 13 and top[2] <= 1:
            f[7] = 1.0
        f[8] = 1.0 if b.size[p] == size else 0.0
        f[9] = 1.0 if left == 1 else 0.0
    elif k == "S":
        d = top[2] if top is not None else 0
        f[10] = 1.0
        f[11] = d
        f[12] = 1.0 if LIFE[b.char[p]] - b.damage[p] - d <= 1 else 0.0
    elif k == "W":
        f[13] = 1.0
    elif k == "G":
        f[14] = 1.0
        if top is None:
            f[16] = 1.0
        else:
            f[15] = top[2]
    elif k == "R":
        f[17] = 1.0
        f[18] = 1.0 if should_reveal(b, p) else 0.0
    elif k == "B":
        f[19] = top[2] if top is not None else 0
    elif k == "X":
        f[20] = 1.0
    elif k in ("D", "C", "V"):
        n = a[1]
        after = h[:]
        after[n] -= 1
        f[21] = 1.0
        f[22] = n / 13
        f[23] = 1.0 if n == GUARD else 0.0
        f[24] = 1.0 if h[n] >= 2 else 0.0
        f[25] = now - _needed(after, b, p)
    elif k == "K":
        f[26] = 1.0
    return f


def linear(theta: tuple | list):
    """The policy of highest ``theta . features`` among the legal moves."""
    th = list(theta)

    def policy(b: Battle) -> tuple:
        legal = b.legal()
        if len(legal) == 1:
            return legal[0]
        p = b.turn
        size = b.size[p]
        for a in legal:  # a move that empties the hand wins the battle at once
            if (a[0] == "P" and sum(x for _, x in a[3]) == size) or (a[0] == "G" and size == 1):
                return a
        now = _needed(b.hands[p], b, p)
        best, best_v = legal[0], -1e18
        for a in legal:
            f = move_features(b, a, now)
            v = sum(t * x for t, x in zip(th, f, strict=True) if x)
            if v > best_v:
                best, best_v = a, v
        return best
    return policy


# ---- labels -----------------------------------------------------------------------------------
def collect(seeds, budget: int = LABEL_BUDGET, log=print) -> list[dict]:
    """Positions of the strong bot's decisions in matches against three heuristic bots, labelled
    by the advisor at ``budget``: the probe battle (this seat's hand is exact, the rest a sample:
    features read only this seat's hand and public facts), the candidates, their values, the
    search's pick."""
    from p2pcards.bots.go_out_girl import GoOutGirlBot
    from p2pcards.engine import LocalDealer, play
    from p2pcards.games import new_game

    from .advisor import advise
    from .bots import StrongBot
    from .determinize import ViewInfo

    out: list[dict] = []

    class Labelled(StrongBot):
        """The strong bot, recording the advisor's label of each real choice it makes."""

        def decide(self, view, legal):
            if len(legal) > 1 and view.phase != "choose":
                adv = advise(view, legal, seed=self.label_seed * 1000 + len(out), budget=budget)
                probe = ViewInfo(view).sample(random.Random(0))
                cands = [(c.model, c.mean, c.runs) for c in adv.candidates if c.model is not None]
                pick = next(c.model for c in adv.candidates if c.action == adv.action)
                out.append({"battle": probe, "cands": cands, "pick": pick})
            return super().decide(view, legal)

    for seed in seeds:
        seat = seed % 4
        agents = [GoOutGirlBot(q, seed * 10 + q) for q in range(4)]
        agents[seat] = Labelled(seat, seed)
        agents[seat].label_seed = seed
        play(new_game("go-out-girl", 4), agents, LocalDealer(seed), max_steps=50_000)
        log(f"seed {seed}: {len(out)} positions")
    return out


# ---- fitting ----------------------------------------------------------------------------------
def dataset(positions: list[dict]) -> list[tuple[list[list[float]], int]]:
    data = []
    for pos in positions:
        b = pos["battle"]
        moves = [c[0] for c in pos["cands"]]
        if pos["pick"] not in moves or len(moves) < 2:
            continue
        data.append(([move_features(b, a) for a in moves], moves.index(pos["pick"])))
    return data


def fit(data, iterations: int = 400, rate: float = 0.5, l2: float = 1e-3,
        start: list[float] | None = None) -> list[float]:
    theta = list(start) if start is not None else [0.0] * N_FEATURES
    for _ in range(iterations):
        _, g = log_loss(theta, data, l2)
        theta = [t - rate * d for t, d in zip(theta, g, strict=True)]
    return [round(t, 3) for t in theta]


def agreement(policy, positions: list[dict]) -> float:
    """The share of positions where ``policy`` picks the search's pick."""
    hit = 0
    for pos in positions:
        hit += policy(pos["battle"].copy()) == pos["pick"]
    return hit / len(positions)


def best_mean(pos: dict) -> dict:
    """The position relabelled with the candidate of best playout mean among those played out
    to the end of the search (not the one the search's margin rule kept)."""
    most = max(c[2] for c in pos["cands"])
    return {**pos, "pick": max((c for c in pos["cands"] if c[2] == most), key=lambda c: c[1])[0]}


if __name__ == "__main__":
    # python -m solver.go_out_girl.expert collect START STOP FILE   (labels of match seeds)
    # python -m solver.go_out_girl.expert fit FILE...                (theta, held-out agreement)
    if sys.argv[1] == "collect":
        start, stop, path = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        pos = collect(range(start, stop))
        with open(path, "wb") as fh:
            pickle.dump(pos, fh)
    elif sys.argv[1] == "fit":
        pos = []
        for path in sys.argv[2:]:
            with open(path, "rb") as fh:
                pos += pickle.load(fh)
        order = list(range(len(pos)))
        random.Random(0).shuffle(order)
        cut = len(pos) * 4 // 5
        train = [best_mean(pos[i]) for i in order[:cut]]
        test = [best_mean(pos[i]) for i in order[cut:]]
        theta = fit(dataset(train), iterations=300, rate=1.0)
        print(f"{len(pos)} positions; theta {theta}; held-out agreement "
              f"{agreement(linear(theta), test):.3f}")
