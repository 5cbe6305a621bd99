"""Build Go Out Girl positions for scenario tests: a full-information state, rigged, then driven
with explicit decisions and a LocalDealer for everything else."""

from __future__ import annotations

from p2pcards.engine import (
    Action,
    Decide,
    Decision,
    LocalDealer,
    RandomValue,
    Reveal,
    Revealed,
    Shuffle,
    Shuffled,
    project,
)
from p2pcards.games.go_out_girl.data import CHARACTER_KEYS
from p2pcards.games.go_out_girl.game import Game
from tests.games.drive import settle


def parse_cards(text: str) -> list[int]:
    """'9 9 G 1' -> numbers, with 0 for a Guard."""
    return [0 if t.upper() in ("G", "GUARD") else int(t) for t in text.split()]


def char_index(name: str | int) -> int:
    return name if isinstance(name, int) else CHARACTER_KEYS.index(name)


def setup(players: int = 3, hands: dict[int, str] | None = None,
          chars: dict[int, str] | None = None, *, start: int = 0, revealed: tuple = (),
          deck_top: str = "", field: tuple[int, str] | None = None,
          damage: dict[int, int] | None = None, seed: int = 0) -> tuple[Game, LocalDealer]:
    """A battle at ``start``'s first turn. ``hands``: seat -> cards; ``chars``: seat -> character
    key (default nerai); ``revealed``: seats whose character is face up; ``deck_top``: the next
    cards drawn, first drawn first; ``field``: (owner, cards) the current tableau pile."""
    s = Game.new(players)
    s.apply(RandomValue(start))
    _settle_identity(s)
    chars = chars or {}
    for _ in range(players):
        req = s.pending()
        assert isinstance(req, Decide) and s.phase == "choose"
        p = req.player
        k = char_index(chars.get(p, "nerai"))
        s.apply(Decision(p, Action("character", slot=s._b + 8 * p + k)))
    assert s.phase == "turn"
    for p, text in (hands or {}).items():
        set_hand(s, p, text)
    for p in revealed:
        slot = s.zones[f"char{p}"][0]
        s.revealed[p] = s.character_of_card(s.values[slot])[1]
        s.known[slot] = s.all_mask
    for p, d in (damage or {}).items():
        s.damage[p] = d
    if field is not None:
        owner, text = field
        slots = [take(s, n) for n in parse_cards(text)]
        for sl in slots:
            s.place(sl, "field")
            s.known[sl] = s.all_mask
        nums = parse_cards(text)
        s.top = {"slots": slots, "number": max(nums), "count": len(slots),
                 "damage": s._data.damage[max(nums)], "owner": owner}
    for n in reversed(parse_cards(deck_top)):
        sl = take(s, n)
        s.place(sl, "deck")
        s.known[sl] = s.exposed[sl] = 0  # as in a freshly shuffled deck
    return s, LocalDealer(seed)


def _settle_identity(s: Game) -> None:
    """Fulfil requests with no shuffling at all, up to the first decision."""
    while not isinstance(s.pending(), Decide):
        req = s.pending()
        if req is None:
            return
        if isinstance(req, Shuffle):
            s.apply(Shuffled(req.slots, tuple(s.values[x] for x in req.slots)))
        elif isinstance(req, Reveal):
            s.apply(Revealed(req.slots, tuple(s.values[x] for x in req.slots)))
        else:
            s.apply(RandomValue(0))


def take(s: Game, number: int) -> int:
    """A deck slot holding a card of ``number`` (0 = Guard), taken from the bottom of the deck
    so it does not disturb the top."""
    for sl in s.zones["deck"]:
        if s.number(s.values[sl]) == number:
            return sl
    raise AssertionError(f"no {number} left in the deck")


def set_hand(s: Game, p: int, text: str) -> None:
    for sl in list(s.hand(p)):
        s.place(sl, "deck", 0)
        s.known[sl] = 0
    for n in parse_cards(text):
        sl = take(s, n)
        s.place(sl, f"hand{p}")
        s.known[sl] = 1 << p


def hand_numbers(s: Game, p: int) -> list[int]:
    return sorted(s.number(s.values[x]) for x in s.hand(p))


def slots(s: Game, p: int, text: str) -> list[int]:
    """Hand slots of seat p holding the given cards."""
    out: list[int] = []
    for n in parse_cards(text):
        out.append(next(x for x in sorted(s.hand(p)) if x not in out and s.number(s.values[x]) == n))
    return sorted(out)


def act(s: Game, dealer: LocalDealer, p: int, kind: str, **kw) -> None:
    s.apply(Decision(p, Action(kind, **kw)))
    settle(s, dealer)


def play(s: Game, dealer: LocalDealer, p: int, text: str, number: int | None = None,
         count: int | None = None) -> None:
    sl = slots(s, p, text)
    nums = parse_cards(text)
    act(s, dealer, p, "play", slots=sl, number=number if number is not None else nums[0],
        count=count if count is not None else len(sl))


def lay(s: Game, dealer: LocalDealer, p: int) -> None:
    """Seat p picks damage/discard cards (the first listed) until that step is over."""
    while s.phase in ("damage", "discard") and turn(s) == p:
        act(s, dealer, p, s.phase, slot=s.legal(p)[0].slot)


def kinds(s: Game, p: int) -> set[str]:
    return {a.kind for a in s.legal(p)}


def turn(s: Game) -> int | None:
    req = s.pending()
    return req.player if isinstance(req, Decide) else None


def lockstep(full: Game, peer: Game, dealer: LocalDealer, decision: Decision) -> None:
    """Apply a decision to the full state (unchecked, as a cheat's own engine would) and to a
    peer's copy (checked), then fulfil requests on the full state and feed the peer only what it
    may see, up to the next decision."""
    full.apply(decision, trusted=True)
    peer.apply(decision)
    while True:
        req = full.pending()
        if req is None or isinstance(req, Decide):
            return
        before = full.clone()
        ev = dealer.fulfil(full, req)
        full.apply(ev)
        peer.apply(project(ev, req, before, peer.viewer))
