"""The search against the others' known policy (solver/go_out_girl/respond.py, docs/solver.md,
Go Out Girl, fourteenth pass).

It is checked against an independent search run on the engine itself: the seat's every legal
action tried (cloned and applied, no memo, no model), every other seat deciding by the real
heuristic bot's code (``p2pcards.bots.go_out_girl.GoOutGirlBot`` on its own view) -- so the
search must model the bots exactly, not only search right. And on a hand-made position it finds
the win a forced-win search (``exact.ExactSolver``) rightly denies: a win that exists only
because the other seat's play is known."""

from __future__ import annotations

import itertools
import random

from p2pcards.bots.go_out_girl import GoOutGirlBot
from p2pcards.engine import Decide, LocalDealer, Shuffle
from p2pcards.engine.requests import Decision
from solver.errors import PositionError
from solver.go_out_girl.convert import battle_from_game
from solver.go_out_girl.exact import ExactSolver
from solver.go_out_girl.model import OVER
from solver.go_out_girl.policy import heuristic, rollout, tuned
from solver.go_out_girl.position import build, parse
from solver.go_out_girl.respond import Expectimax, Responder, advance, pool_from_deck

from .test_gog_exact import Budget, Reshuffle, random_position


def engine_search(g, me: int, counter: list[int], limit: int, base: int | None = None) -> bool:
    """Is there a line of ``me``'s moves that wins, the others playing the heuristic bot?"""
    dealer = LocalDealer(0)
    if base is None:
        base = len(g.battle_winners)
    bots = {}
    while True:
        if len(g.battle_winners) > base:
            return g.battle_winners[-1] == me
        req = g.pending()
        if isinstance(req, Shuffle):
            raise Reshuffle()
        if not isinstance(req, Decide):
            g.apply(dealer.fulfil(g, req))
            continue
        p = req.player
        if p == me:
            break
        bot = bots.setdefault(p, GoOutGirlBot(p, 0))
        view = g.view(p)
        g.apply(Decision(p, bot.decide(view, view.legal(p))), trusted=True)
    if not g.alive[me]:
        return False
    counter[0] += 1
    if counter[0] > limit:
        raise Budget()
    for a in g.legal(me):
        c = g.clone()
        c.apply(Decision(me, a), trusted=True)
        if engine_search(c, me, counter, limit, base):
            return True
    return False


def _positions(count: int, seed: int):
    rng = random.Random(seed)
    out = []
    tries = 0
    while len(out) < count and tries < 2000:
        tries += 1
        data = random_position(rng)
        try:
            pos = parse(data)
            g = build(pos)
        except PositionError:
            continue
        try:
            truth = engine_search(g.clone(), pos.to_move, [0], 3000)
        except (Reshuffle, Budget):
            continue
        out.append((data, pos, g, truth))
    return out


def test_responder_agrees_with_a_search_on_the_engine_against_the_real_bot():
    compared = wins = 0
    for data, pos, g, truth in _positions(80, 7):
        root = battle_from_game(g)
        r = Responder(pos.to_move)
        got = r.solve(root)
        assert got is not None  # the budget is ample for these
        assert bool(got) == truth, data
        if got:
            # the line it returns is a real win: follow it, the others by the model's heuristic
            b = root.copy()
            for key, a in r.line(root):
                assert b.key() == key and a in b.legal()
                b = r.child(b, a)
            assert b.phase == OVER and b.winner == pos.to_move
        compared += 1
        wins += bool(got)
    assert compared >= 80
    assert 5 <= wins <= compared - 5, "the sample should hold both wins and losses"


# Seat 1 (Nerai, revealed) holds 1 and 10 and leads; seat 0 (Ten, revealed) holds 5 and 12. Against
# every play of seat 0 there is no forced win: lead the 1 and a 12 on it keeps the 10 from
# following. But the heuristic bot follows a single with its lowest card that beats it: lead the
# 1, it answers with the 5, and the 10 on the 5 empties seat 1's hand.
POSITION = {"format": 1, "game": "go-out-girl",
            "seats": [{"hand": ["12", "5"], "character": "ten", "revealed": True, "damage": 2},
                      {"hand": ["1", "10"], "character": "nerai", "revealed": True, "damage": 3}],
            "to_move": 1,
            "deck": ["7", "4", "1", "8", "11", "5", "7", "2", "3", "4", "11", "6", "9", "5", "11",
                     "4", "13", "9"]}


def test_a_win_against_the_known_policy_that_no_forced_win_search_finds():
    pos = parse(POSITION)
    g = build(pos)
    root = battle_from_game(g)
    exact = ExactSolver(root).solve()
    r = Responder(1)
    got = r.solve(root)
    assert engine_search(g.clone(), 1, [0], 10_000)
    assert got == ("P", 1, 1, ((1, 1),)) and not exact.wins
    assert [a for _, a in r.line(root)] == [("P", 1, 1, ((1, 1),)), ("P", 10, 1, ((10, 1),))]


def _small(count: int, seed: int, deck: int = 4):
    """Positions of the sample above with a deck of ``deck`` cards and no discard pile (so
    nothing is ever reshuffled)."""
    out = []
    for _data, pos, g, _truth in _positions(count, seed):
        b = battle_from_game(g)
        b.deck = b.deck[:deck]
        b.discard = [0] * 14
        out.append((b, pos.to_move))
    return out


def test_expectimax_lies_between_the_tuned_policy_and_knowing_the_deck():
    """With the deck's order unknown, the best expected result is at least what the tuned policy
    gets on average over every order of the deck, and at most what a seat that knew the order
    would get (the share of orders where a winning line exists)."""
    checked = strict = 0
    for b, me in _small(30, 11):
        orders = sorted(set(itertools.permutations(b.deck)))
        lower = upper = 0.0
        for order in orders:
            c = b.copy()
            c.deck = list(order)
            lower += rollout(c.copy(), me, 10_000, heuristic, mine=tuned)[0]
            upper += Responder(me, 100_000).wins(c)
        lower /= len(orders)
        upper /= len(orders)
        e = Expectimax(me, 200_000)
        best = max(e.scores(pool_from_deck(b), b.legal()).values())
        assert lower - 1e-9 <= best <= upper + 1e-9
        checked += 1
        strict += lower < best or best < upper
    assert checked == 30 and strict >= 1


def test_a_deck_of_one_kind_has_no_order_to_know():
    for b, me in _small(12, 5):
        b.deck = [7] * len(b.deck)
        e = Expectimax(me, 200_000)
        best = max(e.scores(pool_from_deck(b), b.legal()).values())
        assert best == float(Responder(me, 200_000).wins(b))


def test_past_the_chance_depth_it_plays_out():
    """chance_depth 0: every draw is scored by playouts, deterministic for a seed, in [0, 1]."""
    for b, me in _small(6, 13, deck=8):
        d = pool_from_deck(b)
        one = Expectimax(me, 50_000, chance_depth=0, rollouts=3, seed=4).scores(d, b.legal())
        two = Expectimax(me, 50_000, chance_depth=0, rollouts=3, seed=4).scores(d, b.legal())
        assert one == two and all(0.0 <= v <= 1.0 for v in one.values())


def test_advance_plays_the_others_until_the_seat_decides():
    pos = parse(POSITION)
    b = battle_from_game(build(pos))
    b.apply(("P", 1, 1, ((1, 1),)))  # lead the 1: seat 0 answers with its lowest beating card
    advance(b, 1)
    assert b.turn == 1 and b.top[:2] == (5, 1) and b.hands[0][12] == 1


def test_the_known_policy_endgame_of_the_advisor_never_reads_the_hidden_cards(monkeypatch):
    """``advisor.RESPOND`` (off by default) draws its deals from the view alone: two full states
    with the same view for the seat give the same advice and reason, and that reason is the
    known-policy endgame's."""
    from solver.go_out_girl import advisor
    from solver.go_out_girl.advisor import advise

    from .bot_games import bot_decision
    from .test_gog_hints import other_hands, swap_hidden

    monkeypatch.setattr(advisor, "RESPOND", True)
    rng = random.Random(3)
    found = 0
    for seed in range(40):
        g, p = bot_decision("go-out-girl", 4, seed,
                            lambda g, p, legal: g.phase == "turn" and len(legal) > 1 and sum(
                                len(g.hand(q)) for q in range(g.n_players) if g.alive[q]) <= 16)
        if g is None:
            continue
        other = swap_hidden(g, p, rng)
        if other_hands(other, p) == other_hands(g, p):
            continue
        assert other.view(p) == g.view(p)
        a = advise(g.view(p), g.view(p).legal(p), seed=1, budget=2000)
        b = advise(other.view(p), other.view(p).legal(p), seed=1, budget=2000)
        assert a.text == b.text and a.reason == b.reason
        found += "if the others play as the easy bots do" in a.reason
        if found >= 3:
            break
    assert found >= 3
