"""Rules fidelity: an independent move generator, written from ``rules/out-of-this-world.txt`` (and
the house rules its doc page lists), run beside the engine over many seeded games (issue 14,
Deliver).

The generator reads the state's layout (zones, card values of the full-information copy, the
characters, Time, the Foes' and Items' data from ``cards.json``/``adventures``) but none of the
game's rule code. At every decision the moves it lists must equal the engine's, compared by what
they mean (an Item is its type and value; a Foe, a stack, a seat are themselves) rather than by
slot; after every move the state must be as the rulebook predicts (where the cards went, whose
turn it is, who starts each round, 20 cards a round, Time lost, discarding down, victory).

Quick by default (``FIDELITY_SEEDS`` games per configuration, seconds); set
``P2PCARDS_FIDELITY_SEEDS=60`` for a long run.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from p2pcards.engine import Decision, LocalDealer
from p2pcards.games.out_of_this_world import data as D
from p2pcards.games.out_of_this_world.game import Game
from tests.games.drive import settle

FIDELITY_SEEDS = int(os.environ.get("P2PCARDS_FIDELITY_SEEDS", "4"))
DATA = D.load()
WILD = D.WILD
CHARS = {c.key: c for c in DATA.characters}


class Table:
    """Reading the full-information state the way a player reads the table."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.cards = DATA.deck(g.config["adventure"])
        self.n = g.n_players

    def c(self, slot: int) -> D.CardDef:
        return self.cards[self.g.values[slot]]

    def sig(self, slot: int) -> tuple:
        c = self.c(slot)
        return (c.type, c.value) if c.is_item else ("foe", c.key)

    def zone(self, name: str) -> list[int]:
        return self.g.zones[name]

    def power(self, p: int, name: str) -> int:
        ch = self.g.chars[p]
        return 0 if ch is None else CHARS[ch["key"]].powers.get(name, 0)

    def forbids(self, p: int, do: str) -> bool:
        return any(self.c(f).has("while_in_play", do) for f in self.zone(f"foes{p}"))

    def left(self, p: int) -> int:
        return (p + 1) % self.n

    def others(self, p: int) -> list[int]:
        return [q for q in range(self.n) if q != p]

    def hand_limit(self, p: int) -> int:
        """"each player who has more than 5 cards in their hand must discard until they only have
        5 cards" -- with the characters', Items' and Foes' changes to it."""
        limit = self.power(p, "hand_limit") or 5
        limit += sum(e.n for s in self.zone(f"equip{p}") for e in self.c(s).fx("while_equipped")
                     if e.do == "hand_limit_plus")
        for f in self.zone(f"foes{p}"):
            for e in self.c(f).fx("while_in_play"):
                if e.do == "hand_limit":
                    limit = min(limit, e.n)
        return limit

    def foe_weight(self, p: int) -> int:
        return sum(max([e.n for e in self.c(f).fx("while_in_play") if e.do == "counts_as"] or [1])
                   for f in self.zone(f"foes{p}"))

    def points(self, p: int) -> int:
        return sum(self.c(s).value for s in self.zone(f"equip{p}"))


def same_type(types) -> bool:
    """Wild Items "may be played in sets as if they were any colour"."""
    return len({t for t in types if t != WILD}) <= 1


def covers(types: list[str], reqs: tuple[str, ...]) -> bool:
    """Whether Items of these types are exactly the set a vulnerability lists (one card each):
    a named type is met by that type or a wild, "any" by any Item."""
    if len(types) != len(reqs):
        return False
    left = Counter(types)
    for r in sorted(reqs, key=lambda r: r == "any"):
        if r == "any":
            continue
        if left[r]:
            left[r] -= 1
        elif left[WILD]:
            left[WILD] -= 1
        else:
            return False
    return True


def multisets(hand: list[tuple], size: int):
    """The distinct multisets of ``size`` cards (by signature) a hand holds."""
    have = Counter(hand)
    for combo in combinations_with_replacement(sorted(have), size):
        if all(combo.count(x) <= have[x] for x in set(combo)):
            yield combo


def moves(t: Table, p: int) -> set[tuple]:
    g = t.g
    step = g.step
    hand = [t.sig(s) for s in t.zone(f"hand{p}")]
    if step == "character":  # each player a character nobody has, on either side
        taken = {c["key"] for c in g.chars if c is not None}
        return {("character", k, side) for k in CHARS if k not in taken for side in (0, 1)}
    if step == "starter":  # "choose a player to equip any Item cards you begin the adventure with"
        return {("starter", q) for q in range(t.n)}
    if step == "declare":  # "If any of your cards are Foes, you must immediately place them"
        return {("foes", tuple(sorted(t.sig(s) for s in t.zone(f"hand{p}") if t.c(s).is_foe)))}
    if step == "discard":
        return {("discard", s) for s in hand}
    if step == "give":  # Slingshot: "Give all your hand cards to other players."
        return {("give", s, q) for s in hand for q in t.others(p)}
    if step == "take":
        return take_moves(t, p)
    assert step == "action", step
    out: set[tuple] = {("done",)}
    items = [s for s in t.zone(f"hand{p}")]
    if not t.forbids(p, "no_pass"):  # "play 2 Item cards ... that have the same value or type"
        for a, b in combinations(items, 2):
            ca, cb = t.c(a), t.c(b)
            if ca.value != cb.value and not same_type([ca.type, cb.type]):
                continue
            if ca.value == cb.value or t.power(p, "pass_any"):
                gives = [a, b]  # "If both cards have the same value, you choose"
            else:
                gives = [a if ca.value < cb.value else b]  # "give the lower-valued card"
            for give in gives:
                for q in t.others(p):
                    out.add(("pass", tuple(sorted((t.sig(a), t.sig(b)))), t.sig(give), q))
    if not t.forbids(p, "no_equip"):  # "play 3 Item cards ... same value or the same type"
        for trio in combinations(items, 3):
            cs = [t.c(s) for s in trio]
            if len({c.value for c in cs}) != 1 and not same_type([c.type for c in cs]):
                continue
            low = min(c.value for c in cs)  # "equip the lowest-valued card in the set"
            sigs = tuple(sorted(t.sig(s) for s in trio))
            for s, c in zip(trio, cs, strict=True):
                if c.value == low or t.power(p, "equip_any"):
                    out.add(("equip", sigs, t.sig(s)))
    # "You can only defeat your own Foes (though ... Malala and Bart ...)"
    seats = range(t.n) if t.power(p, "defeat_others_foes") else [p]
    for q in seats:
        for f in t.zone(f"foes{q}"):
            foe = t.c(f)
            for twice in (False, True) if foe.set_twice_removes else (False,):
                reqs = foe.vulnerability * (2 if twice else 1)
                for combo in multisets(hand, len(reqs)):
                    if covers([typ for typ, _ in combo], reqs):
                        out.add(("defeat", f, combo, twice))
    out |= spend_moves(t, p)
    return out


def take_moves(t: Table, p: int) -> set[tuple]:
    g = t.g
    tops = {i: t.zone(f"stack{i}")[-1] for i in range(DATA.stacks) if t.zone(f"stack{i}")}
    foes = [i for i, s in tops.items() if t.c(s).is_foe]
    # "If there are any Foes visible on the stacks, you must take one of them"
    out = {("take", i, False) for i in (foes or tops)}
    if foes and g.sneaks[p] < t.power(p, "sneak"):
        out |= {("take", i, True) for i in tops if i not in foes}
    # "You can even run away if you don't have any cards" -- unless a Foe forbids it, and (house
    # rule) not when everyone in turn has legged it since a card was last taken
    if not t.forbids(p, "no_leg_it") and g.legs < t.n:
        out.add(("leg_it",))
    return out


def spend_moves(t: Table, p: int) -> set[tuple]:
    """"Once you have equipped an Item, you can use the Item's ability": p's own unspent Items."""
    g = t.g
    if t.forbids(p, "no_spend"):
        return set()
    out: set[tuple] = set()
    for item in t.zone(f"equip{p}"):
        e = t.c(item).spend()
        if e is None or item in g.spent:
            continue
        if e.do == "give_hand":
            if t.zone(f"hand{p}"):
                out.add(("spend", item, None, None))
        elif e.do == "gain_time":
            if g.time < g.time_max:
                out.add(("spend", item, None, None))
        elif e.do == "peek_stack":
            for i in range(DATA.stacks):
                if any(not g.known[s] >> p & 1 for s in t.zone(f"stack{i}")):
                    out.add(("spend", item, None, i))
        else:
            seats = range(t.n) if e.whose == "any" and e.do != "move_foe_left" else [p]
            for q in seats:
                for f in t.zone(f"foes{q}"):
                    c = t.c(f)
                    if (e.card is None or c.key == e.card) and (e.difficult or not c.difficult):
                        out.add(("spend", item, f, None))
    return out


def key(t: Table, a) -> tuple:
    k = a.kind
    if k == "character":
        return ("character", a.key, a.side)
    if k == "starter":
        return ("starter", a.seat)
    if k == "foes":
        return ("foes", tuple(sorted(t.sig(s) for s in a.slots)))
    if k in ("discard",):
        return ("discard", t.sig(a.slot))
    if k == "give":
        return ("give", t.sig(a.slot), a.to)
    if k == "take":
        return ("take", a.stack, bool(a.get("sneak", False)))
    if k == "pass":
        return ("pass", tuple(sorted(t.sig(s) for s in a.slots)), t.sig(a.give), a.to)
    if k == "equip":
        return ("equip", tuple(sorted(t.sig(s) for s in a.slots)), t.sig(a.keep))
    if k == "defeat":
        return ("defeat", a.foe, tuple(sorted(t.sig(s) for s in a.slots)), bool(a.get("twice", False)))
    if k == "spend":
        return ("spend", a.item, a.get("foe"), a.get("stack"))
    return (k,)


def loses_time_by_itself(t: Table) -> bool:
    return any(e.do == "lose_time" for c in t.cards for e in c.effects)


def run_one(players: int, options: dict, seed: int) -> int:
    g = Game.new(players, options)
    t = Table(g)
    dealer = LocalDealer(seed)
    rng = random.Random(seed)
    decisions = 0
    rnd = {"round": 0, "first": None, "last": None, "takes": 0, "full": False, "time": None,
           "gained": False}

    settle(g, dealer)
    while (req := g.pending()) is not None:
        p = req.player
        engine = {key(t, a) for a in g.legal(p)}
        rule = moves(t, p)
        assert engine == rule, (f"seat {p} step {g.step}: engine-only {sorted(engine - rule)}, "
                                f"rulebook-only {sorted(rule - engine)}")
        if g.step == "take" and g.phase == "go":
            if g.round != rnd["round"]:  # a new round
                if rnd["round"]:
                    # "The next round will begin with the player to the left of the current
                    # Vocal Player" (the round's first player moves on one seat)
                    assert p == t.left(rnd["first"]), f"round {g.round} starts at seat {p}"
                    # "Players take turns ... until all 20 cards have been taken"
                    assert not rnd["full"] or rnd["takes"] == DATA.stacks * DATA.stack_size
                    # "discard a number of Time tokens ... equal to the number of Foes they have"
                    lost = rnd["time"] - g.time
                    most = max(t.foe_weight(q) for q in range(players))
                    if not rnd["gained"]:
                        assert (lost >= most if loses_time_by_itself(t) else lost == most), (lost, most, rnd)
                    # "each player who has more than 5 cards in their hand must discard"
                    for q in range(players):
                        assert len(t.zone(f"hand{q}")) <= t.hand_limit(q)
                    if all(w["kind"] == "equip_points" for w in g._adv.win):
                        need = DATA.points[players]
                        assert not all(t.points(q) >= need for q in range(players)), "not won?"
                rnd.update(round=g.round, first=p, takes=0, gained=False,
                           full=all(len(t.zone(f"stack{i}")) == DATA.stack_size
                                    for i in range(DATA.stacks)))
            elif rnd["last"] is not None:
                # "When you finish your turn, pass the Vocal Player token to the player on your left"
                assert p == t.left(rnd["last"]), f"seat {p} plays after seat {rnd['last']}"
            rnd["last"] = p
        legal = g.legal(p)
        a = legal[rng.randrange(len(legal))]
        before_top = None
        if a.kind == "take":
            before_top = t.zone(f"stack{a.stack}")[-1]
        g.apply(Decision(p, a))
        decisions += 1
        # where the cards went, at once (before any effect or mixing)
        if a.kind == "take":
            rnd["takes"] += 1
            # Foes "to the right of your Character card"; Items "into your hand"
            want = f"foes{p}" if t.c(before_top).is_foe else f"hand{p}"
            assert g.zone_of[before_top] == want
        elif a.kind == "leg_it":  # "discarding your entire hand of cards"
            assert not t.zone(f"hand{p}")
        elif a.kind == "pass":  # "The card you pass goes into the receiving player's hand.
            assert g.zone_of[a.give] == f"hand{a.to}"  # The other card is discarded."
            assert all(g.zone_of[s] == "discard" for s in a.slots if s != a.give)
        elif a.kind == "equip":
            assert g.zone_of[a.keep] == f"equip{p}"
            assert all(g.zone_of[s] == "discard" for s in a.slots if s != a.keep)
        elif a.kind == "defeat":  # "The Item cards you play to defeat a Foe are discarded"
            assert all(g.zone_of[s] == "discard" for s in a.slots)
        elif a.kind == "spend":  # "tuck the Item under the character card"
            assert a.item in g.spent and g.zone_of[a.item] == f"equip{p}"
            rnd["gained"] |= t.c(a.item).spend().do == "gain_time"
        elif a.kind == "give":
            assert g.zone_of[a.slot] == f"hand{a.to}"
        if g.phase == "go":
            rnd["time"] = g.time  # Time at the round's last decision, before Taking Care of Things
        settle(g, dealer)
        if a.kind == "defeat" and g.result is None:  # "along with the Foe itself"
            assert not g.zone_of[a.foe].startswith("foes")
    if g.result == "won":  # "Each player must have at least ... points worth of equipped Items"
        if any(w["kind"] == "equip_points" for w in g._adv.win):
            assert all(t.points(q) >= DATA.points[players] for q in range(players))
    else:
        assert g.time == 0 or "exhausted" in g.reason
    return decisions


CONFIGS = [(n, {"difficulty": d}) for n in (3, 4, 5) for d in ("standard", "tough")] + [
    (4, {"adventure": a, "difficulty": "tough"}) for a in (
        "birthday-bash", "hit-the-books", "night-school", "stained-glass", "confrontation")]


@pytest.mark.parametrize("players,options", CONFIGS,
                         ids=[f"{n}-{'-'.join(o.values())}" for n, o in CONFIGS])
def test_engine_moves_equal_the_rulebooks(players, options):
    total = sum(run_one(players, options, seed) for seed in range(FIDELITY_SEEDS))
    assert total > 20 * FIDELITY_SEEDS
