"""Information-set search for The Girl and the Robot: determinized playouts from a seat's view.

``search(view, legal, budget, seed, base)`` is Perfect Information Monte Carlo over the seat's
information set:

1. **Deals.** The unseen cards are dealt ``budget.deals`` times at random among the deals the
   rules allow from the view (``determinize``), **stratified on the unseen top card of the Draw
   Pile**: some deals have a Demon there and the others not -- at least one of each when the
   chance is strictly between 0 and 1 -- and each deal is weighed by the exact chance of its
   stratum (``Unseen.top_demon``), so the comparison always sees the coming draw's risk at its
   true weight. When the unseen cards fit in no more distinct deals than that (a small hidden
   part), every distinct deal is taken once -- the expectation over the hidden cards is exact --
   and the playouts look two turns deeper.
2. **Candidates.** The legal actions are cut down to a few: the base move (the careful player's,
   or the advisor's rule), every way of ending the turn, and the best-rated variant of each other
   card or ability (at most ``budget.candidates`` in all), so the deals are spent on real
   alternatives.
3. **Playouts.** Each candidate is played in every deal, with the same random numbers for every
   candidate (the same deal, dealer seed and bot seeds: common random numbers, so the comparison
   is between the moves and not between the luck of the draws), then every seat -- the search's
   own seat too -- is played by ``policy.PlayoutBot`` up to ``budget.horizon`` turns ahead (or the
   end of the game), and scored by ``policy.value`` for the seat's team.
4. **Choice.** The base move stays unless another candidate beats it on the weighted paired
   differences by more than one standard error (and by at least ``MARGIN``): the search departs
   from the rule only where the playouts say so clearly.

Everything is seeded from ``seed`` and the view: the same view, legal actions, budget and seed
give the same result. The search never reads anything but the view.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from fractions import Fraction

from p2pcards.bots.girl_and_robot import GirlAndRobotBot
from p2pcards.engine import Action, Decide, Decision, LocalDealer
from p2pcards.games.girl_and_robot.game import Game

from .determinize import Inconsistent, Unseen
from .policy import CarefulBot, PlayoutBot, value

MARGIN = 0.01
MIN_DEALS = 3
EXACT_SLOTS = 12  # try the distinct deals only with this few unseen slots
MAX_STEPS = 2_000  # engine steps in one playout (a bound; a game is ~250 steps)
# the playout bots' decisions in one playout: past it the playout is scored where it stands, as
# at its horizon (16 games, 2,788 searches: at most 47, median 11-19)
MAX_DECISIONS = 120


@dataclass(frozen=True)
class Budget:
    deals: int = 8
    horizon: int = 4  # turns after the current one
    candidates: int = 5
    eps: float = 0.15  # the playout policy's noise
    work: int = 0  # stop after the deal in which the bots' decisions reach this (0: no limit)

    def bound(self, candidates: int | None = None) -> int:
        """The most playout decisions a search on this budget makes with ``candidates`` moves
        (default ``self.candidates``; the ways to end a turn may add one or two): whole deals
        until ``work`` is reached (at least ``MIN_DEALS``), each deal every candidate's
        playout, each playout at most ``MAX_DECISIONS``."""
        deal = (candidates or self.candidates) * MAX_DECISIONS
        if not self.work:
            return self.deals * deal
        # a new deal starts only while fewer than ``work`` are spent (or MIN_DEALS not played)
        return min(self.deals * deal, max(MIN_DEALS * deal, self.work - 1 + deal))


# work: a count of the playout bots' decisions, not a clock, so a search stays a function of the
# view and the seed. STRONG's 1,000 is above the most seen (688 over 1,394 searches in 16 games):
# it only cuts a search that the tail would make slow.
HINT = Budget(deals=6, horizon=2, candidates=4, work=120)
STRONG = Budget(deals=6, horizon=4, candidates=4, work=1000)


@dataclass
class Line:
    action: Action
    mean: float = 0.0
    survive: float = 0.0  # weighted share of deals where the seat is alive at the horizon
    team_alive: float = 0.0  # weighted share of deals where the whole team is alive then
    values: list[float] = field(default_factory=list)  # per deal: the playout's value
    alive: list[float] = field(default_factory=list)  # per deal: 1 if the seat is alive
    whole: list[float] = field(default_factory=list)  # per deal: 1 if the team is whole


@dataclass
class Result:
    best: Action
    base: Action  # the move kept unless another is clearly better
    lines: list[Line]
    deals: int
    exact: bool  # every distinct deal of the unseen cards was played
    searched: bool  # False: one candidate only, nothing was simulated
    horizon: int = 0  # turns played ahead
    unseen: int = 0  # cards the seat has not seen
    demon_deals: int = 0  # deals with a Demon on the (unseen) top of the pile
    top_demon: float = 0.0  # the exact chance of that, which weighs those deals
    work: int = 0  # the playout bots' decisions the search made (at most ``Budget.bound``)

    def line(self, a: Action) -> Line | None:
        return next((x for x in self.lines if x.action == a), None)


def candidates(view: Game, legal: list[Action], base: Action, bot: GirlAndRobotBot,
               limit: int) -> list[Action]:
    """The base move, the ways to end the turn, then the best-rated variant (by the heuristic
    bot's ratings, escapes included) of each other card or ability, best first, up to
    ``limit``."""
    out = [base]
    if view.phase != "turn":
        rest = [a for a in legal if a != base]
        return out + rest[: max(0, limit - 1)]
    out += [a for a in legal if a.kind == "end" and a != base]
    best: dict[tuple, tuple[float, int, Action]] = {}
    for i, a in enumerate(legal):
        if a.kind in ("end", "show", "ally", "flip") or a in out:
            continue
        key = (a.kind, a.get("card"), a.get("id"))
        sc = bot.score(view, a)
        if key not in best or sc > best[key][0]:
            best[key] = (sc, i, a)
    ranked = sorted(best.values(), key=lambda t: (-t[0], t[1]))
    out += [a for sc, _, a in ranked if sc > -1.0 or a.kind == "hide"]
    return out[:max(limit, 1 + sum(a.kind == "end" for a in legal))]


def seat_view(g: Game, q: int) -> Game:
    """Seat ``q``'s view of the full state ``g`` for a playout bot to read: as ``g.view(q)``
    but sharing every field except the card values (a bot only reads its view; copying the
    whole state for each of a playout's decisions would cost more than the decision)."""
    v = object.__new__(type(g))
    v.__dict__.update(g.__dict__)
    v.viewer = q
    bit = 1 << q
    v.values = [x if k & bit else None for x, k in zip(g.values, g.known, strict=True)]
    return v


def playout(g: Game, me: int, a: Action, seed: int, budget: Budget) -> int:
    """Play ``a`` for seat ``me`` in the full state ``g`` (changed in place), then every seat by
    the playout policy until ``budget.horizon`` more turns have begun, or the game ends; the
    number of decisions taken by the bots."""
    dealer = LocalDealer(seed)
    team = g.team[me]
    bots = [PlayoutBot(q, seed * 7 + q, budget.eps, careful=g.team[q] == team)
            for q in range(g.n_players)]
    g.apply(Decision(me, a), trusted=True)
    stop = g.turns + budget.horizon

    def arrange(by: int, slots: tuple[int, ...]):
        return bots[by].arrange(seat_view(g, by), slots)

    decisions = 0
    for _ in range(MAX_STEPS):
        req = g.pending()
        if req is None:
            break
        if isinstance(req, Decide):
            q = req.player
            if g.turns > stop and g.phase == "turn" or decisions >= MAX_DECISIONS:
                break
            legal = g.legal(q)  # the rules compute it from what seat q knows: as in its view
            if len(legal) == 1:
                act = legal[0]
            else:
                act = bots[q].decide(seat_view(g, q), legal)
                decisions += 1
            g.apply(Decision(q, act), trusted=True)
        else:
            g.apply(dealer.fulfil(g, req, arrange))
    return decisions


def search(view: Game, legal: list[Action], budget: Budget = STRONG, seed: int = 0,
           base: Action | None = None) -> Result:
    """The search's choice for the seat whose view this is (see the module text); ``base`` is
    the move to keep unless another is clearly better (default: the careful player's move)."""
    me = view.viewer
    if me is None or me < 0:
        raise ValueError("the search needs a seat's view")
    bot = GirlAndRobotBot(me, seed)  # rates the candidates (escapes included)
    if base is None:
        base = CarefulBot(me, seed).decide(view, legal)
    cands = candidates(view, legal, base, bot, budget.candidates)
    if len(cands) <= 1:
        return Result(base, base, [Line(base)], 0, False, False)
    rng = random.Random(seed * 1_000_003 + view.turns)
    try:
        unseen = Unseen(view)
    except Inconsistent:
        return Result(base, base, [Line(base)], 0, False, False)
    every = unseen.distinct(budget.deals) if len(unseen.slots) <= EXACT_SLOTS else None
    if every is not None:  # a small hidden part: every distinct deal, and a deeper look
        exact = True
        deals = [(d, 1.0, rng.randrange(1 << 30)) for d in every]
        budget = replace(budget, horizon=budget.horizon + 2)
    else:
        exact = False
        deals = [(unseen.deal(rng, strata), 1.0, rng.randrange(1 << 30))
                 for strata in _strata(unseen.top_demon(), budget.deals)]
    team = view.team[me]
    lines = [Line(a) for a in cands]
    work = 0
    played = 0
    for deal, _w, pseed in deals:
        if budget.work and work >= budget.work and played >= MIN_DEALS:
            break  # the work budget is spent: stop at a whole deal (deterministic, not timed)
        played += 1
        world = view.clone()
        world.viewer = None
        for s, c in deal.items():
            world.values[s] = c
        for line in lines:
            g: Game = world.clone()  # type: ignore[assignment]
            work += playout(g, me, line.action, pseed, budget)
            line.values.append(value(g, team))
            line.alive.append(float(g.alive[me]))
            line.whole.append(float(all(g.alive[q] for q in range(g.n_players)
                                        if g.team[q] == team)))
    strata = [] if exact else _strata(unseen.top_demon(), budget.deals)[:played]
    weights = _weights(unseen.top_demon(), strata) if strata else [1.0] * played
    total = sum(weights)
    for line in lines:
        line.mean = _mean(line.values, weights)
        line.survive = _mean(line.alive, weights)
        line.team_alive = _mean(line.whole, weights)
    base_line = lines[0]
    best = base_line
    best_gain = 0.0
    n_eff = total * total / sum(w * w for w in weights)
    for line in lines[1:]:
        diffs = [x - y for x, y in zip(line.values, base_line.values, strict=True)]
        gain = _mean(diffs, weights)
        var = _mean([(d - gain) ** 2 for d in diffs], weights) * n_eff / max(1.0, n_eff - 1)
        se = math.sqrt(var / n_eff)
        if gain > max(MARGIN, se) and gain > best_gain:
            best, best_gain = line, gain
    return Result(best.action, base, lines, played, exact, True, budget.horizon,
                  len(unseen.slots), sum(1 for x in strata if x), float(unseen.top_demon()),
                  work)


def _mean(xs: list[float], ws: list[float]) -> float:
    return sum(x * w for x, w in zip(xs, ws, strict=True)) / sum(ws)


def _strata(p: Fraction, n: int) -> list[bool | None]:
    """The deals' conditions on the unseen top card: a Demon (True) or not (False), about
    ``n * p`` of them a Demon but at least one of each when ``0 < p < 1`` and ``n > 1``, the
    second deal a Demon one (so a work-bounded search that stops early has both); None: the top
    card is seen, or certain."""
    if p <= 0 or p >= 1 or n < 2:
        return [None] * n
    k = min(n - 1, max(1, round(n * p)))
    m, j = n - 2, k - 1  # the other deals, and how many of them have a Demon on top
    # spread evenly: deal i of the rest has one when the running share k/n steps up
    rest = [((i + 1) * j) // m > (i * j) // m for i in range(m)] if m else []
    return [False, True, *rest]


def _weights(p: Fraction, strata: list[bool | None]) -> list[float]:
    """Each deal's weight: the chance of its stratum shared among the stratum's deals played,
    so the weighted means are unbiased for the true (unconditioned) chance of a Demon on top."""
    if not strata or strata[0] is None:
        return [1.0] * len(strata)
    n_d = sum(1 for x in strata if x)
    n_n = len(strata) - n_d
    pd = float(p)
    return [(pd / n_d if x else (1 - pd) / n_n) for x in strata]
