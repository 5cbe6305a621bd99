"""The exact round planner in a round's last turns, from one seat's view (the strong bot).

When the stacks hold at most ``CARDS`` cards and every one of them is face up (each stack down to
its top card), the only hidden part of the round is the other seats' unseen hand cards. The
seat plans the rest of the round with ``exact.Planner`` on its view with those cards left out (a
pessimistic deal: the others can use only the cards the seat knows they hold), valuing the
round's end by ``carry`` (won first, then Time, the points toward each goal, the Foes left,
the cards kept), and plays the first move of the plan. The others replan from their own views at
their turns. A position past ``NODES`` planner states, or whose search lists more than ``MOVES``
moves (a big hand has hundreds a position), is refused and the set advisor decides.

Measured with full knowledge (``oracle.py``), planning the last two cards of each round this way
won 33 of 96 games where the strong team won 21 (seeds 0-15 of each adventure; docs/solver.md).
"""

from __future__ import annotations

import sys

from p2pcards.games.out_of_this_world.game import Game

from .exact import Planner, TooBig
from .model import Round, action_map, round_from_game

CARDS = 2
NODES = 20_000
# the moves listed in the search (``exact.Planner.moves``): the node bound alone let a 45-card
# hand search 29 s before refusing; a deterministic count of work, not a clock
MOVES = 40_000


TOKEN = 8  # a Time token, in points toward the goal, at a round's end (the carry score)
STAYS = 0.75  # the share of a Foe's end-of-round Time that it costs again next round
DEFEATED = 12.0  # a Foe the adventure's win needs defeated, once defeated (Confrontation)
WANTED = 8.0  # an Item the adventure's win needs equipped, once equipped (Stained Glass)


def carry(m) -> tuple[bool, float]:
    """A round's end valued for the rounds after it: won first, then Time tokens (``TOKEN``
    points each), the points equipped toward each seat's goal (none beyond it), minus 3 a Foe
    still in front of a seat (it costs Time again next round), plus half a point a card kept
    (at most 5 a seat: the rest is discarded down)."""
    r = m.r
    pts = sum(min(m.points(p), r.goal) if r.goal else m.points(p) for p in range(r.n))
    foes = sum(len(f) for f in m.foes)
    kept = sum(min(len(h), 5) for h in m.hands)
    return (m.result == "won", TOKEN * (m.time - m.time0) + pts - 3 * foes + 0.5 * kept)


def carry_adventure(m) -> tuple[bool, float]:
    """``carry`` with the adventure's terms (opt-in, fifth pass: neutral in play, so not the
    default; docs/solver.md). A Foe left counts by its weight (a Gargoyle as two), and one that
    costs Time at every round's end costs ``STAYS`` of it again; a Foe the win needs defeated is
    worth ``DEFEATED`` once defeated (minus as much while it stands), and an Item the win needs
    equipped is worth ``WANTED`` more once equipped (up to the count the win needs)."""
    won, v = carry(m)
    r = m.r
    for p in range(r.n):
        for f in m.foes[p]:
            d = m.card(f)
            for e in d.effects:
                if e.when == "while_in_play" and e.do == "counts_as":
                    v -= 3 * (e.n - 1)
                elif e.when == "end_of_round" and e.do == "lose_time":
                    v -= STAYS * TOKEN * e.n
    for cond in r.win:
        if cond[0] == "defeated":
            done = min(cond[2], dict(m.defeated).get(cond[1], 0))
            standing = sum(1 for p in range(r.n) for f in m.foes[p] if m.card(f).key == cond[1])
            v += DEFEATED * done - DEFEATED * standing
        elif cond[0] == "equipped":
            have = sum(1 for p in range(r.n) for c, _ in m.equip[p] if m.card(c).key == cond[1])
            v += WANTED * min(cond[2], have)
    return won, v


def round_from_view(g: Game) -> Round | None:
    """The round model of a seat's view with the others' unseen hand cards left out; None when
    a stack card is hidden or no Go For It! decision is pending."""
    req = g.req
    if req is None or req["type"] != "decide" or g.phase != "go" or g.step not in (
            "take", "action", "give"):
        return None
    if any(g.values[s] is None for i in range(g.n_stacks) for s in g.stack(i)):
        return None
    return round_from_game(g, leave_out_unseen=True)


def endgame_move(view: Game, legal, cards: int = CARDS, nodes: int = NODES, value=carry,
                 moves: int = MOVES):
    """The planner's first move from the seat's view in a round's last turns, or None."""
    if view.phase != "go" or sum(len(view.stack(i)) for i in range(view.n_stacks)) > cards:
        return None
    m = round_from_view(view)
    if m is None or len(m.hands[m.turn]) != len(view.hand(m.turn)):
        return None
    pl = Planner(m, nodes, value, move_limit=moves)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        best = pl.value(m)
        line = pl.line(m, best)
    except TooBig:
        return None
    finally:
        sys.setrecursionlimit(limit)
    if not line or line[0].chance:
        return None
    return action_map(view, legal).get(line[0].action)
