"""Out Of This World: set-up -- the first Vocal Player, characters, Difficult Foes, the deal and
the Foes laid out at it -- and the Adventure deck: running out, additions, reshuffling."""

from __future__ import annotations

from typing import Any

from ...engine import Action, RuleViolation, Shuffle, join_names, plural
from ...engine.requests import Random
from .base import TableBase


class SetUp(TableBase):
    def _character_actions(self) -> list[Action]:
        taken = {c["key"] for c in self.chars if c is not None}
        return [Action("character", key=c.key, side=side) for c in self._data.characters
                if c.key not in taken for side in (0, 1)]

    def _after_first_vocal(self, value: int) -> None:
        self.say(f"Out Of This World: {self._adv.name} at {self._diff.name} difficulty, "
                 f"{self.n_players} players, {self.time} Time tokens.")
        self.vocal = self.turn = self.first = value
        self.say(f"{self.pname(value)} takes the Vocal Player token.")
        self.phase = "characters"
        self.queue = self.order(value)
        self._next_character()

    def _next_character(self) -> None:
        if self.queue:
            self.step = "character"
            self.turn = self.queue[0]
            self.decide(self.queue[0])
        else:
            self.step = ""
            self.phase = "setup"
            k = self._diff.difficult_foes + self._adv.difficult_foes
            self._pick_difficult(k, "deck", "difficult_done")

    def _do_character(self, p: int, a: Action) -> None:
        self.chars[p] = {"key": a.key, "side": a.side}
        ch = self._chars[a.key]
        self.say(f"{self.pname(p)} plays {ch.sides[a.side]} ({ch.ability}: {ch.text})")
        self.queue.pop(0)
        self._next_character()

    def _after_difficult_done(self) -> None:
        if self.zones["starting"]:
            self.step = "starter"
            self.turn = self.vocal
            self.decide(self.vocal)
        else:
            self._shuffle_deck()

    def _do_starter(self, p: int, a: Action) -> None:
        for s in list(self.zones["starting"]):
            self.place(s, f"equip{a.seat}")
            self.say(f"{self.pname(a.seat)} begins the adventure with {self.card_name(self.values[s])} "
                     "equipped.")
        self._shuffle_deck()

    def _shuffle_deck(self) -> None:
        self.step = ""
        self.request(Shuffle(tuple(self.zones["deck"])), "deck_shuffled")

    def _after_deck_shuffled(self) -> None:
        self.phase = "deal"
        self.say(f"The Adventure deck ({plural(len(self.zones['deck']), 'card')}) is shuffled; "
                 f"everyone is dealt {self._data.initial_hand}.")
        self._deal_next(0)

    def _deal_next(self, i: int) -> None:
        if i < self.n_players:
            p = self.order(self.vocal)[i]
            self.draw(p, self._data.initial_hand, "dealt", i=i + 1)
        else:
            self.queue = self.order(self.vocal)
            self._next_declarer()

    def _after_dealt(self, i: int, drawn: list[int]) -> None:
        self._deal_next(i)

    def _next_declarer(self) -> None:
        if self.queue:
            self.step = "declare"
            self.turn = self.queue[0]
            self.decide(self.queue[0])
        else:
            self._start_round()

    def _do_foes(self, p: int, a: Action) -> None:
        slots = sorted(a.slots)
        if not slots:
            # "If any of your cards are Foes, you must immediately place them face-up": declaring
            # none claims the hand holds no Foe, proven now
            self.prove(sorted(self.hand(p)), p, self.not_foes(),
                       "declared no (more) Foes in their dealt hand",
                       "no_foes_proven")
            return
        for s in slots:
            self.place(s, f"foes{p}")
        self.reveal(slots, None, "foes_laid", p=p, slots=slots)

    def _after_no_foes_proven(self) -> None:
        self.queue.pop(0)
        self._next_declarer()

    def _after_foes_laid(self, p: int, slots: list[int]) -> None:
        for s in slots:
            c = self.card(s)
            assert c is not None
            if not c.is_foe:
                raise RuleViolation(p, f"laid out {c.name}, which is not a Foe")
        names = join_names(self.card_name(self.values[s]) for s in slots)
        self.say(f"{self.pname(p)} lays out {names} and draws {plural(len(slots), 'more card')}.")
        self.draw(p, len(slots), "redrawn", p=p)

    def _after_redrawn(self, p: int, drawn: list[int]) -> None:
        self.decide(p)

    def _additions_now(self) -> list[dict[str, Any]]:
        k = self.runouts + 1
        return [a for a in self._adv.additions if a["times"] is None or k <= a["times"]]

    def _can_refill(self) -> bool:
        if self.zones["discard"]:
            return True
        for a in self._additions_now():
            if "card" in a and any(self.cdef(self.values[s]).key == a["card"]  # type: ignore[arg-type]
                                   for s in self.zones["aside"]):
                return True
            if "random_difficult" in a and self._difficult_pool():
                return True
        return False

    def refill(self, then: str) -> bool:
        """The deck ran out: the adventure's additions go into the discard pile, which is
        shuffled into a new deck."""
        if not self._can_refill():
            return False
        adds = self._additions_now()
        self.runouts += 1
        self.say("The Adventure deck has run out.")
        k = 0
        for a in adds:
            if "card" in a:
                left = a["count"]
                for s in sorted(self.zones["aside"]):
                    if left and self.cdef(self.values[s]).key == a["card"]:  # type: ignore[arg-type]
                        self.place(s, "discard")
                        self.say(f"{self.card_name(self.values[s])} is added.")
                        left -= 1
            else:
                k += a["random_difficult"]
        self._pick_difficult(k, "discard", "refill_shuffle", then=then)
        return True

    def _after_refill_shuffle(self, then: str) -> None:
        for s in list(self.zones["discard"]):
            self.place(s, "deck")
        if not self.zones["deck"]:
            getattr(self, "_after_" + then)()
            return
        self.say(f"The discard pile is shuffled into a new deck of "
                 f"{plural(len(self.zones['deck']), 'card')}.")
        self.request(Shuffle(tuple(self.zones["deck"])), "refilled", then=then)

    def _after_refilled(self, then: str) -> None:
        getattr(self, "_after_" + then)()

    def _difficult_pool(self) -> list[int]:
        return [s for s in sorted(self.zones["box"]) if self.card(s).difficult]  # type: ignore[union-attr]

    def _pick_difficult(self, k: int, dest: str, then: str, /, **kw: Any) -> None:
        pool = self._difficult_pool()
        if k <= 0 or not pool:
            getattr(self, "_after_" + then)(**kw)
            return
        self.request(Random(len(pool)), "difficult_picked", k=k, dest=dest, then=then, kw=kw)

    def _after_difficult_picked(self, value: int, k: int, dest: str, then: str,
                                kw: dict[str, Any]) -> None:
        slot = self._difficult_pool()[value]
        self.place(slot, dest)
        self.say(f"{self.card_name(self.values[slot])} joins the Adventure deck.")
        self._pick_difficult(k - 1, dest, then, **kw)
