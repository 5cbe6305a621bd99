"""Out Of This World: every rule of ``rules/out-of-this-world.txt`` on the knowledge-aware engine.

Cards: the ids follow ``CardData.deck(adventure)``: the 64 basic Items (60 typed, 4 wild), the
11 Foes, the 4 Difficult Foes, then the chosen adventure's own cards. Characters, time tokens
and the Vocal Player token are public state, not cards.

Zones: ``box`` (out of the game: unused Difficult Foes), ``aside`` (the adventure's cards set
aside to be added when the deck runs out), ``starting`` (Items a player equips at the start),
``deck``, ``discard`` (face up), ``removed`` (removed from the game), ``stack0..4`` (bottom first,
the top face up), and per seat ``hand{p}`` (private), ``foes{p}`` and ``equip{p}`` (face up).

Hidden information goes through the deck requests only: the deck is shuffled by the service, a
hand is revealed to its owner alone, each stack's top is revealed to all when it comes up, and
everything the rules show openly (sets played, discards, Foes laid out at the deal) is revealed
to all when it is played, then checked against the claim. Claims that never become visible
(that a dealt hand holds no Foe) are checked by the end-of-game audit on the full-information
engine.

Card rules are data (``data.py``'s effect vocabulary) interpreted here: timed effects go through
a small queue (``fx``) because some of them need the deck service (a random discard is a
``Random`` then a ``Reveal`` to all).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...engine import Action, ConfigError, GameState, RuleViolation, Shuffle
from ...engine.requests import Random
from .data import WILD, Adventure, CardData, CardDef, Character, default
from .sets import matching_sets, same_type

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


class Game(GameState):
    game = "out-of-this-world"
    min_players = 3
    max_players = 5
    ACTION_ARGS = {
        "character": {"key": "str", "side": "int"}, "starter": {"seat": "seat"},
        "foes": {"slots": "slots"}, "take": {"stack": "int", "sneak?": "bool"}, "leg_it": {},
        "pass": {"slots": "slots", "give": "slot", "to": "seat"},
        "equip": {"slots": "slots", "keep": "slot"},
        "defeat": {"foe": "slot", "slots": "slots", "twice?": "bool"},
        "spend": {"item": "slot", "foe?": "slot", "stack?": "int"}, "done": {},
        "discard": {"slot": "slot"}, "give": {"slot": "slot", "to": "seat"},
    }

    # ---- set-up -------------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, options: dict[str, Any] | None = None) -> Game:
        options = dict(options or {})
        if not cls.min_players <= players <= cls.max_players:
            raise ConfigError(f"Out Of This World is for 3 to 5 players, not {players}")
        unknown = set(options) - {"names", "difficulty", "adventure"}
        if unknown:
            raise ConfigError(f"Out Of This World has no option(s) {', '.join(sorted(unknown))} "
                              "(it takes difficulty and adventure)")
        data = default()
        diff = _norm(options.get("difficulty") or "standard")
        if diff not in data.difficulties:
            raise ConfigError(f"unknown difficulty {options.get('difficulty')!r}; choose one of: "
                              f"{', '.join(data.difficulties)}")
        adv_key = resolve_adventure(data, options.get("adventure") or "patrol-the-block")
        names = options.get("names")
        if names is not None and (not isinstance(names, list | tuple)
                                  or not all(isinstance(x, str) for x in names)):
            raise ConfigError("the option 'names' must be a list of player names")
        config: dict[str, Any] = {"players": players, "difficulty": diff, "adventure": adv_key}
        if names is not None:
            config["names"] = list(names)
        cards = data.deck(adv_key)
        s = cls(players, len(cards), config)
        s._restore()
        adv = s._adv
        s.zones = {z: [] for z in ("box", "aside", "starting", "deck", "discard", "removed")}
        for i in range(data.stacks):
            s.zones[f"stack{i}"] = []
        for p in range(players):
            for z in ("hand", "foes", "equip"):
                s.zones[f"{z}{p}"] = []
        # the basic Items and Foes make the deck; Difficult Foes wait in the box
        wanted = {k: n for k, n in adv.start}
        equip = {k: n for k, n in adv.start_equipped}
        own = {c.key for c in adv.cards}
        for slot, c in enumerate(cards):
            if c.key in own:
                if equip.get(c.key, 0) > 0:
                    equip[c.key] -= 1
                    s.place(slot, "starting")
                elif wanted.get(c.key, 0) > 0:
                    wanted[c.key] -= 1
                    s.place(slot, "deck")
                else:
                    s.place(slot, "aside")
            elif c.is_foe and c.difficult:
                s.place(slot, "box")
            else:
                s.place(slot, "deck")
        s.phase = "setup"
        s.step = ""
        s.round = 0
        s.vocal = 0
        s.turn = 0
        s.time = adv.time_tokens
        s.time_max = adv.time_tokens
        s.chars: list[dict[str, Any] | None] = [None] * players
        s.spent: list[int] = []
        s.sneaks = [0] * players
        s.no_action = False
        s.legs = 0  # Leg it!s in a row since a card was last taken
        s.runouts = 0
        s.fx: list[dict[str, Any]] = []
        s.fx_then: list[Any] | None = None
        s.defeated: dict[str, int] = {}
        s.queue: list[int] = []
        s.result: str | None = None
        s.reason = ""
        s.request(Random(players), "first_vocal")
        return s

    def _restore(self) -> None:
        d = default()
        self._data: CardData = d
        self._adv: Adventure = d.adventures[self.config["adventure"]]
        self._diff = d.difficulties[self.config["difficulty"]]
        self._cards: tuple[CardDef, ...] = d.deck(self.config["adventure"])
        classes: dict[tuple[Any, ...], int] = {}
        self._cls: list[int] = []
        self._cls_card: list[int] = []  # a representative card of each class
        for i, c in enumerate(self._cards):
            k = c.rules_class()
            if k not in classes:
                classes[k] = len(classes)
                self._cls_card.append(i)
            self._cls.append(classes[k])
        self._chars = {c.key: c for c in d.characters}

    # ---- card and table helpers ---------------------------------------------------------------
    def card(self, slot: int) -> CardDef | None:
        v = self.values[slot]
        return None if v is None else self._cards[v]

    def cdef(self, card: int) -> CardDef:
        return self._cards[card]

    def hand(self, p: int) -> list[int]:
        return self.zones[f"hand{p}"]

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

    # ---- legal actions ------------------------------------------------------------------------
    def legal(self, player: int) -> list[Action]:
        r = self.req
        if r is None or r["type"] != "decide" or r["player"] != player:
            return []
        p = player
        step = self.step
        if step == "character":
            return self._character_actions()
        if step == "starter":
            return [Action("starter", seat=q) for q in range(self.n_players)]
        if step == "take":
            return self._take_actions(p)
        classes = self._classes(p)
        if classes is None:
            return []  # this view cannot see the hand
        if step == "declare":
            foes = [s for s in sorted(self.hand(p)) if self.card(s).is_foe]  # type: ignore[union-attr]
            return [Action("foes", slots=foes)]
        if step == "discard":
            return [Action("discard", slot=ss[0]) for _, ss in sorted(classes.items())]
        if step == "give":
            return [Action("give", slot=ss[0], to=q) for _, ss in sorted(classes.items())
                    for q in self.order(p)[1:]]
        # step == "action"
        acts: list[Action] = []
        if not self.restricted(p, "no_pass"):
            acts += self._pass_actions(p, classes)
        if not self.restricted(p, "no_equip"):
            acts += self._equip_actions(p, classes)
        acts += self._defeat_actions(p, classes)
        acts += self._spend_actions(p)
        acts.append(DONE)
        return acts

    def _character_actions(self) -> list[Action]:
        taken = {c["key"] for c in self.chars if c is not None}
        return [Action("character", key=c.key, side=side) for c in self._data.characters
                if c.key not in taken for side in (0, 1)]

    def _take_actions(self, p: int) -> list[Action]:
        tops = [(i, self.stack(i)[-1]) for i in range(self.n_stacks) if self.stack(i)]
        foe_tops = [i for i, s in tops if self.card(s).is_foe]  # type: ignore[union-attr]
        if foe_tops:
            acts = [Action("take", stack=i) for i in foe_tops]
            if self.sneaks[p] < self.power(p, "sneak"):
                acts += [Action("take", stack=i, sneak=True) for i, _ in tops if i not in foe_tops]
        else:
            acts = [Action("take", stack=i) for i, _ in tops]
        if not self.restricted(p, "no_leg_it") and self.legs < self.n_players:
            acts.append(LEG_IT)
        return acts

    def _pass_actions(self, p: int, classes: dict[int, list[int]]) -> list[Action]:
        acts: list[Action] = []
        items = sorted(classes.items())
        others = self.order(p)[1:]
        pass_any = bool(self.power(p, "pass_any"))
        for i, (a, sa) in enumerate(items):
            for j in range(i, len(items)):
                b, sb = items[j]
                if i == j and len(sa) < 2:
                    continue
                x, y = sa[0], (sa[1] if i == j else sb[0])
                ca, cb = self._cinfo(a), self._cinfo(b)
                same_value = ca.value == cb.value
                typed = same_type([ca.type, cb.type])
                if not (same_value or typed):
                    continue
                if i == j:
                    gives = [x]
                elif same_value or pass_any:
                    gives = [x, y]
                else:
                    gives = [x] if ca.value < cb.value else [y]
                for g in gives:
                    for q in others:
                        acts.append(Action("pass", slots=sorted((x, y)), give=g, to=q))
        return acts

    def _equip_actions(self, p: int, classes: dict[int, list[int]]) -> list[Action]:
        acts: list[Action] = []
        items = sorted(classes.items())
        k = len(items)
        equip_any = bool(self.power(p, "equip_any"))
        for i in range(k):
            for j in range(i, k):
                for m in range(j, k):
                    idx = (i, j, m)
                    counts: dict[int, int] = {}
                    for t in idx:
                        counts[t] = counts.get(t, 0) + 1
                    if any(len(items[t][1]) < c for t, c in counts.items()):
                        continue
                    defs = [self._cinfo(items[t][0]) for t in idx]
                    if not (len({d.value for d in defs}) == 1 or
                            same_type([d.type for d in defs])):
                        continue
                    slots = sorted(s for t, c in counts.items() for s in items[t][1][:c])
                    low = min(d.value for d in defs)
                    keeps = sorted({items[t][1][0] for t in counts
                                    if equip_any or self._cinfo(items[t][0]).value == low})
                    for kp in keeps:
                        acts.append(Action("equip", slots=slots, keep=kp))
        return acts

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

    def _matching_sets(self, reqs: tuple[str, ...], counts: dict[int, int]) -> list[tuple[int, ...]]:
        """Every multiset of hand classes (sorted tuples) that covers the requirements one card
        each; wild Items match any type."""
        return matching_sets(counts, reqs, lambda cid: self._cinfo(cid).type)

    def covers(self, cards: list[int], reqs: tuple[str, ...] | list[str]) -> bool:
        """Whether these item cards (ids) are exactly a set for the requirements."""
        if len(cards) != len(reqs) or any(not self._cards[c].is_item for c in cards):
            return False
        return bool(matching_sets(Counter(cards), reqs, lambda c: self._cards[c].type))

    def _spend_actions(self, p: int) -> list[Action]:
        """SPEND abilities p may use now: every unspent equipped Item of any player (public)."""
        if self.restricted(p, "no_spend"):
            return []
        acts: list[Action] = []
        for q in self.order(p):
            for item in sorted(self.equipped(q)):
                if item in self.spent:
                    continue
                c = self.card(item)
                e = c.spend() if c else None
                if e is None:
                    continue
                if e.do == "give_hand":
                    if self.hand(p):
                        acts.append(Action("spend", item=item))
                elif e.do == "gain_time":
                    if self.time < self.time_max:
                        acts.append(Action("spend", item=item))
                elif e.do == "peek_stack":
                    for i in range(self.n_stacks):
                        if any(not self.knows(p, s) for s in self.stack(i)):
                            acts.append(Action("spend", item=item, stack=i))
                else:  # remove_foe, discard_foe, move_foe_left
                    for f in self._spend_targets(p, e):
                        acts.append(Action("spend", item=item, foe=f))
        return acts

    def _spend_targets(self, p: int, e: Any) -> list[int]:
        seats = self.order(p) if e.whose == "any" and e.do != "move_foe_left" else [p]
        out = []
        for q in seats:
            for f in sorted(self.foes(q)):
                c = self.card(f)
                assert c is not None
                if e.card and c.key != e.card:
                    continue
                if c.difficult and not e.difficult:
                    continue
                out.append(f)
        return out

    # ---- validation ---------------------------------------------------------------------------
    def validate(self, player: int, action: Action) -> None:
        self._check_public(player, action)
        if self.viewer is None or self.viewer == player:
            legal = self.legal(player)
            if legal and self._canonical(player, action) not in legal:
                raise RuleViolation(player, f"{self.describe(action)} is not a legal action now")

    def _canonical(self, p: int, a: Action) -> Action:
        """The same action with each hand card replaced by the lowest slot of an equivalent card
        (same rules class) in the hand: the form ``legal`` lists."""
        classes = self._classes(p)
        args = dict(a.args)
        if classes is None or a.kind in ("foes",):
            if "slots" in args:
                args["slots"] = sorted(args["slots"])
            return Action(a.kind, **args)

        def first(slot: int) -> int:
            v = self.values[slot]
            return slot if v is None else classes.get(self._cls[v], [slot])[0]

        if "slots" in args and a.kind in ("pass", "equip", "defeat"):
            need: dict[int, int] = {}
            for s in args["slots"]:
                v = self.values[s]
                if v is None:
                    return a
                need[self._cls[v]] = need.get(self._cls[v], 0) + 1
            args["slots"] = sorted(s for cid, n in need.items() for s in classes.get(cid, [])[:n])
            for k in ("give", "keep"):
                if k in args:
                    args[k] = first(args[k])
        elif "slot" in args and a.kind in ("discard", "give"):
            args["slot"] = first(args["slot"])
        return Action(a.kind, **args)

    def _check_public(self, p: int, a: Action) -> None:
        """Checks every view can make, with no hidden card."""
        step = self.step
        allowed = {
            "character": {"character"}, "starter": {"starter"}, "declare": {"foes"},
            "take": {"take", "leg_it"}, "action": {"pass", "equip", "defeat", "spend", "done"},
            "give": {"give"}, "discard": {"discard"},
        }.get(step, set())
        if a.kind not in allowed:
            raise RuleViolation(p, f"'{a.kind}' is not possible now")
        args = dict(a.args)
        if a.kind in ("character", "starter", "take", "leg_it", "spend"):
            if a.kind == "spend" and self.restricted(p, "no_spend"):
                raise RuleViolation(p, "a Foe in front of you forbids Spending")
            legal = {"character": self._character_actions, "starter": lambda: self.legal(p),
                     "take": lambda: self._take_actions(p), "leg_it": lambda: self._take_actions(p),
                     "spend": lambda: self._spend_actions(p)}[a.kind]()
            if a not in legal:
                raise RuleViolation(p, f"{self.describe(a)} is not a legal action now")
            return
        hand = set(self.hand(p))
        slots: list[int] = []
        if "slots" in args:
            raw = args["slots"]
            if not isinstance(raw, tuple) or not all(isinstance(s, int) and not isinstance(s, bool)
                                                     for s in raw):
                raise RuleViolation(p, "malformed card list")
            slots = list(raw)
            if len(set(slots)) != len(slots):
                raise RuleViolation(p, "the same card is listed twice")
        elif "slot" in args:
            if not isinstance(args["slot"], int):
                raise RuleViolation(p, "malformed card")
            slots = [args["slot"]]
        if any(s not in hand for s in slots):
            raise RuleViolation(p, "that card is not in your hand")
        if a.kind in ("pass", "give"):
            to = args.get("to")
            if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < self.n_players \
                    or to == p:
                raise RuleViolation(p, "cards go to another player")
        if a.kind == "pass":
            if self.restricted(p, "no_pass"):
                raise RuleViolation(p, "a Foe in front of you forbids Passing")
            if len(slots) != 2 or args.get("give") not in slots:
                raise RuleViolation(p, "a Pass plays 2 Item cards and hands over one of them")
        elif a.kind == "equip":
            if self.restricted(p, "no_equip"):
                raise RuleViolation(p, "a Foe in front of you forbids Equipping")
            if len(slots) != 3 or args.get("keep") not in slots:
                raise RuleViolation(p, "an Equip plays 3 Item cards and equips one of them")
        elif a.kind == "defeat":
            f = args.get("foe")
            if f not in self.defeatable(p):
                raise RuleViolation(p, "you can only defeat your own Foes")
            c = self.card(f)
            assert c is not None
            twice = args.get("twice", False)
            if twice not in (True, False) or (twice and not c.set_twice_removes):
                raise RuleViolation(p, f"{c.name}'s set cannot be played twice")
            if len(slots) != len(c.vulnerability) * (2 if twice else 1):
                raise RuleViolation(p, f"{c.name} needs {len(c.vulnerability)} cards per set")
        elif a.kind == "discard":
            if not self.queue or self.queue[0] != p or len(hand) <= self.hand_limit(p):
                raise RuleViolation(p, "you have no cards to discard down")
        elif a.kind == "give":
            if not hand:
                raise RuleViolation(p, "you have no cards to give")
        elif a.kind == "foes" and "slots" not in args:
            raise RuleViolation(p, "name the Foes you lay out")

    # ---- decisions ----------------------------------------------------------------------------
    def _decide(self, p: int, a: Action) -> None:
        getattr(self, "_do_" + a.kind)(p, a)

    # set-up
    def _after_first_vocal(self, value: int) -> None:
        self.say(f"Out Of This World: {self._adv.name} at {self._diff.name} difficulty, "
                 f"{self.n_players} players, {self.time} Time tokens.")
        self.vocal = self.turn = value
        self.say(f"{self.pname(value)} takes the Vocal Player token.")
        self.phase = "characters"
        self.queue = self.order(value)
        self._next_character()

    def _next_character(self) -> None:
        if self.queue:
            self.step = "character"
            self.turn = self.queue[0]
            self.decide(self.queue[0])
        else:
            self.step = ""
            self.phase = "setup"
            k = self._diff.difficult_foes + self._adv.difficult_foes
            self._pick_difficult(k, "deck", "difficult_done")

    def _do_character(self, p: int, a: Action) -> None:
        self.chars[p] = {"key": a.key, "side": a.side}
        ch = self._chars[a.key]
        self.say(f"{self.pname(p)} plays {ch.sides[a.side]} ({ch.ability}: {ch.text})")
        self.queue.pop(0)
        self._next_character()

    def _after_difficult_done(self) -> None:
        if self.zones["starting"]:
            self.step = "starter"
            self.turn = self.vocal
            self.decide(self.vocal)
        else:
            self._shuffle_deck()

    def _do_starter(self, p: int, a: Action) -> None:
        for s in list(self.zones["starting"]):
            self.place(s, f"equip{a.seat}")
            self.say(f"{self.pname(a.seat)} begins the adventure with {self.card_name(self.values[s])} "
                     "equipped.")
        self._shuffle_deck()

    def _shuffle_deck(self) -> None:
        self.step = ""
        self.request(Shuffle(tuple(self.zones["deck"])), "deck_shuffled")

    def _after_deck_shuffled(self) -> None:
        self.phase = "deal"
        self.say(f"The Adventure deck ({len(self.zones['deck'])} cards) is shuffled; "
                 f"everyone is dealt {self._data.initial_hand}.")
        self._deal_next(0)

    def _deal_next(self, i: int) -> None:
        if i < self.n_players:
            p = self.order(self.vocal)[i]
            self.draw(p, self._data.initial_hand, "dealt", i=i + 1)
        else:
            self.queue = self.order(self.vocal)
            self._next_declarer()

    def _after_dealt(self, i: int, drawn: list[int]) -> None:
        self._deal_next(i)

    def _next_declarer(self) -> None:
        if self.queue:
            self.step = "declare"
            self.turn = self.queue[0]
            self.decide(self.queue[0])
        else:
            self._start_round()

    def _do_foes(self, p: int, a: Action) -> None:
        slots = sorted(a.slots)
        if not slots:
            self.queue.pop(0)
            self._next_declarer()
            return
        for s in slots:
            self.place(s, f"foes{p}")
        self.reveal(slots, None, "foes_laid", p=p, slots=slots)

    def _after_foes_laid(self, p: int, slots: list[int]) -> None:
        for s in slots:
            c = self.card(s)
            assert c is not None
            if not c.is_foe:
                raise RuleViolation(p, f"laid out {c.name}, which is not a Foe")
        names = ", ".join(self.card_name(self.values[s]) for s in slots)
        self.say(f"{self.pname(p)} lays out {names} and draws {len(slots)} more.")
        self.draw(p, len(slots), "redrawn", p=p)

    def _after_redrawn(self, p: int, drawn: list[int]) -> None:
        self.decide(p)

    # rounds
    def _start_round(self) -> None:
        self.round += 1
        self.phase = "gear"
        self.step = ""
        self.turn = self.vocal
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

    def _begin_turn(self, p: int) -> None:
        self.turn = self.vocal = p
        self.step = "take"
        self.no_action = False
        self.decide(p)

    def _do_take(self, p: int, a: Action) -> None:
        z = self.stack(a.stack)
        slot = z[-1]
        c = self.card(slot)
        assert c is not None
        if a.get("sneak"):
            self.sneaks[p] += 1
        self.legs = 0
        self.place(slot, f"foes{p}" if c.is_foe else f"hand{p}")
        sneak = f" ({self.character(p).ability})" if a.get("sneak") else ""  # type: ignore[union-attr]
        self.say(f"{self.pname(p)} takes {self.card_name(self.values[slot])} from stack "
                 f"{a.stack + 1}{sneak}.")
        if z:
            self.reveal([z[-1]], None, "top_turned", p=p, slot=slot, stack=a.stack)
        else:
            self._after_top_turned(p, slot, a.stack)

    def _after_top_turned(self, p: int, slot: int, stack: int) -> None:
        z = self.stack(stack)
        if z:
            self.say(f"Stack {stack + 1} now shows {self.card_name(self.values[z[-1]])}.")
        c = self.card(slot)
        assert c is not None
        if c.is_foe:
            self._queue_fx("on_take", slot, p)
            self._run_fx("taken", p=p)
        else:
            self._after_taken(p)

    def _after_taken(self, p: int) -> None:
        if self.no_action:
            self.say(f"{self.pname(p)} can take no action this turn.")
            self._end_turn(p)
            return
        self.step = "action"
        self.decide(p)

    def _do_leg_it(self, p: int, a: Action) -> None:
        self.legs += 1
        cards = sorted(self.hand(p))
        for s in cards:
            self.place(s, "discard")
        self.reveal(cards, None, "legged", p=p, cards=cards)

    def _after_legged(self, p: int, cards: list[int]) -> None:
        what = ", ".join(self.card_name(self.values[s]) for s in cards) or "an empty hand"
        self.say(f"{self.pname(p)} legs it! and discards {what}.")
        self._end_turn(p)

    def _do_done(self, p: int, a: Action) -> None:
        self._end_turn(p)

    def _do_pass(self, p: int, a: Action) -> None:
        slots = sorted(a.slots)
        other = next(s for s in slots if s != a.give)
        self.place(other, "discard")
        self.place(a.give, f"hand{a.to}")
        self.reveal(slots, None, "passed", p=p, slots=slots, give=a.give, to=a.to)

    def _after_passed(self, p: int, slots: list[int], give: int, to: int) -> None:
        cards = [self.card(s) for s in slots]
        if any(c is None or not c.is_item for c in cards):
            raise RuleViolation(p, "a Pass plays Item cards")
        a, b = cards  # type: ignore[misc]
        same_value = a.value == b.value
        typed = same_type([a.type, b.type])
        if not (same_value or typed):
            raise RuleViolation(p, f"{a.name} and {b.name} share neither value nor type")
        g = self.card(give)
        assert g is not None
        if not same_value and not self.power(p, "pass_any") and g.value > min(a.value, b.value):
            raise RuleViolation(p, "with a pair of the same type the lower card is handed over")
        other = next(s for s in slots if s != give)
        self.say(f"{self.pname(p)} passes {self.card_name(self.values[give])} to {self.pname(to)} "
                 f"(discarding {self.card_name(self.values[other])}).")
        self._end_turn(p)

    def _do_equip(self, p: int, a: Action) -> None:
        slots = sorted(a.slots)
        for s in slots:
            self.place(s, f"equip{p}" if s == a.keep else "discard")
        self.reveal(slots, None, "equipped", p=p, slots=slots, keep=a.keep)

    def _after_equipped(self, p: int, slots: list[int], keep: int) -> None:
        cards = [self.card(s) for s in slots]
        if any(c is None or not c.is_item for c in cards):
            raise RuleViolation(p, "an Equip plays Item cards")
        defs: list[CardDef] = cards  # type: ignore[assignment]
        if not (len({c.value for c in defs}) == 1 or same_type([c.type for c in defs])):
            raise RuleViolation(p, "an Equip needs 3 cards of the same value or the same type")
        k = self.card(keep)
        assert k is not None
        if not self.power(p, "equip_any") and k.value > min(c.value for c in defs):
            raise RuleViolation(p, "the lowest-valued card of the set is equipped")
        rest = ", ".join(self.card_name(self.values[s]) for s in slots if s != keep)
        self.say(f"{self.pname(p)} equips {self.card_name(self.values[keep])} (discarding {rest}) — "
                 f"{self.points(p)} points equipped.")
        self._end_turn(p)

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
        played = ", ".join(self.card_name(self.values[s]) for s in slots)
        whose = "" if owner == p else f" (in front of {self.pname(owner)})"
        gone = "removes it from the game" if twice else "defeats it"
        self.say(f"{self.pname(p)} plays {played} against {c.name}{whose} and {gone}.")
        self._queue_fx("on_defeat", foe, owner)
        self._run_fx("defeat_done", p=p)

    def _after_defeat_done(self, p: int) -> None:
        self._end_turn(p)

    def _do_spend(self, p: int, a: Action) -> None:
        item = a.item
        c = self.card(item)
        assert c is not None
        e = c.spend()
        assert e is not None
        self.spent.append(item)
        owner = int(self.zone_of[item][5:])
        whose = "" if owner == p else f" ({self.pname(owner)}'s)"
        self.say(f"{self.pname(p)} spends {c.name}{whose}: {c.text.removeprefix('SPEND: ')}")
        if e.do == "give_hand":
            self.step = "give"
            self.decide(p)
        elif e.do == "gain_time":
            self.time = min(self.time_max, self.time + e.n)
            self.say(f"Time tokens: {self.time}.")
            self._end_turn(p)
        elif e.do == "peek_stack":
            z = self.stack(a.stack)
            self.say(f"{self.pname(p)} looks at the {len(z)} cards of stack {a.stack + 1}.")
            self.reveal(list(z), [p], "peeked", p=p)
        elif e.do == "move_foe_left":
            f = a.foe
            self.place(f, f"foes{self.left(p)}")
            self.say(f"{self.card_name(self.values[f])} moves to {self.pname(self.left(p))}.")
            self._end_turn(p)
        else:  # remove_foe, discard_foe
            f = a.foe
            self.place(f, "removed" if e.do == "remove_foe" else "discard")
            verb = "is removed from the game" if e.do == "remove_foe" else "is discarded"
            self.say(f"{self.card_name(self.values[f])} {verb}.")
            self._end_turn(p)

    def _after_peeked(self, p: int) -> None:
        self._end_turn(p)

    def _do_give(self, p: int, a: Action) -> None:
        self.place(a.slot, f"hand{a.to}")
        self.say(f"{self.pname(p)} gives a card to {self.pname(a.to)}.")
        self.reveal([a.slot], [a.to], "given", p=p)

    def _after_given(self, p: int) -> None:
        if self.hand(p):
            self.decide(p)
        else:
            self._end_turn(p)

    def _end_turn(self, p: int) -> None:
        self.step = "end"
        for s in list(self.foes(p)):
            self._queue_fx("end_of_turn", s, p)
        self._run_fx("turn_over", p=p)

    def _after_turn_over(self, p: int) -> None:
        self.vocal = self.left(p)  # the Vocal Player token goes to the player on the left
        if self.stacks_empty():
            self._care()
        else:
            self._begin_turn(self.vocal)

    # Taking Care of Things
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
            self.say(f"{' and '.join(most)} {'has' if len(most) == 1 else 'have'} the most Foes "
                     f"({m}): lose {m} Time token{'s' if m > 1 else ''}.")
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
        self.vocal = self.left(self.vocal)
        self.say(f"{self.pname(self.vocal)} receives the Vocal Player token.")
        self._start_round()

    def _do_discard(self, p: int, a: Action) -> None:
        self.place(a.slot, "discard")
        self.reveal([a.slot], None, "discarded", p=p, slot=a.slot)

    def _after_discarded(self, p: int, slot: int) -> None:
        self.say(f"{self.pname(p)} discards {self.card_name(self.values[slot])} "
                 f"(hand limit {self.hand_limit(p)}).")
        self._next_discarder()

    # ---- the effect queue ---------------------------------------------------------------------
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
        self.say(f"{self.card_name(self.values[e['foe']]).split(' (')[0]}: lose {e['n']} Time "
                 f"token{'s' if e['n'] > 1 else ''}.")
        self._lose_time(e["n"])
        return False

    def _fx_gain_time(self, e: dict[str, Any]) -> bool:
        self.time = min(self.time_max, self.time + e["n"])
        return False

    def _fx_no_action(self, e: dict[str, Any]) -> bool:
        self.no_action = True
        return False

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

    # ---- drawing and the deck -----------------------------------------------------------------
    def _additions_now(self) -> list[dict[str, Any]]:
        k = self.runouts + 1
        return [a for a in self._adv.additions if a["times"] is None or k <= a["times"]]

    def _can_refill(self) -> bool:
        if self.zones["discard"]:
            return True
        for a in self._additions_now():
            if "card" in a and any(self.cdef(self.values[s]).key == a["card"]  # type: ignore[arg-type]
                                   for s in self.zones["aside"]):
                return True
            if "random_difficult" in a and self._difficult_pool():
                return True
        return False

    def refill(self, then: str) -> bool:
        """The deck ran out: the adventure's additions go into the discard pile, which is
        shuffled into a new deck."""
        if not self._can_refill():
            return False
        adds = self._additions_now()
        self.runouts += 1
        self.say("The Adventure deck has run out.")
        k = 0
        for a in adds:
            if "card" in a:
                left = a["count"]
                for s in sorted(self.zones["aside"]):
                    if left and self.cdef(self.values[s]).key == a["card"]:  # type: ignore[arg-type]
                        self.place(s, "discard")
                        self.say(f"{self.card_name(self.values[s])} is added.")
                        left -= 1
            else:
                k += a["random_difficult"]
        self._pick_difficult(k, "discard", "refill_shuffle", then=then)
        return True

    def _after_refill_shuffle(self, then: str) -> None:
        for s in list(self.zones["discard"]):
            self.place(s, "deck")
        if not self.zones["deck"]:
            getattr(self, "_after_" + then)()
            return
        self.say(f"The discard pile is shuffled into a new deck of {len(self.zones['deck'])} cards.")
        self.request(Shuffle(tuple(self.zones["deck"])), "refilled", then=then)

    def _after_refilled(self, then: str) -> None:
        getattr(self, "_after_" + then)()

    def _difficult_pool(self) -> list[int]:
        return [s for s in sorted(self.zones["box"]) if self.card(s).difficult]  # type: ignore[union-attr]

    def _pick_difficult(self, k: int, dest: str, then: str, /, **kw: Any) -> None:
        pool = self._difficult_pool()
        if k <= 0 or not pool:
            getattr(self, "_after_" + then)(**kw)
            return
        self.request(Random(len(pool)), "difficult_picked", k=k, dest=dest, then=then, kw=kw)

    def _after_difficult_picked(self, value: int, k: int, dest: str, then: str,
                                kw: dict[str, Any]) -> None:
        slot = self._difficult_pool()[value]
        self.place(slot, dest)
        self.say(f"{self.card_name(self.values[slot])} joins the Adventure deck.")
        self._pick_difficult(k - 1, dest, then, **kw)

    # ---- winning ------------------------------------------------------------------------------
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

    # ---- outcome and text ---------------------------------------------------------------------
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
                f"{o['rounds']} round(s); equipped points: {pts}; time tokens left: {o['time_tokens']}")

    def chat_refusal(self, seat: int) -> str | None:
        if self.phase != "go" or self.result is not None or self._diff.table_talk:
            return None
        if seat == self.turn or self.may_talk_item(seat):
            return None
        return (f"During Go For It! only the Vocal Player may talk, and that is "
                f"{self.pname(self.turn)} now; you may talk on your own turn (table talk is "
                f"free only on Easier, this game is {self._diff.name}).")

    def card_name(self, card: int | None) -> str:
        if card is None:
            return "?"
        c = self._cards[card]
        if c.is_item:
            return f"{c.name} ({self._data.type_name(c.type)} {c.value})"
        kind = "Difficult Foe" if c.difficult else "Foe"
        return f"{c.name} ({kind}: {vuln_text(c)})"

    def short(self, slot: int) -> str:
        c = self.card(slot)
        if c is None:
            return "?"
        if c.is_item:
            return f"{c.name} {self._data.type_name(c.type)[0]}{c.value}"
        return c.name

    def status(self, seat: int | None = None) -> list[str]:
        n = self.n_players
        phase = {"setup": "setting up", "characters": "choosing characters", "deal": "the deal",
                 "gear": "Gear Up!", "go": "Go For It!", "care": "Taking Care of Things",
                 "over": "over"}.get(self.phase, self.phase)
        tokens = "●" * self.time + "○" * max(0, self.time_max - self.time)
        lines = [f"Out Of This World — {self._adv.name} ({self._diff.name}) · round {self.round} · "
                 f"{phase} · Time {tokens} ({self.time})",
                 f"Goal: {self._win_text()}.",
                 f"Vocal Player: {self.pname(self.vocal)}"
                 + (f" · turn: {self.pname(self.turn)}" if self.phase == "go" else "")]
        if self.phase in ("gear", "go"):
            parts = []
            for i in range(self.n_stacks):
                z = self.stack(i)
                if not z:
                    parts.append(f"[{i + 1}] empty")
                    continue
                parts.append(f"[{i + 1}] {self.card_name(self.values[z[-1]])}"
                             + (f" +{len(z) - 1}" if len(z) > 1 else ""))
            lines.append("Stacks: " + " | ".join(parts))
        lines.append(f"Deck {len(self.zones['deck'])} · discard {len(self.zones['discard'])} · "
                     f"removed {len(self.zones['removed'])}")
        need = self.points_needed()
        for p in range(n):
            ch = self.character(p)
            who = f"{self.char_name(p)} ({ch.ability})" if ch else "no character yet"
            eq = ", ".join(self.short(s) + (" (spent)" if s in self.spent else "")
                           for s in sorted(self.equipped(p))) or "nothing"
            fo = ", ".join(self.short(s) for s in sorted(self.foes(p))) or "none"
            mark = " ←" if self.req and self.req.get("player") == p else ""
            you = " (you)" if p == seat else ""
            lines.append(f"  {self.pname(p)}{you}: {who} · {self.points(p)}/{need} pts: {eq} · "
                         f"foes: {fo} · hand {len(self.hand(p))}{mark}")
        if seat is not None and 0 <= seat < n:
            hand = sorted((self.values[s] for s in self.hand(seat) if self.values[s] is not None),
                          key=lambda c: (self._cards[c].type or "", self._cards[c].value, c))
            lines.append("Your hand: " + (", ".join(self.card_name(c) for c in hand) or "(empty)"))
        if self.result is not None:
            lines.append(f"The team {'won' if self.result == 'won' else 'lost'}: {self.reason}.")
        return lines

    def describe(self, a: Action) -> str:
        k = a.kind

        def cards(slots: Any) -> str:
            return ", ".join(self.card_name(self.values[s]) for s in slots)

        if k == "character":
            ch = self._chars.get(a.key)
            if ch is None or not 0 <= a.side < len(ch.sides):
                return f"play a character that is not in this game ({a.key!r}, side {a.side!r})"
            return f"play {ch.sides[a.side]} — {ch.ability}: {ch.text}"
        if k == "starter":
            return f"{self.pname(a.seat)} starts with the adventure's Item(s) equipped"
        if k == "foes":
            if not a.slots:
                return "no Foes in your hand: keep it"
            return f"lay out {cards(a.slots)} and draw {len(a.slots)} more"
        if k == "take":
            z = self.stack(a.stack) if 0 <= a.stack < self.n_stacks else []
            top = self.card_name(self.values[z[-1]]) if z else "nothing"
            sneak = " (Sneaky)" if a.get("sneak") else ""
            return f"take {top} from stack {a.stack + 1}{sneak}"
        if k == "leg_it":
            return "Leg it! (discard your whole hand and skip your turn)"
        if k == "done":
            return "no action (end your turn)"
        if k == "pass":
            other = [s for s in a.slots if s != a.give]
            return (f"Pass {self.card_name(self.values[a.give])} to {self.pname(a.to)} "
                    f"(discard {cards(other)})")
        if k == "equip":
            other = [s for s in a.slots if s != a.keep]
            return f"Equip {self.card_name(self.values[a.keep])} (discard {cards(other)})"
        if k == "defeat":
            c = self.card(a.foe)
            name = c.name if c else "?"
            owner = self.zone_of[a.foe][4:] if self.zone_of[a.foe].startswith("foes") else ""
            whose = f" (in front of {self.pname(int(owner))})" if owner and int(owner) != \
                (self.req or {}).get("player") else ""
            twice = " twice: remove it from the game" if a.get("twice") else ""
            return f"Defeat {name}{whose} with {cards(a.slots)}{twice}"
        if k == "spend":
            c = self.card(a.item)
            what = c.name if c else "?"
            if a.get("foe") is not None:
                f = self.card(a.foe)
                what += f" on {f.name if f else '?'}"
            if a.get("stack") is not None:
                what += f" on stack {a.stack + 1}"
            return f"Spend {what}: {c.text.removeprefix('SPEND: ') if c else ''}"
        if k == "give":
            return f"give {self.card_name(self.values[a.slot])} to {self.pname(a.to)}"
        if k == "discard":
            return f"discard {self.card_name(self.values[a.slot])}"
        return super().describe(a)

    @classmethod
    def rules_text(cls) -> str:
        return rules_text(default())


def vuln_text(c: CardDef) -> str:
    return " + ".join("any" if r == "any" else r.capitalize() for r in c.vulnerability)


def _house_mark(h: tuple[str, ...]) -> str:
    if not h:
        return ""
    if h == ("*",):
        return "   [house]"
    return f"   [house: {', '.join(h)}]"


def rules_text(d: CardData) -> str:
    out = ["Out Of This World — card data (p2pcards/games/out_of_this_world/cards.json and "
           "adventures/*.json)",
           "[house] marks p2pcards house content the rulebook does not print; "
           "[house: fields] marks only those fields.", "",
           f"Time tokens: {d.time_tokens} · {d.stacks} stacks of {d.stack_size} · deal "
           f"{d.initial_hand} each · discard down to {d.hand_limit}",
           "Points to equip per player: " + ", ".join(f"{n} players {v}" for n, v in d.points.items()),
           "Difficulties: " + "; ".join(
               f"{x.name}: {x.difficult_foes} Difficult Foe(s)"
               + (", everyone may talk all the time" if x.table_talk else "")
               for x in d.difficulties.values()), ""]

    def item_line(c: CardDef, typed: bool = False) -> str:
        n = f"{c.count}× " if c.count > 1 else ""
        ab = f" — {c.text}" if c.text else ""
        value = f"{d.type_name(c.type)} {c.value}" if typed else str(c.value)
        return f"    {n}{c.name} ({value}){ab}{_house_mark(c.house)}"

    out.append("Items (64):")
    for t in (*d.type_names, WILD):
        out.append(f"  {d.type_name(t)}:")
        out += [item_line(c) for c in d.items if c.type == t]

    def foe_line(c: CardDef) -> str:
        n = f"{c.count}× " if c.count > 1 else ""
        return f"    {n}{c.name} — defeat with {vuln_text(c)} — {c.text}{_house_mark(c.house)}"

    out += ["", f"Foes ({sum(c.count for c in d.foes)}):"] + [foe_line(c) for c in d.foes]
    out += ["", f"Difficult Foes ({sum(c.count for c in d.difficult_foes)}):"]
    out += [foe_line(c) for c in d.difficult_foes]
    out += ["", "Characters (each has two equal sides):"]
    for ch in d.characters:
        out.append(f"    {ch.sides[0]} / {ch.sides[1]} — {ch.ability}: {ch.text}{_house_mark(ch.house)}")
    out += ["", "Adventures:"]
    for a in d.adventures.values():
        label = f"Chapter {a.chapter}. " if a.chapter else ""
        code = f", code {a.code}" if a.code is not None else ""
        out.append(f"  {label}{a.name} ('{a.key}'{code}) — {a.time_tokens} Time tokens"
                   f"{_house_mark(a.house)}")
        if a.flavor:
            out.append(f"    \"{a.flavor}\"")
        out += [f"    • {r}" for r in a.special_rules]
        for c in a.cards:
            out.append((item_line(c, True) if c.is_item else foe_line(c)).replace("    ", "      ", 1)
                       + ("" if c.is_item else " [Difficult]" if c.difficult else ""))
    out += ["", "House rules (where the rulebook is silent):"]
    out += [f"  • {text}" for _, text in d.house_rules]
    return "\n".join(out)
