"""Plan steps as engine actions and as text, for Out Of This World advice."""

from __future__ import annotations

from p2pcards.engine import Action, join_names
from p2pcards.games.out_of_this_world.game import Game

from .reader import LOSE
from .setplan import Group, Plan, Problem


# ---- engine actions for plan steps -----------------------------------------------------------
def signature(view: Game, a: Action) -> tuple | None:
    cls = view._cls
    if a.kind in ("pass", "equip", "defeat"):
        cards = tuple(sorted(cls[view.values[s]] for s in a.slots))  # type: ignore[index]
        if a.kind == "pass":
            return ("pass", cards, cls[view.values[a.give]], a.to)  # type: ignore[index]
        if a.kind == "equip":
            return ("equip", cards, cls[view.values[a.keep]])  # type: ignore[index]
        return ("defeat", cards, a.foe, bool(a.get("twice", False)))
    return None


def group_signature(p: Problem, g: Group) -> tuple:
    if g.kind == "pass":
        return ("pass", g.cards, g.keep, g.to)
    if g.kind == "equip":
        return ("equip", g.cards, g.keep)
    return ("defeat", g.cards, p.foes[g.foe].slot, g.twice)  # type: ignore[index]


def group_text(view: Game, p: Problem, g: Group) -> str:
    """A step of the plan, in the words of the option it is on the table ("Equip Keytar (Music
    6) (discard Harmonica (Music 4) and Mixtape (Music 5))"): the hint named cards "Keytar M6",
    a shorthand the rulebook and the rest of the screen never use (ux23)."""
    names = join_names(_kname(view, c) for c in g.cards)
    if g.kind in ("equip", "pass"):
        rest = list(g.cards)
        rest.remove(g.keep)  # type: ignore[arg-type]
        other = join_names(_kname(view, c) for c in rest)
        if g.kind == "equip":
            return f"Equip {_kname(view, g.keep)} (discard {other})"  # type: ignore[arg-type]
        return f"Pass {_kname(view, g.keep)} to {view.pname(g.to)} (discard {other})"  # type: ignore[arg-type]
    f = p.foes[g.foe]  # type: ignore[index]
    if f.cid < 0:
        return f"keep {names} to defeat {f.name}"
    whose = "" if f.owner == p.me else f" (in front of {view.pname(f.owner)})"
    return f"Defeat {f.name}{whose} with {names}{' twice: remove it from the game' if g.twice else ''}"


def _kname(view: Game, cid: int) -> str:
    """An Item as the game names it everywhere else: "Keytar (Music 6)"."""
    c = view._cinfo(cid)
    return f"{c.name} ({view._data.type_name(c.type)} {c.value})"


def plan_text(view: Game, p: Problem, plan: Plan) -> str:
    steps = []
    held: dict[int, int] = {}
    pairs = []
    for g, k in plan.groups:
        if g.action:
            steps += [group_text(view, p, g)] * k
        else:
            for c in g.cards:
                held[c] = held.get(c, 0) + k
            pairs += ["the pair " + " + ".join(_kname(view, c) for c in g.cards)] * k
    steps += [p.spends[i].label for i in plan.spends]
    singles = [_kname(view, c) for c, k in sorted(plan.kept.items())
               for _ in range(k - held.get(c, 0))]
    kept = join_names(pairs + singles)
    acts = plan.actions()
    head = (f"{acts} action{'s' * (acts != 1)} in your {p.actions} turn{'s' * (p.actions != 1)} "
            f"left this round" if steps else f"no action worth its cards in your {p.actions} "
            f"turn{'s' * (p.actions != 1)} left")
    body = "; ".join(steps)
    tail = f"; keep {kept}" if kept else ""
    time_ = f"; Time lost at the round's end: about {_tokens(plan.loss)}"
    goal = ""
    if p.need > 0 and plan.equipped >= p.need:
        goal = ("; it reaches your goal, the last one missing: the team wins when this round ends"
                if p.goal >= LOSE else "; it reaches your goal")
    return f"{head}{': ' + body if body else ''}{tail}{time_}{goal}"


def _phantom(p: Problem, g: Group) -> bool:
    """A Defeat of the Foe still to come: a pair reserved for a later turn."""
    return g.kind == "defeat" and p.foes[g.foe].cid < 0  # type: ignore[index]


def _tokens(tenths: int) -> str:
    t = tenths / 10
    text = f"{t:.0f}" if t == int(t) else f"{t:.1f}"
    return f"{text} Time token{'s' * (t != 1)}"


def _priority(p: Problem, plan: Plan, g: Group) -> tuple:
    uses = {x.kind for x, _ in plan.groups}
    if g.kind == "defeat":
        f = p.foes[g.foe]  # type: ignore[index]
        if f.blocks & uses:
            return (0, 0)
        return (3, -f.worth)
    if g.kind == "equip":
        return (1, -g.points)
    return (2, -g.value)
