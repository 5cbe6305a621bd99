"""Out Of This World card data: ``cards.json`` (items, wilds, foes, difficult foes, characters,
the game's constants) and ``adventures/*.json`` (one adventure each, with its specific cards),
loaded and validated with a clear error naming the bad entry.

Card rules are written in a small **effect vocabulary** the engine interprets: each card has a
list of ``{"when": TRIGGER, "do": EFFECT, ...params}``.

Triggers: ``on_take`` (a Foe is taken from the stacks), ``on_defeat`` (a Foe is defeated),
``end_of_turn`` (end of the turn of the player the Foe is in front of), ``end_of_round``
(Taking Care of Things, before Time tokens are lost), ``while_in_play`` (a Foe's standing penalty
on the player it is in front of), ``while_equipped`` (an equipped Item's standing benefit to its
owner), ``spend`` (an equipped Item's one-use SPEND ability).

Characters have ``powers``: ``{"do": POWER, ...params}`` (see ``POWERS``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ...engine import ConfigError
from ...engine.datafile import read_json

HERE = Path(__file__).parent
DATA_FILE = HERE / "cards.json"
ADVENTURE_DIR = HERE / "adventures"

TYPES = ("toys", "music", "gaming", "hardware")
WILD = "wild"
TYPE_VALUES = (3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 8)
WILD_VALUES = (5, 6, 7, 8)
N_FOES = 11
N_DIFFICULT = 4
N_CHARACTERS = 5
BOX_ADVENTURE_ITEMS = 8  # adventure-specific cards in the box, over the five coded adventures
BOX_ADVENTURE_FOES = 13
REQUIREMENTS = (*TYPES, "any")

TRIGGERS = ("on_take", "on_defeat", "end_of_turn", "end_of_round", "while_in_play",
            "while_equipped", "spend")
FOE_TRIGGERS = {"on_take", "on_defeat", "end_of_turn", "end_of_round", "while_in_play"}
ITEM_TRIGGERS = {"while_equipped", "spend"}
TIMED = {"on_take", "on_defeat", "end_of_turn", "end_of_round"}

# effect -> (triggers it may have, parameters it takes)
EFFECTS: dict[str, tuple[set[str], set[str]]] = {
    "move_left": ({"end_of_turn", "end_of_round"}, set()),
    "discard_random": (TIMED, {"n", "target"}),
    "lose_time": (TIMED, {"n"}),
    "gain_time": ({"spend", "on_defeat"}, {"n"}),
    "no_action": ({"on_take"}, set()),
    "no_pass": ({"while_in_play"}, set()),
    "no_equip": ({"while_in_play"}, set()),
    "no_spend": ({"while_in_play"}, set()),
    "no_leg_it": ({"while_in_play"}, set()),
    "hand_limit": ({"while_in_play"}, {"n"}),
    "counts_as": ({"while_in_play"}, {"n"}),
    "hand_limit_plus": ({"while_equipped"}, {"n"}),
    "may_talk": ({"while_equipped"}, set()),
    "give_hand": ({"spend"}, set()),
    "remove_foe": ({"spend"}, {"card", "whose", "difficult"}),
    "discard_foe": ({"spend"}, {"card", "whose", "difficult"}),
    "peek_stack": ({"spend"}, set()),
    "move_foe_left": ({"spend"}, {"difficult"}),
}
TARGETS = ("owner", "left", "right", "all")
POWERS: dict[str, set[str]] = {
    "defeat_others_foes": set(),  # Defeat Foes in front of other players too
    "equip_any": set(),  # Equip any card of the set, not only the lowest
    "pass_any": set(),  # Pass either card of the pair
    "sneak": {"n"},  # n times per round, take an Item while a Foe is visible
    "hand_limit": {"n"},  # discard down to n instead of the usual limit
}
WIN_KINDS = {"equip_points": {"points"}, "no_foe": {"card"}, "defeated": {"card", "count"},
             "equipped": {"card", "count"}}


@dataclass(frozen=True)
class Effect:
    when: str
    do: str
    n: int = 1
    target: str = "owner"
    card: str | None = None  # a card key the effect is limited to
    whose: str = "own"  # "own" or "any": whose Foes a SPEND may target
    difficult: bool = True  # whether a SPEND may target Difficult Foes

    def text(self) -> str:
        bits = [f"{self.when}: {self.do}"]
        if self.do in ("discard_random", "lose_time", "gain_time", "hand_limit", "counts_as",
                       "hand_limit_plus"):
            bits.append(f"n={self.n}")
        if self.target != "owner":
            bits.append(f"target={self.target}")
        if self.card:
            bits.append(f"card={self.card}")
        if self.do in ("remove_foe", "discard_foe"):
            bits.append(f"whose={self.whose}")
        if self.do in ("remove_foe", "discard_foe", "move_foe_left") and not self.difficult:
            bits.append("not difficult")
        return " ".join(bits)


@dataclass(frozen=True)
class CardDef:
    key: str
    name: str
    kind: str  # "item" or "foe"
    type: str | None = None  # an item's type, or "wild"
    value: int = 0  # an item's points
    difficult: bool = False
    vulnerability: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()
    set_twice_removes: bool = False
    text: str = ""
    house: tuple[str, ...] = ()  # ("*",) for an entry that is all house content
    adventure: int | None = None  # the adventure code of an adventure-specific card
    count: int = 1

    @property
    def is_item(self) -> bool:
        return self.kind == "item"

    @property
    def is_foe(self) -> bool:
        return self.kind == "foe"

    def fx(self, when: str) -> list[Effect]:
        return [e for e in self.effects if e.when == when]

    def has(self, when: str, do: str) -> bool:
        return any(e.when == when and e.do == do for e in self.effects)

    def spend(self) -> Effect | None:
        for e in self.effects:
            if e.when == "spend":
                return e
        return None

    def rules_class(self) -> tuple[Any, ...]:
        """Cards with the same class are interchangeable for the rules (legal lists hold the
        lowest slot of each class; validation accepts any card of the class)."""
        if self.is_foe:
            return ("foe", self.key)
        if self.effects or self.adventure is not None:
            return ("item", self.type, self.value, self.key)
        return ("item", self.type, self.value)


@dataclass(frozen=True)
class Character:
    index: int
    key: str
    sides: tuple[str, str]
    ability: str
    powers: dict[str, int]
    text: str
    house: tuple[str, ...]


@dataclass(frozen=True)
class Difficulty:
    key: str
    name: str
    difficult_foes: int
    table_talk: bool


@dataclass(frozen=True)
class Adventure:
    key: str
    name: str
    chapter: int | None
    code: int | None
    flavor: str
    time_tokens: int
    difficult_foes: int
    cards: tuple[CardDef, ...]
    start: tuple[tuple[str, int], ...]
    start_equipped: tuple[tuple[str, int], ...]
    additions: tuple[dict[str, Any], ...]  # {"card"|"random_difficult", "count", "times"}
    win: tuple[dict[str, Any], ...]
    special_rules: tuple[str, ...]
    house: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class CardData:
    time_tokens: int
    stacks: int
    stack_size: int
    initial_hand: int
    hand_limit: int
    points: dict[int, int]
    difficulties: dict[str, Difficulty]
    type_names: dict[str, str]
    items: tuple[CardDef, ...]  # the 60 typed items then the 4 wilds, one entry per card kind
    foes: tuple[CardDef, ...]
    difficult_foes: tuple[CardDef, ...]
    characters: tuple[Character, ...]
    adventures: dict[str, Adventure]
    house_rules: tuple[tuple[str, str], ...]
    _decks: dict[str, tuple[CardDef, ...]] = field(default_factory=dict, compare=False)

    def deck(self, adventure: str) -> tuple[CardDef, ...]:
        """The cards of a game of this adventure, by card id: the basic items and wilds, the
        basic foes, the difficult foes, then the adventure's own cards (one entry per card)."""
        if adventure not in self._decks:
            out: list[CardDef] = []
            for c in (*self.items, *self.foes, *self.difficult_foes,
                      *self.adventures[adventure].cards):
                out.extend([c] * c.count)
            self._decks[adventure] = tuple(out)
        return self._decks[adventure]

    def type_name(self, t: str | None) -> str:
        if t == WILD:
            return "Wild"
        return self.type_names.get(t or "", str(t))


# ---- parsing helpers ----------------------------------------------------------------------------
def _need(d: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in d:
        raise ConfigError(f"{where}: missing {key!r}")
    return _check(d[key], kind, f"{where}: {key!r}")


def _opt(d: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, default: Any) -> Any:
    if key not in d or d[key] is None and default is None:
        return default
    return _check(d[key], kind, f"{where}: {key!r}")


def _check(v: Any, kind: type | tuple[type, ...], what: str) -> Any:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = any((k is int and isinstance(v, int) and not isinstance(v, bool))
             or (k is not int and isinstance(v, k)) for k in kinds)
    if not ok:
        names = " or ".join("an integer" if k is int else f"a {_tname(k)}" for k in kinds)
        raise ConfigError(f"{what} must be {names}, not {v!r}")
    return v


def _tname(k: type) -> str:
    return {str: "string", list: "list", dict: "object", bool: "boolean (true/false)"}.get(k, k.__name__)


def _obj(v: Any, where: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ConfigError(f"{where}: must be an object, not {v!r}")
    return v


def _no_extra(d: dict[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(d) - allowed)
    if extra:
        raise ConfigError(f"{where}: unknown field(s) {', '.join(map(repr, extra))} "
                          f"(allowed: {', '.join(sorted(allowed))})")


def _house(d: dict[str, Any], where: str) -> tuple[str, ...]:
    h = d.get("house", False)
    if h is True:
        return ("*",)
    if h is False or h is None:
        return ()
    if isinstance(h, list) and all(isinstance(x, str) for x in h):
        unknown = [x for x in h if x not in d and x not in ("type", "count", "adventure", "sides",
                                                             "ability", "name", "effects")]
        if unknown:
            raise ConfigError(f"{where}: 'house' names field(s) {unknown} the entry does not have")
        return tuple(h)
    raise ConfigError(f"{where}: 'house' must be true, false or a list of field names, not {h!r}")


def _label(d: Any, i: int) -> str:
    if isinstance(d, dict) and isinstance(d.get("name"), str):
        return f"[{i}] ({d['name']})"
    return f"[{i}]"


def _effects(raw: Any, allowed_triggers: set[str], where: str) -> tuple[Effect, ...]:
    if raw is None:
        return ()
    _check(raw, list, f"{where}: 'effects'")
    out = []
    for i, e in enumerate(raw):
        w = f"{where}: effects[{i}]"
        e = _obj(e, w)
        when = _need(e, "when", str, w)
        do = _need(e, "do", str, w)
        if when not in TRIGGERS:
            raise ConfigError(f"{w}: unknown trigger {when!r} (known: {', '.join(TRIGGERS)})")
        if when not in allowed_triggers:
            raise ConfigError(f"{w}: trigger {when!r} is not possible on this kind of card "
                              f"(possible: {', '.join(sorted(allowed_triggers))})")
        if do not in EFFECTS:
            raise ConfigError(f"{w}: unknown effect {do!r} (known: {', '.join(sorted(EFFECTS))})")
        triggers, params = EFFECTS[do]
        if when not in triggers:
            raise ConfigError(f"{w}: effect {do!r} cannot happen {when!r} "
                              f"(only: {', '.join(sorted(triggers))})")
        _no_extra(e, {"when", "do"} | params, w)
        n = _opt(e, "n", int, w, 1)
        if not 1 <= n <= 9:
            raise ConfigError(f"{w}: n={n} is not in 1..9")
        target = _opt(e, "target", str, w, "owner")
        if target not in TARGETS:
            raise ConfigError(f"{w}: target {target!r} is not one of {', '.join(TARGETS)}")
        whose = _opt(e, "whose", str, w, "own")
        if whose not in ("own", "any"):
            raise ConfigError(f"{w}: whose {whose!r} is not 'own' or 'any'")
        card = _opt(e, "card", str, w, None)
        difficult = _opt(e, "difficult", bool, w, True)
        out.append(Effect(when, do, n, target, card, whose, difficult))
    spends = [e for e in out if e.when == "spend"]
    if len(spends) > 1:
        raise ConfigError(f"{where}: an Item has at most one SPEND ability")
    return tuple(out)


ITEM_FIELDS = {"key", "name", "value", "count", "effects", "text", "house"}
FOE_FIELDS = {"key", "name", "vulnerability", "effects", "set_twice_removes", "text", "house",
              "count", "difficult"}


def _item(d: Any, t: str, where: str, code: int | None = None, allow: set[str] = ITEM_FIELDS) -> CardDef:
    d = _obj(d, where)
    _no_extra(d, allow, where)
    key = _need(d, "key", str, where)
    name = _need(d, "name", str, where)
    value = _need(d, "value", int, where)
    if not 1 <= value <= 20:
        raise ConfigError(f"{where}: value {value} is not in 1..20")
    count = _opt(d, "count", int, where, 1)
    if not 1 <= count <= 20:
        raise ConfigError(f"{where}: count {count} is not in 1..20")
    effects = _effects(d.get("effects"), ITEM_TRIGGERS, where)
    text = _opt(d, "text", str, where, "")
    if effects and not text:
        raise ConfigError(f"{where}: an Item with an ability needs its 'text'")
    return CardDef(key, name, "item", t, value, False, (), effects, False, text, _house(d, where),
                   code, count)


def _foe(d: Any, where: str, difficult: bool, code: int | None = None,
         allow: set[str] = FOE_FIELDS) -> CardDef:
    d = _obj(d, where)
    _no_extra(d, allow, where)
    key = _need(d, "key", str, where)
    name = _need(d, "name", str, where)
    vuln = _need(d, "vulnerability", list, where)
    if not 1 <= len(vuln) <= 6:
        raise ConfigError(f"{where}: a vulnerability lists 1 to 6 cards, not {len(vuln)}")
    for r in vuln:
        if r not in REQUIREMENTS:
            raise ConfigError(f"{where}: vulnerability entry {r!r} is not one of "
                              f"{', '.join(REQUIREMENTS)}")
    count = _opt(d, "count", int, where, 1)
    if not 1 <= count <= 20:
        raise ConfigError(f"{where}: count {count} is not in 1..20")
    if "difficult" in d:
        difficult = _check(d["difficult"], bool, f"{where}: 'difficult'")
    effects = _effects(d.get("effects", []), FOE_TRIGGERS, where)
    twice = _opt(d, "set_twice_removes", bool, where, False)
    text = _need(d, "text", str, where)
    return CardDef(key, name, "foe", None, 0, difficult, tuple(vuln), effects, twice, text,
                   _house(d, where), code, count)


def _card_list(raw: Any, where: str) -> list[Any]:
    return _check(raw, list, where)


def parse(raw: Any, adventures: list[tuple[str, Any]], source: str = "cards.json") -> CardData:
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: the top level must be an object")
    if raw.get("game", "out-of-this-world") != "out-of-this-world":
        raise ConfigError(f"{source}: this is a data file for {raw.get('game')!r}")
    _no_extra(raw, {"format", "game", "notes", "time_tokens", "stacks", "stack_size",
                    "initial_hand", "hand_limit", "points_per_player", "difficulties", "types",
                    "items", "wilds", "foes", "difficult_foes", "characters", "house_rules"}, source)
    consts = {}
    for k, lo, hi in (("time_tokens", 1, 30), ("stacks", 1, 10), ("stack_size", 1, 10),
                      ("initial_hand", 1, 10), ("hand_limit", 1, 20)):
        v = _need(raw, k, int, source)
        if not lo <= v <= hi:
            raise ConfigError(f"{source}: {k} {v} is not in {lo}..{hi}")
        consts[k] = v
    pts = _need(raw, "points_per_player", dict, source)
    points = {}
    for n in (3, 4, 5):
        v = pts.get(str(n))
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ConfigError(f"{source}: points_per_player[{str(n)!r}] must be a positive "
                              f"integer, not {v!r}")
        points[n] = v
    diffs: dict[str, Difficulty] = {}
    for i, d in enumerate(_need(raw, "difficulties", list, source)):
        w = f"{source}: difficulties{_label(d, i)}"
        d = _obj(d, w)
        _no_extra(d, {"key", "name", "difficult_foes", "table_talk"}, w)
        df = _need(d, "difficult_foes", int, w)
        if not 0 <= df <= N_DIFFICULT:
            raise ConfigError(f"{w}: difficult_foes {df} is not in 0..{N_DIFFICULT}")
        key = _need(d, "key", str, w)
        diffs[key] = Difficulty(key, _need(d, "name", str, w), df, _need(d, "table_talk", bool, w))
    if list(diffs) != ["easier", "standard", "tough", "epic"]:
        raise ConfigError(f"{source}: difficulties must be easier, standard, tough, epic in order, "
                          f"not {', '.join(diffs)}")
    type_names = {}
    for i, t in enumerate(_need(raw, "types", list, source)):
        w = f"{source}: types[{i}]"
        t = _obj(t, w)
        type_names[_need(t, "key", str, w)] = _need(t, "name", str, w)
    if list(type_names) != list(TYPES):
        raise ConfigError(f"{source}: types must be {', '.join(TYPES)}")

    items: list[CardDef] = []
    raw_items = _need(raw, "items", dict, source)
    _no_extra(raw_items, set(TYPES), f"{source}: items")
    for t in TYPES:
        entries = _card_list(raw_items.get(t), f"{source}: items.{t}")
        cards = [_item(e, t, f"{source}: items.{t}{_label(e, i)}") for i, e in enumerate(entries)]
        values = sorted(v for c in cards for v in [c.value] * c.count)
        if tuple(values) != TYPE_VALUES:
            raise ConfigError(f"{source}: items.{t} has values {values}, but each type must have "
                              f"exactly {list(TYPE_VALUES)}")
        items += cards
    wilds = [_item(e, WILD, f"{source}: wilds{_label(e, i)}")
             for i, e in enumerate(_need(raw, "wilds", list, source))]
    wvals = sorted(v for c in wilds for v in [c.value] * c.count)
    if tuple(wvals) != WILD_VALUES:
        raise ConfigError(f"{source}: wilds have values {wvals}, but must be {list(WILD_VALUES)}")
    items += wilds

    foes = [_foe(e, f"{source}: foes{_label(e, i)}", False, allow=FOE_FIELDS - {"difficult"})
            for i, e in enumerate(_need(raw, "foes", list, source))]
    n = sum(f.count for f in foes)
    if n != N_FOES:
        raise ConfigError(f"{source}: foes hold {n} cards, but there must be {N_FOES}")
    dfoes = [_foe(e, f"{source}: difficult_foes{_label(e, i)}", True, allow=FOE_FIELDS - {"difficult"})
             for i, e in enumerate(_need(raw, "difficult_foes", list, source))]
    n = sum(f.count for f in dfoes)
    if n != N_DIFFICULT:
        raise ConfigError(f"{source}: difficult_foes hold {n} cards, but there must be {N_DIFFICULT}")

    chars = []
    raw_chars = _need(raw, "characters", list, source)
    if len(raw_chars) != N_CHARACTERS:
        raise ConfigError(f"{source}: expected {N_CHARACTERS} characters, found {len(raw_chars)}")
    for i, c in enumerate(raw_chars):
        w = f"{source}: characters[{i}]"
        c = _obj(c, w)
        _no_extra(c, {"key", "sides", "ability", "powers", "text", "house"}, w)
        key = _need(c, "key", str, w)
        w = f"{source}: characters[{i}] ({key})"
        sides = _need(c, "sides", list, w)
        if len(sides) != 2 or not all(isinstance(s, str) and s for s in sides):
            raise ConfigError(f"{w}: 'sides' must be the two side names, not {sides!r}")
        powers: dict[str, int] = {}
        for j, pw in enumerate(_need(c, "powers", list, w)):
            pw = _obj(pw, f"{w}: powers[{j}]")
            do = _need(pw, "do", str, f"{w}: powers[{j}]")
            if do not in POWERS:
                raise ConfigError(f"{w}: powers[{j}]: unknown power {do!r} "
                                  f"(known: {', '.join(sorted(POWERS))})")
            _no_extra(pw, {"do"} | POWERS[do], f"{w}: powers[{j}]")
            v = _opt(pw, "n", int, f"{w}: powers[{j}]", 1)
            if not 1 <= v <= 20:
                raise ConfigError(f"{w}: powers[{j}]: n={v} is not in 1..20")
            powers[do] = v
        chars.append(Character(i, key, (sides[0], sides[1]), _need(c, "ability", str, w), powers,
                               _need(c, "text", str, w), _house(c, w)))
    if len({c.key for c in chars}) != len(chars):
        raise ConfigError(f"{source}: two characters share a key")

    advs: dict[str, Adventure] = {}
    for name, body in adventures:
        a = _adventure(body, name)
        if a.key in advs:
            raise ConfigError(f"{name}: adventure key {a.key!r} is used by {advs[a.key].source} too")
        advs[a.key] = a
    advs = dict(sorted(advs.items(), key=lambda kv: (kv[1].chapter is not None, kv[1].chapter or 0,
                                                     kv[0])))
    basic_keys = {c.key for c in (*items, *foes, *dfoes)}
    seen: dict[str, str] = {}
    for c in (*items, *foes, *dfoes):
        if c.key in seen:
            raise ConfigError(f"{source}: card key {c.key!r} is used twice")
        seen[c.key] = source
    box_items = box_foes = 0
    for a in advs.values():
        for c in a.cards:
            if c.key in basic_keys:
                raise ConfigError(f"{a.source}: card key {c.key!r} is already a basic card")
            if c.key in seen and seen[c.key] != a.source:
                raise ConfigError(f"{a.source}: card key {c.key!r} is used by {seen[c.key]} too")
            seen[c.key] = a.source
        if a.code in (1, 2, 3, 4, 5):
            box_items += sum(c.count for c in a.cards if c.is_item)
            box_foes += sum(c.count for c in a.cards if c.is_foe)
        for w in a.win:
            if w.get("card") and w["card"] not in {c.key for c in (*a.cards, *items, *foes, *dfoes)}:
                raise ConfigError(f"{a.source}: win condition names unknown card {w['card']!r}")
        for e in (e for c in a.cards for e in c.effects):
            if e.card and e.card not in {c.key for c in (*a.cards, *items, *foes, *dfoes)}:
                raise ConfigError(f"{a.source}: an effect names unknown card {e.card!r}")
    codes = sorted(a.code for a in advs.values() if a.code is not None)
    if codes and codes == [1, 2, 3, 4, 5] and (box_items, box_foes) != (BOX_ADVENTURE_ITEMS,
                                                                        BOX_ADVENTURE_FOES):
        raise ConfigError(f"adventures: the five boxed adventures hold {box_items} specific Items "
                          f"and {box_foes} specific Foes, but the box has {BOX_ADVENTURE_ITEMS} "
                          f"and {BOX_ADVENTURE_FOES}")
    for c in items:
        for e in c.effects:
            if e.card and e.card not in seen:
                raise ConfigError(f"{source}: {c.name}: an effect names unknown card {e.card!r}")
    rules = []
    for i, r in enumerate(_opt(raw, "house_rules", list, source, [])):
        w = f"{source}: house_rules[{i}]"
        r = _obj(r, w)
        rules.append((_need(r, "key", str, w), _need(r, "text", str, w)))
    return CardData(consts["time_tokens"], consts["stacks"], consts["stack_size"],
                    consts["initial_hand"], consts["hand_limit"], points, diffs, type_names,
                    tuple(items), tuple(foes), tuple(dfoes), tuple(chars), advs, tuple(rules))


ADV_FIELDS = {"format", "game", "key", "name", "chapter", "code", "flavor", "time_tokens",
              "difficult_foes", "cards", "start", "start_equipped", "additions", "win",
              "special_rules", "house"}


def _adventure(raw: Any, source: str) -> Adventure:
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: the top level must be an object")
    if raw.get("game", "out-of-this-world") != "out-of-this-world":
        raise ConfigError(f"{source}: this is a data file for {raw.get('game')!r}")
    _no_extra(raw, ADV_FIELDS, source)
    key = _need(raw, "key", str, source)
    if not key or key != key.lower() or " " in key:
        raise ConfigError(f"{source}: key {key!r} must be lower-case with dashes, e.g. 'birthday-bash'")
    name = _need(raw, "name", str, source)
    chapter = _opt(raw, "chapter", int, source, None)
    code = _opt(raw, "code", int, source, None)
    tokens = _need(raw, "time_tokens", int, source)
    if not 1 <= tokens <= 30:
        raise ConfigError(f"{source}: time_tokens {tokens} is not in 1..30")
    dfoes = _opt(raw, "difficult_foes", int, source, 0)
    if not 0 <= dfoes <= N_DIFFICULT:
        raise ConfigError(f"{source}: difficult_foes {dfoes} is not in 0..{N_DIFFICULT}")
    cards: list[CardDef] = []
    for i, c in enumerate(_opt(raw, "cards", list, source, [])):
        w = f"{source}: cards{_label(c, i)}"
        c = _obj(c, w)
        kind = _need(c, "kind", str, w)
        body = {k: v for k, v in c.items() if k != "kind"}
        if kind == "item":
            t = _need(c, "type", str, w)
            if t not in (*TYPES, WILD):
                raise ConfigError(f"{w}: type {t!r} is not one of {', '.join((*TYPES, WILD))}")
            body.pop("type")
            cards.append(_item(body, t, w, code))
        elif kind == "foe":
            cards.append(_foe(body, w, False, code))
        else:
            raise ConfigError(f"{w}: kind must be 'item' or 'foe', not {kind!r}")
    if len({c.key for c in cards}) != len(cards):
        raise ConfigError(f"{source}: two of the adventure's cards share a key")
    if cards and code is None:
        raise ConfigError(f"{source}: an adventure with its own cards needs a 'code'")
    by_key = {c.key: c for c in cards}

    def counted(field_name: str, kind: str | None = None) -> tuple[tuple[str, int], ...]:
        out = []
        for i, e in enumerate(_opt(raw, field_name, list, source, [])):
            w = f"{source}: {field_name}[{i}]"
            e = _obj(e, w)
            _no_extra(e, {"card", "count"}, w)
            k = _need(e, "card", str, w)
            if k not in by_key:
                raise ConfigError(f"{w}: {k!r} is not one of this adventure's cards")
            if kind and by_key[k].kind != kind:
                raise ConfigError(f"{w}: {by_key[k].name} is not an {kind}")
            n = _opt(e, "count", int, w, 1)
            if n < 1:
                raise ConfigError(f"{w}: count must be at least 1")
            out.append((k, n))
        return tuple(out)

    start = counted("start")
    equipped = counted("start_equipped", "item")
    used: dict[str, int] = {}
    for k, n in (*start, *equipped):
        used[k] = used.get(k, 0) + n
    for k, n in used.items():
        if n > by_key[k].count:
            raise ConfigError(f"{source}: start and start_equipped use {n}× {by_key[k].name}, "
                              f"but the adventure has only {by_key[k].count}")
    additions = []
    for i, e in enumerate(_opt(raw, "additions", list, source, [])):
        w = f"{source}: additions[{i}]"
        e = _obj(e, w)
        _no_extra(e, {"card", "count", "times", "random_difficult"}, w)
        times = _opt(e, "times", int, w, None)
        if times is not None and times < 1:
            raise ConfigError(f"{w}: times must be at least 1 (or left out for every time)")
        if "random_difficult" in e:
            if "card" in e or "count" in e:
                raise ConfigError(f"{w}: an addition is either a card or random_difficult")
            n = _need(e, "random_difficult", int, w)
            if not 1 <= n <= N_DIFFICULT:
                raise ConfigError(f"{w}: random_difficult {n} is not in 1..{N_DIFFICULT}")
            additions.append({"random_difficult": n, "times": times})
        else:
            k = _need(e, "card", str, w)
            if k not in by_key:
                raise ConfigError(f"{w}: {k!r} is not one of this adventure's cards")
            n = _opt(e, "count", int, w, 1)
            if n < 1:
                raise ConfigError(f"{w}: count must be at least 1")
            additions.append({"card": k, "count": n, "times": times})
    win = []
    for i, e in enumerate(_need(raw, "win", list, source)):
        w = f"{source}: win[{i}]"
        e = _obj(e, w)
        kind = _need(e, "kind", str, w)
        if kind not in WIN_KINDS:
            raise ConfigError(f"{w}: unknown win condition {kind!r} (known: {', '.join(WIN_KINDS)})")
        _no_extra(e, {"kind"} | WIN_KINDS[kind], w)
        cond: dict[str, Any] = {"kind": kind}
        if kind == "equip_points" and "points" in e:
            pts = _obj(e["points"], f"{w}: points")
            for n in ("3", "4", "5"):
                v = pts.get(n)
                if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                    raise ConfigError(f"{w}: points[{n!r}] must be a positive integer, not {v!r}")
            cond["points"] = {n: pts[n] for n in ("3", "4", "5")}
        if kind in ("no_foe", "defeated", "equipped"):
            cond["card"] = _need(e, "card", str, w)
        if kind in ("defeated", "equipped"):
            cond["count"] = _opt(e, "count", int, w, 1)
        win.append(cond)
    if not win:
        raise ConfigError(f"{source}: an adventure needs at least one win condition")
    rules = _opt(raw, "special_rules", list, source, [])
    for i, r in enumerate(rules):
        _check(r, str, f"{source}: special_rules[{i}]")
    return Adventure(key, name, chapter, code, _opt(raw, "flavor", str, source, ""), tokens, dfoes,
                     tuple(cards), start, equipped, tuple(additions), tuple(win), tuple(rules),
                     _house(raw, source), source)


def load(path: Path | str = DATA_FILE, adventure_dir: Path | str = ADVENTURE_DIR) -> CardData:
    path, adventure_dir = Path(path), Path(adventure_dir)
    advs = [(f"adventures/{p.name}", read_json(p)) for p in sorted(adventure_dir.glob("*.json"))]
    if not advs:
        raise ConfigError(f"no adventure files in {adventure_dir}")
    return parse(read_json(path), advs, path.name)


@cache
def default() -> CardData:
    return load()
