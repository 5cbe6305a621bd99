"""Out Of This World: Foes -- Defeat, and the queue that runs the Foes' timed effects (some of
them need the deck service: a random discard is a ``Random`` then a ``Reveal`` to all)."""

from __future__ import annotations

from typing import Any

from ...engine import Action, RuleViolation, join_names, plural
from ...engine.requests import Random
from .base import TableBase


class Foes(TableBase):
    def defeatable(self, p: int) -> list[int]:
        """The Foes p may try to defeat: their own, and everyone's with the Monster Hunter."""
        if self.power(p, "defeat_others_foes"):
            return [s for q in self.order(p) for s in sorted(self.foes(q))]
        return sorted(self.foes(p))

    def _defeat_actions(self, p: int, classes: dict[int, list[int]]) -> list[Action]:
        acts: list[Action] = []
        counts = {cid: len(ss) for cid, ss in classes.items()}
        cache: dict[tuple[str, ...], list[tuple[int, ...]]] = {}
        for f in self.defeatable(p):
            c = self.card(f)
            assert c is not None
            for twice in ((False, True) if c.set_twice_removes else (False,)):
                reqs = tuple(c.vulnerability) * (2 if twice else 1)
                if reqs not in cache:
                    cache[reqs] = self._matching_sets(reqs, counts)
                for combo in cache[reqs]:
                    used: dict[int, int] = {}
                    for cid in combo:
                        used[cid] = used.get(cid, 0) + 1
                    slots = sorted(s for cid, n in used.items() for s in classes[cid][:n])
                    kw: dict[str, Any] = {"foe": f, "slots": slots}
                    if twice:
                        kw["twice"] = True
                    acts.append(Action("defeat", **kw))
        return acts

    def _do_defeat(self, p: int, a: Action) -> None:
        slots = sorted(a.slots)
        for s in slots:
            self.place(s, "discard")
        self.reveal(slots, None, "defeat_shown", p=p, foe=a.foe, slots=slots,
                    twice=bool(a.get("twice", False)))

    def _after_defeat_shown(self, p: int, foe: int, slots: list[int], twice: bool) -> None:
        c = self.card(foe)
        assert c is not None
        reqs = c.vulnerability * (2 if twice else 1)
        if not self.covers([self.values[s] for s in slots], reqs):  # type: ignore[misc]
            raise RuleViolation(p, f"those cards are not {c.name}'s set")
        owner = int(self.zone_of[foe][4:])
        self.place(foe, "removed" if twice else "discard")
        self.defeated[c.key] = self.defeated.get(c.key, 0) + 1
        played = join_names(self.card_name(self.values[s]) for s in slots)
        whose = "" if owner == p else f" (in front of {self.pname(owner)})"
        gone = "removes it from the game" if twice else "defeats it"
        self.say(f"{self.pname(p)} plays {played} against {c.name}{whose} and {gone}.")
        self._queue_fx("on_defeat", foe, owner)
        self._run_fx("defeat_done", p=p)

    def _after_defeat_done(self, p: int) -> None:
        self._end_turn(p)

    def _queue_fx(self, when: str, foe: int, owner: int) -> None:
        c = self.card(foe)
        assert c is not None
        for e in c.fx(when):
            self.fx.append({"do": e.do, "n": e.n, "target": e.target, "seat": owner, "foe": foe})

    def _run_fx(self, then: str, /, **kw: Any) -> None:
        self.fx_then = [then, kw]
        self._fx_next()

    def _fx_next(self) -> None:
        while self.fx:
            if self.result is not None:
                return
            e = self.fx.pop(0)
            if getattr(self, "_fx_" + e["do"])(e):
                return  # waits for a deck request
        if self.result is not None or self.fx_then is None:
            return
        then, kw = self.fx_then
        self.fx_then = None
        getattr(self, "_after_" + then)(**kw)

    def _targets(self, e: dict[str, Any]) -> list[int]:
        seat = e["seat"]
        t = e.get("target", "owner")
        if t == "left":
            return [self.left(seat)]
        if t == "right":
            return [(seat - 1) % self.n_players]
        if t == "all":
            return self.order(seat)
        return [seat]

    def _fx_move_left(self, e: dict[str, Any]) -> bool:
        f, seat = e["foe"], e["seat"]
        if self.zone_of[f] == f"foes{seat}":
            self.place(f, f"foes{self.left(seat)}")
            self.say(f"{self.card_name(self.values[f])} roams to {self.pname(self.left(seat))}.")
        return False

    def _fx_discard_random(self, e: dict[str, Any]) -> bool:
        more = [{"do": "discard_one", "seat": q, "foe": e["foe"]}
                for q in self._targets(e) for _ in range(e["n"])]
        self.fx[:0] = more
        return False

    def _fx_discard_one(self, e: dict[str, Any]) -> bool:
        seat = e["seat"]
        if not self.hand(seat):
            return False
        self.request(Random(len(self.hand(seat))), "fx_discard", seat=seat, foe=e["foe"])
        return True

    def _after_fx_discard(self, seat: int, foe: int, value: int) -> None:
        slot = sorted(self.hand(seat))[value]
        self.place(slot, "discard")
        self.reveal([slot], None, "fx_discarded", seat=seat, foe=foe, slot=slot)

    def _after_fx_discarded(self, seat: int, foe: int, slot: int) -> None:
        self.say(f"{self.card_name(self.values[foe]).split(' (')[0]}: {self.pname(seat)} discards "
                 f"{self.card_name(self.values[slot])} at random.")
        self._fx_next()

    def _fx_lose_time(self, e: dict[str, Any]) -> bool:
        self.say(f"{self.card_name(self.values[e['foe']]).split(' (')[0]}: lose "
                 f"{plural(e['n'], 'Time token')}.")
        self._lose_time(e["n"])
        return False

    def _fx_gain_time(self, e: dict[str, Any]) -> bool:
        self.time = min(self.time_max, self.time + e["n"])
        return False

    def _fx_no_action(self, e: dict[str, Any]) -> bool:
        self.no_action = True
        return False
