"""A bot's choice does not depend on where its cards lie in the hand (red team 11, M2).

Hands are mixed and ``GameState.disguise`` hides the slot a move names, but a bot that broke a
tie by ``legal``'s order (slot order) or walked its hand in slot order let *which kind* of card
it played depend on the hand's arrangement, which the others cannot see and which reflects
history (which card was drawn when). On main (before ``Bot`` decided on ``blind_view``) this
test found, in the quick run: The Girl and the Robot random 60 of 141 decisions, normal 2 of
108; Out of This World random 1 of 146, easy 11 of 447, normal 1 of 322 (Go Out Girl none;
the red team's own run also found The Girl and the Robot's easy bot, 1 of 96).

The attack, as the red team ran it: at every decision of seeded bot games, put the cards the
seat knows in each hand into another order among the slots of the same ``known`` mask (the
slots no other seat can tell apart; in The Girl and the Robot not the card the decision is
about), ask a copy of the bot in the same state (the same rng) again, and compare what it
chose by card kind. Quick by default; ``P2PCARDS_LONG=1`` plays more games, and the strong
levels of the two games whose strong bot is fast enough.
"""

from __future__ import annotations

import copy
import logging
import os
import random

import pytest

from p2pcards.bots.base import Bot
from p2pcards.bots.registry import BOTS, LEVELS, make_bot
from p2pcards.engine import Action, Decide, Decision, LocalDealer
from p2pcards.games import new_game

LONG = os.environ.get("P2PCARDS_LONG") == "1"
TRIES = 6 if LONG else 3  # other arrangements asked at each decision


def _kind(game: str, v, s: int):
    """What a card is for the rules (two cards of one kind are interchangeable); a card the
    seat does not know stays where it is, so it is its slot."""
    c = v.values[s]
    if c is None:
        return f"slot {s}"
    if game == "go-out-girl":
        return v.number(c)
    if game == "girl-and-robot":
        return v.kind_of(c)
    return v._cls[c]


def _signature(game: str, v, a: Action) -> tuple:
    """The action with each hand card it names replaced by the card's kind."""
    want = (v.ACTION_ARGS or {}).get(a.kind) or {}
    out: list = [a.kind]
    for n, val in a.args:
        t = want.get(n) or want.get(n + "?")
        if t == "slot" and v.zone_of[val].startswith("hand"):
            out.append((n, _kind(game, v, val)))
        elif t == "slots":
            out.append((n, tuple(sorted((str(v.zone_of[s]), str(_kind(game, v, s)))
                                        if v.zone_of[s].startswith("hand") else ("", str(s))
                                        for s in val))))
        else:
            out.append((n, val))
    return tuple(out)


def _cells(game: str, v, seat: int) -> list[list[int]]:
    """The hand slots whose cards ``seat`` knows, by zone and ``known`` mask: written from the
    rules here, not from the engine's ``interchangeable``."""
    fixed: set = set()
    if game == "girl-and-robot" and v.task:
        fixed = {v.task.get("slot"), *(v.task.get("slots") or ())}
    cells: dict = {}
    for zone, slots in v.zones.items():
        if not zone.startswith("hand"):
            continue
        for s in slots:
            if v.known[s] >> seat & 1 and v.values[s] is not None and s not in fixed:
                cells.setdefault((zone, v.known[s]), []).append(s)
    return [c for c in cells.values() if len(c) >= 2]


def dependent_decisions(game: str, level: str, seeds, players: int = 3) -> tuple[int, int, list]:
    """(decisions, decisions whose kind changed with the arrangement, examples)."""
    rng = random.Random(11)
    decisions = dependent = 0
    examples: list = []
    for seed in seeds:
        st = new_game(game, players)
        bots = [make_bot(game, p, level, seed * 10 + p) for p in range(players)]
        dealer = LocalDealer(seed)
        while (req := st.pending()) is not None:
            if not isinstance(req, Decide):
                st.apply(dealer.fulfil(st, req, lambda by, sl, st=st, bots=bots:
                                       bots[by].arrange(st.view(by), sl)))
                continue
            p = req.player
            v = st.view(p)
            legal = v.legal(p)
            before = copy.deepcopy(bots[p])
            a = bots[p].decide(v, legal)
            assert a in legal, (seed, v.describe(a))  # as legal lists it, like any decision
            cells = _cells(game, v, p)
            if len(legal) > 1 and cells:
                decisions += 1
                for _ in range(TRIES):
                    w = v.clone()
                    for cell in cells:
                        vals = [v.values[s] for s in cell]
                        rng.shuffle(vals)
                        for s, x in zip(cell, vals, strict=True):
                            w.values[s] = x
                    b = copy.deepcopy(before).decide(w, w.legal(p))
                    if _signature(game, v, a) != _signature(game, w, b):
                        dependent += 1
                        examples.append((seed, v.describe(a), w.describe(b)))
                        break
            st.apply(Decision(p, v.disguise(p, a, rng)))
    return decisions, dependent, examples[:4]


SEEDS = range(6) if LONG else range(1)  # one game each quick: the old code failed on every one
CASES = [(g, lvl) for g in ("go-out-girl", "girl-and-robot", "out-of-this-world")
         for lvl in ("random", "easy", "normal")]
if LONG:
    # Go Out Girl's strong bot searches 12,000 decisions a move: too slow for many games here
    CASES += [("girl-and-robot", "strong"), ("out-of-this-world", "strong")]


@pytest.mark.parametrize("game,level", CASES)
def test_a_bot_chooses_the_same_cards_however_its_hand_lies(game, level, caplog):
    caplog.set_level(logging.INFO, logger="p2pcards.bots.base")
    seeds = SEEDS if level != "strong" else range(2)
    decisions, dependent, examples = dependent_decisions(game, level, seeds)
    assert decisions > 20, "the games made too few decisions to test"
    assert dependent == 0, f"{dependent} of {decisions} decisions changed with the " \
                           f"arrangement, e.g. {examples}"
    # no decision fell back to the real view (a game grouping cards its rules tell apart)
    assert not [r for r in caplog.records if r.name == "p2pcards.bots.base"]


def test_every_bot_of_every_level_decides_blind():
    """Every class the registry makes (and the random bot) has its ``decide`` wrapped, which
    any subclass of ``Bot`` gets; a seat's player that is not a ``Bot`` would not."""
    for game in BOTS:
        for level in LEVELS:
            bot = make_bot(game, 0, level, 1)
            assert isinstance(bot, Bot), (game, level)
            assert getattr(type(bot).decide, "__blind__", False), (game, level, type(bot))
    assert set(LEVELS) >= {lvl for t in BOTS.values() for lvl in t}


def test_the_blind_copy_is_one_for_every_arrangement_and_leaves_the_view_alone():
    """blind_view of two arrangements of one hand is the same copy (in the order drawn from the
    view's digest, and in card order); the view passed is not changed; each action of the copy's
    ``legal`` mapped back names the same cards and passes ``check``."""
    from p2pcards.bots.base import blind_view, map_slots

    st = new_game("out-of-this-world", 3)
    dealer = LocalDealer(4)
    bots = [make_bot("out-of-this-world", p, "easy", p) for p in range(3)]
    seen = 0
    while (req := st.pending()) is not None and seen < 30:
        if not isinstance(req, Decide):
            st.apply(dealer.fulfil(st, req))
            continue
        p = req.player
        v = st.view(p)
        snapshot = v.clone()
        cells = v.interchangeable(p)
        if cells:
            w = v.clone()
            for cell in cells:
                vals = [w.values[s] for s in cell][::-1]
                for s, x in zip(cell, vals, strict=True):
                    w.values[s] = x
            bv, back = blind_view(v, p)  # the bots' order, drawn from the view's digest
            bw, _ = blind_view(w, p)
            assert bv.values == bw.values
            assert blind_view(v, p, mixed=False)[0].values == \
                blind_view(w, p, mixed=False)[0].values
            assert v == snapshot
            for a in bv.legal(p):
                m = map_slots(v, a, back)
                v.check(p, m)
                named = [x for n, x in a.args if n in ("slot", "give", "keep")] + \
                    [s for n, x in a.args if n == "slots" for s in x]
                named_m = [x for n, x in m.args if n in ("slot", "give", "keep")] + \
                    [s for n, x in m.args if n == "slots" for s in x]
                assert sorted(bv.values[s] for s in named) == sorted(v.values[s] for s in named_m)
            seen += 1
        st.apply(Decision(p, bots[p].decide(v, v.legal(p))))
    assert seen >= 10
