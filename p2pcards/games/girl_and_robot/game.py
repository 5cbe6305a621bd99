"""The Girl and the Robot: every rule of its rulebook on the knowledge-aware engine.

The rulebook is the project's shared copy, ``girl-and-robot.txt`` in the rules folder beside the
design notes (it is not part of this repository); ``docs/girl-and-robot.md`` lists every reading
and house value p2pcards chooses where it is silent.

Cards are the ids of ``cards.json`` (see ``data.py``). Zones: ``draw`` (the Draw Pile, bottom
first), ``discard``, ``removed`` (out of the game), per seat ``hand{p}``, ``weapons{p}`` (on the
table next to the character) and ``aside{p}`` (Demons set aside with A Deal with a Demon), and a
few transit zones: ``stack`` (Action cards being played and answered), ``pool`` (Ability Points
cards played this turn), ``held`` (Grave Digger until the end of the turn), ``grave`` (a dead
player's cards on their way to the discard pile), ``box`` (cards during setup), ``aside_demons``
(Demons out of the deck while dealing), ``treaty`` (Peace Treaty cards), ``moving`` (a Demon
being placed again) and ``shuffling`` (face-up cards put back into a shuffled pile).

Hidden information goes through the deck requests only:

* a face-up card inside the face-down Draw Pile is a slot known to all (``faceup`` lists them);
* peeks (Scout, Manipulate, Lure's search, the Girl looking at the Robot's hand) are ``Reveal``
  to one seat; public reveals (the Girl's and the Queen's 2-point abilities, Spy, Magic Mirror,
  every card played face up) are ``Reveal`` to all;
* Manipulate's private reorder is ``Shuffle(top3, by=player)``; Blind is ``Shuffle(hand)`` with
  ``by=None``, so not even the owner knows which card is which;
* shuffles of the Draw Pile (Smoke Bomb, Lure, Act II) shuffle its face-down slots and put each
  face-up card back at a ``Random`` position; Peace Treaty shuffles the chosen cards;
* Steal's random card is ``Random(len(hand))`` picking a slot of the (public) hand order.

Claims that depend on hidden cards are checked when the cards are revealed (a card played face up
must be what its player said). Three claims are about cards that can stay hidden: "the card I drew
is not a Demon" (``safe``), "my face-down weapon is a King's Sword or a Pendant" (``hide``) and
"Lure found no Demon among the Draw Pile's face-down cards" (``nodemon``). Each is proven the
moment it is made, ``Prove(slots, by=claimant, allowed)`` with exactly the cards that make it
true, a zero-knowledge proof that reveals nothing else; each is checked again whenever the card
is revealed later.

The rules live in rooms named for what they hold, one class each on the shared ``Common`` base
(``common.py``: constants, cards, seats, turn order), and ``Game`` here is made of them all:

* ``setup.py`` -- set-up: options, seating, the deal, the Girl's choice of turn order;
* ``turn.py`` -- the turn: playing cards, the ally's window, the draw, who plays next;
* ``legal.py`` -- the legal actions of every phase and the validation of decisions;
* ``actions.py`` -- Action cards: the Cancel Action window, one ``_fx_<key>`` per card;
* ``abilities.py`` -- the characters' abilities: one ``_ab_<id>`` per ability;
* ``demons.py`` -- Demons and weapons: defending, dying, placing Demons, hidden claims checked;
* ``text.py`` -- status lines, rules text, descriptions of actions.

Every name other modules import from here (``Game``, ``DEMON``, ``CANCEL``, ``TEAM_OF``,
``arrangements``...) still is.
"""

from __future__ import annotations

from .abilities import Abilities
from .actions import ActionCards
from .common import (  # the public names, importable from here as before the split
    ALLY_TURN,
    CANCEL,
    DEMON,
    GIRL,
    NO_COPY,
    PARAMS,
    PASS,
    PUBLIC_PHASES,
    QUEEN,
    ROBOT,
    SHADOW,
    TEAM_NAMES,
    TEAM_OF,
    arrangements,
)
from .data import FACE_DOWN_WEAPONS
from .demons import DemonsAndWeapons
from .legal import Legal
from .setup import SetUp
from .text import Text
from .turn import Turn

__all__ = ["ALLY_TURN", "CANCEL", "DEMON", "FACE_DOWN_WEAPONS", "GIRL", "NO_COPY", "PARAMS", "PASS",
           "PUBLIC_PHASES", "QUEEN", "ROBOT", "SHADOW", "TEAM_NAMES", "TEAM_OF", "Game",
           "arrangements"]


class Game(SetUp, Turn, Legal, ActionCards, Abilities, DemonsAndWeapons, Text):
    """The game: one class made of the rooms above; see the module's docstring."""

    game = "girl-and-robot"
    min_players = 2
    max_players = 4
    _CARD = {"slot": "slot", "card": "str", "target?": "seat", "weapon?": "slot",
             "ability?": "str", "direction?": "int"}
    ACTION_ARGS = {
        "play": _CARD, "copy": _CARD,
        "ability": {"id": "str", "target?": "seat", "weapon?": "slot"},
        "pendant": {"id": "str", "target?": "seat", "weapon?": "slot"},
        **{k: {"slot": "slot"} for k in ("bury", "cancel", "choose", "flip", "hide", "lure",
                                        "pick", "unleash", "waste")},
        "defend": {"weapon": "slot"}, "direction": {"d": "int"}, "end": {"draw": "int"},
        "order": {"slots": "slots"}, "position": {"index": "int"}, "show": {"slots": "slots"},
        **{k: {} for k in ("ally", "demon", "nocopy", "nodemon", "pass", "safe")},
    }
