"""The chance that a card of the Draw Pile is a Demon, from what one seat knows.

A seat's view records the value of every card that seat has seen: its own hand, every card
played face up, the face-up cards inside the Draw Pile (Demons put back after a draw, the
Girl's and the Queen's revealed cards, a Lured Demon), the cards it peeked at (Scout, Manipulate,
Lure's search) or was shown by its ally. The other cards are unknown, but the rules narrow where
an unknown Demon can be:

* a Demon never stays in a hand: the hands are dealt without Demons, and a Demon drawn is
  revealed at once (the drawer's "keep the card" claim is checked by the audit) -- only the card
  a player has just drawn and not yet declared can be one;
* a face-down weapon is a King's Sword or a Pendant (its placer's claim);
* the discard pile, a dead player's cards and everything played is face up.

So the Demons this seat has not located are among the unknown cards of the Draw Pile (and the
card just drawn by another player, if any), and a shuffled pile makes those cards exchangeable:
each of them is a Demon with probability ``hidden / unknown``. A card the seat knows is a Demon
or not for certain. Probabilities are exact fractions; ``tests/solver/test_gar_odds.py`` checks
them against exhaustive enumeration of every deal of the unseen cards consistent with the view.

What the view cannot record is what the seat only remembers (for instance that the top cards
came from the players' hands with a Peace Treaty): the odds use the view alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from p2pcards.games.girl_and_robot.game import DEMON, Game

ZERO, ONE = Fraction(0), Fraction(1)


@dataclass
class Odds:
    total: int  # Demons in the game
    located: dict[str, int]  # where the Demons this seat knows about are
    hidden: int  # Demons this seat has not located
    unknown: int  # cards that may hide them (unknown cards of the pile, a card just drawn)
    pile: list[str | None]  # the Draw Pile top first: "demon", another kind, or None (unknown)
    faceup: list[bool] = field(default_factory=list)  # top first: the card lies face up
    drawn_unknown: bool = False  # another player's just-drawn card is one of the unknown cards

    def each(self) -> Fraction:
        """The chance that one unknown card is a Demon."""
        return Fraction(self.hidden, self.unknown) if self.unknown else ZERO

    def at(self, depth: int) -> Fraction:
        """The chance that the card ``depth`` below the top of the Draw Pile is a Demon."""
        if depth >= len(self.pile):
            return ZERO
        k = self.pile[depth]
        if k is not None:
            return ONE if k == DEMON else ZERO
        return self.each()

    @property
    def top(self) -> Fraction:
        return self.at(0)

    def none_among(self, unknown: int) -> Fraction:
        """The chance that ``unknown`` given unknown cards hold no Demon."""
        u, d = self.unknown, self.hidden
        if unknown > u:
            return ZERO
        return Fraction(comb(u - d, unknown), comb(u, unknown))

    def all_among(self, unknown: int) -> Fraction:
        """The chance that ``unknown`` given unknown cards are all Demons."""
        u, d = self.unknown, self.hidden
        if unknown > u:
            return ZERO
        return Fraction(comb(d, unknown), comb(u, unknown))

    def within(self, k: int) -> Fraction:
        """The chance of at least one Demon among the next ``k`` cards of the pile."""
        cards = self.pile[:k]
        if any(c == DEMON for c in cards):
            return ONE
        return 1 - self.none_among(sum(c is None for c in cards))

    def demons_in_pile(self) -> Fraction:
        """The expected number of Demons in the Draw Pile."""
        known = sum(1 for c in self.pile if c == DEMON)
        unknown_in_pile = sum(1 for c in self.pile if c is None)
        return known + unknown_in_pile * self.each()

    def text(self, depth: int = 0) -> str:
        """The ``Odds:`` line: the chance and what it rests on."""
        head = self.short(depth)
        if not self.pile or depth >= len(self.pile) or self.pile[depth] is not None:
            return head
        located = ", ".join(f"{n} {w}" for w, n in self.located.items() if n)
        return (f"{head}: {self.hidden} of the {self.total} Demons "
                f"{'is' if self.hidden == 1 else 'are'} unaccounted for"
                + (f" ({located})" if located else "")
                + f", among the {self.unknown} card{'s' * (self.unknown != 1)} of the Draw Pile "
                "you have not seen" + (" and the card just drawn" if self.drawn_unknown else ""))

    def short(self, depth: int = 0, said: bool = False) -> str:
        """The chance alone, saying which card it is of (a reason quoting the ``Odds:`` line):
        "the next card" left a newcomer asking whose (ux22); and the whole line repeated in the
        reason under it doubled a long hint. ``said``: the reason has named who draws next."""
        p = self.at(depth)
        where = ("the top card of the Draw Pile" + ("" if said else " (drawn next)") if depth == 0
                 else f"the card {depth} below the top of the Draw Pile")
        if not self.pile or depth >= len(self.pile):
            return "the Draw Pile is empty"
        if self.pile[depth] is not None:
            return (f"{where} is a Demon (you know it)" if p == 1 else
                    f"{where} is no Demon (you know it)")
        return f"{where} is a Demon with chance {p.numerator} in {p.denominator} ({float(p):.0%})"


def odds(view: Game) -> Odds:
    """The Demon odds of the seat whose view this is (or of the full state: everything known)."""
    demons = view._data.cards_of(DEMON)
    total = len(demons)
    draw = view.zones["draw"]
    located: dict[str, int] = {}

    def locate(where: str) -> None:
        located[where] = located.get(where, 0) + 1

    for s in range(view.n_cards):
        if view.values[s] is None or view.kind(s) != DEMON:
            continue
        z = view.zone_of[s]
        if z == "draw":
            locate("face up in the Draw Pile" if s in view.faceup else "seen in the Draw Pile")
        elif z.startswith("aside"):
            locate("set aside")
        elif z.startswith("hand"):
            locate("just drawn")
        else:
            locate("being placed" if z == "moving" else f"in {z}")
    hidden = total - sum(located.values())
    pile = [view.kind(s) for s in reversed(draw)]
    faceup = [s in view.faceup for s in reversed(draw)]
    unknown = sum(k is None for k in pile)
    drawn_unknown = False
    task = view.task or {}
    if view.phase == "drawn" and task.get("slot") is not None and view.values[task["slot"]] is None:
        unknown += 1  # another player's just-drawn card, not yet declared
        drawn_unknown = True
    if hidden > unknown:
        hidden = unknown  # cannot happen in a consistent view; never divide beyond certainty
    return Odds(total, located, hidden, unknown, pile, faceup, drawn_unknown)
