"""Move advice for one seat of a Go Out Girl battle, from that seat's view alone.

Flat Monte Carlo over sampled deals (PIMC, as UECda's champion FujiGokoro does for Daifugo):

1. read the view once (``ViewInfo``) and list a few candidate moves -- every legal move when
   there are few, otherwise the tuned policy's and the heuristic's choices, every non-play move
   and the plays that best shorten the hand's fewest-plays partition;
2. in rounds, sample one determinization (the hidden cards dealt consistently with the view),
   and play every candidate out on it -- this seat with the tuned playout policy
   (``policy.tuned``, weights found by self-play), the others as the heuristic bot plays (with
   ``NOISE`` of random moves, or per seat as the bots' opponent model says:
   ``opponents.TableMemory``) -- for ``HORIZON`` decisions, where ``estimate`` scores the
   position if the battle is not over (common random numbers: the same deal and the same
   reshuffles for every candidate of a round);
3. after half the work, keep only the better half of the candidates (successive halving; the
   tuned policy's move always stays);
4. recommend the candidate with the best mean, but leave the tuned policy's move only for one
   that beats it on the same deals by ``MARGIN`` standard errors of the paired difference (or
   that exact search proves a forced win in more deals).

Work is counted in simulated decisions (``budget``), so a hint is deterministic for a fixed seed;
``deadline`` (seconds, or ``None``) is only a safety cap, checked at round boundaries.

Why these choices (measured against three heuristic bots on fixed seeds, docs/solver.md): with
full-length playouts and 8 candidates the normal budget gave each candidate about 8 playouts, so
the move picked was mostly noise; the heuristic as this seat's own playout policy undervalued
moves that need good play later; the 30 %-random opponent model did not help.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from p2pcards.engine import Action
from p2pcards.games.go_out_girl.game import Game
from solver import hints

from . import history, imitate, tree
from .convert import action_map
from .determinize import ViewInfo
from .exact import ExactSolver, TooBig
from .model import CHAR_KEYS, CHAR_NAMES, KYOKO, LIFE, Battle, card_text, describe
from .partition import Partition, min_plays_fast, partition
from .policy import choose_character, heuristic, rollout, tuned

BUDGET = 20_000  # simulated decisions per hint (CPU median ~125 ms, p95 ~200 ms of one loaded core)
HORIZON = 30  # decisions per playout before it is scored by the estimate (a battle is ~60)
CHOOSE_HORIZON = None  # at character choice: decisions per playout (None: HORIZON)
CHOOSE_BUDGET = None  # at character choice: simulated decisions (None: the move's budget)
MAX_CANDIDATES = 8
MIN_ROUNDS = 6
ENDGAME_CARDS = 12  # exact search once the hands in the battle hold at most this many cards
ENDGAME_DEALS = 8  # deals searched exactly
ENDGAME_NODES = 4_000  # search nodes per deal (a deal that needs more ends the exact part)
ENDGAME_TOTAL = 12_000  # no new deal after this many nodes in all
ENDGAME_MIN_DEALS = 3
TUNED = True  # my own playouts (and the default move) follow OWN_POLICY, not the heuristic
OWN_POLICY = tuned  # this seat's playout policy (and the search's default move)
DEFAULT_POLICY = None  # the search's default move, if not OWN_POLICY's
MARGIN = 1.0  # a move other than the tuned policy's must beat it by this many standard errors
NOISE = 0.0  # the opponent model: the share of the others' playout moves picked at random
INFER = False  # deals weighted by the refusals seen on the field (determinize.sample_inferred)
TREE_DEPTH = 0  # own decisions after the root move chosen in-tree (tree.py; 0: the flat search)
HISTORY = False  # with a bot's BattleRecord: deals resampled by the others' whole battle (history.py)
# The endgame against the others' known policy (respond.Expectimax, fourteenth pass; off: it did
# not measure better): from RESPOND_CARDS cards in the battle's hands, on RESPOND_DEALS deals
# drawn from the view, the move of best mean expected result when every other seat plays the
# heuristic bot (only where the opponent model has no seat at random); a deal that needs more
# than RESPOND_NODES positions leaves the move to the search.
RESPOND = False
RESPOND_CARDS = 20
RESPOND_DEALS = 4
RESPOND_CHANCE = 1  # exact over this many cards drawn on a line, playouts beyond
RESPOND_NODES = 20_000
# Fifteenth pass: the deals it plans on, with a bot's BattleRecord -- "plain" (from the view),
# "sis" (history.pool_sis: each seat's hand drawn by how well the known policy explains its
# turns) or "exact" (history.pool_exact: a hand that reproduces every recorded turn) -- and a
# guard: the tuned move is left only when the expectimax prefers the other move on at least
# RESPOND_AGREE of the deals or by more than RESPOND_Z standard errors of the per-deal
# difference (None, None: on the mean alone, as in the fourteenth pass).
RESPOND_SOURCE = "plain"
RESPOND_AGREE: float | None = None
RESPOND_Z: float | None = None
RESPOND_FOLLOW = False  # the seat's own later moves the tuned policy's (respond.Expectimax follow)


@dataclass
class Candidate:
    action: Action
    model: tuple | None
    text: str
    total: float = 0.0
    runs: int = 0
    alive: bool = True
    values: dict[int, float] = field(default_factory=dict, repr=False)  # round -> playout value
    node: tree.Node | None = field(default=None, repr=False)  # with tree_depth: what follows

    @property
    def mean(self) -> float:
        return self.total / self.runs if self.runs else 0.0


@dataclass
class Advice(hints.Advice):
    plan_plays: int | None = None
    candidates: list[Candidate] = field(default_factory=list)
    rounds: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {
            **super().to_json(), "plan_plays": self.plan_plays,
            "candidates": [{"action": c.action.to_json(), "text": c.text,
                            "win_rate": round(c.mean, 4), "playouts": c.runs}
                           for c in sorted(self.candidates, key=lambda c: -c.mean)],
            "rounds": self.rounds, "decisions": self.decisions,
        }


def _hand_counts(view: Game, p: int) -> list[int]:
    c = [0] * 14
    for s in view.hand(p):
        c[view.number(view.values[s])] += 1  # type: ignore[arg-type]
    return c


def _ability(view: Game, p: int) -> int | None:
    ch = view.own_character(p)
    if ch == KYOKO and view.revealed[p] is None:
        return None  # Kyoko restricts only once revealed
    return ch


def plan_text(view: Game, p: int) -> tuple[str | None, int | None, Partition | None]:
    counts = _hand_counts(view, p)
    if not any(counts):
        return None, None, None
    ability = _ability(view, p)
    part = partition(counts, ability)
    ch = view.own_character(p)
    who = f" as {CHAR_KEYS[ch].capitalize()}" if ch is not None else ""
    return (f"your hand empties in {part.plays} play{'s' * (part.plays != 1)} at best{who}: "
            f"{part.text()}", part.plays, part)


def _prune(b: Battle, cands: list[tuple], limit: int, own) -> list[tuple]:
    """At most ``limit`` candidates: the heuristic's move, the non-play moves, then the plays
    that leave the fewest plays to go (fuller groups and lower numbers first)."""
    if len(cands) <= limit:
        return cands
    p = b.turn
    keep = []
    for first in (own(b), heuristic(b)):
        if first in cands and first not in keep:
            keep.append(first)
    others = [a for a in cands if a[0] != "P" and a not in keep]
    plays = [a for a in cands if a[0] == "P" and a not in keep]
    ability = b.char[p] if b.revealed[p] else None

    def after(a: tuple) -> tuple:
        h = b.hands[p][:]
        for n, k in a[3]:
            h[n] -= k
        return (min_plays_fast(h, ability), -sum(k for _, k in a[3]), a[1])

    plays.sort(key=after)
    return (keep + others + plays)[:limit]


def advise(view: Game, legal: list[Action], *, seed: int = 0, budget: int | None = None,
           horizon: int | None = None, deadline: float | None = None,
           max_candidates: int | None = None,
           noise: float | list[float] | None = None, own=None, default=None,
           record=None, tree_depth: int | None = None, margin: float | None = None) -> Advice:
    """The recommended action for the seat whose view this is, with its plan and reason.
    Parameters left ``None`` take the module's tuned constants (read at call time); ``own`` is
    this seat's playout policy (``OWN_POLICY``), ``default`` the move the search must clearly
    beat (``DEFAULT_POLICY``, or ``own``'s). ``record``: a bot's ``history.BattleRecord``; with
    ``HISTORY`` the deals are drawn from a pool resampled by the others' recorded turns.
    ``tree_depth`` (``TREE_DEPTH``): this seat's next decisions after each candidate chosen by a
    tree over the deals (``tree.py``) instead of by ``own``. ``margin`` (``MARGIN``): how many
    standard errors a move must beat the default move by."""
    t0 = time.perf_counter()
    budget = BUDGET if budget is None else budget
    horizon = HORIZON if horizon is None else horizon
    max_candidates = MAX_CANDIDATES if max_candidates is None else max_candidates
    noise = NOISE if noise is None else noise
    tree_depth = TREE_DEPTH if tree_depth is None else tree_depth
    margin = MARGIN if margin is None else margin
    nz = list(noise) if isinstance(noise, (list, tuple)) else [noise] * view.n_players
    if own is None and imitate.PLAYOUT:
        own = imitate.policy  # the oracle's imitation (imitate.py; off by default)
    own = (OWN_POLICY if TUNED else heuristic) if own is None else own
    me = view.viewer
    if me is None or me < 0:
        raise ValueError("advice needs a seat's view")
    if not legal:
        raise ValueError("no legal action to advise on")
    rng = random.Random(seed)
    info = ViewInfo(view)
    info.model_characters(noise)
    plan, plan_plays, _ = plan_text(view, me) if view.phase != "choose" else (None, None, None)

    if view.phase == "choose":
        if CHOOSE_HORIZON is not None:
            horizon = CHOOSE_HORIZON
        if CHOOSE_BUDGET is not None:
            budget = max(budget, CHOOSE_BUDGET)
        cands = [Candidate(a, None, view.describe(a)) for a in legal]
        chars = [view.character_of_card(view.values[a.slot])[1] for a in legal]  # type: ignore[arg-type]

        mine = choose_character(_hand_counts(view, me), chars, random.Random(seed))
        heur_c = cands[chars.index(mine)]

        def world(r: random.Random, i: int) -> Battle:
            return info.sample_start(r, chars[i], choose_character)
    else:
        amap = action_map(view, legal)
        probe = info.sample(random.Random(seed))
        if default is None and imitate.DEFAULT:
            default = imitate.policy
        first = default or DEFAULT_POLICY or own
        models = _prune(probe, [a for a in probe.legal() if a in amap], max_candidates, first)
        if imitate.TOPK:  # only the moves the oracle's imitation rates highest
            models = imitate.top(probe, models, imitate.TOPK, first(probe))
        cands = [Candidate(amap[a], a, view.describe(amap[a])) for a in models]
        heur = first(probe)
        heur_c = next((c for c in cands if c.model == heur), None)

        def world(r: random.Random, i: int) -> Battle:
            return shared  # the same deal for every candidate of the round

    draw = None
    if record is not None and HISTORY and view.phase != "choose" and record.facts():
        if history.FRESH:
            def draw(r: random.Random) -> Battle:
                return record.pool_sis(info, r, nz, deals=1)[0][0]  # a new deal every round
        else:
            deals, weights = record.pool(info, random.Random(seed ^ 0x415), nz)

            def draw(r: random.Random) -> Battle:
                return r.choices(deals, weights)[0].copy()

    def sample(r: random.Random) -> Battle:
        return draw(r) if draw is not None else _sample(info, r)

    if len(cands) == 1:
        c = cands[0]
        return Advice(c.action, c.text, "it is your only legal move.", plan, plan_plays,
                      cands, 0, 0, time.perf_counter() - t0)
    if RESPOND and view.phase != "choose" and not any(nz[q] > 0.5 for q in range(len(nz))
                                                       if q != me):
        rsample = sample
        if RESPOND_SOURCE != "plain" and record is not None and record.facts():
            pool = record.pool_exact if RESPOND_SOURCE == "exact" else record.pool_sis
            rdeals: list[Battle] = []

            def rsample(r: random.Random) -> Battle:
                if not rdeals:  # built when first needed (not in a position too large)
                    rdeals.extend(pool(info, random.Random(seed ^ 0x5E5), nz,
                                       deals=RESPOND_DEALS)[0])
                return rdeals.pop().copy()
        known = _respond(view, rsample, cands, heur_c, seed)
        if known is not None:
            best, value, n = known
            return Advice(best.action, best.text,
                          f"if the others play as the easy bots do, it wins {value:.0%} of the "
                          f"time over {_deals(n)}", plan,
                          plan_plays, cands, 0, 0, time.perf_counter() - t0)
    proven = (_endgame(view, sample, cands, seed, None if deadline is None else deadline / 3)
              if view.phase != "choose" else None)

    spent, rounds, halved = 0, 0, False
    while True:
        rounds += 1
        deal_seed = rng.getrandbits(64)
        shared = None if view.phase == "choose" else sample(random.Random(deal_seed))
        for i, c in enumerate(cands):
            if not c.alive:
                continue
            r = random.Random(deal_seed ^ 0x5EED)
            b = world(r, i).copy()
            b.rng = r
            if c.model is not None:
                b.apply(c.model)
            if tree_depth and c.model is not None:
                if c.node is None:
                    c.node = tree.Node()
                v, steps = tree.playout(b, me, c.node, horizon, _prune, own, heuristic, noise=nz,
                                        rng=random.Random(deal_seed ^ 0xB07), depth=tree_depth,
                                        alts=_tree_alts(), resample=tree.RESAMPLE,
                                        fixed=info.hand_known, observe=tree.OBSERVE)
            else:
                v, steps = rollout(b, me, horizon, noise=noise,
                                   rng=random.Random(deal_seed ^ 0xB07), mine=own)
            c.total += v
            c.runs += 1
            c.values[rounds] = v
            spent += steps + 1
        if rounds >= MIN_ROUNDS and spent >= budget:
            break
        if deadline is not None and rounds >= MIN_ROUNDS and time.perf_counter() - t0 > deadline:
            break
        if not halved and spent >= budget // 2 and sum(c.alive for c in cands) > 3:
            ranked = sorted((c for c in cands if c.alive), key=lambda c: -c.mean)
            for c in ranked[max(3, len(ranked) // 2):]:
                c.alive = c is heur_c  # the heuristic's move stays: the others are paired with it
            halved = True

    def score(c: Candidate) -> float:
        """The playouts' win rate, or the share of deals where exact search proves a forced win
        when that is higher (a forced win is won whatever the others do)."""
        if proven is None:
            return c.mean
        return max(c.mean, proven[0][cands.index(c)] / proven[1])

    def rank(c: Candidate) -> tuple:
        return (c.alive, score(c), c is heur_c)

    best = max(cands, key=rank)
    if (heur_c is not None and best is not heur_c and not _beats(best, heur_c, margin)
            and not (proven is not None and proven[0][cands.index(best)]
                     > proven[0][cands.index(heur_c)])):
        best = heur_c  # not clearly better than the heuristic's move: keep that
    alive = sorted((c for c in cands if c.alive and c is not best), key=lambda c: -score(c))
    nxt = alive[0] if alive else None
    short = nxt.text.split(" — ")[0] if nxt else ""  # a character's name, not its ability text
    k, n = (proven[0][cands.index(best)], proven[1]) if proven is not None else (0, 0)
    if proven is not None and k and k / n >= best.mean:
        reason = (f"searched move by move to the end of the battle in {_deals(n)}, it wins "
                  f"{k} of them whatever the others play")
        if nxt:
            reason += f", against {proven[0][cands.index(nxt)]} for \"{short}\" (next best)"
        reason += (f"; played out over {best.runs} deals, it wins the battle {best.mean:.0%} "
                   f"of the time")
    else:
        reason = (f"played out to the end over {_deals(best.runs)}, it wins the battle "
                  f"{best.mean:.0%} of the time")
        if nxt and nxt.mean > best.mean:
            reason += (f"; \"{short}\" won {nxt.mean:.0%} on the same deals, too little more to "
                       f"be sure it is better, so the hint keeps its rule of thumb's move")
        elif nxt:
            reason += f", against {nxt.mean:.0%} for \"{short}\" (next best)"
        if proven is not None:
            reason += (f"; searched move by move to the end in {n} of those deals, it wins {k} "
                       f"whatever the others play" if k else
                       f"; searched move by move to the end in {n} of those deals, it has no "
                       f"sure win")
    if view.phase == "choose":
        ch = view.character_of_card(view.values[best.action.slot])[1]  # type: ignore[arg-type]
        reason += f"; {CHAR_NAMES[ch]} has life {LIFE[ch]}"
        counts = _hand_counts(view, me)
        part = partition(counts, ch if ch != KYOKO else None)
        plan = (f"with {CHAR_KEYS[ch].capitalize()} your hand empties in {part.plays} plays at "
                f"best: {part.text()}")
        plan_plays = part.plays
    return Advice(best.action, best.text, reason + ".", plan, plan_plays, cands, rounds, spent,
                  time.perf_counter() - t0)


def _deals(n: int) -> str:
    """How the reasons name the sampled deals, in a player's words (ux22: "sampled deals played
    out", "deals consistent with your view" meant nothing to a newcomer)."""
    return f"{n} random deal{'s' * (n != 1)} of the cards you cannot see"


def _tree_alts() -> tuple:
    """The moves an in-tree decision weighs after the tuned policy's: the heuristic's and the
    expert policy's (``expert.SELF_PLAY_W``), so the tree's few visits go to plausible moves."""
    from .expert import SELF_PLAY_W, linear
    global _ALTS
    if _ALTS is None:
        _ALTS = (heuristic, linear(SELF_PLAY_W))
    if imitate.TREE:  # the oracle's imitation first (imitate.py; off by default)
        return (imitate.policy, *_ALTS)
    return _ALTS


_ALTS = None


def _sample(info: ViewInfo, rng: random.Random) -> Battle:
    return info.sample_inferred(rng) if INFER else info.sample(rng)


def _beats(a: Candidate, b: Candidate, z: float) -> bool:
    """Whether ``a`` beats ``b`` by more than ``z`` standard errors of the paired difference
    (both were played out on the same deals: common random numbers)."""
    diffs = [v - b.values[r] for r, v in a.values.items() if r in b.values]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * (var / n) ** 0.5


def _respond(view: Game, sample, cands: list[Candidate], first: Candidate | None,
             seed: int) -> tuple[Candidate, float, int] | None:
    """``RESPOND``: the candidate of best mean expected result against the others' known policy
    on ``RESPOND_DEALS`` deals from the view (``first`` wins ties), its mean, the deals; None
    when the position is larger than ``RESPOND_CARDS`` or a deal needs over ``RESPOND_NODES``."""
    from .respond import Expectimax, OutOfBudget, pool_from_deck
    me = view.viewer
    if sum(len(view.hand(q)) for q in range(view.n_players) if view.alive[q]) > RESPOND_CARDS:
        return None
    order = sorted((c for c in cands if c.model is not None), key=lambda c: c is not first)
    total = dict.fromkeys(range(len(order)), 0.0)
    per: list[list[float]] = []  # per deal, each candidate's value
    rng = random.Random(seed ^ 0x4E5)
    try:
        for _ in range(RESPOND_DEALS):
            d = pool_from_deck(sample(rng))
            e = Expectimax(me, RESPOND_NODES, chance_depth=RESPOND_CHANCE,
                           seed=rng.getrandbits(32), follow=RESPOND_FOLLOW)
            vals = e.scores(d, [c.model for c in order])
            per.append([vals[c.model] for c in order])
            for i, c in enumerate(order):
                total[i] += vals[c.model]
    except OutOfBudget:
        return None
    i = max(range(len(order)), key=lambda i: total[i])
    if order[0] is first and i != 0 and not _clear(per, i, 0):
        i = 0  # the expectimax prefers another move, but not clearly: keep the tuned one
    return order[i], total[i] / RESPOND_DEALS, RESPOND_DEALS


def _clear(per: list[list[float]], i: int, j: int) -> bool:
    """``RESPOND_AGREE``/``RESPOND_Z``: whether candidate i beats j clearly over the deals --
    better on at least ``RESPOND_AGREE`` of them, or by more than ``RESPOND_Z`` standard errors
    of the per-deal difference (with neither set, any mean gain is clear)."""
    if RESPOND_AGREE is None and RESPOND_Z is None:
        return True
    diffs = [row[i] - row[j] for row in per]
    n = len(diffs)
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    if RESPOND_AGREE is not None and sum(d > 0 for d in diffs) >= RESPOND_AGREE * n:
        return True
    if RESPOND_Z is not None and n >= 2:
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean > RESPOND_Z * (var / n) ** 0.5
    return False


def _endgame(view: Game, sample, cands: list[Candidate], seed: int,
             until: float | None = None) -> tuple[list[int], int] | None:
    """Exact search once the hidden part is small (at most ``ENDGAME_CARDS`` cards in the hands
    still in the battle): on each of ``ENDGAME_DEALS`` deals consistent with the view, which
    candidates are a forced win for this seat whatever the others do (``exact.ExactSolver``).
    Work is bounded: ``ENDGAME_NODES`` per deal (more: the position is too big), and no new deal
    after ``ENDGAME_TOTAL`` nodes or ``until`` seconds. (forced wins per candidate, deals
    searched), or None when the position is too big or too few deals were searched."""
    me = view.viewer
    cards = sum(len(view.hand(q)) for q in range(view.n_players) if view.alive[q])
    if cards > ENDGAME_CARDS:
        return None
    wins = [0] * len(cands)
    rng = random.Random(seed ^ 0xE4AC7)
    t0 = time.perf_counter()
    deals = nodes = 0
    while deals < ENDGAME_DEALS:
        if nodes > ENDGAME_TOTAL or (until is not None and time.perf_counter() - t0 > until):
            break  # keep the deals searched so far
        solver = ExactSolver(sample(random.Random(rng.getrandbits(64))), ENDGAME_NODES)
        root = solver.root
        if root.turn != me:
            return None
        try:
            got = []
            for c in cands:
                child = root.copy()
                child.apply(c.model)  # type: ignore[arg-type]
                got.append(solver.wins(child))
        except TooBig:
            return None
        nodes += solver.nodes
        deals += 1
        for i, w in enumerate(got):
            wins[i] += w
    return (wins, deals) if deals >= ENDGAME_MIN_DEALS else None


def hand_text(view: Game, p: int) -> str:
    c = _hand_counts(view, p)
    return " ".join(card_text(n) for n in list(range(1, 14)) + [0] for _ in range(c[n]))


def hinter(view: Game, legal: list[Action], *, seed: int = 0,
           deadline: float | None = 0.17) -> str | None:
    """The ``hint`` command's text for this seat."""
    if not legal or view.viewer is None:
        return None
    return advise(view, legal, seed=seed, deadline=deadline).render()


__all__ = ["Advice", "advise", "describe", "hinter", "plan_text"]
