"""Asking a human for a private arrangement (``Shuffle(slots, by=seat)`` when the game says the
order is theirs to choose, e.g. Manipulate's "put them back in an order of your choice")."""

from __future__ import annotations

from ..engine import GameState
from .text import typed_number


def question(view: GameState, slots: tuple[int, ...], prompt: str) -> list[str]:
    lines = [prompt]
    for i, s in enumerate(slots, 1):
        lines.append(f"  {i}. {view.card_name(view.values[s])}")
    lines.append(f"Type the cards' numbers in their new order, position 1 first "
                 f"(e.g. {' '.join(str(i) for i in range(len(slots), 0, -1))}); cards you leave "
                 f"out follow in their current order, and Enter keeps them as they are.")
    return lines


def parse(text: str, slots: tuple[int, ...]) -> list[int] | str:
    """The slots in their new order, or a one-line reason the answer is not an order."""
    words = text.replace(",", " ").split()
    if not words:
        return list(slots)
    k = len(slots)
    picks = [n for n in map(typed_number, words) if n is not None]
    if len(picks) != len(words) or len(set(picks)) != len(picks) or \
            not all(1 <= i <= k for i in picks):
        return f"give numbers from 1 to {k}, each at most once, e.g. {' '.join(str(i) for i in range(k, 0, -1))}"
    order = picks + [i for i in range(1, k + 1) if i not in picks]
    return [slots[i - 1] for i in order]
