"""Out Of This World: the table every room of the rules reads -- the cards, the zones, the
characters' powers and the Foes' standing penalties. ``game.py`` puts the rooms together."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...engine import Action, ConfigError, GameState, RuleViolation
from .data import Adventure, CardData, CardDef, Character
from .sets import matching_sets

#: The continuations of the reveals of hand cards, each with the argument naming the hand's
#: holder: a Defeat set, a random discard by a Foe's effect, a Pass, an Equip, a Slingshot gift,
#: a discard down to the hand limit, Leg it!
HAND_REVEALS = {"defeat_shown": "p", "fx_discarded": "seat", "passed": "p", "equipped": "p",
                "given": "p", "discarded": "p", "legged": "p"}

DONE = Action("done")
LEG_IT = Action("leg_it")


def _norm(text: str) -> str:
    return "-".join(str(text).strip().lower().replace("_", " ").replace("-", " ").split())


def resolve_adventure(data: CardData, name: Any) -> str:
    """An adventure's key from its key, name, code or chapter (``"birthday-bash"``,
    ``"Birthday Bash"``, ``"1"``, ``"patrol"``)."""
    want = _norm(name)
    for key, adv in data.adventures.items():
        if want in (key, _norm(adv.name)) or (adv.code is not None and want == str(adv.code)):
            return key
    hits = [k for k in data.adventures if k.startswith(want)] if want else []
    if len(hits) == 1:
        return hits[0]
    raise ConfigError(f"unknown adventure {name!r}; choose one of: {', '.join(data.adventures)}")


class TableBase(GameState):
    _data: CardData
    _adv: Adventure
    _cards: tuple[CardDef, ...]
    _cls: list[int]
    _cls_card: list[int]
    _chars: dict[str, Character]

    def card(self, slot: int) -> CardDef | None:
        v = self.values[slot]
        return None if v is None else self._cards[v]

    def cdef(self, card: int) -> CardDef:
        return self._cards[card]

    def not_foes(self) -> list[int]:
        """Every card that is not a Foe: what "my hand holds no Foe" allows."""
        return [c for c, d in enumerate(self._cards) if not d.is_foe]

    def _on_revealed(self, ev: Any, r: dict[str, Any]) -> None:
        """A Foe shown out of a hand names the hand's holder: a Foe never enters a hand honestly
        (one dealt is laid out at once, one taken from a stack goes in front of its taker), so
        it was kept there against "If any of your cards are Foes, you must immediately place them
        face-up next to your player board"."""
        super()._on_revealed(ev, r)
        then = self.then
        holder_arg = HAND_REVEALS.get(then[0]) if then else None
        if holder_arg is None:
            return
        holder = then[1][holder_arg]
        for s in ev.slots:
            c = self.card(s)
            if c is not None and c.is_foe:
                raise RuleViolation(holder, f"kept the Foe {c.name} in hand (it is shown out of "
                                            f"{self.pname(holder)}'s hand)")

    def hand(self, p: int) -> list[int]:
        return self.zones[f"hand{p}"]

    def hands(self) -> dict[str, int]:
        """Each seat's hand is mixed when a card enters it: a draw, an Item taken from the
        stacks, a passed card, a Slingshot gift (issue 11: nobody can follow a card into a hand)."""
        return {f"hand{p}": p for p in range(self.n_players)}

    def foes(self, p: int) -> list[int]:
        return self.zones[f"foes{p}"]

    def equipped(self, p: int) -> list[int]:
        return self.zones[f"equip{p}"]

    def stack(self, i: int) -> list[int]:
        return self.zones[f"stack{i}"]

    @property
    def n_stacks(self) -> int:
        return self._data.stacks

    def order(self, first: int) -> list[int]:
        return [(first + i) % self.n_players for i in range(self.n_players)]

    def left(self, p: int) -> int:
        return (p + 1) % self.n_players

    def character(self, p: int) -> Character | None:
        c = self.chars[p]
        return None if c is None else self._chars[c["key"]]

    def char_name(self, p: int) -> str:
        c = self.chars[p]
        return "" if c is None else self._chars[c["key"]].sides[c["side"]]

    def power(self, p: int, name: str) -> int:
        ch = self.character(p)
        return 0 if ch is None else ch.powers.get(name, 0)

    def points(self, p: int) -> int:
        return sum(self._cards[self.values[s]].value for s in self.equipped(p))  # type: ignore[index]

    def points_needed(self, cond: dict[str, Any] | None = None) -> int:
        pts = (cond or {}).get("points")
        return pts[str(self.n_players)] if pts else self._data.points[self.n_players]

    def restricted(self, p: int, do: str) -> bool:
        """Whether a Foe in front of p forbids ``do`` (no_pass, no_equip, no_spend, no_leg_it)."""
        return any(self._cards[self.values[s]].has("while_in_play", do)  # type: ignore[index]
                   for s in self.foes(p))

    def hand_limit(self, p: int) -> int:
        limit = self.power(p, "hand_limit") or self._data.hand_limit
        for s in self.equipped(p):
            for e in self._cards[self.values[s]].fx("while_equipped"):  # type: ignore[index]
                if e.do == "hand_limit_plus":
                    limit += e.n
        for s in self.foes(p):
            for e in self._cards[self.values[s]].fx("while_in_play"):  # type: ignore[index]
                if e.do == "hand_limit":
                    limit = min(limit, e.n)
        return limit

    def foe_weight(self, p: int) -> int:
        total = 0
        for s in self.foes(p):
            w = 1
            for e in self._cards[self.values[s]].fx("while_in_play"):  # type: ignore[index]
                if e.do == "counts_as":
                    w = e.n
            total += w
        return total

    def may_talk_item(self, p: int) -> bool:
        return any(self._cards[self.values[s]].has("while_equipped", "may_talk")  # type: ignore[index]
                   for s in self.equipped(p))

    def stacks_empty(self) -> bool:
        return not any(self.stack(i) for i in range(self.n_stacks))

    def _classes(self, p: int) -> dict[int, list[int]] | None:
        """Seat p's hand by rules class (class -> slots ascending); None if this view cannot see
        the whole hand."""
        out: dict[int, list[int]] = {}
        for s in sorted(self.hand(p)):
            v = self.values[s]
            if v is None:
                return None
            out.setdefault(self._cls[v], []).append(s)
        return out

    def _cinfo(self, cid: int) -> CardDef:
        return self._cards[self._cls_card[cid]]

    def _matching_sets(self, reqs: tuple[str, ...], counts: dict[int, int]) -> list[tuple[int, ...]]:
        """Every multiset of hand classes (sorted tuples) that covers the requirements one card
        each; wild Items match any type."""
        return matching_sets(counts, reqs, lambda cid: self._cinfo(cid).type)

    def covers(self, cards: list[int], reqs: tuple[str, ...] | list[str]) -> bool:
        """Whether these item cards (ids) are exactly a set for the requirements."""
        if len(cards) != len(reqs) or any(not self._cards[c].is_item for c in cards):
            return False
        return bool(matching_sets(Counter(cards), reqs, lambda c: self._cards[c].type))
