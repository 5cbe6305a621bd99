"""Out Of This World: Items -- Pass, Equip, Spend and the Slingshot's gifts."""

from __future__ import annotations

from typing import Any

from ...engine import Action, RuleViolation, join_names, plural
from .base import TableBase
from .data import CardDef
from .sets import same_type


class Items(TableBase):
    def _pass_actions(self, p: int, classes: dict[int, list[int]]) -> list[Action]:
        acts: list[Action] = []
        items = sorted(classes.items())
        others = self.order(p)[1:]
        pass_any = bool(self.power(p, "pass_any"))
        for i, (a, sa) in enumerate(items):
            for j in range(i, len(items)):
                b, sb = items[j]
                if i == j and len(sa) < 2:
                    continue
                x, y = sa[0], (sa[1] if i == j else sb[0])
                ca, cb = self._cinfo(a), self._cinfo(b)
                same_value = ca.value == cb.value
                typed = same_type([ca.type, cb.type])
                if not (same_value or typed):
                    continue
                if i == j:
                    gives = [x]
                elif same_value or pass_any:
                    gives = [x, y]
                else:
                    gives = [x] if ca.value < cb.value else [y]
                for g in gives:
                    for q in others:
                        acts.append(Action("pass", slots=sorted((x, y)), give=g, to=q))
        return acts

    def _equip_actions(self, p: int, classes: dict[int, list[int]]) -> list[Action]:
        acts: list[Action] = []
        items = sorted(classes.items())
        k = len(items)
        equip_any = bool(self.power(p, "equip_any"))
        for i in range(k):
            for j in range(i, k):
                for m in range(j, k):
                    idx = (i, j, m)
                    counts: dict[int, int] = {}
                    for t in idx:
                        counts[t] = counts.get(t, 0) + 1
                    if any(len(items[t][1]) < c for t, c in counts.items()):
                        continue
                    defs = [self._cinfo(items[t][0]) for t in idx]
                    if not (len({d.value for d in defs}) == 1 or
                            same_type([d.type for d in defs])):
                        continue
                    slots = sorted(s for t, c in counts.items() for s in items[t][1][:c])
                    low = min(d.value for d in defs)
                    keeps = sorted({items[t][1][0] for t in counts
                                    if equip_any or self._cinfo(items[t][0]).value == low})
                    for kp in keeps:
                        acts.append(Action("equip", slots=slots, keep=kp))
        return acts

    def _spend_actions(self, p: int) -> list[Action]:
        """SPEND abilities p may use now: p's own unspent equipped Items ("Once you have equipped
        an Item, you can use the Item's ability"; issue 14 item 8)."""
        if self.restricted(p, "no_spend"):
            return []
        acts: list[Action] = []
        for item in sorted(self.equipped(p)):
            if item in self.spent:
                continue
            c = self.card(item)
            e = c.spend() if c else None
            if e is None:
                continue
            if e.do == "give_hand":
                if self.hand(p):
                    acts.append(Action("spend", item=item))
            elif e.do == "gain_time":
                if self.time < self.time_max:
                    acts.append(Action("spend", item=item))
            elif e.do == "peek_stack":
                for i in range(self.n_stacks):
                    if any(not self.knows(p, s) for s in self.stack(i)):
                        acts.append(Action("spend", item=item, stack=i))
            else:  # remove_foe, discard_foe, move_foe_left
                for f in self._spend_targets(p, e):
                    acts.append(Action("spend", item=item, foe=f))
        return acts

    def _spend_targets(self, p: int, e: Any) -> list[int]:
        seats = self.order(p) if e.whose == "any" and e.do != "move_foe_left" else [p]
        out = []
        for q in seats:
            for f in sorted(self.foes(q)):
                c = self.card(f)
                assert c is not None
                if e.card and c.key != e.card:
                    continue
                if c.difficult and not e.difficult:
                    continue
                out.append(f)
        return out

    def _do_pass(self, p: int, a: Action) -> None:
        slots = sorted(a.slots)
        other = next(s for s in slots if s != a.give)
        self.place(other, "discard")
        self.place(a.give, f"hand{a.to}")
        self.reveal(slots, None, "passed", p=p, slots=slots, give=a.give, to=a.to)

    def _after_passed(self, p: int, slots: list[int], give: int, to: int) -> None:
        cards = [self.card(s) for s in slots]
        if any(c is None or not c.is_item for c in cards):
            raise RuleViolation(p, "a Pass plays Item cards")
        a, b = cards  # type: ignore[misc]
        same_value = a.value == b.value
        typed = same_type([a.type, b.type])
        if not (same_value or typed):
            raise RuleViolation(p, f"{a.name} and {b.name} share neither value nor type")
        g = self.card(give)
        assert g is not None
        if not same_value and not self.power(p, "pass_any") and g.value > min(a.value, b.value):
            raise RuleViolation(p, "with a pair of the same type the lower card is handed over")
        other = next(s for s in slots if s != give)
        self.say(f"{self.pname(p)} passes {self.card_name(self.values[give])} to {self.pname(to)} "
                 f"(discarding {self.card_name(self.values[other])}).")
        self.mix_hand(f"hand{to}", [give], "pass_mixed", p=p)

    def _after_pass_mixed(self, p: int) -> None:
        self._end_turn(p)

    def _do_equip(self, p: int, a: Action) -> None:
        slots = sorted(a.slots)
        for s in slots:
            self.place(s, f"equip{p}" if s == a.keep else "discard")
        self.reveal(slots, None, "equipped", p=p, slots=slots, keep=a.keep)

    def _after_equipped(self, p: int, slots: list[int], keep: int) -> None:
        cards = [self.card(s) for s in slots]
        if any(c is None or not c.is_item for c in cards):
            raise RuleViolation(p, "an Equip plays Item cards")
        defs: list[CardDef] = cards  # type: ignore[assignment]
        if not (len({c.value for c in defs}) == 1 or same_type([c.type for c in defs])):
            raise RuleViolation(p, "an Equip needs 3 cards of the same value or the same type")
        k = self.card(keep)
        assert k is not None
        if not self.power(p, "equip_any") and k.value > min(c.value for c in defs):
            raise RuleViolation(p, "the lowest-valued card of the set is equipped")
        rest = join_names(self.card_name(self.values[s]) for s in slots if s != keep)
        self.say(f"{self.pname(p)} equips {self.card_name(self.values[keep])} (discarding {rest}) — "
                 f"{self.points(p)} points equipped.")
        self._end_turn(p)

    def _do_spend(self, p: int, a: Action) -> None:
        item = a.item
        c = self.card(item)
        assert c is not None
        e = c.spend()
        assert e is not None
        self.spent.append(item)
        self.say(f"{self.pname(p)} spends {c.name}: {c.text.removeprefix('SPEND: ')}")
        if e.do == "give_hand":
            self.step = "give"
            self.decide(p)
        elif e.do == "gain_time":
            self.time = min(self.time_max, self.time + e.n)
            self.say(f"Time tokens: {self.time}.")
            self._end_turn(p)
        elif e.do == "peek_stack":
            z = self.stack(a.stack)
            self.say(f"{self.pname(p)} looks at the {plural(len(z), 'card')} of stack {a.stack + 1}.")
            self.reveal(list(z), [p], "peeked", p=p)
        elif e.do == "move_foe_left":
            f = a.foe
            self.place(f, f"foes{self.left(p)}")
            self.say(f"{self.card_name(self.values[f])} moves to {self.pname(self.left(p))}.")
            self._end_turn(p)
        else:  # remove_foe, discard_foe
            f = a.foe
            self.place(f, "removed" if e.do == "remove_foe" else "discard")
            verb = "is removed from the game" if e.do == "remove_foe" else "is discarded"
            self.say(f"{self.card_name(self.values[f])} {verb}.")
            self._end_turn(p)

    def _after_peeked(self, p: int) -> None:
        self._end_turn(p)

    def _do_give(self, p: int, a: Action) -> None:
        self.place(a.slot, f"hand{a.to}")
        self.say(f"{self.pname(p)} gives a card to {self.pname(a.to)}.")
        self.reveal([a.slot], [a.to], "given", p=p, to=a.to, slot=a.slot)

    def _after_given(self, p: int, to: int, slot: int) -> None:
        self.mix_hand(f"hand{to}", [slot], "gift_mixed", p=p)

    def _after_gift_mixed(self, p: int) -> None:
        if self.hand(p):
            self.decide(p)
        else:
            self._end_turn(p)
