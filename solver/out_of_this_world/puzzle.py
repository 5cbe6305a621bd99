"""``p2pcards solve`` and ``p2pcards hint --position`` for Out Of This World positions."""

from __future__ import annotations

import time
from typing import Any

from ..errors import PositionError
from ..limits import (
    STOPPED_INTERRUPT,
    STOPPED_SIZE,
    STOPPED_TIME,
    Limit,
    OutOfTime,
    more_time,
    stopped_text,
)
from .exact import NODE_LIMIT, Planner, PlanResult, Step, TooBig
from .model import action_map, describe, round_from_game
from .position import build, parse


def _card_text(rules, c: int) -> str:
    d = rules.cards[c]
    if d.is_foe:
        return d.name
    return f"{d.name} ({d.type.capitalize() if d.type else '?'} {d.value})"


def _action_json(a: tuple) -> dict[str, Any]:
    k = a[0]
    names = {"T": "take", "L": "leg_it", "N": "none", "P": "pass", "E": "equip", "D": "defeat",
             "S": "spend", "V": "give", "X": "random_discard"}
    out: dict[str, Any] = {"kind": names[k]}
    if k == "T":
        out.update(stack=a[1], sneak=a[2])
    elif k == "P":
        out.update(cards=[a[1], a[2]], give=a[3], to=a[4])
    elif k == "E":
        out.update(cards=list(a[1]), keep=a[2])
    elif k == "D":
        out.update(owner=a[1], foe=a[2], cards=list(a[3]), twice=a[4])
    elif k == "S":
        out.update(owner=a[1], item=a[2], target=list(a[3]) if a[3] else None)
    elif k == "V":
        out.update(card=a[1], to=a[2])
    elif k == "X":
        out.update(card=a[1])
    return out


def step_text(rules, s: Step, names: list[str]) -> str:
    a = s.action
    if a[0] == "T":
        return f"take {_card_text(rules, s.card)} from stack {a[1] + 1}" + (  # type: ignore[arg-type]
            " (Sneaky)" if a[2] else "")
    if a[0] == "X":
        return f"the random discard takes {names[s.seat]}'s {_card_text(rules, a[1])}"
    return describe(rules, a, names)


def turns(line: list[Step], rules, names: list[str]) -> list[dict[str, Any]]:
    """The line grouped by turn: each seat's take (or Leg it!) and what follows it."""
    out: list[dict[str, Any]] = []
    for s in line:
        text = step_text(rules, s, names)
        starts = not s.chance and s.action[0] in ("T", "L")
        if starts or not out:
            out.append({"seat": s.seat, "player": names[s.seat], "steps": []})
        out[-1]["steps"].append(text)
    return out


def solve(data: Any, node_limit: int = NODE_LIMIT, *,
          limit: Limit | None = None) -> dict[str, Any]:
    """The team's best plan; ``limit`` bounds the search in time and reports its progress. A
    search stopped by a limit or by Ctrl+C gives ``"proven": false`` with the best plan among
    the first moves searched to the end (``searched`` of ``first_moves``), or ``"won": null``
    and no plan when there is none yet."""
    pos = parse(data)
    if pos.viewer is not None:
        raise PositionError("viewer", "solve needs a full-information position (drop 'viewer' "
                            "and list every card), or use 'p2pcards hint --position'")
    game = build(pos)
    root = round_from_game(game)
    names = game.config["names"]
    t0 = time.perf_counter()
    planner = Planner(root, node_limit)
    planner.limit = limit
    stopped = None
    res: PlanResult | None
    try:
        res = planner.solve()
    except (TooBig, OutOfTime, KeyboardInterrupt) as exc:
        if isinstance(exc, KeyboardInterrupt) and limit is None:
            raise  # only a caller that set a limit asked for an early answer
        stopped = STOPPED_TIME if isinstance(exc, OutOfTime) else \
            STOPPED_SIZE if isinstance(exc, TooBig) else STOPPED_INTERRUPT
        res = planner.best_so_far()
    seconds = time.perf_counter() - t0
    out: dict[str, Any] = {
        "game": "out-of-this-world", "title": pos.title, "to_move": pos.to_move,
        "player": names[pos.to_move], "proven": stopped is None,
    }
    if stopped is not None:
        out.update(stopped=stopped, first_moves=planner.first_moves, searched=planner.searched,
                   time_limit=limit.seconds if limit else None, node_limit=node_limit)
    if res is None:
        out.update(won=None, tokens_lost=None, time_left=None, points=None, first=None,
                   plan=[], line=[], nodes=planner.nodes, seconds=round(seconds, 3))
        return out
    rules = root.r
    first = res.line[0].action if res.line else None
    eng = action_map(game, game.legal(pos.to_move)).get(first) if first else None
    out.update({
        "won": res.won, "tokens_lost": res.tokens_lost,
        "time_left": pos.time - res.tokens_lost, "points": res.points,
        "first": {"text": step_text(rules, res.line[0], names), **_action_json(first),
                  "engine_action": eng.to_json() if eng else None} if first else None,  # type: ignore[attr-defined]
        "plan": turns(res.line, rules, names),
        "line": [{"seat": s.seat, "chance": s.chance, "action": _action_json(s.action),
                  "text": step_text(rules, s, names)} for s in res.line],
        "nodes": res.nodes, "seconds": round(seconds, 3),
    })
    return out


def render_solve(r: dict[str, Any]) -> str:
    head = f"{r['title']}\n" if r.get("title") else ""
    searched = f"{r['nodes']:,} positions searched, {r['seconds']} s"
    if r["won"] is None:
        return (f"{head}No answer: {stopped_text(r['stopped'], r)} before any plan was searched "
                f"to the end ({searched}). {more_time(r)}'p2pcards hint --position FILE' gives "
                "advice in seconds.")
    lost = r["tokens_lost"]
    tok = f"{abs(lost)} Time token{'s' * (abs(lost) != 1)}"
    if not r.get("proven", True):  # the best of the first moves searched to the end
        if r["won"]:
            verdict = "With this plan the team wins at the end of this round" + (
                f" (losing {tok} on the way)" if lost > 0 else "")
        elif r["time_left"] <= 0:
            verdict = "This plan runs out of Time: the game is lost"
        else:
            verdict = (f"This plan does not win this round, loses {tok}" if lost > 0 else
                       "This plan does not win this round, loses no Time token") + \
                f" and equips {r['points']} points in all"
        lines = [f"{head}Not proven the best: {stopped_text(r['stopped'], r)} before the search "
                 f"was finished. The best plan found so far ({r['searched']} of the "
                 f"{r['first_moves']} first moves searched to the end; a better plan may start "
                 "with one of the others):", f"{verdict}.", "The plan, turn by turn:"]
    else:
        if r["won"]:
            verdict = "The team wins at the end of this round" + (
                f" (losing {tok} on the way)" if lost > 0 else "")
        else:
            verdict = ("No plan wins this round; the best loses " + tok if lost > 0 else
                       "No plan wins this round; the best loses no Time token")
            if r["time_left"] <= 0:
                verdict = ("No plan wins this round, and every plan runs out of Time: the game "
                           "is lost")
            verdict += f" and equips {r['points']} points in all"
        lines = [f"{head}{verdict}.", "The team's plan, turn by turn:"]
    for i, t in enumerate(r["plan"]):
        lines.append(f"  {i + 1:>2}. {t['player']}: " + "; ".join(t["steps"]))
    lines.append(f"({searched}; a random discard is assumed to hit the worst card)")
    return "\n".join(lines)


def hint(data: Any, seed: int = 0) -> dict[str, Any]:
    from .advisor import advise  # the set plan's CP-SAT: imported only when a hint needs it

    pos = parse(data)
    game = build(pos)
    seat = pos.to_move
    view = game if game.viewer is not None else game.view(seat)
    legal = view.legal(seat)
    adv = advise(view, legal, seed=seed)
    return {"game": "out-of-this-world", "seat": seat, "player": view.pname(seat),
            **adv.to_json(), "render": adv.render()}


def render_hint(r: dict[str, Any]) -> str:
    return r["render"]
