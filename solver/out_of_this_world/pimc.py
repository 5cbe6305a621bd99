"""Determinized round search from one seat's view (perfect-information Monte Carlo, issue 15).

At a decision the seat samples ``K`` worlds consistent with its view (``Unseen``: the cards it
has not seen dealt into the slots it cannot see -- the others' hands, the stack cards under the
tops, the deck -- uniformly among the deals the rules allow: a hand never holds a Foe, since a
Foe taken or dealt is laid out face up at once), plays each candidate move forward to the round's
end in every world with a fast team policy (``greedy``, every seat, on the round model), scores
each end by the carry score (``endgame.carry``: won first, then Time, the points toward each
goal, the Foes left, the cards kept) and keeps the candidate with the best mean. The worlds are
the same for every candidate (common random numbers), so the comparison is paired.

With ``rounds=2`` (opt-in) a playout whose round ends neither won nor lost goes on through the
next round (``Next``: the world's deck dealt into the stacks, every seat discarding down) and is
scored at that round's end.

The set advisor's move is always a candidate, and the search only overrides it when another
candidate's mean is better by ``MARGIN`` points: where the playouts cannot tell the moves apart
the priced set plan decides.

It never reads a card its seat has not seen: the worlds are drawn from the view alone
(``tests/solver/test_ootw_pimc.py`` checks that two full states with the same view give the same
move).
"""

from __future__ import annotations

import random

from p2pcards.games.out_of_this_world.data import TYPES, WILD
from p2pcards.games.out_of_this_world.game import Game
from solver.measure import mean_se

from .endgame import TOKEN, carry
from .model import (
    ACTION,
    CHANCE,
    GIVE,
    TAKE,
    Round,
    abstract,
    action_map,
    round_from_game,
    rules_of,
)

K = 12  # worlds a decision
MARGIN = 1.0  # carry points another candidate must gain over the advisor's move
MAX_CANDIDATES = 8
Z = 0.0  # standard errors of the paired difference an override must also pass (0: off)
# an Item take in the playouts: fit x fw + value x vw + ww for a wild (the fourth pass: 10, 1, 0;
# 2, 3, 4 agree with the set advisor's Item take on 81% of real positions, against 73%)
TAKE_WEIGHTS = (10, 1, 0)
MORE = 0  # further worlds for the best and the advisor's move when the verdict is close
WIN = 1000.0  # a won round in carry points (won comes first in the carry order)


class Unseen:
    """The cards one seat's view has not seen and the slots they may be in."""

    def __init__(self, view: Game) -> None:
        if view.viewer is None:
            raise ValueError("a determinization starts from one seat's view, not the full state")
        seen = {v for v in view.values if v is not None}
        cards = [c for c in range(view.n_cards) if c not in seen]
        slots = [s for s in range(view.n_cards) if view.values[s] is None]
        if len(cards) != len(slots):
            raise ValueError(f"{len(cards)} unseen cards for {len(slots)} unseen slots")
        self.hand_slots = [s for s in slots if view.zone_of[s].startswith("hand")]
        self.other_slots = [s for s in slots if not view.zone_of[s].startswith("hand")]
        self.items = [c for c in cards if not view._cards[c].is_foe]
        self.foes = [c for c in cards if view._cards[c].is_foe]
        if len(self.items) < len(self.hand_slots):
            raise ValueError("more unseen hand cards than unseen Items")

    def deal(self, rng: random.Random) -> dict[int, int]:
        """slot -> card for every unseen slot: the hands' unseen cards drawn from the unseen
        Items, then the rest shuffled into the other unseen slots (uniform over allowed deals)."""
        items = list(self.items)
        rng.shuffle(items)
        h = len(self.hand_slots)
        out = dict(zip(self.hand_slots, items[:h], strict=True))
        rest = items[h:] + self.foes
        rng.shuffle(rest)
        out.update(zip(self.other_slots, rest, strict=True))
        return out


# ---- the playout policy on the round model ----------------------------------------------------
def _fit(m: Round, hand: tuple[int, ...], c: int) -> int:
    """How well an Item joins a hand: cards of the same value or type (a wild fits any type)."""
    d = m.card(c)
    n = 0
    for h in hand:
        e = m.card(h)
        if e.value == d.value:
            n += 2
        elif e.type == d.type or WILD in (e.type, d.type):
            n += 1
    return n


def _set_cost(m: Round, cards: tuple[int, ...]) -> int:
    return sum(m.card(c).value for c in cards)


def best_equip(m: Round, p: int) -> tuple | None:
    """The Equip that keeps the highest Item (the cheapest such set): the same as the best of
    ``m._equips(p)`` by (kept value, -set value), without listing them all."""
    hand = m.hands[p]
    if len(hand) < 3:
        return None
    defs = [m.card(c) for c in hand]
    best = None
    best_key = None
    groups: dict[tuple, list[int]] = {}
    for i, d in enumerate(defs):
        groups.setdefault(("v", d.value), []).append(i)
        if d.type == WILD:
            for t in (*TYPES, WILD):
                groups.setdefault(("t", t), []).append(i)
        else:
            groups.setdefault(("t", d.type), []).append(i)
    for idx in groups.values():
        if len(idx) < 3:
            continue
        order = sorted(idx, key=lambda i: defs[i].value, reverse=True)
        if m.r.equip_any[p]:  # any card of the set is kept: the highest with the two lowest
            top = [order[0], order[-2], order[-1]]
            keep = hand[top[0]]
        else:
            low = defs[order[2]].value  # the highest lowest card a set can have
            top = [i for i in order if defs[i].value >= low][-3:]  # the cheapest such set
            keep = hand[top[-1]]
        trio = tuple(sorted(hand[i] for i in top))
        key = (m.card(keep).value, -sum(defs[i].value for i in top))
        if best_key is None or key > best_key:
            best, best_key = ("E", trio, keep), key
    return best


def greedy(m: Round, rng: random.Random) -> tuple:
    """A fast team policy on the round model: take the Foe one can defeat (else the lightest)
    or the Item that fits the hand best; Defeat one's own Foe, else Equip the highest Item, else
    Spend on one's own Foe or for Time, else (at the goal) Pass to the seat furthest from it."""
    p = m.turn
    st = m.step
    if st == CHANCE:
        acts = m.legal()
        return acts[rng.randrange(len(acts))]
    hand = m.hands[p]
    if st == TAKE:
        fw, vw, ww = TAKE_WEIGHTS
        best, best_s = None, None
        for i, z in enumerate(m.stacks):
            if not z:
                continue
            c = z[-1]
            d = m.card(c)
            if d.is_foe:
                s = 100 + (50 if m.matching(tuple(d.vulnerability), hand) else 0) - 10 * len(
                    d.effects)
            else:
                s = _fit(m, hand, c) * fw + d.value * vw + (ww if d.type == WILD else 0)
            if best_s is None or s > best_s:
                best, best_s = i, s
        foe_top = any(z and m.card(z[-1]).is_foe for z in m.stacks)
        if best is None:
            return m.legal()[0]
        if foe_top and not m.card(m.stacks[best][-1]).is_foe:
            best = next(i for i, z in enumerate(m.stacks) if z and m.card(z[-1]).is_foe)
        return ("T", best, False)
    if st == GIVE:
        q = min(m.r.order(p)[1:], key=m.points)
        return ("V", max(hand, key=lambda c: m.card(c).value), q)
    assert st == ACTION
    own = []
    for f in sorted(set(m.foes[p])):
        for combo in m.matching(tuple(m.card(f).vulnerability), hand):
            own.append(("D", p, f, combo, False))
    if own:
        return min(own, key=lambda a: _set_cost(m, a[3]))
    if not m.restricted(p, "no_equip"):
        eq = best_equip(m, p)
        if eq is not None:
            return eq
    for a in m._spends(p):
        if a[3] is None and m.card(a[2]).spend().do == "gain_time":
            return a
        if isinstance(a[3], tuple) and a[3][0] == p:
            return a
    goal = m.r.goal
    if goal and m.points(p) >= goal and not m.restricted(p, "no_pass"):
        passes = m._passes(p)
        if passes:
            q = min(m.r.order(p)[1:], key=m.points)
            to_q = [a for a in passes if a[4] == q]
            if to_q and m.points(q) < goal:
                return max(to_q, key=lambda a: m.card(a[3]).value)
    return ("N",)


def score(m: Round, token: float = TOKEN, value=carry) -> float:
    """The carry score of a round's end as one number (a won round first), a Time token worth
    ``token`` points; ``value`` is the carry score (``endgame.carry``)."""
    won, v = value(m)
    return v + (token - TOKEN) * (m.time - m.time0) + (WIN if won else 0.0)


def playout(m: Round, rng: random.Random, limit: int = 400, token: float = TOKEN,
            value=carry, nxt: Next | None = None) -> float:
    """Play the round to its end with ``greedy`` for every seat; its carry score. With ``nxt``
    (the world's next deal) a round that ends neither won nor lost is followed by the next
    round, played the same way, and scored at its end."""
    for _ in range(limit):
        if m.result is not None:
            break
        m.apply(greedy(m, rng))
    if nxt is not None and m.result == "over":
        nxt.start(m)
        for _ in range(limit):
            if m.result is not None:
                break
            m.apply(greedy(m, rng))
    return score(m, token, value)


class Next:
    """The next round's deal in one world (the multi-round playout): the cards the world puts
    in the deck, the discard pile the view shows and the cards a run-out adds (the adventure's
    set-aside cards, random Difficult Foes from the box), the next round's first player and
    each seat's hand limit. The cards discarded during the rest of this round are not
    followed: at a run-out the new deck is the known discard pile and the additions."""

    def __init__(self, view: Game, deal: dict[int, int], rng: random.Random,
                 stacks: int = 5) -> None:
        cls = view._cls
        deck = [cls[deal.get(s, view.values[s])] for s in view.zones["deck"]]
        discard = [cls[view.values[s]] for s in view.zones["discard"]
                   if view.values[s] is not None]
        adds: list[int] = []
        difficult = 0
        for a in view._additions_now():
            if "card" in a:
                left = a["count"]
                for s in sorted(view.zones["aside"]):
                    v = view.values[s]
                    if left and v is not None and view._cards[v].key == a["card"]:
                        adds.append(cls[v])
                        left -= 1
            else:
                difficult += a["random_difficult"]
        pool = [cls[view.values[s]] for s in sorted(view.zones["box"])
                if view.values[s] is not None and view._cards[view.values[s]].difficult]
        need = stacks * 4
        cards = deck[-need:]
        if len(cards) < need:  # a run-out: the additions join the discard pile, shuffled
            more = discard + adds + rng.sample(pool, min(difficult, len(pool)))
            rng.shuffle(more)
            cards += more[:need - len(cards)]
        self.stacks = [tuple(cards[i::stacks]) for i in range(stacks)]
        self.first = (view.first + 1) % view.n_players
        self.limits = [view.hand_limit(p) for p in range(view.n_players)]

    def start(self, m: Round) -> None:
        """Discard down (each seat keeps the cards that fit its hand best), deal the next
        round's stacks and hand the turn to its first player."""
        r = m.r
        for p in range(r.n):
            h = m.hands[p]
            if len(h) > self.limits[p]:
                ranked = sorted(h, key=lambda c: (_fit(m, h, c), m.card(c).value), reverse=True)
                m.hands[p] = tuple(sorted(ranked[:self.limits[p]]))
        m.stacks = list(self.stacks)
        m.turn = self.first
        m.step = TAKE
        m.no_action = False
        m.legs = 0
        m.sneaks = [0] * r.n
        m.pending = ()
        m.result = None


# ---- the search --------------------------------------------------------------------------------
def candidates(view: Game, legal, first) -> list[tuple]:
    """The model moves worth comparing: at a take, every take and Leg it!; at an action, the
    advisor's move, no action, every Defeat, Equip and Spend, and Passes to the seat furthest
    from its goal (at most ``MAX_CANDIDATES``, in that order)."""
    amap = action_map(view, legal)
    out = [first]
    moves = list(amap)
    if view.step == "take":
        return out + [a for a in moves if a != first]
    pts = {q: sum(view.card(s).value for s in view.equipped(q)) for q in range(view.n_players)}
    others = [q for q in range(view.n_players) if q != view.turn]
    low = min(others, key=lambda q: pts[q]) if others else None
    for kind in ("N", "D", "E", "S", "P"):
        for a in moves:
            if a[0] != kind or a in out:
                continue
            if kind == "P" and a[4] != low:
                continue
            out.append(a)
    return out[:MAX_CANDIDATES]


def _paired(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """The mean of ``xs - ys`` world by world and its standard error."""
    return mean_se([x - y for x, y in zip(xs, ys, strict=True)])


def search(view: Game, legal, first_action, rng: random.Random, k: int = K,
           margin: float = MARGIN, token: float = TOKEN, value=carry,
           rounds: int = 1, z: float = Z, more: int = MORE) -> tuple[object, dict]:
    """The engine action the search keeps (the advisor's ``first_action`` unless another
    candidate is better by ``margin``) and the mean carry score of each candidate. With
    ``rounds=2`` each playout goes on through the next round (``Next``).

    ``z`` > 0 (opt-in) also asks the best candidate's paired difference with the advisor's move
    over the worlds to pass ``z`` standard errors; ``more`` > 0 (opt-in) plays ``more`` further
    worlds for the two of them when the verdict is close (the difference within two standard
    errors of what an override needs), and decides on all the worlds."""
    if view.phase != "go" or view.step not in ("take", "action"):
        return first_action, {}
    try:
        unseen = Unseen(view)
    except ValueError:
        return first_action, {}
    first = abstract(view, first_action)
    cands = candidates(view, legal, first)
    if len(cands) < 2:
        return first_action, {}
    rules = rules_of(view)

    def worlds(acts: list[tuple], n: int) -> list[list[float]]:
        out: list[list[float]] = [[] for _ in acts]
        for _ in range(n):
            deal = unseen.deal(rng)
            base = round_from_game(view, rules, deal=deal)
            seed = rng.random()
            nxt = Next(view, deal, rng, view.n_stacks) if rounds > 1 else None
            for i, a in enumerate(acts):
                m = base.copy()
                m.apply(a)
                out[i].append(playout(m, random.Random(seed), token=token, value=value,
                                      nxt=nxt))
        return out

    scores = dict(zip(cands, worlds(cands, k), strict=True))
    means = {a: sum(v) / len(v) for a, v in scores.items()}
    best = max(cands, key=lambda a: means[a])
    if best == first:
        return first_action, means

    def need(se: float) -> float:  # what an override must gain (nan se: the margin alone)
        return max(margin, z * se) if se == se else margin

    d, se = _paired(scores[best], scores[first])
    if more > 0 and abs(d - need(se)) < 2 * se:
        extra = worlds([first, best], more)
        scores[first] = scores[first] + extra[0]
        scores[best] = scores[best] + extra[1]
        means[first] = sum(scores[first]) / len(scores[first])
        means[best] = sum(scores[best]) / len(scores[best])
        d, se = _paired(scores[best], scores[first])
    if d > need(se):
        amap = action_map(view, legal)
        return amap[best], means
    return first_action, means
