"""Reasons a player can follow, from the search's playouts and the exact Demon odds.

A searched hint says three things: **the move**, **what it prevents** (the chance of dying at
this turn's draw it removes, the Action card it stops, the alternative it beats) and **the odds
it rests on**: the exact chance that the next card is a Demon (the ``Odds:`` line) and the
playouts' figures -- the chance, over the deals of the unseen cards (weighted by the exact
chance of a Demon on top), that the seat is still alive and its team whole a few turns later,
after this move and after the best alternative, and the team's prospects (the mean playout
value: 1 a win, 0 a loss). Said in a player's words (ux22: "standing 0.74", "team whole" and
"weighed by its chance" were ours).
"""

from __future__ import annotations

from fractions import Fraction

from p2pcards.engine import Action
from p2pcards.games.girl_and_robot.game import Game

from .odds import Odds
from .search import Line, Result


def pct(p: Fraction | float) -> str:
    return f"{float(p):.0%}"


def alternative(res: Result, chosen: Action, base: Action) -> Line | None:
    """The line a player would compare with: the rule-of-thumb move when the search departs
    from it, else the best other candidate."""
    if chosen != base:
        return res.line(base)
    others = [x for x in res.lines if x.action != chosen]
    return max(others, key=lambda x: x.mean, default=None)


def deals_text(res: Result) -> str:
    """Which deals of the unseen cards the playouts ran in."""
    n = res.deals
    if res.exact:
        return f"every one of the {n} distinct deals of the {res.unseen} cards you have not seen"
    text = f"{n} random deals of the {res.unseen} cards you have not seen"
    if res.demon_deals:
        text += (f" ({res.demon_deals} with a Demon on top, counted at that Demon's real "
                 f"chance, {pct(res.top_demon)})")
    return text


def playouts(view: Game, res: Result, chosen: Action, base: Action) -> str:
    """The playouts' figures for ``chosen`` against the alternative, in words."""
    me = res.line(chosen)
    assert me is not None
    ally = view.living_ally(view.viewer) is not None  # type: ignore[arg-type]
    whole = f", you and your ally both alive {pct(me.team_alive)}" if ally else ""
    text = (f"played {res.horizon} turns ahead in {deals_text(res)}, you are alive after it "
            f"with chance {pct(me.survive)}{whole}, and your team's prospects are {me.mean:.2f} "
            f"(1 a sure win, 0 a sure loss)")
    alt = alternative(res, chosen, base)
    if alt is not None:
        whole = f", both alive {pct(alt.team_alive)}" if ally else ""
        text += (f"; after \"{view.describe(alt.action)}\": alive {pct(alt.survive)}{whole}, "
                 f"prospects {alt.mean:.2f}")
    return text + "."


def prevents(view: Game, o: Odds, chosen: Action, death_now: Fraction | None,
             death_after: Fraction | None) -> str:
    """What the move prevents, when one step tells: a likely death at the draw, an Action card."""
    if view.phase == "respond" and chosen.kind == "cancel" and view.stack:
        top = view.stack[-1]
        return (f"it stops {view.kind_name(top['card'])} by {view.pname(top['by'])}")
    if view.phase == "respond":
        top = view.stack[-1] if view.stack else None
        return (f"{view.kind_name(top['card'])} by {view.pname(top['by'])} costs your team "
                "less than a Cancel Action" if top else "nothing to cancel")
    if view.phase == "ally":
        return f"{view.pname(view.turn)} draws next, and {o.short(said=True)}"
    if death_now is not None and death_after is not None and death_after < death_now:
        return (f"it brings your chance of dying at this turn's draw from {pct(death_now)} "
                f"to {pct(death_after)}")
    if death_now:
        return f"your chance of dying at this turn's draw stays {pct(death_now)}"
    return ""


def searched_reason(view: Game, o: Odds, res: Result, chosen: Action, base: Action,
                    base_reason: str, death_now: Fraction | None,
                    death_after: Fraction | None) -> str:
    """The whole reason of a searched hint."""
    parts = []
    if chosen != base:
        head = prevents(view, o, chosen, death_now, death_after)
        parts.append(f"\"{view.describe(chosen)}\" rather than \"{view.describe(base)}\""
                     + (f": {head}" if head else ""))
    else:
        parts.append(base_reason.rstrip("."))
    return "; ".join(parts) + "; " + playouts(view, res, chosen, base)
