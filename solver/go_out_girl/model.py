"""A compact, full-information model of one Go Out Girl battle, for fast simulation and search.

The engine (``p2pcards.games.go_out_girl``) is the rules' authority; this model plays the same
battle with cards reduced to their numbers (card equivalence: two 9s are interchangeable), hands
as count vectors, and none of the engine's bookkeeping (slots, knowledge masks, reveal requests).
A test keeps it in lockstep with the engine over random games (``tests/solver``).

Numbers are 1..13, and 0 stands for a Guard. A hand is a list of 14 counts indexed by number.

Actions are small tuples:

``("R",)`` reveal · ``("P", as_number, count, used)`` play, ``used`` the ``(number, k)`` pairs of
the cards · ``("G",)`` Guard · ``("S",)`` pass · ``("W",)`` withdraw · ``("B",)`` Kira's barrier ·
``("X", twos, threes)`` Shian's Reset · ``("D", n)`` lay a card face down as damage ·
``("C", n)`` discard a card · ``("V", n)`` Ten gives a card · ``("K",)`` Ten keeps her hand ·
``("N", n)`` the next card drawn from a reshuffled deck is an ``n`` (exact mode only: the
reshuffled order is unknown, so search lets the adversary choose each card).
"""

from __future__ import annotations

import random

from p2pcards.games.go_out_girl.data import default
from p2pcards.games.go_out_girl.game import (
    KIRA,
    KYOKO,
    NERAI,
    NIWA,
    SATSUKI,
    SHIAN,
    TEN,
    TOYOKO,
)

GUARD = 0
NUMS = range(1, 14)  # the number cards, without Guard
_DATA = default()
DAMAGE: tuple[int, ...] = tuple(_DATA.damage.get(n, 0) for n in range(15))  # by as-number
LIFE: tuple[int, ...] = tuple(c.life for c in _DATA.characters)
COPIES = _DATA.copies
GUARDS = _DATA.guards
CHAR_KEYS: tuple[str, ...] = tuple(c.key for c in _DATA.characters)
CHAR_NAMES: tuple[str, ...] = tuple(c.name for c in _DATA.characters)

# phases
TURN, LEAD, DAMAGE_PH, DISCARD_PH, GIVE, DRAW, OVER = range(7)
PHASE_NAMES = ("turn", "lead", "damage", "discard", "give", "draw", "over")
# what follows a run of discards
AFTER_DAMAGE, AFTER_BARRIER = 0, 1

REVEAL = ("R",)
GUARD_A = ("G",)
PASS = ("S",)
WITHDRAW = ("W",)
BARRIER = ("B",)
KEEP = ("K",)

__all__ = [
    "Battle", "CHAR_KEYS", "CHAR_NAMES", "DAMAGE", "LIFE", "KIRA", "KYOKO", "NERAI", "NIWA",
    "SATSUKI", "SHIAN", "TEN", "TOYOKO", "card_text", "describe",
]


def card_text(n: int) -> str:
    return "Guard" if n == GUARD else str(n)


def empty_counts() -> list[int]:
    return [0] * 14


class Battle:
    """One battle in progress, every card known (a determinization, or a puzzle position).

    ``deck`` is ordered, top last. ``pool`` (exact mode) holds a reshuffled deck whose order is
    unknown: its cards are drawn one by one through ``DRAW`` decisions of the adversary."""

    __slots__ = ("n", "hands", "size", "deck", "pool", "discard", "field", "alive", "damage",
                 "char", "revealed", "top", "turn", "phase", "left", "extra", "after",
                 "drawing", "winner", "exact", "rng")

    def __init__(self, n: int) -> None:
        self.n = n
        self.hands = [empty_counts() for _ in range(n)]
        self.size = [0] * n
        self.deck: list[int] = []
        self.pool: list[int] | None = None
        self.discard = empty_counts()
        self.field = empty_counts()
        self.alive = [True] * n
        self.damage = [0] * n
        self.char = [NERAI] * n
        self.revealed = [False] * n
        self.top: tuple[int, int, int, int] | None = None  # (number, count, damage, owner)
        self.turn = 0
        self.phase = TURN
        self.left = 0  # cards still to lay (DAMAGE) or discard (DISCARD)
        self.extra = 0  # after laying damage: cards to discard (Niwa)
        self.after = AFTER_DAMAGE
        self.drawing: tuple[int, int, int, int] | None = None  # (p, to draw, drawn, d) in DRAW
        self.winner: int | None = None
        self.exact = False
        self.rng: random.Random | None = None

    # ---- copying and keys ---------------------------------------------------------------------
    def copy(self) -> Battle:
        c = object.__new__(Battle)
        c.n = self.n
        c.hands = [h[:] for h in self.hands]
        c.size = self.size[:]
        c.deck = self.deck[:]
        c.pool = None if self.pool is None else self.pool[:]
        c.discard = self.discard[:]
        c.field = self.field[:]
        c.alive = self.alive[:]
        c.damage = self.damage[:]
        c.char = self.char[:]
        c.revealed = self.revealed[:]
        c.top = self.top
        c.turn = self.turn
        c.phase = self.phase
        c.left = self.left
        c.extra = self.extra
        c.after = self.after
        c.drawing = self.drawing
        c.winner = self.winner
        c.exact = self.exact
        c.rng = self.rng
        return c

    def key(self) -> tuple:
        """Everything that matters for the rest of the battle (a transposition-table key).
        Eliminated seats' hands no longer matter and are left out."""
        hands = tuple(tuple(h) if a else None for h, a in zip(self.hands, self.alive, strict=True))
        return (hands, tuple(self.deck), None if self.pool is None else tuple(self.pool),
                tuple(self.discard), tuple(self.field), tuple(self.alive), tuple(self.damage),
                tuple(self.revealed), self.top, self.turn, self.phase, self.left, self.extra,
                self.after, self.drawing)

    def as_dict(self) -> dict:
        """A plain comparable snapshot (tests)."""
        return {"hands": [list(h) for h in self.hands], "deck": list(self.deck),
                "discard": list(self.discard), "field": list(self.field),
                "alive": list(self.alive), "damage": list(self.damage),
                "char": list(self.char), "revealed": list(self.revealed),
                "top": self.top, "turn": self.turn, "phase": PHASE_NAMES[self.phase],
                "left": self.left, "extra": self.extra, "after": self.after,
                "winner": self.winner}

    # ---- queries ------------------------------------------------------------------------------
    def actor(self) -> int:
        """The seat to decide (-1: the adversary draws from a reshuffled deck; -2: over)."""
        if self.phase == OVER:
            return -2
        if self.phase == DRAW:
            return -1
        return self.turn

    def ability(self, p: int) -> int | None:
        """Seat p's character if revealed (its ability is active), else ``None``."""
        return self.char[p] if self.revealed[p] else None

    def life_left(self, p: int) -> int:
        return LIFE[self.char[p]] - self.damage[p]

    def legal(self) -> list[tuple]:
        ph = self.phase
        if ph == OVER:
            return []
        if ph == DRAW:
            return [("N", n) for n in range(14) if self.pool[n]]  # type: ignore[index]
        p = self.turn
        h = self.hands[p]
        if ph == DAMAGE_PH:
            return [("D", n) for n in range(14) if h[n]]
        if ph == DISCARD_PH:
            return [("C", n) for n in range(14) if h[n]]
        if ph == GIVE:
            return [("V", n) for n in range(14) if h[n]] + [KEEP]
        if ph == LEAD:  # after a Reset: a new tableau card, or a Guard (a pass)
            return self.plays(p) + ([GUARD_A] if h[GUARD] else [])
        acts: list[tuple] = []
        rev = self.revealed[p]
        if not rev:
            acts.append(REVEAL)
        acts += self.plays(p)
        if h[GUARD]:
            acts.append(GUARD_A)
        top = self.top
        if top is not None:
            ch = self.char[p]
            if rev and ch == SHIAN:
                c2, c3 = h[2], h[3]
                for a in range(4):
                    if a <= c2 and 3 - a <= c3:
                        acts.append(("X", a, 3 - a))
            if not rev and ch == KIRA:
                acts.append(BARRIER)
            acts.append(WITHDRAW if self.damage[p] + top[2] >= LIFE[ch] else PASS)
        return acts

    def plays(self, p: int) -> list[tuple]:
        h = self.hands[p]
        top = self.top
        rev = self.char[p] if self.revealed[p] else None
        acts: list[tuple] = []
        if rev == KYOKO:
            if top is None:
                counts: tuple[int, ...] = (1, 2)
            else:
                counts = (top[1],) if top[1] <= 2 else ()
            for n in NUMS:
                if h[n] and (top is None or n > top[0]):
                    for c in counts:
                        acts.append(("P", n, c, ((n, 1),)))
            return acts
        if top is None:
            for n in NUMS:
                for k in range(1, h[n] + 1):
                    acts.append(("P", n, k, ((n, k),)))
        else:
            tn, c = top[0], top[1]
            for n in range(tn + 1, 14):
                if h[n] >= c:
                    acts.append(("P", n, c, ((n, c),)))
        if rev == NERAI and (top is None or top[0] < 6):
            f4, f5, f6 = h[4], h[5], h[6]
            for a in range(f4 + 1):
                for b in range(f5 + 1):
                    if a + b == 0:
                        continue
                    for c6 in range(f6 + 1):
                        k = a + b + c6
                        if top is None or k == top[1]:
                            used = tuple((n, x) for n, x in ((4, a), (5, b), (6, c6)) if x)
                            acts.append(("P", 6, k, used))
        if rev == TOYOKO and h[1]:
            if top is None:
                for k in range(1, h[1] + 1):
                    acts.append(("P", 14, k, ((1, k),)))
            elif top[0] < 14 and h[1] >= top[1]:
                acts.append(("P", 14, top[1], ((1, top[1]),)))
        return acts

    # ---- transitions --------------------------------------------------------------------------
    def apply(self, a: tuple) -> None:
        k = a[0]
        p = self.turn
        h = self.hands[p]
        if k == "P":
            _, num, cnt, used = a
            f = self.field
            for n, x in used:
                h[n] -= x
                f[n] += x
                self.size[p] -= x
            dmg = DAMAGE[num]
            if self.revealed[p] and self.char[p] == SATSUKI and num != 13:
                dmg += 1
            self.top = (num, cnt, dmg, p)
            if self.size[p] == 0:
                self._win(p)
            else:
                self._next_turn(p)
        elif k == "S":
            d = self.top[2]  # type: ignore[index]
            self.damage[p] += d
            want = 2 * d if (self.revealed[p] and self.char[p] == NIWA) else d
            self._draw(p, want, 0, d)
        elif k == "D" or k == "C":
            n = a[1]
            h[n] -= 1
            self.size[p] -= 1
            if k == "C":
                self.discard[n] += 1
            self.left -= 1
            if self.left > 0 and self.size[p] > 0:
                return
            if k == "D" and self.extra > 0 and self.size[p] > 0:
                self.phase = DISCARD_PH
                self.left = self.extra
                self.extra = 0
                self.after = AFTER_DAMAGE
                return
            if k == "C" and self.after == AFTER_BARRIER:
                if self.size[p] == 0:
                    self._win(p)
                else:
                    self._next_turn(p)
                return
            self._damage_done(p)
        elif k == "R":
            self.revealed[p] = True
        elif k == "G":
            h[GUARD] -= 1
            self.size[p] -= 1
            self.discard[GUARD] += 1
            if self.size[p] == 0:
                self._win(p)
            else:
                self._next_turn(p)
        elif k == "W":
            self.revealed[p] = True
            self.alive[p] = False
            left = [q for q in range(self.n) if self.alive[q]]
            if len(left) == 1:
                self._win(left[0])
            else:
                self._next_turn(p)
        elif k == "B":
            self.revealed[p] = True
            want = min(self.top[2], self.size[p])  # type: ignore[index]
            if want > 0:
                self.phase = DISCARD_PH
                self.left = want
                self.extra = 0
                self.after = AFTER_BARRIER
            elif self.size[p] == 0:
                self._win(p)
            else:
                self._next_turn(p)
        elif k == "X":
            _, a2, a3 = a
            h[2] -= a2
            h[3] -= a3
            self.size[p] -= a2 + a3
            self.discard[2] += a2
            self.discard[3] += a3
            self._clear_field()
            if self.size[p] == 0:
                self._win(p)
            else:
                self.phase = LEAD
        elif k == "V":
            n = a[1]
            h[n] -= 1
            self.size[p] -= 1
            owner = self.top[3]  # type: ignore[index]
            self.hands[owner][n] += 1
            self.size[owner] += 1
            if self.size[p] == 0:
                self._win(p)
            else:
                self._next_turn(p)
        elif k == "K":
            self._next_turn(p)
        elif k == "N":
            n = a[1]
            self.pool[n] -= 1  # type: ignore[index]
            q, want, drawn, d = self.drawing  # type: ignore[misc]
            self.drawing = None
            self.hands[q][n] += 1
            self.size[q] += 1
            self._draw(q, want - 1, drawn + 1, d)
        else:
            raise ValueError(f"unknown action {a!r}")

    def _draw(self, p: int, want: int, drawn: int, d: int) -> None:
        h = self.hands[p]
        deck = self.deck
        while want > 0:
            if deck:
                n = deck.pop()
                h[n] += 1
                self.size[p] += 1
                drawn += 1
                want -= 1
                continue
            pool = self.pool
            if pool is not None and any(pool):
                self.phase = DRAW
                self.drawing = (p, want, drawn, d)
                return
            if any(self.discard):
                if self.exact:
                    self.pool = self.discard
                else:
                    cards = [n for n in range(14) for _ in range(self.discard[n])]
                    (self.rng or random).shuffle(cards)
                    self.deck = deck = cards
                self.discard = empty_counts()
                continue
            break
        self.phase = TURN
        lay = min(d, drawn)
        extra = drawn - lay
        if lay > 0 and self.size[p] > 0:
            self.phase, self.left, self.extra, self.after = DAMAGE_PH, lay, extra, AFTER_DAMAGE
        elif extra > 0 and self.size[p] > 0:
            self.phase, self.left, self.extra, self.after = DISCARD_PH, extra, 0, AFTER_DAMAGE
        else:
            self._damage_done(p)

    def _damage_done(self, p: int) -> None:
        self.left = self.extra = 0
        self.after = AFTER_DAMAGE
        if self.revealed[p] and self.char[p] == TEN and self.size[p] > 0:
            self.phase = GIVE
        else:
            self._next_turn(p)

    def _clear_field(self) -> None:
        f, dsc = self.field, self.discard
        for n in range(14):
            if f[n]:
                dsc[n] += f[n]
                f[n] = 0
        self.top = None

    def _next_turn(self, p: int) -> None:
        n = self.n
        q = p
        for i in range(1, n + 1):
            q = (p + i) % n
            if self.alive[q]:
                break
        top = self.top
        if top is not None and top[3] == q:
            self._clear_field()
        self.turn = q
        self.phase = TURN
        self.left = self.extra = 0
        self.after = AFTER_DAMAGE

    def _win(self, p: int) -> None:
        self.winner = p
        self.phase = OVER
        self.left = self.extra = 0
        self.after = AFTER_DAMAGE


def describe(a: tuple) -> str:
    """Text for a model action, as the engine would put it."""
    k = a[0]
    if k == "P":
        _, num, cnt, used = a
        cards = [n for n, x in used for _ in range(x)]
        text = "play " + " ".join(card_text(n) for n in cards)
        if cnt != len(cards):
            text += " as a pair"
        if any(n != num for n in cards):
            text += f" as {num}"
        return text
    if k == "X":
        return "Reset with " + " ".join(["2"] * a[1] + ["3"] * a[2]) + " (clear the field, then lead)"
    if k == "D":
        return f"lay face down as damage: {card_text(a[1])}"
    if k == "C":
        return f"discard: {card_text(a[1])}"
    if k == "V":
        return f"give to the tableau's player: {card_text(a[1])}"
    if k == "N":
        return f"(the reshuffled deck yields {card_text(a[1])})"
    return {"R": "reveal your character", "G": "play Guard (pass without damage)",
            "S": "pass (take the damage)", "W": "withdraw (the damage would reach your life)",
            "B": "reveal Kira: Akane Barrier (pass without damage, discard instead)",
            "K": "keep your cards (do not use Let's Talk)"}[k]


def narrate(a: tuple) -> str:
    """Third-person text for a model action, for principal lines."""
    k = a[0]
    if k == "P":
        return describe(a).replace("play ", "plays ", 1)
    if k == "X":
        return "resets with " + " ".join(["2"] * a[1] + ["3"] * a[2]) + " and will lead"
    if k == "D":
        return f"lays {card_text(a[1])} face down as damage"
    if k == "C":
        return f"discards {card_text(a[1])}"
    if k == "V":
        return f"gives {card_text(a[1])} to the pile's owner (Let's Talk)"
    if k == "N":
        return f"the reshuffled deck yields {card_text(a[1])} (worst case)"
    return {"R": "reveals the character", "G": "plays Guard (no damage)",
            "S": "passes and takes the damage", "W": "withdraws (eliminated)",
            "B": "reveals Kira: Akane Barrier (no damage, discards instead)",
            "K": "keeps the cards"}[k]
