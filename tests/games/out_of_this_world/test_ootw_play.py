"""Whole games: heuristic bots deciding from their own copies (fed only what their seat may see),
every copy checked against the full game's view after each step, the shared invariants, public
narration, and the command line."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from p2pcards.bots.out_of_this_world import OutOfThisWorldBot, best_equip
from p2pcards.bots.registry import make_bot
from p2pcards.cli import app
from p2pcards.engine import SPECTATOR, LocalDealer, play
from p2pcards.games import new_game
from p2pcards.games.out_of_this_world.data import default
from p2pcards.ui.local import Quit, play_local

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engine"))
from test_random_sim import check_invariants  # noqa: E402

ADVENTURES = list(default().adventures)


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_heuristic_bots_play_every_adventure_in_lockstep(adventure):
    """Bots see only their seat's copy; each copy must equal the full game's view of that seat
    after every step (views=True), and the shared invariants hold on the way and at the end."""
    outcomes = []
    for seed in range(2):
        n = 3 + seed
        g = new_game("out-of-this-world", n, {"adventure": adventure, "difficulty": "tough"})
        bots = [make_bot("out-of-this-world", p, "easy", seed * 10 + p) for p in range(n)]
        assert all(isinstance(b, OutOfThisWorldBot) for b in bots)
        def every(st, ev, steps={"n": 0}):  # noqa: B006 -- a counter for this game only
            steps["n"] += 1
            if steps["n"] % 37 == 0:
                check_invariants(st)

        final = play(g, bots, LocalDealer(seed), views=True, on_step=every)
        check_invariants(final)
        outcomes.append(final.outcome())
    assert all(o is not None and o["result"] in ("won", "lost") for o in outcomes)


def test_the_heuristic_team_plays_far_better_than_random_play():
    """The heuristic team equips far more than random players, games run long enough for the
    deck to run out, and over a few seeds it wins some."""
    def team(level: str, seed: int):
        g = new_game("out-of-this-world", 4, {})
        return play(g, [make_bot("out-of-this-world", p, level, seed * 10 + p) for p in range(4)],
                    LocalDealer(seed))
    heuristic = [team("easy", seed) for seed in range(16)]
    random_ = [team("random", seed) for seed in range(16)]
    assert sum(sum(f.outcome()["points"]) for f in heuristic) > \
        3 * sum(sum(f.outcome()["points"]) for f in random_)
    assert sum(f.runouts > 0 for f in heuristic) >= 12
    assert any(f.outcome()["won"] for f in heuristic)


def test_narration_is_public_but_a_seat_reads_its_own_draws():
    """say() narrates public information, plus what the narrating copy itself holds: a seat's
    own copy tells the same story as a spectator's copy, which knows only public cards, except
    that it names the cards that seat drew; the spectator's story never needs a card it cannot
    see."""
    g = new_game("out-of-this-world", 4, {"adventure": "hit-the-books"})
    seat = g.view(1)
    spec = g.view(SPECTATOR)
    seat.narrate()
    spec.narrate()
    final = play(g, [make_bot("out-of-this-world", p, "easy", p) for p in range(4)], LocalDealer(5),
                 copies={1: seat, SPECTATOR: spec})
    mine, public = seat.take_notes(), spec.take_notes()
    assert final.outcome() is not None
    assert len(mine) == len(public) > 100
    named = 0
    for own, pub in zip(mine, public, strict=True):
        if own != pub:
            assert pub.startswith("Seat 2 draws ") and own.startswith(pub[:-1] + ": "), (own, pub)
            named += 1
    assert named >= 1  # the deal (taking a stack top is public)
    assert not any("?" in line for line in public)


def test_best_equip():
    d = default()
    by = {c.key: c for c in d.items}
    assert best_equip([by["yo_yo"], by["holy_water_pistol"], by["rc_car"]]) == 3
    assert best_equip([by["yo_yo"], by["holy_water_pistol"], by["rc_car"]], any_card=True) == 8
    assert best_equip([by["keytar"], by["bike_lock"], by["board_game"]]) == 6
    assert best_equip([by["mixtape"], by["walkie_talkie"], by["wrench"]]) == 5
    assert best_equip([by["kazoo"], by["walkie_talkie"], by["keytar"]]) == 3
    assert best_equip([by["kazoo"], by["dice"], by["wrench"]]) == 0


def test_cli_rules_prints_the_card_data_and_house_content():
    result = CliRunner().invoke(app, ["rules", "out-of-this-world"])
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("Escaped Equipment", "School keys", "Slingshot", "Enthralled Friend", "Malala / Bart",
                 "[house]", "House rules", "Birthday Bash", "Patrol the Block", "Confrontation",
                 "Toys:", "Wild:", "Difficult Foes (4)"):
        assert text in out, text


def test_cli_play_all_bots_prints_the_log_and_the_result():
    """`p2pcards play out-of-this-world --players N --bots K --seed S --difficulty D --adventure A`
    with every seat a bot prints the public log and the result."""
    cmd = [sys.executable, "-m", "p2pcards.cli", "play", "out-of-this-world", "--players", "3",
           "--bots", "3", "--seed", "4", "--difficulty", "tough", "--adventure", "birthday-bash"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[3])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Out Of This World: Birthday Bash at Tough difficulty, 3 players" in out
    assert "Round 1: Gear Up!" in out and "Taking Care of Things" in out
    assert "Result:" in out and "Birthday Bash (Tough)" in out.split("Result:")[1]
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                           cwd=Path(__file__).resolve().parents[3])
    assert again.stdout == out  # the seed makes the game reproducible


def test_cli_play_refuses_bad_options():
    result = CliRunner().invoke(app, ["play", "out-of-this-world", "--players", "4", "--bots", "4",
                                      "--difficulty", "hard"])
    assert result.exit_code == 2 and "unknown difficulty" in result.output


def test_local_play_human_seat_sees_its_own_hand_only():
    """In-process play with one human seat: the prompt shows that seat's hand and options."""
    out = io.StringIO()
    answers = iter(["status", "quit"])
    with pytest.raises(Quit):
        play_local("out-of-this-world", 3, 2, 1, {"adventure": "birthday-bash"},
                   inp=lambda prompt: next(answers), out=out)
    text = out.getvalue()
    assert "Your hand:" in text and "Your options:" in text and "Birthday Bash" in text
