"""Issue 14 item 9: a chat line is judged by the table-talk rule in force at the game step its
sender sent it, not at whatever step the receiver has reached."""

from __future__ import annotations

from p2pcards.table import Table, _Line

from .ootw_helpers import A, act, at_turn, rig, start, take


def _line(sender: int, text: str, step, moves: int | None = None) -> _Line:
    """A chat line as it comes: dated at ``step``, after ``moves`` of its sender's moves."""
    import time

    return _Line(step, sender, text, moves, time.monotonic())


def _table(seat: int) -> tuple[Table, list[str]]:
    heard: list[str] = []
    t = Table("out-of-this-world", 4, {}, seat, None, None, None,  # type: ignore[arg-type]
              names=["Ann", "Ben", "Cat", "Dan"], say=heard.append)
    return t, heard


def _bens_turn_then_cats():
    """Ben's turn at Cat's copy (step 40: he takes, step 41: he ends it), then Cat's (step 43).
    Cat's copy read Ben's two moves, at steps 40 and 41."""
    g, d = start(4, seed=1)
    rig(g, hands={1: ["kazoo", "dice"]}, stacks=[["kazoo"], ["dice"], ["harmonica"], [], []])
    at_turn(g, 1)
    cat, heard = _table(2)
    cat.state = g.view(2)
    cat.step = 40
    cat._note_talk()
    take(g, 1, "kazoo", d)
    cat._moves[1] = [40]
    cat.state = g.view(2)
    cat.step = 41
    cat._note_talk()
    act(g, 1, A("done"), d)
    cat._moves[1].append(41)
    cat.state = g.view(2)
    cat.step = 43
    cat._note_talk()
    assert g.chat_refusal(1) is not None, "at Cat's turn Ben may not talk"
    return cat, heard


def test_the_vocal_players_last_line_is_heard_after_the_turn_moved_on():
    """"During this phase, you can only speak during your turn, when you are holding the Vocal
    Player token." Ben speaks on his turn; Cat's seat has already moved on to Cat's turn when the
    line arrives: it is still Ben's legal line, judged at the step Ben sent it."""
    cat, heard = _bens_turn_then_cats()
    cat._hear(_line(1, "I need Music!", 40))  # sent by Ben at step 40, on his own turn
    assert heard == ["Ben (seat 2): I need Music!"]
    cat._hear(_line(1, "me again", 43))  # sent now: not his turn any more
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
    ben._held.append(_line(2, "my turn now", 12))  # Cat spoke at step 12, on her own turn
    ben._note_talk()
    assert heard == [], "not judged before its step"
    take(g, 1, "kazoo", d)
    act(g, 1, A("done"), d)
    ben.state = g.view(1)
    ben.step = 12
    ben._note_talk()
    assert heard == ["Cat (seat 3): my turn now"]


def test_a_line_with_no_usable_step_is_refused():
    t, heard = _table(0)
    t._note_talk()
    t._hear(_line(1, "hi", "soon"))
    t._hear(_line(1, "hi", -5000))
    assert len(heard) == 2 and all("refused" in h for h in heard)


def test_a_line_dated_back_before_its_senders_own_move_is_refused():
    """"During this phase, you can only speak during your turn, when you are holding the Vocal
    Player token." A modified program dates Ben's line back to his turn (step 40) though he sent
    it after ending that turn (after both his moves): the channel delivers his lines and moves in
    the order he sent them, so the line's place among his moves gives the lie away."""
    cat, heard = _bens_turn_then_cats()
    cat._hear(_line(1, "take the Dice!", 40, moves=2))  # after his 'done' at step 41
    assert heard and "take the Dice!" not in heard[-1]
    assert "refused" in heard[-1] and "Ben's program dated it at game step 40" in heard[-1]
    assert "after Ben's move at step 41" in heard[-1]
    cat._hear(_line(1, "still dated back", 41, moves=2))  # at his last move's own step
    assert "cannot be dated back" in heard[-1] and "still dated back" not in heard[-1]
    # said on his turn, before his moves (or between them): heard, late as it comes
    cat._hear(_line(1, "I need Music!", 40, moves=0))
    cat._hear(_line(1, "and the Dice", 41, moves=1))
    assert heard[-2:] == ["Ben (seat 2): I need Music!", "Ben (seat 2): and the Dice"]


def test_a_line_that_comes_long_after_its_step_is_refused_unless_allowed_now():
    """A line dated at a step Cat's game left more than CHAT_LATE seconds before it came is
    refused when Ben may not talk now (a program dating lines back where no move of his shows
    it); one he may say now anyway is heard."""
    from p2pcards.table import CHAT_LATE

    cat, heard = _bens_turn_then_cats()
    late = _line(1, "the Dice, now!", 41, moves=1)
    late.at = cat._reached[43] + CHAT_LATE + 1  # Cat's game left step 41 at step 43
    cat._hear(late)
    assert "refused" in heard[-1] and "s late" in heard[-1] and "the Dice" not in heard[-1]
    soon = _line(1, "the Dice, now!", 41, moves=1)
    soon.at = cat._reached[43] + 1.0
    cat._hear(soon)
    assert heard[-1] == "Ben (seat 2): the Dice, now!"
    cat.state.chat_refusal = lambda seat: None  # a phase in which everyone may talk
    cat._hear(late)
    assert heard[-1] == "Ben (seat 2): the Dice, now!"


def test_lines_one_sender_dates_ahead_do_not_crowd_out_anothers():
    """Lines dated at steps not reached yet wait, up to TALK_AHEAD of them per sender: a
    modified program filling the wait with lines dated far ahead has its own further lines
    dropped, not Cat's."""
    import asyncio

    from p2pcards.table import TALK_AHEAD

    class Lines:
        def __init__(self, items):
            self.items = list(items)

        async def recv_stamped(self, topic):
            if not self.items:
                raise ChannelClosed()
            return self.items.pop(0)

    from protocol.channel import ChannelClosed

    ben, heard = _table(1)
    ben._note_talk()
    flood = [(3, {"text": f"later {i}", "step": 5_000}, {"game": 0}) for i in range(TALK_AHEAD + 5)]
    ben.channel = Lines([*flood, (2, {"text": "my turn soon", "step": 3}, {"game": 0})])
    ben._chat_budget = {}
    ben._chat_allowed = lambda sender: True  # (the rate limit is another test's)
    asyncio.run(ben._chat_loop())
    assert sum(1 for h in ben._held if h.sender == 3) == TALK_AHEAD
    assert any(h.sender == 2 and h.text == "my turn soon" for h in ben._held)
    assert sum("was dropped" in h and "Dan" in h for h in heard) == 5
