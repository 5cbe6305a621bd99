"""Where the strong bot loses: a diagnostic, run outside the bot (``python -m
solver.go_out_girl.diagnose --seeds 0 40``).

Plays the benchmark's matches (seed s: the strong bot in seat ``s % 4`` against three heuristic
bots, the local dealer seeded ``s``) and records, for every battle, who won and how (went out, or
last one standing), whether the strong seat was eliminated, its character, and its own estimate
of its win chance at each of its decisions (the chosen candidate's playout mean). For a lost
battle it names the decision after which that estimate fell the most (the fall covers the bot's
own move and the others' moves until its next decision). It reads the full state only to score
the outcome; the bot plays from its views as always.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict

from p2pcards.bots.base import RandomBot
from p2pcards.bots.go_out_girl import GoOutGirlBot
from p2pcards.engine import Decide, Decision, LocalDealer, play
from p2pcards.games import new_game

from . import bots
from .convert import battle_from_game
from .determinize import ViewInfo
from .history import POOL
from .model import CHAR_KEYS


def _recording(log: list):
    real = bots.advise

    def advise(view, legal, **kw):
        adv = real(view, legal, **kw)
        best = next((c for c in adv.candidates if c.action == adv.action), None)
        log.append({"battle": view.battle, "phase": view.phase,
                    "estimate": None if best is None or not best.runs else best.mean,
                    "char": view.own_character(view.viewer),
                    "cards": len(view.hand(view.viewer))})
        return adv
    return real, advise


def run(seeds: range, opponent: str = "heuristic") -> list[dict]:
    """One record per battle of the strong seat's matches on ``seeds`` (against three
    ``opponent`` bots: "heuristic" or "random")."""
    out = []
    for seed in seeds:
        seat = seed % 4
        log: list[dict] = []
        real, rec = _recording(log)
        bots.advise = rec
        try:
            other = RandomBot if opponent == "random" else GoOutGirlBot
            agents = [other(q, seed * 10 + q) for q in range(4)]
            agents[seat] = bots.StrongBot(seat, seed)
            ends: dict[int, dict] = {}

            def on_step(state, event, ends=ends):
                b = state.battle
                if b not in ends or ends[b].get("winner") is None:
                    ends[b] = {"alive": list(state.alive), "winner": None}
                if len(state.battle_winners) >= b and ends[b]["winner"] is None:
                    w = state.battle_winners[b - 1]
                    ends[b]["winner"] = w
            final = play(new_game("go-out-girl", 4), agents, LocalDealer(seed), on_step=on_step)
        finally:
            bots.advise = real
        winners = final.outcome()["battle_winners"]
        for i, w in enumerate(winners, start=1):
            mine = [r for r in log if r["battle"] == i and r["estimate"] is not None]
            alive = ends.get(i, {}).get("alive", [True] * 4)
            out.append({"seed": seed, "battle": i, "seat": seat, "winner": w, "won": w == seat,
                        "how": "last standing" if sum(alive) <= 1 else "went out",
                        "me_eliminated": not alive[seat],
                        "char": next((r["char"] for r in mine if r["char"] is not None), None),
                        "estimates": [(r["phase"], round(r["estimate"], 3), r["cards"])
                                      for r in mine]})
    return out


def summary(rows: list[dict]) -> dict:
    """The table of docs/solver-passes.md (fourth pass): losses by how they ended, the estimate at the first turn,
    the phase of the largest fall, win share by character."""
    lost = [r for r in rows if not r["won"]]
    won = [r for r in rows if r["won"]]
    how = Counter(("I was eliminated" if r["me_eliminated"] else
                   "an opponent went out" if r["how"] == "went out" else
                   "an opponent was last standing") for r in lost)
    fall = Counter()
    fall_size = defaultdict(list)
    first = {"won": [], "lost": []}
    for r in rows:
        est = [e for e in r["estimates"] if e[0] in ("turn", "lead")]
        if est:
            first["won" if r["won"] else "lost"].append(est[0][1])
    for r in lost:
        est = r["estimates"]
        if len(est) < 2:
            fall["(fewer than 2 estimates)"] += 1
            continue
        drops = [(est[i][1] - est[i + 1][1], i) for i in range(len(est) - 1)]
        d, i = max(drops)
        where = est[i][0]
        stage = "early" if i < len(est) / 3 else "middle" if i < 2 * len(est) / 3 else "late"
        fall[f"{where}, {stage}"] += 1
        fall_size[f"{where}, {stage}"].append(d)
    chars = defaultdict(lambda: [0, 0])
    for r in rows:
        if r["char"] is not None:
            chars[CHAR_KEYS[r["char"]]][0] += r["won"]
            chars[CHAR_KEYS[r["char"]]][1] += 1

    def mean(xs):
        return round(sum(xs) / len(xs), 3) if xs else None
    return {"battles": len(rows), "won": len(won), "share": round(len(won) / max(1, len(rows)), 3),
            "losses_by_how": dict(how.most_common()),
            "first_turn_estimate": {k: mean(v) for k, v in first.items()},
            "largest_fall_after": {k: [v, mean(fall_size[k])] for k, v in fall.most_common()},
            "by_character": {k: [w, n, round(w / n, 3)] for k, (w, n) in
                             sorted(chars.items(), key=lambda kv: -kv[1][1])}}


def strong_bot_decisions(seeds: range):
    """Whole matches of the strong bot (seat ``seed % 4``) against three heuristic bots, each
    decision yielded before it is applied: ``(seed, seat, g, bot, p, view, legal, act)``, the
    full state ``g`` only for the diagnostics to check against."""
    for seed in seeds:
        seat = seed % 4
        g = new_game("go-out-girl", 4)
        dealer = LocalDealer(seed)
        agents = [GoOutGirlBot(q, seed * 10 + q) for q in range(4)]
        bot = bots.StrongBot(seat, seed)
        agents[seat] = bot
        while (req := g.pending()) is not None:
            if not isinstance(req, Decide):
                g.apply(dealer.fulfil(g, req))
                continue
            p = req.player
            view = g.view(p)
            legal = view.legal(p)
            act = agents[p].decide(view, legal)
            yield seed, seat, g, bot, p, view, legal, act
            g.apply(Decision(p, act))


def inference(seeds: range, pool: int = POOL) -> dict:
    """How close the deals the strong bot searches are to the truth, with and without the
    history's weights: at each of its decisions in a battle phase, for each other seat still in
    the battle, the share of its true hand that a deal's hand for it gets right (sum over numbers
    of the smaller count, over the hand's size), averaged over a pool of deals drawn from the
    view -- uniformly (plain sampling) and by the history's weights (the same deals). Also the
    true deal's own log-weight (0 when every recorded turn of a heuristic seat is explained),
    a check that the record is rebuilt right. Reads the full state to score, never to decide."""
    import math
    import random
    plain = inferred = 0.0
    count = 0
    by_facts: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    true_lw: list[float] = []
    for seed, seat, g, bot, p, view, _legal, _act in strong_bot_decisions(seeds):
        rec = bot.record
        if p == seat and rec is not None and view.phase in ("turn", "lead") and rec.facts():
            info = ViewInfo(view)
            rng = random.Random(seed * 7919 + count)
            noise = bot.memory.noise() if bot.memory else None
            deals, ws = rec.pool(info, rng, noise, pool)
            truth = battle_from_game(g)
            dmg = [[g.number(g.values[s]) for s in g.zones[f"dmg{q}"]] for q in range(4)]  # type: ignore[arg-type]
            true_lw.append(rec.log_weight(truth, dmg, [0.0] * 4, rng))
            for q in range(4):
                if q == seat or not g.alive[q] or not truth.size[q]:
                    continue
                real = truth.hands[q]

                def right(b, real=real, q=q):
                    return sum(min(a, r) for a, r in zip(b.hands[q], real, strict=True)) / sum(real)
                u = sum(right(b) for b in deals) / len(deals)
                w = sum(wt * right(b) for b, wt in zip(deals, ws, strict=True))
                plain += u
                inferred += w
                count += 1
                k = rec.facts()
                key = "1-4 facts" if k <= 4 else "5-9 facts" if k <= 9 else "10+ facts"
                by_facts[key][0] += u
                by_facts[key][1] += w
                by_facts[key][2] += 1
    explained = sum(1 for x in true_lw if x > -1e-9)
    return {"hands": count, "plain": round(plain / max(1, count), 3),
            "inferred": round(inferred / max(1, count), 3),
            "by_facts": {k: [round(a / c, 3), round(b / c, 3), c] for k, (a, b, c)
                         in sorted(by_facts.items())},
            "true_deal_fully_explained": f"{explained} of {len(true_lw)}",
            "true_deal_mean_log_weight": round(sum(true_lw) / max(1, len(true_lw)), 3),
            "true_deal_median_weight": round(math.exp(sorted(true_lw)[len(true_lw) // 2]), 3)
            if true_lw else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs=2, default=(0, 40), metavar=("FIRST", "END"))
    ap.add_argument("--opponent", choices=("heuristic", "random"), default="heuristic")
    ap.add_argument("--out", default=None, help="write every battle's record here (JSON)")
    ap.add_argument("--inference", action="store_true",
                    help="measure how close the inferred deals are to the truth instead")
    args = ap.parse_args()
    if args.inference:
        print(json.dumps(inference(range(*args.seeds)), indent=1))
        return
    rows = run(range(*args.seeds), args.opponent)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f)
    print(json.dumps(summary(rows), indent=1))


if __name__ == "__main__":
    main()
