"""The policies of The Girl and the Robot's search: the careful player, the playout bot, and
the evaluation of unfinished playouts.

**The careful player** (``CarefulBot``) is the heuristic bot with one change: it keeps its escape
cards (Evade, Grave Digger, A Deal with a Demon, Ambush, Provoke, Smoke Bomb, Manipulate, Peace
Treaty, the Robot's skip...) for a draw that is dangerous -- a chance of a Demon of at least
``UNARMED_RISK`` (1 in 5) without a weapon, ``ARMED_RISK`` (1 in 2) with one -- where the
heuristic bot spends one at any chance above zero. Deaths come from the face-up Demons the other
team puts on top of the pile for you (in 60 four-player games of heuristic bots, 154 of 163
deaths were a known Demon drawn without a weapon), so an Evade spent against a 1-in-10 chance is
missing when the certain Demon comes. Alone, this change takes 0.67-0.69 of two- and four-player
games against a heuristic team (0.60 at three players), 300 games each, sides alternated.

**The playout bot** (``PlayoutBot``) plays every seat of a simulated game: the search's own team
as the careful player, the other team as the heuristic bot (the model of the opponents we
meet), both with a player's noise: at its own turn, with chance ``eps`` it takes one of the
moves rated worth making (score > 0) drawn in proportion to their scores instead of the best
one, or (half of those times) ends its turn and draws, holding its cards back.

``value(state, team)`` is a playout's result for ``team``: 1 for a win, 0 for a loss, and for a
game still running at the horizon the team's share of the table's *strength*, where a living
member is worth 1, plus 0.45 for each of their first two weapons, 0.08 for each escape card
and 0.03 for each other card in hand, and a member about to draw a known face-up Demon without
a weapon loses half their worth.
"""

from __future__ import annotations

from p2pcards.bots.girl_and_robot import GirlAndRobotBot
from p2pcards.engine import Action
from p2pcards.games.girl_and_robot.game import DEMON, Game

ESCAPE_CARDS = ("evade", "grave_digger", "deal_with_demon", "ambush", "provoke")
MEMBER, WEAPON, ESCAPE, CARD = 1.0, 0.45, 0.08, 0.03
UNARMED_RISK = 0.2  # the advisor's HIGH
ARMED_RISK = 0.5  # the advisor's WEAPON_HIGH


class CarefulBot(GirlAndRobotBot):
    """The heuristic bot that keeps its escapes for a dangerous draw (see the module text)."""

    name = "careful"
    careful = True

    def _risk(self, v: Game, p: int) -> float:
        r = super()._risk(v, p)
        if not self.careful:
            return r
        o = self.odds(v, 0)
        if o < (ARMED_RISK if v.defenders(p) else UNARMED_RISK):
            return 0.0
        return r


class PlayoutBot(CarefulBot):
    """A seat of a playout: careful or heuristic, with a player's noise (see the module text)."""

    name = "playout"

    def __init__(self, seat: int, seed: int | None = None, eps: float = 0.15,
                 careful: bool = False) -> None:
        super().__init__(seat, seed)
        self.eps = eps
        self.careful = careful

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
