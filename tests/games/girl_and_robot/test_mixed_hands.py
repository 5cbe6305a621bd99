"""Hands are mixed (issue 11 item 5): "when a card enters a hand, the others lose track of its
slot" (the design notes). At a table a card taken into a hand is mixed with the others; slot ids
are public here, so the holder mixes the hand with the engine's ``Shuffle(hand, by=holder,
mix=True)`` and every other seat forgets which slot holds which card."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from p2pcards.engine import Shuffle
from p2pcards.lobby import DealerAdapter

from .gar_rig import Table, rig


def mixes(t: Table) -> list[Shuffle]:
    return [r for r in t.requests if isinstance(r, Shuffle) and r.mix]


def test_a_stolen_card_cannot_be_followed_into_the_thiefs_hand():
    """"Steal: Choose another player. Take a card from their hand at random." The victim knew
    the card; once it is in the thief's hand, mixed, the victim cannot tell which slot holds it."""
    g = rig(["girl", "robot", "queen"], hands={0: ["steal", "ap1", "ap2"], 2: ["spy"]},
            draw=["*"] * 5)
    t = Table(g)
    spy = g.hand(2)[0]
    t.play(0, "steal", target=2)
    t.pass_all()
    assert mixes(t) == [Shuffle(tuple(sorted(g.hand(0), key=g.hand(0).index)), 0, mix=True)]
    assert t.hand_kinds(0) == ["ap1", "ap2", "spy"]
    assert all(g.known[s] == 1 << 0 for s in g.hand(0))  # the Queen lost track of her Spy
    assert spy in g.hand(0) and t.views[2].values[spy] is None
    assert any("takes a card at random from" in line for line in t.log)


def test_a_traded_card_cannot_be_followed_either_way():
    """"Trade: [...] Each of you chooses a card from your hand if you can, then gives it to the
    other player." Both hands are mixed: neither trader can follow the card they gave."""
    g = rig(["girl", "robot", "queen"], hands={0: ["trade", "steal", "ap1"], 2: ["spy", "ap2"]},
            draw=["*"] * 5)
    t = Table(g)
    t.play(0, "trade", target=2)
    t.pass_all()
    t.act(0, "choose", slot=t.slot("steal", "hand0"))
    t.act(2, "choose", slot=t.slot("spy", "hand2"))
    assert {m.by for m in mixes(t)} == {0, 2}
    assert t.hand_kinds(0) == ["ap1", "spy"] and t.hand_kinds(2) == ["ap2", "steal"]
    for p in (0, 2):
        assert all(g.known[s] == 1 << p for s in g.hand(p))


def test_a_drawn_card_is_mixed_after_it_is_declared():
    """"End your turn by drawing 1 card from the Draw Pile." The Queen looked at the top card with
    Scout ("Look at the next 5 cards of the Draw Pile"): once the Girl has drawn it and declared
    it, the Girl mixes it in, and the Queen can no longer tell it from the Girl's old cards."""
    g = rig(["girl", "robot", "queen"], hands={0: ["ap1"], 2: ["scout"]}, draw=["*"] * 6, turn=2)
    t = Table(g)
    t.play(2, "scout")
    t.pass_all()
    t.end(2)  # the Queen draws the top card; the next one is known to her too
    top = g.zones["draw"][-1]
    assert t.knows(2, top) and not t.knows(1, top) and g.turn == 0
    t.end(0)
    assert g.turn == 1 and top in g.hand(0) and len(g.hand(0)) == 2
    assert mixes(t)[-1].by == 0
    assert all(g.known[s] == 1 << 0 for s in g.hand(0))
    assert all(g.safe.get(str(s)) == 0 for s in g.hand(0))  # "not a Demon" covers both slots


def test_a_card_taken_from_the_discard_pile_is_mixed_in():
    """The Evil Queen, Alone, 3: "If the top card of the discard pile is an Action card, take it."
    Everyone saw it on the pile; in her hand nobody can point at it."""
    g = rig(["girl", "queen"], hands={1: ["ap3", "ap1"]}, discard=["steal"], draw=["*"] * 5, turn=1)
    t = Table(g)
    t.play(1, "ap3")
    steal = g.zones["discard"][-1]
    t.act(1, "ability", id="queen_take")
    assert steal in g.hand(1) and mixes(t)
    assert all(g.known[s] == 1 << 1 for s in g.hand(1))


def test_a_spied_hand_is_not_mixed():
    """"Spy: Choose a player. They must play with their cards face up on the table until they
    draw a card." A card the spied player receives is shown to all; nothing is mixed."""
    g = rig(["girl", "robot", "queen"], hands={0: ["spy", "steal"], 2: ["trade", "ap1"]},
            draw=["*"] * 5)
    t = Table(g)
    t.play(0, "spy", target=2)
    t.pass_all()
    t.end(0)
    t.end(1)
    assert g.turn == 2 and g.spied[2]
    t.play(2, "trade", target=0)
    t.pass_all()
    t.act(2, "choose", slot=t.slot("ap1", "hand2"))
    t.act(0, "choose", slot=g.hand(0)[0])
    assert [m.by for m in mixes(t)][-1:] == [0]  # the Girl's hand only
    assert all(g.public(s) for s in g.hand(2))


def test_the_girl_still_sees_the_robots_hand_after_it_is_mixed():
    """The Girl, Team, 1: "You may play cards from the Robot's hand this turn." She trades with
    the Robot; the Robot's hand is mixed, and she looks at it again, so she can still play from
    it."""
    g = rig(["girl", "robot", "queen"], hands={0: ["ap1", "trade", "ap2"], 1: ["scout", "spy"]},
            draw=["*"] * 6)
    t = Table(g)
    t.play(0, "ap1")
    t.act(0, "ability", id="girl_borrow")
    t.play(0, "trade", target=1)
    t.pass_all()
    t.act(0, "choose", slot=t.slot("ap2", "hand0"))
    t.act(1, "choose", slot=t.slot("spy", "hand1"))
    assert any(m.by == 1 for m in mixes(t))
    assert all(t.knows(0, s) for s in g.hand(1)) and not any(t.knows(2, s) for s in g.hand(1))
    assert t.has(0, "play", card="scout")


def test_a_networked_seat_mixes_its_hand_without_asking_its_player():
    """At a networked table the holder's program picks the mix's order itself (the deck dealer
    draws it from the seat's secrets, so a restarted seat re-makes it): its player -- this game's
    bot arranges Manipulate's cards and knows nothing of hands -- is never asked. A plain
    arrangement by the same seat still asks."""
    hand = (3, 8, 12)

    class Dealer:
        seat = 0
        deck = SimpleNamespace(timeout=5.0)

        async def fulfil(self, view, req, arrange=None):
            self.arrange = arrange
            return "done"

    for mix, asked in ((True, 0), (False, 1)):
        calls: list[tuple[int, tuple[int, ...]]] = []

        async def arrange(by, slots, calls=calls):
            calls.append((by, slots))
            return list(reversed(slots))

        dealer = Dealer()
        view = SimpleNamespace(arrangement_prompt=lambda by, slots: None)
        out = asyncio.run(DealerAdapter(dealer).fulfil(view, Shuffle(hand, 0, mix=mix), arrange))
        assert out == "done"
        assert len(calls) == asked
        assert (dealer.arrange is None) == mix
