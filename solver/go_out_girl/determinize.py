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

**Priors for a heuristic seat's hidden cards** (``CHAR_PRIOR``, ``DAMAGE_PRIOR``,
``HAND_PRIOR``; off by default: measured no gain, docs/solver-passes.md, fifth pass). For the seats
``model_characters`` is told are modelled as the heuristic bot, a face-down character is drawn
from that bot's choice rule on random hands (``heuristic_char_prior``), face-down damage leans
to the low cards it lays (``DAMAGE_RATIO``) and the hidden hand to the Guards and high cards it
keeps (``HAND_RATIO``, by how many cards have left the battle). They read the options and the
public counts only.
"""

from __future__ import annotations

import random

from p2pcards.games.go_out_girl.game import Game

from .convert import PHASES
from .model import LIFE, REVEAL, TURN, Battle, empty_counts
from .policy import character_score, heuristic

DECLINE_ALPHA = 0.15  # a deal's weight per declining seat the model would have played from
INFER_TRIES = 12  # rejection sampling: deals tried before the last one is taken as it is
CHAR_PRIOR = False  # a face-down heuristic seat's character by its choice rule (off: measured no gain)
PRIOR_DEALS = 4_000  # random deals behind each prior (per set of options)
PRIOR_FLOOR = 0.01  # every option keeps at least this weight (the seat may not be the model)
# A heuristic seat lays its cheapest cards as damage (``policy.weighted``: low singles, never a
# Guard while it holds another card), so its face-down damage pile is not a random draw of the
# unseen cards. DAMAGE_RATIO[n]: how much likelier a card laid as damage is an n than a card in
# the laying hand (index 0 the Guard; model battles of four heuristic seats, seeds
# 600000-602999, 46,369 cards laid). With DAMAGE_PRIOR a face-down damage card of a seat
# modelled as the heuristic bot is drawn from the unseen cards with these weights.
DAMAGE_PRIOR = False
DAMAGE_RATIO = (0.02, 5.13, 4.04, 3.09, 2.04, 1.51, 1.15, 0.92, 0.69, 0.48, 0.32, 0.19, 0.13,
                0.07)
# A heuristic seat leads and follows with its lowest groups and keeps its Guards, so as the
# battle goes on its hand holds more Guards and high cards than the deck. HAND_RATIO[stage][n]:
# how much likelier a card in a heuristic seat's hand is an n than a card of the others' hands
# and the deck together, by stage = min(cards on the field and in the discard pile // 10, 3)
# (model battles of four heuristic seats, seeds 700000-701999, seen from seat 0). With
# HAND_PRIOR the hidden cards of a seat modelled as the heuristic bot are drawn with these
# weights (after its damage), the rest dealt to the deck and the other seats at random.
HAND_PRIOR = False
HAND_RATIO = ((1.06, 0.89, 0.87, 0.9, 0.94, 0.94, 0.96, 1.03, 1.05, 1.06, 1.06, 1.06, 1.04, 1.08),
              (1.19, 0.57, 0.65, 0.75, 0.87, 0.91, 0.99, 1.08, 1.11, 1.13, 1.12, 1.1, 1.1, 1.1),
              (1.46, 0.17, 0.3, 0.44, 0.63, 0.78, 0.88, 1.1, 1.19, 1.23, 1.25, 1.22, 1.18, 1.14),
              (1.94, 0.07, 0.1, 0.19, 0.34, 0.47, 0.62, 0.95, 1.2, 1.3, 1.34, 1.32, 1.27, 1.23))
_PRIORS: dict[tuple[int, ...], list[float]] = {}
_RANKINGS: dict[tuple[int, ...], int] = {}


def heuristic_char_prior(options: list[int] | tuple[int, ...]) -> list[float]:
    """How often the heuristic bot's choice rule (``policy.choose_character``) picks each of
    ``options`` on a random starting hand (11 cards of the 86): weights in the options' order,
    each at least ``PRIOR_FLOOR``. The rule picks Nerai on 63 % of hands, Toyoko 18 %, Shian
    18 %, Kira 1 %, the others almost never (all eight open), so a face-down heuristic seat is
    rarely a life-3 or life-4 character -- which a uniform draw makes it three times in eight.
    Deterministic (fixed seed), cached per set of options."""
    key = tuple(options)
    got = _PRIORS.get(key)
    if got is None:
        counts = dict.fromkeys(key, 0)
        for ranking, k in _rankings().items():
            counts[next(ch for ch in ranking if ch in counts)] += k
        got = [max(PRIOR_FLOOR, counts[ch] / PRIOR_DEALS) for ch in key]
        _PRIORS[key] = got
    return got


def _rankings() -> dict[tuple[int, ...], int]:
    """The eight characters in the heuristic's order of preference (score and tie-break, as
    ``choose_character`` draws them with all eight open), over ``PRIOR_DEALS`` random starting
    hands: ranking -> hands. Any set of options' choice is the first of it in the ranking."""
    if not _RANKINGS:
        deck = [n for n in range(1, 14) for _ in range(6)] + [0] * 8
        r = random.Random(0xC4A2)
        for _ in range(PRIOR_DEALS):
            r.shuffle(deck)
            h = empty_counts()
            for c in deck[:11]:
                h[c] += 1
            score = [character_score(h, ch) + r.random() * 0.01 for ch in range(8)]
            ranking = tuple(sorted(range(8), key=lambda ch: -score[ch]))
            _RANKINGS[ranking] = _RANKINGS.get(ranking, 0) + 1
    return _RANKINGS


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
        self.char_weights: list[list[float] | None] = [None] * n
        self.dmg_holes = [sum(1 for s in view.zones[f"dmg{q}"] if view.values[s] is None)
                          for q in range(n)]
        self.dmg_weighted = [False] * n
        self.hand_weighted = [False] * n
        self.stage = min((sum(self.discard) + sum(self.field)) // 10, 3)

    def model_characters(self, noise: float | list[float] | None) -> None:
        """Draw the face-down character of every seat modelled as the heuristic bot (``noise``
        below one half: ``opponents.TableMemory``) from that bot's choice rule
        (``heuristic_char_prior``) instead of uniformly; a seat modelled as random chooses at
        random. Reads only the options (its own unseen, unlocked characters)."""
        nz = list(noise) if isinstance(noise, (list, tuple)) else [noise or 0.0] * self.n
        if DAMAGE_PRIOR:
            self.dmg_weighted = [q != self.me and nz[q] < 0.5 and self.dmg_holes[q] > 0
                                 for q in range(self.n)]
        if HAND_PRIOR:
            self.hand_weighted = [q != self.me and nz[q] < 0.5 and self.hand_holes[q] > 0
                                  for q in range(self.n)]
        if not CHAR_PRIOR:
            return
        for q in range(self.n):
            if q != self.me and self.char_known[q] is None and nz[q] < 0.5 \
                    and len(self.char_options[q]) > 1:
                self.char_weights[q] = heuristic_char_prior(self.char_options[q])

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
        if cards is None and (any(self.dmg_weighted) or any(self.hand_weighted)):
            cards = self._weighted_cards(rng)
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
                w = self.char_weights[q]
                opts = self.char_options[q]
                if w is None:
                    b.char[q] = rng.choice(opts)
                else:
                    b.char[q] = rng.choices(opts, w)[0]
        dmg = []
        for q in range(self.n):
            dmg.append([next(it) if v.values[s] is None else v.number(v.values[s])  # type: ignore[arg-type]
                        for s in v.zones[f"dmg{q}"]])
        return b, dmg

    def _weighted_cards(self, rng: random.Random) -> list[int]:
        """The unseen cards in the order ``sample_with_damage`` fills the holes (each seat's
        hand, the deck, each seat's damage): the face-down damage of the seats in
        ``dmg_weighted`` drawn first with ``DAMAGE_RATIO``'s weights, then the hands of the
        seats in ``hand_weighted`` with ``HAND_RATIO``'s at this stage (without replacement),
        the rest shuffled into the other holes."""
        counts = empty_counts()
        for c in self.unseen:
            counts[c] += 1
        nums = range(14)

        def pick(k: int, ratio) -> list[int]:
            got = []
            for _ in range(k):
                c = rng.choices(nums, [counts[x] * ratio[x] for x in nums])[0]
                counts[c] -= 1
                got.append(c)
            return got
        dmg = {q: pick(self.dmg_holes[q], DAMAGE_RATIO)
               for q in range(self.n) if self.dmg_weighted[q]}
        hands = {q: pick(self.hand_holes[q], HAND_RATIO[self.stage])
                 for q in range(self.n) if self.hand_weighted[q]}
        rest = [c for c in nums for _ in range(counts[c])]
        rng.shuffle(rest)
        it = iter(rest)
        out: list[int] = []
        for q in range(self.n):
            out += hands[q] if q in hands else [next(it) for _ in range(self.hand_holes[q])]
        out += [next(it) for x in self.deck if x is None]
        for q in range(self.n):
            out += dmg[q] if q in dmg else [next(it) for _ in range(self.dmg_holes[q])]
        return out

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
