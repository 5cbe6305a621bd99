"""The Girl and the Robot, what may be done: the legal actions of each phase (computed from what
the deciding seat knows, so equal in its own copy and in the full state) and the validation of a
decision, including what a copy that cannot see the cards can still check.
"""

from __future__ import annotations

from typing import Any

from ...engine import Action, RuleViolation
from .common import (
    ALLY_TURN,
    CANCEL,
    DEMON,
    GIRL,
    NO_COPY,
    PASS,
    PUBLIC_PHASES,
    QUEEN,
    ROBOT,
    SHADOW,
    Common,
)
from .data import FACE_DOWN_WEAPONS

#: the moves that name a card of the mover's own hand, in the words of a refusal
_OWN_CARD = {"play": "plays", "hide": "places face down", "flip": "turns over",
             "cancel": "plays Cancel Action with", "choose": "chooses"}


class Legal(Common):
    """The legal actions of every phase and the validation of decisions."""

    def legal(self, player: int) -> list[Action]:
        r = self.req
        if r is None or r["type"] != "decide" or r["player"] != player:
            return []
        return getattr(self, "_legal_" + self.phase)(player)

    def _play_zones(self, p: int) -> list[list[int]]:
        zones = [self.hand(p)]
        b = self.tf["borrow"]
        if self.phase == "turn" and b is not None and p == self.turn and self.alive[b]:
            zones.append(self.hand(b))
        return zones

    def _legal_turn(self, p: int) -> list[Action]:
        acts: list[Action] = []
        for zone in self._play_zones(p):
            for s, k in self._groups(p, zone):
                acts += self.card_uses(p, s, k)
        acts += [Action("flip", slot=s) for s in self.hand(p) if not self.known[s] >> p & 1]
        a = self.living_ally(p)
        if a is not None:
            acts += self._shows(p, a)
        return acts + self._turn_public(p)

    def _turn_public(self, p: int) -> list[Action]:
        """The turn actions that depend on public information only."""
        acts: list[Action] = []
        if not self.cursed(p):
            for ab in self._data.characters[self.chars[p]].side(self.side(p)):
                if ab.cost <= self.points and self.ability_ok(p, ab.id):
                    acts += [Action("ability", id=ab.id, **v) for v in self.ability_variants(p, ab.id)]
        if self.living_ally(p) is not None and not self.tf["ally_called"]:
            acts.append(Action("ally"))
        d = self._placeable(p)
        if d:
            acts.append(Action("unleash", slot=d[0]))
        tf = self.tf
        if tf["ban"] or tf["no_draw"]:
            draws = [0]
        else:
            draws = ([0] if tf["may_skip"] else []) + [1] + ([2] if tf["double"] else [])
        acts += [Action("end", draw=n) for n in draws]
        return acts

    def _shows(self, p: int, a: int) -> list[Action]:
        slots = [s for s in self.hand(p) if self.known[s] >> p & 1 and not self.known[s] >> a & 1]
        acts = [Action("show", slots=[s]) for s in slots]
        if len(slots) > 1:
            acts.append(Action("show", slots=slots))
        return acts

    def _placeable(self, p: int) -> list[int]:
        return [s for s in self.zones[f"aside{p}"] if self.aside_turn.get(str(s)) != self.turns]

    def card_uses(self, p: int, slot: int, kind: str) -> list[Action]:
        """The ways seat p may play the card ``slot`` if it is of ``kind`` (public information)."""
        cat = self.category(kind)
        if cat == "action":
            if kind == CANCEL or (self.phase == "ally" and kind not in ALLY_TURN):
                return []
            return [Action("play", slot=slot, card=kind, **v) for v in self.variants(p, kind)]
        if self.phase == "ally":
            return []
        if cat == "points":
            return [Action("play", slot=slot, card=kind)]
        if cat == "weapon":
            if kind in FACE_DOWN_WEAPONS:
                return [Action("hide", slot=slot)]
            if kind == "cursed_sword":
                targets = [q for q in range(self.n_players) if self.alive[q]]
            elif kind == "dagger":
                a = self.living_ally(p)
                targets = [p] + ([a] if a is not None else [])
            else:
                targets = [p]
            return [Action("play", slot=slot, card=kind, target=t) for t in targets]
        return []

    def variants(self, p: int, kind: str) -> list[dict[str, Any]]:
        """The parameter choices of Action card ``kind`` played by seat p (public information)."""
        others = [q for q in self.others_in_order(p)]
        draw = self.zones["draw"]
        if kind in ("blind", "steal", "magic_mirror"):
            return [{"target": q} for q in others if self.hand(q)]
        if kind in ("spy", "trade"):
            return [{"target": q} for q in others]
        if kind == "evade":
            if self.n_players == 2:
                return [{"direction": self.direction}]
            return [{"direction": self.direction}, {"direction": -self.direction}]
        if kind == "weapon_tax":
            mine = len(self.weapons(p))
            return [{"target": q, "weapon": w} for q in others if len(self.weapons(q)) > mine
                    for w in self.weapons(q)
                    if not (self.face_up_weapon(w) and self.kind(w) == "dagger")]
        if kind == "lone_wolf":
            if self.cursed(p):
                return []
            return [{"ability": ab.id} for ab in self._data.characters[self.chars[p]].side("alone")
                    if self.ability_ok(p, ab.id) and self.ability_variants(p, ab.id) == [{}]]
        if kind in ("lure", "manipulate", "scout", "smoke_bomb"):
            return [{}] if draw else []
        if kind == CANCEL:
            return []
        return [{}]

    def ability_ok(self, p: int, aid: str) -> bool:
        """Whether ability ``aid`` would do something for seat p now (public information)."""
        draw, discard, tf = self.zones["draw"], self.zones["discard"], self.tf
        if aid in ("girl_bottom2", "queen_top2"):
            return bool(draw)
        if aid == "girl_borrow":
            r = self.seat_of(ROBOT)
            return r is not None and self.alive[r] and tf["borrow"] is None and p == self.turn
        if aid == "girl_pendant":
            return any(self.kind(s) == "pendant" for s in discard)
        if aid == "robot_skip":
            return not tf["no_draw"]
        if aid == "robot_draw":
            return not tf["ban"] and not tf["no_draw"]
        if aid == "queen_double":
            return (self.in_play(GIRL) and self.in_play(ROBOT) and not tf["double"]
                    and not tf["ban"] and not tf["no_draw"])
        if aid == "queen_take":
            return bool(discard) and self.category(self.kind(discard[-1]) or DEMON) == "action"
        if aid == "queen_boost":
            return not self.boost_used and self.in_play(SHADOW)
        if aid == "queen_move":
            return any(s in self.faceup and self.kind(s) == DEMON for s in draw)
        if aid == "shadow_destroy_all":
            return any(self.weapons(q) for q in range(self.n_players))
        if aid == "shadow_revive":
            return self.seat_of(QUEEN) is not None and not self.in_play(QUEEN)
        return bool(self.ability_variants(p, aid))

    def ability_variants(self, p: int, aid: str) -> list[dict[str, Any]]:
        if aid == "robot_next":
            return [{"target": q} for q in self.others_in_order(p)]
        if aid == "shadow_give":
            queen = self.seat_of(QUEEN)
            return [{"target": q} for q in [p] + self.others_in_order(p)
                    if q != queen and self.alive[q] and self.hand(q)]
        if aid == "shadow_destroy_one":
            return [{"weapon": w} for q in range(self.n_players) for w in self.weapons(q)
                    if self.face_up_weapon(w)]
        return [{}]

    def _legal_ally(self, p: int) -> list[Action]:
        acts = [PASS]
        for s, k in self._groups(p, self.hand(p)):
            acts += self.card_uses(p, s, k)
        acts += self._shows(p, self.turn)
        return acts

    def _legal_respond(self, p: int) -> list[Action]:
        return [PASS] + [Action("cancel", slot=s) for s, k in self._groups(p, self.hand(p)) if k == CANCEL]

    def _legal_flipped(self, p: int) -> list[Action]:
        s = self.task["slot"]
        uses = self.card_uses(p, s, self.kind(s))  # type: ignore[arg-type]
        return uses or [Action("waste", slot=s)]

    def _legal_drawn(self, p: int) -> list[Action]:
        k = self.pkind(p, self.task["slot"])
        if k is None:
            return []
        return [Action("demon")] if k == DEMON else [Action("safe")]

    def _legal_defend(self, p: int) -> list[Action]:
        return [Action("defend", weapon=w) for w in self.defenders(p)]

    def _legal_position(self, p: int) -> list[Action]:
        return [Action("position", index=i) for i in range(len(self.zones["draw"]) + 1)]

    def _legal_order(self, p: int) -> list[Action]:
        a, b = self.task["slots"]
        return [Action("order", slots=[a, b]), Action("order", slots=[b, a])]

    def _legal_choose(self, p: int) -> list[Action]:
        hand = self.hand(p)
        return ([Action("choose", slot=s) for s, _ in self._groups(p, hand)]
                + [Action("choose", slot=s) for s in hand if not self.known[s] >> p & 1])

    def _legal_bury(self, p: int) -> list[Action]:
        return [Action("bury", slot=s) for s, _ in self._groups(p, self.zones["grave"])]

    def _legal_copy(self, p: int) -> list[Action]:
        t = self.task["target"]
        acts = [Action("nocopy")]
        for s, k in self._groups(p, self.hand(t)):
            if self.category(k) == "action" and k not in NO_COPY:
                acts += [Action("copy", slot=s, card=k, **v) for v in self.variants(p, k)]
        return acts

    def _legal_lure(self, p: int) -> list[Action]:
        draw = self.zones["draw"]
        down = [s for s in draw if s not in self.faceup and self.pkind(p, s) == DEMON]
        up = [s for s in draw if s in self.faceup and self.kind(s) == DEMON]
        acts = [Action("lure", slot=s) for s in sorted(down)[:1] + sorted(up)[:1]]
        return acts or [Action("nodemon")]

    def _legal_pick(self, p: int) -> list[Action]:
        return [Action("pick", slot=s) for s in self.zones["draw"]
                if s in self.faceup and self.kind(s) == DEMON]

    def _legal_pendant(self, p: int) -> list[Action]:
        acts = [PASS]
        r = self.seat_of(ROBOT)
        if r is not None and self.alive[r] and not self.cursed(p):
            for ab in self._data.characters[ROBOT].side(self.side(r)):
                if self.ability_ok(p, ab.id):
                    acts += [Action("pendant", id=ab.id, **v) for v in self.ability_variants(p, ab.id)]
        return acts

    def _legal_aside(self, p: int) -> list[Action]:
        d = self._placeable(p)
        return [PASS] + ([Action("unleash", slot=d[0])] if d else [])

    def validate(self, player: int, action: Action) -> None:
        # an action the rules cannot read is a violation too: GameState.apply says so
        p, a = player, action
        if a.kind == "show":
            self._check_show(p, a)
            return
        if self.phase in PUBLIC_PHASES or self.viewer is None or self.viewer == p:
            legal = self.legal(p)
            if a not in legal and self.canonical(p, a) not in legal:
                raise RuleViolation(p, f"{self.describe(a)} is not a legal action now")
            return
        self._check_public(p, a)

    def canonical(self, p: int, a: Action) -> Action:
        """The action as ``legal`` lists it: the card it names replaced by the lowest slot of the
        same zone holding a card of the same kind (as p knows it). Not in phase ``flipped``:
        the card just turned over is the one to play (Blind: "you must immediately play or
        discard" it), and ``legal`` names its own slot even when a card of its kind lies lower."""
        if self.phase == "flipped":
            return a
        if a.kind in ("play", "hide", "cancel", "choose", "bury", "copy") and isinstance(a.get("slot"), int):
            return Action(a.kind, **{**dict(a.args), "slot": self._canon(p, a.slot)})
        if a.kind == "lure" and isinstance(a.get("slot"), int) and 0 <= a.slot < self.n_cards:
            s = a.slot
            same = [x for x in self.zones["draw"] if (x in self.faceup) == (s in self.faceup)
                    and self.pkind(p, x) == self.pkind(p, s)]
            return Action("lure", **{**dict(a.args), "slot": min(same)}) if s in same else a
        if a.kind == "unleash":
            d = self._placeable(p)
            return Action("unleash", **{**dict(a.args), "slot": d[0]}) if a.get("slot") in d else a
        return a

    def disguise(self, player: int, action: Action, rng: Any) -> Action:
        """The card a ``play``, ``hide``, ``cancel``, ``choose``, ``bury``, ``copy`` or ``lure``
        names becomes a random one of the same kind in the same place (for a Lure, face up or
        down alike) with the same knowledge, as ``canonical`` allows (see
        ``GameState.disguise``); a weapon or target named stays, and so does the flipped card."""
        p = player
        if self.phase == "flipped" or action.kind not in (
                "play", "hide", "cancel", "choose", "bury", "copy", "lure"):
            return action

        def key(s: int) -> Any:
            k = self.pkind(p, s)
            if k is None:
                return None
            return (s in self.faceup, k) if action.kind == "lure" else k

        return self._disguise_slots(p, action, rng, key, only=("slot",))

    def interchangeable(self, seat: int) -> list[list[int]]:
        """As ``GameState.interchangeable`` for every hand (this game declares no ``hands()``;
        the Girl may hold the Robot's cards in view), split by ``known`` mask, leaving out the
        card the pending decision is about (the one just drawn or turned over)."""
        task = self.task or {}
        fixed = {task.get("slot"), *(task.get("slots") or ())}
        out: list[list[int]] = []
        for q in range(self.n_players):
            cells: dict[int, list[int]] = {}
            for s in self.hand(q):
                if self.known[s] >> seat & 1 and self.values[s] is not None and s not in fixed:
                    cells.setdefault(self.known[s], []).append(s)
            out += [c for c in cells.values() if len(c) >= 2]
        return out

    def _check_show(self, p: int, a: Action) -> None:
        ally = self.living_ally(p)
        slots = a.slots
        if self.phase not in ("turn", "ally") or ally is None:
            raise RuleViolation(p, "there is no ally to show cards to now")
        if self.phase == "ally" and p != self.allywin["who"]:
            raise RuleViolation(p, "not your window")
        if not slots or len(set(slots)) != len(slots) or not all(isinstance(s, int) for s in slots):
            raise RuleViolation(p, "show needs distinct cards")
        hand = self.hand(p)
        for s in slots:
            if s not in hand or not self.known[s] >> p & 1 or self.known[s] >> ally & 1:
                raise RuleViolation(p, "you can only show cards you know and your ally does not")

    def _check_public(self, p: int, a: Action) -> None:
        """What a view that cannot see seat p's cards can still check."""
        ph, k = self.phase, a.kind
        bad = RuleViolation(p, f"{self.describe(a)} is not a legal action now")
        if k in _OWN_CARD and isinstance(a.get("slot"), int) and not any(
                a.slot in z for z in (self._play_zones(p) if k in ("play", "hide")
                                      else [self.hand(p)])):
            # said so, not described: the card named may be one only this copy knows (its own
            # seat's), and a stop's reason goes to every player (red team 16c)
            raise RuleViolation(p, f"{_OWN_CARD[k]} a card that is not in their hand")
        if ph == "turn" and k in ("ability", "ally", "unleash", "end"):
            if a not in self._turn_public(p):
                raise bad
            return
        if ph in ("turn", "ally") and k in ("play", "hide"):
            s = a.slot
            if not any(s in z for z in self._play_zones(p)) or not self.known[s] >> p & 1:
                raise bad
            claim = a.card if k == "play" else FACE_DOWN_WEAPONS[0]
            if claim not in self._data.kinds or (k == "play" and claim in FACE_DOWN_WEAPONS):
                raise bad
            if k == "hide" and self.kind(s) is not None and self.kind(s) not in FACE_DOWN_WEAPONS:
                raise bad
            if k == "play" and self.kind(s) is not None and self.kind(s) != claim:
                raise bad
            if a not in self.card_uses(p, s, claim):
                raise bad
            return
        if ph == "turn" and k == "flip":
            if a.slot not in self.hand(p) or self.known[a.slot] >> p & 1:
                raise bad
            return
        if ph in ("ally", "respond") and k == "pass":
            return
        if ph == "respond" and k == "cancel":
            if a.slot not in self.hand(p) or not self.known[a.slot] >> p & 1:
                raise bad
            if self.kind(a.slot) not in (None, CANCEL):
                raise bad
            return
        if ph == "drawn" and k in ("safe", "demon"):
            if k == "safe" and self.kind(self.task["slot"]) == DEMON:
                raise bad
            return
        if ph == "choose" and k == "choose":
            if a.slot not in self.hand(p):
                raise bad
            return
        if ph == "lure" and k in ("lure", "nodemon"):
            if k == "lure" and a.slot not in self.zones["draw"]:
                raise bad
            if k == "nodemon" and any(s in self.faceup and self.kind(s) == DEMON
                                      for s in self.zones["draw"]):
                raise bad  # a face-up Demon in the pile is there for everyone to see
            return
        raise bad

    def _decide(self, p: int, a: Action) -> None:
        getattr(self, "_do_" + a.kind)(p, a)
