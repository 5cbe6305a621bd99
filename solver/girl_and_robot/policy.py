"""The playout policy and the evaluation of unfinished playouts for The Girl and the Robot.

``PlayoutBot`` plays every seat of a simulated game (the search's own seat after its first move,
its ally and the other team). It is the heuristic bot with two changes that make it a model of
a player rather than a copy of the bot the search plays against:

* **noise**: at its own turn, with chance ``eps`` it takes one of the moves the heuristic rates
  worth making (score > 0) drawn in proportion to their scores instead of the best one, and with
  chance ``eps / 2`` it ends the turn and draws while an escape is rated worth a card -- players
  hold cards back, misjudge odds, save an Evade for later;
* **no bookkeeping across playouts**: a fresh bot per seat and playout, seeded by the playout.

``value(state, team)`` is the playout's result for ``team``: 1 for a win, 0 for a loss, and for a
game still running at the horizon the team's share of the table's *strength*, where a living
member is worth 1, plus 0.45 for each of their first two weapons, 0.08 for each escape card
(Evade, Grave Digger, A Deal with a Demon, Ambush, Provoke) and 0.03 for each other card in hand,
and a member about to draw a known face-up Demon without a weapon loses half their worth. The
weights are tuned by hand against the heuristic team (see ``docs/solver.md``).
"""

from __future__ import annotations

from p2pcards.bots.girl_and_robot import GirlAndRobotBot
from p2pcards.engine import Action
from p2pcards.games.girl_and_robot.game import DEMON, Game

ESCAPE_CARDS = ("evade", "grave_digger", "deal_with_demon", "ambush", "provoke")
MEMBER, WEAPON, ESCAPE, CARD = 1.0, 0.45, 0.08, 0.03


class PlayoutBot(GirlAndRobotBot):
    """The heuristic bot with a player's noise (see the module text)."""

    name = "playout"

    def __init__(self, seat: int, seed: int | None = None, eps: float = 0.15) -> None:
        super().__init__(seat, seed)
        self.eps = eps

    def _turn(self, v: Game, legal: list[Action]) -> Action:
        if self.eps > 0 and self.rng.random() < self.eps:
            scored = [(self.score(v, a), a) for a in legal if a.kind != "end"]
            good = [(s, a) for s, a in scored if s > 0]
            ends = [a for a in legal if a.kind == "end"]
            if good and self.rng.random() < 0.5 and any(a.draw == 1 for a in ends):
                return next(a for a in ends if a.draw == 1)  # holds its cards back
            if good:
                total = sum(s for s, _ in good)
                x = self.rng.random() * total
                for s, a in good:
                    x -= s
                    if x <= 0:
                        return a
                return good[-1][1]
        return super()._turn(v, legal)


def strength(g: Game, p: int) -> float:
    if not g.alive[p]:
        return 0.0
    w = min(2, len(g.weapons(p)))
    hand = g.hand(p)
    esc = sum(1 for s in hand if g.kind(s) in ESCAPE_CARDS)
    worth = MEMBER + WEAPON * w + ESCAPE * esc + CARD * (len(hand) - esc)
    draw = g.zones["draw"]
    if g.turn == p and draw and w == 0 and draw[-1] in g.faceup and g.kind(draw[-1]) == DEMON:
        worth *= 0.5
    return worth


def value(g: Game, team: int) -> float:
    """The playout's result for ``team`` (see the module text)."""
    if g.winner is not None:
        return 1.0 if g.winner == team else 0.0
    ours = sum(strength(g, p) for p in range(g.n_players) if g.team[p] == team)
    theirs = sum(strength(g, p) for p in range(g.n_players) if g.team[p] != team)
    if ours + theirs == 0:
        return 0.5
    return ours / (ours + theirs)
