"""At a networked table's plain prompt, ``hint`` said "Hint: choose Professor (Hakase) Kira (life
4) — Akane Barrier: ..." and left the person to find which of eight numbered options that was
(walk-through ux20 on a LAN); ``play --plain`` and the full-screen table name it. Now the
networked prompt does too: "Hint: option 6, ..."."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace

from p2pcards import net
from p2pcards.lobby import GameInfo
from p2pcards.ui.terminal import TerminalPlayer
from tests.ui.test_screen import gog_view


def test_hint_at_the_networked_plain_prompt_names_the_option_number():
    view = gog_view()
    legal = view.legal(0)
    mesh = SimpleNamespace(game_info=GameInfo("go-out-girl", 3, {}).to_json())
    said: list[str] = []

    async def go():
        player = TerminalPlayer(0, hinter=net._hinter(mesh), out=said.append)
        deciding = asyncio.create_task(player.decide(view, legal))
        await asyncio.sleep(0)
        await player.handle("hint")
        await asyncio.wait_for(player._hint_task, 60)
        await player.handle("1")
        await deciding

    asyncio.run(go())
    (hint,) = [s for s in said if s.startswith("Hint")]
    m = re.match(r"Hint: option (\d+), ", hint)
    assert m, hint
    n = int(m.group(1))
    option = next(s for s in said if s.startswith(f"  {n:>2}. "))
    # the option named is the one the advice describes
    advised = hint.split("\n")[0].removeprefix(m.group(0))
    assert option.split(". ", 1)[1].startswith(advised), (option, hint)
