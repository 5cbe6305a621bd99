"""Issue 14 item 9: a chat line is judged by the table-talk rule in force at the game step its
sender sent it, not at whatever step the receiver has reached."""

from __future__ import annotations

from p2pcards.table import Table

from .ootw_helpers import A, act, at_turn, rig, start, take


def _table(seat: int) -> tuple[Table, list[str]]:
    heard: list[str] = []
    t = Table("out-of-this-world", 4, {}, seat, None, None, None,  # type: ignore[arg-type]
              names=["Ann", "Ben", "Cat", "Dan"], say=heard.append)
    return t, heard


def test_the_vocal_players_last_line_is_heard_after_the_turn_moved_on():
    """"During this phase, you can only speak during your turn, when you are holding the Vocal
    Player token." Ben speaks on his turn; Cat's seat has already moved on to Cat's turn when the
    line arrives: it is still Ben's legal line, judged at the step Ben sent it."""
    g, d = start(4, seed=1)
    rig(g, hands={1: ["kazoo", "dice"]}, stacks=[["kazoo"], ["dice"], ["harmonica"], [], []])
    at_turn(g, 1)
    cat, heard = _table(2)
    cat.state = g.view(2)
    cat.step = 40
    cat._note_talk()  # Cat's copy passes step 40: Ben's turn
    take(g, 1, "kazoo", d)
    act(g, 1, A("done"), d)  # Ben ends his turn: it is Cat's now
    cat.state = g.view(2)
    cat.step = 43
    cat._note_talk()
    assert g.chat_refusal(1) is not None, "at Cat's turn Ben may not talk"
    cat._hear(1, "I need Music!", 40)  # sent by Ben at step 40, on his own turn
    assert heard == ["Ben: I need Music!"]
    cat._hear(1, "me again", 43)  # sent now: not his turn any more
    assert "refused" in heard[-1] and "Vocal Player" in heard[-1] and "me again" not in heard[-1]


def test_a_line_from_a_step_not_reached_yet_waits_for_it():
    """The sender may be ahead: its line is kept until this seat's game reaches the sender's
    step, then judged there (Cat's own turn, so she may talk)."""
    g, d = start(4, seed=1)
    rig(g, hands={1: ["kazoo"]}, stacks=[["kazoo"], ["dice"], ["harmonica"], [], []])
    at_turn(g, 1)
    ben, heard = _table(1)
    ben.state = g.view(1)
    ben.step = 10
    ben._note_talk()
    ben._chat_ahead.append((12, 2, "my turn now"))  # Cat spoke at step 12, on her own turn
    ben._note_talk()
    assert heard == [], "not judged before its step"
    take(g, 1, "kazoo", d)
    act(g, 1, A("done"), d)
    ben.state = g.view(1)
    ben.step = 12
    ben._note_talk()
    assert heard == ["Cat: my turn now"]


def test_a_line_with_no_usable_step_is_refused():
    t, heard = _table(0)
    t._note_talk()
    t._hear(1, "hi", "soon")
    t._hear(1, "hi", -5000)
    assert len(heard) == 2 and all("refused" in h for h in heard)
