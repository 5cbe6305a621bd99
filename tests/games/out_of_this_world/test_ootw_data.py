"""The card data files: the shipped ones load, and each kind of mistake is refused with an error
naming the file and the bad entry."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from p2pcards.engine import ConfigError
from p2pcards.games.out_of_this_world import data as D

ADV = D.ADVENTURE_DIR


def raw() -> dict:
    return json.loads(D.DATA_FILE.read_text(encoding="utf-8"))


def adventures() -> list[tuple[str, dict]]:
    return [(f"adventures/{p.name}", json.loads(p.read_text(encoding="utf-8")))
            for p in sorted(ADV.glob("*.json"))]


def parse(card_data: dict | None = None, advs: list | None = None) -> D.CardData:
    return D.parse(card_data if card_data is not None else raw(),
                   advs if advs is not None else adventures())


def test_shipped_data_has_the_box_contents():
    """"64 Item cards: 4 normal suits × 15 cards ... 4 "wild" cards (one 5, one 6, one 7 and one
    8). 11 Foe cards. 4 Difficult Foe cards. ... 21 Adventure-specific Item and Foe cards. 5
    Character cards" """
    d = D.load()
    assert sum(c.count for c in d.items) == 64
    for t in D.TYPES:
        assert sorted(v for c in d.items if c.type == t for v in [c.value] * c.count) == \
            [3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 8]
    assert sorted(c.value for c in d.items if c.type == D.WILD) == [5, 6, 7, 8]
    assert sum(c.count for c in d.foes) == 11 and sum(c.count for c in d.difficult_foes) == 4
    specific = [c for a in d.adventures.values() for c in a.cards]
    assert sum(c.count for c in specific if c.is_item) == 8
    assert sum(c.count for c in specific if c.is_foe) == 13
    assert len(d.characters) == 5 and all(len(c.sides) == 2 for c in d.characters)
    assert list(d.adventures) == ["patrol-the-block", "birthday-bash", "hit-the-books",
                                  "night-school", "stained-glass", "confrontation"]


def test_printed_cards_are_kept_exactly():
    """The cards the rulebook prints: Escaped Equipment, School keys, Slingshot, Enthralled
    Friend, Malala and Bart."""
    d = D.load()
    cards = {c.key: c for c in (*d.items, *d.foes, *d.difficult_foes,
                                *(c for a in d.adventures.values() for c in a.cards))}
    ee = cards["escaped_equipment"]
    assert ee.difficult and ee.vulnerability == ("toys", "gaming", "any") and ee.set_twice_removes
    assert ee.text.startswith("ROAMING: At end of turn, move this Foe to the player on your left.")
    assert [(e.when, e.do) for e in ee.effects] == [("end_of_turn", "move_left")]
    keys_ = cards["school_keys"]
    assert keys_.value == 4 and keys_.spend().do == "remove_foe" and keys_.spend().card == "escaped_equipment"
    sling = cards["slingshot"]
    assert sling.value == 5 and sling.text == "SPEND: Give all your hand cards to other players."
    assert "enthralled_friend" in cards and cards["enthralled_friend"].adventure == 1
    mb = next(c for c in d.characters if "Malala" in c.sides)
    assert mb.sides == ("Malala", "Bart") and "defeat_others_foes" in mb.powers
    for k, v in (("yo_yo", 3), ("toy_soldiers", 4), ("spray_paints", 4), ("holy_water_pistol", 7)):
        assert cards[k].value == v
    assert cards["yo_yo"].type == cards["holy_water_pistol"].type


def test_house_content_is_marked():
    d = D.load()
    assert d.foes[0].house == ("*",)
    assert "type" in next(c for c in d.items if c.key == "slingshot").house
    assert d.adventures["birthday-bash"].house == ()
    assert d.adventures["hit-the-books"].house == ("*",)


def bad(mutate, match: str, advs: bool = False):
    card_data, adv = raw(), adventures()
    mutate(adv if advs else card_data)
    with pytest.raises(ConfigError, match=match):
        parse(card_data, adv)


def test_wrong_value_spread_names_the_type():
    def m(r):
        r["items"]["music"][0]["value"] = 4
    bad(m, r"cards.json: items.music has values .* but each type must have exactly")


def test_bad_field_names_the_entry():
    def m(r):
        r["items"]["toys"][2]["value"] = "five"
    bad(m, r"items.toys\[2\] \(Slingshot\): 'value' must be an integer")


def test_unknown_field_is_refused():
    def m(r):
        r["foes"][3]["vulnerabilty"] = ["any"]
    bad(m, r"foes\[3\] \(Rusty Robot\): unknown field\(s\) 'vulnerabilty'")


def test_unknown_effect_and_wrong_trigger():
    def m(r):
        r["foes"][0]["effects"][0]["do"] = "explode"
    bad(m, r"foes\[0\] \(Possessed Doll\): effects\[0\]: unknown effect 'explode'")

    def m2(r):
        r["foes"][1]["effects"][0]["when"] = "spend"
    bad(m2, r"foes\[1\] \(Haunted Jukebox\): effects\[0\]: trigger 'spend' is not possible")

    def m3(r):
        r["foes"][5]["effects"][0]["when"] = "on_take"
    bad(m3, r"Alley Cat\): effects\[0\]: effect 'move_left' cannot happen 'on_take'")


def test_bad_vulnerability():
    def m(r):
        r["difficult_foes"][2]["vulnerability"] = ["gaming", "comics"]
    bad(m, r"difficult_foes\[2\] \(Mutant Mascot\): vulnerability entry 'comics'")


def test_wrong_foe_counts():
    def m(r):
        r["foes"].pop()
    bad(m, r"foes hold 10 cards, but there must be 11")

    def m2(r):
        r["difficult_foes"].append(copy.deepcopy(r["difficult_foes"][0]) | {"key": "x"})
    bad(m2, r"difficult_foes hold 5 cards, but there must be 4")


def test_characters_need_two_sides_and_known_powers():
    def m(r):
        r["characters"][1]["sides"] = ["Zoe"]
    bad(m, r"characters\[1\] \(zoe_zack\): 'sides' must be the two side names")

    def m2(r):
        r["characters"][2]["powers"] = [{"do": "fly"}]
    bad(m2, r"characters\[2\] \(rita_rick\): powers\[0\]: unknown power 'fly'")


def test_adventure_errors_name_the_file():
    def m(advs):
        body = dict(advs)["adventures/birthday_bash.json"]
        body["start"][0]["card"] = "enthralled_fiend"
    bad(m, r"adventures/birthday_bash.json: start\[0\]: 'enthralled_fiend' is not one of this "
        r"adventure's cards", advs=True)

    def m2(advs):
        body = dict(advs)["adventures/night_school.json"]
        body["win"] = [{"kind": "survive"}]
    bad(m2, r"adventures/night_school.json: win\[0\]: unknown win condition 'survive'", advs=True)

    def m3(advs):
        body = dict(advs)["adventures/confrontation.json"]
        body["cards"][1]["count"] = 3
    bad(m3, r"the five boxed adventures hold 8 specific Items and 14 specific Foes", advs=True)


def test_bad_json_and_missing_files(tmp_path: Path):
    bad_file = tmp_path / "cards.json"
    bad_file.write_text('{"format": 1,,}', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"cards.json: not valid JSON \(line 1"):
        D.load(bad_file, ADV)
    with pytest.raises(ConfigError, match="cannot read"):
        D.load(tmp_path / "nope.json", ADV)
    empty = tmp_path / "adv"
    empty.mkdir()
    with pytest.raises(ConfigError, match="no adventure files"):
        D.load(D.DATA_FILE, empty)


def test_a_player_made_adventure_loads(tmp_path: Path):
    """An adventure file in the same format, reusing the basic cards, loads and plays."""
    adv = tmp_path / "adventures"
    shutil.copytree(ADV, adv)
    (adv / "my_block.json").write_text(json.dumps({
        "format": 1, "game": "out-of-this-world", "key": "my-block", "name": "My Block",
        "time_tokens": 6, "difficult_foes": 2, "win": [{"kind": "equip_points",
                                                       "points": {"3": 20, "4": 18, "5": 15}}],
    }), encoding="utf-8")
    d = D.load(D.DATA_FILE, adv)
    assert d.adventures["my-block"].time_tokens == 6
    assert len(d.deck("my-block")) == 79


def test_the_doc_page_lists_every_house_card_and_character():
    """docs/out-of-this-world.md names every card, character and adventure with house content."""
    doc = " ".join((Path(__file__).resolve().parents[3] / "docs" / "out-of-this-world.md")
                   .read_text(encoding="utf-8").split())  # line breaks do not matter
    d = D.load()
    for c in (*d.items, *d.foes, *d.difficult_foes, *(c for a in d.adventures.values() for c in a.cards)):
        if c.house:
            assert c.name in doc, c.name
    for ch in d.characters:
        assert f"{ch.sides[0]} / {ch.sides[1]}" in doc or ch.sides[0] in doc, ch.key
        if ch.house == ("*",):
            assert ch.ability in doc
    for a in d.adventures.values():
        assert a.name in doc and a.key in doc
    for key in ("first_vocal", "leg_it_lap", "spend_own", "deck_exhausted", "hands_mixed"):
        assert key in {k for k, _ in d.house_rules}
