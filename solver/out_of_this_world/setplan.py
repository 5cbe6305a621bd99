"""The best use of one seat's hand in Out Of This World, as a CP-SAT model (and by brute force).

A *problem* is pure data read from a seat's view (``advisor.problem_from_view``): the hand as
counts per rules class, the cards this turn's take may add (or the Foe it must bring), the Foes
the seat may defeat, every seat's Foe weight, and the prices below. A *plan* chooses:

* at most one take option (exactly one when there are any);
* how many times each candidate *group* is played: an Equip triple (same value or same type,
  wilds as any type; the lowest card equipped, any card for the Tinkerer), a Pass pair to a
  given player (the lower card of a same-type pair, either of a same-value pair or for the
  Smooth Talker), a Defeat set for a given Foe (its vulnerability, wilds as any type; played
  twice where the Foe allows it);
* which one-use Spends to make (a Foe removed, discarded or moved on; a Time token back).

Constraints: each card is used at most once (the taken card included); each Foe is defeated at
most once; the groups, Defeats and Spends together take at most ``actions`` turns (one action a
turn, the rest of this round); a Foe in front of the seat that forbids Equipping (Passing) must
be defeated before any Equip (Pass).

Objective, in hundredths of a point (all integers, so CP-SAT and brute force agree exactly):

* ``equip_w`` per equipped point up to the seat's missing points, ``excess_w`` per point beyond;
  a bonus for Items the adventure wants equipped; plus ``goal`` once the plan's points reach
  the seat's missing points (worth a win when everyone else has reached theirs);
* minus ``token`` per Time token the round would cost now (the most Foe weight in front of any
  one player, after this plan), minus ``lose`` if that empties the Time Tracker;
* plus each defeated (removed, moved-away) Foe's ``worth`` (its weight in future rounds and its
  standing penalty), minus a taken Foe's ``worth`` and on-take cost;
* plus what a passed card is worth to its receiver, and a Spend's worth;
* plus what the cards left in hand are worth for later (``keep`` per class), counting at most
  ``keep_cap`` of them (the hand limit: more are discarded at the end of the round), and a bonus
  for each *hold*: a pair kept together toward a later Equip (same value or same type; a hold
  takes no action, its cards must be among those counted).

``solve(problem)`` builds the CP-SAT model (``num_workers=1``); ``brute(problem)`` enumerates
every plan; ``evaluate(problem, plan)`` scores a plan in Python. The optima agree
(``tests/solver/test_ootw_setplan.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations_with_replacement

from ortools.sat.python import cp_model

from p2pcards.games.out_of_this_world.sets import matching_sets, same_type

EQUIP_W = 100  # per equipped point the seat still needs
EXCESS_W = 10  # per equipped point beyond the seat's goal
BLOCK = 64  # big-M for "no Equip (Pass) before this Foe is defeated"


@dataclass(frozen=True)
class Kind:
    """An Item rules class (cards of one class are interchangeable)."""
    cid: int
    value: int
    type: str  # toys, music, gaming, hardware or wild
    name: str = ""
    bonus: int = 0  # extra worth when equipped (an Item the adventure wants equipped)


@dataclass(frozen=True)
class FoeSpec:
    """A Foe this seat may defeat (or that this turn's take brings)."""
    owner: int
    cid: int
    weight: int  # Foes it counts as when Time is lost
    vuln: tuple[str, ...]
    worth: int  # what getting rid of it is worth beyond this round's Time (centipoints)
    name: str = ""
    twice: bool = False  # its set may be played twice (then it is removed from the game)
    blocks: frozenset[str] = frozenset()  # "equip", "pass": what it forbids its owner
    take: int | None = None  # the take option that brings it (None: already in play)
    slot: int | None = None  # the engine slot (for the advisor), not used by the model
    defeatable: bool = True  # False: only a Spend can get rid of it (another player's Foe)


@dataclass(frozen=True)
class Take:
    label: str
    item: int | None = None  # the Item class it adds to the hand
    foe: int | None = None  # index in ``foes`` of the Foe it brings
    cost: int = 0  # on-take harm and the Foe's worth (centipoints)
    lost_actions: int = 0  # 1 if the take forbids this turn's action
    key: object = None  # the engine action (advisor only)


@dataclass(frozen=True)
class Spend:
    label: str
    worth: int
    foe: int | None = None  # index in ``foes`` of the Foe it removes (or moves)
    move_to: int | None = None  # the seat a moved Foe goes to
    key: object = None


@dataclass(frozen=True)
class Group:
    kind: str  # "equip", "pass", "defeat" (actions) or "hold" (a pair kept for later)
    cards: tuple[int, ...]  # class ids, sorted (with repeats)
    keep: int | None = None  # equip: the class equipped; pass: the class handed over
    to: int | None = None  # pass: the receiver
    foe: int | None = None  # defeat: index in ``foes``
    twice: bool = False
    points: int = 0  # equip: points equipped
    value: int = 0  # the group's own worth (equip bonus, pass value, hold bonus), centipoints

    @property
    def action(self) -> bool:
        return self.kind != "hold"


@dataclass
class Problem:
    me: int
    n: int
    kinds: dict[int, Kind]
    hand: dict[int, int]  # class -> count
    need: int  # points the seat still misses
    actions: int  # actions left this round (this turn's included)
    weights: list[int]  # Foe weight in front of each seat now
    time: int  # Time tokens left
    token: int  # worth of one Time token (centipoints)
    lose: int  # penalty when the round's loss empties the Time Tracker
    keep: dict[int, int]  # worth of keeping one card of a class (centipoints)
    keep_cap: int  # cards that may be kept (the hand limit)
    hold: dict[tuple[int, int], int] = field(default_factory=dict)  # pair (a <= b) -> bonus
    pass_value: dict[tuple[int, int], int] = field(default_factory=dict)  # (class, seat) -> worth
    foes: list[FoeSpec] = field(default_factory=list)
    takes: list[Take] = field(default_factory=list)
    spends: list[Spend] = field(default_factory=list)
    equip_any: bool = False
    pass_any: bool = False
    can_equip: bool = True  # not forbidden by an undefeatable cause
    can_pass: bool = True
    equip_w: int = EQUIP_W  # worth of an equipped point the seat still needs
    excess_w: int = EXCESS_W  # worth of an equipped point beyond the goal
    goal: int = 0  # worth of reaching the seat's goal this round (when it still misses points)
    _groups: list[Group] | None = None

    def groups(self) -> list[Group]:
        if self._groups is None:
            self._groups = candidate_groups(self)
        return self._groups

    def pool(self) -> dict[int, int]:
        """Every card the plan may use: the hand and any Item a take could add."""
        out = dict(self.hand)
        for t in self.takes:
            if t.item is not None:
                out[t.item] = max(out.get(t.item, 0), self.hand.get(t.item, 0) + 1)
        return {c: k for c, k in out.items() if k > 0}


@dataclass
class Plan:
    value: int
    take: int | None  # index in ``takes``
    groups: list[tuple[Group, int]]  # (group, times)
    defeated: list[int]  # foe indices defeated by a group
    spends: list[int]  # spend indices
    loss: int  # Time tokens the round would cost after the plan
    equipped: int  # points equipped by the plan
    kept: dict[int, int]  # cards left in hand, by class
    proven: bool = True  # False: the search stopped at its limit (or never ran): maybe not optimal
    work: float = 0.0  # CP-SAT's deterministic time spent on it (0 for brute force)

    def actions(self) -> int:
        return sum(k for g, k in self.groups if g.action) + len(self.spends)


# ---- candidate groups ------------------------------------------------------------------------
def candidate_groups(p: Problem) -> list[Group]:
    pool = p.pool()
    cids = sorted(pool)
    ks = p.kinds
    gs: list[Group] = []
    if p.can_equip:
        for trio in combinations_with_replacement(cids, 3):
            if any(trio.count(c) > pool[c] for c in set(trio)):
                continue
            vals = [ks[c].value for c in trio]
            if not (len(set(vals)) == 1 or same_type([ks[c].type for c in trio])):
                continue
            low = min(vals)
            keeps = sorted({c for c in trio if p.equip_any or ks[c].value == low})
            for kp in keeps:
                gs.append(Group("equip", trio, keep=kp, points=ks[kp].value, value=ks[kp].bonus))
    if p.can_pass:
        for a, b in combinations_with_replacement(cids, 2):
            if a == b and pool[a] < 2:
                continue
            ka, kb = ks[a], ks[b]
            if not (ka.value == kb.value or same_type([ka.type, kb.type])):
                continue
            if a == b:
                gives = [a]
            elif ka.value == kb.value or p.pass_any:
                gives = [a, b]
            else:
                gives = [a] if ka.value < kb.value else [b]
            for g in gives:
                for q in range(p.n):
                    if q != p.me:
                        gs.append(Group("pass", (a, b), keep=g, to=q,
                                        value=p.pass_value.get((g, q), 0)))
    for (a, b), bonus in sorted(p.hold.items()):
        if bonus > 0 and a in pool and b in pool and (a != b or pool[a] >= 2):
            gs.append(Group("hold", (a, b), value=bonus))
    cache: dict[tuple[str, ...], list[tuple[int, ...]]] = {}
    for i, f in enumerate(p.foes):
        if not f.defeatable:
            continue
        for twice in ((False, True) if f.twice else (False,)):
            reqs = f.vuln * (2 if twice else 1)
            if reqs not in cache:
                cache[reqs] = matching_sets(pool, reqs, lambda c: ks[c].type)
            for combo in cache[reqs]:
                gs.append(Group("defeat", combo, foe=i, twice=twice))
    return gs


# ---- scoring ---------------------------------------------------------------------------------
def kept_worth(p: Problem, kept: dict[int, int], held: dict[int, int] | None = None) -> int:
    """Worth of the cards left in hand: the held cards (all counted) and the best other ones,
    at most ``keep_cap`` cards in all."""
    held = held or {}
    n_held = sum(held.values())
    total = sum(p.keep.get(c, 0) * k for c, k in held.items())
    rest = sorted((p.keep.get(c, 0) for c, k in kept.items() for _ in range(k - held.get(c, 0))),
                  reverse=True)
    return total + sum(v for v in rest[:max(0, p.keep_cap - n_held)] if v > 0)


def feasible(p: Problem, take: int | None, counts: dict[Group, int], spends: list[int]) -> bool:
    if p.takes and take is None:
        return False
    t = p.takes[take] if take is not None else None
    hand = dict(p.hand)
    if t is not None and t.item is not None:
        hand[t.item] = hand.get(t.item, 0) + 1
    used: dict[int, int] = {}
    foe_uses: dict[int, int] = {}
    held = 0
    for g, k in counts.items():
        for c in g.cards:
            used[c] = used.get(c, 0) + k
        if g.kind == "hold":
            held += 2 * k
        if g.kind == "defeat":
            foe_uses[g.foe] = foe_uses.get(g.foe, 0) + k  # type: ignore[index]
    for s in spends:
        f = p.spends[s].foe
        if f is not None:
            foe_uses[f] = foe_uses.get(f, 0) + 1
    if any(used[c] > hand.get(c, 0) for c in used):
        return False
    for f, k in foe_uses.items():
        if k > 1:
            return False
        if p.foes[f].take is not None and p.foes[f].take != take:
            return False
    if held > p.keep_cap:
        return False
    n_actions = sum(k for g, k in counts.items() if g.action) + len(spends)
    if n_actions > max(0, p.actions - (t.lost_actions if t else 0)):
        return False
    for kind in ("equip", "pass"):
        if any(g.kind == kind for g, k in counts.items() if k):
            for i, f in enumerate(p.foes):
                if kind in f.blocks and f.owner == p.me and i not in foe_uses and (
                        f.take is None or f.take == take):
                    return False
    return True


def evaluate(p: Problem, take: int | None, counts: dict[Group, int],
             spends: list[int]) -> tuple[int, int, int, dict[int, int]]:
    """(objective, loss, points equipped, cards kept) of a feasible plan."""
    t = p.takes[take] if take is not None else None
    hand = dict(p.hand)
    if t is not None and t.item is not None:
        hand[t.item] = hand.get(t.item, 0) + 1
    weights = list(p.weights)
    obj = 0
    if t is not None:
        obj -= t.cost
        if t.foe is not None:
            weights[p.me] += p.foes[t.foe].weight
    points = 0
    gone: set[int] = set()
    held: dict[int, int] = {}
    for g, k in counts.items():
        if not k:
            continue
        for c in g.cards:
            if g.kind == "hold":
                held[c] = held.get(c, 0) + k
            else:
                hand[c] -= k
        obj += g.value * k
        if g.kind == "equip":
            points += g.points * k
        elif g.kind == "defeat":
            gone.add(g.foe)  # type: ignore[arg-type]
    for s in spends:
        sp = p.spends[s]
        obj += sp.worth
        if sp.foe is not None:
            f = p.foes[sp.foe]
            weights[f.owner] -= f.weight
            if sp.move_to is not None:
                weights[sp.move_to] += f.weight
            else:
                obj += f.worth
    for i in gone:
        f = p.foes[i]
        weights[f.owner] -= f.weight
        obj += f.worth
    eff = min(points, p.need)
    obj += p.equip_w * eff + p.excess_w * (points - eff)
    if p.need > 0 and points >= p.need:
        obj += p.goal
    loss = max(weights)
    obj -= p.token * loss
    if loss >= p.time:
        obj -= p.lose
    kept = {c: k for c, k in hand.items() if k > 0}
    obj += kept_worth(p, kept, held)
    return obj, loss, points, kept


# ---- brute force -----------------------------------------------------------------------------
def _brute_take(p: Problem, take: int | None, groups: list[Group],
                spend_sets: list[list[int]]) -> tuple[int, int | None, dict[Group, int], list[int]] | None:
    """The best plan with this take option, by enumeration."""
    best: tuple[int, int | None, dict[Group, int], list[int]] | None = None
    me = p.me
    t = p.takes[take] if take is not None else None
    hand = dict(p.hand)
    if t is not None and t.item is not None:
        hand[t.item] = hand.get(t.item, 0) + 1
    limit = max(0, p.actions - (t.lost_actions if t else 0))
    present = [f.take is None or f.take == take for f in p.foes]
    usable = [g for g in groups if g.action and all(g.cards.count(c) <= hand.get(c, 0)
                                                    for c in g.cards)
              and (g.kind != "defeat" or present[g.foe])]  # type: ignore[index]
    holds = [g for g in groups if not g.action and all(g.cards.count(c) <= hand.get(c, 0)
                                                       for c in g.cards)]
    blockers = {kind: [i for i, f in enumerate(p.foes) if kind in f.blocks and f.owner == me
                       and present[i]] for kind in ("equip", "pass")}
    base_w = list(p.weights)
    base_obj = 0
    if t is not None:
        base_obj -= t.cost
        if t.foe is not None:
            base_w[me] += p.foes[t.foe].weight
    sps = [sp for sp in spend_sets if all(
        p.spends[i].foe is None or present[p.spends[i].foe] for i in sp)]  # type: ignore[index]
    counts: dict[Group, int] = {}
    hcounts: dict[Group, int] = {}
    gone: list[int] = []
    kinds_used = {"equip": 0, "pass": 0}
    left = dict(hand)
    held: dict[int, int] = {}

    def leaf(points: int, vsum: int, n_actions: int) -> None:
        nonlocal best
        kept = {c: left.get(c, 0) + held.get(c, 0) for c in set(left) | set(held)}
        keep_worth = kept_worth(p, {c: k for c, k in kept.items() if k}, held)
        for sp in sps:
            if len(sp) + n_actions > limit:
                continue
            sfoes = [p.spends[i].foe for i in sp if p.spends[i].foe is not None]
            if len(set(sfoes)) < len(sfoes) or any(f in gone for f in sfoes):
                continue
            out = set(gone) | set(sfoes)  # type: ignore[arg-type]
            if any(kinds_used[k] and any(i not in out for i in blockers[k]) for k in kinds_used):
                continue
            w = list(base_w)
            obj = base_obj + vsum
            for i in gone:
                f = p.foes[i]
                w[f.owner] -= f.weight
                obj += f.worth
            for i in sp:
                sp_ = p.spends[i]
                obj += sp_.worth
                if sp_.foe is not None:
                    f = p.foes[sp_.foe]
                    w[f.owner] -= f.weight
                    if sp_.move_to is not None:
                        w[sp_.move_to] += f.weight
                    else:
                        obj += f.worth
            eff = min(points, p.need)
            obj += p.equip_w * eff + p.excess_w * (points - eff)
            if p.need > 0 and points >= p.need:
                obj += p.goal
            loss = max(w)
            obj -= p.token * loss
            if loss >= p.time:
                obj -= p.lose
            obj += keep_worth
            if best is None or obj > best[0]:
                best = (obj, take, {**counts, **hcounts}, list(sp))

    def rec_holds(i: int, room: int, points: int, vsum: int, n_actions: int) -> None:
        if i == len(holds):
            leaf(points, vsum, n_actions)
            return
        rec_holds(i + 1, room, points, vsum, n_actions)
        g = holds[i]
        k = 0
        while room - 2 * k >= 2 and all(left.get(c, 0) >= g.cards.count(c) for c in g.cards):
            for c in g.cards:
                left[c] -= 1
                held[c] = held.get(c, 0) + 1
            k += 1
            hcounts[g] = k
            rec_holds(i + 1, room - 2 * k, points, vsum + g.value * k, n_actions)
        for _ in range(k):
            for c in g.cards:
                left[c] += 1
                held[c] -= 1
        if k:
            del hcounts[g]

    def rec(i: int, budget: int, points: int, vsum: int) -> None:
        if i == len(usable):
            rec_holds(0, p.keep_cap, points, vsum, limit - budget)
            return
        rec(i + 1, budget, points, vsum)
        g = usable[i]
        k = 0
        while k < budget and all(left.get(c, 0) >= g.cards.count(c) for c in g.cards):
            if g.kind == "defeat" and (k >= 1 or g.foe in gone):
                break
            for c in g.cards:
                left[c] -= 1
            k += 1
            counts[g] = k
            if g.kind == "defeat":
                gone.append(g.foe)  # type: ignore[arg-type]
            if g.kind in kinds_used:
                kinds_used[g.kind] += 1
            rec(i + 1, budget - k, points + g.points * k, vsum + g.value * k)
        for _ in range(k):
            for c in g.cards:
                left[c] += 1
        if k:
            del counts[g]
            if g.kind == "defeat":
                gone.remove(g.foe)  # type: ignore[arg-type]
            if g.kind in kinds_used:
                kinds_used[g.kind] -= k

    rec(0, limit, 0, 0)
    return best


def brute(p: Problem) -> Plan:
    """Every plan, enumerated (small hands only: it is exponential). The action groups are tried
    in a fixed order, each some number of times, with running totals; then the holds among the
    cards left; every complete choice is tried with every subset of the Spends and scored."""
    groups = p.groups()
    best: tuple[int, int | None, dict[Group, int], list[int]] | None = None
    take_options: list[int | None] = list(range(len(p.takes))) if p.takes else [None]
    spend_sets: list[list[int]] = [[]]
    for i in range(len(p.spends)):
        spend_sets += [sub + [i] for sub in spend_sets]
    for take in take_options:
        found = _brute_take(p, take, groups, spend_sets)
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    assert best is not None
    value, take, counts, sp = best
    check, loss, points, kept = evaluate(p, take, counts, sp)
    assert check == value and feasible(p, take, counts, sp), (check, value)
    return Plan(value, take, sorted(counts.items(), key=_order),
                sorted(g.foe for g in counts if g.kind == "defeat"), sp, loss, points, kept)  # type: ignore[misc]


# ---- the advisor's entry point ---------------------------------------------------------------
BRUTE_CARDS = 4  # up to this many cards (the hand and a taken Item) brute force is faster
MIN_LIMIT = 0.02  # a search given less deterministic time than this is not started


class Work:
    """A work budget shared by the plan searches of one decision, in CP-SAT's deterministic
    time (a count of the solver's work, not a clock: the same view spends the same amount and
    gets the same answer on a busy machine). Each search gets at most ``per`` and at most what
    is left; once less than ``MIN_LIMIT`` is left, ``best`` answers with ``quick`` instead of
    searching. ``searches``/``stopped`` count the searches made and those cut by their limit."""

    def __init__(self, total: float, per: float = 1.0) -> None:
        self.total = total
        self.per = per
        self.spent = 0.0
        self.searches = 0
        self.stopped = 0  # searches stopped by their limit before proving their plan optimal
        self.skipped = 0  # searches not started: the budget was spent

    def left(self) -> float:
        return max(0.0, self.total - self.spent)

    def limit(self, time_limit: float) -> float:
        return min(time_limit, self.per, self.left())

    def full(self) -> bool:
        """Every search so far ran to its proven optimum."""
        return not self.stopped and not self.skipped


def best(p: Problem, *, time_limit: float = 1.0, work: Work | None = None) -> Plan:
    """The optimal plan: brute force on small hands, where it costs under a millisecond and
    CP-SAT's model alone costs several (``scripts/bench_solver.py`` prints both by hand size),
    CP-SAT otherwise. The two reach the same optimum (``tests/solver/test_ootw_setplan.py``).
    With ``work``, the search spends at most what is left of that budget (see ``Work``): a plan
    cut short says so (``proven`` False)."""
    cards = sum(p.hand.values()) + any(t.item is not None for t in p.takes)
    if cards <= BRUTE_CARDS and len(p.spends) <= 3:
        return brute(p)
    if work is None:
        return solve(p, time_limit=time_limit)
    limit = work.limit(time_limit)
    if limit < MIN_LIMIT:
        work.skipped += 1
        return quick(p)
    plan = solve(p, time_limit=limit)
    work.spent += plan.work
    work.searches += 1
    work.stopped += not plan.proven
    return plan


def quick(p: Problem) -> Plan:
    """A plan found with no search: no action, every card kept, the take option that scores
    best so (not proven optimal). The answer when the work budget is spent, or when a search
    stopped before finding any plan."""
    options: list[int | None] = list(range(len(p.takes))) if p.takes else [None]
    found = None
    for take in options:
        if not feasible(p, take, {}, []):
            continue
        v = evaluate(p, take, {}, [])
        if found is None or v[0] > found[0][0]:
            found = (v, take)
    assert found is not None  # the empty plan is feasible with any take
    (value, loss, points, kept), take = found
    return Plan(value, take, [], [], [], loss, points, kept, proven=False)


# ---- CP-SAT ----------------------------------------------------------------------------------
def solve(p: Problem, *, time_limit: float = 5.0) -> Plan:
    """The optimal plan by CP-SAT (``num_workers=1``)."""
    m = cp_model.CpModel()
    groups = p.groups()
    pool = p.pool()
    limit = max(0, p.actions)
    z = [m.new_bool_var(f"take{i}") for i in range(len(p.takes))]
    if z:
        m.add_exactly_one(z)
    x = []
    for i, g in enumerate(groups):
        cap = min(pool[c] // g.cards.count(c) for c in set(g.cards))
        if g.action:
            cap = min(cap, limit, 1 if g.kind == "defeat" else limit)
        else:
            cap = min(cap, p.keep_cap // 2)
        x.append(m.new_int_var(0, max(0, cap), f"g{i}"))
    acts = [x[i] for i, g in enumerate(groups) if g.action]
    s = [m.new_bool_var(f"spend{i}") for i in range(len(p.spends))]
    # cards: the hand plus the taken Item
    def have(c: int):
        return p.hand.get(c, 0) + sum(z[i] for i, t in enumerate(p.takes) if t.item == c)

    by_card: dict[tuple[int, bool], list[tuple[int, int]]] = {}  # (class, action) -> (group, n)
    for i, g in enumerate(groups):
        for c in set(g.cards):
            by_card.setdefault((c, g.action), []).append((i, g.cards.count(c)))

    def use(c: int, action: bool):
        return sum(x[i] * n for i, n in by_card.get((c, action), ()))

    for c in pool:
        m.add(use(c, True) + use(c, False) <= have(c))
    # each Foe gone at most once, and only if it is there
    d = []
    for fi, f in enumerate(p.foes):
        ways = [x[i] for i, g in enumerate(groups) if g.kind == "defeat" and g.foe == fi]
        ways += [s[i] for i, sp in enumerate(p.spends) if sp.foe == fi]
        gone = m.new_bool_var(f"gone{fi}")
        m.add(sum(ways) == gone)
        if f.take is not None:
            m.add(gone <= z[f.take])
        d.append(gone)
    if z:
        m.add(sum(acts) + sum(s) <= sum(z[i] * max(0, limit - t.lost_actions)
                                        for i, t in enumerate(p.takes)))
    else:
        m.add(sum(acts) + sum(s) <= limit)
    for kind in ("equip", "pass"):
        uses = [x[i] for i, g in enumerate(groups) if g.kind == kind]
        if not uses:
            continue
        for fi, f in enumerate(p.foes):
            if kind in f.blocks and f.owner == p.me:
                present = d[fi] if f.take is None else d[fi] + (1 - z[f.take])
                m.add(sum(uses) <= BLOCK * present)
    # points
    pts = sum(x[i] * g.points for i, g in enumerate(groups) if g.kind == "equip")
    max_pts = sum(g.points * limit for g in groups if g.kind == "equip") or 0
    eff = m.new_int_var(0, max(0, p.need), "eff")
    m.add(eff <= pts)
    total = m.new_int_var(0, max(0, max_pts), "pts")
    m.add(total == pts)
    reach = m.new_bool_var("reach")  # the plan reaches the seat's goal
    if p.need > 0 and p.goal:
        m.add(total >= p.need * reach)
    else:
        m.add(reach == 0)
    # Time: the most Foe weight in front of one player
    maxw = sum(f.weight for f in p.foes) + max(p.weights) + 8
    loss = m.new_int_var(0, maxw, "loss")
    for q in range(p.n):
        w = p.weights[q]
        expr = w
        for fi, f in enumerate(p.foes):
            if f.take is not None and q == p.me:
                expr += f.weight * z[f.take]
            if f.owner == q:
                expr -= f.weight * d[fi]
            for si, sp in enumerate(p.spends):
                if sp.foe == fi and sp.move_to == q:
                    expr += f.weight * s[si]
        m.add(loss >= expr)
    dead = m.new_bool_var("dead")
    m.add(loss <= p.time - 1 + maxw * dead)
    # cards kept: the held pairs and the best other cards, keep_cap of them at most
    kept_terms = []
    kv = []
    for c in pool:
        worth = p.keep.get(c, 0)
        kept_terms.append(worth * use(c, False))
        if worth <= 0:
            continue
        k = m.new_int_var(0, pool[c], f"keep{c}")
        m.add(k + use(c, True) + use(c, False) <= have(c))
        kv.append(k)
        kept_terms.append(worth * k)
    m.add(sum(kv) + sum(2 * x[i] for i, g in enumerate(groups) if not g.action) <= p.keep_cap)
    obj = (p.equip_w * eff + p.excess_w * (total - eff) + p.goal * reach
           + sum(x[i] * g.value for i, g in enumerate(groups) if g.value)
           - p.token * loss - p.lose * dead
           + sum(f.worth * d[fi] for fi, f in enumerate(p.foes))
           - sum(f.worth * s[si] for si, sp in enumerate(p.spends) if sp.move_to is not None
                 for fi, f in enumerate(p.foes) if sp.foe == fi)
           + sum(sp.worth * s[i] for i, sp in enumerate(p.spends))
           - sum(t.cost * z[i] for i, t in enumerate(p.takes))
           + sum(kept_terms))
    m.maximize(obj)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    # CP-SAT's own Ctrl-C catcher resets SIGINT to the default action when a solve ends:
    # Ctrl-C then killed p2pcards with no message, the terminal left in the alternate screen
    solver.parameters.catch_sigint_signal = False
    # a deterministic limit, not wall-clock time: on a loaded machine the answer stays the same
    # (with a wall-clock second, a busy machine stopped CP-SAT with a poorer plan, or none)
    solver.parameters.max_deterministic_time = time_limit
    status = solver.solve(m)
    if status == cp_model.UNKNOWN:  # stopped by its limit before it found any plan
        return replace(quick(p), work=solver.deterministic_time)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"CP-SAT found no plan ({solver.status_name(status)})")
    take = next((i for i, v in enumerate(z) if solver.value(v)), None)
    counts = {g: solver.value(x[i]) for i, g in enumerate(groups) if solver.value(x[i])}
    spends = [i for i, v in enumerate(s) if solver.value(v)]
    value, lossv, points, kept = evaluate(p, take, counts, spends)
    # an optimum scores the same in Python; a plan stopped early may keep poorer cards in the
    # model than ``evaluate`` (which keeps the best ones) counts
    if status == cp_model.OPTIMAL and value != round(solver.objective_value):
        raise AssertionError(f"CP-SAT objective {solver.objective_value} != plan value {value}")
    return Plan(value, take, sorted(counts.items(), key=_order), sorted(
        g.foe for g in counts if g.kind == "defeat"), spends, lossv, points, kept,  # type: ignore[misc]
        status == cp_model.OPTIMAL, solver.deterministic_time)


def _order(item: tuple[Group, int]) -> tuple:
    g, _ = item
    return ({"defeat": 0, "equip": 1, "pass": 2, "hold": 3}[g.kind], -g.points, g.cards, g.keep or 0, g.to or 0)
