"""Red team 16c: a refused move's stop names no card its stopper alone knows.

Every program that refuses a peer's move stops the table with a reason, and that reason goes to
every peer in its signed stop, the move's author among them. The reason was worded by the
refusing copy of the game, which knows its own seat's hand: a modified program that sends a move
naming a slot of bob's hand (Girl and the Robot: "hide" it face down as a weapon; Out Of This
World: "spend" it as an Item on another of bob's cards as a Foe; the Girl and the Robot's first
decision, the turn order: "waste" it) got bob's own program to write "place Trade face down as a
weapon is not a legal action now" and send it to everyone. One refused move showed its author
one or two of bob's cards, and every other player too. A move every copy refuses is now worded as the public copy words it ("discard ? (it cannot be played)
is not a legal action now"), and the first two say what is wrong without naming the card
("places face down a card that is not in their hand").

Written as the attacker's program would do it: its game message goes onto bob's channel, and
bob's real table (``Table.run``: reading, checking and settling the move) stops on it."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.engine import SPECTATOR, Action, Decide, Decision, LocalDealer, RuleViolation
from p2pcards.games import new_game
from p2pcards.table import Table, TableStopped
from protocol.channel import InMemoryHub
from tests.mesh.helpers import NAMES, run_async


def to_a_turn(game: str, players: int, ready) -> tuple:
    """A seeded game played by easy bots until ``ready(state)`` at a seat's decision; the full
    state and that seat."""
    full = new_game(game, players, {"names": NAMES[:players]})
    dealer = LocalDealer(5)
    bots = [make_bot(game, q, "easy", q) for q in range(players)]
    for _ in range(5000):
        req = full.pending()
        if isinstance(req, Decide):
            if ready(full):
                return full, req.player
            view = full.view(req.player)
            full.apply(Decision(req.player, bots[req.player].decide(view, full.legal(req.player))),
                       trusted=True)
        else:
            full.apply(dealer.fulfil(full, req))
    raise AssertionError("the game never reached the turn wanted")


LIES = {  # the move, from the two lowest slots of another seat's hand
    "hide": lambda hand: Action("hide", slot=hand[0]),
    "spend": lambda hand: Action("spend", item=hand[0], foe=hand[1]),
    "waste": lambda hand: Action("waste", slot=hand[0]),
}


@pytest.mark.parametrize("game,players,ready,lie", [
    ("girl-and-robot", 3, lambda st: st.phase == "turn", "hide"),
    ("out-of-this-world", 3, lambda st: st.step == "action", "spend"),
    # the Girl choosing the turn order, the hands dealt: "discard Spy (it cannot be played)"
    ("girl-and-robot", 3, lambda st: st.phase == "direction", "waste"),
])
@run_async(timeout=30)
async def test_a_move_naming_anothers_cards_gets_them_named_in_nobodys_stop(game, players, ready,
                                                                            lie):
    full, liar = to_a_turn(game, players, ready)
    victim = (liar + 1) % players
    hand = sorted(full.zones[f"hand{victim}"])
    lie = LIES[lie](hand)
    with pytest.raises(RuleViolation) as public:  # every copy refuses it: it is no move
        full.view(SPECTATOR).check(liar, lie)
    secret = [full.card_name(full.values[s]) for s in hand[:2]]
    assert not any(name in public.value.reason for name in secret)

    hub = InMemoryHub(players)
    table = Table(game, players, {}, victim, hub.channel(victim), None, None,  # type: ignore[arg-type]
                  names=NAMES[:players], say=lambda line: None, audit=False)
    table.state = full.view(victim)  # the victim's own copy: it knows its hand
    # the modified program's game message, as it signs it for the table
    await hub.channel(liar).broadcast("game", {"step": table.step, "action": lie.to_json()})
    with pytest.raises(TableStopped) as stop:
        await asyncio.wait_for(table.run(), 10)

    assert stop.value.culprit == liar
    assert stop.value.reason == f"{NAMES[liar]} made a move the rules forbid: " \
        f"{public.value.reason}"  # (ux23: "carol: ..." was not read as a cheat caught)
    assert not any(name in stop.value.reason for name in secret), (secret, stop.value.reason)


@pytest.mark.parametrize("game,players,ready,move", [
    ("girl-and-robot", 3, lambda st: st.phase == "turn", "hide"),  # not a legal action now
    ("girl-and-robot", 3, lambda st: st.phase == "direction", "waste"),
])
@run_async(timeout=30)
async def test_a_seats_own_illegal_decision_names_none_of_its_cards_in_its_stop(game, players,
                                                                                ready, move):
    """The same words from the other side: a seat whose own decision is illegal (a damaged
    journal replayed on ``join --resume``, or a bug) never sends it and stops the table. Its
    stop said "this seat's own decision is illegal: place Trade face down as a weapon is not a
    legal action now" -- its own copy's words, naming its own cards -- to every peer. The player
    still reads those words on their own screen; the stop is worded as the public copy words the
    move."""
    full, seat = to_a_turn(game, players, ready)
    hand = sorted(full.zones[f"hand{seat}"])
    own = full.view(seat)
    bad = LIES[move](hand)
    secret = [full.card_name(full.values[s]) for s in hand[:2]]
    with pytest.raises(RuleViolation) as private:
        own.check(seat, bad)
    assert any(name in private.value.reason for name in secret)  # its own copy's words name one

    hub = InMemoryHub(players)
    said: list[str] = []
    table = Table(game, players, {}, seat, hub.channel(seat), None, None,  # type: ignore[arg-type]
                  names=NAMES[:players], say=said.append, audit=False)
    table.state = own
    table._resume_decisions = [{"kind": "decision", "step": table.step,  # the damaged journal
                                "action": bad.to_json()}]
    with pytest.raises(TableStopped) as stop:
        await asyncio.wait_for(table.run(), 10)

    assert stop.value.culprit == seat
    assert stop.value.reason.startswith("this seat's own decision is illegal: ")
    assert not any(name in stop.value.reason for name in secret), (secret, stop.value.reason)
    assert any(private.value.reason in line for line in said)  # its own player is told in full
