"""The opponent model a Go Out Girl bot learns over a match, from its own successive views."""

from __future__ import annotations

import random

from p2pcards.bots.base import RandomBot
from p2pcards.bots.go_out_girl import GoOutGirlBot
from p2pcards.engine import Decide, Decision, LocalDealer
from p2pcards.games import new_game
from solver.go_out_girl import bots as solver_bots
from solver.go_out_girl.model import OVER
from solver.go_out_girl.opponents import TableMemory
from solver.go_out_girl.policy import rollout, tuned
from solver.go_out_girl.tune import deal

from .test_gog_hints import position, swap_hidden


def watched_match(seed: int, opponent, me: int = 0) -> TableMemory:
    """A whole 4-player match: the heuristic bot in seat ``me`` with a memory fed each view it
    is handed (and nothing else), ``opponent`` bots elsewhere. The memory at the end."""
    g = new_game("go-out-girl", 4)
    dealer = LocalDealer(seed)
    agents = [opponent(q, seed * 10 + q) for q in range(4)]
    agents[me] = GoOutGirlBot(me, seed)
    memory = TableMemory(me, 4)
    for _ in range(20_000):
        req = g.pending()
        if req is None:
            break
        if isinstance(req, Decide):
            p = req.player
            view = g.view(p)
            legal = view.legal(p)
            if p == me:
                memory.observe(view, seed=view.battle)
            g.apply(Decision(p, agents[p].decide(view, legal)))
        else:
            g.apply(dealer.fulfil(g, req))
    assert g.pending() is None
    return memory


def test_random_players_are_told_from_heuristic_ones():
    """Over one match the record of what the seat saw (the piles each seat played, the piles it
    did not beat) favours the right model: a uniform random player, or the heuristic bot the
    search assumed until now. The seat just before this one (whose every play and refusal it
    sees) is told apart in every match; over all seats the playouts' share of random moves is
    mostly right."""
    rnd_noise, heu_noise = [], []
    for seed in range(1, 7):
        rnd = watched_match(seed, RandomBot)
        heu = watched_match(seed, GoOutGirlBot)
        assert rnd.facts[3] >= 5 and heu.facts[3] >= 5
        assert rnd.llr[3] < heu.llr[3] and heu.llr[3] > 0, (seed, rnd.llr, heu.llr)
        assert rnd.noise()[3] > heu.noise()[3]
        assert rnd.noise()[0] == heu.noise()[0] == 0.0  # never the seat itself
        rnd_noise += rnd.noise()[1:]
        heu_noise += heu.noise()[1:]
    assert sum(rnd_noise) / len(rnd_noise) > 0.5
    assert sum(heu_noise) / len(heu_noise) < 0.25


def test_memory_reads_the_view_only():
    """Two full states with the same view for the seat (other hands, deck order, face-down
    characters swapped) give the same facts and the same model."""
    rng = random.Random(11)
    checked = 0
    for seed, skip in [(1, 4), (2, 8), (3, 12), (5, 6)]:
        full, p = position(seed, phase="turn", skip=skip)
        if full.top is None:
            continue
        other = swap_hidden(full, p, rng)
        a, b = TableMemory(p, 4), TableMemory(p, 4)
        assert a.observe(full.view(p), seed=3) == b.observe(other.view(p), seed=3) > 0
        assert a.llr == b.llr and a.facts == b.facts
        assert a.observe(full.view(p), seed=3) == 0  # each fact counts once
        checked += 1
    assert checked >= 2


def test_rollout_noise_per_seat():
    """A per-seat noise list of zeros is the plain model (same playout, same random numbers);
    noise 1 for one seat changes how that seat plays and no other seat's share of random moves."""
    for s in range(5):
        a = rollout(deal(s), 0, 200, noise=0.0, rng=random.Random(s), mine=tuned)
        b = rollout(deal(s), 0, 200, noise=[0.0] * 4, rng=random.Random(s), mine=tuned)
        assert a == b
    differs = 0
    for s in range(20):
        b1, b2 = deal(s), deal(s)
        rollout(b1, 0, 400, noise=[0.0, 0.0, 0.0, 0.0], rng=random.Random(s))
        rollout(b2, 0, 400, noise=[0.0, 0.0, 0.0, 1.0], rng=random.Random(s))
        assert b1.phase == OVER and b2.phase == OVER
        differs += (b1.winner, b1.hands) != (b2.winner, b2.hands)
    assert differs >= 10


def record_advice(monkeypatch, *fields: str) -> list[tuple]:
    """Replace the bots' ``advise`` by one that plays the first legal move and records, for
    each call, the keyword arguments named (``phase``: the view's phase)."""
    seen: list[tuple] = []

    def fake_advise(view, legal, **kw):
        seen.append(tuple(view.phase if f == "phase" else kw[f] for f in fields))
        return type("A", (), {"action": legal[0]})()

    monkeypatch.setattr(solver_bots, "advise", fake_advise)
    return seen


def decide_at_a_heuristic_then_a_random_table() -> None:
    """One turn decided by a strong bot whose memory finds every other seat heuristic, then
    the same turn with every other seat found random."""
    full, p = position(2, phase="turn", skip=8)
    view = full.view(p)
    bot = solver_bots.StrongBot(p, 0)
    bot.memory = TableMemory(p, 4)
    bot.memory.llr = [10.0] * 4  # every other seat plays like the heuristic
    bot.decide(view, view.legal(p))
    bot.memory.llr = [-10.0] * 4  # every other seat plays at random
    bot.decide(view, view.legal(p))


def test_strong_bot_keeps_its_memory_over_the_match(monkeypatch):
    """The strong bot records the facts of each view it decides on, and only when the model is
    switched on."""
    monkeypatch.setattr(solver_bots.StrongBot, "budget", 300)
    full, p = position(2, phase="turn", skip=8)
    bot = solver_bots.StrongBot(p, 0)
    view = full.view(p)
    bot.decide(view, view.legal(p))
    assert bot.memory is not None and sum(bot.memory.facts) > 0
    monkeypatch.setattr(solver_bots, "MODEL_OPPONENTS", False)
    off = solver_bots.StrongBot(p, 0)
    off.decide(view, view.legal(p))
    assert off.memory is None


def test_strong_bot_plays_the_tuned_policy_at_a_random_table(monkeypatch):
    """The expert policy was fitted and tuned against heuristic players; at a table the memory
    finds random (a mean chance of at least ``RANDOM_TABLE``) the bot's own playouts and default
    move are the tuned policy's, otherwise the advisor's own (``OWN_POLICY``). The tree over its
    own next decisions was measured against heuristic players only: at a random table the bot
    searches flat on ``RANDOM_TABLE_BUDGET`` (it won 0.938 that way, 0.897 with the tree)."""
    seen = record_advice(monkeypatch, "own", "tree_depth", "budget")
    decide_at_a_heuristic_then_a_random_table()
    assert seen == [(None, solver_bots.STRONG_TREE_DEPTH, solver_bots.STRONG_BUDGET),
                    (tuned, 0, solver_bots.RANDOM_TABLE_BUDGET)]


def test_strong_bot_searches_flat_before_it_has_seen_the_table(monkeypatch):
    """Before the memory has recorded any fact (the first battle's character choice), every
    other seat is at the even prior (0.5), which is ``RANDOM_TABLE``: the bot takes the random
    table's branch (tuned policy, flat search on ``RANDOM_TABLE_BUDGET``), not the tree. Every
    measurement since the switch (docs/solver-passes.md, Go Out Girl, seventh pass: 339 wins of 594
    battles on seeds 0-199, where the sixth pass's tree without the switch won 332 of 600) plays
    its first decisions this way; changing the threshold changes them. The random table's own
    character choice (``RANDOM_TABLE_CHOOSE_*``) waits for a clearly random table
    (``RANDOM_TABLE_CHOOSE_AT``, above the prior)."""
    seen = record_advice(monkeypatch, "own", "tree_depth", "budget")
    full, p = position(3, phase="choose")
    view = full.view(p)
    bot = solver_bots.StrongBot(p, 0)
    bot.decide(view, view.legal(p))
    assert bot.memory is not None and bot.memory.noise()[(p + 1) % 4] == 0.5
    assert seen == [(tuned, 0, solver_bots.RANDOM_TABLE_BUDGET)]


def test_strong_bot_passes_the_random_tables_horizon_and_margin(monkeypatch):
    """``RANDOM_TABLE_HORIZON`` and ``RANDOM_TABLE_MARGIN`` reach the search at a table the
    memory finds random, and only there (at a heuristic table the advisor's own constants)."""
    seen = record_advice(monkeypatch, "tree_depth", "horizon", "margin")
    monkeypatch.setattr(solver_bots, "RANDOM_TABLE_HORIZON", 57)
    monkeypatch.setattr(solver_bots, "RANDOM_TABLE_MARGIN", 0.25)
    decide_at_a_heuristic_then_a_random_table()
    assert seen == [(solver_bots.STRONG_TREE_DEPTH, None, None), (0, 57, 0.25)]


def test_advise_guards_the_default_move_by_its_margin(monkeypatch):
    """``advise(..., margin=z)`` is the number of standard errors the search's guard of the
    default move uses (``MARGIN`` when not given)."""
    from solver.go_out_girl import advisor

    zs = []
    real = advisor._beats

    def beats(a, b, z):
        zs.append(z)
        return real(a, b, z)

    monkeypatch.setattr(advisor, "_beats", beats)
    for seed in range(1, 9):
        full, p = position(seed, phase="turn", skip=4)
        view = full.view(p)
        legal = view.legal(p)
        if len(legal) < 3:
            continue
        zs.clear()
        advisor.advise(view, legal, seed=seed, budget=600, margin=7.5)
        if zs:
            assert set(zs) == {7.5}
            zs.clear()
            advisor.advise(view, legal, seed=seed, budget=600)
            assert set(zs) == {advisor.MARGIN}
            return
    raise AssertionError("no position where the search left the default move")


def test_strong_bot_passes_the_random_tables_choice_horizon_and_budget(monkeypatch):
    """At a table the memory finds random (a mean chance of at least ``RANDOM_TABLE_CHOOSE_AT``)
    the character choice reads ``RANDOM_TABLE_CHOOSE_HORIZON`` and ``RANDOM_TABLE_CHOOSE_BUDGET``;
    the other decisions there do not, nor does a choice at the even prior (every table's first
    battle, before any fact), which is below ``RANDOM_TABLE_CHOOSE_AT``."""
    seen = record_advice(monkeypatch, "phase", "tree_depth", "horizon", "budget")
    monkeypatch.setattr(solver_bots, "RANDOM_TABLE_CHOOSE_HORIZON", 999)
    monkeypatch.setattr(solver_bots, "RANDOM_TABLE_CHOOSE_BUDGET", 1234)
    for phase, skip, llr in (("choose", 0, -10.0), ("turn", 8, -10.0), ("choose", 0, None)):
        full, p = position(3, phase=phase, skip=skip)
        view = full.view(p)
        bot = solver_bots.StrongBot(p, 0)
        if llr is not None:
            bot.memory = TableMemory(p, 4)
            bot.memory.llr = [llr] * 4  # every other seat plays at random
        bot.decide(view, view.legal(p))
    assert bot.memory is not None and bot.memory.noise()[(p + 1) % 4] == 0.5  # the prior
    assert solver_bots.RANDOM_TABLE_CHOOSE_AT > 0.5
    monkeypatch.setattr(solver_bots, "RANDOM_TABLE_CHOOSE_AT", 0.5)
    solver_bots.StrongBot(p, 0).decide(view, view.legal(p))
    unchanged = (solver_bots.RANDOM_TABLE_HORIZON, solver_bots.RANDOM_TABLE_BUDGET)
    assert seen == [("choose", 0, 999, 1234), ("turn", 0, *unchanged), ("choose", 0, *unchanged),
                    ("choose", 0, 999, 1234)]
