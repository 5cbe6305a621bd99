"""Out Of This World: rounds -- Gear Up!, Taking Care of Things, Time tokens, winning and losing."""

from __future__ import annotations

from typing import Any

from ...engine import Action, join_names, plural
from .base import TableBase


class Rounds(TableBase):
    def _start_round(self) -> None:
        self.round += 1
        self.phase = "gear"
        self.step = ""
        self.turn = self.vocal = self.first
        self.sneaks = [0] * self.n_players
        self.legs = 0
        self.say(f"— Round {self.round}: Gear Up! ({self.pname(self.vocal)} is the Vocal Player)")
        self._gear_deal()

    def _gear_deal(self) -> None:
        stacks = [self.stack(i) for i in range(self.n_stacks)]
        deck = self.zones["deck"]
        need = self.n_stacks * self._data.stack_size - sum(len(z) for z in stacks)
        while need > 0 and deck:
            i = min(range(self.n_stacks), key=lambda k: len(stacks[k]))
            self.place(deck[-1], f"stack{i}")
            need -= 1
        if need > 0 and self.refill("gear_deal"):
            return
        if self.stacks_empty():
            self._lose("the Adventure deck is exhausted: there is nothing left to find")
            return
        tops = [z[-1] for z in stacks if z]
        self.reveal(tops, None, "stacks_flipped")

    def _after_gear_deal(self) -> None:
        self._gear_deal()

    def _after_stacks_flipped(self) -> None:
        tops = " | ".join(self.card_name(self.values[self.stack(i)[-1]]) if self.stack(i) else "empty"
                          for i in range(self.n_stacks))
        self.say(f"The stacks show: {tops}.")
        self.phase = "go"
        self.say("Go For It!")
        self._begin_turn(self.vocal)

    def _care(self) -> None:
        self.phase = "care"
        self.step = ""
        self.turn = self.vocal
        self.say("Taking Care of Things.")
        if self.won():
            self.result = "won"
            self.reason = "the adventure's win condition is met"
            self.phase = "over"
            self.say(f"Victory! {self._win_text()} — the team wins {self._adv.name}.")
            return
        for q in self.order(self.vocal):
            for s in list(self.foes(q)):
                self._queue_fx("end_of_round", s, q)
        self._run_fx("round_fx")

    def _after_round_fx(self) -> None:
        weights = [self.foe_weight(q) for q in range(self.n_players)]
        m = max(weights)
        if m:
            most = [self.pname(q) for q in range(self.n_players) if weights[q] == m]
            self.say(f"{join_names(most)} {'has' if len(most) == 1 else 'have'} the most Foes "
                     f"({m}): lose {plural(m, 'Time token')}.")
            if self._lose_time(m):
                return
        self.queue = self.order(self.vocal)
        self._next_discarder()

    def _next_discarder(self) -> None:
        while self.queue and len(self.hand(self.queue[0])) <= self.hand_limit(self.queue[0]):
            self.queue.pop(0)
        if self.queue:
            self.step = "discard"
            self.decide(self.queue[0])
            return
        # "The next round will begin with the player to the left of the current Vocal Player":
        # the round's first player moves on one seat, so every seat starts in turn (read
        # literally, with the token also passed after the last turn, 3 players would see the same
        # seat start every round: 20 turns is 2 more than a multiple of 3)
        self.first = self.vocal = self.left(self.first)
        self.say(f"{self.pname(self.vocal)} receives the Vocal Player token and starts the "
                 "next round.")
        self._start_round()

    def _do_discard(self, p: int, a: Action) -> None:
        self.place(a.slot, "discard")
        self.reveal([a.slot], None, "discarded", p=p, slot=a.slot)

    def _after_discarded(self, p: int, slot: int) -> None:
        self.say(f"{self.pname(p)} discards {self.card_name(self.values[slot])} "
                 f"(hand limit {self.hand_limit(p)}).")
        self._next_discarder()

    def _lose_time(self, n: int) -> bool:
        """Discard n Time tokens; True if that was the last one (the game is lost)."""
        self.time = max(0, self.time - n)
        if self.time == 0:
            self._lose("the last Time token is gone")
            return True
        self.say(f"Time tokens left: {self.time}.")
        return False

    def _lose(self, reason: str) -> None:
        self.result = "lost"
        self.reason = reason
        self.phase = "over"
        self.step = ""
        self.fx = []
        self.fx_then = None
        self.queue = []
        self.say(f"Defeat: {reason}. The team loses {self._adv.name}.")

    def won(self) -> bool:
        return all(self.condition_met(c) for c in self._adv.win)

    def condition_met(self, cond: dict[str, Any]) -> bool:
        kind = cond["kind"]
        if kind == "equip_points":
            need = self.points_needed(cond)
            return all(self.points(p) >= need for p in range(self.n_players))
        if kind == "no_foe":
            return not any(self.card(s).key == cond["card"]  # type: ignore[union-attr]
                           for p in range(self.n_players) for s in self.foes(p))
        if kind == "defeated":
            return self.defeated.get(cond["card"], 0) >= cond["count"]
        if kind == "equipped":
            return sum(1 for p in range(self.n_players) for s in self.equipped(p)
                       if self.card(s).key == cond["card"]) >= cond["count"]  # type: ignore[union-attr]
        raise AssertionError(kind)

    def _card_key_name(self, key: str) -> str:
        for c in self._cards:
            if c.key == key:
                return c.name
        return key

    def condition_text(self, cond: dict[str, Any]) -> str:
        kind = cond["kind"]
        if kind == "equip_points":
            return f"every player has {self.points_needed(cond)} points equipped"
        name = self._card_key_name(cond["card"])
        if kind == "no_foe":
            return f"no {name} in front of any player"
        if kind == "defeated":
            return f"{name} defeated" + (f" {cond['count']}×" if cond["count"] > 1 else "")
        return f"{cond['count']}× {name} equipped"

    def _win_text(self) -> str:
        return "; ".join(self.condition_text(c) for c in self._adv.win)

    def outcome(self) -> dict[str, Any] | None:
        if self.result is None:
            return None
        return {"result": self.result, "won": self.result == "won", "reason": self.reason,
                "adventure": self._adv.key, "difficulty": self._diff.key, "rounds": self.round,
                "time_tokens": self.time,
                "points": [self.points(p) for p in range(self.n_players)]}

    def result_text(self) -> str:
        o = self.outcome()
        if o is None:
            return ""
        pts = ", ".join(f"{self.pname(p)} {o['points'][p]}" for p in range(self.n_players))
        verdict = "The team wins" if o["won"] else "The team loses"
        return (f"{verdict} {self._adv.name} ({self._diff.name}): {o['reason']}, after "
                f"{plural(o['rounds'], 'round')}; equipped points: {pts}; Time tokens left: "
                f"{o['time_tokens']}")
