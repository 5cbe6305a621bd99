"""A sensible Go Out Girl bot: sheds low cards in big groups, keeps Guards and high cards for
when they matter, picks a character that suits its hand and reveals it when the ability pays."""

from __future__ import annotations

from collections import Counter

from ..engine import Action
from ..games.go_out_girl.game import KIRA, KYOKO, NERAI, NIWA, SATSUKI, SHIAN, TEN, TOYOKO, Game
from .base import Bot


def hand_numbers(view: Game, seat: int) -> Counter[int]:
    return Counter(view.number(view.values[s]) for s in view.hand(seat)  # type: ignore[arg-type]
                   if view.values[s] is not None)


def card_keep_value(n: int, counts: Counter[int]) -> float:
    """How much a card of number n is worth keeping (Guard = 0 counts as precious)."""
    if n == 0:
        return 100.0
    return n + 3.0 * (counts[n] - 1)


def character_score(counts, ch: int, life: int) -> float:
    """The heuristic bot's score for choosing character ``ch`` (``life`` life points) holding
    ``counts[n]`` cards of number ``n`` (0: Guards; a Counter, or a list indexed 0..13), before
    its tie-break. The solver's model of this bot (``solver.go_out_girl.policy``) uses it too."""
    s = life * (0.6 if counts[0] else 1.0)
    if ch == NERAI:
        s += 1.5 * (counts[4] + counts[5] + counts[6])
    elif ch == TOYOKO:
        s += 3.0 * counts[1]
    elif ch == SHIAN:
        s += 2.0 * (counts[2] + counts[3]) if counts[2] + counts[3] >= 3 else 0
    elif ch == NIWA:
        s += 0.5 * sum(1 for n in range(1, 6) if counts[n])
    elif ch == KIRA:
        s += 2.0
    elif ch == TEN:
        s += 1.0
    elif ch == KYOKO:
        s += 0.8 * sum(1 for n in range(1, 14) if counts[n] == 1) - 3
    return s


class GoOutGirlBot(Bot):
    name = "heuristic"

    def decide(self, view: Game | None, legal: list[Action]) -> Action:  # type: ignore[override]
        assert view is not None
        me = self.seat
        phase = view.phase
        counts = hand_numbers(view, me)
        if phase == "choose":
            return self._choose(view, legal, counts)
        if phase in ("damage", "discard"):
            return min(legal, key=lambda a: card_keep_value(view.number(view.values[a.slot]), counts))
        if phase == "give":
            gives = [a for a in legal if a.kind == "give"]
            worst = min(gives, key=lambda a: card_keep_value(view.number(view.values[a.slot]), counts))
            # giving away is shedding; keep Guards and lone high cards
            if view.number(view.values[worst.slot]) == 0:
                return next(a for a in legal if a.kind == "keep")
            return worst
        plays = [a for a in legal if a.kind == "play"]
        if phase == "lead":  # after a Reset; a hand of only Guards leads with a Guard (a pass)
            return self._lead(view, plays, counts) if plays else legal[0]
        return self._turn(view, legal, plays, counts)

    # ---- character choice and reveal ----------------------------------------------------------
    def _choose(self, view: Game, legal: list[Action], counts: Counter[int]) -> Action:
        def score(a: Action) -> float:
            ch = view.character_of_card(view.values[a.slot])[1]  # type: ignore[arg-type]
            return character_score(counts, ch, view.life(ch)) + self.rng.random() * 0.01
        return max(legal, key=score)

    def _should_reveal(self, view: Game, counts: Counter[int]) -> bool:
        me = self.seat
        ch = view.own_character(me)
        top = view.top
        if ch is None:
            return False
        if ch == SATSUKI:
            return True
        if ch == NERAI:
            return counts[4] + counts[5] > 0 and (top is None or top["number"] < 6)
        if ch == TOYOKO:
            return counts[1] > 0 and (top is None or top["number"] >= 9)
        if ch == SHIAN:
            return top is not None and counts[2] + counts[3] >= 3 and top["damage"] >= 1
        if ch == NIWA:
            return top is not None and not self._can_play(view, counts)
        if ch == TEN:
            return top is not None and not self._can_play(view, counts)
        if ch == KYOKO:
            return top is not None and top["count"] == 2 and not self._can_play(view, counts)
        return False  # Kira reveals through her barrier

    def _can_play(self, view: Game, counts: Counter[int]) -> bool:
        top = view.top
        if top is None:
            return True
        return any(n > top["number"] and k >= top["count"] for n, k in counts.items() if n)

    # ---- playing ------------------------------------------------------------------------------
    def _lead(self, view: Game, plays: list[Action], counts: Counter[int]) -> Action:
        # shed the biggest group of the lowest numbers; keep strong singles for later
        return max(plays, key=lambda a: (len(a.slots) * 2 - a.number / 4, -a.number))

    def _turn(self, view: Game, legal: list[Action], plays: list[Action], counts: Counter[int]) -> Action:
        me = self.seat
        kinds = {a.kind: a for a in legal}
        if "reveal" in kinds and self._should_reveal(view, counts):
            return kinds["reveal"]
        top = view.top
        if top is None:
            if plays:
                return self._lead(view, plays, counts)
            return kinds.get("guard", legal[0])
        if "reset" in kinds and (top["number"] >= 10 or top["damage"] >= 2):
            return next(a for a in legal if a.kind == "reset")
        hand_size = len(view.hand(me))
        if plays:
            best = min(plays, key=lambda a: (a.number, len(a.slots)))
            waste = best.number >= 13 and top["damage"] <= 1 and hand_size > 4
            if not waste or "withdraw" in kinds:
                return best
        d = top["damage"]
        if "withdraw" in kinds:
            for k in ("barrier", "guard"):
                if k in kinds:
                    return kinds[k]
            return plays[0] if plays else kinds["withdraw"]
        if "barrier" in kinds and d >= 2:
            return kinds["barrier"]
        ch = view.own_character(me)
        life = view.life(ch) if ch is not None else 5
        if "guard" in kinds and (d >= 2 or view.damage[me] + d >= life - 1):
            return kinds["guard"]
        if plays:
            return min(plays, key=lambda a: a.number)
        return kinds.get("pass", legal[-1])
