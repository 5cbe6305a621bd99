"""A bug in any command ends with one line on the terminal and the traceback in crash.log,
never a raw traceback."""

from __future__ import annotations

import pytest

from p2pcards import cli


def test_an_internal_error_is_one_line_and_a_crash_log(tmp_path, monkeypatch, capsys):
    def broken_app():
        raise KeyError("boom")

    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    monkeypatch.setattr(cli, "app", broken_app)
    with pytest.raises(SystemExit) as e:
        cli.main()
    assert e.value.code == 70
    err = capsys.readouterr().err
    assert "internal error (KeyError: 'boom')" in err and "Traceback" not in err
    assert str(tmp_path / "crash.log") in err
    log = (tmp_path / "crash.log").read_text()
    assert "Traceback" in log and "broken_app" in log and "KeyError: 'boom'" in log


def test_exits_and_interrupts_pass_through(monkeypatch):
    def interrupted_app():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "app", interrupted_app)
    with pytest.raises(KeyboardInterrupt):
        cli.main()
