"""Out Of This World on screen: Passes grouped by the card passed, Equips by the card kept,
Defeats by the Foe; the hand sorted by type and coloured; the table-talk rule shown."""

from __future__ import annotations

from rich.text import Text

from ...engine import Action, GameState
from ...games.out_of_this_world.data import default
from ..present import Presenter

COLOURS = ["cyan", "green", "yellow", "magenta", "blue", "red"]
ORDER = {"character": 0, "starter": 0, "foes": 0, "take": 1, "defeat": 2, "equip": 3, "pass": 4,
         "spend": 5, "give": 6, "discard": 6, "done": 8, "leg_it": 9}
PHASES = {"characters": "Choose your character and its side",
          "deal": "The deal: lay out the Foes you were dealt",
          "gear": "Gear Up!", "care": "Taking Care of Things"}


def type_colour(t: str | None) -> str:
    keys = list(default().type_names)
    if t in keys:
        return COLOURS[keys.index(t) % len(COLOURS)]
    return "bold white"  # wilds


class OutOfThisWorld(Presenter):
    game = "out-of-this-world"
    title = "Out Of This World"
    example = "take 2"
    phases = {"characters": "choosing a character", "deal": "laying out dealt Foes",
              "gear": "Gear Up!", "go": "Go For It!: taking a card, then one action",
              "care": "Taking Care of Things: discarding"}
    verbs = {"take": "take", "leg_it": "leg", "pass": "pass", "equip": "equip",
             "defeat": "defeat", "spend": "spend", "done": "done", "discard": "discard",
             "give": "give", "character": "play", "foes": "foes", "starter": "starter"}

    def _vals(self, view: GameState, slots) -> list[str]:
        out = []
        for s in slots:
            c = view.card(s)  # type: ignore[attr-defined]
            out.append("?" if c is None else str(c.value) if c.is_item else c.name.lower())
        return sorted(out)

    def _name(self, view: GameState, slot: int) -> str:
        return view.card_name(view.values[slot])

    def sort_key(self, view: GameState, a: Action) -> tuple:
        return (ORDER.get(a.kind, 7),)

    def words(self, view: GameState, a: Action) -> tuple[str, ...]:
        k = a.kind
        if k == "take":
            return ("take", str(a.stack + 1))
        if k == "equip":
            return ("equip", *self._vals(view, a.slots))
        if k == "pass":
            return ("pass", *self._vals(view, a.slots), "to", str(a.to + 1))
        if k == "defeat":
            c = view.card(a.foe)  # type: ignore[attr-defined]
            return ("defeat", *(c.name.lower().split() if c else ["?"]), *self._vals(view, a.slots))
        if k in ("discard", "give"):
            return (k, *self._vals(view, [a.slot]))
        return super().words(view, a)

    def group(self, view: GameState, a: Action) -> str | None:
        k = a.kind
        if k == "pass":
            return f"Pass {self._name(view, a.give)} to a teammate (choose the set and who)"
        if k == "equip":
            return f"Equip {self._name(view, a.keep)} (choose the set)"
        if k == "defeat":
            c = view.card(a.foe)  # type: ignore[attr-defined]
            return f"Defeat {c.name if c else '?'} (choose the Items)"
        if k == "spend":
            c = view.card(a.item)  # type: ignore[attr-defined]
            return f"Spend {c.name if c else '?'} (choose its target)"
        return None

    def question(self, view: GameState, seat: int, legal, trigger: str | None) -> str:
        phase = getattr(view, "phase", "")
        kinds = {a.kind for a in legal}
        if phase in PHASES and phase != "care":
            return f"{PHASES[phase]}."
        if kinds <= {"discard"}:
            return f"{trigger.rstrip('.') + ': ' if trigger else ''}your hand is over the limit — " \
                   "which card do you discard?"
        if kinds <= {"give"}:
            return f"{trigger.rstrip('.') + ': ' if trigger else ''}which card do you give, and to whom?"
        if "take" in kinds:
            return "Go For It!: take a top card from a stack (or Leg it!)."
        if kinds & {"pass", "equip", "defeat", "spend"}:
            return "Go For It!: one action — Pass, Equip, Defeat, Spend — or none."
        return super().question(view, seat, legal, trigger)

    def table_talk(self, view: GameState, seat: int) -> str | None:
        """The rule in a few words for the chat panel (three rows at most): the game's refusal
        ("During Go For It! only the Vocal Player may talk, and that is alice now; you may talk
        on your own turn (table talk is free only on Easier, ...)") lost its end there (ux21)."""
        if view.chat_refusal(seat) is None:
            return None
        return (f"only the Vocal Player, {view.pname(view.turn)}, talks in "  # type: ignore[attr-defined]
                "Go For It!; you on your turn")

    def hand(self, view: GameState, seat: int) -> Text:
        zone = view.zones.get(f"hand{seat}", [])
        cards = [view.card(s) for s in zone if view.values[s] is not None]  # type: ignore[attr-defined]
        cards.sort(key=lambda c: (not c.is_item, c.type or "~", c.value, c.name))
        out = Text()
        d = default()
        for c in cards:
            if out:
                out.append("  ")
            if c.is_item:
                out.append(f"{c.name}\u00a0".replace(" ", "\u00a0"), style=type_colour(c.type))
                out.append(f"{d.type_name(c.type)}\u00a0{c.value}", style=f"bold {type_colour(c.type)}")
            else:
                out.append(f"{c.name} (Foe)".replace(" ", "\u00a0"), style="bold red")
        return out or Text("(empty)")

    def _all(self):
        d = default()
        cards = [*d.items, *d.foes, *d.difficult_foes]
        for a in d.adventures.values():
            cards.extend(a.cards)
        return cards

    def card_names(self) -> list[str]:
        seen: dict[str, None] = {}
        for c in self._all():
            seen.setdefault(c.name, None)
        for ch in default().characters:
            for s in ch.sides:
                seen.setdefault(s, None)
        return list(seen)

    def card_text(self, name: str) -> str | None:
        d = default()
        low = name.strip().lower()
        for c in self._all():
            if c.name.lower() == low:
                if c.is_item:
                    head = f"{c.name} — {d.type_name(c.type)} {c.value}"
                else:
                    kind = "Difficult Foe" if c.difficult else "Foe"
                    head = f"{c.name} — {kind}, defeated with: {' + '.join(c.vulnerability)}"
                return head + (f". {c.text}" if c.text else "")
        for ch in d.characters:
            if low in (s.lower() for s in ch.sides) or low == ch.ability.lower():
                return f"{' / '.join(ch.sides)} — {ch.ability}: {ch.text}"
        return None

    def rules(self) -> str:
        return RULES


RULES = """Out Of This World — how a round goes (cooperative)

Goal: the adventure's goal (e.g. every player has 30 points equipped) before Time runs out.
1. Set-up: everyone picks a character and side; each player holds 2 Items (Foes dealt are laid out).
2. Gear Up!: five stacks of four cards, their tops face up.
3. Go For It!, from the Vocal Player, clockwise. On your turn:
   take the top card of a stack (a visible Foe must be taken), then ONE action:
     Pass  — a pair of the same type: give one to a teammate, discard the other;
     Equip — three of the same type: keep one in front of you (its points count);
     Defeat — discard Items matching a Foe's weaknesses to remove it;
     Spend — use an equipped Item's SPEND power;  or no action.
   Or Leg it!: discard your whole hand instead of the whole turn.
4. Taking Care of Things: victory check; Foes' effects; lose Time equal to the most Foes in
   front of one player; discard down to 5; the Vocal Player token passes left.
Table talk: during Go For It! only the Vocal Player may talk (free on Easier).

Keys: a number picks, Enter takes, Esc goes back; type 'take 3', 'equip 3 5 7',
'pass 3 3 to 2'; 'hint', 'card Alley Cat', 'rules', 'say ...', 'help'."""


PRESENTER = OutOfThisWorld()
