"""Position files (``docs/puzzles.md``) build views that carry nothing beyond their cards (issue
14 item 14), and a full-information Go Out Girl position with an explicit ``discard`` deals the
cards nobody listed away from the seat to move (issue 14 item 13)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from solver import positions
from solver.go_out_girl import position as gog_position
from solver.out_of_this_world import position as ootw_position

PUZZLES = Path(__file__).resolve().parents[2] / "docs" / "puzzles"


def shape(view) -> tuple:
    """Everything a view holds about its cards: the zones as slot lists, each slot's value (None
    where the seat does not know it) and who knows it."""
    return ({z: list(s) for z, s in view.zones.items()}, list(view.values), list(view.known))


def gog_full() -> dict:
    """The example view ``hint-view.json`` written as a full-information position."""
    data = json.loads((PUZZLES / "hint-view.json").read_text())
    del data["viewer"]
    seats = data["seats"]
    seats[1].update(hand=["1", "2", "3", "4", "6", "8", "G"], character="kira")
    seats[2].update(hand=["2", "4", "5", "11"])
    seats[3].update(hand=["5", "6", "9", "10", "11", "12", "13", "G", "G"], character="satsuki")
    data["deck"] = ["13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "G",
                    "13", "12", "11", "6", "9", "8", "4", "3", "2", "1", "G", "13", "5", "11",
                    "3", "2"]
    return data


def test_gog_views_of_different_hidden_cards_are_identical():
    """Two full positions that differ only in what seat 0 cannot see -- West's and East's hands,
    the deck order, West's face-down character -- give seat 0 the same view, slot for slot. With
    the card id used as the slot id, the slots of West's hand named its cards."""
    a = gog_full()
    b = copy.deepcopy(a)
    b["seats"][1]["hand"][0], b["seats"][3]["hand"][0] = "5", "1"  # West and East swap a card
    b["seats"][1]["character"] = "ten"
    b["deck"] = list(reversed(b["deck"]))
    va = gog_position.build(gog_position.parse(a)).view(0)
    vb = gog_position.build(gog_position.parse(b)).view(0)
    assert [va.values[s] for s in va.hand(1)] == [None] * 7
    assert shape(va) == shape(vb)
    ha, _ = positions.hint(a)
    hb, _ = positions.hint(b)
    assert ha["render"] == hb["render"]


def test_gog_full_position_with_explicit_discard_matches_its_view():
    """Issue 14 item 13: the cards a full position leaves unlisted (with an explicit discard)
    are out of play face down in the *other* seats' damage piles, first up to each one's damage;
    the seat to move (damage 2, its pile of 2 listed) gets none of them, so its hint is the hint
    of the same position written as its view."""
    full = gog_full()
    g = gog_position.build(gog_position.parse(full))
    assert sorted(g.number(g.values[s]) for s in g.zones["dmg0"]) == [3, 13]
    listed = 9 + 2 + 7 + 4 + 9 + 2 + 30 + 9
    rest = 86 - listed
    piles = [len(g.zones[f"dmg{q}"]) for q in range(1, 4)]
    assert sum(piles) == rest
    assert piles[0] >= 3 and piles[1] >= 1  # West's damage 3 and North's 1 are covered first
    view_data = json.loads((PUZZLES / "hint-view.json").read_text())
    hf, _ = positions.hint(full)
    hv, _ = positions.hint(view_data)
    assert hf["render"] == hv["render"]


def test_ootw_views_of_different_hidden_cards_are_identical():
    """Out Of This World: Ben's and Cat's hands swapped (Ann sees neither) give Ann the same
    view, slot for slot."""
    a = json.loads((PUZZLES / "out-of-this-world" / "02-which-foe.json").read_text())
    b = copy.deepcopy(a)
    b["seats"][1]["hand"], b["seats"][2]["hand"] = a["seats"][2]["hand"], a["seats"][1]["hand"]
    va = ootw_position.build(ootw_position.parse(a)).view(0)
    vb = ootw_position.build(ootw_position.parse(b)).view(0)
    assert [va.values[s] for s in va.hand(1)] == [None]
    assert shape(va) == shape(vb)


# -- the ids of the cards the seat sees ------------------------------------------------------
# A view's values are card ids. They were handed out in the order the cards were placed, the
# lowest id of a kind first, so a card the seat sees took the id its hidden twins left: with
# West holding an 8 (placed before the field), the field's 8s got ids 43 and 44; with that 8 in
# the deck instead, 42 and 43. The view told seat 0 that West holds an 8 (and, in Out Of This
# World, which Items of a kind are in the others' hands or under the stack tops).


def ootw_full(west, north, east2, under0, under1, under2) -> dict:
    """The example view ``out-of-this-world/hint-view.json`` as a full position, the hidden
    cards given: West's and North's hands, East's unseen card, the cards under the stack tops
    (the top of stack 1 an Item here, so the take is no forced Foe)."""
    data = json.loads((PUZZLES / "out-of-this-world" / "hint-view.json").read_text())
    del data["viewer"]
    seats = data["seats"]
    seats[1]["hand"], seats[2]["hand"], seats[3]["hand"] = west, north, ["Kazoo", east2]
    data["stacks"] = [["Water balloons", *under0], ["Keytar", *under1],
                      ["Spray paints", *under2], [], ["Yo-Yo"]]
    return data


def test_gog_a_hidden_card_moved_between_a_hand_and_the_deck_leaves_the_view_alone():
    a = gog_full()
    b = copy.deepcopy(a)
    i, j = b["seats"][1]["hand"].index("8"), b["deck"].index("9")  # West's 8 into the deck
    b["seats"][1]["hand"][i], b["deck"][j] = b["deck"][j], b["seats"][1]["hand"][i]
    va = gog_position.build(gog_position.parse(a)).view(0)
    vb = gog_position.build(gog_position.parse(b)).view(0)
    assert [va.number(va.values[s]) for s in va.zones["field"]] == [8, 8]
    assert shape(va) == shape(vb)
    assert va == vb
    assert positions.hint(a)[0] == positions.hint(b)[0]


def test_ootw_other_hidden_items_leave_the_view_and_the_hint_alone():
    """The same Foe (Alley Cat) hidden in both, the Items unseen by Ann other ones: the same
    view, id for id, and the same hint -- its reason's figures too."""
    a = ootw_full(["Mixtape", "Wrench", "Crowbar"], ["Dice", "Joystick", "Board game", "Keytar"],
                  "Yo-Yo", ["Mixtape", "Alley Cat"], ["Trading cards"],
                  ["Action figure", "Kazoo", "Bike lock"])
    b = ootw_full(["Harmonica", "Arcade tokens", "Arcade tokens"],
                  ["Yo-Yo", "Mixtape", "Water balloons", "Wrench"], "Toy soldiers",
                  ["Trading cards", "Joystick"], ["Alley Cat"],
                  ["Mixtape", "Spray paints", "Duct tape"])
    va = ootw_position.build(ootw_position.parse(a)).view(0)
    vb = ootw_position.build(ootw_position.parse(b)).view(0)
    assert shape(va) == shape(vb)
    assert va == vb
    assert positions.hint(a)[0] == positions.hint(b)[0]
