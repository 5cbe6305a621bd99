"""Rules fidelity: an independent move generator, written from ``rules/go-out-girl.txt`` alone, run
beside the engine over many seeded games (issue 14, Deliver).

The generator reads only the state's public layout (zones, card values of the full-information
copy, the tableau pile, damage, who is revealed) and the card data (``cards.json``: damage icons,
lives, hand sizes); it does not call the game's rule code. At every decision the moves it lists
must equal the engine's, compared as what they mean (kind, the numbers of the cards, the number
and count claimed) rather than by slot; after every move the state must be as the rulebook
predicts (damage taken, the tableau pile, whose turn it is, battles won).

Quick by default (``FIDELITY_SEEDS`` games per player count, a few seconds); set
``P2PCARDS_FIDELITY_SEEDS=300`` for a long run.
"""

from __future__ import annotations

import os
import random
from itertools import combinations_with_replacement

import pytest

from p2pcards.engine import Decide, Decision, LocalDealer
from p2pcards.games.go_out_girl.data import CHARACTER_KEYS, default
from p2pcards.games.go_out_girl.game import Game
from tests.games.drive import settle

FIDELITY_SEEDS = int(os.environ.get("P2PCARDS_FIDELITY_SEEDS", "12"))
DATA = default()
NERAI, TOYOKO, NIWA, SHIAN, SATSUKI, KIRA, TEN, KYOKO = (CHARACTER_KEYS.index(k) for k in (
    "nerai", "toyoko", "niwa", "shian", "satsuki", "kira", "ten", "kyoko"))
B = DATA.n_battle_cards


# ---- reading a card, from the deck composition ("Numbers 1~13 x 6 each, plus Guard x 8") ------
def number(card: int) -> int:
    """1..13, 0 for a Guard, -1 for a character card."""
    if card >= B:
        return -1
    n = card // DATA.copies
    return n + 1 if n < 13 else 0


def character(g: Game, p: int) -> int:
    return (g.values[g.zones[f"char{p}"][0]] - B) % 8


def hand_numbers(g: Game, p: int) -> list[int]:
    return sorted(number(g.values[s]) for s in g.zones[f"hand{p}"])


def key(g: Game, a) -> tuple:
    """What an action means, independent of which copy of a card it names."""
    if a.kind == "character":
        return ("character", (g.values[a.slot] - B) % 8)
    if a.kind == "play":
        return ("play", tuple(sorted(number(g.values[s]) for s in a.slots)), a.number, a.count)
    if a.kind == "reset":
        return ("reset", tuple(sorted(number(g.values[s]) for s in a.slots)))
    if a.kind in ("guard", "damage", "discard", "give"):
        return (a.kind, number(g.values[a.slot]))
    return (a.kind,)


# ---- the rulebook's moves -----------------------------------------------------------------------
def plays(hand: list[int], top: dict | None, rev: int | None) -> set[tuple]:
    """"play the same number of cards as the current tableau pile but with a higher number" (any
    same-number cards when leading), with the revealed character's ability."""
    counts = {n: hand.count(n) for n in set(hand) if n > 0}
    out: set[tuple] = set()
    if rev == KYOKO:  # "You can only play one card, but it may be treated as ... two cards"
        for n in counts:
            if top is None:
                out |= {("play", (n,), n, 1), ("play", (n,), n, 2)}
            elif top["count"] <= 2 and n > top["number"]:
                out.add(("play", (n,), n, top["count"]))
        return out
    for n, k in counts.items():
        if top is None:
            out |= {("play", (n,) * c, n, c) for c in range(1, k + 1)}
        elif k >= top["count"] and n > top["number"]:
            out.add(("play", (n,) * top["count"], n, top["count"]))
    if rev == NERAI and (top is None or top["number"] < 6):  # "4/5/6 ... treated as [Number 6]"
        pool = [n for n in hand if n in (4, 5, 6)]
        sizes = range(1, len(pool) + 1) if top is None else [top["count"]]
        for c in sizes:
            for combo in combinations_with_replacement((4, 5, 6), c):
                if all(combo.count(x) <= pool.count(x) for x in (4, 5, 6)):
                    out.add(("play", combo, 6, c))
    if rev == TOYOKO and 1 in counts:  # "All number 1 cards may be treated as [Number 14]"
        sizes = range(1, counts[1] + 1) if top is None else (
            [top["count"]] if top["number"] < 14 and counts[1] >= top["count"] else [])
        out |= {("play", (1,) * c, 14, c) for c in sizes}
    return out


def moves(g: Game, p: int) -> set[tuple]:
    phase, hand, top, rev = g.phase, hand_numbers(g, p), g.top, g.revealed[p]
    if phase == "choose":
        return {("character", (g.values[s] - B) % 8) for s in g.zones[f"chars{p}"]}
    if phase in ("damage", "discard"):
        return {(phase, n) for n in hand}
    if phase == "give":  # Ten: "choose one card from your hand and give it" (optional: house rule)
        return {("give", n) for n in hand} | {("keep",)}
    out = plays(hand, top if phase == "turn" else None, rev)
    if 0 in hand:  # "The "Guard" card can be played regardless of the number of cards"
        out.add(("guard", 0))
    if phase == "lead":  # after Shian's Reset: "play a new tableau card from your hand"
        return out
    if rev is None:  # "reveal their character face up at any time during their turn"
        out.add(("reveal",))
    if top is not None:
        ch = character(g, p)
        if rev == SHIAN:  # "3 cards with numbers 2/3 in any combination"
            for twos in range(4):
                if twos <= hand.count(2) and 3 - twos <= hand.count(3):
                    out.add(("reset", (2,) * twos + (3,) * (3 - twos)))
        if rev is None and ch == KIRA:
            out.add(("barrier",))
        # "if the total damage ... equals or exceeds the life of the character ... eliminated"
        lethal = g.damage[p] + top["damage"] >= DATA.characters[ch].life
        out.add(("withdraw",) if lethal else ("pass",))
    return out


def next_alive(g: Game, p: int) -> int:
    n = g.n_players
    return next(q for q in ((p + i) % n for i in range(1, n + 1)) if g.alive[q])


def damage_of(number_: int, owner_rev: int | None) -> int:
    # "Add 1 ● to cards you play, except Number 13 card." (Satsuki)
    return DATA.damage[number_] + (1 if owner_rev == SATSUKI and number_ != 13 else 0)


# ---- the run ------------------------------------------------------------------------------------
def run_one(players: int, seed: int) -> int:
    g = Game.new(players)
    dealer = LocalDealer(seed)
    rng = random.Random(seed)
    decisions = 0
    last_turn: dict | None = None  # the last "turn" decision: who, and the pile it faced

    settle(g, dealer)
    while (req := g.pending()) is not None:
        p = req.player
        engine = {key(g, a) for a in g.legal(p)}
        assert engine == moves(g, p), (f"seat {p} phase {g.phase}: engine-only "
                                       f"{sorted(engine - moves(g, p))}, rulebook-only "
                                       f"{sorted(moves(g, p) - engine)}")
        if g.phase == "turn" and (last_turn is None or last_turn["p"] != p
                                  or last_turn["battle"] != g.battle):
            # a new turn: "each player then takes a turn in clockwise order" (the eliminated are
            # skipped); "When all players except the person who played the tableau pile have
            # passed consecutively, discard all cards in the center field."
            if last_turn is not None and last_turn["battle"] == g.battle:
                q = next_alive(g, last_turn["p"])
                assert p == q, f"turn went to seat {p}, not {q}"
                if last_turn["owner"] == q:
                    assert g.top is None, "everyone else passed: the field is cleared"
            elif last_turn is not None:
                # "a new battle ... with the person to the left of the player who won"
                assert p == (g.battle_winners[-1] + 1) % players
            last_turn = {"p": p, "battle": g.battle, "owner": (g.top or {}).get("owner")}
        before = {"damage": list(g.damage), "wins": list(g.wins), "top": g.top,
                  "hand": len(g.zones[f"hand{p}"]), "alive": list(g.alive)}
        legal = g.legal(p)
        a = legal[rng.randrange(len(legal))]
        meaning = key(g, a)
        g.apply(Decision(p, a))
        decisions += 1
        if a.kind == "pass":  # "you will receive damage, as shown on the cards on the tableau"
            assert g.damage[p] == before["damage"][p] + before["top"]["damage"]
        settle(g, dealer)
        if g.wins != before["wins"]:  # the battle is over: "that player immediately wins"
            assert sum(g.wins) == sum(before["wins"]) + 1
            if a.kind == "withdraw":  # "All players except you have been eliminated."
                assert sum(before["alive"]) == 2 and g.wins[p] == before["wins"][p]
            else:  # "No cards in hand"
                assert a.kind in ("play", "guard", "barrier", "give", "reset")
                assert g.wins[p] == before["wins"][p] + 1
            continue
        if a.kind == "play" and last_turn is not None:
            last_turn["owner"] = p  # she played the tableau pile now
        if a.kind == "play":
            _, cards, num, count = meaning
            assert g.top is not None and (g.top["number"], g.top["count"], g.top["owner"]) == \
                (num, count, p)
            assert g.top["damage"] == damage_of(num, g.revealed[p])
            # "face up onto the center field (covering the current tableau pile)"
            assert sorted(number(g.values[s]) for s in g.top["slots"]) == list(cards)
            assert set(g.top["slots"]) <= set(g.zones["field"])
            assert len(g.zones[f"hand{p}"]) == before["hand"] - len(cards)
        elif a.kind == "guard":  # "you may pass without taking damage. Then immediately discard it."
            assert g.damage == before["damage"] and len(g.zones[f"hand{p}"]) == before["hand"] - 1
        elif a.kind == "withdraw":
            assert not g.alive[p] and g.revealed[p] is not None
        elif a.kind == "barrier":  # "pass without taking damage ... discard cards ... equal"
            assert g.damage == before["damage"] and g.revealed[p] == KIRA
        elif a.kind == "reset":
            assert g.top is None and g.phase == "lead" and g.pending() == Decide(p)
    assert g.winner is not None and g.wins[g.winner] == DATA.wins_needed[players]
    return decisions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_engine_moves_equal_the_rulebooks(players):
    total = sum(run_one(players, seed) for seed in range(FIDELITY_SEEDS))
    assert total > 100 * FIDELITY_SEEDS  # whole matches were played
