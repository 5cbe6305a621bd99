"""Out Of This World positions in the puzzle format of ``docs/puzzles.md``: parsing and
validation (every error names the field), and the engine state they describe -- the
full-information state at a Go For It! decision, or one seat's view of it.

A position is always within a round's Go For It! phase, at the turn of the seat to move, before
its take (``"step": "take"``, the default) or after it (``"step": "action"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2pcards.engine import ConfigError, Decide
from p2pcards.games.out_of_this_world.data import CardDef, default
from p2pcards.games.out_of_this_world.game import Game, resolve_adventure

from ..errors import PositionError
from ..positions import ids_that_say_nothing

UNKNOWN = "?"
STEPS = ("take", "action")
SEAT_FIELDS = {"name", "character", "side", "hand", "equipped", "spent", "foes"}
TOP_FIELDS = {"format", "game", "title", "description", "solution", "viewer", "adventure",
              "difficulty", "seats", "to_move", "step", "stacks", "time", "time_max", "discard",
              "removed", "sneaks_used", "legs", "no_action", "defeated"}


def _norm(text: str) -> str:
    return " ".join(str(text).strip().lower().replace("_", " ").replace("-", " ").split())


@dataclass
class Seat:
    name: str | None
    character: str
    side: int
    hand: list[str | None]  # card keys; None: unknown to the viewer
    equipped: list[str]
    spent: list[str]
    foes: list[str]


@dataclass
class Position:
    adventure: str
    difficulty: str
    seats: list[Seat]
    to_move: int
    step: str
    stacks: list[list[str | None]]  # top first; None: unknown to the viewer
    time: int
    time_max: int
    discard: list[str]
    removed: list[str]
    sneaks: list[int]
    legs: int
    no_action: bool
    defeated: dict[str, int]
    viewer: int | None
    title: str = ""
    claim: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.seats)


class Cards:
    """Card names of an adventure's deck: keys, printed names, or "Type value" for a plain Item."""

    def __init__(self, adventure: str) -> None:
        d = default()
        self.data = d
        self.deck = d.deck(adventure)
        self.by_name: dict[str, CardDef] = {}
        for c in self.deck:
            self.by_name.setdefault(_norm(c.key), c)
            self.by_name.setdefault(_norm(c.name), c)
            if c.is_item and not c.effects and c.adventure is None:
                t = d.type_name(c.type)
                self.by_name.setdefault(_norm(f"{t} {c.value}"), c)
                self.by_name.setdefault(_norm(f"{c.type} {c.value}"), c)
        self.copies: dict[str, int] = {}
        for c in self.deck:
            self.copies[c.key] = self.copies.get(c.key, 0) + 1

    def card(self, v: Any, where: str) -> CardDef:
        if not isinstance(v, str) or not v.strip():
            raise PositionError(where, f"{v!r} is not a card name (a key like \"yo_yo\", a name "
                                "like \"Yo-Yo\", or \"Toys 3\")")
        c = self.by_name.get(_norm(v))
        if c is None:
            raise PositionError(where, f"{v!r} is not a card of this adventure (use a key like "
                                "\"yo_yo\", a name like \"Yo-Yo\", or \"Toys 3\"; "
                                "'p2pcards rules out-of-this-world' lists them)")
        return c


def _int(d: dict, key: str, where: str, default_: Any = None, lo: int = 0, hi: int = 10**6) -> int:
    name = f"{where}.{key}" if where else key
    if key not in d or d[key] is None:
        if default_ is None:
            raise PositionError(name, "is missing")
        return default_
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise PositionError(name, f"must be an integer from {lo} to {hi}, not {v!r}")
    return v


def _list(d: dict, key: str, where: str) -> list:
    v = d.get(key, [])
    if v is None:
        return []
    if not isinstance(v, list):
        raise PositionError(f"{where}.{key}" if where else key, "must be a list")
    return v


def _character(v: Any, where: str) -> tuple[str, int]:
    d = default()
    if not isinstance(v, str):
        raise PositionError(where, f"{v!r} is not a character")
    want = _norm(v)
    for ch in d.characters:
        if want == _norm(ch.key):
            return ch.key, 0
        for i, side in enumerate(ch.sides):
            if want == _norm(side):
                return ch.key, i
        if want == _norm(ch.ability):
            return ch.key, 0
    names = ", ".join(f"{c.sides[0]}/{c.sides[1]} ({c.ability})" for c in d.characters)
    raise PositionError(where, f"{v!r} is not a character; choose one of: {names}")


def parse(data: Any) -> Position:
    if not isinstance(data, dict):
        raise PositionError("", "a position is a JSON object")
    unknown = set(data) - TOP_FIELDS
    if unknown:
        raise PositionError(sorted(unknown)[0], f"unknown field (allowed: {', '.join(sorted(TOP_FIELDS))})")
    d = default()
    adventure, difficulty = data.get("adventure"), data.get("difficulty")
    for key, v in (("adventure", adventure), ("difficulty", difficulty)):
        if v is not None and not isinstance(v, str):
            raise PositionError(key, f"must be a name, not {v!r}")
    try:
        adv = resolve_adventure(d, "patrol-the-block" if adventure is None else adventure)
    except ConfigError as exc:
        raise PositionError("adventure", str(exc)) from None
    diff = _norm("standard" if difficulty is None else difficulty).replace(" ", "-")
    if diff not in d.difficulties:
        raise PositionError("difficulty", f"{data.get('difficulty')!r} is not one of "
                            f"{', '.join(d.difficulties)}")
    cards = Cards(adv)
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not 3 <= len(raw_seats) <= 5:
        raise PositionError("seats", "must be a list of 3 to 5 seats")
    n = len(raw_seats)
    viewer = data.get("viewer")
    if viewer is not None:
        viewer = _int(data, "viewer", "", lo=0, hi=n - 1)
    seats: list[Seat] = []
    chars_seen: dict[str, int] = {}
    for i, s in enumerate(raw_seats):
        w = f"seats[{i}]"
        if not isinstance(s, dict):
            raise PositionError(w, "must be an object")
        extra = set(s) - SEAT_FIELDS
        if extra:
            raise PositionError(f"{w}.{sorted(extra)[0]}", f"unknown field (allowed: "
                                f"{', '.join(sorted(SEAT_FIELDS))})")
        if "character" not in s:
            raise PositionError(f"{w}.character", "is missing")
        key, side = _character(s["character"], f"{w}.character")
        if key in chars_seen:
            raise PositionError(f"{w}.character", f"seat {chars_seen[key]} already plays this "
                                "character (each character once)")
        chars_seen[key] = i
        if "side" in s:
            side = _int(s, "side", w, 0, 0, 1)
        raw_hand = s.get("hand", [])
        hand: list[str | None]
        if isinstance(raw_hand, int) and not isinstance(raw_hand, bool):
            if viewer is None or viewer == i:
                raise PositionError(f"{w}.hand", "must list the cards (a count of unknown cards "
                                    "is only for the other seats of a view)")
            if not 0 <= raw_hand <= 40:
                raise PositionError(f"{w}.hand", "a card count must be from 0 to 40")
            hand = [None] * raw_hand
        else:
            if not isinstance(raw_hand, list):
                raise PositionError(f"{w}.hand", "must be a list of cards (or, in a view, a count)")
            hand = []
            for j, x in enumerate(raw_hand):
                if x == UNKNOWN:
                    if viewer is None or viewer == i:
                        raise PositionError(f"{w}.hand[{j}]", "'?' (a card the viewer does not "
                                            "know) is only for the other seats of a view")
                    hand.append(None)
                    continue
                c = cards.card(x, f"{w}.hand[{j}]")
                if c.is_foe:
                    raise PositionError(f"{w}.hand[{j}]", f"{c.name} is a Foe: Foes lie in front "
                                        "of a player ('foes'), never in a hand")
                hand.append(c.key)
        equipped = []
        for j, x in enumerate(_list(s, "equipped", w)):
            c = cards.card(x, f"{w}.equipped[{j}]")
            if not c.is_item:
                raise PositionError(f"{w}.equipped[{j}]", f"{c.name} is a Foe, not an Item")
            equipped.append(c.key)
        spent = []
        for j, x in enumerate(_list(s, "spent", w)):
            c = cards.card(x, f"{w}.spent[{j}]")
            if c.spend() is None:
                raise PositionError(f"{w}.spent[{j}]", f"{c.name} has no SPEND ability")
            if spent.count(c.key) + 1 > equipped.count(c.key):
                raise PositionError(f"{w}.spent[{j}]", f"{c.name} is not equipped by this seat "
                                    "(a spent Item stays equipped: list it in 'equipped' too)")
            spent.append(c.key)
        foes = []
        for j, x in enumerate(_list(s, "foes", w)):
            c = cards.card(x, f"{w}.foes[{j}]")
            if not c.is_foe:
                raise PositionError(f"{w}.foes[{j}]", f"{c.name} is an Item, not a Foe")
            foes.append(c.key)
        name = s.get("name")
        if name is not None and not isinstance(name, str):
            raise PositionError(f"{w}.name", "must be a string")
        seats.append(Seat(name, key, side, hand, equipped, spent, foes))
    to_move = _int(data, "to_move", "", lo=0, hi=n - 1)
    if viewer is not None and viewer != to_move:
        raise PositionError("viewer", "a hint is for the seat to move: viewer must equal to_move")
    step = data.get("step", "take")
    if step not in STEPS:
        raise PositionError("step", f"must be one of {', '.join(STEPS)}, not {step!r}")
    raw_stacks = data.get("stacks")
    n_stacks, size = d.stacks, d.stack_size
    if not isinstance(raw_stacks, list) or len(raw_stacks) != n_stacks:
        raise PositionError("stacks", f"must be a list of the {n_stacks} stacks, each a list of "
                            "cards, top first ([] for an empty stack)")
    stacks: list[list[str | None]] = []
    for i, z in enumerate(raw_stacks):
        w = f"stacks[{i}]"
        if not isinstance(z, list):
            raise PositionError(w, "must be a list of cards, top first")
        if len(z) > size:
            raise PositionError(w, f"a stack holds at most {size} cards")
        out: list[str | None] = []
        for j, x in enumerate(z):
            if x == UNKNOWN:
                if viewer is None:
                    raise PositionError(f"{w}[{j}]", "'?' (a card the viewer does not know) is "
                                        "only for views; a full position lists every card")
                if j == 0:
                    raise PositionError(f"{w}[{j}]", "the top card of a stack is face up: name it")
                out.append(None)
                continue
            out.append(cards.card(x, f"{w}[{j}]").key)
        stacks.append(out)
    if not any(stacks):
        raise PositionError("stacks", "every stack is empty: the round is over (a position is "
                            "within Go For It!)")
    adv_def = d.adventures[adv]
    time_max = _int(data, "time_max", "", adv_def.time_tokens, 1, 30)
    time_ = _int(data, "time", "", time_max, 1, time_max)
    discard = [cards.card(x, f"discard[{j}]").key for j, x in enumerate(_list(data, "discard", ""))]
    removed = [cards.card(x, f"removed[{j}]").key for j, x in enumerate(_list(data, "removed", ""))]
    raw_sneaks = data.get("sneaks_used", [0] * n)
    if not isinstance(raw_sneaks, list) or len(raw_sneaks) != n:
        raise PositionError("sneaks_used", f"must list {n} numbers, one per seat")
    sneaks = []
    for i, v in enumerate(raw_sneaks):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 9:
            raise PositionError(f"sneaks_used[{i}]", f"must be an integer from 0 to 9, not {v!r}")
        sneaks.append(v)
    legs = _int(data, "legs", "", 0, 0, n - 1)
    no_action = data.get("no_action", False)
    if not isinstance(no_action, bool):
        raise PositionError("no_action", "must be true or false")
    if no_action and step != "action":
        raise PositionError("no_action", "only after the take (step 'action') can a take have "
                            "forbidden the action")
    raw_def = data.get("defeated", {})
    if not isinstance(raw_def, dict):
        raise PositionError("defeated", "must be an object: card -> how many were defeated")
    defeated: dict[str, int] = {}
    for k in raw_def:
        c = cards.card(k, f"defeated.{k}")
        if not c.is_foe:
            raise PositionError(f"defeated.{k}", f"{c.name} is an Item: only Foes are defeated")
        if c.key in defeated:
            raise PositionError(f"defeated.{k}", f"{c.name} is listed twice")
        defeated[c.key] = _int(raw_def, k, "defeated", lo=0, hi=99)
    title = data.get("title", "")
    if not isinstance(title, str):
        raise PositionError("title", "must be a string")
    claim = data.get("solution")
    if claim is not None and not isinstance(claim, dict):
        raise PositionError("solution", "must be an object")
    pos = Position(adv, diff, seats, to_move, step, stacks, time_, time_max, discard, removed,
                   sneaks, legs, no_action, defeated, viewer, title, claim)
    _check(pos, cards)
    return pos


def _check(pos: Position, cards: Cards) -> None:
    used: dict[str, list[str]] = {}

    def use(key: str | None, where: str) -> None:
        if key is not None:
            used.setdefault(key, []).append(where)

    for i, s in enumerate(pos.seats):
        for j, k in enumerate(s.hand):
            use(k, f"seats[{i}].hand[{j}]")
        for j, k in enumerate(s.equipped):
            use(k, f"seats[{i}].equipped[{j}]")
        for j, k in enumerate(s.foes):
            use(k, f"seats[{i}].foes[{j}]")
    for i, z in enumerate(pos.stacks):
        for j, k in enumerate(z):
            use(k, f"stacks[{i}][{j}]")
    for j, k in enumerate(pos.discard):
        use(k, f"discard[{j}]")
    for j, k in enumerate(pos.removed):
        use(k, f"removed[{j}]")
    for key, wheres in used.items():
        have = cards.copies[key]
        if len(wheres) > have:
            name = next(c.name for c in cards.deck if c.key == key)
            raise PositionError(wheres[have], f"the game has only {have} {name}")
    d = cards.data
    for i, sn in enumerate(pos.sneaks):
        ch = next(c for c in d.characters if c.key == pos.seats[i].character)
        if sn > ch.powers.get("sneak", 0):
            raise PositionError(f"sneaks_used[{i}]", f"{ch.sides[0]} cannot take Items past a Foe "
                                f"{sn} time(s) in a round")
    if pos.viewer is not None:
        unseen = len(cards.deck) - sum(len(w) for w in used.values())
        hidden = sum(k is None for s in pos.seats for k in s.hand) + sum(
            k is None for z in pos.stacks for k in z)
        if hidden > unseen:
            raise PositionError("seats", f"the view hides {hidden} cards but only {unseen} cards "
                                "are not listed")


def build(pos: Position) -> Game:
    """The engine state the position describes: the full state, or (with ``viewer``) that
    seat's view, with the seat to move deciding."""
    n = pos.n
    names = [s.name or f"Seat {q + 1}" for q, s in enumerate(pos.seats)]
    g = Game.new(n, {"adventure": pos.adventure, "difficulty": pos.difficulty, "names": names})
    g.req = g.then = None
    deck = g._cards
    pools: dict[str, list[int]] = {}
    for slot, c in enumerate(deck):
        pools.setdefault(c.key, []).append(slot)
    for k in pools:
        pools[k].reverse()  # pop() takes the lowest id
    for z in list(g.zones):
        for s in list(g.zones[z]):
            g.zone_of[s] = ""
        g.zones[z] = []
    everyone = g.all_mask
    view_mask = 0 if pos.viewer is None else 1 << pos.viewer

    # Slots are handed out in the order cards are placed and each slot is given its card
    # (``values``): a slot id must say nothing about the card in it, or a view could read the
    # hidden hands and the stacks off the ids (issue 14 item 14).
    free = iter(range(len(deck)))

    def put(key: str, zone: str, known: int, index: int | None = None) -> int:
        s = next(free)
        g.values[s] = pools[key].pop()
        g.place(s, zone, index)
        g.known[s] = known
        return s

    # the cards nobody listed: Items and Foes for the unknown slots of a view, the rest of the box
    listed: dict[str, int] = {}
    for s in pos.seats:
        for k in [*s.hand, *s.equipped, *s.foes]:
            if k is not None:
                listed[k] = listed.get(k, 0) + 1
    for z in pos.stacks:
        for k in z:
            if k is not None:
                listed[k] = listed.get(k, 0) + 1
    for k in [*pos.discard, *pos.removed]:
        listed[k] = listed.get(k, 0) + 1
    spare_items = [c.key for c in deck if c.is_item]
    spare = {k: len(v) - listed.get(k, 0) for k, v in pools.items()}

    def hidden_card(item_only: bool) -> str:
        for k in spare_items if item_only else [c.key for c in deck]:
            if spare.get(k, 0) > 0:
                spare[k] -= 1
                return k
        raise PositionError("seats", "not enough unlisted cards for the hidden ones")

    for q, s in enumerate(pos.seats):
        for k in s.hand:
            if k is None:
                put(hidden_card(True), f"hand{q}", 1 << q)
            else:
                put(k, f"hand{q}", (1 << q) | (view_mask if q != pos.viewer else 0))
        for k in s.equipped:
            put(k, f"equip{q}", everyone)
        for k in s.foes:
            put(k, f"foes{q}", everyone)
    for i, z in enumerate(pos.stacks):
        for j, k in enumerate(reversed(z)):  # bottom first
            top = j == len(z) - 1
            if k is None:
                put(hidden_card(False), f"stack{i}", 0)
            else:
                put(k, f"stack{i}", everyone if top else 0)
    for k in pos.discard:
        put(k, "discard", everyone)
    for k in pos.removed:
        put(k, "removed", everyone)
    adv = g._adv
    own = {c.key for c in adv.cards}
    for k in list(pools):
        while pools[k]:
            c = deck[pools[k][-1]]
            if c.key in own:
                put(k, "aside", everyone)
            elif c.is_foe and c.difficult:
                put(k, "box", everyone)
            else:
                put(k, "deck", 0)
    # the seat to move's cards take the lowest ids of their kind: the ids of a view say
    # nothing of the hidden cards
    ids_that_say_nothing(g, lambda v: deck[v].key, pos.to_move)
    g.spent = []
    for q, s in enumerate(pos.seats):
        eq = sorted(g.equipped(q))
        for k in s.spent:
            slot = next(x for x in eq if g.cdef(g.values[x]).key == k and x not in g.spent)  # type: ignore[arg-type]
            g.spent.append(slot)
    g.chars = [{"key": s.character, "side": s.side} for s in pos.seats]
    g.phase = "go"
    g.round = 1
    g.vocal = g.turn = pos.to_move
    g.time = pos.time
    g.time_max = pos.time_max
    g.sneaks = list(pos.sneaks)
    g.legs = pos.legs
    g.no_action = pos.no_action
    g.fx, g.fx_then, g.queue = [], None, []
    g.drawing = None
    g.result = None
    g.reason = ""
    g.defeated = dict(pos.defeated)
    g.step = pos.step
    g.request(Decide(pos.to_move))
    legal = g.legal(pos.to_move)
    if not legal:
        raise PositionError("to_move", f"seat {pos.to_move} has no legal move here")
    return g if pos.viewer is None else g.view(pos.viewer)
