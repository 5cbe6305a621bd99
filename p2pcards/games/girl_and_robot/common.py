"""The Girl and the Robot: the cards, seats and turn order every room of the rules uses.

Constants (characters, teams, card keys), the narration helpers, and ``Common``, the base of every
room: what a card is as a seat knows it, who is whose ally and alive, who plays next, and the
engine hooks every rule goes through (``place``, ``reveal``, continuations ``_k``, ``_ask``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from ...engine import Action, GameState, mask_of

GIRL, ROBOT, QUEEN, SHADOW = "girl", "robot", "queen", "shadow"
TEAM_OF = {GIRL: 0, ROBOT: 0, QUEEN: 1, SHADOW: 1}
TEAM_NAMES = ("the Girl's team", "the Evil Queen's team")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


DEMON = "demon"
CANCEL = "cancel_action"
ALLY_TURN = ("manipulate", "scout", "smoke_bomb")  # may be played during the ally's turn
NO_COPY = ("cancel_action", "magic_mirror")  # Magic Mirror cannot copy these
PARAMS = ("target", "weapon", "ability", "direction")

PASS = Action("pass")

# phases whose legal actions depend on public information only
PUBLIC_PHASES = frozenset({"direction", "defend", "position", "order", "bury", "copy", "pick",
                           "pendant", "aside", "flipped"})


def arrangements(n: int) -> list[list[str]]:
    """Every seating of the characters in which allies sit side by side (seats form a circle)."""
    chars = {2: (GIRL, QUEEN), 3: (GIRL, ROBOT, QUEEN), 4: (GIRL, ROBOT, QUEEN, SHADOW)}[n]
    out = []
    for perm in itertools.permutations(chars):
        ok = True
        for a, b in ((GIRL, ROBOT), (QUEEN, SHADOW)):
            if a in perm and b in perm:
                i, j = perm.index(a), perm.index(b)
                if (i - j) % n not in (1, n - 1):
                    ok = False
        if ok:
            out.append(list(perm))
    return out


def _params(a: Action) -> dict[str, Any]:
    return {k: v for k, v in a.args if k in PARAMS}


class Common(GameState):
    """The helpers every room of the rules uses."""

    def kind_of(self, card: int) -> str:
        return self._kind[card]

    def not_demons(self) -> list[int]:
        """Every card that is not a Demon: what "the card I drew is not a Demon" allows."""
        return [c for c in range(self.n_cards) if self._kind[c] != DEMON]

    def kind(self, slot: int) -> str | None:
        """The kind of card in ``slot`` as this view knows it."""
        v = self.values[slot]
        return None if v is None else self._kind[v]

    def pkind(self, p: int, slot: int) -> str | None:
        """The kind of card in ``slot`` if seat ``p`` knows it (and this view does)."""
        if not self.known[slot] >> p & 1:
            return None
        return self.kind(slot)

    def category(self, key: str) -> str:
        return self._data.kinds[key].category

    def public(self, slot: int) -> bool:
        return self.known[slot] == self.all_mask

    def card_name(self, card: int | None) -> str:
        return "?" if card is None else self._data.kinds[self._kind[card]].name

    def kind_name(self, key: str) -> str:
        return self._data.kinds[key].name

    def slot_name(self, slot: int) -> str:
        return self.card_name(self.values[slot])

    def char_name(self, p: int) -> str:
        return self._data.characters[self.chars[p]].name

    def char_ref(self, p: int) -> str:
        """The character's name inside a sentence: "the Robot"."""
        name = self.char_name(p)
        return "the" + name[3:] if name.startswith("The ") else name

    def hand(self, p: int) -> list[int]:
        return self.zones[f"hand{p}"]

    def weapons(self, p: int) -> list[int]:
        return self.zones[f"weapons{p}"]

    def seat_of(self, char: str) -> int | None:
        return self.chars.index(char) if char in self.chars else None

    def ally(self, p: int) -> int | None:
        for q in range(self.n_players):
            if q != p and self.team[q] == self.team[p]:
                return q
        return None

    def living_ally(self, p: int) -> int | None:
        a = self.ally(p)
        return a if a is not None and self.alive[a] and self.alive[p] else None

    def side(self, p: int) -> str:
        return "team" if self.living_ally(p) is not None else "alone"

    def in_play(self, char: str) -> bool:
        q = self.seat_of(char)
        return q is not None and self.alive[q]

    def cursed(self, p: int) -> bool:
        return any(str(s) not in self.hidden and self.kind(s) == "cursed_sword"
                   for s in self.weapons(p))

    def face_up_weapon(self, slot: int) -> bool:
        return str(slot) not in self.hidden

    def next_alive(self, p: int) -> int:
        n = self.n_players
        for i in range(1, n + 1):
            q = (p + self.direction * i) % n
            if self.alive[q]:
                return q
        return p

    def others_in_order(self, p: int) -> list[int]:
        n = self.n_players
        return [q for q in ((p + self.direction * i) % n for i in range(1, n)) if self.alive[q]]

    def upcoming(self, k: int = 4) -> list[int]:
        """The seats of the next ``k`` turns after the current one, as far as the public state
        tells (extra turns, the Robot's choice, then turn order)."""
        out: list[int] = []
        p, extra, override, owed = self.turn, self.extra, self.override, self.next_fx["extra"]
        for _ in range(k):
            if extra > 0 and self.alive[p]:
                extra -= 1
                q = p
            else:
                extra = 0
                q = override if override is not None and self.alive[override] else self.next_alive(p)
                override = None
            if q != p:  # the next other player receives the extra turns owed to "the next player"
                extra += owed
                owed = 0
            out.append(q)
            p = q
        return out

    def defenders(self, p: int) -> list[int]:
        """The weapons seat p may use against a Demon (the ally's too in the Euro variant)."""
        ws = list(self.weapons(p))
        a = self.living_ally(p)
        if self.config.get("euro") and a is not None:
            ws += self.weapons(a)
        return ws

    def _groups(self, p: int, slots: list[int]) -> list[tuple[int, str]]:
        """(lowest slot, kind) for each kind of card seat p knows among ``slots``."""
        seen: dict[str, int] = {}
        for s in slots:
            k = self.pkind(p, s)
            if k is not None and (k not in seen or s < seen[k]):
                seen[k] = s
        return sorted(((s, k) for k, s in seen.items()), key=lambda t: t[0])

    def _canon(self, p: int, slot: int) -> int:
        """The lowest slot of the same zone holding a card of the same kind, as p knows it."""
        if not isinstance(slot, int) or not 0 <= slot < self.n_cards:
            return slot
        k = self.pkind(p, slot)
        if k is None:
            return slot
        return min(s for s in self.zones[self.zone_of[slot]] if self.pkind(p, s) == k)

    def place(self, slot: int, zone: str, index: int | None = None) -> None:
        old = self.zone_of[slot]
        super().place(slot, zone, index)
        if old == zone:
            return
        if old == "draw" and slot in self.faceup:
            self.faceup.remove(slot)
        if old.startswith("weapons") and not zone.startswith("weapons"):
            self.hidden.pop(str(slot), None)
            if slot in self.king_used:
                self.king_used.remove(slot)
        if old.startswith("hand") and not zone.startswith("hand"):
            self.safe.pop(str(slot), None)
        if old.startswith("aside") and not zone.startswith("aside"):
            self.aside_turn.pop(str(slot), None)

    def reveal(self, slots: Sequence[int], to: Iterable[int] | None, then: str, /, **kw: Any) -> None:
        """As ``GameState.reveal``, except that a card this reveal would make known to every
        seat (e.g. a card given to the only other player, who held it) is revealed to all: no
        seat learns more, and a spectator's copy, which only ever receives reveals to all, stays
        equal to the public view."""
        if to is None:
            super().reveal(slots, None, then, **kw)
            return
        m = mask_of(to)
        public = [s for s in slots if self.known[s] | m == self.all_mask]
        if not public:
            super().reveal(slots, to, then, **kw)
        elif len(public) == len(slots):
            super().reveal(slots, None, then, **kw)
        else:
            rest = [s for s in slots if s not in public]
            super().reveal(public, None, "reveal_rest", rest=rest, to=sorted(set(to)), then=then, kw=kw)

    def _after_reveal_rest(self, rest: list[int], to: list[int], then: str, kw: dict[str, Any]) -> None:
        super().reveal(rest, to, then, **kw)

    def _spread_claims(self, slots: list[int]) -> None:
        """The cards of ``slots`` were shuffled among themselves: a "not a Demon" claim made on
        one of them now covers them all (its seat; -1 when several seats claimed). Honest hands
        never hold a Demon, so a Demon found in any of them later is a cheat."""
        claims = {self.safe[str(s)] for s in slots if str(s) in self.safe}
        if claims and len(slots) >= 2:
            who = claims.pop() if len(claims) == 1 else -1
            for s in slots:
                self.safe[str(s)] = who

    def _k(self, k: list[Any], **extra: Any) -> None:
        """Run a continuation ``[name, kwargs]``."""
        name, kw = k
        getattr(self, "_after_" + name)(**kw, **extra)

    def _after_k(self, k: list[Any]) -> None:
        self._k(k)

    def _ask(self, who: int, phase: str, **task: Any) -> None:
        self.task = {"who": who, **task}
        self.phase = phase
        self.decide(who)
