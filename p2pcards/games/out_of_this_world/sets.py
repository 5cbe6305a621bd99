"""Sets of Items: which cards meet a set's requirements (a Foe's vulnerability, the types of an
Equip or a Pass). Shared by the rules, the bots and the solver."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .data import WILD


def fits(item_type: str, req: str) -> bool:
    """Whether an Item of ``item_type`` meets one requirement: ``"any"`` or a type, which a wild
    Item meets too."""
    return req == "any" or item_type in (req, WILD)


def matching_sets(counts: Mapping[int, int], reqs: Sequence[str],
                  type_of: Callable[[int], str]) -> list[tuple[int, ...]]:
    """Every multiset of card classes (sorted tuples, at most ``counts[c]`` of class ``c``) that
    covers the requirements one card each; ``type_of(c)`` is class ``c``'s Item type."""
    order = sorted(reqs, key=lambda r: (r == "any", r))
    cids = sorted(c for c, k in counts.items() if k > 0)
    out: set[tuple[int, ...]] = set()
    used: dict[int, int] = {}
    chosen: list[int] = []

    def dfs(i: int, floor: int) -> None:
        if i == len(order):
            out.add(tuple(sorted(chosen)))
            return
        r = order[i]
        start = floor if i > 0 and order[i - 1] == r else 0  # equal requirements: no repeats
        for k in range(start, len(cids)):
            c = cids[k]
            if used.get(c, 0) >= counts[c] or not fits(type_of(c), r):
                continue
            used[c] = used.get(c, 0) + 1
            chosen.append(c)
            dfs(i + 1, k)
            chosen.pop()
            used[c] -= 1

    dfs(0, 0)
    return sorted(out)


def same_type(types: Sequence[str | None]) -> bool:
    """Whether Items of these types can make a same-type set (wild Items count as any type)."""
    return len({t for t in types if t != WILD}) <= 1
