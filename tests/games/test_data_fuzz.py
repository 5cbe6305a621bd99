"""Every game's card data file is validated at load: a damaged file -- a key deleted, a value of
the wrong type, an entry dropped or repeated -- is refused with a ConfigError naming the entry,
never another exception. Deterministic: the same mutants on every run."""

from __future__ import annotations

import copy
import json
import random
import re
import shutil
from pathlib import Path

import pytest

from p2pcards.engine import ConfigError
from p2pcards.games.girl_and_robot import data as gar
from p2pcards.games.go_out_girl import data as gog
from p2pcards.games.out_of_this_world import data as ootw

MUTANTS = 300
ODD_VALUES = [None, "", "x", -1, 0, 10**12, 1.5, [], {}, [1], {"a": 1}, True, ["x"], [None]]


def _paths(obj, pre=()):
    if pre:
        yield pre
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for k, v in items:
        yield from _paths(v, (*pre, k))


def mutant(base, rng: random.Random):
    """``base`` with one place changed: deleted, repeated (in a list) or given an odd value."""
    m = copy.deepcopy(base)
    *up, k = rng.choice(list(_paths(m)))
    parent = m
    for step in up:
        parent = parent[step]
    r = rng.random()
    if r < 0.4:
        del parent[k]
    elif r < 0.5 and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[k]))
    else:
        parent[k] = rng.choice(ODD_VALUES)
    return m


def _ootw_adventure(tmp: Path):
    """Load the Out Of This World data with a mutated copy of one adventure file."""
    adv = tmp / "adventures"

    def load(path: Path):
        if adv.exists():
            shutil.rmtree(adv)
        shutil.copytree(ootw.ADVENTURE_DIR, adv, ignore=shutil.ignore_patterns("*.py"))
        shutil.copy(path, adv / "birthday_bash.json")
        return ootw.load(ootw.DATA_FILE, adv)
    return load


@pytest.mark.parametrize("game", ["go-out-girl", "girl-and-robot", "out-of-this-world",
                                  "out-of-this-world adventure"])
def test_a_damaged_data_file_is_refused_with_a_clear_error(game, tmp_path):
    source, load = {
        "go-out-girl": (gog.DATA_FILE, gog.load),
        "girl-and-robot": (gar.DATA_FILE, gar.load),
        "out-of-this-world": (ootw.DATA_FILE, ootw.load),
        "out-of-this-world adventure": (Path(ootw.ADVENTURE_DIR) / "birthday_bash.json",
                                        _ootw_adventure(tmp_path)),
    }[game]
    base = json.loads(Path(source).read_text(encoding="utf-8"))
    rng = random.Random(game)
    refused = 0
    f = tmp_path / "cards.json"
    for _ in range(MUTANTS):
        m = mutant(base, rng)
        f.write_text(json.dumps(m), encoding="utf-8")
        try:
            load(f)
        except ConfigError as exc:
            assert "cards.json" in str(exc) or "adventures/" in str(exc), exc
            refused += 1
    assert refused > MUTANTS // 3  # most damage is noticed (some, like a text changed, is not)


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(special_numbers=7), "'special_numbers' must be a list"),
    (lambda d: d["house_rules"].append(3), "house_rules[7]: must be an object"),
    (lambda d: d["house_rules"][0].pop("text"), "house_rules[0]: missing 'text'"),
])
def test_go_out_girl_regressions(change, words, tmp_path):
    d = json.loads(Path(gog.DATA_FILE).read_text(encoding="utf-8"))
    change(d)
    (tmp_path / "cards.json").write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(words)):
        gog.load(tmp_path / "cards.json")


def test_out_of_this_world_difficulty_without_a_key(tmp_path):
    d = json.loads(Path(ootw.DATA_FILE).read_text(encoding="utf-8"))
    del d["difficulties"][1]["key"]
    (tmp_path / "cards.json").write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"difficulties.*missing 'key'"):
        ootw.load(tmp_path / "cards.json")
