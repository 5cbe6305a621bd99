"""The Girl and the Robot card data: loaded from ``cards.json`` and validated, with a clear error
naming the bad entry.

Card ids follow the file: the Action cards in order (each repeated ``copies`` times), the Ability
Points cards by value, the Demons, then the Weapons (Basic Swords first)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ...engine import ConfigError
from ...engine.datafile import read_json

DATA_FILE = Path(__file__).with_name("cards.json")

ACTION_KEYS = (
    "deal_with_demon", "act_ii", "ambush", "blind", "cancel_action", "evade", "grave_digger",
    "lone_wolf", "lure", "magic_mirror", "manipulate", "peace_treaty", "provoke", "scout",
    "smoke_bomb", "spy", "steal", "trade", "weapon_tax",
)
WEAPON_KEYS = ("basic_sword", "cursed_sword", "dagger", "kings_sword", "pendant")
FACE_DOWN_WEAPONS = ("kings_sword", "pendant")
CHARACTER_KEYS = ("girl", "robot", "queen", "shadow")
ABILITIES: dict[str, tuple[tuple[str, str], ...]] = {  # character -> (id, side) in rulebook order
    "girl": (("girl_bottom2", "alone"), ("girl_hex", "alone"),
             ("girl_borrow", "team"), ("girl_pendant", "team")),
    "robot": (("robot_ban", "alone"), ("robot_skip", "alone"),
              ("robot_draw", "team"), ("robot_next", "team")),
    "queen": (("queen_double", "alone"), ("queen_top2", "alone"), ("queen_take", "alone"),
              ("queen_boost", "team"), ("queen_move", "team")),
    "shadow": (("shadow_destroy_all", "alone"), ("shadow_revive", "alone"),
               ("shadow_give", "team"), ("shadow_destroy_one", "team")),
}
TOTAL_KEYS = ("action", "points", "demon", "basic_weapon", "effect_weapon")


@dataclass(frozen=True)
class Kind:
    """One kind of card: ``category`` is action, points, demon or weapon."""

    key: str
    name: str
    category: str
    copies: int
    text: str
    house: bool = False
    value: int = 0  # Ability Points
    face_down: bool = False  # weapons placed face down


@dataclass(frozen=True)
class Ability:
    id: str
    side: str  # "alone" or "team"
    cost: int
    text: str


@dataclass(frozen=True)
class Character:
    key: str
    name: str
    abilities: tuple[Ability, ...]

    def side(self, side: str) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if a.side == side)


@dataclass(frozen=True)
class CardData:
    hand_size: int
    kinds: dict[str, Kind]  # key -> kind, in card-id order
    card_kind: tuple[str, ...]  # card id -> kind key
    characters: dict[str, Character]
    house_rules: tuple[tuple[str, str], ...]
    house_totals: tuple[str, ...] = ()  # the totals (TOTAL_KEYS) the rulebook does not print

    @property
    def n_cards(self) -> int:
        return len(self.card_kind)

    def ability(self, ability_id: str) -> Ability:
        for c in self.characters.values():
            for a in c.abilities:
                if a.id == ability_id:
                    return a
        raise KeyError(ability_id)

    def cards_of(self, key: str) -> list[int]:
        return [c for c, k in enumerate(self.card_kind) if k == key]


def _need(d: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in d:
        raise ConfigError(f"{where}: missing {key!r}")
    v = d[key]
    if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
        raise ConfigError(f"{where}: {key!r} must be an integer, not {v!r}")
    if kind is bool and not isinstance(v, bool):
        raise ConfigError(f"{where}: {key!r} must be true or false, not {v!r}")
    if kind not in (int, bool) and not isinstance(v, kind):
        raise ConfigError(f"{where}: {key!r} must be a {kind.__name__}, not {v!r}")
    return v


def _obj(v: Any, where: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ConfigError(f"{where}: must be an object")
    return v


def _copies(e: dict[str, Any], where: str) -> int:
    n = _need(e, "copies", int, where)
    if not 1 <= n <= 20:
        raise ConfigError(f"{where}: copies {n} is not in 1..20")
    return n


def parse(raw: Any, source: str = "cards.json") -> CardData:
    raw = _obj(raw, f"{source}: the top level")
    hand_size = _need(raw, "hand_size", int, source)
    if not 1 <= hand_size <= 10:
        raise ConfigError(f"{source}: hand_size {hand_size} is not in 1..10")
    totals = _need(raw, "totals", dict, source)
    for k in TOTAL_KEYS:
        _need(totals, k, int, f"{source}: totals")
    house_totals = _need(raw, "house_totals", list, source)
    for i, k in enumerate(house_totals):
        if k not in TOTAL_KEYS:
            raise ConfigError(f"{source}: house_totals[{i}]: {k!r} is not one of {', '.join(TOTAL_KEYS)}")
    kinds: dict[str, Kind] = {}
    counts = dict.fromkeys(TOTAL_KEYS, 0)

    actions = _need(raw, "actions", list, source)
    for i, e in enumerate(actions):
        where = f"{source}: actions[{i}]"
        e = _obj(e, where)
        key = _need(e, "key", str, where)
        if key not in ACTION_KEYS:
            raise ConfigError(f"{where}: unknown action {key!r}")
        if key in kinds:
            raise ConfigError(f"{where}: action {key!r} is listed twice")
        n = _copies(e, where)
        kinds[key] = Kind(key, _need(e, "name", str, where), "action", n, _need(e, "text", str, where),
                          bool(e.get("house", False)))
        counts["action"] += n
    missing = [k for k in ACTION_KEYS if k not in kinds]
    if missing:
        raise ConfigError(f"{source}: actions: missing {', '.join(missing)}")

    for i, e in enumerate(_need(raw, "points", list, source)):
        where = f"{source}: points[{i}]"
        e = _obj(e, where)
        value = _need(e, "value", int, where)
        if not 1 <= value <= 9:
            raise ConfigError(f"{where}: value {value} is not in 1..9")
        key = f"ap{value}"
        if key in kinds:
            raise ConfigError(f"{where}: value {value} is listed twice")
        n = _copies(e, where)
        kinds[key] = Kind(key, f"Ability Points {value}", "points", n,
                          f"Worth {value} Ability Point{'s' if value > 1 else ''} this turn.",
                          bool(e.get("house", False)), value=value)
        counts["points"] += n

    where = f"{source}: demon"
    demon = _obj(_need(raw, "demon", dict, source), where)
    kinds["demon"] = Kind("demon", _need(demon, "name", str, where), "demon", _copies(demon, where),
                          _need(demon, "text", str, where))
    counts["demon"] = kinds["demon"].copies

    weapons = _need(raw, "weapons", list, source)
    for i, e in enumerate(weapons):
        where = f"{source}: weapons[{i}]"
        e = _obj(e, where)
        key = _need(e, "key", str, where)
        if key not in WEAPON_KEYS:
            raise ConfigError(f"{where}: unknown weapon {key!r}")
        if key in kinds:
            raise ConfigError(f"{where}: weapon {key!r} is listed twice")
        basic = _need(e, "basic", bool, where)
        if basic != (key == "basic_sword"):
            raise ConfigError(f"{where}: only the Basic Sword is a basic weapon")
        face_down = _need(e, "face_down", bool, where)
        if face_down != (key in FACE_DOWN_WEAPONS):
            raise ConfigError(f"{where}: {key!r} must have face_down {key in FACE_DOWN_WEAPONS}")
        n = _copies(e, where)
        kinds[key] = Kind(key, _need(e, "name", str, where), "weapon", n, _need(e, "text", str, where),
                          bool(e.get("house", False)), face_down=face_down)
        counts["basic_weapon" if basic else "effect_weapon"] += n
    missing = [k for k in WEAPON_KEYS if k not in kinds]
    if missing:
        raise ConfigError(f"{source}: weapons: missing {', '.join(missing)}")

    for k in TOTAL_KEYS:
        if counts[k] != totals[k]:
            raise ConfigError(f"{source}: the {k.replace('_', ' ')} cards add up to {counts[k]}, "
                              f"but the deck's totals say {totals[k]}")
    if kinds["basic_sword"].copies < 4:
        raise ConfigError(f"{source}: weapons: the deck needs a Basic Sword for each of 4 players")

    characters: dict[str, Character] = {}
    raw_chars = _need(raw, "characters", list, source)
    if len(raw_chars) != len(CHARACTER_KEYS):
        raise ConfigError(f"{source}: expected {len(CHARACTER_KEYS)} characters, found {len(raw_chars)}")
    for i, c in enumerate(raw_chars):
        where = f"{source}: characters[{i}]"
        c = _obj(c, where)
        key = _need(c, "key", str, where)
        if key != CHARACTER_KEYS[i]:
            raise ConfigError(f"{where}: expected key {CHARACTER_KEYS[i]!r}, found {key!r}")
        abilities = _need(c, "abilities", list, where)
        expected = ABILITIES[key]
        if len(abilities) != len(expected):
            raise ConfigError(f"{where}: expected {len(expected)} abilities, found {len(abilities)}")
        abs_: list[Ability] = []
        for j, (a, (aid, side)) in enumerate(zip(abilities, expected, strict=True)):
            w = f"{where}.abilities[{j}]"
            a = _obj(a, w)
            got = _need(a, "id", str, w)
            if got != aid:
                raise ConfigError(f"{w}: expected ability {aid!r}, found {got!r}")
            if _need(a, "side", str, w) != side:
                raise ConfigError(f"{w}: {aid!r} is on the {side} side")
            cost = _need(a, "cost", int, w)
            if not 0 <= cost <= 9:
                raise ConfigError(f"{w}: cost {cost} is not in 0..9")
            abs_.append(Ability(aid, side, cost, _need(a, "text", str, w)))
        characters[key] = Character(key, _need(c, "name", str, where), tuple(abs_))

    rules = []
    raw_rules = raw.get("house_rules", [])
    if not isinstance(raw_rules, list):
        raise ConfigError(f"{source}: 'house_rules' must be a list, not {raw_rules!r}")
    for i, r in enumerate(raw_rules):
        where = f"{source}: house_rules[{i}]"
        r = _obj(r, where)
        rules.append((_need(r, "key", str, where), _need(r, "text", str, where)))

    card_kind: list[str] = []
    for k in kinds.values():
        card_kind += [k.key] * k.copies
    return CardData(hand_size, kinds, tuple(card_kind), characters, tuple(rules),
                    tuple(dict.fromkeys(house_totals)))


def load(path: Path | str = DATA_FILE) -> CardData:
    path = Path(path)
    return parse(read_json(path), path.name)


@cache
def default() -> CardData:
    return load()
