"""The Girl and the Robot information-set search: determinizations agree with the view and the
rules, small hidden parts are enumerated exactly (checked against an independent enumeration),
the search reads the view alone and is deterministic for a seed, and its reasons quote the
figures it computed."""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import permutations

from p2pcards.games.girl_and_robot.data import FACE_DOWN_WEAPONS
from p2pcards.games.girl_and_robot.game import DEMON
from solver.girl_and_robot import search as S
from solver.girl_and_robot.advisor import advise
from solver.girl_and_robot.determinize import Unseen
from solver.girl_and_robot.odds import odds

from .bot_games import bot_decision
from .test_gar_hints import swap_hidden
from .test_gar_odds import small_view

QUICK = S.Budget(deals=4, horizon=2, candidates=3)


def decision(seed: int, players: int, skip: int, phase: str = "turn"):
    g, p = bot_decision("girl-and-robot", players, seed, lambda g, p, legal:
                        g.phase == phase and len(legal) > 2, skip=skip, stride=5)
    assert g is not None, "no such decision"
    return g, p


def allowed(view, slot: int, kind: str) -> bool:
    """The rules' constraints on an unseen slot, written out again for the tests."""
    z = view.zone_of[slot]
    if kind == DEMON and z.startswith(("hand", "weapons")):
        return view.phase == "drawn" and (view.task or {}).get("slot") == slot
    return not z.startswith("weapons") or kind in FACE_DOWN_WEAPONS


def test_samples_agree_with_the_view_and_the_rules():
    rng = random.Random(1)
    checked = 0
    for seed, players, skip in [(1, 4, 2), (2, 3, 5), (3, 2, 3), (4, 4, 8), (6, 3, 1)]:
        full, p = decision(seed, players, skip)
        view = full.view(p)
        unseen = Unseen(view)
        for _ in range(20):
            world = unseen.sample(rng)
            assert world.view(p) == view
            assert sorted(world.values) == list(range(world.n_cards))
            for s in unseen.slots:
                assert allowed(view, s, world.kind(s)), (seed, s, world.kind(s))
            checked += 1
    assert checked == 100


def brute_deals(view) -> set[tuple[str, ...]]:
    """Every allowed assignment of kinds to the unseen slots, by brute force."""
    slots = [s for s in range(view.n_cards) if view.values[s] is None]
    seen = {c for c in view.values if c is not None}
    kinds = [view.kind_of(c) for c in range(view.n_cards) if c not in seen]
    return {perm for perm in set(permutations(kinds))
            if all(allowed(view, s, k) for s, k in zip(slots, perm, strict=True))}


def test_small_hidden_parts_are_enumerated_exactly_and_sampled_uniformly():
    rng = random.Random(7)
    checked = 0
    for seed in range(30):
        g, p = bot_decision("girl-and-robot", 2 + seed % 3, seed, lambda g, p, legal:
                            g.phase == "turn" and g.turn == p and len(g.zones["draw"]) > 5,
                            skip=seed % 5, stride=5)
        if g is None:
            continue
        _, view = small_view(g, p, rng, pile_unknown=rng.randint(2, 4),
                             other_unknown=rng.randint(1, 3))
        unseen = Unseen(view)
        want = brute_deals(view)
        if len(want) > 60:
            continue
        got = unseen.distinct(1000)
        assert got is not None
        kinds = {tuple(view.kind_of(d[s]) for s in unseen.slots) for d in got}
        assert kinds == want and len(got) == len(want), seed
        if len(want) > 1:
            assert unseen.distinct(len(want) - 1) is None
        # sampling: every allowed deal comes out, none more than twice as often as another
        n = 200 * len(want)
        deals = (unseen.deal(rng) for _ in range(n))
        counts = Counter(tuple(view.kind_of(d[s]) for s in unseen.slots) for d in deals)
        assert set(counts) == want
        assert max(counts.values()) < 2 * min(counts.values()), counts
        checked += 1
    assert checked >= 10, checked


def test_search_never_peeks_and_is_deterministic():
    rng = random.Random(3)
    checked = 0
    for seed, players, skip in [(1, 4, 2), (5, 3, 3), (8, 2, 2), (2, 4, 4), (4, 3, 2), (6, 4, 1)]:
        full, p = decision(seed, players, skip)
        other = swap_hidden(full, p, rng)
        assert other != full
        v1, v2 = full.view(p), other.view(p)
        assert v1 == v2
        r1 = S.search(v1, v1.legal(p), QUICK, seed=11)
        r2 = S.search(v2, v2.legal(p), QUICK, seed=11)
        r3 = S.search(v1, v1.legal(p), QUICK, seed=11)
        if not r1.searched:
            continue  # one candidate only: nothing to simulate
        assert len(r1.lines) >= 2 and r1.deals == QUICK.deals
        for r in (r2, r3):
            assert r.best == r1.best
            assert [(x.action, x.values) for x in r.lines] == [(x.action, x.values) for x in r1.lines]
        a1 = advise(v1, v1.legal(p), seed=11).to_json()
        assert a1 == advise(v2, v2.legal(p), seed=11).to_json()
        checked += 1
    assert checked >= 3, checked


def test_a_different_seed_samples_different_deals():
    full, p = decision(2, 4, 4)
    v = full.view(p)
    r1 = S.search(v, v.legal(p), QUICK, seed=1)
    r2 = S.search(v, v.legal(p), QUICK, seed=2)
    assert [x.values for x in r1.lines] != [x.values for x in r2.lines]


def test_reasons_quote_the_search_and_the_odds():
    checked = 0
    for seed, players, skip in [(1, 4, 2), (2, 3, 4), (3, 2, 1), (9, 4, 5)]:
        full, p = decision(seed, players, skip)
        view = full.view(p)
        adv = advise(view, view.legal(p), seed=0)
        data = adv.to_json()
        if data["search"] is None:
            continue
        s = data["search"]
        text = adv.render()
        chosen = next(x for x in s["lines"] if x["text"] == adv.text)
        assert f"you are alive after it with chance {chosen['alive']:.0%}" in adv.reason
        assert f"your team's prospects are {chosen['standing']:.2f}" in adv.reason
        assert f"{s['horizon']} turns ahead in {s['deals']} random deals" in adv.reason
        assert f"{s['unseen']} cards" in adv.reason
        others = [x for x in s["lines"] if x["text"] != adv.text]
        assert any(f"after \"{x['text']}\": alive {x['alive']:.0%}" in adv.reason
                   for x in others)
        o = odds(view)
        if o.pile and view.kind(view.zones["draw"][-1]) is None:
            assert f"{o.top.numerator} in {o.top.denominator}" in text
            # the playouts weigh the Demon-on-top deals by the same exact chance
            assert s["demon_deals"] >= 1 and abs(s["top_demon"] - float(o.top)) < 1e-9
            assert (f"with a Demon on top, counted at that Demon's real chance, "
                    f"{float(o.top):.0%}" in adv.reason)
        assert re.search(r"\d+%", adv.reason)
        assert "heuristic player's choice" not in text
        checked += 1
    assert checked >= 3, checked


def test_deals_stratified_on_the_top_card_are_weighed_by_its_exact_chance():
    rng = random.Random(5)
    checked = 0
    for seed, players, skip in [(1, 4, 2), (2, 3, 5), (3, 2, 3), (4, 4, 8)]:
        full, p = decision(seed, players, skip)
        view = full.view(p)
        unseen = Unseen(view)
        top = unseen.top
        if top is None:
            continue
        prob = unseen.top_demon()
        assert prob == odds(view).top  # the same exact chance as the Odds line
        for want in (True, False):
            for _ in range(20):
                assert (view.kind_of(unseen.deal(rng, want)[top]) == DEMON) == want
        for n in (3, 4, 6, 9):
            strata = S._strata(prob, n)
            weights = S._weights(prob, strata)
            assert len(strata) == n and True in strata[:2] and False in strata[:2]
            # the weighted share of Demon-on-top deals is the exact chance, for any prefix
            # a work-bounded search may stop at (from the third deal on)
            for k in range(2, n + 1):
                w = S._weights(prob, strata[:k])
                share = sum(x for x, d in zip(w, strata[:k], strict=True) if d) / sum(w)
                assert abs(share - float(prob)) < 1e-9
            assert abs(sum(weights) - 1) < 1e-9
        checked += 1
    assert checked >= 3, checked


def test_playout_views_are_the_seats_views_and_stay_read_only():
    """Playouts read a seat's view through ``seat_view`` (sharing the state's fields) and take
    the legal actions from the full state: both must be what the seat's own copy would give, and
    a playout bot's decision must leave the state as it was."""
    from p2pcards.engine import Decide, Decision, LocalDealer
    from p2pcards.games import new_game
    from solver.girl_and_robot.policy import PlayoutBot

    checked = 0
    for seed, players in [(1, 4), (2, 3), (3, 2)]:
        g = new_game("girl-and-robot", players)
        dealer = LocalDealer(seed)
        bots = [PlayoutBot(q, seed + q, 0.3, careful=q % 2 == 0) for q in range(players)]
        for _ in range(3000):
            req = g.pending()
            if req is None:
                break
            if not isinstance(req, Decide):
                g.apply(dealer.fulfil(g, req))
                continue
            q = req.player
            own = g.view(q)
            fast = S.seat_view(g, q)
            assert fast.to_json() == own.to_json()
            legal = g.legal(q)
            assert legal == own.legal(q)
            before = g.to_json()
            act = bots[q].decide(fast, legal) if len(legal) > 1 else legal[0]
            assert g.to_json() == before
            g.apply(Decision(q, act), trusted=True)
            checked += 1
    assert checked > 150, checked


def test_a_playout_stops_at_its_decision_bound():
    """However far its horizon, a playout stops after ``MAX_DECISIONS`` decisions of the bots
    and is scored where it stands: no single playout can make a search slow (before the bound
    a playout ran to the game's end or 2,000 engine steps)."""
    limit = 120  # S.MAX_DECISIONS
    longest = 0
    for seed in range(4):
        g, p = decision(seed, 4, 0)
        legal = g.legal(p)
        world = g.clone()
        made = S.playout(world, p, legal[0], seed, S.Budget(horizon=10_000))
        assert made <= limit
        longest = max(longest, made)
    assert longest == limit  # a whole game is longer: the bound is what stopped these
    assert limit == S.MAX_DECISIONS


def test_every_search_stays_within_its_budget_bound():
    """The hint's and the strong bot's searches make at most ``Budget.bound`` playout decisions
    (a count, not a clock): the strong bot's budget has a work bound too."""
    assert S.STRONG.work and S.HINT.work
    searched = 0
    for seed in range(4):
        g, p = decision(seed, 4, 2)
        view = g.view(p)
        legal = view.legal(p)
        for budget in (S.HINT, S.STRONG, S.Budget(deals=40, horizon=30, candidates=4, work=1000)):
            res = S.search(view, legal, budget, seed)
            searched += res.searched
            assert res.work <= budget.bound(len(res.lines))
    assert searched >= 6
    assert S.HINT.bound() == 1440 and S.STRONG.bound() == 1479
