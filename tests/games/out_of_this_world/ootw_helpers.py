"""Helpers for Out Of This World scenario tests: positions are built by driving a
full-information game through its set-up with decisions and a ``LocalDealer``, then rigging
named cards into zones (with the knowledge the rules would give), and driven on with decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from p2pcards.engine import Action, Decide, Decision, LocalDealer, Shuffle, Shuffled
from p2pcards.games.out_of_this_world.game import Game

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
# by seat; seat 0's Pack Rat only changes the hand limit in Taking Care of Things
DEFAULT_CHARS = ("penny_percy", "zoe_zack", "rita_rick", "nina_ned", "malala_bart")


class RiggedDealer(LocalDealer):
    """A seeded ``LocalDealer`` whose next shuffles put chosen cards on top. ``tops`` is a list,
    one entry per coming shuffle, of card keys listed top first."""

    def __init__(self, seed: int = 0, tops: Sequence[Sequence[str]] = ()) -> None:
        super().__init__(seed)
        self.tops = [list(t) for t in tops]
        self.log: list[Any] = []

    def fulfil(self, state, req, arrange=None):  # type: ignore[override]
        ev = super().fulfil(state, req, arrange)
        self.log.append(req)
        if isinstance(req, Shuffle) and self.tops:
            want = self.tops.pop(0)
            rest = list(ev.values)
            chosen = []
            for key in want:
                card = next(v for v in rest if state.cdef(v).key == key)
                rest.remove(card)
                chosen.append(card)
            ev = Shuffled(req.slots, tuple(rest + chosen[::-1]))
        return ev


def run(g: Game, dealer: LocalDealer) -> Game:
    """Fulfil deck requests until a decision is pending or the game is over."""
    while True:
        req = g.pending()
        if req is None or isinstance(req, Decide):
            return g
        g.apply(dealer.fulfil(g, req))


def act(g: Game, player: int, action: Action, dealer: LocalDealer) -> Game:
    """A decision (validated, as a peer's would be), then the deck service until the next."""
    g.apply(Decision(player, action))
    return run(g, dealer)


def decider(g: Game) -> int | None:
    r = g.req
    return r["player"] if r and r["type"] == "decide" else None


def start(players: int = 4, seed: int = 0, chars: Sequence[str] | None = None,
          dealer: LocalDealer | None = None, starter: int = 0, **options: Any) -> tuple[Game, LocalDealer]:
    """A game driven through its set-up (characters, difficult foes, the deal) to the first
    Go For It! decision. ``chars`` gives each seat's character key."""
    chars = chars or DEFAULT_CHARS
    g = Game.new(players, {"names": NAMES[:players], **options})
    d = dealer or LocalDealer(seed)
    run(g, d)
    while g.step in ("character", "starter", "declare"):
        p = decider(g)
        assert p is not None
        legal = g.legal(p)
        if g.step == "character":
            a = next(a for a in legal if a.key == chars[p] and a.side == 0)
        elif g.step == "starter":
            a = Action("starter", seat=starter)
        else:
            a = legal[0]
        act(g, p, a, d)
    return g, d


def slots_of(g: Game, key: str, zones: Iterable[str] | None = None) -> list[int]:
    zs = set(zones) if zones is not None else None
    return [s for s in range(g.n_cards) if g.cdef(g.values[s]).key == key
            and (zs is None or g.zone_of[s] in zs)]


def slot(g: Game, key: str, zone: str) -> int:
    return slots_of(g, key, [zone])[0]


def rig(g: Game, *, hands: dict[int, list[str]] | None = None,
        foes: dict[int, list[str]] | None = None, equipped: dict[int, list[str]] | None = None,
        stacks: Sequence[Sequence[str]] | None = None, deck: Sequence[str] | None = None,
        discard: Sequence[str] = (), spent: Sequence[str] = (), time: int | None = None,
        public_hands: bool = False) -> Game:
    """Rearrange a full-information game: every card in hands, in front of players, equipped,
    in the stacks or the discard pile goes back into the deck, then the named cards (by key) go
    where asked. ``stacks`` lists cards bottom first (default: all five stacks empty); ``deck``
    names cards to put on top of the deck (top last). Knowledge follows the rules: a hand is
    known to its owner, each stack's top to everyone, the deck to nobody."""
    n = g.n_players
    back = ["discard"] + [f"stack{i}" for i in range(g.n_stacks)] + [
        f"{z}{p}" for p in range(n) for z in ("hand", "foes", "equip")]
    for z in back:
        for s in list(g.zones[z]):
            g.place(s, "deck")
    g.spent = []
    sources = ["deck", "box", "aside", "starting"]

    def take(key: str) -> int:
        found = slots_of(g, key, sources)
        if not found:
            raise AssertionError(f"no spare {key} to rig")
        return found[0]

    for p, keys in (hands or {}).items():
        for k in keys:
            g.place(take(k), f"hand{p}")
    for p, keys in (foes or {}).items():
        for k in keys:
            g.place(take(k), f"foes{p}")
    for p, keys in (equipped or {}).items():
        for k in keys:
            g.place(take(k), f"equip{p}")
    for k in discard:
        g.place(take(k), "discard")
    for i, keys in enumerate(stacks or []):
        for k in keys:
            g.place(take(k), f"stack{i}")
    for k in deck or []:
        g.place(take(k), "deck")
    for k in spent:
        g.spent.append(next(s for p in range(n) for s in g.equipped(p) if g.cdef(g.values[s]).key == k))
    everyone = g.all_mask
    for s in range(g.n_cards):
        z = g.zone_of[s]
        if z == "deck":
            g.known[s] = 0
        elif z.startswith("hand"):
            g.known[s] = everyone if public_hands else 1 << int(z[4:])
        elif z.startswith("stack"):
            g.known[s] = everyone if g.zones[z][-1] == s else 0
        else:
            g.known[s] = everyone
    if time is not None:
        g.time = time
    return g


def at_turn(g: Game, p: int) -> Game:
    """Make it seat p's turn in Go For It! (p takes a card next)."""
    g.req = g.then = None
    g.phase = "go"
    g.fx, g.fx_then, g.queue = [], None, []
    g.legs = 0
    g._begin_turn(p)
    return g


def A(kind: str, **kw: Any) -> Action:
    return Action(kind, **kw)


def keys(g: Game, slots: Iterable[int]) -> list[str]:
    return sorted(g.cdef(g.values[s]).key for s in slots)


def take(g: Game, p: int, key: str, dealer: LocalDealer) -> Game:
    """Seat p takes the top card named ``key`` from the stacks."""
    i = next(i for i in range(g.n_stacks) if g.stack(i) and g.cdef(g.values[g.stack(i)[-1]]).key == key)
    return act(g, p, Action("take", stack=i), dealer)


def find(legal: list[Action], kind: str, **want: Any) -> Action:
    for a in legal:
        if a.kind == kind and all(a.get(k) == v for k, v in want.items()):
            return a
    raise AssertionError(f"no legal {kind} {want} in {legal}")


def dealt(tops: list[str]) -> tuple[Game, RiggedDealer, int]:
    """A 4-seat game at the first declaration (of the Foes dealt), the deck dealt top first
    from ``tops``, two cards a player from the first Vocal Player, who is returned."""
    d = RiggedDealer(0, tops=[tops])
    g = Game.new(4, {"names": NAMES[:4]})
    run(g, d)
    while g.step == "character":
        act(g, decider(g), g.legal(decider(g))[0], d)
    first = g.vocal
    assert g.step == "declare" and decider(g) == first
    return g, d, first
