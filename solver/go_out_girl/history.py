"""Full-history inference: every decision the others made this battle, as evidence about their hands.

The heuristic bot is deterministic given its hand and the public state (its only random draw
is a 0.01 tie-break at character choice), so each of its plays, passes, Guards and withdrawals
says a lot about the hand it held: it follows with the lowest group that beats the pile, leads
the group that scores best, passes only when no group beats the pile (or to keep a 13). A seat's
view carries no log, but a bot sees a view at each of its own decisions, and the cards' slots
are public: between two of its views, a slot that left ``hand{q}`` for the field or the discard
pile was played (or discarded) by q, one that entered ``dmg{q}`` was laid by q, one that came
from the deck into ``hand{q}`` was drawn. With four seats each other seat has one turn between
two of the bot's turns, so ``BattleRecord`` rebuilds each turn: the pile it faced, what it did,
which cards left its hand (known by number when played, by their slot in ``dmg{q}`` when laid)
and how many entered. Anything it cannot rebuild (a reshuffled deck, a gift between two other
seats, a Reset, an ambiguous pile) drops that seat's earlier turns: the hands are rebuilt
backwards from now, so the record must be unbroken from its start to now.

``weights`` scores determinized deals: for each deal, each seat's hand is rebuilt backwards
turn by turn (cards played and laid go back in -- laid ones by the deal's own face-down cards --,
cards drawn come out, picked at random among the hand, as the deal cannot say which they were)
and each of its turns is scored under the model: probability 1 when the heuristic bot holding
that hand would have done what the seat did, ``EPS`` when not, mixed with a uniformly random
player in the share ``noise[q]`` (``opponents.TableMemory``: a random seat stays possible).
``pool`` draws ``POOL`` deals and resamples them by these weights (sampling importance
resampling); the advisor's rounds and its exact endgame draw their deals from the pool.
``pool_sis`` builds the deals seat by seat instead, and ``pool_exact`` keeps only hands that
reproduce every recorded turn (the limit ``EPS`` -> 0; docs/solver-passes.md, fifteenth pass).

Everything read is the seat's own views, in order (``tests/solver/test_gog_history.py``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from p2pcards.games.go_out_girl.game import Game

from .determinize import ViewInfo
from .model import (
    BARRIER,
    DAMAGE,
    GUARD,
    GUARD_A,
    KIRA,
    KYOKO,
    NERAI,
    NIWA,
    PASS,
    REVEAL,
    SATSUKI,
    SHIAN,
    TOYOKO,
    TURN,
    WITHDRAW,
    Battle,
    empty_counts,
)
from .policy import heuristic

EPS = 0.05  # the model's chance of a move the heuristic would not make (the floor)
POOL = 32  # deals drawn per decision, resampled by weight
SIS = False  # build the deals seat by seat instead (pool_sis)
SIS_DEALS = 8  # deals built per decision
SIS_TRIES = 24  # candidate hands per seat per deal
MAX_NOISE = 1.0  # infer only from the seats whose chance of playing at random is at most this
EXACT_TRIES = 200  # pool_exact: candidate hands per seat per deal, at most
EXACT_SINCE_DRAW = False  # mismatches: only the turns since the seat's last draw (no guess)
FRESH = False  # the advisor builds a new deal seat by seat for every round (no deal repeated)
UNKNOWN = "?"  # a pile that cannot be rebuilt (its number or count is ambiguous)
BATTLE_PHASES = ("turn", "lead", "damage", "discard", "give")


@dataclass
class Turn:
    """One turn of another seat, as rebuilt from two successive views."""
    seat: int
    kind: str  # "P" play, "G" Guard, "S" pass, "W" withdraw, "B" barrier, "?" not scored
    top: tuple | None | str  # the pile it faced (number, count, damage, owner), None: it led
    damage: int  # its damage before the turn
    revealed: bool  # its character was face up before the turn
    reveals: bool  # it turned its character up this turn
    action: tuple | None = None  # a play, as a model action
    out: list[int] = field(default_factory=empty_counts)  # known cards that left its hand
    laid: list[int] = field(default_factory=list)  # positions in dmg{q} of the cards it laid
    entered: int = 0  # cards that entered its hand (drawn)

    @property
    def scored(self) -> bool:
        return self.kind != "?" and self.top != UNKNOWN


@dataclass
class _Snap:
    battle: int
    phase: str
    start: int
    zone: list[str]
    values: list[int | None]
    damage: list[int]
    alive: list[bool]
    revealed: list[int | None]
    top: tuple | None


def _snap(view: Game) -> _Snap:
    b = view._b
    top = view.top
    return _Snap(view.battle, view.phase, view.start, list(view.zone_of[:b]),
                 list(view.values[:b]), list(view.damage), list(view.alive),
                 list(view.revealed),
                 None if top is None else (top["number"], top["count"], top["damage"],
                                           top["owner"], tuple(top["slots"])))


class BattleRecord:
    """One seat's record of the others' turns in the current battle, from its own views."""

    def __init__(self, me: int, n: int) -> None:
        self.me = me
        self.n = n
        self.battle: int | None = None
        self.prev: _Snap | None = None
        self.turns: list[list[Turn]] = [[] for _ in range(n)]
        self.broken = 0  # intervals that could not be rebuilt (diagnostics)

    def facts(self) -> int:
        return sum(t.scored for ts in self.turns for t in ts)

    def observe(self, view: Game) -> None:
        """Read the turns played since the last view this seat was handed."""
        if view.viewer != self.me:
            return
        if view.battle != self.battle:
            self.battle = view.battle
            self.prev = None
            self.turns = [[] for _ in range(self.n)]
        if view.phase != "choose" and view.phase not in BATTLE_PHASES:
            return
        snap = _snap(view)
        if self.prev is not None:
            try:
                self._interval(self.prev, snap, view)
            except (_Broken, KeyError, IndexError, ValueError):  # a view it cannot follow
                self.broken += 1
                self.turns = [[] for _ in range(self.n)]
        self.prev = snap

    # ---- rebuilding an interval ---------------------------------------------------------------
    def _interval(self, p: _Snap, v: _Snap, view: Game) -> None:
        n, me = self.n, self.me
        number = view.number
        out = [empty_counts() for _ in range(n)]
        moved: list[list[int]] = [[] for _ in range(n)]  # slots to the field or discard (not Guards)
        guards = [0] * n
        laid: list[list[int]] = [[] for _ in range(n)]
        entered = [0] * n
        bad: set[int] = set()
        niwas: list[int] = []
        dmgpos = [{s: i for i, s in enumerate(view.zones[f"dmg{q}"])} for q in range(n)]
        for s in range(len(v.zone)):
            a, c = p.zone[s], v.zone[s]
            if a == c:
                continue
            if a.startswith("hand"):
                q = int(a[4:])
                if c in ("field", "discard"):
                    num = number(v.values[s])  # type: ignore[arg-type]
                    out[q][num] += 1
                    if c == "discard" and num == GUARD:
                        guards[q] += 1
                    else:
                        moved[q].append(s)
                elif c == f"dmg{q}":
                    laid[q].append(dmgpos[q][s])
                elif c.startswith("hand"):
                    bad.add(q)  # a gift (Let's Talk): its card is hidden
                    bad.add(int(c[4:]))
                else:
                    raise _Broken
            elif a == "deck":
                if c.startswith("hand"):
                    entered[int(c[4:])] += 1
                elif c.startswith("dmg"):
                    q = int(c[3:])
                    entered[q] += 1
                    laid[q].append(dmgpos[q][s])
                elif c == "discard":
                    niwas.append(s)  # drawn and discarded at once (Awakening)
                else:
                    raise _Broken
            elif a == "field" and c == "discard":
                continue
            else:
                raise _Broken  # a reshuffle (the discard pile became the deck)
        if niwas:
            who = [q for q in range(n) if v.damage[q] > p.damage[q] and v.revealed[q] == NIWA]
            if len(who) != 1:
                raise _Broken
            for s in niwas:
                entered[who[0]] += 1
                out[who[0]][number(v.values[s])] += 1  # type: ignore[arg-type]
        # who had a turn: every seat in the battle, from the one after me (or the start player)
        # round to me, when it is my turn again
        if v.phase != "turn" or (p.phase == "turn" and p.revealed[me] is None
                                 and v.revealed[me] is not None and p.zone == v.zone):
            if any(out[q] != empty_counts() or laid[q] or entered[q] or guards[q]
                   for q in range(n) if q != me):
                raise _Broken
            return
        if p.phase == "choose":
            first = v.start
            top: tuple | None | str = None
        else:
            first = (me + 1) % n
            top = None if p.top is None else p.top[:4]
            if p.phase in ("turn", "lead") and moved[me]:
                top = self._pile(view, v, me, moved[me], top, p)
        order = []
        q = first
        for _ in range(n):
            if q == me:
                break
            if p.alive[q]:
                order.append(q)
            q = (q + 1) % n
        for q in order:
            if top is not None and top != UNKNOWN and top[3] == q:  # type: ignore[index]
                top = None  # everyone else passed: the field was cleared and q leads
            dd = v.damage[q] - p.damage[q]
            rev_before = p.revealed[q] is not None
            reveals = not rev_before and v.revealed[q] is not None
            t = Turn(q, "?", top, p.damage[q], rev_before, reveals, out=out[q],
                     laid=laid[q], entered=entered[q])
            if not v.alive[q]:
                t.kind = "W"
            elif dd > 0:
                t.kind = "S"
                if moved[q] and v.revealed[q] != NIWA:
                    bad.add(q)  # discards with a pass: only Niwa's Awakening makes them
            elif guards[q]:
                t.kind = "G" if not moved[q] else "?"
            elif moved[q]:
                if v.revealed[q] in (KIRA, SHIAN):
                    t.kind = "?"  # a barrier's discards or a Reset and a lead: not scored
                    top = UNKNOWN
                else:
                    pile = self._pile(view, v, q, moved[q], top, p)
                    t.kind = "?" if pile == UNKNOWN else "P"
                    t.action = None if pile == UNKNOWN else ("P", pile[0], pile[1],  # type: ignore[index]
                                                             _used(view, v, moved[q]))
                    top = pile
            else:
                bad.add(q)  # no trace of its turn: something was missed
            if q in bad:
                self.turns[q] = []
            else:
                self.turns[q].append(t)
        if top is not None and top != UNKNOWN and top[3] == me:  # type: ignore[index]
            top = None
        if top != UNKNOWN:
            now = None if v.top is None else v.top[:4]
            if (top is None) != (now is None) or (top is not None and now is not None
                                                  and top[:2] != now[:2]):  # type: ignore[index]
                raise _Broken

    def _pile(self, view: Game, v: _Snap, q: int, slots: list[int], faced, p: _Snap):
        """(as-number, count, damage, owner) of the pile ``slots`` that seat q played onto
        ``faced``, or ``UNKNOWN``."""
        if v.top is not None and set(v.top[4]) == set(slots):
            return v.top[:4]
        if faced == UNKNOWN:
            return UNKNOWN
        nums = [view.number(v.values[s]) for s in slots]  # type: ignore[arg-type]
        ch = v.revealed[q]
        count = len(slots)
        if ch == KYOKO and count == 1:
            if faced is None:
                return UNKNOWN
            count = faced[1]
        if ch == NERAI and set(nums) <= {4, 5} and len(set(nums)) == 1:
            if faced is None or faced[0] < nums[0]:
                return UNKNOWN  # a plain group or the same as 6s: both could be
            num = 6
        elif len(set(nums)) == 1:
            num = nums[0]
            if num == 1 and ch == TOYOKO:
                if faced is None:
                    return UNKNOWN
                num = 14
        elif ch == NERAI and set(nums) <= {4, 5, 6}:
            num = 6
        else:
            return UNKNOWN
        dmg = DAMAGE[num] + (1 if ch == SATSUKI and num != 13 else 0)
        return (num, count, dmg, q)

    # ---- scoring deals ------------------------------------------------------------------------
    def log_weight(self, world: Battle, dmg: list[list[int]], noise: list[float] | None,
                   rng: random.Random) -> float:
        """log P(the others' recorded turns | this deal), under the heuristic model mixed with a
        random player (``noise[q]``), floor ``EPS``."""
        lw = 0.0
        for q in range(self.n):
            if q != self.me and (noise is None or noise[q] <= MAX_NOISE):
                lw += self.seat_log_weight(q, world.hands[q], dmg[q], world.char[q],
                                           noise[q] if noise is not None else 0.0, rng)
        return lw

    def seat_log_weight(self, q: int, hand: list[int], dmg: list[int], char: int, noise: float,
                        rng: random.Random) -> float:
        """Seat q's part of ``log_weight``: its hand and face-down damage in a deal, rebuilt
        backwards over its recorded turns."""
        turns = self.turns[q]
        if not any(t.scored for t in turns):
            return 0.0
        lw = 0.0
        for t, h in _back(turns, hand, dmg, rng):
            if t.scored:
                lw += math.log(_likelihood(self.n, char, q, h, t, noise))
        return lw

    def mismatches(self, q: int, hand: list[int], dmg: list[int], char: int,
                   rng: random.Random, stop: int | None = None) -> int:
        """How many of seat q's recorded turns the heuristic bot would not have made holding
        ``hand`` (rebuilt backwards as in ``seat_log_weight``), counting stopped past ``stop``:
        ``seat_log_weight`` in the limit ``EPS`` -> 0, with no random player. With
        ``EXACT_SINCE_DRAW`` only the turns since the seat last drew: before a draw the hand is
        rebuilt by guessing which cards were drawn, and a wrong guess can fail the true hand."""
        turns = self.turns[q]
        miss = 0
        for t, h in _back(turns, hand, dmg, rng, since_draw=EXACT_SINCE_DRAW):
            if t.scored and _likelihood(self.n, char, q, h, t, 0.0) < 1.0:
                miss += 1
                if stop is not None and miss > stop:
                    return miss
        return miss

    def pool(self, info: ViewInfo, rng: random.Random, noise: list[float] | None = None,
             size: int = POOL) -> tuple[list[Battle], list[float]]:
        """``size`` deals consistent with the view and their normalised weights."""
        if SIS:
            return self.pool_sis(info, rng, noise)
        deals, lws = [], []
        for _ in range(size):
            b, dmg = info.sample_with_damage(rng)
            deals.append(b)
            lws.append(self.log_weight(b, dmg, noise, rng))
        return deals, _normalise(lws)

    def pool_sis(self, info: ViewInfo, rng: random.Random, noise: list[float] | None = None,
                 deals: int | None = None, tries: int | None = None, exact: bool = False
                 ) -> tuple[list[Battle], list[float]]:
        """Deals built seat by seat (sequential importance resampling): for each other seat
        with recorded turns, ``tries`` candidate hands (with its face-down damage and, if face
        down, its character) are drawn from the cards still unplaced, and one is kept with
        chance proportional to the seat's weight; the rest of the cards fill the other holes at
        random. Each seat's evidence then picks among its own candidates, instead of one weight
        for a whole deal (whose best of a few dozen deals is rarely good for every seat at
        once). Equal weights.

        ``exact`` (``pool_exact``): the limit ``EPS`` -> 0 -- a seat's hand is drawn until one
        reproduces every recorded turn of the seat (``mismatches`` 0), at most ``tries`` hands;
        if none does, the first with the fewest mismatches is kept."""
        deals = SIS_DEALS if deals is None else deals
        tries = (EXACT_TRIES if exact else SIS_TRIES) if tries is None else tries
        v = info.view
        n = self.n
        dmg_holes = [sum(1 for s in v.zones[f"dmg{q}"] if v.values[s] is None) for q in range(n)]
        deck_holes = sum(1 for x in info.deck if x is None)
        seats = [q for q in range(n) if q != self.me and any(t.scored for t in self.turns[q])
                 and (noise is None or noise[q] <= MAX_NOISE)]
        out = []
        for _ in range(deals):
            rest = info.unseen[:]
            rng.shuffle(rest)
            hands: dict[int, list[int]] = {}
            dmgs: dict[int, list[int]] = {}
            chars: dict[int, int] = {}
            for q in seats:
                nh, nd = info.hand_holes[q], dmg_holes[q]
                if nh + nd > len(rest):
                    break
                cands, lws = [], []
                best = None  # exact: (mismatches, idx, ch) of the best hand so far
                for _ in range(tries):
                    idx = rng.sample(range(len(rest)), nh + nd)
                    ch = (info.char_known[q] if info.char_known[q] is not None
                          else rng.choice(info.char_options[q]))
                    h = info.hand_known[q][:]
                    for i in idx[:nh]:
                        h[rest[i]] += 1
                    d = [rest[i] for i in idx[nh:]]
                    if exact:
                        m = self.mismatches(q, h, d, ch, rng,
                                            None if best is None else best[0] - 1)
                        if best is None or m < best[0]:
                            best = (m, idx, ch)
                        if m == 0:
                            break
                        continue
                    nz = noise[q] if noise is not None else 0.0
                    lws.append(self.seat_log_weight(q, h, d, ch, nz, rng))
                    cands.append((idx, ch))
                if exact:
                    assert best is not None
                    _, idx, ch = best
                else:
                    idx, ch = rng.choices(cands, _normalise(lws))[0]
                hands[q] = [rest[i] for i in idx[:nh]]
                dmgs[q] = [rest[i] for i in idx[nh:]]
                if info.char_known[q] is None:
                    chars[q] = ch
                for i in sorted(idx, reverse=True):
                    rest.pop(i)
            order: list[int] = []
            for q in range(n):
                order += hands[q] if q in hands else [rest.pop() for _ in range(info.hand_holes[q])]
            order += [rest.pop() for _ in range(deck_holes)]
            for q in range(n):
                order += dmgs[q] if q in dmgs else [rest.pop() for _ in range(dmg_holes[q])]
            out.append(info.sample_with_damage(rng, order, chars)[0])
        return out, [1 / len(out)] * len(out)


    def pool_exact(self, info: ViewInfo, rng: random.Random, noise: list[float] | None = None,
                   deals: int | None = None, tries: int | None = None
                   ) -> tuple[list[Battle], list[float]]:
        """``pool_sis`` in the limit ``EPS`` -> 0: each seat's hand one that reproduces every
        recorded turn of the seat (at most ``tries``, ``EXACT_TRIES``, drawn; else the fewest
        mismatches)."""
        return self.pool_sis(info, rng, noise, deals, tries, exact=True)


def _normalise(lws: list[float]) -> list[float]:
    top = max(lws)
    ws = [math.exp(x - top) for x in lws]
    z = sum(ws)
    return [w / z for w in ws]


class _Broken(Exception):
    pass


def _used(view: Game, v: _Snap, slots: list[int]) -> tuple:
    c: dict[int, int] = {}
    for s in slots:
        k = view.number(v.values[s])  # type: ignore[arg-type]
        c[k] = c.get(k, 0) + 1
    return tuple(sorted(c.items()))


def _likelihood(n: int, char: int, q: int, hand: list[int], t: Turn, noise: float) -> float:
    """P(seat q, playing ``char``, made turn t | it held ``hand``): the heuristic bot's choice
    (1, or ``EPS``), mixed with a uniform random player in the share ``noise``."""
    b = Battle(n)
    b.hands[q] = hand
    b.size[q] = sum(hand)
    b.char[q] = char
    b.revealed[q] = t.revealed
    b.damage[q] = t.damage
    b.top = t.top  # type: ignore[assignment]
    b.turn = q
    b.phase = TURN
    a = heuristic(b)
    match = True
    if a == REVEAL:
        if t.reveals or t.kind in ("W", "B"):
            b.revealed[q] = True
            a = heuristic(b)
        else:
            match = False
    elif t.reveals and t.kind not in ("W", "B"):
        match = False
    if match:
        k = t.kind
        if k == "P":
            match = (a[0] == "P" and a[1] == t.action[1] and a[2] == t.action[2]  # type: ignore[index]
                     and tuple(sorted(a[3])) == t.action[3])  # type: ignore[index]
        else:
            match = a == {"G": GUARD_A, "S": PASS, "W": WITHDRAW, "B": BARRIER}[k]
    p = 1.0 if match else EPS
    if noise > 0:
        legal = b.legal()
        p = (1 - noise) * p + noise / max(1, len(legal))
    return p


__all__ = ["BattleRecord", "Turn"]


def _back(turns: list, hand: list[int], dmg: list[int], rng: random.Random,
          since_draw: bool = False):
    """Seat's recorded turns from the last back, each with the hand it held then, rebuilt from
    ``hand`` (played and laid cards back in, the deal's face-down cards for the laid ones; drawn
    cards out, picked at random: the deal cannot say which they were). With ``since_draw``, stop
    at the last turn that drew a card."""
    h = hand[:]
    for t in reversed(turns):
        if since_draw and t.entered:
            return
        for k in range(14):
            h[k] += t.out[k]
        for i in t.laid:
            if i < len(dmg):
                h[dmg[i]] += 1
        for _ in range(t.entered):
            total = sum(h)
            if total <= 0:
                break
            x = rng.randrange(total)
            for k in range(14):
                x -= h[k]
                if x < 0:
                    h[k] -= 1
                    break
        yield t, h
