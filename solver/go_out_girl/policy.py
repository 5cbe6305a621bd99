"""The rollout policy and the evaluation of unfinished playouts.

The policy plays every seat in a playout. It is the heuristic bot's way of playing
(``p2pcards.bots.go_out_girl``: shed low cards in big groups, keep Guards and high cards for when
they matter, reveal when the ability pays), written over the model's count vectors so a playout
costs tens of microseconds a move. A truncated playout is scored by ``estimate``: each seat still
in the battle is rated by how many plays its hand needs (the fewest-plays partition, closed
form), its Guards and the life it has left, and the ratings become win chances by a softmax.

``weighted`` is the same procedure with its rules as weighted features; ``tuned`` plays it with
the weights found by self-play (``TUNED_W``, see ``tune.py``): the strong bot's own seat in its
playouts, and the move its search must clearly beat.
"""

from __future__ import annotations

import math
import random

from p2pcards.bots.go_out_girl import character_score as _bot_character_score

from . import value
from .model import (
    BARRIER,
    DAMAGE_PH,
    DISCARD_PH,
    GIVE,
    GUARD,
    GUARD_A,
    KEEP,
    KIRA,
    KYOKO,
    LEAD,
    LIFE,
    NERAI,
    NIWA,
    OVER,
    PASS,
    REVEAL,
    SATSUKI,
    SHIAN,
    TEN,
    TOYOKO,
    WITHDRAW,
    Battle,
)
from .partition import min_plays_fast


def _play_size(a: tuple) -> int:
    return sum(k for _, k in a[3])


def can_play(b: Battle, p: int) -> bool:
    top = b.top
    if top is None:
        return True
    h = b.hands[p]
    return any(h[n] >= top[1] for n in range(top[0] + 1, 14))


def should_reveal(b: Battle, p: int) -> bool:
    ch = b.char[p]
    top = b.top
    h = b.hands[p]
    if ch == SATSUKI:
        return True
    if ch == NERAI:
        return h[4] + h[5] > 0 and (top is None or top[0] < 6)
    if ch == TOYOKO:
        return h[1] > 0 and (top is None or top[0] >= 9)
    if ch == SHIAN:
        return top is not None and h[2] + h[3] >= 3 and top[2] >= 1
    if ch in (NIWA, TEN):
        return top is not None and not can_play(b, p)
    if ch == KYOKO:
        return top is not None and top[1] == 2 and not can_play(b, p)
    return False


def character_score(h: list[int], ch: int) -> float:
    """The heuristic bot's score for choosing character ``ch`` with hand ``h`` (count vector),
    before its tie-break: the bot's own rule (``p2pcards.bots.go_out_girl``)."""
    return _bot_character_score(h, ch, LIFE[ch])


def choose_character(h: list[int], options: list[int], rng: random.Random) -> int:
    """The heuristic bot's character choice for a hand (count vector): the best
    ``character_score``, with a tie-break of 0.01 at random (one draw per option, in order)."""
    return max(options, key=lambda ch: character_score(h, ch) + rng.random() * 0.01)


def plays_needed(b: Battle, q: int) -> int:
    ch = b.char[q]
    ability = ch if (ch != KYOKO or b.revealed[q]) else None
    return min_plays_fast(b.hands[q], ability)


# The leaf estimate's weights: a seat's rating is -plays * plays_needed + guards * Guards held
# + life * min(life left, 4) - low_life * (life left <= 1) + lead * (it holds the initiative: the
# pile on the field is its own, or it leads); win chances are softmax(rating / temperature).
ESTIMATE_NAMES = ("plays", "guards", "life", "low_life", "lead", "temperature")
HAND_ESTIMATE_W = (1.0, 0.35, 0.25, 0.8, 0.0, 1.2)  # set by hand (before 2 Dec 2026)
FITTED_ESTIMATE_W = (0.654, 0.113, -0.028, 0.506, 0.208, 1.0)  # fitted, see tune.fit_estimate
ESTIMATE_W = HAND_ESTIMATE_W
# The learned leaf value (``value.py``, eleventh pass) in place of the rating above: off by
# default (``paired.py --set policy.LEAF_VALUE=True`` selects it).
LEAF_VALUE = False


def rating(b: Battle, q: int, w: tuple | None = None) -> float:
    wp, wg, wl, wlow, wlead, _ = ESTIMATE_W if w is None else w
    life = LIFE[b.char[q]] - b.damage[q]
    top = b.top
    lead = (top[3] == q) if top is not None else (b.turn == q)
    return (-wp * plays_needed(b, q) + wg * b.hands[q][GUARD] + wl * min(life, 4)
            - (wlow if life <= 1 else 0.0) + (wlead if lead else 0.0))


def estimate(b: Battle, me: int, w: tuple | None = None) -> float:
    """My chance of winning this battle, from a position where it is not over yet (the learned
    value's, ``value.estimate``, when ``LEAF_VALUE`` is on and no weights are given)."""
    if LEAF_VALUE and w is None:
        return value.estimate(b, me)
    if b.phase == OVER:
        return 1.0 if b.winner == me else 0.0
    if not b.alive[me]:
        return 0.0
    w = ESTIMATE_W if w is None else w
    temperature = w[5]
    rs = [(q, rating(b, q, w)) for q in range(b.n) if b.alive[q]]
    top = max(r for _, r in rs)
    z = sum(math.exp((r - top) / temperature) for _, r in rs)
    mine = next(r for q, r in rs if q == me)
    return math.exp((mine - top) / temperature) / z


# ---- the tuned playout policy -------------------------------------------------------------------
# The heuristic bot's policy with its rules turned into weighted features. ``HEURISTIC_W`` is
# the heuristic bot's own policy (``heuristic``; a test checks it against the rules written
# out), ``TUNED_W`` was found by self-play (``tune.py`` describes the fixed seeds and search).
#
# lead_size, lead_number: a lead's score is size * lead_size - number * lead_number
#     - plays_left * lead_plan (the fewest plays the rest of the hand needs);
# follow_plan: a follow's cost is its number + follow_plan * plays_left;
# keep_pair: the keep value of a card is n + keep_pair * (copies held - 1) (damage, discard, give);
# hold13: keep a 13 instead of playing it on a top of damage <= 1 while the hand has more cards
#     than this;
# guard_damage: play a Guard rather than take this much damage.
# pass_damage, pass_life: pass (taking the damage) rather than make a play that does not
#     shorten the hand's fewest plays, when the damage is at most pass_damage and more than
#     pass_life life would be left (pass_damage 0: never).
WEIGHT_NAMES = ("lead_size", "lead_number", "lead_plan", "follow_plan", "keep_pair", "hold13",
                "guard_damage", "pass_damage", "pass_life")
HEURISTIC_W = (2.0, 0.25, 0.0, 0.0, 3.0, 4, 2, 0, 0)
TUNED_W = (2.0, 0.25, 2.0, 10.0, 6.0, 99, 1, 0, 0)


def _cheapest(h: list[int], kp: float) -> int:
    best_n, best_v = -1, 1e9
    for n in range(14):
        if h[n]:
            v = 100.0 if n == GUARD else n + kp * (h[n] - 1)
            if v < best_v:
                best_n, best_v = n, v
    return best_n


def _left_after(b: Battle, p: int, a: tuple) -> int:
    h = b.hands[p][:]
    for n, k in a[3]:
        h[n] -= k
    ch = b.char[p]
    return min_plays_fast(h, ch if (ch != KYOKO or b.revealed[p]) else None)


def weighted(b: Battle, w: tuple = HEURISTIC_W) -> tuple:
    """The heuristic's decision procedure with weighted features (``WEIGHT_NAMES``)."""
    lead_size, lead_number, lead_plan, follow_plan, kp, hold13, guard_d, pass_d, pass_life = w
    p = b.turn
    h = b.hands[p]
    ph = b.phase
    if ph == DAMAGE_PH:
        return ("D", _cheapest(h, kp))
    if ph == DISCARD_PH:
        return ("C", _cheapest(h, kp))
    if ph == GIVE:
        n = _cheapest(h, kp)
        return KEEP if n == GUARD else ("V", n)
    plays = b.plays(p)

    def lead(ps: list[tuple]) -> tuple:
        if lead_plan:
            return max(ps, key=lambda a: (_play_size(a) * lead_size - a[1] * lead_number
                                          - lead_plan * _left_after(b, p, a), -a[1]))
        return max(ps, key=lambda a: (_play_size(a) * lead_size - a[1] * lead_number, -a[1]))

    if ph == LEAD:
        return lead(plays) if plays else GUARD_A
    top = b.top
    rev = b.revealed[p]
    if not rev and should_reveal(b, p):
        return REVEAL
    if top is None:
        if plays:
            return lead(plays)
        return GUARD_A if h[GUARD] else REVEAL
    ch = b.char[p]
    if rev and ch == SHIAN and (top[0] >= 10 or top[2] >= 2):
        for a in range(4):
            if a <= h[2] and 3 - a <= h[3]:
                return ("X", a, 3 - a)
    d = top[2]
    lethal = b.damage[p] + d >= LIFE[ch]
    if plays:
        if follow_plan:
            best = min(plays, key=lambda a: (a[1] + follow_plan * _left_after(b, p, a),
                                             _play_size(a)))
        else:
            best = min(plays, key=lambda a: (a[1], _play_size(a)))
        waste = best[1] >= 13 and d <= 1 and b.size[p] > hold13
        if (pass_d and not lethal and d <= pass_d and LIFE[ch] - b.damage[p] - d > pass_life
                and _left_after(b, p, best) >= min_plays_fast(h, b.ability(p)
                                                              if ch != KYOKO or rev else None)):
            return PASS
        if not waste or lethal:
            return best
    barrier = not rev and ch == KIRA
    if lethal:
        if barrier:
            return BARRIER
        if h[GUARD]:
            return GUARD_A
        return plays[0] if plays else WITHDRAW
    if barrier and d >= 2:
        return BARRIER
    if h[GUARD] and (d >= guard_d or b.damage[p] + d >= LIFE[ch] - 1):
        return GUARD_A
    if plays:
        return min(plays, key=lambda a: a[1])
    return PASS


def heuristic(b: Battle) -> tuple:
    """The heuristic bot's choice in this position, for the seat to move: the weighted policy at
    the heuristic's own weights (tests/solver/test_gog_policy.py holds the rules written out)."""
    return weighted(b, HEURISTIC_W)


def tuned(b: Battle) -> tuple:
    """The tuned playout policy (``TUNED_W``)."""
    return weighted(b, TUNED_W)


def rollout(b: Battle, me: int, horizon: int, policy=heuristic, *,
            noise: float | list[float] = 0.0,
            rng: random.Random | None = None, mine=None) -> tuple[float, int]:
    """Play ``b`` on with ``policy`` for at most ``horizon`` decisions; my win value (1/0 at the
    end of the battle, ``estimate`` if cut short) and the decisions made.

    ``noise``: the opponent model. Each decision of a seat other than ``me`` is, with this
    chance, a legal move picked uniformly (``rng``) instead of the policy's: the others are
    modelled as players who mostly play like the heuristic bot and sometimes do not, so the
    plan chosen does not lean on their playing exactly like it. ``mine``: my own policy, if
    not ``policy`` (the tuned policy: ``tuned``). ``noise`` may be a list, one chance per seat
    (``opponents.TableMemory.noise``: each opponent as the model its play so far fits)."""
    steps = 0
    rnd = rng.random if rng is not None else random.random
    pick = rng.choice if rng is not None else random.choice
    nz = list(noise) if isinstance(noise, (list, tuple)) else [noise] * b.n
    while b.phase != OVER and steps < horizon:
        t = b.turn
        if t == me and mine is not None:
            b.apply(mine(b))
        elif t != me and nz[t] and rnd() < nz[t]:
            b.apply(pick(b.legal()))
        else:
            b.apply(policy(b))
        steps += 1
    if b.phase == OVER:
        return (1.0 if b.winner == me else 0.0), steps
    return estimate(b, me), steps
