"""``p2pcards solve`` and ``p2pcards hint --position`` for Go Out Girl positions."""

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
from .advisor import advise
from .convert import action_map, battle_from_game
from .exact import NODE_LIMIT, ExactSolver, Solution, TooBig, line_text
from .model import describe
from .position import build, parse


def _action_json(a: tuple) -> dict[str, Any]:
    k = a[0]
    if k == "P":
        return {"kind": "play", "cards": [n for n, x in a[3] for _ in range(x)], "as": a[1],
                "count": a[2]}
    if k == "X":
        return {"kind": "reset", "cards": [2] * a[1] + [3] * a[2]}
    names = {"R": "reveal", "G": "guard", "S": "pass", "W": "withdraw", "B": "barrier",
             "D": "damage", "C": "discard", "V": "give", "K": "keep", "N": "draw"}
    out: dict[str, Any] = {"kind": names[k]}
    if len(a) > 1:
        out["card"] = a[1]
    return out


def solve(data: Any, node_limit: int = NODE_LIMIT, *,
          limit: Limit | None = None) -> dict[str, Any]:
    """The exact answer; ``limit`` bounds the search in time and reports its progress. A search
    stopped by a limit or by Ctrl+C gives ``"proven": false`` and ``"forced_win": null`` (what
    is known is in ``first_moves`` and ``refuted``), unless the win was already proven."""
    pos = parse(data)
    if pos.viewer is not None:
        raise PositionError("viewer", "solve needs a full-information position (drop 'viewer' "
                            "and list every hand), or use 'p2pcards hint --position'")
    game = build(pos)
    root = battle_from_game(game)
    root.exact = True
    names = game.config["names"]
    t0 = time.perf_counter()
    solver = ExactSolver(root, node_limit)
    solver.limit = limit
    stopped = None
    sol: Solution | None = None
    try:
        sol = solver.solve()
    except TooBig:
        stopped = STOPPED_SIZE
    except OutOfTime:
        stopped = STOPPED_TIME
    except KeyboardInterrupt:
        if limit is None:  # only a caller that set a limit asked for an early answer
            raise
        stopped = STOPPED_INTERRUPT
        sol = solver.proven_win()
    seconds = time.perf_counter() - t0
    out: dict[str, Any] = {
        "game": "go-out-girl", "title": pos.title, "to_move": pos.to_move,
        "player": names[pos.to_move], "forced_win": sol.wins if sol else None,
        "proven": sol is not None, "nodes": sol.nodes if sol else solver.nodes,
        "seconds": round(seconds, 3),
    }
    if stopped is not None:
        out.update(stopped=stopped, first_moves=solver.first_moves, refuted=solver.refuted,
                   time_limit=limit.seconds if limit else None, node_limit=node_limit)
    if sol is not None and sol.wins and sol.move is not None:
        eng = action_map(game, game.legal(pos.to_move)).get(sol.move)
        out["move"] = {**_action_json(sol.move), "text": describe(sol.move),
                       "engine_action": eng.to_json() if eng else None}
        out["line"] = [{"seat": s, "action": _action_json(a), "text": t}
                       for (s, a), t in zip(sol.line, line_text(sol.line, names), strict=True)]
        if not sol.principal:  # a limit came first: the line is read off the proof
            cut = solver.line_cut
            out.update(principal=False, line_cut=STOPPED_TIME if isinstance(cut, OutOfTime)
                       else STOPPED_SIZE if isinstance(cut, TooBig) else STOPPED_INTERRUPT,
                       time_limit=limit.seconds if limit else None, node_limit=node_limit)
    return out


def render_solve(r: dict[str, Any]) -> str:
    head = f"{r['title']}\n" if r.get("title") else ""
    searched = f"{r['nodes']:,} positions searched, {r['seconds']} s"
    if r["forced_win"] is None:
        n, k = r["first_moves"], r["refuted"]
        known = (f"{k} of its {n} first moves {'was' if k == 1 else 'were'} shown not to win, "
                 f"the other {n - k} not searched to the end" if k else
                 f"none of its {n} first moves was searched to the end" if n else
                 "no first move was searched to the end")
        return (f"{head}No answer: {stopped_text(r['stopped'], r)} before the search was "
                f"finished. Whether "
                f"{r['player']} (to move) has a forced win is not known: {known} ({searched}). "
                f"{more_time(r)}'p2pcards hint --position FILE' gives advice in seconds.")
    if not r["forced_win"]:
        return (f"{head}{r['player']} (to move) has no forced win: the others can always stop "
                f"them ({searched}).")
    lines = [f"{head}{r['player']} (to move) wins by force: {r['move']['text']}."]
    if r.get("principal", True):
        lines.append("The winning line, move by move (the others holding out as long as they can):")
    else:
        lines.append("A winning line (not the others' longest resistance: "
                     f"{stopped_text(r['line_cut'], r)} while working that out):")
    lines += [f"  {i + 1:>2}. {step['text']}" for i, step in enumerate(r["line"])]
    lines.append(f"({searched})")
    return "\n".join(lines)


def hint(data: Any, seed: int = 0) -> dict[str, Any]:
    pos = parse(data)
    game = build(pos)
    seat = pos.to_move
    view = game if game.viewer is not None else game.view(seat)
    legal = view.legal(seat)
    adv = advise(view, legal, seed=seed)
    return {"game": "go-out-girl", "seat": seat, "player": view.pname(seat), **adv.to_json(),
            "render": adv.render()}


def render_hint(r: dict[str, Any]) -> str:
    return r["render"]
