"""Rigging The Girl and the Robot positions for scenario tests.

``rig`` builds a full-information state from card kinds (in a rigged state card ``c`` sits in
slot ``c``), ``Table`` drives it: decisions go through ``validate`` in the full state *and* in
every seat's own copy, deck requests are fulfilled by a seeded dealer (with scripted ``Random``
values and a scripted arrangement for ``Shuffle(by=seat)``), each copy receives only the outcome
its seat may see, and after every step each copy must equal ``full.view(seat)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from p2pcards.engine import (
    SPECTATOR,
    Action,
    Decide,
    Decision,
    LocalDealer,
    Random,
    RandomValue,
    Request,
    project,
)
from p2pcards.games.girl_and_robot.game import TEAM_OF, Game


class Dealer(LocalDealer):
    def __init__(self, seed: int = 0, randoms: Sequence[int] = ()) -> None:
        super().__init__(seed)
        self.randoms = list(randoms)

    def fulfil(self, state, req, arrange=None):
        if isinstance(req, Random) and self.randoms:
            return RandomValue(self.randoms.pop(0))
        return super().fulfil(state, req, arrange)


FILLER = "*"  # any card not named elsewhere: never a Demon, a Weapon or a Cancel Action


def rig(chars: Sequence[str], *, hands: dict[int, Sequence[str]] | None = None,
        draw: Sequence[str] = (), discard: Sequence[str] = (),
        weapons: dict[int, Sequence[str]] | None = None, faceup: Sequence[int] = (),
        turn: int | None = None, euro: bool = False, rest: str = "removed",
        direction: int = 1, start: bool = True) -> Game:
    """A full-information position. ``draw`` is bottom first (its last card is the top);
    ``faceup`` lists indexes into ``draw`` of cards lying face up; each seat has one Basic Sword
    unless ``weapons`` lists its weapons (``[]``: none); ``kings_sword`` and ``pendant`` lie face
    down (known to their owner only). ``"*"`` is a filler card. Unlisted cards go to ``rest``
    ("removed", or "draw" to lie under the listed Draw Pile, face down; unlisted Demons stay
    out)."""
    n = len(chars)
    g = Game.new(n, {"euro": euro})
    g.req = g.then = None
    g.chars = list(chars)
    g.team = [TEAM_OF[c] for c in chars]
    g.direction = direction
    weapons = dict(weapons or {})
    for p in range(n):
        weapons.setdefault(p, ["basic_sword"])  # the setup's one Basic Sword each
    spec: list[tuple[str, str]] = []  # (zone, kind) in placing order
    for p, ks in (hands or {}).items():
        spec += [(f"hand{p}", k) for k in ks]
    spec += [("draw", k) for k in draw]
    spec += [("discard", k) for k in discard]
    for p, ks in weapons.items():
        spec += [(f"weapons{p}", k) for k in ks]
    free = {k: g._data.cards_of(k) for k in g._data.kinds}
    cards: list[int | None] = [None] * len(spec)
    for i, (_, k) in enumerate(spec):
        if k != FILLER:
            if not free[k]:
                raise ValueError(f"no {k} left to rig")
            cards[i] = free[k].pop(0)
    fill = [c for k, cs in free.items() if g.category(k) in ("action", "points") and k != "cancel_action"
            for c in cs]
    for i, (_, k) in enumerate(spec):
        if k == FILLER:
            cards[i] = fill.pop()
    for (zone, _), c in zip(spec, cards, strict=True):
        assert c is not None
        if zone == "draw":
            continue
        g.place(c, zone)
        if zone.startswith("hand"):
            g.known[c] = 1 << int(zone[4:])
        elif zone.startswith("weapons") and g.kind_of(c) in ("kings_sword", "pendant"):
            owner = int(zone[7:])
            g.known[c] = 1 << owner
            g.hidden[str(c)] = owner
    placed_draw = [c for (zone, _), c in zip(spec, cards, strict=True) if zone == "draw"]
    if rest == "draw":
        for c in [c for c in g.zones["box"] if c not in placed_draw and g.kind_of(c) != "demon"]:
            g.place(c, "draw")
            g.known[c] = 0
    for c in placed_draw:
        g.place(c, "draw")  # type: ignore[arg-type]
        g.known[c] = 0  # type: ignore[index]
    for i in faceup:
        c = placed_draw[i]
        g.known[c] = g.all_mask  # type: ignore[index]
        g.faceup.append(c)
    for c in list(g.zones["box"]):
        g.place(c, "removed")
    if start:
        g.turns = 0
        g._start_turn(chars.index("girl") if turn is None else turn)
    return g


class Table:
    def __init__(self, g: Game, *, seed: int = 0, randoms: Sequence[int] = (),
                 arrange: Callable[[int, tuple[int, ...]], Sequence[int]] | None = None) -> None:
        self.g = g
        self.dealer = Dealer(seed, randoms)
        self.arrange = arrange
        self.views = {p: g.view(p) for p in range(g.n_players)}
        self.views[SPECTATOR] = g.view(SPECTATOR)
        self.requests: list[Request] = []
        self.log: list[str] = []
        self.views[SPECTATOR].narrate()
        self.settle()

    # ---- driving ------------------------------------------------------------------------------
    def settle(self) -> Request | None:
        while True:
            req = self.g.pending()
            if req is None or isinstance(req, Decide):
                self._check()
                return req
            self.requests.append(req)
            before = self.g.clone()
            ev = self.dealer.fulfil(self.g, req, self.arrange)
            self.g.apply(ev)
            for p, v in self.views.items():
                v.apply(project(ev, req, before, p))
            self._check()

    def _check(self) -> None:
        for p, v in self.views.items():
            assert v == self.g.view(p), f"seat {p}'s copy diverged from its view"
        self.log += self.views[SPECTATOR].take_notes()

    def legal(self, p: int) -> list[Action]:
        own = self.views[p].legal(p)
        assert own == self.g.legal(p), "legal actions from the seat's view differ from the full state's"
        return own

    def find(self, p: int, kind: str, **args: Any) -> Action:
        for a in self.legal(p):
            if a.kind == kind and all(a.get(k) == (tuple(v) if isinstance(v, list) else v)
                                      for k, v in args.items()):
                return a
        raise AssertionError(f"no legal {kind} {args} for seat {p}; legal: {self.legal(p)}")

    def has(self, p: int, kind: str, **args: Any) -> bool:
        try:
            self.find(p, kind, **args)
            return True
        except AssertionError:
            return False

    def act(self, p: int, kind: str, **args: Any) -> Action:
        a = self.find(p, kind, **args)
        self.do(p, a)
        return a

    def do(self, p: int, a: Action) -> None:
        ev = Decision(p, a)
        self.g.apply(ev)
        for v in self.views.values():
            v.apply(ev)
        self.settle()

    def play(self, p: int, card: str, **params: Any) -> Action:
        return self.act(p, "play", card=card, **params)

    def end(self, p: int, draw: int = 1, windows: bool = True) -> None:
        """End p's turn; with ``windows`` the ally's window and the set-aside Demons' window
        before the draw are passed."""
        self.act(p, "end", draw=draw)
        if windows:
            self.pass_windows()

    def pass_windows(self) -> None:
        """Pass the windows before a draw, and declare drawn cards safe when they are."""
        while True:
            ph = self.g.phase
            if ph in ("ally", "aside"):
                self.act(self.decider(), "pass")
            elif ph == "drawn" and self.legal(self.decider()) == [Action("safe")]:
                self.act(self.decider(), "safe")
            else:
                return

    def pass_all(self) -> None:
        """Everyone asked in a Cancel Action window lets it resolve."""
        while self.g.phase == "respond":
            self.act(self.decider(), "pass")

    def decider(self) -> int:
        req = self.g.pending()
        assert isinstance(req, Decide), f"expected a decision, pending {req}"
        return req.player

    # ---- looking ------------------------------------------------------------------------------
    def kinds(self, zone: str) -> list[str]:
        return [self.g.kind(s) for s in self.g.zones[zone]]

    def hand_kinds(self, p: int) -> list[str]:
        return sorted(self.kinds(f"hand{p}"))

    def knows(self, p: int, slot: int) -> bool:
        return self.views[p].values[slot] is not None

    def slot(self, kind: str, zone: str) -> int:
        """The first slot of ``zone`` holding a card of ``kind``."""
        for s in self.g.zones[zone]:
            if self.g.kind(s) == kind:
                return s
        raise AssertionError(f"no {kind} in {zone}")

    def top(self, k: int = 1) -> list[str]:
        """The kinds of the top ``k`` cards of the Draw Pile, top first."""
        return [self.g.kind(s) for s in reversed(self.g.zones["draw"][-k:])]
