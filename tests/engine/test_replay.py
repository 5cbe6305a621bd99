"""The game half of the audit: replaying decisions and true outcomes on the full engine."""

from __future__ import annotations

from p2pcards.bots.registry import make_bot
from p2pcards.engine import Action, Decision, LocalDealer, play
from p2pcards.games import new_game
from p2pcards.replay import replay


def record(players=3, seed=4):
    decisions, outcomes = [], []

    def on_step(st, ev):
        (decisions if isinstance(ev, Decision) else outcomes).append(ev)

    final = play(new_game("go-out-girl", players),
                 [make_bot("go-out-girl", p, "easy", seed + p) for p in range(players)],
                 LocalDealer(seed), on_step=on_step)
    return final, decisions, outcomes


def test_honest_game_replays_clean():
    final, decisions, outcomes = record()
    v = replay("go-out-girl", 3, {}, decisions, outcomes, expected_outcome=final.outcome())
    assert v.clean and v.outcome == final.outcome()


def test_a_hidden_lie_is_named_by_the_replay():
    """A pass that should have been a withdrawal, invisible to every peer during play, is named
    by the full-information replay."""
    for seed in range(100):  # a game with a withdrawal in it
        final, decisions, outcomes = record(seed=seed)
        withdrawals = [i for i, d in enumerate(decisions) if d.action.kind == "withdraw"]
        if withdrawals:
            break
    # turn it into a pass: the cheat keeps playing on lethal damage
    i = withdrawals[0]
    bad = list(decisions)
    bad[i] = Decision(bad[i].player, Action("pass"))
    v = replay("go-out-girl", 3, {}, bad, outcomes)
    assert not v.clean and v.culprit == decisions[i].player


def test_truncated_and_padded_records_are_reported():
    final, decisions, outcomes = record()
    assert not replay("go-out-girl", 3, {}, decisions[:-3], outcomes).clean
    assert not replay("go-out-girl", 3, {}, decisions, outcomes[:-2]).clean
    v = replay("go-out-girl", 3, {}, decisions, outcomes, expected_outcome={"winner": 99})
    assert not v.clean and "reported" in v.reason
