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


def _copies_through_a_game(game: str, players: int, seed: int):
    """Every step of a random game: (the full state, each seat's and the spectator's own copy)."""
    from p2pcards.bots.base import RandomBot
    from p2pcards.engine import SPECTATOR, LocalDealer, play

    steps: list = []
    seats = [*range(players), SPECTATOR]
    state = new_game(game, players, {})
    copies = {p: state.view(p) for p in seats}
    count = iter(range(10**9))

    def on_step(st, ev):
        if next(count) % 7 == 0:
            steps.append((st.clone(), {p: c.clone() for p, c in copies.items()}))

    play(state, [RandomBot(p, seed + p) for p in range(players)], LocalDealer(seed),
         copies=copies, on_step=on_step)
    return steps


def test_is_view_says_what_making_the_view_and_comparing_says():
    """``play(views=True)`` compares each seat's copy with the full state's view without making
    the view (``engine.dealer.is_view``): at every step of a game of each title, for every seat
    and the spectator, it agrees with ``copy == state.view(seat)`` -- on the true copies, and on
    copies made wrong: a hidden card shown, a public attribute changed, the wrong seat's copy."""
    import copy as deep

    from p2pcards.engine import SPECTATOR
    from p2pcards.engine.dealer import is_view

    wrong = 0
    for game, players in (("go-out-girl", 3), ("out-of-this-world", 3), ("girl-and-robot", 3)):
        for state, copies in _copies_through_a_game(game, players, 4):
            for p, c in copies.items():
                assert is_view(state, c, p) and c == state.view(p)
                other = (p + 1) % players if p != SPECTATOR else 0
                assert not is_view(state, c, other) and c != state.view(other)
                hidden = [s for s, v in enumerate(c.values) if v is None]
                if hidden and state.values[hidden[0]] is not None:
                    shown = deep.deepcopy(c)
                    shown.values[hidden[0]] = state.values[hidden[0]]
                    assert not is_view(state, shown, p) and shown != state.view(p)
                    wrong += 1
                moved = deep.deepcopy(c)
                moved.zones = {**moved.zones, "nowhere": []}
                assert not is_view(state, moved, p) and moved != state.view(p)
    assert wrong > 50


def test_a_copy_that_diverges_is_still_caught_by_play_with_views():
    import pytest

    from p2pcards.bots.base import RandomBot
    from p2pcards.engine import LocalDealer, play

    state = new_game("go-out-girl", 3, {})
    mine = state.view(1)
    mine.zones = {**mine.zones, "nowhere": []}
    with pytest.raises(AssertionError, match="seat 1's own copy diverged"):
        play(state, [RandomBot(p, p) for p in range(3)], LocalDealer(1), views=True,
             copies={1: mine})
