"""Getting Ready: players, difficulty, time tokens, characters, adventures and the initial deal.
Each test quotes the rule it checks."""

from __future__ import annotations

import pytest

from p2pcards.engine import ConfigError, Decision, LocalDealer, Random, RuleViolation
from p2pcards.games import new_game
from p2pcards.games.out_of_this_world.game import Game

from .ootw_helpers import NAMES, A, RiggedDealer, act, dealt, decider, keys, run, start


def difficult_in_deck(g: Game) -> int:
    return sum(1 for s in g.zones["deck"] if g.cdef(g.values[s]).difficult)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_three_to_five_players(n):
    """"30 points if you are 3 players, 25 for 4 players and 21 points for 5 players." """
    g = Game.new(n)
    assert g.points_needed() == {3: 30, 4: 25, 5: 21}[n]


@pytest.mark.parametrize("n", [1, 2, 6])
def test_other_player_counts_are_refused(n):
    """The game is for 3, 4 or 5 players (the only counts with a victory threshold)."""
    with pytest.raises(ConfigError, match="3 to 5 players"):
        Game.new(n)


def test_options_names_difficulty_adventure_and_nothing_else():
    """new(players, options) takes the player names, the difficulty and the adventure."""
    g = new_game("out-of-this-world", 3, {"names": NAMES[:3], "difficulty": "Tough",
                                          "adventure": "Birthday Bash"})
    assert (g.config["difficulty"], g.config["adventure"]) == ("tough", "birthday-bash")
    assert g.pname(1) == "Ben"
    assert new_game("out-of-this-world", 3, {"adventure": "1"}).config["adventure"] == "birthday-bash"
    with pytest.raises(ConfigError, match="no option"):
        new_game("out-of-this-world", 3, {"euro": True})
    with pytest.raises(ConfigError, match="unknown difficulty"):
        new_game("out-of-this-world", 3, {"difficulty": "nightmare"})
    with pytest.raises(ConfigError, match="unknown adventure"):
        new_game("out-of-this-world", 3, {"adventure": "moon-base"})


@pytest.mark.parametrize("difficulty,patrol,bash", [("easier", 1, 0), ("standard", 1, 0),
                                                     ("tough", 2, 1), ("epic", 3, 2)])
def test_difficulty_sets_the_difficult_foes(difficulty, patrol, bash):
    """"Easier 11 Normal Foes, 0 Difficult Foes ... Standard 11 Normal Foes, 0 Difficult Foes.
    Tough 11 Normal Foes, 1 Difficult Foes. Epic 11 Normal Foes, 2 Difficult Foes." and for
    Patrol the Block: "Simply add 1 Difficult Foe to the basic Adventure deck (or more for a
    harder game)"."""
    for adventure, want in (("patrol-the-block", patrol), ("birthday-bash", bash)):
        g, _ = start(4, seed=3, difficulty=difficulty, adventure=adventure)
        in_play = [s for s in range(g.n_cards) if g.cdef(g.values[s]).difficult
                   and g.zone_of[s] != "box"]
        assert len(in_play) == want, adventure
        normal = [s for s in range(g.n_cards) if g.cdef(g.values[s]).is_foe
                  and not g.cdef(g.values[s]).difficult and g.cdef(g.values[s]).adventure is None]
        assert len(normal) == 11


def test_difficult_foes_are_chosen_by_joint_randomness():
    """"add 1 or 2 randomly selected Difficult Foes": the choice is a Random request, so no
    peer picks them; different outcomes pick different foes."""
    picked = set()
    for seed in range(12):
        d = RiggedDealer(seed)
        g, _ = start(4, dealer=d, difficulty="epic", adventure="birthday-bash")
        randoms = [r for r in d.log if isinstance(r, Random)]
        assert [r.n for r in randoms][1:3] == [4, 3]  # after the first Vocal Player's Random(4)
        picked.add(tuple(sorted(g.cdef(g.values[s]).key for s in range(g.n_cards)
                                if g.cdef(g.values[s]).difficult and g.zone_of[s] != "box")))
    assert len(picked) > 1


def test_eight_time_tokens():
    """"Place the Time Tracker in the middle of the table and put the 8 Time tokens on it." """
    for adventure in ("patrol-the-block", "birthday-bash"):
        g = Game.new(4, {"adventure": adventure})
        assert g.time == g.time_max == 8


def test_characters_are_chosen_one_each_with_a_side():
    """"Give every player a Character card ... each Character has two equal sides (male or
    female), and you can choose which side to play with." """
    g = Game.new(5)
    d = LocalDealer(1)
    run(g, d)
    first = decider(g)
    assert g.step == "character"
    legal = g.legal(first)
    assert len(legal) == 10 and {a.side for a in legal} == {0, 1}
    act(g, first, A("character", key="malala_bart", side=1), d)
    assert g.char_name(first) == "Bart"
    nxt = decider(g)
    assert nxt == (first + 1) % 5
    assert all(a.key != "malala_bart" for a in g.legal(nxt))
    with pytest.raises(RuleViolation):
        act(g, nxt, A("character", key="malala_bart", side=0), d)


def test_initial_deal_two_cards_each_and_hidden():
    """"Shuffle the rest of the deck and deal each player 2 cards." Hands are private: every
    other seat's view holds no value for them."""
    g, _ = start(4, seed=5)
    for p in range(4):
        items = [s for s in g.hand(p) if g.cdef(g.values[s]).is_item]
        assert len(items) == 2 == len(g.hand(p))
        for q in range(4):
            v = g.view(q)
            assert all((v.values[s] is not None) == (q == p) for s in g.hand(p))


def test_initial_deal_foes_go_face_up_and_the_player_draws_again():
    """"If any of your cards are Foes, you must immediately place them face-up next to your
    player board and draw more cards until you have 2 Item cards in your hand." """
    # the deck is dealt top first, two cards per player from the first Vocal Player
    g, d, first = dealt(["slime_blob", "yo_yo"] + ["kazoo"] * 3 + ["dice"] * 3 +
                        ["alley_cat", "wrench"])
    assert keys(g, g.hand(first)) == ["slime_blob", "yo_yo"]
    (declare,) = g.legal(first)
    assert keys(g, declare.slots) == ["slime_blob"]
    act(g, first, declare, d)
    assert keys(g, g.foes(first)) == ["slime_blob"]
    assert all(g.known[s] == g.all_mask for s in g.foes(first))  # face up
    assert keys(g, g.hand(first)) == ["alley_cat", "yo_yo"]  # drew again: another Foe
    act(g, first, g.legal(first)[0], d)
    assert keys(g, g.foes(first)) == ["alley_cat", "slime_blob"]
    assert keys(g, g.hand(first)) == ["wrench", "yo_yo"]
    assert g.legal(first) == [A("foes", slots=[])]
    act(g, first, g.legal(first)[0], d)
    assert decider(g) == (first + 1) % 4


def test_laying_out_an_item_as_a_foe_is_caught():
    """Foes laid out at the deal are revealed to all and checked: claiming an Item is a Foe
    names the cheater."""
    g, d = Game.new(4), LocalDealer(2)
    run(g, d)
    while g.step == "character":
        act(g, decider(g), g.legal(decider(g))[0], d)
    p = decider(g)
    item = next(s for s in g.hand(p) if g.cdef(g.values[s]).is_item)
    with pytest.raises(RuleViolation):  # the full-information engine sees it at once
        g.validate(p, A("foes", slots=[item]))
    peer = g.view((p + 1) % 4)
    peer.validate(p, A("foes", slots=[item]))  # a peer cannot tell before the reveal...
    g.apply(Decision(p, A("foes", slots=[item])), trusted=True)
    with pytest.raises(RuleViolation, match="not a Foe"):
        run(g, d)  # ...and the reveal to all shows it


def test_first_vocal_player_is_random():
    """The first Vocal Player is picked by joint randomness (the rulebook does not say)."""
    firsts = set()
    for seed in range(10):
        g = Game.new(3)
        assert g.pending() == Random(3)
        run(g, LocalDealer(seed))
        firsts.add(g.vocal)
    assert len(firsts) > 1
