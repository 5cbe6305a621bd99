"""The Girl and the Robot, set-up: options, the characters' seating, the Basic Swords, the
deal ("Remove the 4 Demon cards from the Deck, shuffle the Deck and deal 5 cards to each player.
Put the Demon cards back into the Deck and reshuffle the Deck."), and the Girl's choice of turn
order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import Action, ConfigError, Shuffle, join_names, plural
from ...engine.requests import Random
from .common import (
    DEMON,
    GIRL,
    TEAM_OF,
    Common,
    arrangements,
)
from .data import CardData, default

if TYPE_CHECKING:
    from .game import Game


class SetUp(Common):
    """Setup: the options, the seating, the deal, the first turn order."""

    OPTIONS = ("euro", "act2")

    @classmethod
    def new(cls, players: int, options: dict[str, Any] | None = None) -> Game:
        options = dict(options or {})
        if not cls.min_players <= players <= cls.max_players:
            raise ConfigError(f"The Girl and the Robot is for 2 to 4 players, not {players}")
        unknown = set(options) - {"names", *cls.OPTIONS}
        if unknown:
            raise ConfigError(f"The Girl and the Robot has no {'option' if len(unknown) == 1 else 'options'} "
                              f"{join_names(sorted(unknown))}")
        for key in ("euro", "act2"):
            if key in options and not isinstance(options[key], bool):
                raise ConfigError(f"option {key!r} must be true or false, not {options[key]!r}")
        names = options.get("names")
        if names is not None and (not isinstance(names, list)
                                  or not all(isinstance(x, str) for x in names)):
            raise ConfigError("option 'names' must be a list of player names")
        data = default()
        config: dict[str, Any] = {"players": players, "euro": options.get("euro", False),
                                  "act2": options.get("act2", False)}
        if names is not None:
            config["names"] = list(names)
        s = cls(players, data.n_cards, config)
        s._restore()
        s.zones = {z: [] for z in ("box", "draw", "discard", "removed", "stack", "pool", "held",
                                   "grave", "aside_demons", "treaty", "moving", "shuffling")}
        for p in range(players):
            for z in ("hand", "weapons", "aside"):
                s.zones[f"{z}{p}"] = []
        for c in range(data.n_cards):
            s.place(c, "box")
        s.chars = [""] * players
        s.team = [-1] * players
        s.alive = [True] * players
        s.direction = 1
        s.turn = -1
        s.turns = 0
        s.phase = "setup"
        s.ctx = "turn"
        s.points = 0
        s.tf = cls._fresh_turn()
        s.next_fx = cls._fresh_fx()
        s.extra = 0
        s.override = None
        s.bonus = [0] * players
        s.boost_used = False
        s.blind = [False] * players
        s.spied = [False] * players
        s.faceup = []  # Draw Pile slots lying face up
        s.hidden = {}  # face-down weapon slot -> the seat that placed it (its claim)
        s.king_used = []  # King's Swords turned face up after their first Demon
        s.aside_turn = {}  # set-aside Demon slot -> the turn it was set aside
        s.safe = {}  # drawn slot declared "not a Demon" -> the seat that declared it
        s.stack = []  # Action cards played and waiting for answers
        s.task = None  # the pending sub-decision
        s.allywin = None  # the ally's window: {"who", "k"}
        s.winner = None  # the winning team (0 the Girl's, 1 the Queen's)
        s.request(Random(len(arrangements(players))), "characters")
        return s

    @staticmethod
    def _fresh_turn() -> dict[str, Any]:
        return {"played": 0, "deal": False, "digger": False, "no_draw": False, "may_skip": False,
                "ban": False, "double": False, "hex": False, "provoke": False, "borrow": None,
                "ally_called": False, "ended": False, "left": 0}

    @staticmethod
    def _fresh_fx() -> dict[str, Any]:
        return {"hex": False, "ban": False, "provoke": False, "extra": 0}

    def _restore(self) -> None:
        self._data: CardData = default()
        self._kind = self._data.card_kind

    def _legal_direction(self, p: int) -> list[Action]:
        return [Action("direction", d=1), Action("direction", d=-1)]

    def _do_direction(self, p: int, a: Action) -> None:
        self.direction = a.d
        self.say(f"{self.pname(p)} chooses the turn order: "
                 f"{'clockwise' if a.d == 1 else 'counter-clockwise'}.")
        self._start_turn(p)

    def _after_characters(self, value: int) -> None:
        n = self.n_players
        self.chars = arrangements(n)[value]
        self.team = [TEAM_OF[c] for c in self.chars]
        girl = self.chars.index(GIRL)
        self.say("Characters: " + join_names(f"{self.pname(p)} is {self.char_ref(p)}"
                                          for p in range(n)) + ".")
        swords = self._data.cards_of("basic_sword")
        for i, c in enumerate(swords):
            self.place(c, f"weapons{(girl + i) % n}" if i < n else "removed")
        if not self.config.get("act2", False):
            for c in self._data.cards_of("act_ii"):
                self.place(c, "removed")
        for c in self._data.cards_of(DEMON):
            self.place(c, "aside_demons")
        for c in list(self.zones["box"]):
            self.place(c, "draw")
        self.request(Shuffle(tuple(self.zones["draw"])), "deck_shuffled")

    def _after_deck_shuffled(self) -> None:
        n = self.n_players
        girl = self.chars.index(GIRL)
        draw = self.zones["draw"]
        for _ in range(self._data.hand_size):
            for i in range(n):
                self.place(draw[-1], f"hand{(girl + i) % n}")
        self._after_hands_seen(0)

    def _after_hands_seen(self, p: int) -> None:
        if p < self.n_players:
            self.reveal(list(self.hand(p)), [p], "hands_seen", p=p + 1)
            return
        for c in list(self.zones["aside_demons"]):
            self.place(c, "draw")
        self.request(Shuffle(tuple(self.zones["draw"])), "reshuffled")

    def _after_reshuffled(self) -> None:
        girl = self.chars.index(GIRL)
        self.say(f"The Demons are shuffled back into the Draw Pile ({plural(len(self.zones['draw']), 'card')}).")
        if self.n_players == 2:
            self._start_turn(girl)
        else:
            self._ask(girl, "direction")
