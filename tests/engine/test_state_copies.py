"""A state's copies and comparisons (``GameState.clone``, ``to_json``, ``==``) take every public
attribute and no ``_...`` one. They keep the public names a class has shown on the class, so
that only the few others are looked at one by one (protocol/engine speed): a name first set on a
state after its class was copied many times must still be copied and compared."""

from __future__ import annotations

from p2pcards.games import new_game


def test_a_public_name_set_later_is_copied_and_compared():
    a = new_game("go-out-girl", 3, {})
    for _ in range(3):
        a.clone(), a.to_json()  # the class has seen its names
    b = a.clone()
    assert a == b
    a.later = [1, 2]  # a name no state of the class had
    c = a.clone()
    assert c.later == [1, 2] and c.later is not a.later
    assert a.to_json()["state"]["later"] == [1, 2]
    assert a != b and b != a
    b.later = [1, 2]
    assert a == b
    b.later.append(3)
    assert a != b


def test_private_names_are_shared_not_copied_nor_compared():
    a = new_game("out-of-this-world", 3, {})
    b = a.clone()
    assert b._data is a._data  # derived: shared, as before
    b._scratch = "only here"
    assert a == b and "_scratch" not in b.to_json()["state"]
    assert not [k for k in a.to_json()["state"] if k.startswith("_")]
    assert a.to_json() == {"game": a.game, "format": a.to_json()["format"],
                           "state": {k: v for k, v in vars(a).items() if not k.startswith("_")}}


def test_two_games_with_the_same_attributes_are_not_equal():
    a, b = new_game("go-out-girl", 3, {}), new_game("go-out-girl", 3, {})
    assert a == b
    assert a != new_game("girl-and-robot", 3, {})
