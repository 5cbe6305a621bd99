"""Every action ``legal(p)`` lists passes ``check`` at every copy of the game: the seat's own, the
other seats', the spectator's and the full-information one -- and so does the same action as the
seat's program sends it (``disguise``: its cards picked among the equivalent ones). A listed move
refused anywhere stops an honest table naming the honest player (red team 10, finding #0).
"""

from __future__ import annotations

import asyncio
import os
import random

from p2pcards.engine import SPECTATOR, Action, Decide, Decision, LocalDealer, RuleViolation, project
from p2pcards.games import new_game
from p2pcards.replay import MOVES_START
from p2pcards.table import Table

LONG = os.environ.get("P2PCARDS_LONG") == "1"

# The red team's deterministic game (The Girl and the Robot, 3 seats, LocalDealer(1)): the
# decisions up to the one that was refused. Seat 0 (the Girl) is Blinded by the Evil Queen, who
# then Trades her an Ability Points 3 (face up to all, slot 36); she turns over a face-down card
# (slot 40): another Ability Points 3.
BLIND_GAME = [
    {"kind": "direction", "d": 1}, {"kind": "play", "card": "ap2", "slot": 34},
    {"kind": "show", "slots": [37]}, {"kind": "show", "slots": [40]},
    {"kind": "ability", "id": "girl_borrow"}, {"kind": "ally"},
    {"kind": "play", "card": "manipulate", "slot": 52}, {"kind": "cancel", "slot": 37},
    {"kind": "pass"}, {"kind": "pass"}, {"kind": "pass"}, {"kind": "play", "card": "lure", "slot": 38},
    {"kind": "pass"}, {"kind": "pass"}, {"kind": "lure", "slot": 7}, {"kind": "show", "slots": [51]},
    {"kind": "end", "draw": 1}, {"kind": "pass"}, {"kind": "safe"},
    {"kind": "play", "card": "blind", "slot": 53, "target": 0}, {"kind": "pass"}, {"kind": "pass"},
    {"kind": "play", "card": "ap1", "slot": 42}, {"kind": "play", "card": "spy", "slot": 39, "target": 2},
    {"kind": "pass"}, {"kind": "pass"}, {"kind": "play", "card": "trade", "slot": 33, "target": 0},
    {"kind": "pass"}, {"kind": "pass"}, {"kind": "choose", "slot": 36}, {"kind": "choose", "slot": 54},
    {"kind": "play", "card": "ap1", "slot": 54}, {"kind": "end", "draw": 1}, {"kind": "safe"},
    {"kind": "end", "draw": 1}, {"kind": "show", "slots": [36]}, {"kind": "pass"},
    {"kind": "defend", "weapon": 49}, {"kind": "position", "index": 0}, {"kind": "ally"},
    {"kind": "pass"}, {"kind": "flip", "slot": 46}, {"kind": "play", "card": "ap2", "slot": 46},
    {"kind": "flip", "slot": 40},
]


def _copies(st):
    return {**{q: st.view(q) for q in [*range(st.n_players), SPECTATOR]}, "full": st}


def _refusals(copies, p, action) -> dict:
    out = {}
    for q, c in copies.items():
        try:
            c.check(p, action)
        except RuleViolation as exc:
            out[q] = exc.reason
    return out


def _blind_state():
    st = new_game("girl-and-robot", 3)
    dealer = LocalDealer(1)
    moves = iter(BLIND_GAME)
    while (req := st.pending()) is not None:
        if isinstance(req, Decide):
            d = next(moves, None)
            if d is None:
                return st
            st.apply(Decision(req.player, Action.from_json(d)))
        else:
            st.apply(dealer.fulfil(st, req))
    raise AssertionError("the game ended before the blind player's flip")


def test_the_flipped_card_of_a_blind_player_may_be_played_with_its_twin_lower_in_the_hand():
    # Rulebook, Blind: "Choose a player. They must shuffle their hand, then keep playing with those
    # cards face down on the table until they draw a card." (docs/girl-and-robot.md: the owner
    # plays such a card by turning it over; it must then be played if it can be.)
    st = _blind_state()
    p = 0
    assert st.phase == "flipped" and st.task["slot"] == 40
    assert st.kind(40) == st.kind(36) == "ap3" and 36 in st.hand(p)  # the traded twin, lower
    play_it = Action("play", card="ap3", slot=40)
    assert st.legal(p) == [play_it]
    assert _refusals(_copies(st), p, play_it) == {}
    # the traded Ability Points 3 is not the card turned over: refused everywhere
    assert set(_refusals(_copies(st), p, Action("play", card="ap3", slot=36))) == \
        {0, 1, 2, SPECTATOR, "full"}
    assert st.disguise(p, play_it, random.Random(0)) == play_it  # the flipped card stays

    # and the seat's own program sends it (on main it stopped the table naming the Girl)
    sent = []

    class Honest:
        needs_view = True

        def decide(self, view, legal):
            return legal[0]

    class Wire:
        async def broadcast(self, topic, body):
            sent.append(body)

    t = Table("girl-and-robot", 3, {}, p, Wire(), None, Honest(), names=["a", "b", "c"],
              say=lambda line: None)
    t.state = st.view(p)
    assert asyncio.run(t._my_decision()) == Decision(p, play_it)
    # (every move states the moves it was made after: none yet)
    assert sent == [{"step": 0, "action": play_it.to_json(), "seen": MOVES_START.hex()}]


# (game, players) and the seeds of each; the long mode plays many more
TABLES = [("go-out-girl", 3), ("go-out-girl", 5), ("out-of-this-world", 3),
          ("out-of-this-world", 4), ("girl-and-robot", 3), ("girl-and-robot", 4),
          ("girl-and-robot", 2)]
SEEDS = 40 if LONG else 2
DRAWS = 3  # disguised versions of each listed action checked too


def _walk(game: str, players: int, seed: int) -> tuple[int, list]:
    """One game of uniformly random legal choices; every listed action (and DRAWS disguised
    versions of it) checked at every copy at every decision. Returns (actions checked, refusals)."""
    rng = random.Random(seed)
    st = new_game(game, players)
    dealer = LocalDealer(seed)
    copies = {q: st.view(q) for q in [*range(players), SPECTATOR]}
    checked, bad = 0, []
    for _ in range(100_000):
        req = st.pending()
        if req is None:
            return checked, bad
        if isinstance(req, Decide):
            p = req.player
            legal = copies[p].legal(p)
            every = {**copies, "full": st}
            for a in legal:
                tries = [a] + [copies[p].disguise(p, a, rng) for _ in range(DRAWS)]
                for b in dict.fromkeys(tries):
                    checked += 1
                    no = _refusals(every, p, b)
                    if no:
                        bad.append((game, players, seed, st.phase if hasattr(st, "phase") else "",
                                    a, b, no))
            ev = Decision(p, copies[p].disguise(p, rng.choice(legal), rng))
            st.apply(ev)
            for c in copies.values():
                c.apply(ev)
        else:
            before = st.clone()
            ev = dealer.fulfil(st, req)
            st.apply(ev)
            for q, c in copies.items():
                c.apply(project(ev, req, before, q))
    raise AssertionError(f"{game}: no end")


def test_every_listed_action_passes_check_at_every_copy():
    total, bad = 0, []
    for game, players in TABLES:
        for seed in range(SEEDS):
            n, b = _walk(game, players, seed)
            total += n
            bad += b
    assert total > 1000
    assert not bad, f"{len(bad)} listed actions refused, e.g. {bad[:3]}"

