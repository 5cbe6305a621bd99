"""Set advice for one seat of Out Of This World, from that seat's view alone.

The view gives the seat's own hand, every player's equipped Items and Foes (public), the hand
sizes, the face-up tops of the five stacks and the Time tokens. ``problem`` turns it into the
pure ``setplan.Problem`` (prices below), CP-SAT finds the best plan for the rest of the round,
and the advice is the plan's first step:

* **take**: the take option the optimal plan chooses (every legal take is an option of one
  model), unless Leg it! scores better (the same objective with an empty hand, the visible Foe
  left for the next player);
* **action**: one group of the plan -- a Defeat that unblocks the rest first, then Equips
  (highest first), Passes, other Defeats and Spends; no action when the plan is empty;
* **discard** (Taking Care of Things): the card whose loss costs the next round's plan least;
* **give** (Slingshot): each card to the player who needs it most;
* character: Monster Hunter, Tinkerer, Pack Rat, Smooth Talker, Sneaky, in that order; starter
  and the deal's Foe declaration: the heuristic bot's rules.

Prices, in hundredths of a point: a point equipped toward the seat's goal is 100 (more for a seat
further from its goal than the team's average); a Time token is worth what the team still needs
divided by the tokens left (between 4 and 16 points), and the Time the round's end costs is the
most Foe weight in front of one player -- the others' Foes at half weight (they may clear them),
the seat's own at less the more turns it has left, plus a phantom "Foe still to come" weighted by
the chance of taking one; a Foe got rid of is worth its share of later rounds' Time and its
standing penalty; a card kept for later is worth a little more than a third of the Equip it may
complete (less as the Time runs out), a pair kept together a bonus; a passed card is worth most
of a kept card to its receiver, more the further the receiver is from the goal. The prices are
a heuristic (``Prices``), tuned by playing whole games; the optimisation over them is exact.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from p2pcards.bots.out_of_this_world import OutOfThisWorldBot
from p2pcards.engine import Action
from p2pcards.games.out_of_this_world.data import WILD, CardDef
from p2pcards.games.out_of_this_world.game import Game
from solver import hints

from . import setplan
from .setplan import FoeSpec, Group, Kind, Plan, Problem, Spend, Take

LOSE = 1_000_000  # the game is lost: worse than anything else


@dataclass(frozen=True)
class Prices:
    keep_base: int = 10  # worth of a kept card: keep_base + keep_per_point * value (+ wild)
    keep_per_point: int = 20
    keep_wild: int = 30
    keep_done: int = 12  # a kept card once the seat's goal is met (Foe fodder, passes)
    hold_value: int = 25  # a kept pair of one value v: hold_value * v
    hold_type: int = 18  # a kept pair of one type: hold_type * the lower value
    pass_share: float = 0.8  # share of a card's keep worth its receiver gets from a Pass
    pass_need: bool = True  # scale it by the receiver's need against the team's average
    future: float = 0.25  # share of a Time token a Foe left in play costs in later rounds
    others_clear: float = 0.5  # share of their Foes the others are expected to keep to the end
    own_clear: float = 0.2  # each later turn this round may clear this share of one's own Foes
    own_floor: float = 0.35
    phantom: bool = True  # reserve a pair against a Foe still to come this round
    leg_penalty: int = 300  # extra cost of Leg it! beyond the hand it discards
    hunt: float = 0.25  # share of another player's Foe the Monster Hunter counts
    horizon_rounds: float = 3.0  # kept cards count fully with this many Time tokens to spare
    horizon_floor: float = 0.2
    sneak_share: float = 0.9  # share of the cheapest visible Foe's cost a Sneaky take pays
    token_min: int = 400
    token_max: int = 1600
    wanted: int = 1000  # an Item the adventure wants equipped
    discard_cost: float = 1.0  # a random discard costs this many average kept cards
    thrift: bool = True  # scale the seat's own equip worth by its need against the team's:
    thrift_base: float = 0.6  # base + slope * min(cap, need / the team's average need)
    thrift_slope: float = 0.4
    thrift_cap: float = 2.0
    goal: int = 400  # reaching one's goal this round (a win instead when it is the last one)


DEFAULT = Prices()


@dataclass
class Advice(hints.Advice):
    value: int | None = None
    options: list[tuple[str, int]] = field(default_factory=list)  # take options and their scores
    then: str | None = None  # at a take: the action the plan makes this turn
    seconds: float = 0.0

    def headline(self) -> str:
        return super().headline() + (f", then {self.then}" if self.then else "")

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "then": self.then, "value": self.value,
                "options": [{"text": t, "value": v} for t, v in self.options]}


# ---- reading the view ------------------------------------------------------------------------
class Reader:
    """What one seat's view says, priced for the set plan."""

    def __init__(self, view: Game, prices: Prices = DEFAULT, taken: bool | None = None) -> None:
        me = view.viewer
        if me is None or me < 0:
            raise ValueError("advice needs a seat's view")
        self.v = view
        self.me = me
        self.n = view.n_players
        self.prices = prices
        self.goal = view.points_needed()
        self.needs = [max(0, self.goal - view.points(q)) for q in range(self.n)]
        self.weights = [view.foe_weight(q) for q in range(self.n)]
        # Foe weight in tenths, as expected at the end of the round: this seat's as it stands
        # (the plan changes it), the others' reduced by what they are expected to clear
        left = sum(len(view.stack(i)) for i in range(view.n_stacks))
        if taken is None:
            taken = view.step != "take"
        self.taken = taken
        self.left = left
        self.future = max(0, left - (0 if taken else 1)) // self.n  # this seat's later turns
        own = max(prices.own_floor, 1.0 - prices.own_clear * self.future)
        self.rho = [own if q == me else 1.0 if left < self.n or not view.hand(q)
                    else prices.others_clear for q in range(self.n)]
        self.end_w = [round(10 * self.rho[q] * self.weights[q]) for q in range(self.n)]
        self.wanted = {w["card"] for w in view._adv.win if w["kind"] == "equipped"}
        self.win_foes = {w["card"] for w in view._adv.win if w["kind"] in ("no_foe", "defeated")}
        team_need = sum(self.needs)
        tv = 100 * (team_need + 10) // max(1, view.time)
        self.token = max(prices.token_min, min(prices.token_max, tv))
        self.kinds: dict[int, Kind] = {}
        # cards kept are worth less when few rounds are left to use them
        self.horizon = max(prices.horizon_floor, min(1.0, (view.time - 1) / prices.horizon_rounds))
        # reaching the seat's goal: the game is won at this round's end when every other
        # player has reached theirs and the adventure's other conditions hold (issue 14 item 11:
        # a seat one point short must not sit on its cards)
        others = [c for c in view._adv.win if c["kind"] != "equip_points"]
        self.last_goal = bool(self.needs[me]) and not any(
            self.needs[q] for q in range(self.n) if q != me) and all(
            view.condition_met(c) for c in others)
        self.goal_bonus = (0 if not self.needs[me] else 2 * LOSE if self.last_goal
                           else prices.goal)

    # cards
    def cls(self, slot: int) -> int:
        return self.v._cls[self.v.values[slot]]  # type: ignore[index]

    def cdef(self, cid: int) -> CardDef:
        return self.v._cinfo(cid)

    def kind(self, cid: int) -> Kind:
        k = self.kinds.get(cid)
        if k is None:
            c = self.cdef(cid)
            bonus = self.prices.wanted if c.key in self.wanted else 0
            k = Kind(cid, c.value, c.type or WILD, c.name, bonus)
            self.kinds[cid] = k
        return k

    def hand(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for s in self.v.hand(self.me):
            if self.v.values[s] is None:
                continue
            c = self.cls(s)
            if self.cdef(c).is_item:
                self.kind(c)
                out[c] = out.get(c, 0) + 1
        return out

    def keep_worth(self, cid: int, seat: int | None = None) -> int:
        p = self.prices
        c = self.cdef(cid)
        seat = self.me if seat is None else seat
        if not self.needs[seat]:
            return p.keep_done
        worth = p.keep_base + p.keep_per_point * c.value + (p.keep_wild if c.type == WILD else 0)
        return int(worth * self.horizon) + (p.wanted // 2 if c.key in self.wanted else 0)

    def hold_worth(self, a: int, b: int) -> int:
        """Bonus for keeping the pair (a, b) together toward a later Equip."""
        if not self.needs[self.me]:
            return 0
        ca, cb = self.cdef(a), self.cdef(b)
        best = 0.0
        if ca.value == cb.value:
            best = self.prices.hold_value * ca.value
        if ca.type == cb.type or WILD in (ca.type, cb.type):
            best = max(best, self.prices.hold_type * min(ca.value, cb.value))
        return int(best * self.horizon)

    def pass_worth(self, cid: int, q: int) -> int:
        if not self.needs[q]:
            return 0
        c = self.cdef(cid)
        worth = self.keep_worth(cid, q) * self.prices.pass_share
        if self.prices.pass_need:
            avg = sum(self.needs) / self.n
            worth *= max(0.5, min(2.0, self.needs[q] / avg)) if avg else 1.0
        known = [self.cdef(self.cls(s)) for s in self.v.hand(q) if self.v.values[s] is not None]
        if sum(1 for d in known if d.is_item and (d.value == c.value or d.type == c.type
                                                  or WILD in (d.type, c.type))) >= 2:
            worth += 60  # it completes a set among the cards we know they hold
        return int(worth)

    # Foes
    def foe_weight(self, c: CardDef) -> int:
        w = 1
        for e in c.fx("while_in_play"):
            if e.do == "counts_as":
                w = e.n
        return w

    def severity(self, c: CardDef) -> int:
        """Harm of keeping a Foe beyond the Time it costs (centipoints)."""
        s = 0
        for e in c.effects:
            if e.when == "while_in_play":
                s += {"no_equip": 600, "counts_as": 0, "hand_limit": 150, "no_pass": 80,
                      "no_spend": 40, "no_leg_it": 80}.get(e.do, 100)
            elif e.when in ("end_of_round", "end_of_turn") and e.do != "move_left":
                s += self.token * e.n if e.do == "lose_time" else 150 * e.n
        if c.key in self.win_foes:
            s += 1000
        return s

    def foe_worth(self, c: CardDef) -> int:
        return int(self.prices.future * self.token * self.foe_weight(c)) + self.severity(c)

    def blocks(self, c: CardDef) -> frozenset[str]:
        out = set()
        for e in c.fx("while_in_play"):
            if e.do == "no_equip":
                out.add("equip")
            elif e.do == "no_pass":
                out.add("pass")
        return frozenset(out)

    def foe_spec(self, slot: int, owner: int, defeatable: bool = True,
                 take: int | None = None) -> FoeSpec:
        cid = self.cls(slot)
        c = self.cdef(cid)
        w = round(10 * self.rho[owner] * self.foe_weight(c))
        worth = self.foe_worth(c)
        if owner != self.me:  # their owner may well defeat it: count only a share
            w = round(w * self.prices.hunt)
            worth = round(worth * self.prices.hunt)
        return FoeSpec(owner, cid, w, tuple(c.vulnerability), worth,
                       c.name, c.set_twice_removes, self.blocks(c) if owner == self.me else frozenset(),
                       take, slot, defeatable)

    def take_cost(self, c: CardDef, hand: dict[int, int]) -> tuple[int, int]:
        """(cost, lost actions) of taking Foe c: its on-take effects and its worth."""
        cost = self.foe_worth(c)
        lost = 0
        cards = sum(hand.values())
        avg = (sum(self.keep_worth(k) * n for k, n in hand.items()) // cards) if cards else 0
        for e in c.fx("on_take"):
            if e.do == "discard_random":
                if e.target == "owner":
                    cost += int(self.prices.discard_cost * avg) * min(e.n, cards)
                else:
                    cost += 60 * e.n
            elif e.do == "lose_time":
                cost += self.token * e.n + (LOSE if e.n >= self.v.time else 0)
            elif e.do == "no_action":
                lost = 1
        return cost, lost

    # the round
    def turns_left(self, taken: bool) -> int:
        """Actions left to this seat this round, this turn's included."""
        return 1 + self.future

    def foe_chance(self) -> float:
        """The chance that this seat takes another Foe later this round, from the Foes it has
        not seen among the cards it has not seen in the deck and the stacks."""
        v = self.v
        if not self.future:
            return 0.0
        zones = ["deck"] + [f"stack{i}" for i in range(v.n_stacks)]
        unseen = sum(1 for z in zones for s in v.zones[z] if v.values[s] is None)
        if not unseen:
            return 0.0
        # every Foe of the game but those in the box or set aside (public zones) is in play
        in_play = seen = 0
        for s in range(v.n_cards):
            if v.zone_of[s] in ("box", "aside"):
                continue
            c = v.values[s]
            if c is None:
                continue
            seen += v._cards[c].is_foe
        out = sum(1 for s in range(v.n_cards) if v.zone_of[s] in ("box", "aside")
                  and v._cards[v.values[s]].is_foe)  # type: ignore[index]
        in_play = sum(1 for c in v._cards if c.is_foe) - out
        f = min(1.0, max(0, in_play - seen) / unseen)
        return 1.0 - (1.0 - f) ** self.future

    def equip_scale(self) -> float:
        """The Equip worth of this seat's points: more when it is further from its goal than the
        team's average (every player must reach the goal), less when it is nearer."""
        if not self.prices.thrift:
            return 1.0
        avg = sum(self.needs) / self.n
        if not avg:
            return 1.0
        p = self.prices
        return p.thrift_base + p.thrift_slope * min(p.thrift_cap, self.needs[self.me] / avg)


def problem(view: Game, prices: Prices = DEFAULT, *, taken: bool | None = None,
            hand: dict[int, int] | None = None, actions: int | None = None,
            legal: list[Action] | None = None) -> tuple[Problem, Reader]:
    """The set plan problem of the seat whose view this is. At the take step the legal takes are
    the options; ``hand``/``actions`` override what the view says (for what-if questions)."""
    r = Reader(view, prices, taken)
    me = r.me
    step = view.step
    taken = r.taken
    h = r.hand() if hand is None else dict(hand)
    for c in h:
        r.kind(c)
    foes: list[FoeSpec] = []
    for q in (view.order(me) if view.power(me, "defeat_others_foes") else [me]):
        for s in sorted(view.foes(q)):
            foes.append(r.foe_spec(s, q))
    weights = list(r.end_w)
    if prices.phantom:
        chance = r.foe_chance()
        w = round(10 * r.rho[me] * chance)
        if w > 0:
            foes.append(FoeSpec(me, -1, w, ("any", "any"), 0, "a Foe still to come"))
            weights[me] += w
    takes: list[Take] = []
    if not taken and step == "take" and legal is not None:
        # a Sneaky take leaves the visible Foe to the next player: the team still pays for it
        foe_costs = [r.take_cost(view.card(view.stack(a.stack)[-1]), h)[0] for a in legal  # type: ignore[arg-type]
                     if a.kind == "take" and view.card(view.stack(a.stack)[-1]).is_foe]  # type: ignore[union-attr]
        sneak_cost = int(prices.sneak_share * min(foe_costs)) if foe_costs else 0
        for a in legal:
            if a.kind != "take":
                continue
            s = view.stack(a.stack)[-1]
            cid = r.cls(s)
            c = r.cdef(cid)
            label = view.describe(a)
            if c.is_foe:
                fi = len(foes)
                foes.append(r.foe_spec(s, me, take=len(takes)))
                cost, lost = r.take_cost(c, h)
                takes.append(Take(label, foe=fi, cost=cost, lost_actions=lost, key=a))
            else:
                r.kind(cid)
                cost = -c.value + (sneak_cost if a.get("sneak") else 0)  # ties: the higher card
                takes.append(Take(label, item=cid, cost=cost, key=a))
    spends: list[Spend] = []
    if not view.restricted(me, "no_spend"):
        for a in view._spend_actions(me):
            c = view.card(a.item)
            e = c.spend() if c else None
            if e is None:
                continue
            if e.do == "gain_time":
                spends.append(Spend(view.describe(a), r.token - 50, key=a))
            elif e.do in ("remove_foe", "discard_foe", "move_foe_left"):
                owner = int(view.zone_of[a.foe][4:])
                fi = next((i for i, f in enumerate(foes) if f.slot == a.foe), None)
                if fi is None:
                    fi = len(foes)
                    foes.append(r.foe_spec(a.foe, owner, defeatable=False))
                move = view.left(me) if e.do == "move_foe_left" else None
                spends.append(Spend(view.describe(a), -30, foe=fi, move_to=move, key=a))
    keep = {c: r.keep_worth(c) for c in r.kinds}
    for t in takes:
        if t.item is not None:
            keep.setdefault(t.item, r.keep_worth(t.item))
    scale = r.equip_scale()
    pass_value = {(c, q): r.pass_worth(c, q) for c in r.kinds for q in range(r.n) if q != me}
    hold = {}
    cids = sorted(r.kinds)
    for i, a in enumerate(cids):
        for b in cids[i:]:
            v = r.hold_worth(a, b)
            if v > 0:
                hold[(a, b)] = v
    p = Problem(
        me=me, n=r.n, kinds=dict(r.kinds), hand=h, need=r.needs[me],
        actions=r.turns_left(taken) if actions is None else actions,
        weights=weights, time=10 * view.time, token=r.token // 10, lose=LOSE, keep=keep,
        keep_cap=view.hand_limit(me), hold=hold, pass_value=pass_value, foes=foes, takes=takes,
        spends=spends, equip_any=bool(view.power(me, "equip_any")),
        pass_any=bool(view.power(me, "pass_any")),
        equip_w=int(round(setplan.EQUIP_W * scale)), goal=r.goal_bonus)
    return p, r


# ---- engine actions for plan steps -----------------------------------------------------------
def signature(view: Game, a: Action) -> tuple | None:
    cls = view._cls
    if a.kind in ("pass", "equip", "defeat"):
        cards = tuple(sorted(cls[view.values[s]] for s in a.slots))  # type: ignore[index]
        if a.kind == "pass":
            return ("pass", cards, cls[view.values[a.give]], a.to)  # type: ignore[index]
        if a.kind == "equip":
            return ("equip", cards, cls[view.values[a.keep]])  # type: ignore[index]
        return ("defeat", cards, a.foe, bool(a.get("twice", False)))
    return None


def group_signature(p: Problem, g: Group) -> tuple:
    if g.kind == "pass":
        return ("pass", g.cards, g.keep, g.to)
    if g.kind == "equip":
        return ("equip", g.cards, g.keep)
    return ("defeat", g.cards, p.foes[g.foe].slot, g.twice)  # type: ignore[index]


def group_text(view: Game, p: Problem, g: Group) -> str:
    names = ", ".join(_kname(view, c) for c in g.cards)
    if g.kind == "equip":
        return f"Equip {_kname(view, g.keep)} ({names})"  # type: ignore[arg-type]
    if g.kind == "pass":
        return f"Pass {_kname(view, g.keep)} to {view.pname(g.to)} ({names})"  # type: ignore[arg-type]
    f = p.foes[g.foe]  # type: ignore[index]
    if f.cid < 0:
        return f"keep {names} to defeat a Foe still to come"
    whose = "" if f.owner == p.me else f" ({view.pname(f.owner)}'s)"
    return f"Defeat {f.name}{whose}{' twice' if g.twice else ''} ({names})"


def _kname(view: Game, cid: int) -> str:
    c = view._cinfo(cid)
    return f"{c.name} {view._data.type_name(c.type)[0]}{c.value}"


def plan_text(view: Game, p: Problem, plan: Plan) -> str:
    steps = []
    held: dict[int, int] = {}
    pairs = []
    for g, k in plan.groups:
        if g.action:
            steps += [group_text(view, p, g)] * k
        else:
            for c in g.cards:
                held[c] = held.get(c, 0) + k
            pairs += [" + ".join(_kname(view, c) for c in g.cards)] * k
    steps += [p.spends[i].label for i in plan.spends]
    singles = [_kname(view, c) for c, k in sorted(plan.kept.items())
               for _ in range(k - held.get(c, 0))]
    kept = ", ".join([f"({x})" for x in pairs] + singles)
    acts = plan.actions()
    head = (f"{acts} action{'s' * (acts != 1)} in your {p.actions} turn{'s' * (p.actions != 1)} "
            f"left this round" if steps else f"no action worth its cards in your {p.actions} "
            f"turn{'s' * (p.actions != 1)} left")
    body = "; ".join(steps)
    tail = f"; keep {kept}" if kept else ""
    time_ = f"; Time lost at the round's end: about {_tokens(plan.loss)}"
    goal = ""
    if p.need > 0 and plan.equipped >= p.need:
        goal = ("; it reaches your goal, the last one missing: the team wins when this round ends"
                if p.goal >= LOSE else "; it reaches your goal")
    return f"{head}{': ' + body if body else ''}{tail}{time_}{goal}"


def _phantom(p: Problem, g: Group) -> bool:
    """A Defeat of the Foe still to come: a pair reserved for a later turn."""
    return g.kind == "defeat" and p.foes[g.foe].cid < 0  # type: ignore[index]


def _tokens(tenths: int) -> str:
    t = tenths / 10
    text = f"{t:.0f}" if t == int(t) else f"{t:.1f}"
    return f"{text} Time token{'s' * (t != 1)}"


def _priority(p: Problem, plan: Plan, g: Group) -> tuple:
    uses = {x.kind for x, _ in plan.groups}
    if g.kind == "defeat":
        f = p.foes[g.foe]  # type: ignore[index]
        if f.blocks & uses:
            return (0, 0)
        return (3, -f.worth)
    if g.kind == "equip":
        return (1, -g.points)
    return (2, -g.value)


# ---- the advice ------------------------------------------------------------------------------
def advise(view: Game, legal: list[Action], *, seed: int = 0, prices: Prices = DEFAULT,
           explain: bool = True) -> Advice:
    """The recommended action for the seat whose view this is, with its plan and reason.
    Deterministic (``seed`` is accepted for the ``hint`` interface; nothing is sampled).
    ``explain=False`` (bots) skips scoring every take option for the text."""
    t0 = time.perf_counter()
    me = view.viewer
    if me is None or me < 0:
        raise ValueError("advice needs a seat's view")
    if not legal:
        raise ValueError("no legal action to advise on")
    step = view.step
    if step == "take":
        adv = _advise_take(view, legal, prices, explain)
    elif step == "action":
        adv = _advise_action(view, legal, prices)
    elif step == "discard":
        adv = _advise_discard(view, legal, prices)
    elif step == "give":
        adv = _advise_give(view, legal, prices)
    else:
        adv = _advise_other(view, legal)
    adv.seconds = time.perf_counter() - t0
    return adv


# the Monster Hunter keeps Foes down, the Tinkerer equips high, the Pack Rat keeps more cards;
# the Sneaky player would leave its Foes to the next player
CHARACTER_ORDER = ("malala_bart", "zoe_zack", "penny_percy", "rita_rick", "nina_ned")


def _advise_other(view: Game, legal: list[Action]) -> Advice:
    me = view.viewer
    step = view.step
    if step == "character":
        a = min(legal, key=lambda a: (CHARACTER_ORDER.index(a.key)
                                      if a.key in CHARACTER_ORDER else 99, a.side))
    else:
        a = OutOfThisWorldBot(me, 0).decide(view, legal)  # type: ignore[arg-type]
    if step == "character":
        ch = view._chars[a.key]
        why = (f"{ch.ability} ({ch.text.rstrip('.')}) helps the set plan most"
               if len(legal) > 1 else "it is the only choice")
    elif step == "starter":
        why = "the adventure's starting Items count toward the goal of whoever equips them"
    elif step == "declare":
        why = "the rules: Foes dealt are laid out and replaced"
    else:
        why = "it is the only sensible choice here"
    return Advice(a, view.describe(a), why + ".")


def _points_text(r: Reader, plan: Plan) -> str:
    bits = []
    if plan.equipped:
        bits.append(f"+{plan.equipped} points equipped (you need {r.needs[r.me]} more)")
    if plan.defeated:
        bits.append(f"{len(plan.defeated)} Foe{'s' * (len(plan.defeated) != 1)} defeated")
    return ", ".join(bits)


def _advise_action(view: Game, legal: list[Action], prices: Prices) -> Advice:
    p, r = problem(view, prices, taken=True)
    plan = setplan.best(p, time_limit=1.0)
    text_plan = plan_text(view, p, plan)
    done = next((a for a in legal if a.kind == "done"), legal[-1])
    if len(legal) == 1:
        return Advice(legal[0], view.describe(legal[0]), "it is your only legal move: "
                      + _nothing_possible(view, p) + ".", text_plan, plan.value)
    if not any(g.action and not _phantom(p, g) for g, _ in plan.groups) and not plan.spends:
        return Advice(done, view.describe(done), "nothing in your hand is worth its cards now: "
                      "keep them for a better set" if p.hand else "your hand is empty",
                      text_plan, plan.value)
    by_sig = {}
    for a in legal:
        sig = signature(view, a)
        if sig is not None:
            by_sig.setdefault(sig, a)
    first = min((g for g, _ in plan.groups if g.action and not _phantom(p, g)),
                key=lambda g: _priority(p, plan, g), default=None)
    if first is not None:
        a = by_sig.get(group_signature(p, first))
        if a is not None:
            why = _why(r, p, plan, first)
            return Advice(a, view.describe(a), why, text_plan, plan.value)
    sp = p.spends[plan.spends[0]] if plan.spends else None
    if sp is not None and sp.key in legal:
        return Advice(sp.key, view.describe(sp.key), f"the plan spends it now: {sp.label}.",  # type: ignore[arg-type]
                      text_plan, plan.value)
    return Advice(done, view.describe(done), "no step of the plan is possible this turn.",
                  text_plan, plan.value)


def _nothing_possible(view: Game, p: Problem) -> str:
    """Why no action is legal this turn."""
    me = view.viewer
    if view.no_action:
        return "the Foe you took this turn forbids an action"
    if not p.hand:
        return "your hand is empty and you have nothing to Spend"
    why = []
    if view.restricted(me, "no_equip"):  # type: ignore[arg-type]
        why.append("a Foe in front of you forbids Equipping")
    if view.restricted(me, "no_pass"):  # type: ignore[arg-type]
        why.append("a Foe in front of you forbids Passing")
    why.append("your cards make no Equip, Pass or Defeat and you have nothing to Spend")
    return "; ".join(why)


def _why(r: Reader, p: Problem, plan: Plan, g: Group) -> str:
    left = p.actions - plan.actions()
    slack = (f"it fills one of your {p.actions} remaining actions"
             if left <= 0 else f"with {left} turn{'s' * (left != 1)} to spare")
    if g.kind == "equip":
        need = r.needs[r.me]
        if need and g.points >= need and r.last_goal:
            return (f"+{g.points} points now: you need {need} more and every other player has "
                    "reached the goal, so the team wins at the end of this round (the victory "
                    "check comes before any Time is lost).")
        if need and plan.equipped >= need:
            return (f"+{g.points} points now; the plan reaches your goal ({need} more points) "
                    f"this round, {slack}; after it your cards can go to the others.")
        return (f"+{g.points} points now ({max(0, need - g.points)} still missing after it); "
                f"the best plan for your hand equips {plan.equipped} points in all, {slack}.")
    if g.kind == "pass":
        return (f"{r.v.pname(g.to)} needs {r.needs[g.to]} more points and your cards are worth "  # type: ignore[index]
                f"more to them than to you ({'your goal is met' if not r.needs[r.me] else slack}).")
    f = p.foes[g.foe]  # type: ignore[index]
    if f.blocks:
        return f"{f.name} forbids you to {' and '.join(sorted(f.blocks))}; the rest of the plan needs it gone."
    return (f"{f.name} costs Time every round it stays; after the plan the round costs "
            f"about {_tokens(plan.loss)} (now {_tokens(max(r.end_w))}).")


def _advise_take(view: Game, legal: list[Action], prices: Prices, explain: bool = True) -> Advice:
    p, r = problem(view, prices, taken=False, legal=legal)
    options: list[tuple[str, int]] = []
    best_plan = setplan.best(p, time_limit=1.0) if p.takes else None
    chosen: Action | None = None
    text_plan = None
    value = None
    if best_plan is not None and best_plan.take is not None:
        t = p.takes[best_plan.take]
        chosen = t.key  # type: ignore[assignment]
        value = best_plan.value
        text_plan = plan_text(view, p, best_plan)
        # the score of each option, for --json and the reason
        for i, opt in enumerate(p.takes):
            if i == best_plan.take:
                options.append((opt.label, best_plan.value))
            elif explain and len(p.takes) <= 6:
                q = replace(p, takes=[opt], foes=_foes_for_take(p, i), _groups=None)
                options.append((opt.label, setplan.best(q, time_limit=1.0).value))
    then = None
    if best_plan is not None:
        first = _first_step(view, p, best_plan)
        then = "no action" if first is None else first[0].lower() + first[1:]
    leg = next((a for a in legal if a.kind == "leg_it"), None)
    if leg is not None:
        lv = _leg_value(view, p, r, prices)
        options.append((view.describe(leg), lv))
        if chosen is None or lv > (value if value is not None else -10**12):
            chosen, value, then = leg, lv, None
            text_plan = "discard your hand and skip this turn; the visible Foe goes on"
    if chosen is None:
        chosen = legal[0]
    options.sort(key=lambda o: -o[1])
    why = _take_reason(view, r, p, chosen, options, best_plan)
    return Advice(chosen, view.describe(chosen), why, text_plan, value, options, then)


def _first_step(v: Game, p: Problem, plan: Plan) -> str | None:
    """The text of the action the plan makes first (None: no action this turn)."""
    first = min((g for g, _ in plan.groups if g.action and not _phantom(p, g)),
                key=lambda g: _priority(p, plan, g), default=None)
    if first is not None:
        return group_text(v, p, first)
    if plan.spends:
        return p.spends[plan.spends[0]].label
    return None


def _foes_for_take(p: Problem, i: int) -> list[FoeSpec]:
    """The Foes of the problem with the take options renumbered to the single option ``i``."""
    out = []
    for f in p.foes:
        if f.take is None:
            out.append(f)
        elif f.take == i:
            out.append(replace(f, take=0))
        else:
            out.append(replace(f, take=0, defeatable=False, weight=0, worth=0))
    return out


def _leg_value(view: Game, p: Problem, r: Reader, prices: Prices) -> int:
    """Leg it!: the hand is discarded, no card taken, no action this turn; the cheapest visible
    Foe falls to the next player."""
    weights = list(p.weights)
    foe_takes = [t for t in p.takes if t.foe is not None]
    passed_cost = 0
    if foe_takes:
        t = min(foe_takes, key=lambda t: t.cost)
        f = p.foes[t.foe]  # type: ignore[index]
        weights[view.left(r.me)] += f.weight
        passed_cost = t.cost + prices.leg_penalty  # the next player suffers it instead
    foes = [f if f.take is None else replace(f, take=None, weight=0, worth=0, defeatable=False,
                                             blocks=frozenset()) for f in p.foes]
    q = replace(p, hand={}, takes=[], actions=max(0, p.actions - 1), weights=weights, foes=foes,
                _groups=None)
    return setplan.best(q, time_limit=1.0).value - passed_cost


def _take_reason(view: Game, r: Reader, p: Problem, chosen: Action, options: list[tuple[str, int]],
                 plan: Plan | None) -> str:
    if chosen.kind == "leg_it":
        return ("every card you could take costs more than your hand is worth: leg it and let "
                "the next player take the Foe.")
    alt = next((o for o in options if o[0] != view.describe(chosen)), None)
    gap = ""
    if alt is not None and options:
        diff = (options[0][1] - alt[1]) / 100
        gap = (f"; \"{alt[0]}\" would cost the game's last Time token" if diff * 100 >= LOSE // 2
               else f"; {diff:.1f} points better than \"{alt[0]}\"")
    if plan is None:
        return "it is the only card you may take" + gap + "."
    t = p.takes[plan.take] if plan.take is not None else None
    if t is not None and t.foe is not None:
        f = p.foes[t.foe]
        return (f"a visible Foe must be taken; {f.name} is the least harmful for your plan"
                f"{' (your plan defeats it)' if t.foe in plan.defeated else ''}{gap}.")
    gain = _points_text(r, plan)
    return f"it fits your best plan ({gain or 'the cards you keep'}){gap}."


def _advise_discard(view: Game, legal: list[Action], prices: Prices) -> Advice:
    r = Reader(view, prices)
    hand = r.hand()
    best: tuple[int, Action] | None = None
    for a in legal:
        c = r.cls(a.slot)
        h = dict(hand)
        h[c] -= 1
        p, _ = problem(view, prices, hand={k: n for k, n in h.items() if n}, actions=5, taken=True)
        p = replace(p, keep_cap=99, _groups=None)
        v = setplan.best(p, time_limit=1.0).value
        if best is None or v > best[0]:
            best = (v, a)
    assert best is not None
    a = best[1]
    return Advice(a, view.describe(a), "of your cards it is the one the next round's best plan "
                  "misses least.", None, best[0])


def _advise_give(view: Game, legal: list[Action], prices: Prices) -> Advice:
    r = Reader(view, prices)

    def score(a: Action) -> tuple:
        return (r.pass_worth(r.cls(a.slot), a.to), r.needs[a.to], -a.to)

    a = max(legal, key=score)
    return Advice(a, view.describe(a), f"{view.pname(a.to)} needs {r.needs[a.to]} more points; "
                  "this card helps them most.")


def hinter(view: Game, legal: list[Action], *, seed: int = 0) -> str | None:
    """The ``hint`` command's text for this seat."""
    if not legal or view.viewer is None or view.viewer < 0:
        return None
    return advise(view, legal, seed=seed).render()


__all__ = ["Advice", "Prices", "Reader", "advise", "hinter", "problem"]
