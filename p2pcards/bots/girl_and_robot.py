"""A sensible The Girl and the Robot bot, deciding from its own seat's view only.

It keeps its team alive and feeds Demons to the other team: it estimates the odds that the next
card of the Draw Pile is a Demon from what it knows (face-up cards, its peeks), places weapons,
escapes a dangerous draw (Evade, Grave Digger, A Deal with a Demon, skipping the draw, the
Robot's abilities, Peace Treaty, Manipulate, Smoke Bomb), puts every Demon it handles where an
opponent will draw it, strikes at the other team (Steal, Weapon Tax, Blind, the Shadow Robot's
destruction), answers the other team's harmful actions with Cancel Action, and helps its ally
during their turn (Scout, Manipulate, Smoke Bomb before their draw; a Dagger on their character).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Action
from ..games.girl_and_robot.game import CANCEL, DEMON, Game
from .base import Bot

# how much a card is worth keeping in hand (the least is given or discarded first)
KEEP = {
    "cancel_action": 9, "evade": 9, "grave_digger": 8, "deal_with_demon": 8, "kings_sword": 10,
    "pendant": 10, "basic_sword": 10, "dagger": 10, "manipulate": 7, "peace_treaty": 6,
    "smoke_bomb": 6, "weapon_tax": 6, "steal": 5, "scout": 5, "ambush": 6, "provoke": 6,
    "lone_wolf": 5, "blind": 4, "magic_mirror": 4, "lure": 4, "spy": 2, "trade": 2, "act_ii": 1,
    "cursed_sword": 3, "ap1": 2, "ap2": 3, "ap3": 4,
}
HARMFUL = ("steal", "blind", "magic_mirror", "weapon_tax")  # worth cancelling when aimed at us
ESCAPES = ("evade", "grave_digger", "deal_with_demon", "ambush", "provoke", "smoke_bomb",
           "manipulate", "peace_treaty")
MAX_TURN_STEPS = 40  # decisions in one turn before the bot simply ends it
DEFEND_ORDER = {"cursed_sword": 0, "basic_sword": 2, "dagger": 3, "pendant": 4}


class GirlAndRobotBot(Bot):
    name = "heuristic"

    def __init__(self, seat: int, seed: int | None = None) -> None:
        super().__init__(seat, seed)
        self._turn_key: tuple[int, int] = (-1, -1)
        self._turn_steps = 0
        self._memo: dict[tuple, float] = {}  # figures of the current decision

    # ---- what the bot knows -------------------------------------------------------------------
    def team(self, v: Game) -> int:
        return v.team[self.seat]

    def friend(self, v: Game, q: int) -> bool:
        return v.team[q] == self.team(v)

    def demons_hidden(self, v: Game) -> tuple[int, int]:
        """(Demons in the Draw Pile this seat cannot place, cards there it does not know)."""
        draw = v.zones["draw"]
        total = len(v._data.cards_of(DEMON))
        elsewhere = sum(len(v.zones[f"aside{p}"]) for p in range(v.n_players)) + sum(
            1 for z in ("moving",) for s in v.zones[z] if v.kind(s) == DEMON)
        elsewhere += sum(1 for p in range(v.n_players) for s in v.hand(p) if v.kind(s) == DEMON)
        known = sum(1 for s in draw if v.kind(s) == DEMON)
        unknown = sum(1 for s in draw if v.kind(s) is None)
        return max(0, total - elsewhere - known), unknown

    def odds(self, v: Game, depth: int = 0) -> float:
        """The chance that the card ``depth`` below the top of the Draw Pile is a Demon."""
        key = ("odds", depth)
        if key not in self._memo:
            self._memo[key] = self._odds(v, depth)
        return self._memo[key]

    def _odds(self, v: Game, depth: int) -> float:
        draw = v.zones["draw"]
        if depth >= len(draw):
            return 0.0
        k = v.kind(draw[-1 - depth])
        if k is not None:
            return 1.0 if k == DEMON else 0.0
        hidden, unknown = self.demons_hidden(v)
        return hidden / unknown if unknown else 0.0

    def drawers(self, v: Game, k: int = 8) -> list[int]:
        """Who draws the next cards of the Draw Pile, top first (one draw per turn)."""
        tf = v.tf
        if tf["no_draw"] or tf["ban"]:
            own = 0
        else:
            own = tf["left"] if tf["ended"] else 1
        return [v.turn] * own + v.upcoming(k)

    def enemy_depth(self, v: Game) -> int:
        """The depth (0 = top) of the first card an opponent will draw."""
        seq = self.drawers(v)
        for d, q in enumerate(seq):
            if not self.friend(v, q):
                return d
        return 0

    def risk(self, v: Game, p: int | None = None) -> float:
        """How dangerous the coming draw is for seat p (the turn's player): the Demon odds,
        weighed by how many weapons they can use."""
        p = self.seat if p is None else p
        key = ("risk", p)
        if key not in self._memo:
            self._memo[key] = self._risk(v, p)
        return self._memo[key]

    def _risk(self, v: Game, p: int) -> float:
        tf = v.tf
        if p == v.turn and (tf["no_draw"] or tf["ban"]):
            return 0.0
        odds = self.odds(v, 0)
        ws = len(v.defenders(p))
        return odds * (1.0 if ws == 0 else 0.35 if ws == 1 else 0.15)

    def value(self, v: Game, s: int) -> float:
        k = v.kind(s)
        return 5.0 if k is None else KEEP.get(k, 3)

    # ---- the decision -------------------------------------------------------------------------
    def decide(self, view: Game | None, legal: list[Action]) -> Action:  # type: ignore[override]
        assert view is not None
        self._memo = {}
        if len(legal) == 1:
            return legal[0]
        handler = getattr(self, "_" + view.phase, None)
        if handler is None:
            return legal[0]
        return handler(view, legal)

    def _direction(self, v: Game, legal: list[Action]) -> Action:
        me = self.seat
        for a in legal:
            if not self.friend(v, (me + a.d) % v.n_players):
                return a
        return legal[0]

    def _turn(self, v: Game, legal: list[Action]) -> Action:
        # a safety net against loops the rules allow (two Lone Wolves and the Queen's "take it")
        if self._turn_key != (v.turns, v.turn):
            self._turn_key, self._turn_steps = (v.turns, v.turn), 0
        self._turn_steps += 1
        if self._turn_steps > MAX_TURN_STEPS:
            return next(a for a in reversed(legal) if a.kind == "end")
        scored = [(self.score(v, a), i, a) for i, a in enumerate(legal) if a.kind != "end"]
        if scored:
            best = max(scored, key=lambda t: (t[0], -t[1]))
            if best[0] > 0:
                return best[2]
        ends = {a.draw: a for a in legal if a.kind == "end"}
        if 0 in ends and (self.risk(v) > 0 or self.odds(v) > 0.05):
            return ends[0]
        if 2 in ends and self.odds(v, 0) == 0 and self.odds(v, 1) == 0:
            return ends[2]
        return ends.get(1) or next(iter(ends.values()))

    def score(self, v: Game, a: Action) -> float:
        """How much the bot wants to take action ``a`` during its turn (<= 0: not now)."""
        me = self.seat
        k = a.kind
        risk = self.risk(v)
        if k == "play":
            card = a.card
            cat = v.category(card)
            if cat == "weapon":
                return self._weapon_score(v, card, a.target)
            if cat == "points":
                return self._points_score(v, card)
            if v.tf["hex"]:
                return -1.0  # the Girl's curse would cancel it
            return self.action_score(v, card, a)
        if k == "hide":
            return 50.0
        if k == "ability":
            return self.ability_score(v, a.id, a)
        if k == "flip":
            return 30.0 * risk if len(v.defenders(me)) == 0 else 0.0
        if k == "ally":
            return 12.0 if risk > 0.1 and v.kind(v.zones["draw"][-1]) is None else 0.0
        return 0.0

    def _weapon_score(self, v: Game, card: str, target: int) -> float:
        me = self.seat
        if card == "cursed_sword":
            if target == me and not v.defenders(me) and self.odds(v) > 0:
                return 40.0
            return -1.0
        if not self.friend(v, target):
            return -1.0
        return 50.0 - len(v.weapons(target)) * 2 + (1 if target == me else 0)

    def _points_score(self, v: Game, card: str) -> float:
        need = self._wanted_cost(v)
        tf = v.tf
        obliged = (tf["provoke"] and tf["played"] < 2) or (v.cursed(self.seat) and tf["played"] < 1)
        if need is None or need <= v.points:
            return 4.0 if obliged else -1.0
        value = v._data.kinds[card].value
        missing = need - v.points
        return 30.0 + (10 - abs(missing - value)) * 0.1

    def _wanted_cost(self, v: Game) -> int | None:
        """The cost of the most wanted ability the bot can pay for with its points cards."""
        me = self.seat
        if v.cursed(me):
            return None
        hand_points = sum(v._data.kinds[v.kind(s)].value for s in v.hand(me)
                          if v.kind(s) is not None and v.category(v.kind(s)) == "points")
        best: tuple[float, int] | None = None
        char = v._data.characters[v.chars[me]]
        for ab in char.side(v.side(me)):
            if ab.cost > v.points + hand_points or ab.cost == 0 or not v.ability_ok(me, ab.id):
                continue
            variants = v.ability_variants(me, ab.id)
            sc = max((self.ability_score(v, ab.id, Action("ability", id=ab.id, **va))
                      for va in variants), default=-1.0)
            if sc > 0 and (best is None or sc > best[0]):
                best = (sc, ab.cost)
        return None if best is None else best[1]

    # ---- card and ability values --------------------------------------------------------------
    def action_score(self, v: Game, card: str, a: Action) -> float:
        risk = self.risk(v)
        draw = v.zones["draw"]
        top = v.kind(draw[-1]) if draw else None
        nxt = v.upcoming(1)[0]
        target = a.get("target")
        if target is not None and self.friend(v, target) and card != "trade":
            return -1.0
        if card == "evade":
            d = a.get("direction")
            bonus = 1.0 if d is not None and not self.friend(v, self._next_if(v, d)) else 0.0
            return 100.0 * risk + bonus if risk > 0 else -1.0
        if card == "grave_digger":
            return 90.0 * risk if risk > 0 and v.zones["discard"] else -1.0
        if card == "deal_with_demon":
            return 85.0 * risk if risk > 0 and not v.tf["deal"] else -1.0
        if card == "ambush":
            return 80.0 * risk if risk > 0 and not v.tf["may_skip"] else -1.0
        if card == "provoke":
            base = 0.0 if v.tf["may_skip"] else 80.0 * risk
            return base + (15.0 if not self.friend(v, nxt) else -20.0)
        if card == "peace_treaty":
            return 75.0 if top == DEMON and risk > 0 else 30.0 * risk
        if card == "smoke_bomb":
            return 70.0 if top == DEMON and risk > 0 else -1.0
        if card == "manipulate":
            if top == DEMON or (top is None and risk > 0):
                return 60.0 * max(risk, 0.5)
            return -1.0
        if card == "scout":
            return 30.0 if top is None and risk > 0.05 else -1.0
        if card == "lure":
            seq = self.drawers(v)
            third = seq[2] if len(seq) > 2 else None
            return 25.0 if third is not None and not self.friend(v, third) and risk == 0 else -1.0
        if card == "steal":
            return 20.0 + len(v.hand(target))
        if card == "weapon_tax":
            w = a.weapon
            if self.friend(v, target) or (v.face_up_weapon(w) and v.kind(w) == "cursed_sword"):
                return -1.0
            return 45.0
        if card == "blind":
            return 12.0 + len(v.hand(target))
        if card == "magic_mirror":
            return 10.0 + len(v.hand(target))
        if card == "spy":
            return 6.0
        if card == "lone_wolf":
            return self.ability_score(v, a.ability, a) + 5.0
        return -1.0  # trade, act_ii: keep

    def _next_if(self, v: Game, direction: int) -> int:
        n = v.n_players
        for i in range(1, n + 1):
            q = (self.seat + direction * i) % n
            if v.alive[q]:
                return q
        return self.seat

    def ability_score(self, v: Game, aid: str, a: Action) -> float:
        me = self.seat
        risk = self.risk(v)
        draw = v.zones["draw"]
        top = v.kind(draw[-1]) if draw else None
        nxt = v.upcoming(1)[0]
        target = a.get("target")
        if aid in ("robot_skip",):
            return 95.0 * risk if risk > 0 else -1.0
        if aid == "robot_draw":
            if top == DEMON:
                return 70.0
            return 40.0 * risk if risk > 0 else -1.0
        if aid == "robot_next":  # send an opponent to a face-up Demon we will not draw ourselves
            mine = not (v.tf["no_draw"] or v.tf["ban"]) and v.tf["left"] == 0 and me == v.turn
            if top == DEMON and not mine and target is not None and not self.friend(v, target) \
                    and self.friend(v, nxt):
                return 50.0
            return -1.0
        if aid == "robot_ban":
            return 10.0 * self.risk(v, nxt) if self.friend(v, nxt) else -1.0
        if aid == "queen_top2":
            return 35.0 if top is None and risk > 0 else -1.0
        if aid == "girl_bottom2":
            if top == DEMON and risk > 0:
                return 40.0
            return 15.0 * risk if top is None and risk > 0 else -1.0
        if aid == "queen_move":
            return 50.0 if self._demon_threatens_us(v) else 20.0
        if aid == "girl_hex":
            return 15.0 if not self.friend(v, nxt) else -1.0
        if aid == "queen_take":
            disc = v.zones["discard"]
            got = v.kind(disc[-1]) if disc else None
            # taking a Lone Wolf back with a Lone Wolf is a loop that gains nothing
            if got is None or (got == "lone_wolf" and a.kind == "play"):
                return -1.0
            return 5.0 + 2.0 * KEEP.get(got, 3)
        if aid == "queen_boost":
            return 25.0
        if aid == "girl_pendant":
            return 30.0
        if aid == "girl_borrow":
            return 20.0 if risk > 0.1 else -1.0
        if aid == "shadow_destroy_all":
            ours = sum(len(v.weapons(q)) for q in range(v.n_players) if self.friend(v, q))
            theirs = sum(len(v.weapons(q)) for q in range(v.n_players) if not self.friend(v, q))
            return 20.0 * (theirs - ours)
        if aid == "shadow_revive":
            return 100.0
        if aid == "shadow_give":
            return 20.0 + len(v.hand(target)) if target is not None and not self.friend(v, target) else -1.0
        if aid == "shadow_destroy_one":
            w = a.get("weapon")
            owner = int(v.zone_of[w][len("weapons"):])
            if self.friend(v, owner) or v.kind(w) == "cursed_sword":
                return -1.0
            return 25.0 + (5.0 if w in v.king_used else 0.0)
        if aid == "queen_double":
            return -1.0
        return -1.0

    def _demon_threatens_us(self, v: Game) -> bool:
        draw = v.zones["draw"]
        seq = self.drawers(v)
        for d, q in enumerate(seq[:3]):
            if d < len(draw) and draw[-1 - d] in v.faceup and v.kind(draw[-1 - d]) == DEMON:
                return self.friend(v, q)
        return False

    # ---- other phases -------------------------------------------------------------------------
    def _respond(self, v: Game, legal: list[Action]) -> Action:
        cancels = [a for a in legal if a.kind == "cancel"]
        if not cancels or not v.stack:
            return legal[0]
        top = v.stack[-1]
        by, card, prm = top["by"], top["card"], top["params"]
        if self.friend(v, by):
            return legal[0]
        if card == CANCEL:
            target = v.stack[-2]
            return cancels[0] if self.friend(v, target["by"]) else legal[0]
        t = prm.get("target")
        if card in HARMFUL and t is not None and self.friend(v, t):
            return cancels[0]
        draw = v.zones["draw"]
        if card in ESCAPES and by == v.turn and draw and v.kind(draw[-1]) == DEMON \
                and draw[-1] in v.faceup and not v.defenders(by):
            return cancels[0]  # deny the escape from a face-up Demon
        return legal[0]

    def _ally(self, v: Game, legal: list[Action]) -> Action:
        turn = v.turn
        draw = v.zones["draw"]
        if not draw:
            return legal[0]
        top = v.kind(draw[-1])
        drawing = v.tf["ended"] and v.tf["left"] > 0
        danger = self.risk(v, turn) if drawing else 0.0
        plays = {a.card: a for a in legal if a.kind == "play"}
        if top == DEMON and danger > 0:
            for c in ("manipulate", "smoke_bomb"):
                if c in plays:
                    return plays[c]
        if top is None and danger > 0.05:
            for c in ("scout", "manipulate"):
                if c in plays:
                    return plays[c]
        return legal[0]

    def _flipped(self, v: Game, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: self.score(v, a) if a.kind != "waste" else -10)

    def _defend(self, v: Game, legal: list[Action]) -> Action:
        me = self.seat

        def rank(a: Action) -> tuple[int, int]:
            w = a.weapon
            k = v.kind(w)
            own = 0 if w in v.weapons(me) else 1
            if k == "kings_sword":
                r = 5 if w in v.king_used else 1
            else:
                r = DEFEND_ORDER.get(k or "", 3)
            return (own, r)

        return min(legal, key=rank)

    def _position(self, v: Game, legal: list[Action]) -> Action:
        draw = v.zones["draw"]
        d = self.enemy_depth(v)
        index = max(0, len(draw) - d)
        for a in legal:
            if a.index == index:
                return a
        return legal[-1]

    def _order(self, v: Game, legal: list[Action]) -> Action:
        seq = self.drawers(v)
        first = seq[0] if seq else v.turn
        for a in legal:
            top = v.kind(a.slots[0])
            if (top == DEMON) != self.friend(v, first):
                return a
        return legal[0]

    def _choose(self, v: Game, legal: list[Action]) -> Action:
        return min(legal, key=lambda a: self.value(v, a.slot))

    def _bury(self, v: Game, legal: list[Action]) -> Action:
        return legal[0]

    def _copy(self, v: Game, legal: list[Action]) -> Action:
        best, score = legal[0], 0.0
        for a in legal:
            if a.kind != "copy":
                continue
            sc = self.action_score(v, a.card, a)
            if sc > score:
                best, score = a, sc
        return best

    def _lure(self, v: Game, legal: list[Action]) -> Action:
        return legal[0]

    def _pick(self, v: Game, legal: list[Action]) -> Action:
        return legal[0]

    def _pendant(self, v: Game, legal: list[Action]) -> Action:
        best, score = legal[0], 0.0
        for a in legal:
            if a.kind == "pendant":
                sc = self.ability_score(v, a.id, a)
                if sc > score:
                    best, score = a, sc
        return best

    def _aside(self, v: Game, legal: list[Action]) -> Action:
        if not self.friend(v, v.turn):
            for a in legal:
                if a.kind == "unleash":
                    return a
        return legal[0]

    # ---- Manipulate's private reorder ---------------------------------------------------------
    def arrange(self, view: Game, slots: tuple[int, ...]) -> Sequence[int]:  # type: ignore[override]
        v = view
        self._memo = {}
        draw = v.zones["draw"]
        seq = self.drawers(v)
        depth = {s: len(draw) - 1 - draw.index(s) for s in slots}
        demons = [s for s in slots if v.kind(s) == DEMON]
        safe = [s for s in slots if v.kind(s) != DEMON]
        # positions, shallowest first; an opponent's draw wants a Demon, ours a safe card
        positions = sorted(slots, key=lambda s: depth[s])
        result: dict[int, int] = {}
        for pos in positions:
            d = depth[pos]
            drawer = seq[d] if d < len(seq) else None
            enemy = drawer is not None and not self.friend(v, drawer)
            pool = demons if enemy and demons else safe if safe else demons
            result[pos] = pool.pop(0)
        return [result[s] for s in slots]
