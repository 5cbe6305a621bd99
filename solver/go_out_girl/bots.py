"""Solver-driven Go Out Girl bots. Like every bot they decide from their seat's view alone.

* ``NormalBot`` -- the Monte Carlo advisor on a small budget (``NORMAL_BUDGET`` simulated
  decisions a move);
Both keep a ``TableMemory`` for the match (``MODEL_OPPONENTS``): from each view they are handed
they record how every other seat played (the piles it played, the piles it did not beat) and
model it in the playouts as the heuristic bot or a random player, as its play so far fits
(``opponents.py``; against three random bots 0.946 against 0.882 without, docs/solver.md).
With ``advisor.HISTORY`` (off: measured no better) they also keep the others' turns this battle
(``history.BattleRecord``) and the advisor weighs its deals by them.

* ``StrongBot`` -- the advisor on ``STRONG_BUDGET`` = 12,000 decisions a move with its own next
  ``STRONG_TREE_DEPTH`` = 2 decisions after each candidate chosen in-tree (``tree.py``,
  single-observer ISMCTS): against three heuristic bots over match seeds 0-399 it beats the flat
  search at 4,000 decisions (the strong level before the sixth pass) and the flat search at
  12,000, which alone measured worse than at 4,000 (docs/solver-passes.md, Go Out Girl, sixth pass).
  ``scripts/bench_solver.py`` measures it at this budget (the hint keeps its own flat search,
  ``advisor.BUDGET``).

At a table its memory finds random (``RANDOM_TABLE``) the strong bot searches flat on
``RANDOM_TABLE_BUDGET`` instead (``RANDOM_TABLE_HORIZON`` and ``RANDOM_TABLE_MARGIN`` can change
that search; off by default), and once the table is clearly random (``RANDOM_TABLE_CHOOSE_AT``)
chooses its character by playouts to the end of the battle (``RANDOM_TABLE_CHOOSE_HORIZON``,
``RANDOM_TABLE_CHOOSE_BUDGET``).

``TREE_DEPTH``, if set, overrides every level's tree depth (``--set bots.TREE_DEPTH=0`` in
``paired.py``: the flat search).
"""

from __future__ import annotations

from p2pcards.bots.base import Bot
from p2pcards.engine import Action
from p2pcards.games.go_out_girl.game import Game

from . import advisor
from .advisor import advise
from .history import BattleRecord
from .opponents import TableMemory
from .policy import tuned

NORMAL_BUDGET = 1_000
STRONG_BUDGET = 12_000  # with STRONG_TREE_DEPTH: the sixth pass's measured default
STRONG_TREE_DEPTH = 2  # the strong bot's own next decisions chosen in-tree (tree.py)
MODEL_OPPONENTS = True  # learn per seat whether it plays like the heuristic or at random
RECORD = True  # with advisor.HISTORY: keep the others' turns this battle (history.BattleRecord)
TREE_DEPTH = None  # if set, every level's tree depth (0: the flat search); None: the level's own
RANDOM_TABLE = 0.5  # from this mean chance that the others play at random: the tuned policy
RANDOM_TABLE_BUDGET = 4_000  # ... and the flat search on this budget (no tree)
RANDOM_TABLE_HORIZON = None  # ... with playouts this long (None: advisor.HORIZON)
RANDOM_TABLE_MARGIN = None  # ... leaving the tuned policy's move by this many SE (None: MARGIN)
# ... at the character choice: playouts to the end of the battle (1,000 decisions is more than
# any battle) on 16,000 decisions, where the memory's mean chance that the others play at random
# is at least RANDOM_TABLE_CHOOSE_AT. Cut at HORIZON the playouts chose Ten far too often against
# random players (20 of 30 such battles won, 158 of 161 with the others). 0.6 is above the even
# prior (0.5: every table's first choice, where played out it lost against heuristic bots) and
# above what heuristic tables reached at a later choice (at most 0.57 over 83, seeds 0-39).
# Against random bots +0.022 +- 0.008 (seeds 200-349) and +0.009 +- 0.005 (held out, 500-649);
# against heuristic bots the base's counts on every seed replayed (docs/solver-passes.md, Go Out Girl,
# eighth pass).
RANDOM_TABLE_CHOOSE_HORIZON: int | None = 1_000
RANDOM_TABLE_CHOOSE_BUDGET: int | None = 16_000
RANDOM_TABLE_CHOOSE_AT = 0.6


class SolverBot(Bot):
    name = "solver"
    budget = STRONG_BUDGET
    tree_depth = STRONG_TREE_DEPTH  # own decisions after each candidate chosen in-tree

    memory: TableMemory | None = None
    record: BattleRecord | None = None

    def decide(self, view: Game | None, legal: list[Action]) -> Action:  # type: ignore[override]
        assert view is not None
        noise = own = default = None
        random_table = False
        if MODEL_OPPONENTS:
            if self.memory is None:
                self.memory = TableMemory(self.seat, view.n_players)
            self.memory.observe(view, seed=view.battle)
            noise = self.memory.noise()
            others = [x for q, x in enumerate(noise) if q != self.seat]
            if advisor.TUNED and sum(others) / len(others) >= RANDOM_TABLE:
                own = default = tuned  # the tuned policy plays better against random players
                random_table = True
        keep = RECORD and (advisor.HISTORY or (advisor.RESPOND
                                               and advisor.RESPOND_SOURCE != "plain"))
        if keep:
            if self.record is None:
                self.record = BattleRecord(self.seat, view.n_players)
            self.record.observe(view)
        if len(legal) == 1:
            return legal[0]
        depth = self.tree_depth if TREE_DEPTH is None else TREE_DEPTH
        budget = self.budget
        horizon = margin = None
        if random_table and depth:
            # the tree was measured against heuristic players; at a table of random ones the
            # flat search of the fifth pass plays better (0.938 against 0.897 on the benchmark's
            # battles against random bots)
            depth, budget = 0, min(budget, RANDOM_TABLE_BUDGET)
            horizon, margin = RANDOM_TABLE_HORIZON, RANDOM_TABLE_MARGIN
            if view.phase == "choose" and sum(others) / len(others) >= RANDOM_TABLE_CHOOSE_AT:
                if RANDOM_TABLE_CHOOSE_HORIZON is not None:
                    horizon = RANDOM_TABLE_CHOOSE_HORIZON
                if RANDOM_TABLE_CHOOSE_BUDGET is not None:
                    budget = RANDOM_TABLE_CHOOSE_BUDGET
        return advise(view, legal, seed=self.rng.getrandbits(32), budget=budget,
                      noise=noise, own=own, default=default,
                      record=self.record if keep else None,
                      tree_depth=depth, horizon=horizon, margin=margin).action


class NormalBot(SolverBot):
    name = "normal"
    budget = NORMAL_BUDGET
    tree_depth = 0  # the flat search: a tree needs the visits of a larger budget


class StrongBot(SolverBot):
    name = "strong"
