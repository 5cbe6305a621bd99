"""The rest of one Out Of This World round with every card known: a fast, hashable model of the
Go For It! phase and the round's end, for the exact round planner.

The engine stays the rules' authority; this model plays the same round with cards reduced to
their rules classes (two Yo-Yos are the same card for every decision), hands and Foes as sorted
tuples of classes, the five stacks as tuples (bottom first), and actions as small tuples:

* ``("T", stack, sneak)`` take the top card of a stack (a Foe first if one is visible);
* ``("L",)`` Leg it!;  ``("N",)`` no action;
* ``("P", a, b, give, to)`` Pass (classes ``a <= b``; ``give`` goes to seat ``to``);
* ``("E", cards, keep)`` Equip (``cards`` sorted, ``keep`` equipped);
* ``("D", owner, foe, cards, twice)`` Defeat the Foe of class ``foe`` in front of ``owner``;
* ``("S", owner, item, target)`` Spend the unspent Item of class ``item`` equipped by
  ``owner``; ``target`` is ``(seat, foe class)`` or ``None``;
* ``("V", card, to)`` give one card of the hand (the Slingshot's give-away);
* ``("X", card)`` chance: the random discard hits this card (the planner lets an adversary
  choose it, so a plan holds whatever is discarded).

What the model leaves out: a Spend that only looks at a stack (it tells nothing new when every
card is known, so it is no better than no action), the end of round's random discards (they
come after the victory check and cost no Time) and discarding down to the hand limit (after the
Time is lost). Everything else follows ``p2pcards/games/out_of_this_world/game.py`` (the
lockstep test ``tests/solver/test_ootw_model.py`` checks the two agree).

The round ends after the turn that empties the stacks: the victory check, the Foes' end-of-round
Time and moves, then the Time lost to the most Foes in front of one player. ``outcome`` is
``(won, -tokens lost, points equipped by the team)``: bigger is better, compared in that order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

from p2pcards.games.out_of_this_world.data import CardDef
from p2pcards.games.out_of_this_world.game import Game
from p2pcards.games.out_of_this_world.sets import matching_sets, same_type

TAKE, ACTION, GIVE, CHANCE, OVER = "T", "A", "G", "C", "O"


@dataclass(frozen=True)
class Rules:
    """What does not change during the round: the card classes, the characters' powers, the
    adventure's goal, the Time Tracker's size."""
    n: int
    cards: tuple[CardDef, ...]  # by class id
    defeat_others: tuple[bool, ...]
    equip_any: tuple[bool, ...]
    pass_any: tuple[bool, ...]
    sneak: tuple[int, ...]
    time_max: int
    goal: int  # points each player must equip (0: no points condition)
    win: tuple[tuple, ...]  # the other win conditions: ("no_foe", key), ("defeated", key, n), ("equipped", key, n)
    stacks: int = 5

    def left(self, p: int) -> int:
        return (p + 1) % self.n

    def order(self, p: int) -> list[int]:
        return [(p + i) % self.n for i in range(self.n)]


def _sorted_add(t: tuple, x) -> tuple:
    return tuple(sorted(t + (x,)))


def _sorted_remove(t: tuple, x) -> tuple:
    lst = list(t)
    lst.remove(x)
    return tuple(lst)


def _remove_all(t: tuple, xs) -> tuple:
    lst = list(t)
    for x in xs:
        lst.remove(x)
    return tuple(lst)


class Round:
    """One state of the round. Mutable (``apply``); ``copy`` and ``key`` for the search."""

    __slots__ = ("r", "hands", "foes", "equip", "stacks", "turn", "step", "no_action", "legs",
                 "sneaks", "time", "time0", "defeated", "pending", "result")

    def __init__(self, rules: Rules) -> None:
        self.r = rules
        n = rules.n
        self.hands: list[tuple[int, ...]] = [()] * n
        self.foes: list[tuple[int, ...]] = [()] * n
        self.equip: list[tuple[tuple[int, bool], ...]] = [()] * n
        self.stacks: list[tuple[int, ...]] = [()] * rules.stacks
        self.turn = 0
        self.step = TAKE
        self.no_action = False
        self.legs = 0
        self.sneaks: list[int] = [0] * n
        self.time = rules.time_max
        self.time0 = self.time
        self.defeated: tuple[tuple[str, int], ...] = ()
        self.pending: tuple[tuple, ...] = ()  # effects still to resolve: ("discard", seat), ...
        self.result: str | None = None  # "won", "lost" or "over" (the round ended, not won)

    def copy(self) -> Round:
        c = object.__new__(Round)
        c.r = self.r
        c.hands = list(self.hands)
        c.foes = list(self.foes)
        c.equip = list(self.equip)
        c.stacks = list(self.stacks)
        c.turn = self.turn
        c.step = self.step
        c.no_action = self.no_action
        c.legs = self.legs
        c.sneaks = list(self.sneaks)
        c.time = self.time
        c.time0 = self.time0
        c.defeated = self.defeated
        c.pending = self.pending
        c.result = self.result
        return c

    def key(self) -> tuple:
        return (tuple(self.hands), tuple(self.foes), tuple(self.equip), tuple(self.stacks),
                self.turn, self.step, self.no_action, self.legs, tuple(self.sneaks), self.time,
                self.defeated, self.pending, self.result)

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__ if k != "r"}

    # ---- helpers -------------------------------------------------------------------------------
    def card(self, c: int) -> CardDef:
        return self.r.cards[c]

    def restricted(self, p: int, do: str) -> bool:
        return any(self.card(f).has("while_in_play", do) for f in self.foes[p])

    def weight(self, p: int) -> int:
        total = 0
        for f in self.foes[p]:
            w = 1
            for e in self.card(f).fx("while_in_play"):
                if e.do == "counts_as":
                    w = e.n
            total += w
        return total

    def points(self, p: int) -> int:
        return sum(self.card(c).value for c, _ in self.equip[p])

    def stacks_empty(self) -> bool:
        return not any(self.stacks)

    def cards_left(self) -> int:
        return sum(len(z) for z in self.stacks)

    def won(self) -> bool:
        r = self.r
        if r.goal and any(self.points(p) < r.goal for p in range(r.n)):
            return False
        for cond in r.win:
            if cond[0] == "no_foe":
                if any(self.card(f).key == cond[1] for p in range(r.n) for f in self.foes[p]):
                    return False
            elif cond[0] == "defeated":
                if dict(self.defeated).get(cond[1], 0) < cond[2]:
                    return False
            elif cond[0] == "equipped" and sum(1 for p in range(r.n) for c, _ in self.equip[p]
                                               if self.card(c).key == cond[1]) < cond[2]:
                return False
        return True

    def outcome(self) -> tuple[bool, int, int]:
        """(won, -tokens lost, team points): bigger is better."""
        pts = sum(self.points(p) for p in range(self.r.n))
        return (self.result == "won", self.time - self.time0, pts)

    # ---- legal actions -------------------------------------------------------------------------
    def legal(self) -> list[tuple]:
        if self.result is not None:
            return []
        if self.step == CHANCE:
            seat = self.pending[1][1]
            return [("X", c) for c in sorted(set(self.hands[seat]))]
        p = self.turn
        if self.step == TAKE:
            return self._take_actions(p)
        if self.step == GIVE:
            return [("V", c, q) for c in sorted(set(self.hands[p])) for q in self.r.order(p)[1:]]
        acts: list[tuple] = []
        if not self.restricted(p, "no_pass"):
            acts += self._passes(p)
        if not self.restricted(p, "no_equip"):
            acts += self._equips(p)
        acts += self._defeats(p)
        acts += self._spends(p)
        acts.append(("N",))
        return acts

    def _take_actions(self, p: int) -> list[tuple]:
        tops = [(i, z[-1]) for i, z in enumerate(self.stacks) if z]
        foe_tops = [i for i, c in tops if self.card(c).is_foe]
        if foe_tops:
            acts = [("T", i, False) for i in foe_tops]
            if self.sneaks[p] < self.r.sneak[p]:
                acts += [("T", i, True) for i, _ in tops if i not in foe_tops]
        else:
            acts = [("T", i, False) for i, _ in tops]
        if not self.restricted(p, "no_leg_it") and self.legs < self.r.n:
            acts.append(("L",))
        return acts

    def _passes(self, p: int) -> list[tuple]:
        hand = self.hands[p]
        cls = sorted(set(hand))
        acts = []
        for i, a in enumerate(cls):
            for b in cls[i:]:
                if a == b and hand.count(a) < 2:
                    continue
                ca, cb = self.card(a), self.card(b)
                same_value = ca.value == cb.value
                if not (same_value or same_type([ca.type, cb.type])):
                    continue
                if a == b:
                    gives = [a]
                elif same_value or self.r.pass_any[p]:
                    gives = [a, b]
                else:
                    gives = [a] if ca.value < cb.value else [b]
                for g in gives:
                    for q in self.r.order(p)[1:]:
                        acts.append(("P", a, b, g, q))
        return acts

    def _equips(self, p: int) -> list[tuple]:
        hand = self.hands[p]
        cls = sorted(set(hand))
        acts = []
        for trio in combinations_with_replacement(cls, 3):
            if any(trio.count(c) > hand.count(c) for c in set(trio)):
                continue
            defs = [self.card(c) for c in trio]
            if not (len({d.value for d in defs}) == 1 or same_type([d.type for d in defs])):
                continue
            low = min(d.value for d in defs)
            keeps = sorted({c for c in trio if self.r.equip_any[p] or self.card(c).value == low})
            acts += [("E", trio, k) for k in keeps]
        return acts

    def matching(self, reqs: tuple[str, ...], hand: tuple[int, ...]) -> list[tuple[int, ...]]:
        return matching_sets(Counter(hand), reqs, lambda c: self.card(c).type)

    def _defeats(self, p: int) -> list[tuple]:
        seats = self.r.order(p) if self.r.defeat_others[p] else [p]
        acts = []
        cache: dict[tuple[str, ...], list[tuple[int, ...]]] = {}
        for q in seats:
            for f in sorted(set(self.foes[q])):
                c = self.card(f)
                for twice in ((False, True) if c.set_twice_removes else (False,)):
                    reqs = tuple(c.vulnerability) * (2 if twice else 1)
                    if reqs not in cache:
                        cache[reqs] = self.matching(reqs, self.hands[p])
                    acts += [("D", q, f, combo, twice) for combo in cache[reqs]]
        return acts

    def _spends(self, p: int) -> list[tuple]:
        if self.restricted(p, "no_spend"):
            return []
        acts = []
        for q in (p,):  # only your own equipped Items (issue 14 item 8)
            for item in sorted({c for c, spent in self.equip[q] if not spent}):
                e = self.card(item).spend()
                if e is None or e.do == "peek_stack":
                    continue
                if e.do == "give_hand":
                    if self.hands[p]:
                        acts.append(("S", q, item, None))
                elif e.do == "gain_time":
                    if self.time < self.r.time_max:
                        acts.append(("S", q, item, None))
                else:
                    seats = self.r.order(p) if e.whose == "any" and e.do != "move_foe_left" else [p]
                    for s in seats:
                        for f in sorted(set(self.foes[s])):
                            c = self.card(f)
                            if e.card and c.key != e.card:
                                continue
                            if c.difficult and not e.difficult:
                                continue
                            acts.append(("S", q, item, (s, f)))
        return acts

    # ---- transitions ---------------------------------------------------------------------------
    def apply(self, a: tuple) -> None:
        k = a[0]
        p = self.turn
        if k == "X":
            self._discard_hit(a[1])
            return
        if k == "T":
            self._take(p, a[1], a[2])
        elif k == "L":
            self.legs += 1
            self.hands[p] = ()
            self._end_turn(p)
        elif k == "N":
            self._end_turn(p)
        elif k == "P":
            _, x, y, give, to = a
            self.hands[p] = _remove_all(self.hands[p], (x, y))
            self.hands[to] = _sorted_add(self.hands[to], give)
            self._end_turn(p)
        elif k == "E":
            _, cards, keep = a
            self.hands[p] = _remove_all(self.hands[p], cards)
            self.equip[p] = tuple(sorted(self.equip[p] + ((keep, False),)))
            self._end_turn(p)
        elif k == "D":
            _, owner, foe, cards, _twice = a
            self.hands[p] = _remove_all(self.hands[p], cards)
            self.foes[owner] = _sorted_remove(self.foes[owner], foe)
            key = self.card(foe).key
            if any(c[0] == "defeated" and c[1] == key for c in self.r.win):
                d = dict(self.defeated)
                d[key] = d.get(key, 0) + 1
                self.defeated = tuple(sorted(d.items()))
            self.pending = self._effects("on_defeat", foe, owner)
            self.step = "D"  # resolving, then the turn ends
            self._resolve()
        elif k == "S":
            self._spend(p, a)
        elif k == "V":
            _, c, to = a
            self.hands[p] = _sorted_remove(self.hands[p], c)
            self.hands[to] = _sorted_add(self.hands[to], c)
            if not self.hands[p]:
                self._end_turn(p)
        else:
            raise ValueError(f"unknown action {a!r}")

    def _take(self, p: int, i: int, sneak: bool) -> None:
        z = self.stacks[i]
        c = z[-1]
        self.stacks[i] = z[:-1]
        if sneak:
            self.sneaks[p] += 1
        self.legs = 0
        if self.card(c).is_foe:
            self.foes[p] = _sorted_add(self.foes[p], c)
            self.pending = self._effects("on_take", c, p)
            self.step = "t"  # resolving the take, then the action (or not)
            self._resolve()
        else:
            self.hands[p] = _sorted_add(self.hands[p], c)
            self.step = ACTION

    def _effects(self, when: str, foe: int, seat: int) -> tuple[tuple, ...]:
        out: list[tuple] = []
        for e in self.card(foe).fx(when):
            if e.do == "discard_random":
                for q in self._targets(seat, e.target):
                    out += [("discard", q)] * e.n
            elif e.do == "lose_time":
                out.append(("lose", e.n))
            elif e.do == "gain_time":
                out.append(("gain", e.n))
            elif e.do == "no_action":
                out.append(("noaction",))
            elif e.do == "move_left":
                out.append(("move", foe, seat))
        return tuple(out)

    def _targets(self, seat: int, target: str) -> list[int]:
        n = self.r.n
        if target == "left":
            return [(seat + 1) % n]
        if target == "right":
            return [(seat - 1) % n]
        if target == "all":
            return self.r.order(seat)
        return [seat]

    def _resolve(self) -> None:
        """Run pending effects until a random discard needs its card chosen, then go on with
        what the step was doing (``t``: after a take; ``D``: after a Defeat; ``E``: end of turn;
        ``R``: end of round)."""
        while self.pending:
            e = self.pending[0]
            if e[0] == "discard":
                if self.hands[e[1]]:
                    return self._chance()
                self.pending = self.pending[1:]
                continue
            self.pending = self.pending[1:]
            if e[0] == "lose":
                self.time = max(0, self.time - e[1])
                if self.time == 0:
                    self.result = "lost"
                    self.pending = ()
                    self.step = OVER
                    return None
            elif e[0] == "gain":
                self.time = min(self.r.time_max, self.time + e[1])
            elif e[0] == "noaction":
                self.no_action = True
            elif e[0] == "move":
                _, foe, seat = e
                if foe in self.foes[seat]:
                    self.foes[seat] = _sorted_remove(self.foes[seat], foe)
                    left = self.r.left(seat)
                    self.foes[left] = _sorted_add(self.foes[left], foe)
        self._after_effects()
        return None

    def _chance(self) -> None:
        self.pending = (("resume", self.step),) + self.pending  # remember what comes after
        self.step = CHANCE

    def _discard_hit(self, c: int) -> None:
        (_, resume), (_, seat) = self.pending[0], self.pending[1]
        self.hands[seat] = _sorted_remove(self.hands[seat], c)
        self.pending = self.pending[2:]
        self.step = resume
        self._resolve()

    def _after_effects(self) -> None:
        s = self.step
        p = self.turn
        if s == "t":
            if self.no_action:
                self._end_turn(p)
            else:
                self.step = ACTION
        elif s == "D":
            self._end_turn(p)
        elif s == "E":
            self._turn_over(p)
        elif s == "R":
            self._round_loss()

    def _spend(self, p: int, a: tuple) -> None:
        _, owner, item, target = a
        eq = list(self.equip[owner])
        eq.remove((item, False))
        eq.append((item, True))
        self.equip[owner] = tuple(sorted(eq))
        e = self.card(item).spend()
        assert e is not None
        if e.do == "give_hand":
            self.step = GIVE
            return
        if e.do == "gain_time":
            self.time = min(self.r.time_max, self.time + e.n)
        elif e.do == "move_foe_left":
            s, f = target
            self.foes[s] = _sorted_remove(self.foes[s], f)
            left = self.r.left(p)
            self.foes[left] = _sorted_add(self.foes[left], f)
        else:  # remove_foe, discard_foe
            s, f = target
            self.foes[s] = _sorted_remove(self.foes[s], f)
        self._end_turn(p)

    def _end_turn(self, p: int) -> None:
        fx: list[tuple] = []
        for f in self.foes[p]:
            fx += self._effects("end_of_turn", f, p)
        self.pending = tuple(fx)
        self.step = "E"
        self._resolve()

    def _turn_over(self, p: int) -> None:
        nxt = self.r.left(p)
        if self.stacks_empty():
            self._round_end(nxt)
        else:
            self.turn = nxt
            self.step = TAKE
            self.no_action = False

    def _round_end(self, vocal: int) -> None:
        if self.won():
            self.result = "won"
            self.step = OVER
            return
        fx: list[tuple] = []
        for q in self.r.order(vocal):
            for f in self.foes[q]:
                fx += [e for e in self._effects("end_of_round", f, q) if e[0] != "discard"]
        self.turn = vocal
        self.pending = tuple(fx)
        self.step = "R"
        self._resolve()

    def _round_loss(self) -> None:
        m = max(self.weight(q) for q in range(self.r.n))
        if m:
            self.time = max(0, self.time - m)
        self.result = "lost" if self.time == 0 else "over"
        self.step = OVER


# ---- from the engine -------------------------------------------------------------------------
def rules_of(g: Game) -> Rules:
    n = g.n_players
    n_cls = len(g._cls_card)
    cards = tuple(g._cinfo(c) for c in range(n_cls))
    win: list[tuple] = []
    goal = 0
    for cond in g._adv.win:
        if cond["kind"] == "equip_points":
            goal = g.points_needed(cond)
        elif cond["kind"] == "no_foe":
            win.append(("no_foe", cond["card"]))
        else:
            win.append((cond["kind"], cond["card"], cond["count"]))
    return Rules(n, cards, tuple(bool(g.power(p, "defeat_others_foes")) for p in range(n)),
                 tuple(bool(g.power(p, "equip_any")) for p in range(n)),
                 tuple(bool(g.power(p, "pass_any")) for p in range(n)),
                 tuple(g.power(p, "sneak") for p in range(n)), g.time_max, goal, tuple(win),
                 g.n_stacks)


def round_from_game(g: Game, rules: Rules | None = None, *, leave_out_unseen: bool = False,
                    deal: dict[int, int] | None = None) -> Round:
    """The model of the round in progress in a state where every card that matters is known
    (the full state, or a determinized view), waiting for a Go For It! decision. With
    ``leave_out_unseen`` (a seat's own view) the hand, Foe and equipped cards this copy does not
    know are left out; an unknown stack card is an error either way. ``deal`` (slot -> card)
    fills the slots this copy does not know (a determinization of a seat's view, ``pimc.py``)."""
    req = g.req
    if req is None or req["type"] != "decide" or g.phase != "go" or g.step not in (
            "take", "action", "give"):
        raise ValueError(f"no Go For It! decision is pending (phase {g.phase!r}, step {g.step!r})")
    r = rules or rules_of(g)
    m = Round(r)

    values = g.values if deal is None else [deal.get(s, v) for s, v in enumerate(g.values)]

    def cls(slot: int) -> int:
        v = values[slot]
        if v is None:
            raise ValueError(f"slot {slot} ({g.zone_of[slot]}) is unknown to this copy")
        return g._cls[v]

    def held(slots) -> list[int]:
        return [cls(s) for s in slots if not leave_out_unseen or values[s] is not None]

    for p in range(r.n):
        m.hands[p] = tuple(sorted(held(g.hand(p))))
        m.foes[p] = tuple(sorted(held(g.foes(p))))
        m.equip[p] = tuple(sorted((cls(s), s in g.spent) for s in g.equipped(p)
                                  if not leave_out_unseen or values[s] is not None))
    m.stacks = [tuple(cls(s) for s in g.stack(i)) for i in range(g.n_stacks)]
    m.turn = g.turn
    m.step = {"take": TAKE, "action": ACTION, "give": GIVE}[g.step]
    m.no_action = g.no_action
    m.legs = g.legs
    m.sneaks = list(g.sneaks)
    m.time = g.time
    m.time0 = g.time
    m.defeated = tuple(sorted((k, v) for k, v in g.defeated.items()
                              if any(c[0] == "defeated" and c[1] == k for c in r.win)))
    return m


def abstract(g: Game, a) -> tuple:
    """The model action of an engine action (in the state before it is applied)."""
    k = a.kind

    def cls(slot: int) -> int:
        return g._cls[g.values[slot]]  # type: ignore[index]

    if k == "take":
        return ("T", a.stack, bool(a.get("sneak", False)))
    if k == "leg_it":
        return ("L",)
    if k == "done":
        return ("N",)
    if k == "pass":
        x, y = sorted(cls(s) for s in a.slots)
        return ("P", x, y, cls(a.give), a.to)
    if k == "equip":
        return ("E", tuple(sorted(cls(s) for s in a.slots)), cls(a.keep))
    if k == "defeat":
        owner = int(g.zone_of[a.foe][4:])
        return ("D", owner, cls(a.foe), tuple(sorted(cls(s) for s in a.slots)),
                bool(a.get("twice", False)))
    if k == "spend":
        owner = int(g.zone_of[a.item][5:])
        target = None
        if a.get("foe") is not None:
            target = (int(g.zone_of[a.foe][4:]), cls(a.foe))
        elif a.get("stack") is not None:
            target = ("stack", a.stack)
        return ("S", owner, cls(a.item), target)
    if k == "give":
        return ("V", cls(a.slot), a.to)
    raise ValueError(f"no model action for {a!r}")


def action_map(g: Game, legal) -> dict[tuple, object]:
    """Model action -> an engine action among ``legal`` (the first that maps to it)."""
    out: dict[tuple, object] = {}
    for a in legal:
        m = abstract(g, a)
        if m[0] == "S" and isinstance(m[3], tuple) and m[3][0] == "stack":
            continue  # looking at a stack: not a move of the model
        out.setdefault(m, a)
    return out


def describe(rules: Rules, a: tuple, names: list[str] | None = None) -> str:
    """A short text for a model action (names by seat)."""
    nm = names or [f"Seat {q + 1}" for q in range(rules.n)]

    def c(x: int) -> str:
        d = rules.cards[x]
        if d.is_foe:
            return d.name
        return f"{d.name} ({d.type.capitalize() if d.type else '?'} {d.value})"

    k = a[0]
    if k == "T":
        return f"take from stack {a[1] + 1}" + (" (Sneaky)" if a[2] else "")
    if k == "L":
        return "Leg it!"
    if k == "N":
        return "no action"
    if k == "P":
        other = a[2] if a[3] == a[1] else a[1]
        return f"Pass {c(a[3])} to {nm[a[4]]} (discard {c(other)})"
    if k == "E":
        rest = list(a[1])
        rest.remove(a[2])
        return f"Equip {c(a[2])} (discard {', '.join(c(x) for x in rest)})"
    if k == "D":
        return (f"Defeat {c(a[2])} in front of {nm[a[1]]}" + (" twice" if a[4] else "")
                + f" with {', '.join(c(x) for x in a[3])}")
    if k == "S":
        t = a[3]
        on = f" on {c(t[1])} in front of {nm[t[0]]}" if isinstance(t, tuple) else ""
        return f"Spend {c(a[2])} ({nm[a[1]]}'s){on}"
    if k == "V":
        return f"give {c(a[1])} to {nm[a[2]]}"
    if k == "X":
        return f"the random discard takes {c(a[1])}"
    return str(a)
