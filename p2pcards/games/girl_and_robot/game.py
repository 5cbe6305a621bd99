"""The Girl and the Robot: every rule of its rulebook on the knowledge-aware engine.

The rulebook is the project's shared copy, ``girl-and-robot.txt`` in the rules folder beside the
design notes (it is not part of this repository); ``docs/girl-and-robot.md`` lists every reading
and house value p2pcards chooses where it is silent.

Cards are the ids of ``cards.json`` (see ``data.py``). Zones: ``draw`` (the Draw Pile, bottom
first), ``discard``, ``removed`` (out of the game), per seat ``hand{p}``, ``weapons{p}`` (on the
table next to the character) and ``aside{p}`` (Demons set aside with A Deal with a Demon), and a
few transit zones: ``stack`` (Action cards being played and answered), ``pool`` (Ability Points
cards played this turn), ``held`` (Grave Digger until the end of the turn), ``grave`` (a dead
player's cards on their way to the discard pile), ``box`` (cards during setup), ``aside_demons``
(Demons out of the deck while dealing), ``treaty`` (Peace Treaty cards), ``moving`` (a Demon
being placed again) and ``shuffling`` (face-up cards put back into a shuffled pile).

Hidden information goes through the deck requests only:

* a face-up card inside the face-down Draw Pile is a slot known to all (``faceup`` lists them);
* peeks (Scout, Manipulate, Lure's search, the Girl looking at the Robot's hand) are ``Reveal``
  to one seat; public reveals (the Girl's and the Queen's 2-point abilities, Spy, Magic Mirror,
  every card played face up) are ``Reveal`` to all;
* Manipulate's private reorder is ``Shuffle(top3, by=player)``; Blind is ``Shuffle(hand)`` with
  ``by=None``, so not even the owner knows which card is which;
* shuffles of the Draw Pile (Smoke Bomb, Lure, Act II) shuffle its face-down slots and put each
  face-up card back at a ``Random`` position; Peace Treaty shuffles the chosen cards;
* Steal's random card is ``Random(len(hand))`` picking a slot of the (public) hand order.

Claims that depend on hidden cards are checked when the cards are revealed (a card played face up
must be what its player said). Two claims can stay hidden: "the card I drew is not a Demon" and
"my face-down weapon is a King's Sword or a Pendant"; both are checked whenever the card is
revealed later, and in full by the end-of-game audit on the full-information engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from ...engine import Action, ConfigError, GameState, RuleViolation, Shuffle, mask_of, plural
from ...engine.requests import Random
from .data import FACE_DOWN_WEAPONS, CardData, default

GIRL, ROBOT, QUEEN, SHADOW = "girl", "robot", "queen", "shadow"
TEAM_OF = {GIRL: 0, ROBOT: 0, QUEEN: 1, SHADOW: 1}
TEAM_NAMES = ("the Girl's team", "the Evil Queen's team")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def and_list(items: Iterable[str]) -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``: a list of names for the narration."""
    xs = list(items)
    return xs[0] if len(xs) == 1 else f"{', '.join(xs[:-1])} and {xs[-1]}" if xs else ""

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


class Game(GameState):
    game = "girl-and-robot"
    min_players = 2
    max_players = 4
    _CARD = {"slot": "slot", "card": "str", "target?": "seat", "weapon?": "slot",
             "ability?": "str", "direction?": "int"}
    ACTION_ARGS = {
        "play": _CARD, "copy": _CARD,
        "ability": {"id": "str", "target?": "seat", "weapon?": "slot"},
        "pendant": {"id": "str", "target?": "seat", "weapon?": "slot"},
        **{k: {"slot": "slot"} for k in ("bury", "cancel", "choose", "flip", "hide", "lure",
                                        "pick", "unleash", "waste")},
        "defend": {"weapon": "slot"}, "direction": {"d": "int"}, "end": {"draw": "int"},
        "order": {"slots": "slots"}, "position": {"index": "int"}, "show": {"slots": "slots"},
        **{k: {} for k in ("ally", "demon", "nocopy", "nodemon", "pass", "safe")},
    }

    # ---- set-up -------------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, options: dict[str, Any] | None = None) -> Game:
        options = dict(options or {})
        if not cls.min_players <= players <= cls.max_players:
            raise ConfigError(f"The Girl and the Robot is for 2 to 4 players, not {players}")
        unknown = set(options) - {"names", "euro", "act2"}
        if unknown:
            raise ConfigError(f"The Girl and the Robot has no {'option' if len(unknown) == 1 else 'options'} "
                              f"{and_list(sorted(unknown))}")
        for key in ("euro", "act2"):
            if key in options and not isinstance(options[key], bool):
                raise ConfigError(f"option {key!r} must be true or false, not {options[key]!r}")
        names = options.get("names")
        if names is not None and (not isinstance(names, list)
                                  or not all(isinstance(x, str) for x in names)):
            raise ConfigError("option 'names' must be a list of player names")
        data = default()
        config: dict[str, Any] = {"players": players, "euro": options.get("euro", False),
                                  "act2": options.get("act2", False)}
        if names is not None:
            config["names"] = list(names)
        s = cls(players, data.n_cards, config)
        s._restore()
        s.zones = {z: [] for z in ("box", "draw", "discard", "removed", "stack", "pool", "held",
                                   "grave", "aside_demons", "treaty", "moving", "shuffling")}
        for p in range(players):
            for z in ("hand", "weapons", "aside"):
                s.zones[f"{z}{p}"] = []
        for c in range(data.n_cards):
            s.place(c, "box")
        s.chars = [""] * players
        s.team = [-1] * players
        s.alive = [True] * players
        s.direction = 1
        s.turn = -1
        s.turns = 0
        s.phase = "setup"
        s.ctx = "turn"
        s.points = 0
        s.tf = cls._fresh_turn()
        s.next_fx = cls._fresh_fx()
        s.extra = 0
        s.override = None
        s.bonus = [0] * players
        s.boost_used = False
        s.blind = [False] * players
        s.spied = [False] * players
        s.faceup = []  # Draw Pile slots lying face up
        s.hidden = {}  # face-down weapon slot -> the seat that placed it (its claim)
        s.king_used = []  # King's Swords turned face up after their first Demon
        s.aside_turn = {}  # set-aside Demon slot -> the turn it was set aside
        s.safe = {}  # drawn slot declared "not a Demon" -> the seat that declared it
        s.stack = []  # Action cards played and waiting for answers
        s.task = None  # the pending sub-decision
        s.allywin = None  # the ally's window: {"who", "k"}
        s.winner = None  # the winning team (0 the Girl's, 1 the Queen's)
        s.request(Random(len(arrangements(players))), "characters")
        return s

    @staticmethod
    def _fresh_turn() -> dict[str, Any]:
        return {"played": 0, "deal": False, "digger": False, "no_draw": False, "may_skip": False,
                "ban": False, "double": False, "hex": False, "provoke": False, "borrow": None,
                "ally_called": False, "ended": False, "left": 0}

    @staticmethod
    def _fresh_fx() -> dict[str, Any]:
        return {"hex": False, "ban": False, "provoke": False, "extra": 0}

    def _restore(self) -> None:
        self._data: CardData = default()
        self._kind = self._data.card_kind

    # ---- card and seat helpers ----------------------------------------------------------------
    def kind_of(self, card: int) -> str:
        return self._kind[card]

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

    # ---- legal actions ------------------------------------------------------------------------
    def legal(self, player: int) -> list[Action]:
        r = self.req
        if r is None or r["type"] != "decide" or r["player"] != player:
            return []
        return getattr(self, "_legal_" + self.phase)(player)

    def _legal_direction(self, p: int) -> list[Action]:
        return [Action("direction", d=1), Action("direction", d=-1)]

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

    # ---- validation ---------------------------------------------------------------------------
    def validate(self, player: int, action: Action) -> None:
        # an action the rules cannot read is a violation too: GameState.apply says so
        p, a = player, action
        if a.kind == "show":
            self._check_show(p, a)
            return
        if self.phase in PUBLIC_PHASES or self.viewer is None or self.viewer == p:
            if self._canonical(p, a) not in self.legal(p):
                raise RuleViolation(p, f"{self.describe(a)} is not a legal action now")
            return
        self._check_public(p, a)

    def _canonical(self, p: int, a: Action) -> Action:
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
            return
        raise bad

    # ---- decisions ----------------------------------------------------------------------------
    def _decide(self, p: int, a: Action) -> None:
        getattr(self, "_do_" + a.kind)(p, a)

    def _do_direction(self, p: int, a: Action) -> None:
        self.direction = a.d
        self.say(f"{self.pname(p)} chooses the turn order: "
                 f"{'clockwise' if a.d == 1 else 'counter-clockwise'}.")
        self._start_turn(p)

    def _played(self, p: int) -> None:
        if p == self.turn and self.phase != "flipped":
            self.tf["played"] += 1

    def _do_play(self, p: int, a: Action) -> None:
        s, card = a.slot, a.card
        self._played(p)
        self.task = None
        cat = self.category(card)
        if cat == "action":
            self.place(s, "stack")
            self.reveal([s], None, "shown", p=p, slot=s, card=card, params=_params(a))
        elif cat == "points":
            self.place(s, "pool")
            self.reveal([s], None, "points_shown", p=p, slot=s, card=card)
        else:
            self.place(s, f"weapons{a.target}")
            self.reveal([s], None, "weapon_shown", p=p, slot=s, card=card, target=a.target)

    def _check_claim(self, p: int, slot: int, card: str) -> None:
        if self.kind(slot) != card:
            raise RuleViolation(p, f"played {self.slot_name(slot)} as {self.kind_name(card)}")

    def _after_points_shown(self, p: int, slot: int, card: str) -> None:
        self._check_claim(p, slot, card)
        self.points += self._data.kinds[card].value
        self.say(f"{self.pname(p)} plays {self.kind_name(card)} ({plural(self.points, 'point')} this turn).")
        self._resume()

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
        self._resume()

    def _do_flip(self, p: int, a: Action) -> None:
        self._played(p)
        self.reveal([a.slot], None, "flipped", p=p, slot=a.slot)

    def _after_flipped(self, p: int, slot: int) -> None:
        self.say(f"{self.pname(p)} turns over a face-down card: {self.slot_name(slot)}.")
        self._ask(p, "flipped", slot=slot)

    def _do_waste(self, p: int, a: Action) -> None:
        self.task = None
        self.place(a.slot, "discard")
        self.say(f"{self.pname(p)} cannot play {self.slot_name(a.slot)} and discards it.")
        self._resume()

    def _do_show(self, p: int, a: Action) -> None:
        ally = self.living_ally(p)
        self.say(f"{self.pname(p)} shows {plural(len(a.slots), 'card')} to {self.pname(ally)}.")  # type: ignore[arg-type]
        self.reveal(list(a.slots), [ally], "k", k=["resume", {}])

    def _do_ally(self, p: int, a: Action) -> None:
        self.tf["ally_called"] = True
        self.say(f"{self.pname(p)} calls on their ally.")
        self._ally_window(["resume", {}])

    def _after_resume(self) -> None:
        self._resume()

    def _do_unleash(self, p: int, a: Action) -> None:
        self.say(f"{self.pname(p)} takes a set-aside Demon to place it in the Draw Pile.")
        if self.phase == "aside":
            t = self.task
            self._position(p, a.slot, ["aside_next", {"owners": t["owners"], "k": t["k"]}])
        else:
            self._position(p, a.slot, ["resume", {}])

    def _do_pass(self, p: int, a: Action) -> None:
        ph = self.phase
        if ph == "respond":
            self._run_stack()
        elif ph == "ally":
            k = self.allywin["k"]
            self.allywin = None
            self.ctx = "turn"
            self._k(k)
        elif ph == "aside":
            t = self.task
            self.task = None
            self._aside_next(t["owners"][1:], t["k"])
        elif ph == "pendant":
            k = self.task["k"]
            self.task = None
            self._k(k)

    # ---- Action cards and the response window ------------------------------------------------
    def _after_shown(self, p: int, slot: int, card: str, params: dict[str, Any]) -> None:
        self._check_claim(p, slot, card)
        self.say(f"{self.pname(p)} plays {self.kind_name(card)}{self._target_text(params)}.")
        if p == self.turn and self.tf["hex"]:
            self.say(f"The Girl's curse: the effect of {self.kind_name(card)} is cancelled.")
            self.place(slot, "discard")
            self._resume()
            return
        self.stack.append({"slot": slot, "by": p, "card": card, "params": params,
                           "ask": self.others_in_order(p)})
        self._run_stack()

    def _target_text(self, params: dict[str, Any]) -> str:
        out = ""
        if "target" in params:
            out += f" → {self.pname(params['target'])}"
        if "weapon" in params:
            out += f" (taking {self._weapon_text(params['weapon'])})"
        if "ability" in params:
            out += f": {self._ability_text(params['ability'])}"
        if "direction" in params and self.n_players > 2:
            out += f" ({'clockwise' if params['direction'] == 1 else 'counter-clockwise'})"
        return out

    def _run_stack(self) -> None:
        top = self.stack[-1]
        if top["ask"]:
            q = top["ask"].pop(0)
            self.phase = "respond"
            self.task = None
            self.decide(q)
            return
        self.stack.pop()
        if top["card"] == CANCEL:
            target = self.stack.pop()
            self.say(f"{self.kind_name(target['card'])} is cancelled.")
            self.place(target["slot"], "discard")
            self.place(top["slot"], "discard")
            if self.stack:
                self._run_stack()
            else:
                self._resume()
            return
        self._effect(top["by"], top["card"], top["params"], ["resolved", {"slot": top["slot"]}])

    def _do_cancel(self, p: int, a: Action) -> None:
        self._played(p)
        self.place(a.slot, "stack")
        self.reveal([a.slot], None, "cancel_shown", p=p, slot=a.slot)

    def _after_cancel_shown(self, p: int, slot: int) -> None:
        self._check_claim(p, slot, CANCEL)
        target = self.stack[-1]
        self.say(f"{self.pname(p)} plays Cancel Action against {self.kind_name(target['card'])}.")
        if p == self.turn and self.tf["hex"]:
            self.say("The Girl's curse: the Cancel Action has no effect.")
            self.place(slot, "discard")
        else:
            self.stack.append({"slot": slot, "by": p, "card": CANCEL, "params": {},
                               "ask": self.others_in_order(p)})
        self._run_stack()

    def _after_resolved(self, slot: int) -> None:
        k = self.kind(slot)
        self.place(slot, "removed" if k == "act_ii" else "held" if k == "grave_digger" else "discard")
        self._resume()

    def _resume(self) -> None:
        """Back to the turn's player (or to the ally's window) after an action or ability."""
        self.task = None
        if self.ctx == "ally" and self.allywin is not None:
            self.phase = "ally"
            self.decide(self.allywin["who"])
        else:
            self.phase = "turn"
            self.decide(self.turn)

    def _effect(self, p: int, card: str, prm: dict[str, Any], k: list[Any]) -> None:
        getattr(self, "_fx_" + card)(p, prm, k)

    def _fx_deal_with_demon(self, p: int, prm: dict, k: list) -> None:
        self.tf["deal"] = True
        self._k(k)

    def _fx_act_ii(self, p: int, prm: dict, k: list) -> None:
        self.say("The discard pile is shuffled into the Draw Pile.")
        for s in list(self.zones["discard"]):
            self.place(s, "draw", 0)
        self._shuffle_pile(k)

    def _fx_ambush(self, p: int, prm: dict, k: list) -> None:
        self.tf["may_skip"] = True
        self.next_fx["extra"] += 1
        self._k(k)

    def _fx_blind(self, p: int, prm: dict, k: list) -> None:
        t = prm["target"]
        hand = self.hand(t)
        if len(hand) >= 2:
            self.request(Shuffle(tuple(hand)), "blinded", t=t, k=k)
        else:
            self._after_blinded(t, k)

    def _after_blinded(self, t: int, k: list) -> None:
        hand = self.hand(t)
        claims = {self.safe[str(s)] for s in hand if str(s) in self.safe}
        if claims and len(hand) >= 2:
            who = claims.pop() if len(claims) == 1 else -1
            for s in hand:
                self.safe[str(s)] = who
        self.blind[t] = len(hand) >= 2
        self.spied[t] = False
        self.say(f"{self.pname(t)}'s hand is shuffled face down.")
        self._k(k)

    def _fx_evade(self, p: int, prm: dict, k: list) -> None:
        self.tf["no_draw"] = True
        self.direction = prm.get("direction", self.direction)
        self._k(k)

    def _fx_grave_digger(self, p: int, prm: dict, k: list) -> None:
        self.tf["digger"] = True
        self._k(k)

    def _fx_lone_wolf(self, p: int, prm: dict, k: list) -> None:
        self._ability(p, prm["ability"], {}, k)

    def _fx_lure(self, p: int, prm: dict, k: list) -> None:
        down = [s for s in self.zones["draw"] if s not in self.faceup]
        self.reveal(down, [p], "lure_seen", p=p, k=k)

    def _after_lure_seen(self, p: int, k: list) -> None:
        self._ask(p, "lure", k=k)

    def _do_lure(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self.place(a.slot, "moving")
        self.reveal([a.slot], None, "lured", p=p, slot=a.slot, k=k)

    def _after_lured(self, p: int, slot: int, k: list) -> None:
        if self.kind(slot) != DEMON:
            raise RuleViolation(p, f"Lure took {self.slot_name(slot)}, not a Demon")
        self._shuffle_pile(["lure_place", {"slot": slot, "k": k}])

    def _after_lure_place(self, slot: int, k: list) -> None:
        draw = self.zones["draw"]
        self.place(slot, "draw", max(0, len(draw) - 2))
        self.faceup.append(slot)
        self.say("A Demon is placed face up under the top 2 cards of the Draw Pile.")
        self._k(k)

    def _do_nodemon(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self.say(f"{self.pname(p)} finds no Demon in the Draw Pile.")
        self._shuffle_pile(k)

    def _fx_magic_mirror(self, p: int, prm: dict, k: list) -> None:
        t = prm["target"]
        self.reveal(list(self.hand(t)), None, "mirrored", p=p, t=t, k=k)

    def _after_mirrored(self, p: int, t: int, k: list) -> None:
        self.blind[t] = False
        if self.narrating:
            cards = and_list(self.slot_name(s) for s in self.hand(t)) or "no cards"
            self.say(f"{self.pname(t)} reveals their hand: {cards}.")
        self._ask(p, "copy", target=t, k=k)

    def _do_copy(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self.say(f"{self.pname(p)} copies {self.kind_name(a.card)}{self._target_text(_params(a))}.")
        self._effect(p, a.card, _params(a), k)

    def _do_nocopy(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self._k(k)

    def _fx_manipulate(self, p: int, prm: dict, k: list) -> None:
        top = [s for s in self.zones["draw"][-3:] if s not in self.faceup]
        self.reveal(top, [p], "manipulate_seen", p=p, top=top, k=k)

    def _after_manipulate_seen(self, p: int, top: list[int], k: list) -> None:
        if len(top) >= 2:
            self.request(Shuffle(tuple(top), by=p), "k", k=k)
        else:
            self._k(k)

    def _fx_peace_treaty(self, p: int, prm: dict, k: list) -> None:
        self._treaty([p] + self.others_in_order(p), k)

    def _treaty(self, order: list[int], k: list) -> None:
        while order:
            q = order.pop(0)
            if self.hand(q):
                self._choose(q, ["treaty_pick", {"order": order, "k": k}])
                return
        chosen = self.zones["treaty"]
        if len(chosen) >= 2:
            self.request(Shuffle(tuple(chosen)), "treaty_shuffled", k=k)
        else:
            self._after_treaty_shuffled(k)

    def _after_treaty_pick(self, order: list[int], k: list, slot: int) -> None:
        self.place(slot, "treaty")
        self._treaty(order, k)

    def _after_treaty_shuffled(self, k: list) -> None:
        n = len(self.zones["treaty"])
        for s in list(self.zones["treaty"]):
            self.place(s, "draw")
        self.say(f"{plural(n, 'card')} {'is' if n == 1 else 'are'} shuffled and placed on top of the Draw Pile.")
        self._k(k)

    def _fx_provoke(self, p: int, prm: dict, k: list) -> None:
        self.tf["may_skip"] = True
        self.next_fx["provoke"] = True
        self._k(k)

    def _fx_scout(self, p: int, prm: dict, k: list) -> None:
        self.reveal(self.zones["draw"][-5:], [p], "k", k=k)

    def _fx_smoke_bomb(self, p: int, prm: dict, k: list) -> None:
        self._shuffle_pile(k)

    def _fx_spy(self, p: int, prm: dict, k: list) -> None:
        t = prm["target"]
        self.reveal(list(self.hand(t)), None, "spied_on", t=t, k=k)

    def _after_spied_on(self, t: int, k: list) -> None:
        self.spied[t] = True
        self.blind[t] = False
        if self.narrating:
            cards = and_list(self.slot_name(s) for s in self.hand(t)) or "no cards"
            self.say(f"{self.pname(t)} plays with their hand face up: {cards}.")
        self._k(k)

    def _fx_steal(self, p: int, prm: dict, k: list) -> None:
        t = prm["target"]
        if not self.hand(t):
            self._k(k)
            return
        self.request(Random(len(self.hand(t))), "stolen", p=p, t=t, k=k)

    def _after_stolen(self, p: int, t: int, k: list, value: int) -> None:
        s = self.hand(t)[value]
        self.place(s, f"hand{p}")
        line = f"{self.pname(p)} takes a card at random from {self.pname(t)}'s hand"
        self._receive(p, [s], ["said", {"line": line, "slots": [s], "k": k}])

    def _after_said(self, line: str, slots: list[int], k: list) -> None:
        """Narrate a card that changed hands once it is seen: the two players read its name."""
        self.say_cards(line, slots)
        self._k(k)

    def _fx_trade(self, p: int, prm: dict, k: list) -> None:
        t = prm["target"]
        self._choose(p, ["trade_mine", {"p": p, "t": t, "k": k}])

    def _after_trade_mine(self, p: int, t: int, k: list, slot: int | None) -> None:
        self._choose(t, ["trade_theirs", {"p": p, "t": t, "mine": slot, "k": k}])

    def _after_trade_theirs(self, p: int, t: int, mine: int | None, k: list, slot: int | None) -> None:
        if mine is not None:
            self.place(mine, f"hand{t}")
        if slot is not None:
            self.place(slot, f"hand{p}")
        self._receive(t, [mine], ["trade_back", {"p": p, "t": t, "mine": mine, "theirs": slot,
                                                 "k": k}])

    def _after_trade_back(self, p: int, t: int, mine: int | None, theirs: int | None,
                          k: list) -> None:
        self._receive(p, [theirs], ["traded", {"p": p, "t": t, "mine": mine, "theirs": theirs,
                                               "k": k}])

    def _after_traded(self, p: int, t: int, mine: int | None, theirs: int | None, k: list) -> None:
        # each copy narrates from its own cards: the two traders read what changed hands
        gave = [(self.pname(a), self.slot_name(s)) for a, s in ((p, mine), (t, theirs))
                if s is not None and self.values[s] is not None]
        detail = ": " + and_list(f"{who} gives {card}" for who, card in gave) if gave else ""
        self.say(f"{self.pname(p)} and {self.pname(t)} trade cards{detail}.")
        self._k(k)

    def _fx_weapon_tax(self, p: int, prm: dict, k: list) -> None:
        t, w = prm["target"], prm["weapon"]
        if w not in self.weapons(t) or len(self.weapons(t)) <= len(self.weapons(p)):
            self.say("Weapon Tax has no effect any more.")
            self._k(k)
            return
        self.place(w, f"weapons{p}")
        self.say(f"{self.pname(p)} takes {self._weapon_text(w)} from {self.pname(t)}.")
        self.reveal([w], [p], "k", k=k)

    # ---- abilities ----------------------------------------------------------------------------
    def _ability_text(self, aid: str) -> str:
        ab = self._data.ability(aid)
        return f"[{ab.cost}] {ab.text.rstrip('.')}"

    def _do_ability(self, p: int, a: Action) -> None:
        cost = self._data.ability(a.id).cost
        self.points -= cost
        self.say(f"{self.pname(p)} uses {self.char_name(p)}'s ability: {self._ability_text(a.id)}"
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
            self.say(f"Revealed: {and_list(self.slot_name(s) for s in two)}.")
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
                self.place(s, f"hand{p}")
                break
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
            self.say(f"{self.pname(p)} takes {self.slot_name(d[-1])} from the discard pile.")
            self.place(d[-1], f"hand{p}")
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
            self.say(f"The Evil Queen is revived and takes {and_list(self.slot_name(s) for s in took) or 'nothing'}.")
        self._k(k)

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
        self._receive(q, [slot], ["said", {"line": line, "slots": [slot], "k": k}])

    def _ab_shadow_destroy_one(self, p: int, prm: dict, k: list) -> None:
        w = prm["weapon"]
        if self.zone_of[w].startswith("weapons"):
            self.say(f"{self._weapon_text(w)} is destroyed.")
            self.place(w, "discard")
        self._k(k)

    # ---- helpers: choices, hands, the pile ----------------------------------------------------
    def _choose(self, who: int, k: list) -> None:
        """Seat ``who`` chooses a card of their hand; ``k`` gets ``slot`` (None: no card)."""
        if not self.hand(who):
            self._k(k, slot=None)
            return
        self._ask(who, "choose", k=k)

    def _do_choose(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self._k(k, slot=a.slot)

    def _receive(self, q: int, slots: list[int | None], k: list) -> None:
        """Cards just moved into seat q's hand are seen by q (by everyone while q is spied)."""
        got = [s for s in slots if s is not None]
        self.reveal(got, None if self.spied[q] else [q], "k", k=k)

    def _shuffle_pile(self, k: list) -> None:
        """Shuffle the Draw Pile: its face-down cards by the deck service, then each face-up card
        back at a random position, still face up."""
        draw = self.zones["draw"]
        for s in [s for s in draw if s in self.faceup]:
            self.place(s, "shuffling")
        down = list(self.zones["draw"])
        if len(down) >= 2:
            self.request(Shuffle(tuple(down)), "pile_shuffled", k=k)
        else:
            self._after_pile_shuffled(k)

    def _after_pile_shuffled(self, k: list) -> None:
        if self.zones["shuffling"]:
            self.request(Random(len(self.zones["draw"]) + 1), "up_inserted", k=k)
        else:
            self.say("The Draw Pile is shuffled.")
            self._k(k)

    def _after_up_inserted(self, k: list, value: int) -> None:
        s = self.zones["shuffling"][0]
        self.place(s, "draw", value)
        self.faceup.append(s)
        self._after_pile_shuffled(k)

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

    @staticmethod
    def _depth_text(depth: int) -> str:
        if depth == 0:
            return "on top"
        return f"under {depth} card{'s' if depth > 1 else ''}"

    def _weapon_text(self, w: int) -> str:
        return self.slot_name(w) if self.face_up_weapon(w) and self.values[w] is not None \
            else "a face-down weapon"

    # ---- windows: the ally, set-aside Demons --------------------------------------------------
    def _ally_window(self, k: list) -> None:
        a = self.living_ally(self.turn)
        if a is None:
            self._k(k)
            return
        self.allywin = {"who": a, "k": k}
        self.ctx = "ally"
        self.phase = "ally"
        self.task = None
        self.decide(a)

    def _aside_window(self, k: list) -> None:
        owners = [o for o in self.others_in_order(self.turn) if self._placeable(o)]
        self._aside_next(owners, k)

    def _aside_next(self, owners: list[int], k: list) -> None:
        owners = [o for o in owners if self._placeable(o)]
        if not owners:
            self._k(k)
            return
        self._ask(owners[0], "aside", owners=owners, k=k)

    def _after_aside_next(self, owners: list[int], k: list) -> None:
        self._aside_next(owners, k)

    # ---- the turn -----------------------------------------------------------------------------
    def _after_characters(self, value: int) -> None:
        n = self.n_players
        self.chars = arrangements(n)[value]
        self.team = [TEAM_OF[c] for c in self.chars]
        girl = self.chars.index(GIRL)
        self.say("Characters: " + and_list(f"{self.pname(p)} is {self.char_name(p)}"
                                          for p in range(n)) + ".")
        swords = self._data.cards_of("basic_sword")
        for i, c in enumerate(swords):
            self.place(c, f"weapons{(girl + i) % n}" if i < n else "removed")
        if not self.config.get("act2", False):
            for c in self._data.cards_of("act_ii"):
                self.place(c, "removed")
        for c in self._data.cards_of(DEMON):
            self.place(c, "aside_demons")
        for c in list(self.zones["box"]):
            self.place(c, "draw")
        self.request(Shuffle(tuple(self.zones["draw"])), "deck_shuffled")

    def _after_deck_shuffled(self) -> None:
        n = self.n_players
        girl = self.chars.index(GIRL)
        draw = self.zones["draw"]
        for _ in range(self._data.hand_size):
            for i in range(n):
                self.place(draw[-1], f"hand{(girl + i) % n}")
        self._after_hands_seen(0)

    def _after_hands_seen(self, p: int) -> None:
        if p < self.n_players:
            self.reveal(list(self.hand(p)), [p], "hands_seen", p=p + 1)
            return
        for c in list(self.zones["aside_demons"]):
            self.place(c, "draw")
        self.request(Shuffle(tuple(self.zones["draw"])), "reshuffled")

    def _after_reshuffled(self) -> None:
        girl = self.chars.index(GIRL)
        self.say(f"The Demons are shuffled back into the Draw Pile ({plural(len(self.zones['draw']), 'card')}).")
        if self.n_players == 2:
            self._start_turn(girl)
        else:
            self._ask(girl, "direction")

    def _start_turn(self, q: int) -> None:
        again = q == self.turn  # an extra turn of the same player
        self.turn = q
        self.turns += 1
        # "the next player" is the next *other* living player: what this player did to the next
        # player waits through their own extra turns, for whoever plays after them
        fx = self._fresh_fx() if again else self.next_fx
        if not again:
            self.next_fx = self._fresh_fx()
        tf = self._fresh_turn()
        tf["ban"], tf["hex"], tf["provoke"] = fx["ban"], fx["hex"], fx["provoke"]
        self.tf = tf
        self.extra += fx["extra"]
        self.points = self.bonus[q]
        self.bonus[q] = 0
        notes = [n for n, on in (("cannot draw", tf["ban"]), ("Action cards cancelled", tf["hex"]),
                                 ("provoked", tf["provoke"]),
                                 ("plays an extra turn", fx["extra"] == 1),
                                 (f"plays {fx['extra']} extra turns", fx["extra"] > 1),
                                 (f"starts with {plural(self.points, 'point')}", self.points)) if on]
        self.say(f"— Turn {self.turns}: {self.pname(q)} ({self.char_name(q)})"
                 f"{' · ' + ', '.join(notes) if notes else ''}.")
        self.ctx = "turn"
        self.allywin = None
        self.phase = "turn"
        self.task = None
        self.decide(q)

    def _do_end(self, p: int, a: Action) -> None:
        self.tf["ended"] = True
        self.tf["left"] = a.draw  # the end-of-turn draws still to make
        need = 0
        if self.tf["provoke"]:
            need += max(0, 2 - self.tf["played"])
        if self.cursed(p):
            need += max(0, 1 - self.tf["played"])
        self._discards(p, min(need, len(self.hand(p))), ["obligations_done", {}])

    def _discards(self, p: int, n: int, k: list) -> None:
        if n <= 0 or not self.hand(p):
            self._k(k)
            return
        self._choose(p, ["discarded", {"p": p, "n": n, "k": k}])

    def _after_discarded(self, p: int, n: int, k: list, slot: int) -> None:
        self.place(slot, "discard")
        self.reveal([slot], None, "discard_seen", p=p, n=n, k=k, slot=slot)

    def _after_discard_seen(self, p: int, n: int, k: list, slot: int) -> None:
        self.say(f"{self.pname(p)} must discard: {self.slot_name(slot)}.")
        self._discards(p, n - 1, k)

    def _after_obligations_done(self) -> None:
        self._ally_window(["before_draw", {}])

    def _after_before_draw(self) -> None:
        tf = self.tf
        if tf["left"] > 0 and not tf["no_draw"] and not tf["ban"]:
            self._aside_window(["draws", {}])
        else:
            self._next_draw()

    def _after_draws(self) -> None:
        self._next_draw()

    def _next_draw(self) -> None:
        p, tf = self.turn, self.tf
        if not self.alive[p] or tf["left"] <= 0 or tf["no_draw"] or tf["ban"]:
            self._end_turn()
            return
        tf["left"] -= 1
        self._draw_card(p, "end", ["next_draw", {}])

    def _after_next_draw(self) -> None:
        self._next_draw()

    def _draw_card(self, p: int, mode: str, k: list) -> None:
        """Seat p draws one card (``mode`` "end": a Demon kills unless defeated; "robot": the
        Robot's draw, where a Demon simply goes back face up)."""
        discard = self.zones["discard"]
        from_discard = self.tf["digger"] and mode == "end" and p == self.turn and bool(discard)
        pile = discard if from_discard else self.zones["draw"]
        if not pile:
            self.say(f"{self.pname(p)} has no card to draw: the Draw Pile is empty.")
            self._k(k)
            return
        s = pile[-1]
        self.place(s, f"hand{p}")
        self.spied[p] = False
        blinds = [x for x in self.hand(p) if x != s and not self.known[x] >> p & 1] if self.blind[p] else []
        self.blind[p] = False
        self.say(f"{self.pname(p)} draws {'the ' + self.slot_name(s) + ' from the discard pile' if from_discard else 'a card'}.")
        self.reveal([s] + blinds, [p], "drawn", p=p, slot=s, mode=mode, k=k)

    def _after_drawn(self, p: int, slot: int, mode: str, k: list) -> None:
        if self.public(slot):
            if self.kind(slot) == DEMON:
                self._demon(p, slot, mode, k)
            else:
                self._k(k)
            return
        self._ask(p, "drawn", slot=slot, mode=mode, k=k)

    def _do_safe(self, p: int, a: Action) -> None:
        t = self.task
        self.task = None
        self.safe[str(t["slot"])] = p
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
                     f"{and_list(self.slot_name(s) for s in self.zones['grave'])}.")
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

    def _end_turn(self) -> None:
        p = self.turn
        for s in list(self.zones["pool"]) + list(self.zones["held"]):
            self.place(s, "discard")
        self.points = 0
        if self.alive[p] and self.extra > 0:
            self.extra -= 1
            q = p
        else:
            self.extra = 0
            o = self.override
            q = o if o is not None and self.alive[o] else self.next_alive(p)
            self.override = None
        self._start_turn(q)

    # ---- the deck service's answers: checks of claims made earlier ----------------------------
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

    # ---- outcome and text ---------------------------------------------------------------------
    def outcome(self) -> dict[str, Any] | None:
        if self.winner is None:
            return None
        winners = [p for p in range(self.n_players) if self.team[p] == self.winner]
        return {"team": ("girl", "queen")[self.winner], "winners": winners,
                "result": f"{_cap(TEAM_NAMES[self.winner])} wins",
                "alive": list(self.alive), "turns": self.turns}

    def result_text(self) -> str:
        o = self.outcome()
        if o is None:
            return ""
        who = and_list(self.pname(p) for p in o["winners"])
        return f"{o['result']} ({who}) after {o['turns']} turns"

    def arrangement_prompt(self, by: int, slots: tuple[int, ...]) -> str | None:
        if slots and all(self.zone_of[s] == "draw" for s in slots):
            return ("Manipulate: put these cards back on the draw pile in the order you choose. "
                    "Position 1 goes deepest; the last position is the top card, drawn first.")
        return None

    def chat_audience(self, seat: int) -> list[int]:
        a = self.living_ally(seat)
        return [] if a is None else [a]

    def chat_refusal(self, seat: int) -> str | None:
        if self.living_ally(seat) is None:
            return "only allies talk, and you have no living ally"
        return None

    def status(self, seat: int | None = None) -> list[str]:
        draw = self.zones["draw"]
        head = f"Turn {self.turns} · {self.pname(self.turn)} to play" if self.turns else "Setting up"
        lines = [f"{head} · order {'clockwise' if self.direction == 1 else 'counter-clockwise'}"
                 f"{' · Euro variant' if self.config.get('euro') else ''}"]
        known = []
        for depth, s in enumerate(reversed(draw)):
            if self.values[s] is not None and (s in self.faceup or seat is not None):
                up = "face up" if s in self.faceup else "you know"
                known.append(f"{self._depth_text(depth)}: {self.slot_name(s)} ({up})")
        lines.append(f"Draw Pile: {plural(len(draw), 'card')}" + (" · " + "; ".join(known) if known else ""))
        disc = self.zones["discard"]
        lines.append(f"Discard pile: {plural(len(disc), 'card')}"
                     + (f", top {self.slot_name(disc[-1])}" if disc else ""))
        if self.points or self.zones["pool"]:
            lines.append(f"Ability Points this turn: {self.points}")
        for p in range(self.n_players):
            ws = ", ".join(self._weapon_label(w, seat) for w in self.weapons(p)) or "no weapon"
            marks = [m for m, on in (("dead", not self.alive[p]), ("face up (Spy)", self.spied[p]),
                                     ("blind", self.blind[p]), ("cursed", self.cursed(p)),
                                     (f"{plural(len(self.zones[f'aside{p}']), 'Demon')} set aside",
                                      self.zones[f"aside{p}"])) if on]
            you = " (you)" if p == seat else ""
            turn = " ←" if self.req and self.req.get("player") == p else ""
            side = self.side(p) if self.alive[p] else "-"
            lines.append(f"  {self.pname(p)}{you}: {self.char_name(p)} [{side}] · {ws} · "
                         f"{plural(len(self.hand(p)), 'card')}{' · ' + ', '.join(marks) if marks else ''}{turn}")
        if seat is not None and seat >= 0:
            lines.append("Your hand: " + (", ".join(
                self.slot_name(s) if self.values[s] is not None else "(face down)"
                for s in self.hand(seat)) or "(empty)"))
            a = self.ally(seat)
            if a is not None and self.tf.get("borrow") == a and self.turn == seat:
                lines.append("Robot's hand: " + ", ".join(self.slot_name(s) for s in self.hand(a)))
        return lines

    def _weapon_label(self, w: int, seat: int | None) -> str:
        if not self.face_up_weapon(w):
            mine = self.values[w] is not None and seat is not None
            return f"face-down weapon{' (' + self.slot_name(w) + ')' if mine else ''}"
        used = " (used once)" if w in self.king_used else ""
        return self.slot_name(w) + used

    @classmethod
    def rules_text(cls) -> str:
        d = default()
        out = ["The Girl and the Robot — card data (p2pcards/games/girl_and_robot/cards.json)", "",
               "Teams: 2 players the Girl vs the Evil Queen; 3 players the Girl and the Robot vs "
               "the Evil Queen; 4 players the Girl and the Robot vs the Evil Queen and the Shadow Robot.",
               f"Hand size: {d.hand_size}. Options: --euro (allies share one life and each "
               "other's weapons), --act2 (Act II in the deck, for a longer game).", "",
               "Deck ([house value]: not printed in the rulebook, chosen by p2pcards):"]
        for cat, title, totals in (("action", "Action cards", ("action",)),
                                   ("points", "Ability Points cards", ("points",)),
                                   ("demon", "Demons", ("demon",)),
                                   ("weapon", "Weapons", ("basic_weapon", "effect_weapon"))):
            ks = [k for k in d.kinds.values() if k.category == cat]
            house = "   [house total]" if any(t in d.house_totals for t in totals) else ""
            out.append(f"  {title} ({sum(k.copies for k in ks)}){house}:")
            for k in ks:
                house = "   [house value]" if k.house else ""
                out.append(f"    {k.copies} × {k.name}{house} — {k.text}")
        out += ["", "Characters (the number is the ability's cost in Ability Points):"]
        for c in d.characters.values():
            out.append(f"  {c.name}")
            for side in ("alone", "team"):
                out.append(f"    {side.capitalize()}: " + " | ".join(
                    f"{a.cost}: {a.text}" for a in c.side(side)))
        out += ["", "House rules (where the rulebook is silent):"]
        out += [f"  • {text}" for _, text in d.house_rules]
        return "\n".join(out)

    def describe(self, a: Action) -> str:
        k = a.kind
        if k == "play":
            name = self.kind_name(a.card)
            where = ""
            if self.category(a.card) == "weapon":
                where = " next to your character" if a.target == self.turn else \
                    f" on {self.pname(a.target)}'s character"
                return f"place {name}{where}"
            src = ""
            if self.zone_of[a.slot].startswith("hand") and self.zone_of[a.slot] != f"hand{self.req_player()}":
                src = " (from the Robot's hand)"
            return f"play {name}{src}{self._target_text(_params(a))}"
        if k == "hide":
            return f"place {self.slot_name(a.slot)} face down as a weapon"
        if k == "flip":
            return f"turn over a face-down card of your hand (#{self.hand(self.req_player()).index(a.slot) + 1}) and play it"
        if k == "waste":
            return f"discard {self.slot_name(a.slot)} (it cannot be played)"
        if k == "ability":
            return f"ability: {self._ability_text(a.id)}{self._target_text({x: y for x, y in _params(a).items()})}"
        if k == "pendant":
            return f"Pendant, free Robot ability: {self._ability_text(a.id)}{self._target_text(_params(a))}"
        if k == "show":
            return f"show your ally: {and_list(self.slot_name(s) for s in a.slots)}"
        if k == "ally":
            return "call on your ally (Manipulate, Scout, Smoke Bomb)"
        if k == "unleash":
            return "place a set-aside Demon in the Draw Pile"
        if k == "end":
            return {0: "end your turn without drawing", 1: "end your turn: draw 1 card",
                    2: "end your turn: draw 2 cards"}[a.draw]
        if k == "pass":
            return {"respond": "let it resolve", "ally": "do nothing", "aside": "keep the set-aside Demons for later",
                    "pendant": "no ability"}.get(self.phase, "pass")
        if k == "cancel":
            top = self.stack[-1]["card"] if self.stack else None
            return f"play Cancel Action{' against ' + self.kind_name(top) if top else ''}"
        if k == "direction":
            return "clockwise" if a.d == 1 else "counter-clockwise"
        if k == "safe":
            return "keep the card (it is not a Demon)"
        if k == "demon":
            return "reveal the Demon"
        if k == "defend":
            return f"defeat the Demon with {self._weapon_label(a.weapon, self.req_player())}" + (
                "" if a.weapon in self.weapons(self.req_player()) else " (your ally's)")
        if k == "position":
            return f"place it {self._depth_text(len(self.zones['draw']) - a.index)}" + (
                " (at the bottom)" if a.index == 0 and self.zones["draw"] else "")
        if k == "order":
            return "on top: " + ", then ".join(self.slot_name(s) for s in a.slots)
        if k == "choose":
            v = self.values[a.slot]
            return self.card_name(v) if v is not None else \
                f"face-down card #{self.hand(self.req_player()).index(a.slot) + 1}"
        if k == "bury":
            return f"discard {self.slot_name(a.slot)} next"
        if k == "copy":
            return f"copy {self.kind_name(a.card)}{self._target_text(_params(a))}"
        if k == "nocopy":
            return "copy nothing"
        if k == "lure":
            return f"take the {'face-up ' if a.slot in self.faceup else ''}Demon " \
                   f"{self._depth_text(len(self.zones['draw']) - 1 - self.zones['draw'].index(a.slot))}"
        if k == "nodemon":
            return "there is no Demon to take"
        if k == "pick":
            return f"move the face-up Demon " \
                   f"{self._depth_text(len(self.zones['draw']) - 1 - self.zones['draw'].index(a.slot))}"
        return super().describe(a)

    def req_player(self) -> int:
        r = self.req
        return r["player"] if r and r.get("type") == "decide" else self.turn
