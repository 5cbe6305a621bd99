"""Issue 14 item 12 and issue 11 item 5 for Go Out Girl: what the log says about face-up
discards, and hands that are mixed when a card enters them."""

from __future__ import annotations

from p2pcards.engine import Action, Decide, Decision, Shuffle, project

from .rig import act, hand_numbers, lay, setup, slots, turn
from .rig import play as play_cards


def log_of(s) -> str:
    return "\n".join(s.take_notes())


def test_kira_barrier_says_what_she_really_discards():
    """Kira: "At that time, discard cards from your hand equal to the amount of damage you would
    receive." ... "Note: if you empty your hand using this ability by discarding cards, you win the
    battle." With 2 cards against 3 damage she discards the 2 she has (and wins): the log says 2."""
    s, d = setup(3, {0: "6 2", 1: "9 10", 2: "7 7"}, chars={1: "kira"})
    play_cards(s, d, 0, "6")  # ●●● : 3 damage
    s.narrate()
    act(s, d, 1, "barrier")
    lay(s, d, 1)
    log = log_of(s)
    assert "discards 2 cards face up instead" in log and "discards 3" not in log
    assert "Seat 2 discards 9 face up (Akane Barrier)." in log
    assert "Seat 2 discards 10 face up (Akane Barrier)." in log
    assert s.wins[1] == 1 and "discards her last card and wins battle 1" in log


def test_kira_barrier_one_card_is_singular():
    """The same rule with 1 damage: "1 card", never "1 cards"."""
    s, d = setup(3, {0: "12 2", 1: "9 10", 2: "7 7"}, chars={1: "kira"})
    play_cards(s, d, 0, "12")  # ● : 1 damage (printed)
    s.narrate()
    act(s, d, 1, "barrier")
    lay(s, d, 1)
    log = log_of(s)
    assert "discards 1 card face up instead" in log and "1 cards" not in log


def test_niwa_discards_are_named():
    """Niwa: "draw twice as many cards from the deck, record the damage, and then discard the number
    you drew" -- discards are face up (house rule), so every log names them."""
    s, d = setup(3, {0: "12 2", 1: "1 2 3", 2: "7 7"}, chars={1: "niwa"}, revealed=(1,),
                 deck_top="13 11")
    play_cards(s, d, 0, "12")
    views = {p: s.view(p) for p in range(3)}
    for v in views.values():
        v.narrate()
    decisions = [("pass", None), ("damage", "1"), ("discard", "11")]
    for kind, card in decisions:
        dec = Decision(1, Action(kind, **({} if card is None else {"slot": slots(s, 1, card)[0]})))
        s.apply(dec)
        for v in views.values():
            v.apply(dec)
        while not isinstance(s.pending(), Decide):
            req, before = s.pending(), s.clone()
            ev = d.fulfil(s, req)
            s.apply(ev)
            for p, v in views.items():
                v.apply(project(ev, req, before, p))
    for p in range(3):
        assert "Seat 2 discards 11 face up (Awakening)." in log_of(views[p])


def test_shian_reset_names_the_cards():
    """Shian: "By playing 3 cards with numbers 2/3 in any combination of your choice, you discard
    the current tableau pile." The three cards are played face up: the log names them."""
    s, d = setup(3, {0: "13 13 9", 1: "2 3 3 8 8 9", 2: "7 7"}, chars={1: "shian"}, revealed=(1,))
    play_cards(s, d, 0, "13 13")
    s.narrate()
    reset = next(a for a in s.legal(1) if a.kind == "reset")
    act(s, d, 1, "reset", slots=reset.slots)
    assert "Seat 2 (Reset) plays 2, 3 and 3, discards the tableau pile and leads." in log_of(s)


def test_drawn_damage_cards_are_mixed_into_the_hand():
    """"For each damage icon shown, draw a card from the deck and add it to your hand. ... You may
    select cards you just drew or cards you originally had in hand." Once drawn, the cards are
    mixed with the others (issue 11): no other seat can tell which face-down damage card was just
    drawn."""
    s, d = setup(3, {0: "9 2", 1: "1 2 3", 2: "7 13"}, deck_top="12 12")
    play_cards(s, d, 0, "9")  # ●● (house value)
    old = set(s.hand(1))
    act_kw = Decision(1, Action("pass"))
    s.apply(act_kw)
    seen = []
    while not isinstance(s.pending(), Decide):
        req = s.pending()
        seen.append(req)
        s.apply(d.fulfil(s, req))
    mixes = [r for r in seen if isinstance(r, Shuffle)]
    assert mixes == [Shuffle(tuple(s.hand(1)), 1, mix=True)]
    assert len(s.hand(1)) == 5 and old < set(s.hand(1))
    assert all(s.known[x] == 1 << 1 for x in s.hand(1)), "only the holder knows her hand"
    lay(s, d, 1)
    assert hand_numbers(s, 1).count(12) + sum(
        1 for x in s.zones["dmg1"] if s.number(s.values[x]) == 12) == 2
    assert turn(s) == 2


def test_a_lone_drawn_card_needs_no_mix():
    """Mixing is skipped when there is nothing to lose track of: the deal puts fresh cards into
    empty hands with no request at all, and a hand of one card is not mixed."""
    s, d = setup(3, {0: "9 2", 1: "", 2: "7 13"}, deck_top="12 12")
    play_cards(s, d, 0, "9")
    s.apply(Decision(1, Action("withdraw")) if any(a.kind == "withdraw" for a in s.legal(1))
            else Decision(1, Action("pass")))
    kinds_seen = []
    while not isinstance(s.pending(), Decide) and s.pending() is not None:
        req = s.pending()
        kinds_seen.append(type(req).__name__)
        s.apply(d.fulfil(s, req))
    assert len(s.hand(1)) == 2 and "Shuffle" not in kinds_seen, "two fresh cards: nothing to mix"
