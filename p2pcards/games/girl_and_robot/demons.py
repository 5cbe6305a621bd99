"""The Girl and the Robot, Demons and weapons: weapons placed (face up or face down), a drawn
Demon ("You may use one of your Weapons on the table to defeat it [...] if you have no Weapon on
the table, you die"), placing it back in the Draw Pile, death and a dead player's cards,
set-aside Demons, and the checks of hidden claims when cards are revealed.
"""

from __future__ import annotations

from typing import Any

from ...engine import Action, RuleViolation, join_names
from .common import (
    DEMON,
    TEAM_NAMES,
    Common,
    _cap,
    _params,
)
from .data import FACE_DOWN_WEAPONS


class DemonsAndWeapons(Common):
    """Demons and Weapon Cards: defending, dying, placing Demons back."""

    def _after_weapon_shown(self, p: int, slot: int, card: str, target: int) -> None:
        self._check_claim(p, slot, card)
        on = "" if target == p else f" on {self.pname(target)}'s character"
        self.say(f"{self.pname(p)} places {self.kind_name(card)}{on}.")
        self._resume()

    def _do_hide(self, p: int, a: Action) -> None:
        self._played(p)
        self.task = None
        self.place(a.slot, f"weapons{p}")
        self.hidden[str(a.slot)] = p
        self.say(f"{self.pname(p)} places a weapon face down.")
        # "King's Sword / Pendant: Once played, place this Weapon face down": proven now
        self.prove([a.slot], p, [c for c in range(self.n_cards) if self.kind_of(c) in FACE_DOWN_WEAPONS],
                   "placed a card face down as a King's Sword or a Pendant",
                   "hide_proven")

    def _after_hide_proven(self) -> None:
        self._resume()

    def _do_unleash(self, p: int, a: Action) -> None:
        self.say(f"{self.pname(p)} takes a set-aside Demon to place it in the Draw Pile.")
        if self.phase == "aside":
            t = self.task
            self._position(p, a.slot, ["aside_next", {"owners": t["owners"], "k": t["k"]}])
        else:
            self._position(p, a.slot, ["resume", {}])

    def _position(self, p: int, slot: int, k: list) -> None:
        """Seat p places the (public) card ``slot`` face up anywhere in the Draw Pile."""
        self._ask(p, "position", slot=slot, k=k)

    def _do_position(self, p: int, a: Action) -> None:
        t = self.task
        self.task = None
        s = t["slot"]
        self.place(s, "draw", a.index)
        if s not in self.faceup:
            self.faceup.append(s)
        depth = len(self.zones["draw"]) - 1 - a.index
        self.say(f"{self.pname(p)} places the {self.slot_name(s)} face up in the Draw Pile, "
                 f"{self._depth_text(depth)}.")
        self._k(t["k"])

    def _do_demon(self, p: int, a: Action) -> None:
        t = self.task
        self.task = None
        self.reveal([t["slot"]], None, "demon_shown", p=p, slot=t["slot"], mode=t["mode"], k=t["k"])

    def _after_demon_shown(self, p: int, slot: int, mode: str, k: list) -> None:
        if self.kind(slot) != DEMON:
            raise RuleViolation(p, f"declared a Demon but drew {self.slot_name(slot)}")
        self._demon(p, slot, mode, k)

    def _demon(self, p: int, slot: int, mode: str, k: list) -> None:
        self.say(f"{self.pname(p)} draws a Demon!")
        if mode == "robot":
            self._position(p, slot, k)
            return
        if self.tf["deal"] and p == self.turn:
            self.place(slot, f"aside{p}")
            self.aside_turn[str(slot)] = self.turns
            self.say(f"{self.pname(p)} made a deal: the Demon is set aside on the table.")
            self._k(k)
            return
        if self.defenders(p):
            self._ask(p, "defend", slot=slot, k=k)
        else:
            self.say(f"{self.pname(p)} has no weapon and is killed by the Demon.")
            self._position(p, slot, ["slain", {"p": p, "k": k}])

    def _do_defend(self, p: int, a: Action) -> None:
        t = self.task
        self.task = None
        self.reveal([a.weapon], None, "defended", p=p, slot=t["slot"], w=a.weapon, k=t["k"])

    def _after_defended(self, p: int, slot: int, w: int, k: list) -> None:
        kind = self.kind(w)
        hidden = str(w) in self.hidden
        if hidden and kind not in FACE_DOWN_WEAPONS:
            raise RuleViolation(self.hidden[str(w)], f"placed {self.slot_name(w)} face down as a weapon")
        if kind == "kings_sword" and w not in self.king_used:
            self.hidden.pop(str(w), None)
            self.king_used.append(w)
            self.say(f"{self.pname(p)} defeats the Demon with the King's Sword and turns it face up.")
        else:
            self.place(w, "discard")
            self.say(f"{self.pname(p)} defeats the Demon with {self.slot_name(w)}, which is discarded.")
        self._position(p, slot, ["demon_placed", {"p": p, "pendant": kind == "pendant", "k": k}])

    def _after_demon_placed(self, p: int, pendant: bool, k: list) -> None:
        if pendant and len(self._legal_pendant(p)) > 1:
            self._ask(p, "pendant", k=k)
        else:
            self._k(k)

    def _do_pendant(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self.say(f"{self.pname(p)} uses the Pendant: {self._ability_text(a.id)}"
                 f"{self._target_text(_params(a))}.")
        self._ability(p, a.id, _params(a), k)

    def _after_slain(self, p: int, k: list) -> None:
        dead = [p]
        a = self.living_ally(p)
        if self.config.get("euro") and a is not None:
            dead.append(a)
        for d in dead:
            self.alive[d] = False
            self.blind[d] = self.spied[d] = False
            self.bonus[d] = 0
        if len(dead) == 2:
            self.say(f"Euro variant: {self.pname(dead[1])} shares {self.pname(p)}'s life and dies too.")
        team = self.team[p]
        if not any(self.alive[q] for q in range(self.n_players) if self.team[q] == team):
            self.winner = 1 - team
            self.phase = "over"
            self.task = None
            self.say(f"{_cap(TEAM_NAMES[team])} is dead: {TEAM_NAMES[1 - team]} wins!")
            return
        self._bury_aside(p, k)

    def _bury_aside(self, p: int, k: list) -> None:
        aside = self.zones[f"aside{p}"]
        if aside:
            self._position(p, aside[0], ["bury_aside", {"p": p, "k": k}])
            return
        grave = list(self.hand(p)) + list(self.weapons(p))
        for s in grave:
            self.place(s, "grave")
        self.reveal(grave, None, "grave_seen", p=p, k=k)

    def _after_bury_aside(self, p: int, k: list) -> None:
        self._bury_aside(p, k)

    def _after_grave_seen(self, p: int, k: list) -> None:
        if self.narrating and self.zones["grave"]:
            self.say(f"{self.pname(p)}'s cards go to the discard pile: "
                     f"{join_names(self.slot_name(s) for s in self.zones['grave'])}.")
        self._bury_next(p, k)

    def _bury_next(self, p: int, k: list) -> None:
        grave = self.zones["grave"]
        if len({self.kind(s) for s in grave}) <= 1:
            for s in list(grave):
                self.place(s, "discard")
            self._k(k)
            return
        self._ask(self.ally(p), "bury", dead=p, k=k)  # type: ignore[arg-type]

    def _do_bury(self, p: int, a: Action) -> None:
        t = self.task
        self.task = None
        self.place(a.slot, "discard")
        self._bury_next(t["dead"], t["k"])

    def _on_revealed(self, ev: Any, r: dict[str, Any]) -> None:
        super()._on_revealed(ev, r)
        for s in ev.slots:
            k = self.kind(s)
            if k is None:
                continue
            claimer = self.safe.get(str(s))
            if claimer is not None and k == DEMON:
                raise RuleViolation(claimer if claimer >= 0 else None,
                                    "drew a Demon and declared it safe")
            placer = self.hidden.get(str(s))
            if placer is not None and k not in FACE_DOWN_WEAPONS:
                raise RuleViolation(placer, f"placed {self.kind_name(k)} face down as a weapon")
