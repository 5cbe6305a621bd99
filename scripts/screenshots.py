#!/usr/bin/env python3
"""Regenerate the README's screenshots: each game's full-screen table (Textual's SVG export),
driven headless through Pilot to a moment with something on the table, saved under
docs/screens/. Run: .venv/bin/python scripts/screenshots.py"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "screens"

SHOTS = [
    # game, players, seed, size, answers before the shot, ask for a hint
    ("go-out-girl", 3, 7, (140, 45), 6, True),
    ("out-of-this-world", 3, 2, (140, 45), 5, False),
    ("girl-and-robot", 3, 5, (140, 45), 4, False),
    ("go-out-girl", 3, 7, (80, 24), 6, False),
    ("go-out-girl", 3, 7, (60, 18), 0, False),  # too small: the notice in place of the table
]


async def shot(game: str, players: int, seed: int, size: tuple[int, int], answers: int,
               hint: bool) -> Path:
    from p2pcards.ui.app import TableApp
    from p2pcards.ui.hints import advisor
    from p2pcards.ui.present import presenter_for
    from p2pcards.ui.session import LocalGame

    lg = LocalGame(game, players, players - 1, seed, {}, save=False)
    app = TableApp(game, lg.seat, lg.run, names=lg.names, forced_delay=0.0,
                   hinter=advisor(game) if hint else None, title=presenter_for(game).title)
    async with app.run_test(size=size) as pilot:
        done = 0
        for _ in range(5000):
            await pilot.pause()
            if app.legal and done >= answers and len(app.legal) > 2:
                break
            if app._ordering is not None and done >= answers:  # asked to put cards in order
                break
            if app.legal:
                await pilot.press("enter")
                done += 1
        if hint:
            await pilot.press("f2")
            await app.hint_worker.wait()  # the hint is worked out in a thread
            await pilot.pause()
        await pilot.pause()
        name = f"{game}{'' if size == (140, 45) else f'-{size[0]}x{size[1]}'}.svg"
        app.save_screenshot(name, str(OUT))
    return OUT / name


def main() -> None:
    os.environ.setdefault("P2PCARDS_HOME", tempfile.mkdtemp())
    OUT.mkdir(parents=True, exist_ok=True)
    for s in SHOTS:
        print(asyncio.run(shot(*s)))


if __name__ == "__main__":
    main()
