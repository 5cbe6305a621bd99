"""Go Out Girl positions in the puzzle format of ``docs/puzzles.md``: parsing and validation
(every error names the field), and the engine state they describe -- the full-information state,
or the view of one seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2pcards.engine import Decide
from p2pcards.games.go_out_girl.data import CHARACTER_KEYS
from p2pcards.games.go_out_girl.game import Game

from ..errors import PositionError
from ..positions import ids_that_say_nothing
from .model import COPIES, DAMAGE, GUARDS, KYOKO, LIFE, NERAI, SATSUKI, SHIAN, TOYOKO, card_text

PHASES = ("turn", "lead")
TOP_FIELDS = {"format", "game", "title", "description", "solution", "viewer", "seats", "to_move",
              "phase", "field", "deck", "discard"}


@dataclass
class Seat:
    hand: list[int] | None  # numbers (0 = Guard); None: unknown to the viewer
    hidden: int  # how many unknown cards (views)
    character: int | None
    revealed: bool
    damage: int
    alive: bool
    locked: list[int] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)
    name: str | None = None


@dataclass
class Position:
    seats: list[Seat]
    to_move: int
    phase: str
    field: dict[str, Any] | None  # cards (numbers), number, count, damage, owner
    deck: list[int] | None  # top first; None in a view (then deck_count)
    deck_count: int
    discard: list[int] | None  # None: "rest"
    viewer: int | None
    title: str = ""
    claim: dict[str, Any] | None = None

    @property
    def n(self) -> int:
        return len(self.seats)


def parse_card(v: Any, where: str) -> int:
    if isinstance(v, bool):
        raise PositionError(where, f"{v!r} is not a card (1..13 or \"G\")")
    if isinstance(v, int) and 1 <= v <= 13:
        return v
    if isinstance(v, str):
        t = v.strip().upper()
        if t in ("G", "GUARD"):
            return 0
        if t.isdigit() and 1 <= int(t) <= 13:
            return int(t)
    raise PositionError(where, f"{v!r} is not a card (1..13 or \"G\")")


def parse_cards(v: Any, where: str) -> list[int]:
    if isinstance(v, str):
        v = v.split()
    if not isinstance(v, list):
        raise PositionError(where, "must be a list of cards, e.g. [\"9\", \"9\", \"G\"]")
    return [parse_card(x, f"{where}[{i}]") for i, x in enumerate(v)]


def _int(d: dict, key: str, where: str, default: Any = None, lo: int = 0, hi: int = 10**6) -> int:
    if key not in d or d[key] is None:
        if default is None:
            raise PositionError(f"{where}.{key}" if where else key, "is missing")
        return default
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise PositionError(f"{where}.{key}" if where else key,
                            f"must be an integer from {lo} to {hi}, not {v!r}")
    return v


def _bool(d: dict, key: str, where: str, default: bool) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise PositionError(f"{where}.{key}", f"must be true or false, not {v!r}")
    return v


def _char(v: Any, where: str) -> int:
    if not isinstance(v, str) or v.strip().lower() not in CHARACTER_KEYS:
        raise PositionError(where, f"{v!r} is not a character; use one of {', '.join(CHARACTER_KEYS)}")
    return CHARACTER_KEYS.index(v.strip().lower())


def parse(data: Any) -> Position:
    if not isinstance(data, dict):
        raise PositionError("", "a position is a JSON object")
    unknown = set(data) - TOP_FIELDS
    if unknown:
        raise PositionError(sorted(unknown)[0], f"unknown field (allowed: {', '.join(sorted(TOP_FIELDS))})")
    viewer = data.get("viewer")
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not 2 <= len(raw_seats) <= 5:
        raise PositionError("seats", "must be a list of 2 to 5 seats")
    n = len(raw_seats)
    if viewer is not None:
        viewer = _int(data, "viewer", "", lo=0, hi=n - 1)
    seats: list[Seat] = []
    for i, s in enumerate(raw_seats):
        w = f"seats[{i}]"
        if not isinstance(s, dict):
            raise PositionError(w, "must be an object")
        unknown = set(s) - {"hand", "character", "revealed", "damage", "alive", "locked", "pile", "name"}
        if unknown:
            raise PositionError(w, f"unknown field(s) {', '.join(sorted(map(str, unknown)))}")
        alive = _bool(s, "alive", w, True)
        revealed = _bool(s, "revealed", w, not alive)
        if not alive and not revealed:
            raise PositionError(f"{w}.revealed", "an eliminated seat's character is face up")
        raw_hand = s.get("hand")
        hand: list[int] | None
        hidden = 0
        if isinstance(raw_hand, int) and not isinstance(raw_hand, bool):
            if viewer is None or viewer == i:
                raise PositionError(f"{w}.hand", "must list the cards (a count of unknown cards "
                                    "is only for the other seats of a view)")
            if raw_hand < 0:
                raise PositionError(f"{w}.hand", "a card count cannot be negative")
            hand, hidden = None, raw_hand
        else:
            hand = parse_cards(raw_hand if raw_hand is not None else [], f"{w}.hand")
        ch_raw = s.get("character")
        if ch_raw is None:
            if viewer is None or viewer == i:
                raise PositionError(f"{w}.character", "is missing")
            if revealed:
                raise PositionError(f"{w}.character", "a revealed character must be named")
            ch = None
        else:
            ch = _char(ch_raw, f"{w}.character")
            if viewer is not None and viewer != i and not revealed:
                raise PositionError(f"{w}.character", f"seat {viewer}'s view cannot know seat "
                                    f"{i}'s face-down character")
        damage = _int(s, "damage", w, 0, 0, 99)
        if ch is not None and alive and damage >= LIFE[ch]:
            raise PositionError(f"{w}.damage", f"{damage} reaches {CHARACTER_KEYS[ch]}'s life "
                                f"{LIFE[ch]}, yet the seat is still in the battle")
        locked_raw = s.get("locked", [])
        if not isinstance(locked_raw, list):
            raise PositionError(f"{w}.locked", "must be a list of character names")
        locked = [_char(x, f"{w}.locked[{j}]") for j, x in enumerate(locked_raw)]
        if len(set(locked)) != len(locked):
            raise PositionError(f"{w}.locked", "lists a character twice")
        if ch is not None and ch in locked:
            raise PositionError(f"{w}.locked", "the character in play cannot be locked")
        if len(locked) > 6:
            raise PositionError(f"{w}.locked", "too many characters locked for a match")
        if ch is None and alive:  # a face-down character: one that survives the damage
            most = max(LIFE[k] for k in range(8) if k not in locked)
            if damage >= most:
                raise PositionError(f"{w}.damage", f"{damage} reaches the life of every character "
                                    f"the seat could hold (at most {most}), yet the seat is still "
                                    "in the battle")
        pile = parse_cards(s.get("pile", []), f"{w}.pile")
        if viewer is not None and i != viewer and pile:
            raise PositionError(f"{w}.pile", "face-down damage of another seat is not in a view")
        if alive and not hand and hidden == 0:  # no cards listed, or a count of 0
            raise PositionError(f"{w}.hand", "a seat in the battle with no cards would already "
                                "have won")
        name = s.get("name")
        if name is not None and not isinstance(name, str):
            raise PositionError(f"{w}.name", "must be a string")
        seats.append(Seat(hand, hidden, ch, revealed, damage, alive, locked, pile, name))
    if sum(s.alive for s in seats) < 2:
        raise PositionError("seats", "at least two seats must still be in the battle")
    to_move = _int(data, "to_move", "", lo=0, hi=n - 1)
    if not seats[to_move].alive:
        raise PositionError("to_move", f"seat {to_move} is out of the battle")
    if viewer is not None and viewer != to_move:
        raise PositionError("viewer", "a hint is for the seat to move: viewer must equal to_move")
    phase = data.get("phase", "turn")
    if phase not in PHASES:
        raise PositionError("phase", f"must be one of {', '.join(PHASES)}, not {phase!r}")
    fld = _parse_field(data.get("field"), seats, to_move)
    if phase == "lead":
        if fld is not None:
            raise PositionError("field", "after a Reset the field is empty")
        me = seats[to_move]
        if not (me.revealed and me.character == SHIAN):
            raise PositionError("phase", "only a revealed Shian leads after a Reset")
    raw_deck = data.get("deck", [] if viewer is None else 0)
    if viewer is None:
        if isinstance(raw_deck, int) and not isinstance(raw_deck, bool):
            raise PositionError("deck", "a full-information position lists the deck, top first")
        deck: list[int] | None = parse_cards(raw_deck, "deck")
        deck_count = len(deck)
    else:
        if isinstance(raw_deck, bool) or not isinstance(raw_deck, int) or raw_deck < 0:
            raise PositionError("deck", "in a view the deck is a count of face-down cards")
        deck, deck_count = None, raw_deck
    raw_discard = data.get("discard", "rest" if viewer is None else [])
    if raw_discard == "rest":
        if viewer is not None:
            raise PositionError("discard", "a view lists the face-up discard pile")
        discard = None
    else:
        discard = parse_cards(raw_discard, "discard")
    title = data.get("title", "")
    if not isinstance(title, str):
        raise PositionError("title", "must be a string")
    claim = data.get("solution")
    if claim is not None and not isinstance(claim, dict):
        raise PositionError("solution", "must be an object")
    pos = Position(seats, to_move, phase, fld, deck, deck_count, discard, viewer, title, claim)
    _check_counts(pos)
    return pos


def _parse_field(f: Any, seats: list[Seat], to_move: int) -> dict[str, Any] | None:
    if f is None:
        return None
    if not isinstance(f, dict):
        raise PositionError("field", "must be an object or null")
    unknown = set(f) - {"cards", "owner", "as", "count", "damage"}
    if unknown:
        raise PositionError("field", f"unknown field(s) {', '.join(sorted(map(str, unknown)))}")
    cards = parse_cards(f.get("cards"), "field.cards")
    if not cards:
        raise PositionError("field.cards", "an empty field is null")
    if 0 in cards:
        raise PositionError("field.cards", "a Guard is discarded at once, never on the field")
    owner = _int(f, "owner", "field", lo=0, hi=len(seats) - 1)
    o = seats[owner]
    if not o.alive:
        raise PositionError("field.owner", f"seat {owner} is out of the battle")
    if owner == to_move:
        raise PositionError("field.owner", "when the turn comes back to the pile's owner the "
                            "field is cleared: the owner cannot be the seat to move")
    number = _int(f, "as", "field", cards[0], 1, 14)
    ability = o.character if o.revealed else None
    for j, c in enumerate(cards):
        ok = c == number or (number == 6 and ability == NERAI and c in (4, 5, 6)) or (
            number == 14 and ability == TOYOKO and c == 1)
        if not ok:
            raise PositionError(f"field.cards[{j}]", f"{card_text(c)} cannot be played as {number} "
                                f"by seat {owner}")
    count = _int(f, "count", "field", len(cards), 1, 30)
    if ability == KYOKO:
        if len(cards) != 1 or count not in (1, 2):
            raise PositionError("field.count", "a revealed Kyoko plays one card, as a single or a pair")
    elif count != len(cards):
        raise PositionError("field.count", f"{len(cards)} card(s) cannot count as {count}")
    dmg = DAMAGE[number] + (1 if ability == SATSUKI and number != 13 else 0)
    damage = _int(f, "damage", "field", dmg, 0, 9)
    if damage != dmg:
        raise PositionError("field.damage", f"the pile deals {dmg} damage, not {damage}")
    return {"cards": cards, "owner": owner, "number": number, "count": count, "damage": damage}


def _check_counts(pos: Position) -> None:
    used = [0] * 14
    lists: list[tuple[str, list[int]]] = [(f"seats[{q}].hand", s.hand or [])
                                          for q, s in enumerate(pos.seats)]
    lists += [(f"seats[{q}].pile", s.pile) for q, s in enumerate(pos.seats)]
    lists += [("field.cards", pos.field["cards"] if pos.field else []), ("deck", pos.deck or []),
              ("discard", pos.discard or [])]
    over: list[str | None] = [None] * 14  # where each number first goes over its count
    for where, lst in lists:
        for j, c in enumerate(lst):
            used[c] += 1
            if used[c] == (GUARDS if c == 0 else COPIES) + 1:
                over[c] = f"{where}[{j}]"
    for c in range(14):
        cap = GUARDS if c == 0 else COPIES
        if used[c] > cap:
            name = "Guards" if c == 0 else f"{c}s"
            raise PositionError(over[c] or "seats", f"{used[c]} {name} are listed; the game "
                                f"has {cap}")
    if pos.viewer is not None:
        unseen = 13 * COPIES + GUARDS - sum(used)
        need = sum(s.hidden for s in pos.seats) + pos.deck_count
        if need > unseen:
            raise PositionError("deck", f"the view hides {need} cards (other hands and the deck) "
                                f"but only {unseen} cards are unseen")


def build(pos: Position) -> Game:
    """The engine state the position describes: the full state, or (with ``viewer``) that
    seat's view, with the seat to move deciding."""
    n = pos.n
    g = Game.new(n)
    g.req = g.then = None
    b = g._b
    pools: dict[int, list[int]] = {c: [] for c in range(14)}
    for card in range(b):
        pools[g.number(card)].append(card)
    for c in pools:
        pools[c].reverse()  # pop() takes the lowest id

    # Slots are handed out in the order cards are placed and each slot is given its card
    # (``values``): a slot id must say nothing about the card in it, or a view could read the
    # hidden hands, the deck order and face-down characters off the ids (issue 14 item 14).
    free = iter(range(b))

    def take(c: int) -> int:
        s = next(free)
        g.values[s] = pools[c].pop()
        return s

    def put(cards: list[int], zone: str, known: int) -> list[int]:
        slots = []
        for c in cards:
            s = take(c)
            g.place(s, zone)
            g.known[s] = known
            slots.append(s)
        return slots

    everyone = g.all_mask
    view_mask = 0 if pos.viewer is None else 1 << pos.viewer
    hidden_hands: list[tuple[int, int]] = []
    for q, s in enumerate(pos.seats):
        if s.hand is not None:
            put(s.hand, f"hand{q}", (1 << q) | (view_mask if q != pos.viewer else 0))
        else:
            hidden_hands.append((q, s.hidden))
        put(s.pile, f"dmg{q}", 1 << q)
    if pos.field:
        fslots = put(pos.field["cards"], "field", everyone)
        f = pos.field
        g.top = {"slots": fslots, "number": f["number"], "count": f["count"],
                 "damage": f["damage"], "owner": f["owner"]}
    else:
        g.top = None
    if pos.discard is not None:
        put(pos.discard, "discard", everyone)
    # what is left: the deck (listed top first; the engine's deck is top last), the hidden
    # hands of a view, and the rest
    rest = [c for c in range(14) for _ in pools[c]]
    if pos.deck is not None:
        for c in reversed(pos.deck):
            s = take(c)
            g.place(s, "deck")
            g.known[s] = 0
        rest = [c for c in range(14) for _ in pools[c]]
    else:
        for _ in range(pos.deck_count):
            c = rest.pop()
            g.place(take(c), "deck")
            g.known[g.zones["deck"][-1]] = 0
    for q, k in hidden_hands:
        for _ in range(k):
            c = rest.pop()
            s = take(c)
            g.place(s, f"hand{q}")
            g.known[s] = 1 << q
    if pos.discard is None:
        put(rest, "discard", everyone)
    else:
        # the cards nobody listed are out of play, face down in the other seats' damage piles
        # (never the seat to move's own: it would know them), first up to each seat's damage
        # (issue 14 item 13), then in turn; a full position and its view deal them alike
        others = [q for q in range(n) if q != pos.to_move]
        room = [max(0, pos.seats[q].damage - len(pos.seats[q].pile)) for q in range(n)]
        order = [q for q in others for _ in range(room[q])]
        for i, c in enumerate(rest):
            q = order[i] if i < len(order) else others[(i - len(order)) % len(others)]
            s = take(c)
            g.place(s, f"dmg{q}")
            g.known[s] = 1 << q
    # characters
    for q, s in enumerate(pos.seats):
        ch = s.character
        if ch is None:  # a view's face-down character: any unlocked one that fits the damage
            ch = next((k for k in range(8) if k not in s.locked and LIFE[k] > s.damage),
                      next(k for k in range(8) if k not in s.locked))
        # the character in play in the seat's first slot, the locked ones next, the rest after:
        # which slot holds which character says nothing
        order = [ch] + [k for k in range(8) if k in s.locked and k != ch] + [
            k for k in range(8) if k != ch and k not in s.locked]
        for i, k in enumerate(order):
            slot = b + 8 * q + i
            g.values[slot] = b + 8 * q + k
            if k == ch:
                g.place(slot, f"char{q}")
                g.known[slot] = everyone if s.revealed else 1 << q
            elif k in s.locked:
                g.place(slot, f"locked{q}")
                g.known[slot] = everyone
            else:
                g.known[slot] = 1 << q
    g.battle = 1
    g.start = 0
    g.turn = pos.to_move
    g.phase = pos.phase
    g.alive = [s.alive for s in pos.seats]
    g.damage = [s.damage for s in pos.seats]
    g.revealed = [s.character if s.revealed else None for s in pos.seats]
    g.task = g.drawing = None
    g.queue = []
    g.winner = None
    names = [s.name or f"Seat {q + 1}" for q, s in enumerate(pos.seats)]
    g.config["names"] = names
    # the seat to move's cards take the lowest ids of their number: the ids of a view say
    # nothing of the hidden cards
    ids_that_say_nothing(g, lambda v: g.number(v) if v < b else None, pos.to_move)
    g.request(Decide(pos.to_move))
    if not g.legal(pos.to_move):
        raise PositionError("to_move", f"seat {pos.to_move} has no legal move here")
    return g if pos.viewer is None else g.view(pos.viewer)
