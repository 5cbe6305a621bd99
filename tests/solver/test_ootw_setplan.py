"""Out Of This World's set plan: the CP-SAT optimum equals brute-force enumeration of every plan
on random small hands (synthetic problems with every kind of group, take option, Spend, blocking
Foe and price), and on problems read from real seats' views."""

from __future__ import annotations

import os
import random

from p2pcards.bots.out_of_this_world import OutOfThisWorldBot
from p2pcards.engine import Decide, Decision, LocalDealer
from p2pcards.games import new_game
from solver.out_of_this_world import setplan
from solver.out_of_this_world.advisor import problem
from solver.out_of_this_world.setplan import FoeSpec, Kind, Problem, Spend, Take

TYPES = ["toys", "music", "gaming", "hardware"]
VULNS = [("toys", "any"), ("music", "any"), ("any", "any"), ("gaming", "toys"),
         ("toys", "music", "hardware"), ("music", "music", "any")]


def kinds() -> dict[int, Kind]:
    ks, cid = {}, 0
    for t in TYPES:
        for v in (3, 4, 5, 6, 7, 8):
            ks[cid] = Kind(cid, v, t, f"{t}{v}")
            cid += 1
    for v in (5, 6, 7, 8):
        ks[cid] = Kind(cid, v, "wild", f"wild{v}", bonus=50 * (v == 8))
        cid += 1
    return ks


def random_problem(rng: random.Random, size: int) -> Problem:
    ks = kinds()
    n = rng.choice([3, 4, 5])
    me = rng.randrange(n)
    cids = list(ks)
    two = rng.sample(TYPES, 2)  # hands mostly of two types, so that sets exist
    hand: dict[int, int] = {}
    for _ in range(size):
        c = rng.choice([c for c in cids if ks[c].type in two or ks[c].type == "wild"
                        or rng.random() < 0.2])
        hand[c] = hand.get(c, 0) + 1
    foes: list[FoeSpec] = []
    takes: list[Take] = []
    spends: list[Spend] = []
    weights = [rng.randint(0, 20) for _ in range(n)]
    hunter = rng.random() < 0.2
    for _ in range(rng.randint(0, 2)):
        owner = me if not hunter or rng.random() < 0.5 else rng.randrange(n)
        w = rng.choice([5, 10, 10, 20])
        weights[owner] += w
        blocks = frozenset(rng.sample(["equip", "pass"], 1)) if rng.random() < 0.3 else frozenset()
        foes.append(FoeSpec(owner, 100 + len(foes), w, rng.choice(VULNS), rng.randint(0, 600),
                            twice=rng.random() < 0.15, blocks=blocks if owner == me else frozenset()))
    if rng.random() < 0.6:
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.25:
                fi = len(foes)
                foes.append(FoeSpec(me, 100 + fi, rng.choice([10, 20]), rng.choice(VULNS),
                                    rng.randint(0, 500), take=len(takes),
                                    blocks=frozenset(["equip"]) if rng.random() < 0.2 else frozenset()))
                takes.append(Take(f"foe{fi}", foe=fi, cost=rng.randint(0, 400),
                                  lost_actions=int(rng.random() < 0.3)))
            else:
                takes.append(Take("item", item=rng.choice(cids), cost=-rng.randint(0, 8)))
    for _ in range(rng.randint(0, 2)):
        if foes and rng.random() < 0.6:
            fi = rng.randrange(len(foes))
            mv = (me + 1) % n if rng.random() < 0.3 else None
            spends.append(Spend("s", rng.randint(-50, 300), foe=fi, move_to=mv))
        else:
            spends.append(Spend("t", rng.randint(0, 800)))
    return Problem(
        me=me, n=n, kinds=ks, hand=hand, need=rng.randint(0, 20), actions=rng.randint(0, 4),
        weights=weights, time=rng.randint(10, 80), token=rng.randint(0, 150),
        lose=rng.choice([0, 100000]), keep={c: rng.choice([0, 20, 60, 100, 150]) for c in cids},
        keep_cap=rng.randint(0, 5),
        hold={(a, b): rng.choice([0, 30, 80, 150]) for a in cids for b in cids
              if a <= b and rng.random() < 0.15},
        pass_value={(c, q): rng.randint(0, 250) for c in cids for q in range(n) if q != me},
        foes=foes, takes=takes, spends=spends, equip_any=rng.random() < 0.2,
        pass_any=rng.random() < 0.2, can_pass=rng.random() < 0.9,
        equip_w=rng.choice([60, 100, 140]), goal=rng.choice([0, 0, 400, 2_000_000]))


def test_cpsat_equals_brute_force_on_random_hands():
    rng = random.Random(2024)
    kinds_seen = set()
    # 130 hands here (it was 260; the benchmark compares 2,500; P2PCARDS_LONG=1 plays 2,600)
    for i in range(2600 if os.environ.get("P2PCARDS_LONG") == "1" else 130):
        p = random_problem(rng, size=1 + i % 5)
        a, b = setplan.solve(p), setplan.brute(p)
        assert a.value == b.value, (i, a, b)
        assert setplan.feasible(p, a.take, dict(a.groups), a.spends)
        kinds_seen |= {g.kind for g, _ in a.groups}
    assert kinds_seen >= {"equip", "pass", "defeat", "hold"}


def test_cpsat_equals_brute_force_on_real_views():
    checked = 0
    for seed in range(6):
        g = new_game("out-of-this-world", 3 + seed % 3, {})
        dealer = LocalDealer(seed)
        bots = [OutOfThisWorldBot(q, seed + q) for q in range(g.n_players)]
        while (req := g.pending()) is not None and checked < 12 * (seed + 1):
            if isinstance(req, Decide):
                q = req.player
                v = g.view(q)
                legal = v.legal(q)
                if g.step in ("take", "action") and len(v.hand(q)) <= 5 and len(legal) > 1:
                    p, _ = problem(v, legal=legal)
                    assert setplan.solve(p).value == setplan.brute(p).value
                    checked += 1
                g.apply(Decision(q, bots[q].decide(v, legal) if len(legal) > 1 else legal[0]))
            else:
                g.apply(dealer.fulfil(g, req))
    assert checked >= 60


def test_brute_force_enumerates_each_take_once():
    """Issue 14 item 15: ``_brute_take`` ran its whole enumeration twice, doubling the brute
    force's time in the CP-SAT comparison. Every complete plan (a leaf) is now visited once: the
    enumeration's root is entered once per take option."""
    import sys

    rng = random.Random(15)
    for _ in range(8):  # under a profiler every call costs: 8 hands keep this test short
        p = random_problem(rng, rng.randint(3, 6))
        roots = 0

        def prof(frame, event, arg):
            nonlocal roots
            if event == "call" and frame.f_code.co_name == "rec" and frame.f_locals.get("i") == 0:
                roots += 1
        sys.setprofile(prof)
        try:
            plan = setplan.brute(p)
        finally:
            sys.setprofile(None)
        assert roots == max(1, len(p.takes))
        assert plan.value == setplan.solve(p).value
