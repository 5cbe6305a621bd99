"""Issue 14 items 7, 8 and 10 and issue 11 item 5 for Out Of This World. Each test quotes the
rule it checks."""

from __future__ import annotations

from collections import Counter

import pytest

from p2pcards.bots.base import RandomBot
from p2pcards.engine import ConfigError, Decide, Decision, LocalDealer, RuleViolation, Shuffle, play
from p2pcards.games.out_of_this_world import data as D
from p2pcards.games.out_of_this_world.game import Game

from .ootw_helpers import A, RiggedDealer, act, at_turn, keys, rig, slot, start, take


def _rounds(seed: int, players: int = 3, **options):
    """Play a whole game with random bots; per round, its first player and each seat's turns."""
    g = Game.new(players, {"difficulty": "tough", **options})
    starts: list[int] = []
    turns: list[Counter] = []

    def on_step(st, ev):
        if isinstance(ev, Decision) and ev.action.kind in ("take", "leg_it"):
            if st.round > len(starts):
                starts.append(ev.player)
                turns.append(Counter())
            turns[-1][ev.player] += 1

    play(g, [RandomBot(p, seed + p) for p in range(players)], LocalDealer(seed), on_step=on_step)
    return starts, turns


@pytest.mark.parametrize("seed", [12, 3, 7])
def test_three_players_the_first_player_moves_on_each_round(seed):
    """"4. Pass the Vocal Player Token. The next round will begin with the player to the left of
    the current Vocal Player (who will act first during the next Go For It! phase)." With 3
    players the round's first player moves on one seat each round, so every seat starts in turn
    (issue 14 item 7: the same seat used to start every round)."""
    starts, turns = _rounds(seed)
    assert len(starts) >= 2
    for a, b in zip(starts, starts[1:], strict=False):
        assert b == (a + 1) % 3
    # the turns go clockwise from the first player: the first player never has fewer turns
    for first, count in zip(starts, turns, strict=True):
        assert count[first] == max(count.values())


def test_four_and_five_players_too():
    for players in (4, 5):
        starts, _ = _rounds(5, players)
        assert all(b == (a + 1) % players for a, b in zip(starts, starts[1:], strict=False))


def test_spend_only_your_own_equipped_items():
    """"Once you have equipped an Item, you can use the Item's ability" -- and "These abilities
    can be used once during the game as long as the card has been previously equipped by one of
    the players": the Walkman equipped by Ben is Ben's to Spend, not Ann's (issue 14 item 8)."""
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, equipped={1: ["walkman"]}, stacks=[["kazoo"], ["dice"], [], [], []], time=5)
    wm = slot(g, "walkman", "equip1")
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    assert A("spend", item=wm) not in g.legal(0)
    peer = g.view(2)  # a peer's copy refuses Ann's claim too
    with pytest.raises(RuleViolation):
        peer.apply(Decision(0, A("spend", item=wm)))
    act(g, 0, A("done"), d)
    take(g, 1, "dice", d)
    assert A("spend", item=wm) in g.legal(1)
    act(g, 1, A("spend", item=wm), d)
    assert g.time == 6 and g.spent == [wm]


def test_cards_of_house_adventures_carry_house_marks():
    """The rulebook prints only Birthday Bash and Patrol the Block; every card of a house
    adventure, and the wild cards' text, is p2pcards house content and says so (issue 14
    item 10)."""
    d = D.load()
    for adv in d.adventures.values():
        if adv.house == ("*",):
            for c in adv.cards:
                assert c.house, f"{adv.name}: {c.name} has no house mark"
    for c in d.items:
        if c.type == D.WILD:
            assert "text" in c.house or c.house == ("*",), c.name
    text = Game.rules_text()
    for name in ("Hall Monitor", "Flashlight", "Gargoyle", "Stained glass shard",
                 "Herald of the Visitor", "Ritual candle", "The Visitor"):
        line = next(x for x in text.splitlines() if " — " in x and
                    x.strip().split(" — ")[0].split("× ")[-1].split(" (")[0] == name)
        assert "[house" in line, line


def test_patrol_the_block_time_tokens():
    """Patrol the Block: "use eight Time tokens (or less for a harder game)" (issue 14 item 10:
    the option ``time_tokens``, ``--time-tokens`` on the command line)."""
    g = Game.new(3, {"time_tokens": 5})
    assert g.time == g.time_max == 5
    assert Game.new(3).time == 8
    for bad in (0, 9, "5", True):
        with pytest.raises(ConfigError, match="8 Time tokens or less"):
            Game.new(3, {"time_tokens": bad})
    with pytest.raises(ConfigError, match="Patrol the Block only"):
        Game.new(3, {"adventure": "birthday-bash", "time_tokens": 5})


def test_a_passed_card_is_mixed_into_the_receivers_hand():
    """"The card you pass goes into the receiving player's hand." Everyone saw it played, but once
    it is in Cat's hand nobody else can tell which of her cards it is (issue 11 item 5)."""
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["yo_yo", "holy_water_pistol"], 2: ["dice", "wrench"]},
        stacks=[["kazoo"], ["crowbar"], [], [], []])
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    yo, hwp = slot(g, "yo_yo", "hand0"), slot(g, "holy_water_pistol", "hand0")
    g.apply(Decision(0, A("pass", slots=sorted([yo, hwp]), give=yo, to=2)))
    seen = []
    while not isinstance(g.pending(), Decide):
        req = g.pending()
        seen.append(req)
        g.apply(d.fulfil(g, req))
    assert Shuffle(tuple(g.hand(2)), 2, mix=True) in seen
    assert keys(g, g.hand(2)) == ["dice", "wrench", "yo_yo"]
    assert all(g.known[s] == 1 << 2 for s in g.hand(2)), "only Cat knows which card is which"


def test_an_item_taken_from_the_stacks_is_mixed_in():
    """"If you take an item card, put it into your hand." The stack's top was face up; in the
    hand it is mixed with the others."""
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["dice"]}, stacks=[["kazoo"], [], [], [], []])
    at_turn(g, 0)
    take(g, 0, "kazoo", d)
    assert keys(g, g.hand(0)) == ["dice", "kazoo"]
    assert all(g.known[s] == 1 for s in g.hand(0))


def test_a_slingshot_gift_cannot_be_followed():
    """Slingshot: "SPEND: Give all your hand cards to other players." The giver knows what she
    gave, but not where it went in the receiver's hand."""
    g, d = start(4, seed=1, chars=["nina_ned", "zoe_zack", "rita_rick", "malala_bart"])
    rig(g, hands={0: ["kazoo"], 1: ["dice", "wrench"]}, equipped={0: ["slingshot"]},
        stacks=[["crowbar"], ["yo_yo"], [], [], []])
    dealer = RiggedDealer(3)
    at_turn(g, 0)
    take(g, 0, "crowbar", dealer)
    act(g, 0, A("spend", item=slot(g, "slingshot", "equip0")), dealer)
    gift = g.legal(0)[0].slot
    act(g, 0, A("give", slot=gift, to=1), dealer)
    assert gift in g.hand(1) and all(g.known[s] == 1 << 1 for s in g.hand(1))
