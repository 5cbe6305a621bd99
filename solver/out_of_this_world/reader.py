"""What one seat's view of Out Of This World says, priced for the set plan.

``Reader`` reads the view (the seat's own hand, every player's equipped Items and Foes, hand
sizes, the face-up stack tops, the Time tokens); ``Prices`` holds the heuristic prices (see
``advisor``'s docstring); ``problem`` turns the view into the pure ``setplan.Problem``.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pcards.engine import Action
from p2pcards.games.out_of_this_world.data import WILD, CardDef
from p2pcards.games.out_of_this_world.game import Game

from . import setplan
from .setplan import FoeSpec, Kind, Problem, Spend, Take

LOSE = 1_000_000  # the game is lost: worse than anything else


@dataclass(frozen=True)
class Prices:
    keep_base: int = 10  # worth of a kept card: keep_base + keep_per_point * value (+ wild)
    keep_per_point: int = 20
    keep_wild: int = 30
    keep_done: int = 12  # a kept card once the seat's goal is met (Foe fodder, passes)
    hold_value: int = 25  # a kept pair of one value v: hold_value * v
    hold_type: int = 18  # a kept pair of one type: hold_type * the lower value
    pass_share: float = 0.5  # share of a card's keep worth its receiver gets from a Pass
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
            foes.append(FoeSpec(me, -1, w, ("any", "any"), 0,
                                f"a Foe still to come (you take one more this round with "
                                f"chance {chance:.0%}, from the Foes you have not seen)"))
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
