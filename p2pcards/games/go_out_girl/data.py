"""Go Out Girl card data: loaded from ``cards.json`` and validated, with a clear error naming the
bad entry."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ...engine import ConfigError
from ...engine.datafile import read_json

DATA_FILE = Path(__file__).with_name("cards.json")
CHARACTER_KEYS = ("nerai", "toyoko", "niwa", "shian", "satsuki", "kira", "ten", "kyoko")


@dataclass(frozen=True)
class Character:
    index: int
    key: str
    name: str
    life: int
    difficulty: int
    ability: str
    text: str


@dataclass(frozen=True)
class CardData:
    copies: int
    guards: int
    damage: dict[int, int]  # number (1..14) -> damage icons
    house_numbers: tuple[int, ...]
    hand_sizes: dict[int, int]
    wins_needed: dict[int, int]
    characters: tuple[Character, ...]
    house_rules: tuple[tuple[str, str], ...]

    @property
    def n_battle_cards(self) -> int:
        return 13 * self.copies + self.guards


def _need(d: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in d:
        raise ConfigError(f"{where}: missing {key!r}")
    v = d[key]
    if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
        raise ConfigError(f"{where}: {key!r} must be an integer, not {v!r}")
    if kind is not int and not isinstance(v, kind):
        raise ConfigError(f"{where}: {key!r} must be a {kind.__name__}, not {v!r}")
    return v


def parse(raw: Any, source: str = "cards.json") -> CardData:
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: the top level must be an object")
    copies = _need(raw, "copies_per_number", int, source)
    guards = _need(raw, "guards", int, source)
    if copies < 1 or guards < 0:
        raise ConfigError(f"{source}: copies_per_number must be >= 1 and guards >= 0")
    damage: dict[int, int] = {}
    house: list[int] = []
    specials = raw.get("special_numbers", [])
    if not isinstance(specials, list):
        raise ConfigError(f"{source}: 'special_numbers' must be a list, not {specials!r}")
    numbers = _need(raw, "numbers", list, source)
    entries = [(f"numbers[{i}]", e) for i, e in enumerate(numbers)] + \
        [(f"special_numbers[{i}]", e) for i, e in enumerate(specials)]
    for name, e in entries:
        where = f"{source}: {name}"
        if not isinstance(e, dict):
            raise ConfigError(f"{where}: must be an object")
        n = _need(e, "number", int, where)
        d = _need(e, "damage", int, where)
        if not 1 <= n <= 14:
            raise ConfigError(f"{where}: number {n} is not in 1..14")
        if not 0 <= d <= 9:
            raise ConfigError(f"{where}: damage {d} is not in 0..9")
        if n in damage:
            raise ConfigError(f"{where}: number {n} is listed twice")
        damage[n] = d
        if e.get("house"):
            house.append(n)
    missing = [n for n in range(1, 15) if n not in damage]
    if missing:
        raise ConfigError(f"{source}: no damage given for number(s) {missing}")
    sizes = _need(raw, "hand_sizes", dict, source)
    wins = _need(raw, "battle_wins_to_win", dict, source)
    hand_sizes, wins_needed = {}, {}
    for n in range(2, 6):
        for table, out, name in ((sizes, hand_sizes, "hand_sizes"), (wins, wins_needed, "battle_wins_to_win")):
            v = table.get(str(n))
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ConfigError(f"{source}: {name}[{n!r}] must be a positive integer, not {v!r}")
            out[n] = v
    chars = []
    raw_chars = _need(raw, "characters", list, source)
    if len(raw_chars) != len(CHARACTER_KEYS):
        raise ConfigError(f"{source}: expected {len(CHARACTER_KEYS)} characters, found {len(raw_chars)}")
    for i, c in enumerate(raw_chars):
        where = f"{source}: characters[{i}]"
        if not isinstance(c, dict):
            raise ConfigError(f"{where}: must be an object")
        key = _need(c, "key", str, where)
        if key != CHARACTER_KEYS[i]:
            raise ConfigError(f"{where}: expected key {CHARACTER_KEYS[i]!r}, found {key!r}")
        life = _need(c, "life", int, where)
        if not 1 <= life <= 20:
            raise ConfigError(f"{where}: life {life} is not in 1..20")
        chars.append(Character(i, key, _need(c, "name", str, where), life,
                               _need(c, "difficulty", int, where), _need(c, "ability", str, where),
                               _need(c, "text", str, where)))
    raw_rules = raw.get("house_rules", [])
    if not isinstance(raw_rules, list):
        raise ConfigError(f"{source}: 'house_rules' must be a list, not {raw_rules!r}")
    rules = []
    for i, r in enumerate(raw_rules):
        where = f"{source}: house_rules[{i}]"
        if not isinstance(r, dict):
            raise ConfigError(f"{where}: must be an object")
        rules.append((_need(r, "key", str, where), _need(r, "text", str, where)))
    return CardData(copies, guards, damage, tuple(sorted(house)), hand_sizes, wins_needed,
                    tuple(chars), tuple(rules))


def load(path: Path | str = DATA_FILE) -> CardData:
    path = Path(path)
    return parse(read_json(path), path.name)


@cache
def default() -> CardData:
    return load()
