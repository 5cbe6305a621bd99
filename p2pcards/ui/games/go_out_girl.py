"""Go Out Girl on screen: plays sorted and grouped by the number they make, hand cards sorted
with their damage icons, questions that name the tableau they answer."""

from __future__ import annotations

from rich.text import Text

from ...engine import Action, GameState
from ...games.go_out_girl.data import default
from ..present import Presenter

GUARD = 0

ORDER = {"reveal": 0, "play": 1, "reset": 2, "guard": 3, "barrier": 4, "pass": 5, "withdraw": 6}


def colour(n: int) -> str:
    """A card's colour by its number: cool low cards, warm high ones, Guards apart."""
    if n == GUARD:
        return "bold magenta"
    if n <= 4:
        return "cyan"
    if n <= 8:
        return "green"
    if n <= 11:
        return "yellow"
    return "bold red"


class GoOutGirl(Presenter):
    game = "go-out-girl"
    title = "Go Out Girl"
    example = "play 5 5"
    phases = {"choose": "choosing a character", "turn": "to play or pass",
              "lead": "leading a new tableau", "damage": "laying damage face down",
              "discard": "discarding", "give": "Let's Talk: giving a card or not"}
    verbs = {"character": "choose", "play": "play", "guard": "guard", "pass": "pass",
             "withdraw": "withdraw", "reveal": "reveal", "barrier": "barrier", "reset": "reset",
             "damage": "damage", "discard": "discard", "give": "give", "keep": "keep"}

    def _nums(self, view: GameState, slots) -> list[int]:
        return sorted(view.number(view.values[s]) for s in slots  # type: ignore[attr-defined]
                      if view.values[s] is not None)

    def _label(self, n: int) -> str:
        return "Guard" if n == GUARD else str(n)

    def sort_key(self, view: GameState, a: Action) -> tuple:
        if a.kind == "play":
            return (ORDER["play"], a.number, a.count, self._nums(view, a.slots))
        if a.kind in ("damage", "discard", "give"):
            v = view.values[a.slot]
            return (1, view.number(v) if v is not None else 99)  # type: ignore[attr-defined]
        return (ORDER.get(a.kind, 9),)

    def option_text(self, view: GameState, a: Action) -> str:
        if a.kind == "play":  # the cards in order, then what they count as
            nums = self._nums(view, a.slots)
            cards = " ".join(self._label(n) for n in nums)
            extra = " as a pair" if a.count != len(a.slots) else ""
            if any(n != a.number for n in nums):
                extra += f" as {a.number}"
            icons = "●" * default().damage.get(a.number, 0)
            return f"play {cards}{extra}  {icons}".rstrip()
        return view.describe(a)

    def words(self, view: GameState, a: Action) -> tuple[str, ...]:
        k = a.kind
        if k == "play":
            nums = [self._label(n).lower() for n in self._nums(view, a.slots)]
            extra = ["as", str(a.number)] if any(
                n != str(a.number) for n in nums) else []
            return ("play", *nums, *extra)
        if k in ("damage", "discard", "give"):
            v = view.values[a.slot]
            return (k, self._label(view.number(v)).lower() if v is not None else "?")  # type: ignore[attr-defined]
        if k == "character":
            v = view.values[a.slot]
            if v is None:
                return ("choose",)
            ch = default().characters[view.character_of_card(v)[1]]  # type: ignore[attr-defined]
            return ("choose", ch.name.split()[-1].lower())
        if k == "reset":
            return ("reset", *(self._label(n) for n in self._nums(view, a.slots)))
        return super().words(view, a)

    def group(self, view: GameState, a: Action) -> str | None:
        if a.kind == "play":
            pair = " (as a pair)" if a.count != len(a.slots) else ""
            return f"play {len(a.slots)} cards as {a.number}{pair}" if len(a.slots) != 1 else \
                f"play one card as {a.number}"
        return None

    def question(self, view: GameState, seat: int, legal, trigger: str | None) -> str:
        phase = getattr(view, "phase", "")
        if phase == "choose":
            return f"Battle {view.battle}: which character do you play?"  # type: ignore[attr-defined]
        top = getattr(view, "top", None)
        if phase in ("damage", "discard", "give"):
            # what you passed on, not the table's last line: that was often another player's
            # draw ("bob draws 1 card: which card do you lay face down as damage?", ux23)
            cause = f"You passed on {self._played(view, top)}: " if top else \
                (f"{trigger.rstrip('.')}: " if trigger else "")
            if phase == "give":
                to = view.pname(top["owner"]) if top else "the tableau's player"
                return f"{cause}Let's Talk — give a card to {to}, or keep your cards?"
            left = (getattr(view, "task", None) or {}).get("left", 1)
            what = "lay face down as damage" if phase == "damage" else "discard"
            return f"{cause}which card do you {what}? ({left} to go)"
        if top:
            return f"{self._played(view, top)} is on the field: play higher, or pass?"
        return "The field is empty: lead any card or set of the same number."

    @staticmethod
    def _played(view: GameState, top: dict) -> str:
        """The field's top play as the question names it: "alice's 12 (●)"."""
        cards = " ".join(view.card_name(view.values[s]) for s in top["slots"])
        return f"{view.pname(top['owner'])}'s {cards} ({'●' * top['damage']})"

    def hand(self, view: GameState, seat: int) -> Text:
        dmg = default().damage
        zone = view.zones.get(f"hand{seat}", [])
        cards = sorted((view.values[s] for s in zone if view.values[s] is not None),
                       key=lambda c: (view.number(c) or 99, c))  # type: ignore[attr-defined]
        out = Text()
        for c in cards:
            n = view.number(c)  # type: ignore[attr-defined]
            if out:
                out.append("  ")
            label = view.card_name(c)
            out.append(label, style=colour(n))
            if n > 0:
                out.append("●" * dmg.get(n, 0), style="dim")
        return out or Text("(empty)")

    def card_names(self) -> list[str]:
        return [c.name for c in default().characters] + ["Guard"] + [str(n) for n in range(1, 14)]

    def card_text(self, name: str) -> str | None:
        d = default()
        low = name.strip().lower()
        for c in d.characters:
            if low in (c.name.lower(), c.name.split()[-1].lower(), c.ability.lower()):
                return f"{c.name} — life {c.life} — {c.ability}: {c.text}"
        if low == "guard":
            return ("Guard: play it on any tableau, whatever its number or count, to pass without "
                    "damage; it is discarded at once. On an empty field it passes the lead on.")
        if low.isdigit() and 1 <= int(low) <= 13:
            n = int(low)
            return f"{n}: a battle card ({d.copies} copies), damage {'●' * d.damage[n]} ({d.damage[n]})"
        return None

    def rules(self) -> str:
        return RULES


RULES = """Go Out Girl — how a turn goes

Goal: win battles (2 wins, or 3 with two players). A battle is won by emptying your hand, or by
being the last player not eliminated.

Each battle: everyone is dealt battle cards and chooses a character face down (life and an ability).

On your turn, either
  A. Play: the same number of cards as the tableau, with a higher number, on top of it. On an
     empty field, lead any card or set of cards of one number.
  B. Pass: take the tableau's damage (● on one of its cards): draw that many cards, then lay
     that many cards of your hand face down as damage. Passing again later is allowed.
Guard: play it on anything to pass without damage (it is discarded at once).
Reveal your character on your turn to use its ability (you still play or pass).
If a pass would bring your damage to your life or more, you withdraw: eliminated this battle.
When everyone else has passed in a row, the field is cleared and the last player to play leads.

Keys: a number picks an option, Enter takes it, Esc goes back; type a form such as
'play 4 4 4 as 6'; 'hint', 'card Nerai', 'rules', 'help'."""


PRESENTER = GoOutGirl()
