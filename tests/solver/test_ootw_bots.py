"""The solver's Out Of This World bots: registered as ``normal`` and ``strong``, they play whole
games from their own seat's copy of the game (as a networked peer's), never the full state."""

from __future__ import annotations

from p2pcards.bots.base import Bot
from p2pcards.bots.registry import make_bot
from p2pcards.engine import LocalDealer, play
from p2pcards.games import new_game
from solver.out_of_this_world.bots import NormalBot, StrongBot


class Spy(StrongBot):
    """A strong bot that records what it was shown."""

    seen: list = []

    def decide(self, view, legal):
        Spy.seen.append((view.viewer, self.seat))
        return super().decide(view, legal)


def test_registry_levels():
    assert isinstance(make_bot("out-of-this-world", 0, "normal", 1), NormalBot)
    assert isinstance(make_bot("out-of-this-world", 1, "strong", 1), StrongBot)
    # The Girl and the Robot has no solver bot: its levels fall back to the heuristic one
    assert isinstance(make_bot("girl-and-robot", 0, "strong", 1), Bot)


def test_whole_games_from_own_copies(monkeypatch):
    # 3 worlds a searched decision instead of 12: what this checks is whose view each decision
    # saw, not the search's strength (at 12 the round search took 15 s of CPU here); 3 more
    # worlds, not 24, at a close verdict
    monkeypatch.setattr(StrongBot, "k", 3)
    monkeypatch.setattr(StrongBot, "more", 3)
    for seed, n, level in ((1, 4, "strong"), (2, 3, "normal")):
        g = new_game("out-of-this-world", n, {"adventure": "hit-the-books"})
        Spy.seen = []
        agents = [Spy(p, seed) if p == 0 else make_bot("out-of-this-world", p, level, seed + p)
                  for p in range(n)]
        final = play(g, agents, LocalDealer(seed), copies={0: g.view(0)})
        o = final.outcome()
        assert o is not None and o["result"] in ("won", "lost")
        assert Spy.seen and all(viewer == seat == 0 for viewer, seat in Spy.seen)
        assert sum(o["points"]) > 0
