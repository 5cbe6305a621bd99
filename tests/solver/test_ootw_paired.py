"""The Out Of This World paired measurement (solver/out_of_this_world/paired.py): the games are
the benchmark's (a game is a function of its seed), the ``--set`` override reaches the search's
constants, and the comparison pairs games by adventure and seed, with the standard error of
the mean per-game difference."""

from __future__ import annotations

import pytest

from solver.out_of_this_world import bots, paired, pimc


def _row(adv, seed, won, points, cpu=1.0):
    return {"adventure": adv, "seed": seed, "won": won, "points": points, "cpu": cpu}


def test_compare_pairs_games_by_adventure_and_seed():
    a = [_row("patrol-the-block", 0, True, 100), _row("patrol-the-block", 1, False, 90),
         _row("confrontation", 0, False, 80), _row("confrontation", 5, True, 101)]
    b = [_row("patrol-the-block", 0, False, 95, 3.0), _row("patrol-the-block", 1, True, 104, 3.0),
         _row("confrontation", 0, True, 100, 3.0)]  # confrontation 5 not played: left out
    got = paired.compare(a, b)
    assert set(got) == {"patrol-the-block", "confrontation", "all"}
    allg = got["all"]
    assert allg["games"] == 3 and allg["a_wins"] == 1 and allg["b_wins"] == 2
    assert allg["b_won_a_lost"] == 2 and allg["a_won_b_lost"] == 1
    d = [-1, 1, 1]
    mean = sum(d) / 3
    se = (sum((x - mean) ** 2 for x in d) / 2 / 3) ** 0.5
    assert allg["won"] == f"{mean:+.3f} ± {se:.3f}"
    p = [-5, 14, 20]
    pm = sum(p) / 3
    ps = (sum((x - pm) ** 2 for x in p) / 2 / 3) ** 0.5
    assert allg["points"] == f"{pm:+.1f} ± {ps:.1f}"
    assert allg["a_cpu"] == 1.0 and allg["b_cpu"] == 3.0
    assert got["confrontation"]["games"] == 1 and got["confrontation"]["won"].startswith("+1.000")
    assert "| all | 3 (0-1) | 1 | 2 |" in paired.table(got)


def test_set_constant_reaches_module_and_bot_settings():
    old_margin, old_k = pimc.MARGIN, bots.StrongBot.k
    try:
        paired.set_constant("pimc.MARGIN=2.5")
        paired.set_constant("bots.StrongBot.k=5")
        assert pimc.MARGIN == 2.5 and bots.StrongBot.k == 5
        with pytest.raises(SystemExit):
            paired.set_constant("pimc.NO_SUCH_NAME=1")
    finally:
        pimc.MARGIN, bots.StrongBot.k = old_margin, old_k


def test_a_game_is_the_benchmarks_game():
    """The same game as scripts/bench_solver.py's ``_ootw_games`` (seed, bot seeds, dealer),
    here with the plan bot (no search) to keep it fast."""
    import scripts.bench_solver as bench

    row = paired.game("hit-the-books", 3, level="plan")
    old = bench.OotwStrongBot
    try:
        bench.OotwStrongBot = bots.PlanBot
        [(seed, won, points)] = bench._ootw_games(("strong", "hit-the-books", [3]))
    finally:
        bench.OotwStrongBot = old
    assert (row["seed"], row["won"], row["points"]) == (seed, won, points)
    assert row["cpu"] > 0
