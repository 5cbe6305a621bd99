"""Every game can be looked back at: local games are saved as they are played, 'tables' lists
them, 'replay' steps through one as a seat saw it (or as a spectator), forward and back, on the
same screen as play; a damaged or missing file gets a one-line reason."""

from __future__ import annotations

import asyncio
import io

import pytest
from typer.testing import CliRunner

from p2pcards import cli
from p2pcards.engine import ConfigError
from p2pcards.ui import saved
from p2pcards.ui.local import play_local
from p2pcards.ui.replay_screen import ReplayApp

runner = CliRunner()


@pytest.fixture
def game(home):
    """A finished local Go Out Girl game with a person at seat 1 (who always takes option 1)."""
    final = play_local("go-out-girl", 3, 2, 8, {}, inp=lambda p: "1", out=io.StringIO(), save=True)
    (path,) = saved.find_local_games()
    return path, final


def test_a_local_game_is_saved_and_replays_to_the_same_end(game):
    path, final = game
    g = saved.read(path)
    assert g.finished and g.names == ["Player", "Bot 1", "Bot 2"] and g.seat == 0
    frames = saved.frames(g, 0)
    assert frames[-1].view.outcome() == final.outcome()
    assert frames[-1].log[-1] == f"Result: {final.result_text()}"
    # seat 1 sees its own hand; a spectator sees nobody's
    me = frames[1].view
    assert all(me.values[s] is not None for s in me.zones["hand0"])
    spec = saved.frames(g, None)[1].view
    assert all(spec.values[s] is None for s in spec.zones["hand0"])
    # another seat's view: its hand, not ours
    other = saved.frames(g, 2)[1].view
    assert all(other.values[s] is not None for s in other.zones["hand2"])


def test_replay_steps_forward_and_back(game):
    path, final = game
    g = saved.read(path)
    frames = saved.frames(g, 0)

    async def go():
        app = ReplayApp(g.game, 0, frames, names=g.names)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert app.at == 0 and "step 0 of" in app.texts["question"]
            start_log = list(app.lines_seen)
            await pilot.press("right", "right", "right")
            assert app.at == 3
            assert len(app.lines_seen) > len(start_log)
            assert app.lines_seen == frames[3].log
            await pilot.press("left")
            assert app.at == 2 and app.lines_seen == frames[2].log
            await pilot.press("end")
            assert app.at == len(frames) - 1
            assert app.texts["status"].endswith("game over")
            assert app.lines_seen[-1] == f"Result: {final.result_text()}"
            await pilot.press("home")
            assert app.at == 0 and app.lines_seen == start_log
            await pilot.press("left")  # the start stays the start
            assert app.at == 0
            await pilot.press("q")
    asyncio.run(go())


def test_tables_lists_local_games_and_replay_prints_in_line_mode(game):
    path, final = game
    r = runner.invoke(cli.app, ["tables"])
    assert r.exit_code == 0
    assert "go-out-girl  local, seat 1 of 3  [Player, Bot 1, Bot 2]  finished" in r.output
    assert str(path) in r.output
    r = runner.invoke(cli.app, ["replay", str(path), "--seat", "2"])
    assert r.exit_code == 0, r.output
    assert "as Bot 1 saw it" in r.output and "Bot 1 (you)" in r.output
    r = runner.invoke(cli.app, ["replay", str(path), "--seat", "4"])
    assert r.exit_code == 2 and "--seat must be between 1 and 3" in r.output


def test_missing_and_damaged_files_get_one_line(home, game):
    path, _ = game
    r = runner.invoke(cli.app, ["replay", str(home / "nope.game")])
    assert r.exit_code == 2 and "no such file" in r.output and "Traceback" not in r.output
    r = runner.invoke(cli.app, ["audit", str(home / "nope.jsonl")])
    assert r.exit_code == 2 and "no such file" in r.output and "NOT clean" not in r.output
    r = runner.invoke(cli.app, ["audit", str(path)])
    assert r.exit_code == 2 and "is a local game" in r.output
    lines = path.read_text().splitlines()
    lines[3] = lines[3][:10] + "garbage"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ConfigError, match="line 4 is damaged"):
        saved.read(path)
    path.write_text("{}\n")
    r = runner.invoke(cli.app, ["replay", str(path)])
    assert r.exit_code == 2 and "not a saved local game (line 1)" in r.output


def test_a_record_that_does_not_fit_the_game_is_refused(game):
    path, _ = game
    lines = path.read_text().splitlines()
    # a decision by a seat whose turn it is not
    import json

    for i, line in enumerate(lines[1:], 1):
        rec = json.loads(line)
        if rec.get("event", {}).get("type") == "decision":
            rec["event"]["player"] = (rec["event"]["player"] + 1) % 3
            lines[i] = json.dumps(rec)
            break
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ConfigError, match="does not fit the game"):
        saved.frames(saved.read(path), 0)


# in the worker that plays the audit tests' shared game (tm.shared_game), not a game of its own
@pytest.mark.xdist_group("shared-game")
def test_a_finished_networked_transcript_replays_as_its_owner_or_a_spectator(tmp_path_factory):
    """A real two-peer game over loopback (the mental-poker deck): its transcript replays, with
    the deck audit's outcomes, as its owner's seat (the seat journal beside it completes the
    owner's own cards) or as a spectator. Deck v2 never reveals the other hands, so bob's view
    cannot be rebuilt from alice's record; a truncated record is refused."""
    import shutil

    from tests.table import transcript_mutants as tm

    g = tm.shared_game(tmp_path_factory)  # read only: the copies made here go elsewhere
    here = tmp_path_factory.mktemp("copies")
    s = saved.load_any(g.path)
    assert s.game == "go-out-girl" and s.names == ["alice", "bob"] and s.seat == 0 and s.finished
    assert s.viewer == 0  # the owner's view: its journal is beside the transcript
    mine = saved.frames(s, 0)
    end = mine[-1].view
    assert len(mine) > 2 and end.outcome() is not None
    assert mine[-1].log[-1] == f"Result: {s.result_text}"
    first = mine[1].view
    assert all(first.values[x] is not None for x in first.zones["hand0"])
    assert all(first.values[x] is None for x in first.zones["hand1"])
    with pytest.raises(ConfigError, match="never revealed"):
        saved.frames(s, 1)
    with pytest.raises(ConfigError, match="never revealed"):
        saved.load_any(g.path, 1)
    public_game = saved.load_any(g.path, None)
    public = saved.frames(public_game, None)
    assert len(public) == len(mine) and public[-1].view.outcome() == end.outcome()
    assert all(public[1].view.values[x] is None for x in public[1].view.zones["hand0"])
    alone = here / "copied" / g.path.name  # without its journal: a spectator's record
    alone.parent.mkdir()
    shutil.copy(g.path, alone)
    assert saved.load_any(alone).viewer == saved.SPECTATOR
    cut = here / "cut.jsonl"
    cut.write_bytes(b"".join(ln + b"\n" for ln in g.lines[: len(g.lines) // 2]))
    with pytest.raises(ConfigError):
        saved.load_any(cut)
    # a journal that is not the owner's (another seed) is not used to fill the owner's cards:
    # the owner's view is refused in words, and a spectator's replay still works
    import json
    import os
    forged = here / "forged" / g.path.name
    forged.parent.mkdir()
    shutil.copy(g.path, forged)
    journal = g.path.with_suffix(".seat").read_text().splitlines()
    journal[0] = json.dumps({"kind": "seed", "deck": os.urandom(32).hex()})
    forged.with_suffix(".seat").write_text("\n".join(journal) + "\n")
    assert saved.load_any(forged).viewer == saved.SPECTATOR
    with pytest.raises(ConfigError, match="does not match the signed record"):
        saved.load_any(forged, 0)


@pytest.mark.parametrize("version", [1, 2])
def test_a_local_game_saved_by_an_earlier_version_still_replays(home, monkeypatch, version):
    """A save of version 1 holds no ``Proven`` events where this version's engine asks for a
    proof (a pass with a face-down character), and one of version 2 a re-mix after each proof
    that this version no longer makes: each replays as its own version played it, and a save of
    today (version 3) with its proofs."""
    from p2pcards.engine import Proven
    from p2pcards.engine.state import GameState

    secrecy = saved.SECRECY_OF[version]
    with monkeypatch.context() as m:  # (not undo(): the home fixture's own patch stays)
        m.setattr(GameState, "secrecy", secrecy)
        m.setattr(saved, "VERSION", version)
        old = play_local("go-out-girl", 3, 2, 3, {}, inp=lambda p: "1", out=io.StringIO(),
                         save=True)
    (path,) = saved.find_local_games()
    g = saved.read(path)
    assert g.secrecy == secrecy
    assert any(isinstance(e, Proven) for e in g.events) == (secrecy >= 1)
    assert saved.frames(g, 0)[-1].view.outcome() == old.outcome()
    new = play_local("go-out-girl", 3, 2, 3, {}, inp=lambda p: "1", out=io.StringIO(), save=True)
    (path2,) = [p for p in saved.find_local_games() if str(p) != str(path)]
    g2 = saved.read(path2)
    assert g2.secrecy == saved.SECRECY_OF[saved.VERSION] == GameState.secrecy
    assert any(isinstance(e, Proven) for e in g2.events), "seed 3 proves a pass"
    assert saved.frames(g2, 0)[-1].view.outcome() == new.outcome()
