"""What the others read while a seat's program sits on its turn past the turn time (ux23).

Walked at a table of three, carol's program hung on her turn (it neither played nor let its
bot play). The only word before the table stopped, in the log alone, was "(waiting for carol's
turn: 29 s left)": 29 s of what, and then what? It now says that her time is up, that her
program has not played for her, and when the table stops, naming her -- as a notice line
('** ...'), which the full-screen table shows above the options too."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.table import Table, TableStopped
from protocol.channel import InMemoryHub
from tests.mesh.helpers import NAMES, run_async


@run_async(timeout=30)
async def test_a_turn_sat_on_past_its_time_says_when_the_table_stops_and_whom_it_names():
    hub = InMemoryHub(3)
    said: list[str] = []
    table = Table("go-out-girl", 3, {}, 0, hub.channel(0), None, None,  # type: ignore[arg-type]
                  names=NAMES[:3], say=said.append, audit=False, peer_turn_time=2.5)
    with pytest.raises(TableStopped) as stop:
        await asyncio.wait_for(table._recv_game(2), 10)
    assert stop.value.culprit == 2
    name = NAMES[2]
    (line,) = [x for x in said if "time for this turn is up" in x]
    assert line.startswith(f"** {name}'s time for this turn is up, and their program has not "
                           f"played it for them: in "), line
    assert line.endswith(f" s the table stops, naming {name}"), line


@pytest.mark.slow  # 13 s on its timers: goes first (tests/conftest.py)
@run_async(timeout=40)
async def test_the_countdown_is_said_again_ten_seconds_before_the_stop():
    """A notice stays up: said once, at 30 s, it read "in 29 s" for the whole of them."""
    hub = InMemoryHub(3)
    said: list[str] = []
    table = Table("go-out-girl", 3, {}, 0, hub.channel(0), None, None,  # type: ignore[arg-type]
                  names=NAMES[:3], say=said.append, audit=False, peer_turn_time=13.0)
    with pytest.raises(TableStopped):
        await asyncio.wait_for(table._recv_game(2), 30)
    counts = [int(x.split(": in ")[1].split(" s ")[0]) for x in said if "time for this turn" in x]
    assert len(counts) == 2 and counts[0] >= 11 and 9 <= counts[1] <= 10, said


def test_a_deck_message_that_does_not_check_out_is_said_as_a_cheat_caught():
    """Walked (ux23): carol's program sent a shuffle whose proof fails. Every screen said "The
    table stopped: carol: shuffle proof: shuffle proof: challenge mismatch (another statement or
    context) (deck step shuffle)" -- nothing a player reads as a cheat caught, and its first
    words twice. It now says what happened first, then the proof's own words, once."""
    from protocol.errors import CheatDetected, DeckTimeout

    hub = InMemoryHub(3)
    table = Table("go-out-girl", 3, {}, 0, hub.channel(0), None, None,  # type: ignore[arg-type]
                  names=NAMES[:3], say=lambda line: None, audit=False)
    name = NAMES[2]
    stop = table._deck_stop(CheatDetected(2, "shuffle", "shuffle proof: shuffle proof: challenge "
                                          "mismatch (another statement or context)", 4))
    assert stop.culprit == 2
    assert stop.reason == (f"{name}'s program sent a deck message the protocol forbids: shuffle "
                           "proof: challenge mismatch (another statement or context) (deck step "
                           "shuffle)")
    late = table._deck_stop(DeckTimeout(2, "end", "no end message within 60 s"))
    assert late.reason == f"{name}: no end message within 60 s (deck step end)" and late.clock
