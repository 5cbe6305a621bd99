"""Red team 15b: files at loose permissions. A local game's record holds every hand (a trusted
dealer dealt it) and was written 0644; the demo's kept transcript was copied 0644 into a data
directory the copy itself created 0755 when it was the first thing p2pcards wrote (and
``ensure_dir`` never tightens a folder that exists, so the identity key's folder stayed 0755).
Another user of the machine could read them. Now every record is 0600 and the data folder 0700,
as the transcripts, journals, logs and the key already were."""

from __future__ import annotations

import os
import stat

import pytest

from p2pcards import demo
from p2pcards.ui.saved import Recorder


@pytest.fixture
def loose_umask():
    old = os.umask(0o022)  # the usual one: files 0644, folders 0755 unless asked otherwise
    yield
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_local_games_record_is_private(tmp_path, monkeypatch, loose_umask):
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path / "home"))
    rec = Recorder("go-out-girl", 3, {}, ["you", "Bot 2", "Bot 3"], 0)
    rec.close()
    assert mode(rec.path) == 0o600
    assert mode(tmp_path / "home") == 0o700 and mode(rec.path.parent) == 0o700


def test_the_demos_kept_transcript_is_private_in_a_fresh_data_folder(tmp_path, monkeypatch,
                                                                      loose_umask):
    home = tmp_path / "fresh"  # nothing of p2pcards on this machine yet
    monkeypatch.setenv("P2PCARDS_HOME", str(home))
    monkeypatch.setattr(demo, "say", lambda text: None)
    src = tmp_path / "host.jsonl"
    src.write_text('{"type": "table"}\n')
    kept = demo._keep_transcript(src)
    assert kept is not None and kept.read_text() == src.read_text()
    assert mode(kept) == 0o600
    assert mode(home) == 0o700 and mode(home / "tables") == 0o700


def test_a_data_folder_made_by_the_person_keeps_its_mode_and_the_record_is_still_private(
        tmp_path, monkeypatch, loose_umask):
    """P2PCARDS_HOME made beforehand with 'mkdir' (0755): p2pcards does not change a folder it
    did not create (docs/playing.md says so; it said "in a data folder of mode 0700"), but the
    record is 0600 in the tables/ folder p2pcards made, 0700: nobody else can list or read the
    saved games."""
    home = tmp_path / "cards"
    home.mkdir(mode=0o755)
    monkeypatch.setenv("P2PCARDS_HOME", str(home))
    rec = Recorder("go-out-girl", 3, {}, ["you", "Bot 2", "Bot 3"], 0)
    rec.close()
    assert mode(home) == 0o755
    assert mode(rec.path) == 0o600 and mode(rec.path.parent) == 0o700
