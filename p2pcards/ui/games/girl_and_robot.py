"""The Girl and the Robot on screen: the Demon's place in the Draw Pile chosen by depth (or typed
``under N``), plays grouped by card, questions that name the card being answered."""

from __future__ import annotations

from rich.text import Text

from ...engine import Action, GameState
from ...games.girl_and_robot.data import default
from ..present import Presenter

CATEGORY_COLOUR = {"action": "cyan", "points": "green", "demon": "bold red", "weapon": "yellow"}
ORDER = {"play": 0, "copy": 0, "ability": 1, "pendant": 1, "flip": 2, "show": 3, "ally": 4,
         "unleash": 5, "hide": 0, "end": 9, "pass": 0, "cancel": 1}
PHASE_QUESTION = {
    "direction": "Which way does play go?",
    "draw": "You drew a card: is it a Demon?",
}


class GirlAndRobot(Presenter):
    game = "girl-and-robot"
    title = "The Girl and the Robot"
    example = "end 1"
    phases = {"turn": "playing their turn", "respond": "answering an Action card or letting it "
              "resolve", "ally": "helping their ally", "direction": "choosing the direction",
              "defend": "defending against a Demon", "position": "placing a Demon in the Draw Pile",
              "drawn": "declaring the card they drew", "aside": "placing a set-aside Demon",
              "choose": "choosing a card", "order": "ordering cards", "bury": "discarding",
              "copy": "choosing what to copy", "pick": "moving a Demon", "lure": "taking a Demon",
              "pendant": "using the Pendant", "flipped": "playing a face-down card"}
    verbs = {"play": "play", "position": "under", "end": "end", "pass": "pass",
             "cancel": "cancel", "ability": "ability", "demon": "demon", "safe": "safe",
             "defend": "defend", "direction": "direction"}

    def sort_key(self, view: GameState, a: Action) -> tuple:
        if a.kind == "position":  # the top of the Draw Pile first
            return (0, -a.index)
        return (ORDER.get(a.kind, 5),)

    def words(self, view: GameState, a: Action) -> tuple[str, ...]:
        k = a.kind
        if k == "position":
            return ("under", str(len(view.zones["draw"]) - a.index))
        if k == "play":
            return ("play", *view.kind_name(a.card).lower().split())  # type: ignore[attr-defined]
        if k == "end":
            return ("end", str(a.draw))
        return super().words(view, a)

    def group(self, view: GameState, a: Action) -> str | None:
        if a.kind == "position":
            return "place it deeper in the Draw Pile (choose how deep, or type 'under N')"
        if a.kind == "show":
            return "show your ally a card, or your whole hand"
        if a.kind in ("play", "copy", "ability", "pendant"):
            name = view.kind_name(a.card) if a.kind in ("play", "copy") else a.id  # type: ignore[attr-defined]
            verb = {"play": "play", "copy": "copy", "ability": "ability:",
                    "pendant": "Pendant:"}[a.kind]
            return f"{verb} {name} (choose the target)"
        return None

    def entries(self, view: GameState, legal, *, min_group: int = 3):
        entries = super().entries(view, legal, min_group=min_group)
        # the top and the bottom of the Draw Pile stay one key away; the depths between are grouped
        if any(a.kind == "position" for a in legal) and len(legal) > 6:
            top = [e for e in entries if e.single and e.options[0].action.kind == "position"]
            for e in entries:
                if not e.single and e.options[0].action.kind == "position":
                    ends = [o for o in e.options if o.action.index in (0, len(view.zones["draw"]))]
                    e.options = [o for o in e.options if o not in ends]
                    top += [type(e)(o.text, [o]) for o in ends]
            rest = [e for e in entries if not (e.single and e.options[0].action.kind == "position")]
            entries = sorted(top, key=lambda e: -e.options[0].action.index) + rest
        return entries

    def question(self, view: GameState, seat: int, legal, trigger: str | None) -> str:
        """What is decided, after what triggered it ("Bot 2 plays Peace Treaty: ..."); a
        sentence of its own, capitalised, when the trigger is not known (the plain prompt)."""
        q = self._question(view, seat, legal, trigger)
        return q if trigger else q[:1].upper() + q[1:]  # (a name keeps its own case)

    def _question(self, view: GameState, seat: int, legal, trigger: str | None) -> str:
        kinds = {a.kind for a in legal}
        lead = f"{trigger.rstrip('.')}: " if trigger else ""
        if kinds == {"pass"} and getattr(view, "phase", None) == "respond":
            # asked all the same: asking only those who hold one would tell everyone who does
            return f"{lead}let it resolve (you hold no Cancel Action to answer it with)."
        if kinds <= {"position"}:
            return f"{lead}where do you put the Demon in the Draw Pile?"
        if kinds <= {"pass", "cancel"}:
            return f"{lead}let it resolve, or answer it with Cancel Action?"
        if kinds <= {"demon", "safe"}:  # the card named: "You drew a card" left bob looking for it
            task = getattr(view, "task", None) or {}
            slot = task.get("slot") if isinstance(task, dict) else None
            drawn = view.slot_name(slot) if isinstance(slot, int) and \
                view.values[slot] is not None else "a card"  # type: ignore[attr-defined]
            if kinds == {"safe"}:
                return f"You drew {drawn}: not a Demon, so you keep it (the others learn only " \
                       "that)."
            if kinds == {"demon"}:
                return "You drew a Demon: reveal it to everyone."
            return "You drew a card: is it a Demon? Declare it."
        if kinds <= {"defend"}:
            return f"{lead}which weapon defeats the Demon?"
        if kinds <= {"choose"}:
            return f"{lead}{self._which_card(view)}"
        if kinds <= {"direction"}:
            return f"{lead}which way does play go now?"
        if "end" in kinds:
            return "Your turn: play cards, use abilities, then end your turn (draw)."
        return f"{lead}what do you do?" if lead else "Your decision:"

    def _which_card(self, view: GameState) -> str:
        """A card of your hand asked for, and what becomes of it: "which card?" alone left
        bob wondering whether his card for bot1's Peace Treaty went to bot1 (ux21)."""
        task = getattr(view, "task", None) or {}
        k = task.get("k") if isinstance(task, dict) else None
        why, args = (k[0], k[1]) if isinstance(k, list) and len(k) == 2 \
            and isinstance(k[1], dict) else (None, {})
        name = view.pname  # type: ignore[attr-defined]
        if why == "treaty_pick":
            return ("which card goes on top of the Draw Pile? (Peace Treaty: every player's card "
                    "is shuffled there)")
        if why == "trade_mine" and isinstance(args.get("t"), int):
            return f"which card do you give {name(args['t'])}? (Trade: they then give you one)"
        if why == "trade_theirs" and isinstance(args.get("p"), int):
            return f"which card do you give {name(args['p'])} in return? (Trade)"
        if why == "given":
            return "which card do you give the Evil Queen?"
        if why == "discarded":
            n = args.get("n")
            more = f" ({n} to discard)" if isinstance(n, int) and n > 1 else ""
            return f"which card do you discard?{more}"
        return "which card?"

    def hand(self, view: GameState, seat: int) -> Text:
        zone = view.zones.get(f"hand{seat}", [])
        out = Text()
        d = default()
        keyed = []
        hidden = 0
        for s in zone:
            v = view.values[s]
            if v is None:
                hidden += 1
                continue
            k = d.kinds[d.card_kind[v]]
            keyed.append(k)
        keyed.sort(key=lambda k: (list(CATEGORY_COLOUR).index(k.category)
                                  if k.category in CATEGORY_COLOUR else 9, k.name))
        for k in keyed:
            if out:
                out.append("  ")
            out.append(k.name.replace(" ", "\u00a0"), style=CATEGORY_COLOUR.get(k.category, ""))
        if hidden:
            out.append(f"{'  ' if out else ''}{hidden} face down", style="dim")
        return out or Text("(empty)")

    def card_names(self) -> list[str]:
        d = default()
        return [k.name for k in d.kinds.values()] + [c.name for c in d.characters.values()]

    def card_text(self, name: str) -> str | None:
        d = default()
        low = name.strip().lower()
        for k in d.kinds.values():
            if k.name.lower() == low:
                return f"{k.name} ({k.category}, {k.copies} in the deck): {k.text}"
        for c in d.characters.values():
            if c.name.lower() == low:
                return c.name + " — " + " | ".join(
                    f"{a.side} {a.cost}: {a.text}" for a in c.abilities)
        return None

    def rules(self) -> str:
        return RULES


RULES = """The Girl and the Robot — how a turn goes (teams)

Teams: the Girl (and the Robot) against the Evil Queen (and the Shadow Robot). A team wins when
every player of the other team is dead.
On your turn, in any order:
  • play Action cards (with their target), Ability Points cards (points go into this turn's
    pool) and Weapons (placed next to a character);
  • spend pool points on your character's abilities (Alone side, or Team side while your ally
    lives); show your ally cards; call on your ally (Manipulate, Scout, Smoke Bomb) once.
Then end your turn: draw 1 card (0 or 2 when a card or ability says so).
Drawing a Demon: reveal it and defeat it with one of your weapons, or you die; then put it
face up anywhere in the Draw Pile.
Everyone is asked about every Action card: let it resolve, or Cancel Action.
Allies talk: your chat lines go to your living ally only.

Keys: a number picks, Enter takes, Esc goes back; type 'under 2' to bury a Demon two cards
deep; 'hint' (Demon odds), 'card Provoke', 'rules', 'say ...', 'help'."""


PRESENTER = GirlAndRobot()
