"""``p2pcards tables`` "lists both, newest first; a damaged file is listed as unreadable with its
reason, and the others are listed as usual" (docs/playing.md, "Looking back"). Attacked with a
saved-games folder a careless user (or a sync tool) left junk in: a folder named like a game, a
link to itself, a link to nothing, a file with a name that is not UTF-8, random bytes, and two
real games whose order is known. (Pipes under a game's name: tests/ui/test_redteam_ux.py.)"""

from __future__ import annotations

import io
import os

from typer.testing import CliRunner

from p2pcards import cli
from p2pcards.ui import saved
from p2pcards.ui.local import play_local


def test_tables_lists_newest_first_and_names_the_junk_in_the_folder(home):
    for seed in (1, 2):
        play_local("go-out-girl", 3, 3, seed, {}, out=io.StringIO(), save=True)
    old, new = sorted(saved.find_local_games(), key=lambda p: p.name)
    os.utime(old, (2_000_000_000, 2_000_000_000))  # "old" is the newer of the two on disk
    os.utime(new, (1_900_000_000, 1_900_000_000))
    tables = old.parent
    (tables / "folder.game").mkdir()
    (tables / "folder.jsonl").mkdir()
    os.symlink("loop.game", tables / "loop.game")
    os.symlink("nowhere.jsonl", tables / "gone.jsonl")
    (tables / "noise.game").write_bytes(os.urandom(2000))
    odd = os.fsdecode(b"caf\xe9.game")  # a name that is not UTF-8
    (tables / odd).write_bytes(old.read_bytes())
    os.utime(tables / odd, (1_800_000_000, 1_800_000_000))

    r = CliRunner().invoke(cli.app, ["tables"])
    assert r.exit_code == 0 and r.exception is None, r.output
    out = r.output
    assert "Traceback" not in out
    # newest first: by the time on disk, not by the name
    assert out.index(str(old)) < out.index(str(new)) < out.index("caf")
    assert out.count("go-out-girl  local, watched") == 3  # the copy under the odd name too
    assert f"{tables / 'noise.game'}\n    unreadable: " in out
    for junk in ("folder.game", "folder.jsonl", "loop.game", "gone.jsonl"):
        if junk in out:  # not a saved game: left out, or named with the reason
            assert f"{tables / junk}\n    unreadable: " in out, junk


def test_a_name_that_is_not_utf8_is_listed_as_bash_takes_it_back(home):
    """'p2pcards tables' listed a saved game whose file name is not UTF-8 as ".../caf\\udce9.game"
    (ux22): typed into 'p2pcards replay', that name opens nothing. It is listed as a bash/zsh
    word, $'...', that gives back the very bytes of the name, with a line saying how to use it;
    'replay' names it the same way."""
    import shutil
    import subprocess

    play_local("go-out-girl", 3, 3, 1, {}, out=io.StringIO(), save=True)
    (game,) = saved.find_local_games()
    odd = game.parent / os.fsdecode(b"caf\xe9 it's.game")
    game.rename(odd)
    r = CliRunner().invoke(cli.app, ["tables"])
    assert r.exit_code == 0 and r.exception is None, r.output
    assert "\\udce9" not in r.output
    (word,) = [ln.strip() for ln in r.output.splitlines() if ln.strip().startswith("$'")]
    assert "paste it as it is written into bash or zsh" in r.output
    if shutil.which("bash"):
        got = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True,
                             check=True).stdout
        assert got == os.fsencode(odd)
    r = CliRunner().invoke(cli.app, ["replay", str(odd), "--plain"], input="q\n")
    assert f"Replay of {word} (" in r.output, r.output
