"""Sampling the hidden cards consistent with what one seat knows (determinization).

``ViewInfo`` reads a seat's *view* -- never the full state -- once: the cards it sees (its hand,
its face-down damage, the field, the discard pile, any card it was given or gave), the slots it
cannot see (the others' hands and damage, the deck), and the characters still face down. Each
``sample`` then deals the unseen battle cards at random into the unseen slots (so an unknown
deck gets a random order) and gives every face-down character of seat q one of q's own unseen,
unlocked character cards whose life is more than the damage q has survived (a seat that passed
knows its character's life exceeded the damage; otherwise it would have had to withdraw).
"""

from __future__ import annotations

import random

from p2pcards.games.go_out_girl.game import Game

from .convert import PHASES
from .model import LIFE, Battle, empty_counts


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

    def sample(self, rng: random.Random) -> Battle:
        """One full-information battle consistent with the view (battle phases only)."""
        v = self.view
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
            if self.char_known[q] is None:
                b.char[q] = rng.choice(self.char_options[q])
        return b

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


def _counts(view: Game, slots: list[int]) -> list[int]:
    c = empty_counts()
    for s in slots:
        c[view.number(view.values[s])] += 1  # type: ignore[arg-type]
    return c
