"""``p2pcards rules girl-and-robot`` and ``p2pcards play girl-and-robot``, run as the real
command in a subprocess."""

from __future__ import annotations

import subprocess
import sys

from p2pcards.games.girl_and_robot.data import load


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "p2pcards.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_rules_lists_the_deck_and_every_house_value():
    r = cli("rules", "girl-and-robot")
    assert r.returncode == 0, r.stderr
    d = load()
    for k in d.kinds.values():
        assert f"{k.copies} × {k.name}" in r.stdout
        if k.house:
            assert f"{k.copies} × {k.name}   [house value]" in r.stdout
    for _, text in d.house_rules:
        assert text in r.stdout
    assert "Manipulate, Peace Treaty, Provoke, Scout, Smoke Bomb, Spy, Steal, Trade and Weapon Tax" in r.stdout


def test_all_bot_game_prints_the_public_log_and_the_result():
    r = cli("play", "girl-and-robot", "--players", "4", "--bots", "4", "--seed", "5")
    assert r.returncode == 0, r.stderr
    assert "Characters:" in r.stdout and "— Turn 1:" in r.stdout
    assert "wins!" in r.stdout and "Result:" in r.stdout
    again = cli("play", "girl-and-robot", "--players", "4", "--bots", "4", "--seed", "5")
    assert again.stdout == r.stdout  # a seed replays the same game


def test_euro_option_and_refused_options():
    r = cli("play", "girl-and-robot", "--players", "3", "--bots", "3", "--seed", "2", "--euro")
    assert r.returncode == 0 and "Result:" in r.stdout
    bad = cli("play", "girl-and-robot", "--players", "2", "--bots", "2", "--difficulty", "hard")
    assert bad.returncode == 2 and "no option" in bad.stderr
    five = cli("play", "girl-and-robot", "--players", "5", "--bots", "5")
    assert five.returncode == 2 and "2 to 4" in five.stderr


def test_a_human_seat_plays_from_its_own_view():
    r = cli("play", "girl-and-robot", "--players", "2", "--seed", "4", stdin="1\n" * 800)
    assert r.returncode == 0, r.stderr
    assert "Your hand:" in r.stdout and "Your options:" in r.stdout and "Result:" in r.stdout


def test_act2_option_in_play_and_host():
    """"Act II: [...] Insert this card into the game only if you want to play longer." ``--act2``
    puts it in (``play`` and ``host``); without it the game has no Act II option set; another game
    refuses it."""
    from p2pcards.cli import game_options

    assert game_options() == {} and game_options(act2=True) == {"act2": True}
    r = cli("play", "girl-and-robot", "--players", "3", "--bots", "3", "--seed", "3", "--act2")
    assert r.returncode == 0 and "Result:" in r.stdout, r.stderr
    assert "--act2" in cli("host", "--help").stdout
    other = cli("play", "go-out-girl", "--players", "2", "--bots", "2", "--act2")
    assert other.returncode == 2 and "act2" in other.stderr
