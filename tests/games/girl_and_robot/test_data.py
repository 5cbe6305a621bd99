"""The card data file: the deck, which of its values are printed and which are house values, and
clear errors for a bad file."""

from __future__ import annotations

import copy
import json

import pytest

from p2pcards.engine import ConfigError
from p2pcards.games.girl_and_robot.data import DATA_FILE, load, parse

RAW = json.loads(DATA_FILE.read_text(encoding="utf-8"))


def test_the_deck():
    """The deck p2pcards plays: 31 Action cards, 12 Ability Points cards, 4 Demons ("Remove the 4
    Demon cards from the Deck"), 4 Basic Swords ("Every player starts with 1 Basic Sword card")
    and one each of the 4 effect Weapons."""
    d = load()
    by_cat: dict[str, int] = {}
    for k in d.card_kind:
        by_cat[d.kinds[k].category] = by_cat.get(d.kinds[k].category, 0) + 1
    assert by_cat == {"action": 31, "points": 12, "demon": 4, "weapon": 8}
    assert d.kinds["basic_sword"].copies == 4
    assert [d.kinds[k].copies for k in ("cursed_sword", "dagger", "kings_sword", "pendant")] == [1] * 4
    assert len([k for k in d.kinds.values() if k.category == "action"]) == 19


def test_unprinted_values_are_marked_house():
    """The rulebook prints "Remove the 4 Demon cards from the Deck" and "Every player starts with
    1 Basic Sword card [...] Remove all extra Basic Swords from the game", and no other count: the
    copies of each Action card and Weapon, the Ability Points values and every total but the
    Demons' are house values, marked as such; the Demons are not."""
    d = load()
    for k in d.kinds.values():
        assert k.house == (k.category != "demon"), k.key
    assert set(d.house_totals) == {"action", "points", "basic_weapon", "effect_weapon"}
    costs = {a.id: a.cost for c in d.characters.values() for a in c.abilities}
    assert costs["shadow_revive"] == 5 and costs["queen_double"] == 0  # printed costs


def bad(mutate, match):
    raw = copy.deepcopy(RAW)
    mutate(raw)
    with pytest.raises(ConfigError, match=match):
        parse(raw)


def test_errors_name_the_bad_entry():
    bad(lambda r: r["actions"][3].pop("copies"), r"actions\[3\]: missing 'copies'")
    bad(lambda r: r["actions"][0].update(key="fireball"), r"actions\[0\]: unknown action 'fireball'")
    bad(lambda r: r["actions"][1].update(key="deal_with_demon"), r"actions\[1\]: action 'deal_with_demon' is listed twice")
    bad(lambda r: r["actions"].pop(4), "missing cancel_action")
    bad(lambda r: r["actions"][0].update(copies="2"), r"'copies' must be an integer")
    bad(lambda r: r["actions"][0].update(copies=0), r"copies 0 is not in 1..20")
    bad(lambda r: r["points"][0].update(value=0), r"points\[0\]: value 0 is not in 1..9")
    bad(lambda r: r["points"][1].update(value=1), r"points\[1\]: value 1 is listed twice")
    bad(lambda r: r["weapons"][3].update(face_down=False), r"weapons\[3\]: 'kings_sword' must have face_down True")
    bad(lambda r: r["weapons"][1].update(basic=True), r"weapons\[1\]: only the Basic Sword")
    bad(lambda r: r["characters"][0]["abilities"][0].update(cost=12), r"characters\[0\].abilities\[0\]: cost 12")
    bad(lambda r: r["characters"][2]["abilities"][1].update(id="queen_fly"), "expected ability 'queen_top2'")
    bad(lambda r: r["characters"][1]["abilities"][2].update(side="alone"), "'robot_draw' is on the team side")
    bad(lambda r: r["characters"].pop(), "expected 4 characters, found 3")
    bad(lambda r: r.update(hand_size=0), "hand_size 0 is not in 1..10")
    bad(lambda r: r.pop("demon"), "missing 'demon'")
    bad(lambda r: r["house_rules"].append({"key": "x"}), r"house_rules\[\d+\]: missing 'text'")


def test_totals_must_match_the_deck():
    bad(lambda r: r["actions"][0].update(copies=1), "the action cards add up to 30, but the deck's totals say 31")
    bad(lambda r: r["points"][0].update(copies=5), "the points cards add up to 13, but the deck's totals say 12")
    bad(lambda r: r["house_totals"].append("jokers"), r"house_totals\[4\]: 'jokers' is not one of")
    bad(lambda r: r.pop("totals"), "missing 'totals'")
    bad(lambda r: r["demon"].update(copies=5), "the demon cards add up to 5")


def test_file_errors(tmp_path):
    f = tmp_path / "cards.json"
    f.write_text("{ not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="cards.json: not valid JSON"):
        load(f)
    with pytest.raises(ConfigError, match="cannot read"):
        load(tmp_path / "missing.json")
    f.write_text("[]", encoding="utf-8")
    with pytest.raises(ConfigError, match="the top level: must be an object"):
        load(f)
