"""Asking a human for a private arrangement (``Shuffle(slots, by=seat)`` when the game says the
order is theirs to choose, e.g. Manipulate's "put them back in an order of your choice")."""

from __future__ import annotations

from ..engine import GameState


def question(view: GameState, slots: tuple[int, ...], prompt: str) -> list[str]:
    lines = [prompt]
    for i, s in enumerate(slots, 1):
        lines.append(f"  {i}. {view.card_name(view.values[s])}")
    lines.append(f"Type the cards' numbers in their new order, position 1 first "
                 f"(e.g. {' '.join(str(i) for i in range(len(slots), 0, -1))}), or press Enter "
                 f"to keep them as they are.")
    return lines


def parse(text: str, slots: tuple[int, ...]) -> list[int] | str:
    """The slots in their new order, or a one-line reason the answer is not an order."""
    words = text.replace(",", " ").split()
    if not words:
        return list(slots)
    k = len(slots)
    if not all(w.isdigit() for w in words) or sorted(int(w) for w in words) != list(range(1, k + 1)):
        return f"give each number from 1 to {k} once, e.g. {' '.join(str(i) for i in range(1, k + 1))}"
    return [slots[int(w) - 1] for w in words]
