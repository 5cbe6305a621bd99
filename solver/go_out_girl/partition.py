"""The fewest plays that empty a hand, under each character's ability.

A *play group* is a set of cards that leaves the hand in one play:

* any number of cards of one number (1..13), played as that number;
* one Guard (a Guard is always played alone);
* Nerai (Aiming): any mix of 4s, 5s and 6s with at least one 4 or 5, played as 6s;
* Toyoko (Holy Sword): any number of 1s, played as 14s;
* Shian (Reset): three cards of 2s and 3s in any combination (a Reset needs a tableau pile,
  which the partition does not ask about);
* Kyoko (United Mind, once revealed): one card per play, nothing else.

``partition`` solves the covering exactly with OR-Tools CP-SAT over the candidate groups (one
integer variable per group: how many times it is used), minimising the number of plays and,
among the fewest, preferring strong plays (higher as-numbers, Resets). ``min_plays_fast`` is a
closed form used inside playouts; ``min_plays_brute`` enumerates every partition (memoised on
the cards left) for verification. The three agree (``tests/solver/test_partition.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .model import GUARD, KYOKO, NERAI, SHIAN, TOYOKO, card_text

ABILITIES = (None, NERAI, TOYOKO, SHIAN, KYOKO)  # characters whose ability changes the groups
_W = 4096  # weight of one play in the objective; the tie-break stays below it


@dataclass(frozen=True)
class Group:
    cards: tuple[tuple[int, int], ...]  # (number, how many), number 0 = Guard
    as_number: int  # what it is played as (0 for a Guard, -1 for a Reset)
    kind: str  # "play", "guard", "reset"

    @property
    def size(self) -> int:
        return sum(k for _, k in self.cards)

    def text(self) -> str:
        cards = " ".join(card_text(n) for n, k in self.cards for _ in range(k))
        if self.kind == "reset":
            return f"Reset {cards}"
        if self.kind == "play" and any(n != self.as_number for n, _ in self.cards):
            return f"{cards} as {self.as_number}"
        return cards

    def strength_cost(self) -> int:
        """Tie-break among partitions with the fewest plays: lower is stronger."""
        if self.kind == "reset":
            return 0
        if self.kind == "guard":
            return 1
        return 15 - self.as_number


def ability_of(char: int | None) -> int | None:
    return char if char in ABILITIES else None


def candidate_groups(counts: list[int] | tuple[int, ...], ability: int | None = None) -> list[Group]:
    ability = ability_of(ability)
    gs: list[Group] = []
    if ability == KYOKO:
        for n in range(1, 14):
            if counts[n]:
                gs.append(Group(((n, 1),), n, "play"))
    else:
        for n in range(1, 14):
            for k in range(1, counts[n] + 1):
                gs.append(Group(((n, k),), n, "play"))
    if counts[GUARD]:
        gs.append(Group(((GUARD, 1),), 0, "guard"))
    if ability == NERAI:
        for a in range(counts[4] + 1):
            for b in range(counts[5] + 1):
                if a + b == 0:
                    continue
                for c in range(counts[6] + 1):
                    cards = tuple((n, x) for n, x in ((4, a), (5, b), (6, c)) if x)
                    gs.append(Group(cards, 6, "play"))
    elif ability == TOYOKO:
        for k in range(1, counts[1] + 1):
            gs.append(Group(((1, k),), 14, "play"))
    elif ability == SHIAN:
        for a in range(4):
            if a <= counts[2] and 3 - a <= counts[3]:
                gs.append(Group(tuple((n, x) for n, x in ((2, a), (3, 3 - a)) if x), -1, "reset"))
    return gs


@dataclass
class Partition:
    plays: int
    groups: list[Group]

    def text(self) -> str:
        return " ".join(f"[{g.text()}]" for g in self.groups)


RETRY_TIME_LIMIT = 60.0  # a second try when the first limit ran out (a loaded machine): wall clock


def partition(counts: list[int] | tuple[int, ...], ability: int | None = None,
              *, time_limit: float = 2.0) -> Partition:
    """The fewest plays that empty the hand ``counts`` (CP-SAT, one worker), and the groups. The
    limit is wall-clock time, so under load a hand can run out of it: the solve is then tried
    once more on ``RETRY_TIME_LIMIT`` (two bot matches under measurement once stopped here)."""
    from ortools.sat.python import cp_model

    total = sum(counts)
    if total == 0:
        return Partition(0, [])
    gs = candidate_groups(counts, ability)
    m = cp_model.CpModel()
    xs = []
    for g in gs:
        ub = min(counts[n] // k for n, k in g.cards)
        xs.append(m.new_int_var(0, ub, ""))
    for n in range(14):
        if counts[n]:
            terms = [(x, k) for g, x in zip(gs, xs, strict=True) for nn, k in g.cards if nn == n]
            m.add(sum(k * x for x, k in terms) == counts[n])
    m.minimize(sum((_W + g.strength_cost()) * x for g, x in zip(gs, xs, strict=True)))
    for limit in (time_limit, max(time_limit, RETRY_TIME_LIMIT)):
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        # CP-SAT's own Ctrl-C catcher resets SIGINT to the default action when a solve ends:
        # Ctrl-C then killed p2pcards with no message, the terminal left in the alternate screen
        solver.parameters.catch_sigint_signal = False
        solver.parameters.max_time_in_seconds = limit
        status = solver.solve(m)
        if status == cp_model.OPTIMAL:
            break
    if status != cp_model.OPTIMAL:
        raise RuntimeError(f"CP-SAT did not prove the partition optimal ({solver.status_name(status)})")
    groups: list[Group] = []
    for g, x in zip(gs, xs, strict=True):
        groups += [g] * solver.value(x)
    groups.sort(key=lambda g: (g.kind != "play", g.as_number, g.size))
    return Partition(len(groups), groups)


def min_plays_brute(counts: list[int] | tuple[int, ...], ability: int | None = None) -> int:
    """Every partition into play groups, enumerated (the group holding the lowest card left,
    then the rest), memoised on the cards left: the fewest plays."""
    ability = ability_of(ability)
    all_groups = candidate_groups(counts, ability)

    @cache
    def best(rest: tuple[int, ...]) -> int:
        if not any(rest):
            return 0
        low = next(n for n in range(14) if rest[n])
        out = 1 << 30
        for g in all_groups:
            if all(n != low for n, _ in g.cards):
                continue
            if any(rest[n] < k for n, k in g.cards):
                continue
            nxt = list(rest)
            for n, k in g.cards:
                nxt[n] -= k
            out = min(out, 1 + best(tuple(nxt)))
        return out

    return best(tuple(counts))


def min_plays_fast(h: list[int] | tuple[int, ...], ability: int | None = None) -> int:
    """The same optimum in closed form (for playouts): one play per number, all Guards singly;
    Nerai plays every 4/5/6 at once; Kyoko one card per play; Shian tries each number of
    Resets."""
    if ability == KYOKO:
        return sum(h)
    plays = h[GUARD]
    for n in range(1, 14):
        if h[n]:
            plays += 1
    if ability == NERAI:
        k = (h[4] > 0) + (h[5] > 0) + (h[6] > 0)
        if k > 1:
            plays -= k - 1
    elif ability == SHIAN:
        c2, c3 = h[2], h[3]
        base = (c2 > 0) + (c3 > 0)
        best = base
        for r in range(1, (c2 + c3) // 3 + 1):
            # r Resets take 3r cards; use as many 2s as helps empty a number
            for a in range(max(0, 3 * r - c3), min(c2, 3 * r) + 1):
                v = r + (c2 - a > 0) + (c3 - (3 * r - a) > 0)
                if v < best:
                    best = v
        plays += best - base
    return plays
