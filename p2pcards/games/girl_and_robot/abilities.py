"""The Girl and the Robot, the characters' abilities: spending the Ability Points pool, then one
``_ab_<id>`` method per ability (the Girl, the Robot, the Evil Queen, the Shadow Robot).
"""

from __future__ import annotations

from typing import Any

from ...engine import Action, join_names, plural
from .common import (
    DEMON,
    QUEEN,
    ROBOT,
    SHADOW,
    Common,
    _params,
)


class Abilities(Common):
    """Character Cards: each character's abilities."""

    def _do_ability(self, p: int, a: Action) -> None:
        cost = self._data.ability(a.id).cost
        self.points -= cost
        self.say(f"{self.pname(p)} uses {self.char_ref(p)}'s ability: {self._ability_text(a.id)}"
                 f"{self._target_text({k: v for k, v in _params(a).items() if k != 'ability'})}.")
        self._ability(p, a.id, _params(a), ["ability_done", {}])

    def _after_ability_done(self) -> None:
        if self.points <= 0:
            for s in list(self.zones["pool"]):
                self.place(s, "discard")
        self._resume()

    def _ability(self, p: int, aid: str, prm: dict[str, Any], k: list) -> None:
        getattr(self, "_ab_" + aid)(p, prm, k)

    def _ab_girl_bottom2(self, p: int, prm: dict, k: list) -> None:
        two = self.zones["draw"][:2]
        self.reveal(two, None, "two_seen", p=p, two=two, k=k)

    def _ab_queen_top2(self, p: int, prm: dict, k: list) -> None:
        two = self.zones["draw"][-2:]
        self.reveal(two, None, "two_seen", p=p, two=two, k=k)

    def _after_two_seen(self, p: int, two: list[int], k: list) -> None:
        if self.narrating:
            self.say(f"Revealed: {join_names(self.slot_name(s) for s in two)}.")
        if len(two) == 2:
            self._ask(p, "order", slots=two, k=k)
        else:
            self._put_on_top(two, k)

    def _do_order(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self._put_on_top(list(a.slots), k)

    def _put_on_top(self, slots: list[int], k: list) -> None:
        """Place ``slots`` face up on top of the Draw Pile, the first listed on top."""
        for s in slots:
            self.place(s, "moving")
        for s in reversed(slots):
            self.place(s, "draw")
            self.faceup.append(s)
        if self.narrating and slots:
            self.say(f"On top of the Draw Pile, face up: {', then '.join(self.slot_name(s) for s in slots)}"
                     f"{' (the first on top)' if len(slots) > 1 else ''}.")
        self._k(k)

    def _ab_girl_hex(self, p: int, prm: dict, k: list) -> None:
        self.next_fx["hex"] = True
        self._k(k)

    def _ab_girl_borrow(self, p: int, prm: dict, k: list) -> None:
        r = self.seat_of(ROBOT)
        assert r is not None
        self.tf["borrow"] = r
        self.reveal([s for s in self.hand(r) if self.known[s] >> r & 1], [p], "k", k=k)

    def _ab_girl_pendant(self, p: int, prm: dict, k: list) -> None:
        for s in self.zones["discard"]:
            if self.kind(s) == "pendant":
                self.say(f"{self.pname(p)} takes the Pendant from the discard pile.")
                self.place(s, f"hand{p}")
                self._mix(p, [s], k)
                return
        self._k(k)

    def _ab_robot_ban(self, p: int, prm: dict, k: list) -> None:
        self.next_fx["ban"] = True
        self._k(k)

    def _ab_robot_skip(self, p: int, prm: dict, k: list) -> None:
        self.tf["no_draw"] = True
        self._k(k)

    def _ab_robot_draw(self, p: int, prm: dict, k: list) -> None:
        self._draw_card(p, "robot", k)

    def _ab_robot_next(self, p: int, prm: dict, k: list) -> None:
        self.override = prm["target"]
        self._k(k)

    def _ab_queen_double(self, p: int, prm: dict, k: list) -> None:
        self.tf["double"] = True
        self._k(k)

    def _ab_queen_take(self, p: int, prm: dict, k: list) -> None:
        d = self.zones["discard"]
        if d and self.category(self.kind(d[-1]) or DEMON) == "action":
            s = d[-1]
            self.say(f"{self.pname(p)} takes {self.slot_name(s)} from the discard pile.")
            self.place(s, f"hand{p}")
            self._mix(p, [s], k)
            return
        self._k(k)

    def _ab_queen_boost(self, p: int, prm: dict, k: list) -> None:
        self.boost_used = True
        sh = self.seat_of(SHADOW)
        assert sh is not None
        self.bonus[sh] += 2
        self._k(k)

    def _ab_queen_move(self, p: int, prm: dict, k: list) -> None:
        self._ask(p, "pick", k=k)

    def _do_pick(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self.place(a.slot, "moving")
        self._position(p, a.slot, k)

    def _ab_shadow_destroy_all(self, p: int, prm: dict, k: list) -> None:
        ws = [w for q in range(self.n_players) for w in self.weapons(q)]
        self.reveal(ws, None, "destroyed", ws=ws, k=k)

    def _after_destroyed(self, ws: list[int], k: list) -> None:
        for w in ws:
            self.place(w, "discard")
        self.say(f"{plural(len(ws), 'weapon')} {'is' if len(ws) == 1 else 'are'} destroyed.")
        self._k(k)

    def _ab_shadow_revive(self, p: int, prm: dict, k: list) -> None:
        q = self.seat_of(QUEEN)
        assert q is not None
        self.alive[q] = True
        took = self.zones["discard"][:3]
        for s in took:
            self.place(s, f"hand{q}")
        if self.narrating:
            self.say(f"The Evil Queen is revived and takes {join_names(self.slot_name(s) for s in took) or 'nothing'}.")
        self._mix(q, list(took), k)

    def _ab_shadow_give(self, p: int, prm: dict, k: list) -> None:
        self._choose(prm["target"], ["given", {"t": prm["target"], "k": k}])

    def _after_given(self, t: int, k: list, slot: int | None) -> None:
        q = self.seat_of(QUEEN)
        assert q is not None
        if slot is None:
            self._k(k)
            return
        self.place(slot, f"hand{q}")
        line = f"{self.pname(t)} gives a card to {self.pname(q)}"
        self._receive(q, [slot], ["said", {"line": line, "slots": [slot],
                                           "k": ["mix", {"q": q, "entered": [slot], "k": k}]}])

    def _ab_shadow_destroy_one(self, p: int, prm: dict, k: list) -> None:
        w = prm["weapon"]
        if self.zone_of[w].startswith("weapons"):
            self.say(f"{self._weapon_text(w)} is destroyed.")
            self.place(w, "discard")
        self._k(k)
