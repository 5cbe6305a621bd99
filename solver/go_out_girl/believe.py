"""How right are the deals the strong bot could plan on? A diagnostic, run outside the bot
(docs/solver-passes.md, Go Out Girl, fifteenth pass): ``python -m solver.go_out_girl.believe --seeds 0 30``.

Plays the benchmark's matches (seed s: the strong bot in seat ``s % 4`` against three heuristic
bots) and, at each of the strong bot's battle decisions with at most ``MAX_CARDS`` cards in the
battle's hands where its table memory finds no seat at random (where ``advisor.RESPOND`` would
plan against the known policy), draws deals from its view by each source:

* ``plain``: at random from the view (``ViewInfo.sample``);
* ``sis``/``sis96``: ``history.pool_sis`` (each seat's hand drawn among 24/96 candidates by how
  well the known policy explains its recorded turns);
* ``exact``/``exact1000``: ``history.pool_exact`` (a hand that reproduces every recorded turn of
  the seat, at most 200/1,000 candidates drawn; else the fewest mismatches).

For each other seat still in the battle it scores a deal two ways: the share of the seat's true
hand the deal gets right (the sum over numbers of the smaller count, over the hand's size), and
whether the known policy (``policy.heuristic``) holding the deal's hand (and character, if face
down) makes the seat's true next move -- the move it makes, in the true battle, at its first
decision after the strong bot's move, on the public state it then faces -- and how often a
deal gets every other seat's next move right at once. It also counts how
often the true hand itself reproduces every recorded turn (a check of ``mismatches``). Reads
the full state to score, never to decide.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict

from .convert import PHASES, action_map, battle_from_game
from .determinize import ViewInfo
from .diagnose import strong_bot_decisions
from .history import BattleRecord
from .model import OVER
from .policy import heuristic

MAX_CARDS = 30
DEALS = 8
SOURCES = {"plain": None, "sis": ("sis", 24), "sis96": ("sis", 96), "exact": ("exact", 200),
           "exact1000": ("exact", 1000)}


def next_moves(truth, me: int, act) -> dict:
    """Each other seat's first decision after ``me`` plays ``act`` in the true battle (the
    others playing the heuristic bot, the true deck): seat -> (the battle then, its move)."""
    b = truth.copy()
    b.rng = random.Random(0)
    b.apply(act)
    out: dict = {}
    while b.phase != OVER and b.turn != me:
        q = b.turn
        a = heuristic(b)
        if q not in out:
            out[q] = (b.copy(), a)
        b.apply(a)
    return out


def _deals(source, rec, info, noise, rng, deals: int):
    if source is None or not rec.facts():
        return [info.sample(rng) for _ in range(deals)]
    kind, tries = source
    pool = rec.pool_exact if kind == "exact" else rec.pool_sis
    return pool(info, rng, noise, deals=deals, tries=tries)[0]


def measure(seeds: range, max_cards: int = MAX_CARDS, deals: int = DEALS,
            sources: dict | None = None) -> dict:
    sources = SOURCES if sources is None else sources
    # per source and size band: [right share sum, next-move agreement sum, seats, seats with a
    # next move, seconds]
    acc: dict = defaultdict(lambda: [0.0, 0.0, 0, 0, 0.0])
    joint: dict = defaultdict(lambda: [0.0, 0])  # every other seat's next move right on a deal
    checks = {"decisions": 0, "true_hand_reproduces": 0, "true_hands": 0}
    records: dict[int, BattleRecord] = {}
    for seed, seat, g, bot, p, view, legal, act in strong_bot_decisions(seeds):
        rec = records.setdefault(seed, BattleRecord(seat, 4))
        if p == seat:
            rec.observe(view)
        cards = sum(len(g.hand(q)) for q in range(4) if g.alive[q])
        noise = bot.memory.noise() if bot.memory else [0.0] * 4
        if (p == seat and g.phase in PHASES and cards <= max_cards and len(legal) > 1
                and not any(noise[q] > 0.5 for q in range(4) if q != seat)):
            band = "21-30" if cards > 20 else "13-20" if cards > 12 else "<=12"
            truth = battle_from_game(g)
            amap = action_map(view, legal)
            mine = next((a for a, e in amap.items() if e == act), None)
            nxt = next_moves(truth, seat, mine) if mine is not None else {}
            info = ViewInfo(view)
            info.model_characters(noise)  # as the advisor does
            checks["decisions"] += 1
            dmg = [[g.number(g.values[s]) for s in g.zones[f"dmg{q}"]] for q in range(4)]  # type: ignore[arg-type]
            for q in range(4):
                if q != seat and rec.turns[q]:
                    checks["true_hands"] += 1
                    checks["true_hand_reproduces"] += rec.mismatches(
                        q, truth.hands[q], dmg[q], truth.char[q], random.Random(q)) == 0
            for name, source in sources.items():
                rng = random.Random(seed * 7919 + checks["decisions"])
                t = time.process_time()
                ds = _deals(source, rec, info, noise, rng, deals)
                a = acc[(name, band)]
                a[4] += time.process_time() - t
                alls = [True] * len(ds)
                for q in range(4):
                    if q == seat or not g.alive[q] or not truth.size[q]:
                        continue
                    real = truth.hands[q]
                    a[0] += sum(sum(min(x, r) for x, r in zip(d.hands[q], real, strict=True))
                                / sum(real) for d in ds) / len(ds)
                    a[2] += 1
                    if q in nxt and nxt[q][0].hands[q] == real:
                        bq, move = nxt[q]
                        agree = 0
                        for i, d in enumerate(ds):
                            c = bq.copy()
                            c.hands[q] = d.hands[q][:]
                            c.char[q] = d.char[q]
                            ok = heuristic(c) == move
                            agree += ok
                            alls[i] = alls[i] and ok
                        a[1] += agree / len(ds)
                        a[3] += 1
                if any(q != seat and g.alive[q] and truth.size[q] and q in nxt
                       and nxt[q][0].hands[q] == truth.hands[q] for q in range(4)):
                    joint[(name, band)][0] += sum(alls) / len(ds)
                    joint[(name, band)][1] += 1
    table = {}
    for (name, band), (right, agree, n, m, _secs) in sorted(acc.items()):
        table[f"{name} {band}"] = {"right": round(right / max(1, n), 3),
                                   "next_move": round(agree / max(1, m), 3),
                                   "all_next_moves": round(joint[(name, band)][0]
                                                           / max(1, joint[(name, band)][1]), 3),
                                   "seats": n, "seats_with_next_move": m,
                                   "ms_a_decision": None}
    per_dec: dict = defaultdict(float)
    for (name, _band), a in acc.items():
        per_dec[name] += a[4]
    for name, secs in per_dec.items():
        for k, row in table.items():
            if k.split()[0] == name:
                row["ms_a_decision"] = round(1000 * secs / max(1, checks["decisions"]), 1)
    return {"checks": checks, "table": table}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs=2, default=(0, 30), metavar=("FIRST", "END"))
    ap.add_argument("--deals", type=int, default=DEALS)
    ap.add_argument("--sources", nargs="*", default=None, choices=list(SOURCES))
    ap.add_argument("--set", action="append", default=[], metavar="module.NAME=value")
    args = ap.parse_args()
    from .paired import set_constant
    for spec in args.set:
        set_constant(spec)
    src = SOURCES if not args.sources else {k: SOURCES[k] for k in args.sources}
    print(json.dumps(measure(range(*args.seeds), deals=args.deals, sources=src), indent=1))


if __name__ == "__main__":
    main()
