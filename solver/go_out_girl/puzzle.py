"""``p2pcards solve`` and ``p2pcards hint --position`` for Go Out Girl positions."""

from __future__ import annotations

import time
from typing import Any

from ..errors import PositionError
from .advisor import advise
from .convert import action_map, battle_from_game
from .exact import NODE_LIMIT, ExactSolver, TooBig, line_text
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


def solve(data: Any, node_limit: int = NODE_LIMIT) -> dict[str, Any]:
    pos = parse(data)
    if pos.viewer is not None:
        raise PositionError("viewer", "solve needs a full-information position (drop 'viewer' "
                            "and list every hand), or use 'p2pcards hint --position'")
    game = build(pos)
    root = battle_from_game(game)
    root.exact = True
    names = game.config["names"]
    t0 = time.perf_counter()
    try:
        sol = ExactSolver(root, node_limit).solve()
    except TooBig as exc:
        raise PositionError("", f"too large to solve exactly: {exc}") from None
    seconds = time.perf_counter() - t0
    out: dict[str, Any] = {
        "game": "go-out-girl", "title": pos.title, "to_move": pos.to_move,
        "player": names[pos.to_move], "forced_win": sol.wins, "nodes": sol.nodes,
        "seconds": round(seconds, 3),
    }
    if sol.wins and sol.move is not None:
        eng = action_map(game, game.legal(pos.to_move)).get(sol.move)
        out["move"] = {**_action_json(sol.move), "text": describe(sol.move),
                       "engine_action": eng.to_json() if eng else None}
        out["line"] = [{"seat": s, "action": _action_json(a), "text": t}
                       for (s, a), t in zip(sol.line, line_text(sol.line, names), strict=True)]
    return out


def render_solve(r: dict[str, Any]) -> str:
    head = f"{r['title']}\n" if r.get("title") else ""
    if not r["forced_win"]:
        return (f"{head}{r['player']} (to move) has no forced win: the others can always stop "
                f"them ({r['nodes']:,} positions searched, {r['seconds']} s).")
    lines = [f"{head}{r['player']} (to move) wins by force: {r['move']['text']}.",
             "Principal line (the others resisting longest):"]
    lines += [f"  {i + 1:>2}. {step['text']}" for i, step in enumerate(r["line"])]
    lines.append(f"({r['nodes']:,} positions searched, {r['seconds']} s)")
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
