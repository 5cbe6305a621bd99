"""Paired strength measurement of the strong bot: whole matches on fixed seeds, per seed.

``python -m solver.go_out_girl.paired --seeds 0 200 --out base.json`` plays the benchmark's
matches (seed s: the strong bot in seat ``s % 4`` against three heuristic bots -- or random ones,
``--opponent random`` -- the local dealer seeded ``s``, the bots seeded as
``scripts/bench_solver.py`` seeds them) and writes, per seed, the battles, the strong seat's
wins, its eliminations and the CPU seconds the match took. ``--set module.NAME=value`` changes a
module constant of ``solver.go_out_girl`` first (``--set advisor.HORIZON=40``), so a variant
runs without editing the code. ``--compare base.json new.json`` prints both shares and the
paired difference: the mean over the seeds both files played of the per-seed difference in win
share, with the standard error of that mean.

``--oracle all`` / ``hands`` / ``chars`` play a diagnostic instead of the bot (``OracleBot``:
the same search handed the full state; ``HandsOracleBot``: deals with the others' true hands and
characters, the deck still random; ``CharsOracleBot``: only their true characters): what perfect information would be worth (docs/solver-passes.md,
fifth pass). ``--oracle clair`` / ``known`` take the others for the heuristic bot's known
policy (fourteenth pass, ``respond.py``): ``ClairvoyantBot`` knows every card and follows a line
that wins against that policy, ``KnownPolicyHandsBot`` is the hands oracle whose endgame plays
the move of best expected result against it, the deck's order unknown (``--set
respond.KNOWN_CHANCE=2``: its settings). They read the full state on purpose and are never
players.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from functools import partial

from p2pcards.bots.base import RandomBot
from p2pcards.bots.go_out_girl import GoOutGirlBot
from p2pcards.engine import LocalDealer, play
from p2pcards.games import new_game
from solver import measure
from solver.measure import mean_se

from . import advisor, bots, respond
from .convert import action_map, battle_from_game
from .determinize import ViewInfo
from .policy import tuned
from .respond import Expectimax, OutOfBudget, Responder, pool_from_deck


class OracleBot(bots.StrongBot):
    """A diagnostic only, never a player: the strong bot handed the full state instead of its
    view (every hand and the deck's order known), to measure what perfect inference would be
    worth. The others are modelled as the heuristic bot."""
    state = None

    def decide(self, view, legal):
        full = self.state.clone()
        full.viewer = self.seat
        if full.phase == "choose":
            full = view  # the others choose at the same time: their choices are not known yet
        if len(legal) == 1:
            return legal[0]
        return bots.advise(full, legal, seed=self.rng.getrandbits(32), budget=self.budget,
                           noise=0.0).action


class _DealsOracle(bots.StrongBot):
    """A diagnostic base, never a player: the strong bot whose deals take what ``truth`` reads
    of the full state (``state``) instead of drawing it from the view alone."""
    state = None

    def truth(self, view, info, rng):
        raise NotImplementedError

    def decide(self, view, legal):
        if view.phase == "choose" or len(legal) == 1:
            return super().decide(view, legal)
        real = advisor._sample
        advisor._sample = lambda info, rng: self.truth(view, info, rng)
        try:
            return super().decide(view, legal)
        finally:
            advisor._sample = real


def _true_chars(g, view, info) -> dict:
    return {q: g.own_character(q) for q in range(view.n_players)
            if info.char_known[q] is None and g.own_character(q) is not None}


class HandsOracleBot(_DealsOracle):
    """A diagnostic only, never a player: the strong bot whose deals give every other seat its
    true hand and character (the deck's order and the face-down damage still drawn at random),
    to measure what perfect inference of the hands would be worth."""

    def truth(self, view, info, rng):
        g = self.state
        hands = []
        left = list(info.unseen)
        for q in range(view.n_players):
            for s in view.hand(q):
                if view.values[s] is None:
                    n = g.number(g.values[s])
                    hands.append(n)
                    left.remove(n)
        rng.shuffle(left)
        return info.sample_with_damage(rng, hands + left, _true_chars(g, view, info))[0]


class CharsOracleBot(_DealsOracle):
    """A diagnostic only, never a player: the strong bot whose deals give every other seat its
    true face-down character, the hands still dealt at random from the view -- to split what
    ``HandsOracleBot`` gains between the characters and the cards."""

    def truth(self, view, info, rng):
        return info.sample_with_damage(rng, None, _true_chars(self.state, view, info))[0]


class ClairvoyantBot(OracleBot):
    """A diagnostic only, never a player (fourteenth pass): every hand and the deck's order
    known, the others taken for what they are -- the heuristic bot's known policy -- so the seat
    looks for a line of its own moves that wins the battle (``respond.Responder``, at most
    ``node_limit`` of its decisions a search) and follows it; where none is found it plays as
    ``OracleBot`` (the search handed the full state). The ceiling of any player against these
    bots, short of knowing how a reshuffle falls."""
    node_limit = 20_000
    stats: dict | None = None

    def decide(self, view, legal):
        if view.phase == "choose" or len(legal) == 1:
            return super().decide(view, legal)
        if self.stats is None:
            self.stats = {"searches": 0, "won": 0, "lost": 0, "unknown": 0, "followed": 0,
                          "broken": 0}
            self.plan: dict = {}
            self.hopeless = -1
        full = self.state.clone()
        full.viewer = self.seat
        b = battle_from_game(full)
        b.rng = self.rng
        act = self.plan.get(b.key())
        if act is not None:
            self.stats["followed"] += 1
        elif self.hopeless != full.battle:
            if self.plan and self.plan_battle == full.battle:
                self.stats["broken"] += 1  # off the line (a reshuffle, or a tie the bot broke)
                self.plan = {}
            r = Responder(self.seat, self.node_limit)
            res = r.solve(b)
            self.stats["searches"] += 1
            if res:
                self.stats["won"] += 1
                self.plan = dict(r.line(b))
                self.plan_battle = full.battle
                act = res
            elif res is False:
                self.stats["lost"] += 1
                self.hopeless = full.battle  # the others are deterministic: it stays lost
            else:
                self.stats["unknown"] += 1
        if act is not None:
            m = action_map(view, legal)
            if act in m:
                return m[act]
        return super().decide(view, legal)


class KnownPolicyHandsBot(HandsOracleBot):
    """A diagnostic only, never a player (fourteenth pass): the hands oracle (the others' true
    hands and characters, the deck drawn) whose endgame -- at most ``cards`` cards in the
    battle's hands -- plays the move of best expected result against the others' known policy,
    the deck's order unknown (``respond.Expectimax`` on ``respond.KNOWN_DEALS`` deals of the deck and
    the face-down damage, their mean); where a deal needs more than ``respond.KNOWN_NODES`` positions,
    the hands oracle's own move."""
    stats: dict | None = None

    def decide(self, view, legal):
        if (view.phase == "choose" or len(legal) == 1
                or sum(len(view.hand(q)) for q in range(view.n_players) if view.alive[q])
                > respond.KNOWN_CARDS):
            return super().decide(view, legal)
        if self.stats is None:
            self.stats = {"solved": 0, "too_big": 0, "left_tuned": 0}
        info = ViewInfo(view)
        m = action_map(view, legal)
        total: dict[tuple, float] = dict.fromkeys(m, 0.0)
        own = None
        try:
            for _ in range(respond.KNOWN_DEALS):
                d = pool_from_deck(self.truth(view, info, self.rng))
                own = own or tuned(d)
                e = Expectimax(self.seat, respond.KNOWN_NODES, chance_depth=respond.KNOWN_CHANCE,
                               rollouts=respond.KNOWN_ROLLOUTS, seed=self.rng.getrandbits(32))
                for a, v in e.scores(d, list(m)).items():
                    total[a] += v
        except OutOfBudget:
            self.stats["too_big"] += 1
            return super().decide(view, legal)
        self.stats["solved"] += 1
        cands = sorted(m, key=lambda a: a != own)  # the tuned move first: it wins ties
        best = max(cands, key=lambda a: total[a])
        self.stats["left_tuned"] += best != cands[0]
        return m[best]


def match(seed: int, opponent: str = "heuristic", level=None) -> dict:
    """One whole match of the strong bot (``level``: its class) against three ``opponent``
    bots on ``seed``: battles, wins, the strong seat's eliminations, CPU seconds."""
    seat = seed % 4
    other = RandomBot if opponent == "random" else GoOutGirlBot
    agents = [other(q, seed * 10 + q) for q in range(4)]
    agents[seat] = (level or bots.StrongBot)(seat, seed)
    state = new_game("go-out-girl", 4)
    agents[seat].state = state
    out = {"eliminated": 0}
    dead: set[int] = set()

    def on_step(state, event):
        b = state.battle
        if not state.alive[seat] and b not in dead:
            dead.add(b)
            out["eliminated"] += 1
    t = time.process_time()
    final = play(state, agents, LocalDealer(seed), on_step=on_step)
    bw = final.outcome()["battle_winners"]
    row = {"seed": seed, "battles": len(bw), "wins": sum(1 for w in bw if w == seat),
           "eliminated": out["eliminated"], "cpu": round(time.process_time() - t, 3)}
    if getattr(agents[seat], "stats", None):  # a diagnostic's own counts (ClairvoyantBot)
        row["stats"] = agents[seat].stats
    return row


set_constant = partial(measure.set_constant, "solver.go_out_girl")  # --set module.NAME=value


def compare(a: list[dict], b: list[dict]) -> dict:
    """Both win shares and the paired difference b - a over the seeds both played."""
    sa = {r["seed"]: r for r in a}
    sb = {r["seed"]: r for r in b}
    seeds = sorted(set(sa) & set(sb))
    d = [sb[s]["wins"] / sb[s]["battles"] - sa[s]["wins"] / sa[s]["battles"] for s in seeds]
    n = len(d)
    mean, se = mean_se(d)

    def share(rows):
        w = sum(r["wins"] for r in rows)
        t = sum(r["battles"] for r in rows)
        p = w / t
        return {"share": round(p, 3), "se": round((p * (1 - p) / t) ** 0.5, 3), "wins": w,
                "battles": t, "eliminated": sum(r["eliminated"] for r in rows),
                "cpu_per_battle": round(sum(r["cpu"] for r in rows) / t, 3)}
    return {"seeds": f"{seeds[0]}-{seeds[-1]} ({n})", "a": share([sa[s] for s in seeds]),
            "b": share([sb[s] for s in seeds]), "paired": f"{mean:+.3f} ± {se:.3f}"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs=2, default=(0, 200), metavar=("FIRST", "END"))
    ap.add_argument("--opponent", choices=("heuristic", "random"), default="heuristic")
    ap.add_argument("--set", action="append", default=[], metavar="module.NAME=value")
    ap.add_argument("--budget", type=int, default=None,
                    help="the strong bot's budget (simulated decisions a move), if not its own")
    ap.add_argument("--oracle", choices=("all", "hands", "chars", "clair", "known"),
                    default=None,
                    help="diagnostic: the strong bot sees every hand and the deck (all: "
                    "OracleBot), only the others' hands and characters (hands: HandsOracleBot) "
                    "or only their characters (chars: CharsOracleBot); clair: every card known and a "
                    "line that wins against the bots' known policy (ClairvoyantBot); known: the "
                    "hands oracle whose endgame scores moves against that policy "
                    "(KnownPolicyHandsBot)")
    ap.add_argument("--out", default=None, help="write the per-seed rows here (JSON lines)")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), default=None)
    args = ap.parse_args()
    if args.compare:
        rows = []
        for path in args.compare:
            with open(path) as f:
                rows.append([json.loads(line) for line in f if line.strip()])
        print(json.dumps(compare(*rows), indent=1))
        return
    for spec in args.set:
        set_constant(spec)
    if args.budget is not None:
        bots.StrongBot.budget = args.budget
    with contextlib.ExitStack() as stack:
        f = stack.enter_context(open(args.out, "a")) if args.out else None
        for seed in range(*args.seeds):
            level = {"all": OracleBot, "hands": HandsOracleBot,
                     "chars": CharsOracleBot, "clair": ClairvoyantBot,
                     "known": KnownPolicyHandsBot}.get(args.oracle)
            r = match(seed, args.opponent, level)
            line = json.dumps(r)
            print(line, flush=True)
            if f:
                f.write(line + "\n")
                f.flush()

if __name__ == "__main__":
    main()
