"""Presenters: how a game's actions and cards look on screen. The generic presenter works for any
game from the engine's action model (kinds and arguments) and ``describe``; each game has a small
subclass in ``ui/games/`` that groups near-identical options, sorts and colours cards, and names
what triggered a question. Nothing here parses an option's text."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.text import Text

from ..engine import Action, GameState
from ..engine.state import join_names


@dataclass
class Option:
    """One legal action: its index in ``legal`` (0-based), its words and what a person reads."""

    index: int
    action: Action
    text: str
    words: tuple[str, ...] = ()


@dataclass
class Entry:
    """A line of the option list: one option, or a group of near-identical ones chosen in a
    second step (``label`` names what they share)."""

    label: str
    options: list[Option] = field(default_factory=list)

    @property
    def single(self) -> bool:
        return len(self.options) == 1


class Presenter:
    """The generic presenter: one entry per distinct option, in the game's order."""

    game = ""
    title = "p2pcards"
    example = "1"  # a typed move, for the input's placeholder
    #: The words of each action kind a person may type first (``play 4 4 as 6``).
    verbs: dict[str, str] = {}

    # ---- options --------------------------------------------------------------------------
    def group(self, view: GameState, action: Action) -> str | None:
        """The label of the group this action belongs to, or ``None`` for an entry of its own."""
        return None

    def sort_key(self, view: GameState, action: Action) -> tuple:
        return ()

    def words(self, view: GameState, action: Action) -> tuple[str, ...]:
        """The typed form of an action: the verb and its cards or numbers."""
        return (self.verbs.get(action.kind, action.kind),)

    def option_text(self, view: GameState, action: Action) -> str:
        return view.describe(action)

    def entries(self, view: GameState, legal: Sequence[Action], *, min_group: int = 3) -> list[Entry]:
        """The option list: identical-looking options shown once, near-identical ones grouped
        (a group needs ``min_group`` members; smaller ones stay flat)."""
        seen: set[str] = set()
        opts: list[Option] = []
        order = sorted(range(len(legal)), key=lambda i: (self.sort_key(view, legal[i]), i))
        for i in order:
            a = legal[i]
            text = self.option_text(view, a)
            if text in seen:  # the same cards from different copies: one choice to a person
                continue
            seen.add(text)
            opts.append(Option(i, a, text, tuple(w.lower() for w in self.words(view, a))))
        groups: dict[str, list[Option]] = {}
        for o in opts:
            g = self.group(view, o.action)
            if g is not None:
                groups.setdefault(g, []).append(o)
        out: list[Entry] = []
        done: set[str] = set()
        for o in opts:
            g = self.group(view, o.action)
            if g is not None and len(groups[g]) >= min_group and len(opts) > 6:
                if g not in done:
                    done.add(g)
                    out.append(Entry(g, groups[g]))
            else:
                out.append(Entry(o.text, [o]))
        return out

    def match(self, view: GameState, legal: Sequence[Action], typed: str) -> list[Option]:
        """The options a typed form names: the verb first, then the same words in any order
        (``play 4 4 4 as 6``, ``equip 3 5 7``, ``under 2``)."""
        words = typed.lower().replace(",", " ").split()
        if not words:
            return []
        found = []
        for e in self.entries(view, legal, min_group=10**9):
            for o in e.options:
                if o.words and o.words[0] == words[0] and sorted(o.words[1:]) == sorted(words[1:]):
                    found.append(o)
        if found:
            return found
        # a verb alone, or a verb with a prefix of the words, narrows the list
        return [o for e in self.entries(view, legal, min_group=10**9) for o in e.options
                if o.words and o.words[0] == words[0] and _contains(o.words[1:], words[1:])]

    # ---- questions ------------------------------------------------------------------------
    def question(self, view: GameState, seat: int, legal: Sequence[Action],
                 trigger: str | None) -> str:
        """What is being decided, naming what triggered it."""
        if trigger:
            return f"{trigger.rstrip('.')} — what do you do?"
        return "Your turn: choose an action."

    #: What a seat is deciding, by the game's phase, for the status line ("Bob's turn · ...").
    phases: dict[str, str] = {}

    def deciding(self, view: GameState, player: int) -> str:
        return self.phases.get(str(getattr(view, "phase", "")), "deciding")

    # ---- cards ----------------------------------------------------------------------------
    def hand(self, view: GameState, seat: int) -> Text:
        zone = view.zones.get(f"hand{seat}", [])
        cards = sorted(view.values[s] for s in zone if view.values[s] is not None)  # type: ignore[type-var]
        return Text(" ".join(view.card_name(c) for c in cards) or "(empty)")

    def card_text(self, name: str) -> str | None:
        """The text of the card called ``name`` (case-insensitive), or ``None``."""
        return None

    def card_names(self) -> list[str]:
        return []

    def rules(self) -> str:
        """How a turn goes, one screen, from the rulebook."""
        return "No summary of the rules for this game yet: see 'p2pcards rules GAME'."

    def table_talk(self, view: GameState, seat: int) -> str | None:
        """The game's table-talk rule as it applies now, for the chat panel: why you may not
        talk, or who hears you when it is not everyone (The Girl and the Robot: your ally)."""
        refusal = view.chat_refusal(seat)
        if refusal is not None:
            return refusal
        heard = audience(view, seat)
        if heard is None:
            return None
        return f"only {join_names(heard)} {'hear' if len(heard) > 1 else 'hears'} you — type " \
            "'say ...'"


def trigger(line: str, me: str | None, last: str | None) -> str | None:
    """The table's last line about someone else, which a question names as what triggered it
    ("alice plays Scout: let it resolve ..."), after ``line``. A new turn's (or round's) heading
    starts afresh: carol, asked for her card of her own Trade, read "— Turn 2: carol (the Evil
    Queen): which card do you give alice?" (ux21). A notice ("** ..."), one's own chat line and
    one's own moves leave it as it was."""
    if not line or line.startswith(("** ", "(you")) or (me and line.startswith(f"{me} ")):
        return last
    return None if line.startswith("— ") else line


def audience(view: GameState | None, seat: int | None) -> list[str] | None:
    """Who receives ``seat``'s chat lines now, named, when it is not every other player (a
    team's talk): carol's "bob, I cancel the Blind" went to bob alone, while her screen said
    "Chat: open" and showed "(you): ..." as if the whole table had read it (ux21)."""
    if view is None or seat is None or not 0 <= seat < view.n_players:
        return None
    try:
        heard = sorted(view.chat_audience(seat))
    except Exception:  # noqa: BLE001 -- a rule that cannot be read yet: say nothing
        return None
    if not heard or heard == [p for p in range(view.n_players) if p != seat]:
        return None
    return [view.pname(p) for p in heard]


def said_to(view: GameState | None, seat: int | None) -> str:
    """How your own chat line is echoed: "(you): ..." to everyone, "(you, to bob only): ..."."""
    heard = audience(view, seat)
    return "(you)" if heard is None else f"(you, to {join_names(heard)} only)"


def turn_line(view: GameState, seat: int | None, *, yours: str = "", theirs: str = "") -> str:
    """Whose turn it is, for ``who``: "Turn: yours.", "Turn: Bob (seat 2) is deciding."; ``yours``
    and ``theirs`` are added before the full stop (what to do, what the table does)."""
    req = view.pending()
    if req is None:
        return "The game is over."
    p = getattr(req, "player", None)
    if p is None:
        return "Turn: the deck is being shuffled or dealt."
    if p == seat:
        return f"Turn: yours{yours}."
    return f"Turn: {view.pname(p)} (seat {p + 1}) is deciding{theirs}."


def _contains(have: Sequence[str], want: Sequence[str]) -> bool:
    rest = list(have)
    for w in want:
        if w not in rest:
            return False
        rest.remove(w)
    return True


MODULES = {
    "go-out-girl": "go_out_girl",
    "out-of-this-world": "out_of_this_world",
    "girl-and-robot": "girl_and_robot",
}


def presenter_for(game: str) -> Presenter:
    mod = MODULES.get(game)
    if mod is None:
        return Presenter()
    return importlib.import_module(f".games.{mod}", __package__).PRESENTER


def lookup(presenter: Presenter, name: str) -> str:
    """``card NAME``: the card's text, or a one-line reason with the nearest names."""
    name = name.strip()
    if not name:
        return "card what? e.g. 'card " + (presenter.card_names() or ["NAME"])[0] + "'"
    text = presenter.card_text(name)
    if text is not None:
        return text
    low = name.lower()
    near = [n for n in presenter.card_names() if low in n.lower()]
    if len(near) == 1:
        return presenter.card_text(near[0]) or f"No card called {name!r}."
    if near:
        more = f" and {len(near) - 8} more (type more of the name)" if len(near) > 8 else ""
        return f"Several cards match {name!r}: {', '.join(near[:8])}{more}."
    return f"No card called {name!r} in this game."
