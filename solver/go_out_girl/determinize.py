"""Sampling the hidden cards consistent with what one seat knows (determinization).

``ViewInfo`` reads a seat's *view* -- never the full state -- once: the cards it sees (its hand,
its face-down damage, the field, the discard pile, any card it was given or gave), the slots it
cannot see (the others' hands and damage, the deck), and the characters still face down. Each
``sample`` then deals the unseen battle cards at random into the unseen slots (so an unknown
deck gets a random order) and gives every face-down character of seat q one of q's own unseen,
unlocked character cards whose life is more than the damage q has survived (a seat that passed
knows its character's life exceeded the damage; otherwise it would have had to withdraw).

**Opponent hand inference.** The view holds no log of past actions, but the field says who
played the pile on it (``top["owner"]``): every seat still in the battle between that owner and
this seat, in turn order, had its turn on this very pile and did not beat it (it passed, took
the damage or played a Guard). The opponent model (the heuristic bot) beats a pile whenever it
holds a group that can (it plays a Guard instead only to save a 13 when the damage would nearly
finish it). So
``sample_inferred`` weighs each deal by the likelihood of those refusals under the model --
``DECLINE_ALPHA`` for each declining seat whose sampled hand the model would have played from,
1 otherwise -- by rejection with at most ``INFER_TRIES`` tries (the last deal if none is
accepted). The weight is soft: a seat that took damage drew cards after its refusal (they may
beat the pile now), and the others may not play like the model. Only public facts are read (the
pile, its owner, who is in the battle), so it conditions on nothing the seat did not see.
"""

from __future__ import annotations

import random

from p2pcards.games.go_out_girl.game import Game

from .convert import PHASES
from .model import LIFE, REVEAL, TURN, Battle, empty_counts
from .policy import heuristic

DECLINE_ALPHA = 0.15  # a deal's weight per declining seat the model would have played from
INFER_TRIES = 12  # rejection sampling: deals tried before the last one is taken as it is


class ViewInfo:
    def __init__(self, view: Game) -> None:
        if view.viewer is None or view.viewer < 0:
            raise ValueError("determinization starts from one seat's view")
        self.view = view
        self.me = view.viewer
        n = self.n = view.n_players
        b = view._b
        seen_ids = {v for v in view.values if v is not None}
        number = view.number
        self.unseen: list[int] = [number(c) for c in range(b) if c not in seen_ids]
        holes = 0
        # hands: known counts and the number of unknown cards
        self.hand_known: list[list[int]] = []
        self.hand_holes: list[int] = []
        for q in range(n):
            c = empty_counts()
            k = 0
            for s in view.hand(q):
                v = view.values[s]
                if v is None:
                    k += 1
                else:
                    c[number(v)] += 1
            self.hand_known.append(c)
            self.hand_holes.append(k)
            holes += k
        # deck, top last: a number or None
        self.deck: list[int | None] = [None if view.values[s] is None else number(view.values[s])
                                       for s in view.zones["deck"]]
        holes += sum(1 for x in self.deck if x is None)
        for q in range(n):
            holes += sum(1 for s in view.zones[f"dmg{q}"] if view.values[s] is None)
        for z in ("discard", "field"):
            if any(view.values[s] is None for s in view.zones[z]):
                raise ValueError(f"the {z} pile should be face up")
        if holes != len(self.unseen):
            raise ValueError(f"the view has {holes} unknown battle cards but {len(self.unseen)} unseen")
        self.discard = _counts(view, view.zones["discard"])
        self.field = _counts(view, view.zones["field"])
        # characters
        self.char_known: list[int | None] = []
        self.char_options: list[list[int]] = []
        for q in range(n):
            ch = view.revealed[q] if view.revealed[q] is not None else view.own_character(q)
            self.char_known.append(ch)
            ids = [b + 8 * q + k for k in range(8)]
            unseen_chars = [c - b - 8 * q for c in ids if c not in seen_ids]
            eligible = [k for k in unseen_chars if LIFE[k] > view.damage[q]] or unseen_chars
            self.char_options.append(eligible if ch is None else [ch])
        self.choosing = view.phase == "choose"
        self.declined = declined_seats(view)

    def likelihood(self, b: Battle, alpha: float = DECLINE_ALPHA) -> float:
        """The chance, under the opponent model, that every seat in ``declined`` would have
        refused the pile on the field with the hand it holds in ``b`` (soft: ``alpha`` per seat
        that would have played)."""
        w = 1.0
        for q in self.declined:
            if would_beat(b, q):
                w *= alpha
        return w

    def sample_inferred(self, rng: random.Random, tries: int = INFER_TRIES,
                        alpha: float = DECLINE_ALPHA) -> Battle:
        """``sample``, weighted by the likelihood of the refusals seen (rejection sampling with
        at most ``tries`` deals; the last one when none is accepted)."""
        b = self.sample(rng)
        if not self.declined:
            return b
        for _ in range(tries - 1):
            if rng.random() < self.likelihood(b, alpha):
                return b
            b = self.sample(rng)
        return b

    def sample(self, rng: random.Random) -> Battle:
        """One full-information battle consistent with the view (battle phases only)."""
        return self.sample_with_damage(rng)[0]

    def sample_with_damage(self, rng: random.Random, cards: list[int] | None = None,
                           chars: dict[int, int] | None = None) -> tuple[Battle, list[list[int]]]:
        """``sample``, and the face-down damage it implies: per seat, the number of each card
        of its damage pile, in the pile's order (the model keeps only the count; the history's
        inference needs the cards). Draws from ``rng`` exactly as ``sample`` does. ``cards``:
        the unseen cards in the order they fill the holes (each seat's hand, the deck, each
        seat's damage) instead of a shuffle; ``chars``: face-down characters already chosen."""
        v = self.view
        if cards is None:
            cards = self.unseen[:]
            rng.shuffle(cards)
        it = iter(cards)
        b = self._shell(rng, it)
        b.top = None if v.top is None else (v.top["number"], v.top["count"], v.top["damage"],
                                            v.top["owner"])
        b.turn = v.req["player"] if v.req else self.me
        b.phase = PHASES[v.phase]
        task = v.task
        if task is not None and v.phase in ("damage", "discard"):
            from .model import AFTER_BARRIER, AFTER_DAMAGE
            b.left = task["left"]
            if task["then"] == "damage_laid":
                b.extra = task["kw"]["extra"]
            b.after = AFTER_BARRIER if task["then"] == "barrier_done" else AFTER_DAMAGE
        for q in range(self.n):
            if chars is not None and q in chars:
                b.char[q] = chars[q]
            elif self.char_known[q] is None:
                b.char[q] = rng.choice(self.char_options[q])
        dmg = []
        for q in range(self.n):
            dmg.append([next(it) if v.values[s] is None else v.number(v.values[s])  # type: ignore[arg-type]
                        for s in v.zones[f"dmg{q}"]])
        return b, dmg

    def _shell(self, rng: random.Random, it) -> Battle:
        v = self.view
        n = self.n
        b = Battle(n)
        b.rng = rng
        for q in range(n):
            h = self.hand_known[q][:]
            for _ in range(self.hand_holes[q]):
                h[next(it)] += 1
            b.hands[q] = h
            b.size[q] = sum(h)
            b.char[q] = self.char_known[q] if self.char_known[q] is not None else 0
            b.revealed[q] = v.revealed[q] is not None
        b.deck = [x if x is not None else next(it) for x in self.deck]
        b.discard = self.discard[:]
        b.field = self.field[:]
        b.alive = list(v.alive)
        b.damage = list(v.damage)
        return b

    def sample_start(self, rng: random.Random, my_char: int, choose) -> Battle:
        """At character choice: a battle about to start with ``my_char`` for this seat; every
        other seat's character is picked by ``choose(hand_counts, options, rng)`` among its own
        unseen, unlocked characters (a model of how opponents choose)."""
        v = self.view
        cards = self.unseen[:]
        rng.shuffle(cards)
        b = self._shell(rng, iter(cards))
        for q in range(self.n):
            if q == self.me:
                b.char[q] = my_char
            else:
                b.char[q] = choose(b.hands[q], self.char_options[q], rng)
        b.top = None
        b.turn = v.start
        return b


def declined_seats(view: Game) -> list[int]:
    """The seats still in the battle that had their turn on the pile now on the field and did
    not beat it: those after its owner and before the seat to move, in turn order."""
    top = view.top
    if top is None or not view.req or view.phase not in ("turn", "damage", "discard", "give"):
        return []
    n = view.n_players
    me = view.req["player"]
    owner = top["owner"]
    out = []
    q = (owner + 1) % n
    for _ in range(n):
        if q in (me, owner):
            break
        if view.alive[q]:
            out.append(q)
        q = (q + 1) % n
    return out


def would_beat(b: Battle, q: int) -> bool:
    """Whether the heuristic bot in seat ``q``, holding its hand in ``b``, would beat the pile on
    the field (revealing first if it would)."""
    turn, phase, rev = b.turn, b.phase, b.revealed[q]
    b.turn, b.phase = q, TURN
    try:
        a = heuristic(b)
        if a == REVEAL:
            b.revealed[q] = True
            a = heuristic(b)
        return a[0] in ("P", "X")
    finally:
        b.turn, b.phase, b.revealed[q] = turn, phase, rev


def _counts(view: Game, slots: list[int]) -> list[int]:
    c = empty_counts()
    for s in slots:
        c[view.number(view.values[s])] += 1  # type: ignore[arg-type]
    return c
