"""Solver-driven Out Of This World bots. Like every bot they decide from their seat's view alone.

Both start every decision from the set advisor's move (``advisor.advise``: the CP-SAT set
plan of the bot's own hand, priced from its view); they differ in the prices:

* ``NormalBot`` -- the set plan alone: no pair kept in reserve against the Foes still to come
  this round, and a Pass worth the same to every player who still needs points;
* ``StrongBot`` -- the full prices the ``hint`` command uses: the reserve against Foes still to
  come, and Passes worth more to the players furthest from their goal; in a round's last two
  stack cards (all face up) the exact round planner from its view (``endgame.py``); before that,
  at every take and action decision, the determinized round search (``pimc.py``) compares the
  set advisor's move with the others over worlds sampled from its view and overrides it when
  another is better by ``margin`` carry points and by ``z`` standard errors of the paired
  difference over the worlds, a close verdict deciding on ``more`` further worlds (sixth pass).

``PlanBot`` is the strong bot without the search (the paired comparison in ``docs/solver.md``).
Two opt-in settings of the search, not the default (fifth pass, docs/solver-passes.md): ``value =
staticmethod(endgame.carry_adventure)`` (the adventure's win conditions and the Foes' recurring
Time in the carry score: neutral in play) and ``rounds = 2`` (each playout goes on through the
next round: 2.7 times the CPU a game, and worse in play -- 14 team points a game fewer on
Birthday Bash and Night School; machinery for a later try, not to be switched on as it is).
The figures and what was tried are in ``docs/solver.md``; ``scripts/bench_solver.py`` measures
the strong team against the heuristic team.
"""

from __future__ import annotations

from dataclasses import replace

from p2pcards.bots.base import Bot
from p2pcards.engine import Action
from p2pcards.games.out_of_this_world.game import Game

from . import pimc
from .advisor import DEFAULT, Prices, advise
from .endgame import carry, endgame_move


class SolverBot(Bot):
    name = "solver"
    prices: Prices = DEFAULT
    endgame = False  # the exact planner in a round's last turns (``endgame.py``)
    steps = ""  # the decisions the determinized round search checks ("action", "take,action")
    k = pimc.K  # its worlds a decision
    margin = pimc.MARGIN  # what another move must gain over the set advisor's, in carry points
    cards = 20  # it searches once the stacks hold at most this many cards
    token = float(pimc.TOKEN)  # a Time token in its playouts' score, in points
    value = staticmethod(carry)  # the carry score of a round's end (search and last turns)
    rounds = 1  # the rounds each playout of the search plays (2: on through the next round)
    z = pimc.Z  # standard errors of the paired difference an override must also pass (0: off)
    more = pimc.MORE  # further worlds for the best move and the advisor's when it is close

    def decide(self, view: Game | None, legal: list[Action]) -> Action:  # type: ignore[override]
        assert view is not None
        if len(legal) == 1:
            return legal[0]
        if self.endgame:
            act = endgame_move(view, legal, value=self.value)
            if act is not None:
                return act
        act = advise(view, legal, prices=self.prices, explain=False).action
        if (self.steps and view.phase == "go" and view.step in self.steps.split(",")
                and sum(len(view.stack(i)) for i in range(view.n_stacks)) <= self.cards):
            act, _ = pimc.search(view, legal, act, self.rng, self.k, self.margin,
                                 self.token, self.value, self.rounds, self.z, self.more)
        return act


class NormalBot(SolverBot):
    name = "normal"
    prices = replace(DEFAULT, phantom=False, pass_need=False)


class StrongBot(SolverBot):
    name = "strong"
    prices = DEFAULT
    endgame = True
    steps = "take,action"
    z = 1.0  # sixth pass: an override must also pass one standard error of its difference ...
    more = 24  # ... and a close verdict plays 24 more worlds for the two moves (docs/solver.md)


class PlanBot(StrongBot):
    """The strong bot before the determinized round search (the set advisor and the last-turns
    planner alone): the benchmark's and the docs' paired comparison."""
    name = "plan"
    steps = ""

