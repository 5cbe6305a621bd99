"""What other peers write reaches this terminal with its control characters made visible."""

from p2pcards.ui.text import printable


def test_plain_text_is_unchanged():
    assert printable("Ann plays 13 (●) — café") == "Ann plays 13 (●) — café"


def test_control_and_format_characters_are_escaped():
    assert printable("a\x1b[2Jb\rc\u202ed\x00") == "a\\x1b[2Jb\\rc\\u202ed\\x00"
    assert printable("no\u00a0break") == "no break"


def test_newlines_are_kept_or_escaped():
    assert printable("one\ntwo") == "one\ntwo"
    assert printable("one\ntwo", newlines=False) == "one\\ntwo"
