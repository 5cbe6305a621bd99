"""Scenario tests for the eight Go Out Girl characters; each quotes the card it checks."""

from __future__ import annotations

import pytest

from p2pcards.engine import Action, Decide, Decision, RuleViolation, Shuffle, project

from .rig import act, hand_numbers, kinds, lay, setup, slots, turn
from .rig import play as play_cards


def plays(s, p):
    return {(a.number, a.count, tuple(sorted(s.number(s.values[x]) for x in a.slots)))
            for a in s.legal(p) if a.kind == "play"}


def test_nerai_aiming():
    """Nerai: "All number 4/5/6 cards may be treated as [Number 6 ●●●]." "...you can play all the
    cards with numbers 4 to 6 together as a 6"."""
    s, d = setup(3, {0: "4 5 6 9", 1: "5 5 4 4 2", 2: "7 7"}, chars={0: "nerai", 1: "nerai"},
                 revealed=(0,))
    assert (6, 3, (4, 5, 6)) in plays(s, 0)
    play_cards(s, d, 0, "4 5 6", number=6)
    assert s.top["number"] == 6 and s.top["damage"] == 3
    # seat 1's Nerai is face down: 4 4 is not a 6 yet
    assert not any(n == 6 for n, _, _ in plays(s, 1))
    with pytest.raises(RuleViolation):
        s.apply(Decision(1, Action("play", slots=slots(s, 1, "5 5 4"), number=6, count=3)))


def test_nerai_mixed_pair_beats_pair_of_fives():
    """Nerai's 4/5/6 as 6 also answers a tableau: two of them beat a pair of 5s."""
    s, d = setup(3, {0: "5 5 9", 1: "4 5 2", 2: "7 7"}, chars={1: "nerai"}, revealed=(1,))
    play_cards(s, d, 0, "5 5")
    assert (6, 2, (4, 5)) in plays(s, 1)
    play_cards(s, d, 1, "4 5", number=6)
    assert s.top["number"] == 6 and s.top["owner"] == 1


def test_toyoko_holy_sword():
    """Toyoko: "All number 1 cards may be treated as [Number 14 ●]." "The number 1 card can be used
    as the highest numbered card, 14.\""""
    s, d = setup(3, {0: "13 2", 1: "1 1 3", 2: "7 7"}, chars={1: "toyoko"}, revealed=(1,))
    play_cards(s, d, 0, "13")
    assert (14, 1, (1,)) in plays(s, 1)
    play_cards(s, d, 1, "1", number=14)
    assert s.top["number"] == 14 and s.top["damage"] == 1
    assert not [a for a in s.legal(2) if a.kind == "play"], "nothing numeric beats 14"


def test_toyoko_needs_reveal():
    """"After a character is revealed, you can use that character's abilities on your turn.\""""
    s, d = setup(3, {0: "13 2", 1: "1 1 3", 2: "7 7"}, chars={1: "toyoko"})
    play_cards(s, d, 0, "13")
    with pytest.raises(RuleViolation):
        s.apply(Decision(1, Action("play", slots=slots(s, 1, "1"), number=14, count=1)))
    act(s, d, 1, "reveal")
    assert (14, 1, (1,)) in plays(s, 1)


def test_niwa_awakening():
    """Niwa: "When you receive damage, draw twice as many cards from the deck, record the damage,
    and then discard the number you drew." "...when you receive 3 damage, you would normally draw 3
    ... you would draw 6 cards and add 3 cards as damage, then discard 3 cards.\""""
    s, d = setup(3, {0: "6 2", 1: "1 2 3", 2: "7 7"}, chars={1: "niwa"}, revealed=(1,),
                 deck_top="13 13 12 12 11 11")
    play_cards(s, d, 0, "6")
    act(s, d, 1, "pass")
    assert len(s.hand(1)) == 9, "draws 6 for 3 damage"
    assert s.phase == "damage"
    for n in ("1", "2", "3"):
        act(s, d, 1, "damage", slot=slots(s, 1, n)[0])
    assert s.phase == "discard" and s.damage[1] == 3
    for n in ("11", "11", "12"):
        act(s, d, 1, "discard", slot=slots(s, 1, n)[0])
    assert hand_numbers(s, 1) == [12, 13, 13] and len(s.zones["dmg1"]) == 3
    discarded = [s.number(s.values[x]) for x in s.zones["discard"]]
    assert sorted(discarded) == [11, 11, 12]
    assert all(s.known[x] == s.all_mask for x in s.zones["discard"]), "discards are face up"


def test_niwa_face_down_draws_single():
    """Her ability works only once revealed: face down, Niwa draws the damage as usual."""
    s, d = setup(3, {0: "6 2", 1: "1 2 3", 2: "7 7"}, chars={1: "niwa"})
    play_cards(s, d, 0, "6")
    act(s, d, 1, "pass")
    assert len(s.hand(1)) == 6


def test_shian_reset():
    """Shian: "By playing 3 cards with numbers 2/3 in any combination of your choice, you discard the
    current tableau pile. Then, play a new tableau card from your hand.\""""
    s, d = setup(3, {0: "13 13 9", 1: "2 3 3 8 8 9", 2: "7 7"}, chars={1: "shian"}, revealed=(1,))
    play_cards(s, d, 0, "13 13")
    resets = [a for a in s.legal(1) if a.kind == "reset"]
    assert len(resets) == 1
    act(s, d, 1, "reset", slots=resets[0].slots)
    assert s.top is None and not s.zones["field"] and turn(s) == 1 and s.phase == "lead"
    assert kinds(s, 1) == {"play"}, "she must lead a new tableau card"
    play_cards(s, d, 1, "8 8")
    assert s.top["owner"] == 1 and s.top["number"] == 8


def test_shian_reset_checked_on_reveal():
    """A Reset claim with a card that is not a 2 or 3 is caught when the cards are revealed."""
    s, d = setup(3, {0: "13 9", 1: "2 3 9 8", 2: "7 7"}, chars={1: "shian"}, revealed=(1,))
    play_cards(s, d, 0, "13")
    peer = s.view(2)
    lie = Decision(1, Action("reset", slots=slots(s, 1, "2 3 9")))
    peer.apply(lie)
    req = peer.pending()
    with pytest.raises(RuleViolation) as err:
        peer.apply(d.fulfil(s, req))
    assert err.value.player == 1


def test_satsuki_annihilation():
    """Satsuki: "Add 1 ● to cards you play, except Number 13 card." "Note: damage will not increase
    if you use Guard.\""""
    s, d = setup(3, {0: "9 13 G", 1: "10 2", 2: "7 7"}, chars={0: "satsuki"}, revealed=(0,))
    play_cards(s, d, 0, "9")
    assert s.top["damage"] == 2 + 1
    s2, d2 = setup(3, {0: "9 13 G", 1: "10 2", 2: "7 7"}, chars={0: "satsuki"}, revealed=(0,))
    play_cards(s2, d2, 0, "13")
    assert s2.top["damage"] == 1
    s3, d3 = setup(3, {0: "5 G", 1: "10 2", 2: "7 7"}, chars={0: "satsuki"}, revealed=(0,))
    act(s3, d3, 0, "guard", slot=slots(s3, 0, "G")[0])
    assert s3.top is None and s3.damage == [0, 0, 0], "a Guard deals no damage, even hers"


def test_kira_akane_barrier():
    """Kira: "When revealing this character, you can pass without taking damage only once. At that
    time, discard cards from your hand equal to the amount of damage you would receive.\""""
    s, d = setup(3, {0: "6 2", 1: "1 2 3 9", 2: "7 7"}, chars={1: "kira"})
    play_cards(s, d, 0, "6")
    assert "barrier" in kinds(s, 1)
    act(s, d, 1, "barrier")
    assert s.revealed[1] == 5 and s.damage[1] == 0 and s.phase == "discard"
    lay(s, d, 1)
    assert len(s.hand(1)) == 1 and turn(s) == 2
    # "The Professor's ability is activated only once when the character is first revealed."
    assert "barrier" not in {a.kind for a in s.legal(1)}


def test_kira_barrier_empty_hand_wins():
    """"Note: if you empty your hand using this ability by discarding cards, you win the battle.\""""
    s, d = setup(3, {0: "6 2", 1: "1 2", 2: "7 7"}, chars={1: "kira"})
    play_cards(s, d, 0, "6")
    act(s, d, 1, "barrier")
    lay(s, d, 1)
    assert s.wins[1] == 1 and s.battle == 2


def test_kira_barrier_saves_from_elimination():
    """"It can also be used as an emergency evasion measure at a dangerous time when you otherwise
    be eliminated.\""""
    s, d = setup(3, {0: "6 2", 1: "1 2 3 4", 2: "7 7"}, chars={1: "kira"}, damage={1: 2})
    play_cards(s, d, 0, "6")
    assert {"withdraw", "barrier"} <= kinds(s, 1) and "pass" not in kinds(s, 1)
    act(s, d, 1, "barrier")
    lay(s, d, 1)
    assert s.alive[1] and s.damage[1] == 2


def test_barrier_claim_by_non_kira_is_named():
    """Only Kira has the barrier; a peer learns who cheated when the character is revealed."""
    s, d = setup(3, {0: "6 2", 1: "1 2 3 4", 2: "7 7"}, chars={1: "ten"})
    play_cards(s, d, 0, "6")
    peer = s.view(0)
    peer.apply(Decision(1, Action("barrier")))
    with pytest.raises(RuleViolation) as err:
        peer.apply(d.fulfil(s, peer.pending()))
    assert err.value.player == 1


def test_ten_lets_talk():
    """Ten: "After receiving damage, choose one card from your hand and give it to the opponent who
    played the tableau pile.\""""
    s, d = setup(3, {0: "9 2", 1: "1 2 3", 2: "7 13"}, chars={1: "ten"}, revealed=(1,),
                 deck_top="12 12")
    play_cards(s, d, 0, "9")
    act(s, d, 1, "pass")
    lay(s, d, 1)
    assert s.phase == "give" and "keep" in kinds(s, 1)
    gift = slots(s, 1, "12")[0]
    views = {p: s.view(p) for p in range(3)}  # each seat's own copy narrates its own log
    for v in views.values():
        v.narrate()
    give = Decision(1, Action("give", slot=gift))
    for st in (s, *views.values()):
        st.apply(give)
    mixes = []
    while not isinstance(s.pending(), Decide):  # the reveal to seat 0, then seat 0's mix
        req, before = s.pending(), s.clone()
        if isinstance(req, Shuffle):
            mixes.append(req)
        ev = d.fulfil(s, req)
        s.apply(ev)
        for p, v in views.items():
            v.apply(project(ev, req, before, p))
    assert gift in s.hand(0) and all(s.knows(0, x) for x in s.hand(0)), \
        "the tableau's player receives and sees it"
    assert mixes == [Shuffle(tuple(s.hand(0)), 0, mix=True)], "she mixes it into her hand"
    assert not any(s.knows(q, x) for q in (1, 2) for x in s.hand(0)), "Ten cannot follow her gift"
    assert all(views[1].values[x] is None for x in s.hand(0))
    assert len(s.hand(1)) == 2 and turn(s) == 2
    logs = {p: "\n".join(v.take_notes()) for p, v in views.items()}
    assert "(Let's Talk) gives a card to Seat 1: 12." in logs[0]
    assert "(Let's Talk) gives a card to Seat 1: 12." in logs[1]
    assert "(Let's Talk) gives a card to Seat 1." in logs[2] and "12" not in logs[2]


def test_ten_empty_hand_wins():
    """"Note: Like Hakase, if you use this ability to pass an opponent a card and empty your hand,
    you win.\""""
    s, d = setup(3, {0: "9 2", 1: "1", 2: "7 13"}, chars={1: "ten"}, revealed=(1,),
                 deck_top="12 12")
    play_cards(s, d, 0, "9")
    act(s, d, 1, "pass")
    lay(s, d, 1)  # draws 2 (9 has ●●), lays 2 face down, one card left
    act(s, d, 1, "give", slot=s.hand(1)[0])
    assert s.wins[1] == 1


def test_kyoko_united_mind():
    """Kyoko: "You can only play one card, but it may be treated as if it were a combination of two
    cards." "...even if there are two cards in the tableau pile, you can play onto it with one
    card. If you are the first to play a tableau pile, you should declare if it is a single or a
    pair.\""""
    s, d = setup(3, {0: "5 5 2", 1: "7 9 9", 2: "3 3 3"}, chars={1: "kyoko"}, revealed=(1,))
    play_cards(s, d, 0, "5 5")
    opts = plays(s, 1)
    assert (7, 2, (7,)) in opts and all(len(c) == 1 for _, _, c in opts)
    with pytest.raises(RuleViolation):
        s.apply(Decision(1, Action("play", slots=slots(s, 1, "9 9"), number=9, count=2)))
    act(s, d, 1, "play", slots=slots(s, 1, "7"), number=7, count=2)
    assert s.top["count"] == 2 and turn(s) == 2


def test_kyoko_declares_single_or_pair_when_leading():
    s, d = setup(3, {0: "5 9", 1: "7", 2: "3 3 3"}, chars={0: "kyoko"}, revealed=(0,))
    leads = {(a.number, a.count) for a in s.legal(0) if a.kind == "play"}
    assert leads == {(5, 1), (5, 2), (9, 1), (9, 2)}
    act(s, d, 0, "play", slots=slots(s, 0, "5"), number=5, count=2)
    assert s.top["count"] == 2


def test_kyoko_cannot_answer_three_cards_and_face_down_plays_many():
    """"Note: the restriction that "you can only play with one card" is only activated after the
    character is revealed, so you can play with two or more cards before the character is
    revealed.\""""
    s, d = setup(3, {0: "4 4 4 2", 1: "9 9 9 1", 2: "3"}, chars={1: "kyoko"})
    play_cards(s, d, 0, "4 4 4")
    assert (9, 3, (9, 9, 9)) in plays(s, 1)
    act(s, d, 1, "reveal")
    assert not plays(s, 1), "one card cannot answer three"
