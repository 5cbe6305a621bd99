"""Out Of This World: the turn -- take 1 card (Foes first), Leg it!, no action, the end of a turn
and the Vocal Player token."""

from __future__ import annotations

from ...engine import Action, join_names
from .base import LEG_IT, TableBase


class Turn(TableBase):
    def _take_actions(self, p: int) -> list[Action]:
        tops = [(i, self.stack(i)[-1]) for i in range(self.n_stacks) if self.stack(i)]
        foe_tops = [i for i, s in tops if self.card(s).is_foe]  # type: ignore[union-attr]
        if foe_tops:
            acts = [Action("take", stack=i) for i in foe_tops]
            if self.sneaks[p] < self.power(p, "sneak"):
                acts += [Action("take", stack=i, sneak=True) for i, _ in tops if i not in foe_tops]
        else:
            acts = [Action("take", stack=i) for i, _ in tops]
        if not self.restricted(p, "no_leg_it") and self.legs < self.n_players:
            acts.append(LEG_IT)
        return acts

    def _begin_turn(self, p: int) -> None:
        self.turn = self.vocal = p
        self.step = "take"
        self.no_action = False
        self.decide(p)

    def _do_take(self, p: int, a: Action) -> None:
        z = self.stack(a.stack)
        slot = z[-1]
        c = self.card(slot)
        assert c is not None
        if a.get("sneak"):
            self.sneaks[p] += 1
        self.legs = 0
        self.place(slot, f"foes{p}" if c.is_foe else f"hand{p}")
        sneak = f" ({self.character(p).ability})" if a.get("sneak") else ""  # type: ignore[union-attr]
        self.say(f"{self.pname(p)} takes {self.card_name(self.values[slot])} from stack "
                 f"{a.stack + 1}{sneak}.")
        if z:
            self.reveal([z[-1]], None, "top_turned", p=p, slot=slot, stack=a.stack)
        else:
            self._after_top_turned(p, slot, a.stack)

    def _after_top_turned(self, p: int, slot: int, stack: int) -> None:
        z = self.stack(stack)
        if z:
            self.say(f"Stack {stack + 1} now shows {self.card_name(self.values[z[-1]])}.")
        c = self.card(slot)
        assert c is not None
        if c.is_foe:
            self._queue_fx("on_take", slot, p)
            self._run_fx("taken", p=p)
        else:
            self.mix_hand(f"hand{p}", [slot], "taken", p=p)

    def _after_taken(self, p: int) -> None:
        if self.no_action:
            self.say(f"{self.pname(p)} can take no action this turn.")
            self._end_turn(p)
            return
        self.step = "action"
        self.decide(p)

    def _do_leg_it(self, p: int, a: Action) -> None:
        self.legs += 1
        cards = sorted(self.hand(p))
        for s in cards:
            self.place(s, "discard")
        self.reveal(cards, None, "legged", p=p, cards=cards)

    def _after_legged(self, p: int, cards: list[int]) -> None:
        what = join_names(self.card_name(self.values[s]) for s in cards) or "an empty hand"
        self.say(f"{self.pname(p)} legs it! and discards {what}.")
        self._end_turn(p)

    def _do_done(self, p: int, a: Action) -> None:
        self._end_turn(p)

    def _end_turn(self, p: int) -> None:
        self.step = "end"
        for s in list(self.foes(p)):
            self._queue_fx("end_of_turn", s, p)
        self._run_fx("turn_over", p=p)

    def _after_turn_over(self, p: int) -> None:
        self.vocal = self.left(p)  # the Vocal Player token goes to the player on the left
        if self.stacks_empty():
            self._care()
        else:
            self._begin_turn(self.vocal)
