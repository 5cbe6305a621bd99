"""Scenario tests for Go Out Girl's rule paragraphs; each quotes the rule it checks."""

from __future__ import annotations

import pytest

from p2pcards.bots.base import RandomBot
from p2pcards.engine import (
    Action,
    Decide,
    Decision,
    LocalDealer,
    Prove,
    Proven,
    RuleViolation,
    play,
    project,
)
from p2pcards.games.go_out_girl.data import default
from p2pcards.games.go_out_girl.game import Game

from .rig import act, hand_numbers, kinds, lay, lockstep, settle, setup, slots, turn
from .rig import play as play_cards


def test_contents():
    """"86 Battle Cards: Numbers 1~13 x 6 each, plus Guard x 8 pieces" and "8 characters x 5 sets"."""
    s = Game.new(5)
    numbers = [s.number(c) for c in range(s.n_cards) if s.number(c) >= 0]
    assert len(numbers) == 86
    assert all(numbers.count(n) == 6 for n in range(1, 14)) and numbers.count(0) == 8
    assert s.n_cards == 86 + 8 * 5


@pytest.mark.parametrize("players,size", [(2, 13), (3, 13), (4, 11), (5, 9)])
def test_hand_sizes(players, size):
    """"Deal the number of battle cards from the deck face down to each player according to the
    number of players": 2→13, 3→13, 4→11, 5→9. "...only they can see the contents.\""""
    s = Game.new(players)
    d = LocalDealer(players)
    settle(s, d)
    assert s.phase == "choose"
    for p in range(players):
        assert len(s.hand(p)) == size
        v = s.view((p + 1) % players)
        assert all(v.values[x] is None for x in s.hand(p)), "another seat sees the hand"
        assert all(s.view(p).values[x] is not None for x in s.hand(p))


def test_character_chosen_face_down_after_seeing_hand():
    """"Each player checks their hand and chooses their character ... place it face down in front
    of you." The choice is hidden from the others and cannot be changed when revealed."""
    s = Game.new(3)
    d = LocalDealer(1)
    settle(s, d)
    p = turn(s)
    assert s.phase == "choose" and s.hand(p), "the hand is dealt before the choice"
    choice = next(a for a in s.legal(p) if s.character_of_card(s.values[a.slot])[1] == 5)
    act(s, d, p, "character", slot=choice.slot)
    other = s.view((p + 1) % 3)
    assert other.own_character(p) is None and other.values[choice.slot] is None
    while s.phase == "choose":
        act(s, d, turn(s), "character", slot=s.legal(turn(s))[0].slot)
    # reveal later: it is the card chosen, whatever the others' copies thought
    while turn(s) != p:
        q = turn(s)
        act(s, d, q, "guard", slot=slots(s, q, "G")[0]) if "guard" in kinds(s, q) else \
            s.apply(Decision(q, next(a for a in s.legal(q) if a.kind == "play")))
        settle(s, d)
    act(s, d, p, "reveal")
    assert s.revealed[p] == 5


def test_lead_any_card_several_of_a_number():
    """"The starting player begins by placing any card from their hand onto the center field face
    up. You can play multiple cards as long as they have the same number.\""""
    s, d = setup(3, {0: "4 4 4 9 G", 1: "5 6", 2: "7 8"})
    plays = [a for a in s.legal(0) if a.kind == "play"]
    shapes = sorted((a.number, len(a.slots)) for a in plays)
    assert shapes == [(4, 1), (4, 2), (4, 3), (9, 1)]
    with pytest.raises(RuleViolation):
        s.apply(Decision(0, Action("play", slots=slots(s, 0, "4 9"), number=9, count=2)))


def test_play_attack_same_count_higher_number():
    """"Can Play: Same number of cards as Tableau pile, but higher number. Cannot Play: ... number
    is not higher. ... Higher number, but not the same number of cards.\""""
    s, d = setup(3, {0: "8 8 2", 1: "8 8 9 9 10 13 13 13", 2: "3 4"}, start=0)
    play_cards(s, d, 0, "8 8")
    plays = {(a.number, len(a.slots)) for a in s.legal(1) if a.kind == "play"}
    assert plays == {(9, 2), (13, 2)}
    for bad in ("8 8", "10", "13 13 13"):
        sl = slots(s, 1, bad)
        with pytest.raises(RuleViolation):
            s.apply(Decision(1, Action("play", slots=sl, number=int(bad.split()[0]), count=len(sl))))
    play_cards(s, d, 1, "9 9")
    assert s.top["number"] == 9 and s.top["owner"] == 1 and turn(s) == 2


def test_pass_damage_draw_then_lay_face_down():
    """"For each damage icon shown, draw a card from the deck and add it to your hand. If there are
    multiple tableau cards, just consider the damage on one card. Then select cards from your hand
    equal to the number of damage received and place them face down ... Your hand size should
    remain the same as before.\""""
    s, d = setup(3, {0: "6 6 2", 1: "1 2 3", 2: "4 5"}, deck_top="13 12 11")
    play_cards(s, d, 0, "6 6")  # 6 has ●●● per card; two cards still deal 3
    assert s.top["damage"] == 3
    act(s, d, 1, "pass")
    assert hand_numbers(s, 1) == [1, 2, 3, 11, 12, 13]
    assert s.phase == "damage" and turn(s) == 1
    for n in ("13", "1", "12"):  # may choose drawn cards or original ones
        act(s, d, 1, "damage", slot=slots(s, 1, n)[0])
    assert hand_numbers(s, 1) == [2, 3, 11]
    assert len(s.zones["dmg1"]) == 3 and s.damage[1] == 3
    assert all(s.view(0).values[x] is None for x in s.zones["dmg1"]), "damage is face down"
    assert turn(s) == 2 and s.phase == "turn"


def test_trick_clears_when_all_others_pass():
    """"When all players except the person who played the tableau pile have passed consecutively,
    discard all cards in the center field. The last player to play a tableau pile begins a new turn
    with no cards in the center field.\""""
    s, d = setup(3, {0: "10 2 2", 1: "1 3", 2: "1 3"}, deck_top="4 4 4 4")
    play_cards(s, d, 0, "10")
    act(s, d, 1, "pass")
    lay(s, d, 1)
    assert s.top is not None and turn(s) == 2
    act(s, d, 2, "pass")
    lay(s, d, 2)
    assert s.top is None and not s.zones["field"]
    assert turn(s) == 0 and s.phase == "turn"
    assert any(s.number(s.values[x]) == 10 for x in s.zones["discard"])


def test_passing_does_not_end_participation():
    """"Even if you pass once, if your turn comes around again, you may play or pass again.\""""
    s, d = setup(3, {0: "5 2 2", 1: "1 9", 2: "6 3"}, deck_top="4 4 4 4")
    play_cards(s, d, 0, "5")
    act(s, d, 1, "pass")
    lay(s, d, 1)
    play_cards(s, d, 2, "6")
    assert turn(s) == 0
    act(s, d, 0, "pass")
    lay(s, d, 0)
    assert turn(s) == 1 and "play" in kinds(s, 1), "seat 1 passed before and may play now"
    play_cards(s, d, 1, "9")
    assert s.top["owner"] == 1


def test_guard_passes_without_damage_and_is_discarded():
    """"The "Guard" card can be played regardless of the number of cards on the tableau. Even if
    there are multiple cards on the tableau, only one Guard card is played. If you play Guard, you
    may pass without taking damage. Then immediately discard it.\""""
    s, d = setup(3, {0: "6 6 6 2", 1: "G G 1", 2: "3 4"})
    play_cards(s, d, 0, "6 6 6")
    guards = [a for a in s.legal(1) if a.kind == "guard"]
    assert len(guards) == 1, "one Guard, whatever the tableau's count"
    act(s, d, 1, "guard", slot=guards[0].slot)
    assert s.damage[1] == 0 and hand_numbers(s, 1) == [0, 1]
    assert guards[0].slot in s.zones["discard"] and turn(s) == 2


def test_guard_on_empty_field_hands_the_lead_on():
    """"If you play Guard when there are no tableau cards, you will pass and immediately discard the
    card, and it will be the next player's turn with no tableau cards.\""""
    s, d = setup(3, {0: "G 5", 1: "7 8", 2: "3 4"})
    act(s, d, 0, "guard", slot=slots(s, 0, "G")[0])
    assert s.top is None and turn(s) == 1
    leads = [a for a in s.legal(1) if a.kind == "play"]
    assert {a.number for a in leads} == {7, 8}


def test_reveal_during_own_turn_then_still_play_or_pass():
    """"Players can reveal their character face up at any time during their turn ... Note that even
    on the turn you reveal your character, you still need to play or pass.\""""
    s, d = setup(3, {0: "5 9", 1: "7 8", 2: "3 4"}, chars={0: "satsuki"})
    assert "reveal" in kinds(s, 0)
    act(s, d, 0, "reveal")
    assert s.revealed[0] == 4 and turn(s) == 0 and "reveal" not in kinds(s, 0)
    with pytest.raises(RuleViolation):
        s.apply(Decision(1, Action("reveal")))  # not seat 1's turn


def test_withdraw_when_damage_reaches_life():
    """"When passing, if the total damage including the damage received so far equals or exceeds the
    life of the character you are using, you are eliminated. In such a case, please declare your
    withdrawal without drawing a card from the deck. Even if the character has not been revealed
    yet ... the character will be revealed immediately.\""""
    s, d = setup(3, {0: "6 2", 1: "1 2", 2: "3 4"}, chars={1: "kyoko"}, damage={1: 1})
    play_cards(s, d, 0, "6")  # 3 damage: 1 + 3 >= Kyoko's life 3
    assert "withdraw" in kinds(s, 1) and "pass" not in kinds(s, 1)
    deck_before = len(s.zones["deck"])
    act(s, d, 1, "withdraw")
    assert not s.alive[1] and s.revealed[1] == 7
    assert len(s.zones["deck"]) == deck_before, "no card is drawn"
    assert turn(s) == 2


def test_eliminated_players_are_skipped():
    """"Players who are eliminated will have their turn skipped until the end of the current battle.\""""
    s, d = setup(4, {0: "6 2 2", 1: "1 2", 2: "3 9", 3: "4 10"}, chars={1: "kyoko"}, damage={1: 2})
    play_cards(s, d, 0, "6")
    act(s, d, 1, "withdraw")
    play_cards(s, d, 2, "9")
    play_cards(s, d, 3, "10")
    act(s, d, 0, "pass")
    lay(s, d, 0)
    assert turn(s) == 2, "seat 1 is out and skipped"


def test_pass_by_eliminated_owner_path_clears_trick():
    """The trick clears when every *remaining* player passed: "...all players except the person who
    played the tableau pile have passed consecutively", eliminated players skipped."""
    s, d = setup(3, {0: "6 2 2", 1: "1 2", 2: "3 4"}, chars={1: "kyoko"}, damage={1: 2},
                 deck_top="9 9 9 9")
    play_cards(s, d, 0, "6")
    act(s, d, 1, "withdraw")
    act(s, d, 2, "pass")
    lay(s, d, 2)
    assert s.top is None and turn(s) == 0


def test_battle_won_by_emptying_hand():
    """"If a player meets any of the following victory conditions, that player immediately wins the
    battle. 1. No cards in hand\""""
    s, d = setup(3, {0: "9 9", 1: "1 2", 2: "3 4"})
    play_cards(s, d, 0, "9 9")
    assert s.wins == [1, 0, 0] and s.battle == 2


def test_battle_won_by_last_one_standing():
    """"2. All players except you have been eliminated.\""""
    s, d = setup(3, {0: "6 2", 1: "1 2", 2: "3 4"}, chars={1: "kyoko", 2: "kyoko"},
                 damage={1: 2, 2: 2})
    play_cards(s, d, 0, "6")
    act(s, d, 1, "withdraw")
    act(s, d, 2, "withdraw")
    assert s.wins == [1, 0, 0] and s.battle_winners == [0]


def test_next_battle_from_step_3_left_of_winner_starts():
    """"After that, a new battle will be held, starting from Step 3 of Game Preparation, with the
    person to the left of the player who won the current battle as the starting player.\""""
    s, d = setup(4, {1: "9"}, start=1)
    play_cards(s, d, 1, "9")
    assert s.battle == 2 and s.start == 2
    assert s.phase == "choose" and turn(s) == 2, "characters are chosen again, from the new start"
    assert all(len(s.hand(p)) == 11 for p in range(4)), "hands are dealt again"
    assert all(s.damage[p] == 0 and s.alive[p] for p in range(4))


@pytest.mark.parametrize("players,needed", [(2, 3), (3, 2), (5, 2)])
def test_match_needs_two_wins_three_with_two_players(players, needed):
    """"The player who wins 2 battles (or 3 battles in a 2-player game) becomes the overall winner.\""""
    s, d = setup(players, {0: "9"})
    s.wins[0] = needed - 1
    play_cards(s, d, 0, "9")
    assert s.winner == 0 and s.pending() is None
    assert s.outcome()["winner"] == 0
    s2, d2 = setup(players, {0: "9"})
    s2.wins[0] = needed - 2
    play_cards(s2, d2, 0, "9")
    assert s2.winner is None and s2.pending() is not None


def test_winners_character_locked_for_later_battles():
    """"...the winning player should place the character used in this battle face up ... The
    corresponding player may no longer use this character in subsequent battles.\""""
    s, d = setup(3, {0: "9"}, chars={0: "toyoko"})
    play_cards(s, d, 0, "9")
    locked = s.zones["locked0"]
    assert len(locked) == 1 and s.known[locked[0]] == s.all_mask
    assert s.character_of_card(s.values[locked[0]])[1] == 1
    while turn(s) != 0:
        q = turn(s)
        act(s, d, q, "character", slot=s.legal(q)[0].slot)
    options = {s.character_of_card(s.values[a.slot])[1] for a in s.legal(0)}
    assert 1 not in options and len(options) == 7


def test_illegal_action_leaves_state_unchanged():
    """An illegal action is refused with a reason naming the player; nothing changes."""
    s, d = setup(3, {0: "5 7", 1: "1", 2: "2"})
    before = s.clone()
    with pytest.raises(RuleViolation) as err:
        s.apply(Decision(0, Action("pass")))
    assert err.value.player == 0 and s == before


def test_cheating_play_is_named_when_revealed():
    """DESIGN: "player 2 sends Play(slots=[s17, s40], as_number=9) ... once the deck service opens
    them, the engine checks the cards really are a legal pair of 9s. If not, RuleViolation".
    A peer that cannot see the hand accepts the claim, then names the cheat on the reveal."""
    s, d = setup(3, {0: "4 5 7", 1: "1", 2: "2"})
    peer = s.view(1)
    lie = Decision(0, Action("play", slots=slots(s, 0, "4 5"), number=9, count=2))
    with pytest.raises(RuleViolation):
        s.clone().apply(lie)  # the full-information engine knows at once
    peer.apply(lie)  # seat 1 cannot tell yet
    req = peer.pending()
    truth = d.fulfil(s, req)  # the deck service opens the cards to everyone
    with pytest.raises(RuleViolation) as err:
        peer.apply(truth)
    assert err.value.player == 0 and "as 9" in err.value.reason


def _proof_pending(s, d, p):
    """Apply seat p's pass to the full state unchecked (as a cheat's own engine would) and
    return the request that follows it."""
    s.apply(Decision(p, Action("pass")), trusted=True)
    return s.pending()


def test_a_face_down_pass_is_proven_at_once_and_a_false_one_names_the_passer():
    """"When passing, if the total damage including the damage received so far equals or
    exceeds the life of the character you are using, you are eliminated."
    A pass with a face-down character claims its life is more than the damage.
    The red team's move (round 7b): a face-down Kyoko (life 3) at 3 damage passes instead of
    withdrawing. The pass is proven at once, before any card is drawn: the full-information
    engine names seat 1 at the proof; seat 2's copy learns only that a proof was asked for."""
    s, d = setup(3, {0: "6 6 2 2", 1: "1 2 3 4 5 6", 2: "G G"}, chars={1: "kyoko"})
    play_cards(s, d, 0, "6")  # 3 damage
    peer = s.view(2)
    with pytest.raises(RuleViolation):
        s.clone().apply(Decision(1, Action("pass")))  # its own engine refuses it
    deck = list(s.zones["deck"])
    peer.apply(Decision(1, Action("pass")))
    req = _proof_pending(s, d, 1)
    b = s._b + 8
    survivors = tuple(b + k for k in range(8) if s.life(k) > 3)  # life 4..7: not Kyoko
    assert req == Prove((s.zones["char1"][0],), 1, survivors)
    assert peer.pending() == req
    assert s.zones["deck"] == deck, "the claim is proven before the damage is drawn"
    with pytest.raises(RuleViolation) as err:
        s.apply(d.fulfil(s, req))
    assert err.value.player == 1 and "passed to 3 damage" in err.value.reason
    assert "Reigen Kyoko" in err.value.reason
    peer.apply(Proven(req.slots))  # the others learn nothing but that it was proven
    assert peer.values[s.zones["char1"][0]] is None


def test_an_honest_face_down_pass_is_proven_and_the_battle_goes_on():
    """"When passing, if the total damage including the damage received so far equals or
    exceeds the life of the character you are using, you are eliminated."
    Nerai (life 7) at 3 damage passes: proven (some characters, Kyoko's life 3,
    would not survive it, so it is not clear from what is public), then the damage is drawn."""
    s, d = setup(3, {0: "6 6 2 2", 1: "1 2 3 4 5 6", 2: "G G"}, chars={1: "nerai"})
    play_cards(s, d, 0, "6")
    s.apply(Decision(1, Action("pass")))
    assert isinstance(s.pending(), Prove)
    settle(s, d)
    assert s.damage[1] == 3 and s.phase == "damage" and turn(s) == 1


def test_a_pass_every_possible_character_survives_needs_no_proof():
    """"When passing, if the total damage including the damage received so far equals or
    exceeds the life of the character you are using, you are eliminated."
    A 1-damage pass at no damage: every character has life 3 or more, so the
    claim is clear from what is public and no deck operation is spent on it."""
    s, d = setup(3, {0: "1 6 2 2", 1: "1 2 3 4 5 6", 2: "G G"}, chars={1: "kyoko"})
    play_cards(s, d, 0, "2")  # 1 damage
    s.apply(Decision(1, Action("pass")))
    assert not isinstance(s.pending(), Prove)


def test_a_pass_no_possible_character_survives_is_refused_by_every_copy():
    """"When passing, if the total damage including the damage received so far equals or
    exceeds the life of the character you are using, you are eliminated."
    At 7 damage no character survives (the largest life is 7): a pass is
    refused by every copy, a peer's too, with no proof needed."""
    s, d = setup(3, {0: "6 6 2 2", 1: "1 2 3 4 5 6", 2: "G G"}, chars={1: "nerai"},
                 damage={1: 4})
    play_cards(s, d, 0, "6")  # 4 + 3
    peer = s.view(2)
    with pytest.raises(RuleViolation) as err:
        peer.apply(Decision(1, Action("pass")))
    assert err.value.player == 1 and "must withdraw" in err.value.reason


def test_locked_characters_are_not_among_those_a_pass_may_claim():
    """"When passing, if the total damage including the damage received so far equals or
    exceeds the life of the character you are using, you are eliminated."
    A character that won a battle is locked (face up), so it is no longer
    among those a face-down seat may hold: Nerai locked, a 6-damage pass is survived by no one
    (the next largest life is 6) and is refused."""
    s, d = setup(3, {0: "6 6 2 2", 1: "1 2 3 4 5 6", 2: "G G"}, chars={1: "satsuki"},
                 damage={1: 3})
    nerai = next(x for x in s.zones["chars1"] if s.character_of_card(s.values[x])[1] == 0)
    s.place(nerai, "locked1")
    s.known[nerai] = s.all_mask
    play_cards(s, d, 0, "6")  # 3 + 3 = 6: reaches every remaining life (at most 6)
    with pytest.raises(RuleViolation) as err:
        s.view(2).apply(Decision(1, Action("pass")))
    assert err.value.player == 1


def test_false_pass_is_still_caught_when_character_is_revealed():
    """"When passing, if the total damage including the damage received so far equals or
    exceeds the life of the character you are using, you are eliminated."
    Defence in depth: should a false pass get through its proof (a broken deck
    here: the proof is waved through), the check when the character is revealed still names it."""
    s, d = setup(3, {0: "6 6 2 2", 1: "1 2 3 4 5 6", 2: "G G"}, chars={1: "kyoko"})
    play_cards(s, d, 0, "6")
    peer = s.view(2)
    peer.apply(Decision(1, Action("pass")))
    req = _proof_pending(s, d, 1)
    char = req.slots[0]
    value, s.values[char] = s.values[char], None  # the broken deck: nobody checks the claim
    s.apply(Proven(req.slots))
    s.values[char] = value
    peer.apply(Proven(req.slots))
    while not isinstance(s.pending(), Decide):
        r = s.pending()
        before = s.clone()
        ev = d.fulfil(s, r)
        s.apply(ev)
        peer.apply(project(ev, r, before, 2))
    for _ in range(3):
        lockstep(s, peer, d, Decision(1, Action("damage", slot=s.legal(1)[0].slot)))
    lockstep(s, peer, d, Decision(2, Action("guard", slot=s.hand(2)[0])))
    lockstep(s, peer, d, Decision(0, Action("play", slots=slots(s, 0, "6"), number=6, count=1)))
    assert turn(peer) == 1
    with pytest.raises(RuleViolation) as err:
        lockstep(s, peer, d, Decision(1, Action("reveal")))
    assert err.value.player == 1 and "life 3" in err.value.reason


def test_empty_deck_reshuffles_discard_pile():
    """House rule (the rulebook is silent): "When a player must draw and the deck is empty, the
    discard pile is shuffled ... into a new face-down deck.\""""
    s, d = setup(3, {0: "6 2", 1: "1 2", 2: "3 4"})
    deck = list(s.zones["deck"])
    for sl in deck[:-1]:  # leave one card in the deck, the rest in the discard pile
        s.place(sl, "discard")
        s.known[sl] = s.all_mask
    play_cards(s, d, 0, "6")
    s.apply(Decision(1, Action("pass")))
    if isinstance(s.pending(), Prove):  # the face-down pass is proven first
        s.apply(d.fulfil(s, s.pending()))
    req = s.pending()
    assert req.__class__.__name__ == "Shuffle" and set(req.slots) == set(deck[:-1])
    settle(s, d)
    assert len(s.hand(1)) == 5 and s.phase == "damage"
    assert all(s.known[x] == 0 for x in s.zones["deck"]), "the new deck is face down, unknown"


def test_random_matches_finish_for_every_table_size():
    """Every battle ends and a match winner emerges (also covered by the shared simulation)."""
    for n in (2, 3, 4, 5):
        final = play(Game.new(n), [RandomBot(p, p) for p in range(n)], LocalDealer(n))
        assert final.outcome()["wins"][final.winner] == default().wins_needed[n]
