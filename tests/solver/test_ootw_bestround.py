"""The best-of-rounds oracle (an optimistic upper bound that reads the full state and the round
to come, never a player): its copies replay the game faithfully, and it goes on from the copy
whose round's end scores best."""

from __future__ import annotations

from p2pcards.bots.base import RandomBot
from p2pcards.bots.out_of_this_world import OutOfThisWorldBot
from p2pcards.engine import LocalDealer, play
from p2pcards.games import new_game
from solver.out_of_this_world import bestround
from solver.out_of_this_world.bestround import bestround_game, round_value

HEURISTIC = (("heuristic", OutOfThisWorldBot, False),)


def test_one_team_replays_the_plain_game():
    """With a single team, copying the game at every round and going on from the copy is the
    same game as playing it straight through (same seeds, same dealer)."""
    for adv, seed in (("patrol-the-block", 3), ("confrontation", 5)):
        won, points, chosen = bestround_game(adv, seed, teams=HEURISTIC)
        agents = [OutOfThisWorldBot(p, seed * 8 + p) for p in range(4)]
        g = play(new_game("out-of-this-world", 4, {"adventure": adv, "difficulty": "standard"}),
                 agents, LocalDealer(seed))
        o = g.outcome()
        assert (won, points) == (o["won"], sum(o["points"]))
        assert len(chosen) >= o["rounds"] and set(chosen) == {"heuristic"}


def test_it_goes_on_from_the_best_copy(monkeypatch):
    """Each round continues from the copy with the best carry score at the round's end (the
    first team on a tie)."""
    calls: list[tuple] = []
    real = bestround._play_round

    def spy(g, dealer, bots, oracle, r0):
        real(g, dealer, bots, oracle, r0)
        calls.append(round_value(g))

    monkeypatch.setattr(bestround, "_play_round", spy)
    won, points, chosen = bestround_game("patrol-the-block", 2, teams=(
        ("random", RandomBot, False), ("heuristic", OutOfThisWorldBot, False)))
    assert len(calls) == 2 * len(chosen) and len(chosen) > 3
    differ = 0
    for i, name in enumerate(chosen):
        a, b = calls[2 * i], calls[2 * i + 1]
        assert name == ("heuristic" if b > a else "random")
        differ += a != b
    assert differ >= 3, "the two teams' rounds differ (else the test shows nothing)"


def test_round_value_puts_the_win_first():
    g = new_game("out-of-this-world", 4, {"adventure": "patrol-the-block"})
    v = round_value(g)
    assert v[0] is False and isinstance(v[1], float)
