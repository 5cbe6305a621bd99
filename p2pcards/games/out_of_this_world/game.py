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
to all when it is played, then checked against the claim. The one claim about cards that stay
hidden, that a dealt hand holds no Foe, is proven when it is made (``Prove`` of the hand's
slots: none is a Foe, nothing else is revealed); and a Foe shown out of a hand later names the
hand's holder (``TableBase._on_revealed``).

The rules are split into rooms, one module each, which ``Game`` puts together:

* ``base.py``   -- the table: cards, zones, characters' powers, Foes' standing penalties;
* ``setup.py``  -- set-up (first Vocal Player, characters, the deal) and the Adventure deck;
* ``rounds.py`` -- Gear Up!, Taking Care of Things, Time tokens, winning and losing;
* ``turn.py``   -- the turn: take a card, Leg it!, the end of a turn;
* ``items.py``  -- Pass, Equip, Spend;
* ``foes.py``   -- Defeat and the Foes' timed effects;
* ``talk.py``   -- table talk;
* ``text.py``   -- card names, status, descriptions, ``p2pcards rules``;
* ``game.py``   -- ``Game``: options, legal actions and the checks of a decision.

Card rules are data (``data.py``'s effect vocabulary) interpreted here: timed effects go through
a small queue (``fx``) because some of them need the deck service (a random discard is a
``Random`` then a ``Reveal`` to all).
"""

from __future__ import annotations

from typing import Any

from ...engine import Action, ConfigError, RuleViolation, join_names
from ...engine.requests import Random
from .base import DONE, LEG_IT, TableBase, _norm, resolve_adventure
from .data import Adventure, CardData, CardDef, default
from .foes import Foes
from .items import Items
from .rounds import Rounds
from .setup import SetUp
from .talk import TableTalk
from .text import Text, rules_text, vuln_text
from .turn import Turn

__all__ = ["DONE", "LEG_IT", "Game", "resolve_adventure", "rules_text", "vuln_text"]


class Game(SetUp, Rounds, Turn, Items, Foes, TableTalk, Text, TableBase):
    game = "out-of-this-world"
    min_players = 3
    max_players = 5
    OPTIONS = ("difficulty", "adventure", "time_tokens")
    ACTION_ARGS = {
        "character": {"key": "str", "side": "int"}, "starter": {"seat": "seat"},
        "foes": {"slots": "slots"}, "take": {"stack": "int", "sneak?": "bool"}, "leg_it": {},
        "pass": {"slots": "slots", "give": "slot", "to": "seat"},
        "equip": {"slots": "slots", "keep": "slot"},
        "defeat": {"foe": "slot", "slots": "slots", "twice?": "bool"},
        "spend": {"item": "slot", "foe?": "slot", "stack?": "int"}, "done": {},
        "discard": {"slot": "slot"}, "give": {"slot": "slot", "to": "seat"},
    }

    @classmethod
    def new(cls, players: int, options: dict[str, Any] | None = None) -> Game:
        options = dict(options or {})
        if not cls.min_players <= players <= cls.max_players:
            raise ConfigError(f"Out Of This World is for 3 to 5 players, not {players}")
        unknown = set(options) - {"names", *cls.OPTIONS}
        if unknown:
            raise ConfigError(f"Out Of This World has no option{'' if len(unknown) == 1 else 's'} "
                              f"{join_names(sorted(unknown))} (it takes difficulty, adventure "
                              "and time_tokens)")
        data = default()
        given = options.get("difficulty")
        diff = _norm("standard" if given is None else str(given))  # '' is no difficulty: refused
        if diff not in data.difficulties:
            raise ConfigError(f"unknown difficulty {options.get('difficulty')!r}; choose one of: "
                              f"{', '.join(data.difficulties)}")
        adventure = options.get("adventure")
        adv_key = resolve_adventure(data, "patrol-the-block" if adventure is None else adventure)
        names = options.get("names")
        if names is not None and (not isinstance(names, list | tuple)
                                  or not all(isinstance(x, str) for x in names)):
            raise ConfigError("the option 'names' must be a list of player names")
        config: dict[str, Any] = {"players": players, "difficulty": diff, "adventure": adv_key}
        tokens = options.get("time_tokens")
        if tokens is not None:
            # Patrol the Block: "use eight Time tokens (or less for a harder game)"
            most = data.adventures[adv_key].time_tokens
            if adv_key != "patrol-the-block":
                raise ConfigError(f"time tokens can be set for Patrol the Block only; "
                                  f"{data.adventures[adv_key].name} starts with {most}")
            if isinstance(tokens, bool) or not isinstance(tokens, int) or not 1 <= tokens <= most:
                raise ConfigError(f"Patrol the Block uses {most} Time tokens or less (1 to {most}), "
                                  f"not {tokens!r}")
            config["time_tokens"] = tokens
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
        s.first = 0  # who starts the round (the first player token; see rounds.py)
        s.turn = 0
        s.time = s.time_max = config.get("time_tokens", adv.time_tokens)
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

    def validate(self, player: int, action: Action) -> None:
        self._check_public(player, action)
        if self.viewer is None or self.viewer == player:
            legal = self.legal(player)
            if legal and self.canonical(player, action) not in legal:
                raise RuleViolation(player, f"{self.describe(action)} is not a legal action now")

    def disguise(self, player: int, action: Action, rng: Any) -> Action:
        """Each hand card the move names (a pass's, an equip's or a defeat's Items, a discard, a
        gift) becomes a random one of the same rules class; ``legal`` lists the lowest slot (see
        ``GameState.disguise``). Foes, equipped Items and stacks are kept."""
        if action.kind not in ("pass", "equip", "defeat", "discard", "give"):
            return action
        hand = set(self.hand(player))

        def key(s: int) -> int | None:
            v = self.values[s]
            return None if v is None or s not in hand else self._cls[v]

        return self._disguise_slots(player, action, rng, key)

    def canonical(self, p: int, a: Action) -> Action:
        """The same action with each hand card replaced by the lowest slot of an equivalent card
        (same rules class) in the hand: the form ``legal`` lists."""
        classes = self._classes(p)
        args = dict(a.args)
        if args.get("twice") is False:  # spelt out at its default: the same move as without it
            del args["twice"]  # (every copy accepts it then; the others' copies always did)
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
                    return Action(a.kind, **args)
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
            if a.kind == "spend" and (a.get("item") not in self.equipped(p) or a.item in self.spent):
                # said so, not described: the card named may be one only this copy knows (its
                # own seat's hand), and a stop's reason goes to every player (red team 16c)
                raise RuleViolation(p, "spends a card that is not an unspent Item equipped in "
                                       "front of them")
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

    def _decide(self, p: int, a: Action) -> None:
        getattr(self, "_do_" + a.kind)(p, a)

    @classmethod
    def rules_text(cls) -> str:
        return rules_text(default())
