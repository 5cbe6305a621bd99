"""The knowledge-aware state machine every game is built on.

Cards live in **slots** (ints ``0..n_cards-1``); each slot sits in a **zone** (an ordered list of
slots, bottom first, so ``zones[z][-1]`` is the top). A new state holds card ``i`` in slot ``i``,
known to everyone -- the cards as they come out of the box -- and games shuffle what they must.

A state is always somebody's **view**: ``viewer`` is the seat whose copy this is, or ``None`` for
the full-information copy (tests, solver, audit). ``known[s]`` is the bitmask of seats that know
the card in slot ``s``; it is public and identical in every copy. ``values[s]`` is the card, or
``None`` where this copy's viewer is not in ``known[s]``. *Card values are the only private
information*: every other field of a game is public, so ``view(p)`` is generic and a view can never
hold something its seat may not know.

Games subclass ``GameState`` and write rules as continuations: ``self.request(Reveal(...),
"check_play", player=p)`` stores the request; when its outcome arrives, the card table is
updated here and ``self._after_check_play(player=p)`` runs. Decisions go to ``self._decide(p, a)``
after ``self.validate(p, a)``. Every attribute not starting with ``_`` is JSON-like state.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from .actions import Action
from .errors import RuleViolation
from .requests import (
    Decide,
    Decision,
    Event,
    Prove,
    Proven,
    Random,
    RandomValue,
    Request,
    Reveal,
    Revealed,
    Shuffle,
    Shuffled,
)

FORMAT_VERSION = 1
UNREADABLE = (TypeError, ValueError, KeyError, IndexError, AttributeError)  # see GameState.check
SPECTATOR = -1  # the viewer of a copy that holds only public cards


def _malformed(player: int, action: Action, exc: Exception) -> RuleViolation:
    return RuleViolation(player, f"malformed action {action.to_json()} "
                                 f"({type(exc).__name__}: {exc})")


def plural(n: int, noun: str) -> str:
    """``"1 card"``, ``"3 cards"``: a count for the narration."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def join_names(names: Iterable[str], last: str = "and") -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``: a list of names for the narration."""
    xs = list(names)
    if len(xs) <= 1:
        return "".join(xs)
    return f"{', '.join(xs[:-1])} {last} {xs[-1]}"


def mask_of(seats: Iterable[int]) -> int:
    m = 0
    for s in seats:
        m |= 1 << s
    return m


def seats_of(mask: int, n_players: int) -> tuple[int, ...]:
    return tuple(s for s in range(n_players) if mask >> s & 1)


#: The engine's secrecy levels, each the deck operations a version of the program issues (and
#: the ``"claims"`` of the deck's game description, ``lobby.deck_spec``):
#: 0 -- claims about hidden cards taken as made (records made before 3 Dec 2026);
#: 1 -- claims proven when made (``prove``), each followed by a re-mix of its slots by the
#:      claimant;
#: 2 -- no ciphertext's plain decryption shares ever add up to a card some seat may not see: the
#:      engine re-encrypts a slot before an opening or a claim that would publish the last one
#:      missing (``_reencrypt_first``), and a claim needs no re-mix after it.
SECRECY = 2


class GameState:
    game: ClassVar[str] = ""  # registry short name, e.g. "go-out-girl"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    #: The options ``new`` takes besides ``names`` (the command line offers each as a flag).
    OPTIONS: ClassVar[tuple[str, ...]] = ()
    #: The arguments of each action kind, checked on every untrusted decision before the rules
    #: (and their descriptions) look at it: name -> "slot" (a slot of this game), "slots" (a list
    #: of slots), "seat", "int", "str" or "bool"; a name ending in "?" may be left out. A kind not
    #: listed is left to ``validate``. ``None``: the game checks the shape of its actions itself.
    ACTION_ARGS: ClassVar[dict[str, dict[str, str]] | None] = None
    #: How the engine keeps hidden cards hidden, by the version of the records it makes
    #: (``SECRECY``). Set lower on the instance only to replay a record an earlier version made
    #: (clones, views and JSON keep it), so the replay issues the deck operations that version did.
    secrecy: ClassVar[int] = SECRECY

    # ---- construction -------------------------------------------------------------------------
    def __init__(self, n_players: int, n_cards: int, config: dict[str, Any] | None = None) -> None:
        self.n_players = n_players
        self.config = dict(config or {})
        self.viewer: int | None = None
        self.zones: dict[str, list[int]] = {}
        self.zone_of: list[str] = [""] * n_cards
        self.values: list[int | None] = list(range(n_cards))
        self.known: list[int] = [self.all_mask] * n_cards
        # the seats whose plain decryption share of each slot's current ciphertext the deck has
        # published (an opening to some seats publishes the others'; a claim every seat's but
        # the claimant's); a re-encryption clears it (see ``_reencrypt_first``)
        self.exposed: list[int] = [0] * n_cards
        self.req: dict[str, Any] | None = None  # the pending request, as JSON
        self.then: list[Any] | None = None  # continuation: [name, kwargs]
        self.drawing: dict[str, Any] | None = None  # a draw in progress (see ``draw``)
        self._notes: list[str] | None = None

    @property
    def all_mask(self) -> int:
        return (1 << self.n_players) - 1

    @property
    def n_cards(self) -> int:
        return len(self.values)

    # ---- the contract -------------------------------------------------------------------------
    def pending(self) -> Request | None:
        """What must happen next; ``None`` once the game is over."""
        r = self.req
        if r is None:
            return None
        t = r["type"]
        if t == "decide":
            return Decide(r["player"])
        if t == "shuffle":
            return Shuffle(tuple(r["slots"]), r["by"], bool(r.get("mix", False)))
        if t == "reveal":
            return Reveal(tuple(r["slots"]), tuple(r["to"]))
        if t == "prove":
            return Prove(tuple(r["slots"]), r["by"], tuple(r["allowed"]))
        return Random(r["n"])

    def legal(self, player: int) -> list[Action]:
        """The actions ``player`` may take now, as far as this view can tell. Empty unless the
        pending request is ``Decide(player)``."""
        raise NotImplementedError

    def validate(self, player: int, action: Action) -> None:
        """Raise ``RuleViolation`` if this view can tell the action is illegal. Must not mutate.
        The default checks membership in ``legal`` when this view knows the player's cards."""
        if (self.viewer is None or self.viewer == player) and action not in self.legal(player):
            raise RuleViolation(player, f"{self.describe(action)} is not a legal action now")

    def canonical(self, player: int, action: Action) -> Action:
        """``action`` in the form ``legal(player)`` lists it: a game whose ``legal`` names one
        canonical slot per group of equivalent cards maps each card to its group's (and its
        ``validate`` accepts what maps into ``legal``). The default: the action itself."""
        return action

    def check(self, player: int, action: Action) -> None:
        """The checks of an untrusted decision: its arguments' shape (``ACTION_ARGS``), then
        ``validate``; an action the rules still cannot read (a ``TypeError``, ``KeyError``...)
        is reported as a ``RuleViolation`` by ``player`` too."""
        self.check_shape(player, action)
        try:
            self.validate(player, action)
        except UNREADABLE as exc:
            raise _malformed(player, action, exc) from None

    def check_shape(self, player: int, action: Action) -> None:
        """``RuleViolation`` naming the argument if ``action`` lacks one its kind needs, has one
        it does not take, or one of the wrong type or out of range (see ``ACTION_ARGS``)."""
        want = None if self.ACTION_ARGS is None else self.ACTION_ARGS.get(action.kind)
        if want is None:
            return
        args = dict(action.args)
        for spec, typ in want.items():
            name = spec.rstrip("?")
            if name not in args:
                if spec.endswith("?"):
                    continue
                raise RuleViolation(player, f"malformed action: '{action.kind}' without its "
                                            f"argument '{name}'")
            v = args.pop(name)
            if not self._arg_ok(typ, v):
                what = {"int": "an integer", "str": "a string", "bool": "true or false",
                        "slots": "a list of slots"}.get(typ, f"a {typ}")
                raise RuleViolation(player, f"malformed action: '{action.kind}' argument "
                                            f"'{name}' is {v!r:.40}, not {what}")
        if args:
            raise RuleViolation(player, f"malformed action: '{action.kind}' does not take "
                                        f"{', '.join(repr(k) for k in sorted(args))}")

    def _arg_ok(self, typ: str, v: Any) -> bool:
        if typ == "slots":
            return isinstance(v, tuple) and all(self._arg_ok("slot", x) for x in v)
        if typ == "str":
            return isinstance(v, str)
        if typ == "bool":
            return isinstance(v, bool)
        if not isinstance(v, int) or isinstance(v, bool):
            return False
        bound = {"slot": self.n_cards, "seat": self.n_players}.get(typ)
        return bound is None or 0 <= v < bound

    def apply(self, event: Event, *, trusted: bool = False) -> None:
        """Apply a decision or a service outcome. ``trusted`` skips decision validation (for
        simulations whose actions come straight from ``legal``)."""
        r = self.req
        if r is None:
            raise RuleViolation(getattr(event, "player", None), "the game is over")
        t = r["type"]
        if isinstance(event, Decision):
            if t != "decide" or r["player"] != event.player:
                raise RuleViolation(event.player, "it is not this player's decision")
            if not trusted:
                self.check(event.player, event.action)
            self.req = self.then = None
            try:
                self._decide(event.player, event.action)
            except UNREADABLE as exc:
                if trusted:  # an action from legal: a bug in the rules, not the player's doing
                    raise
                # a peer's copy cannot check every argument of a claim about hidden cards
                raise _malformed(event.player, event.action, exc) from None
            return
        if isinstance(event, Revealed) and t == "reveal":
            self._on_revealed(event, r)
        elif isinstance(event, Shuffled) and t == "shuffle":
            self._on_shuffled(event, r)
        elif isinstance(event, RandomValue) and t == "random":
            if not 0 <= event.value < r["n"]:
                raise RuleViolation(None, f"random value {event.value} out of range {r['n']}")
        elif isinstance(event, Proven) and t == "prove":
            self._on_proven(event, r)
        else:
            raise RuleViolation(None, f"{type(event).__name__} does not answer pending {t}")
        then = self.then
        self.req = self.then = None
        if then is not None:
            name, kwargs = then
            if isinstance(event, RandomValue):
                kwargs = {**kwargs, "value": event.value}
            getattr(self, "_after_" + name)(**kwargs)

    def view(self, player: int) -> GameState:
        """The copy of this state that seat ``player`` may see; ``SPECTATOR`` (-1) sees only the
        cards known to every seat."""
        if self.viewer is not None and self.viewer != player and player != SPECTATOR:
            raise ValueError(f"the view of seat {self.viewer} cannot produce seat {player}'s view")
        v = self.clone()
        v.viewer = player
        need = self.all_mask if player == SPECTATOR else 1 << player
        vals = v.values
        for s, k in enumerate(self.known):
            if k & need != need:
                vals[s] = None
        return v

    def sees(self, to: Sequence[int]) -> bool:
        """Whether this copy learns what is opened to the seats ``to``."""
        if self.viewer is None:
            return True
        if self.viewer == SPECTATOR:
            return len(to) == self.n_players
        return self.viewer in to

    def _public(self) -> dict[str, Any]:
        """The attributes that are the state (a shallow copy of them): every one not named
        ``_...`` (those are derived, or notes). The public names a class has shown are kept on
        the class, so that only the others (a handful) are looked at one by one: copies and
        comparisons of states run hundreds of thousands of times in the suite's simulations,
        and testing each of a state's ~40 names every time was a sixth of a copy's cost."""
        d = self.__dict__.copy()
        known = type(self).__dict__.get("_public_names", frozenset())
        grew = False
        for k in d.keys() - known:
            if k[0] == "_":
                del d[k]
            else:
                grew = True
        if grew:
            type(self)._public_names = known | d.keys()
        return d

    def clone(self) -> GameState:
        c = object.__new__(type(self))
        c.__dict__.update(pickle.loads(pickle.dumps(self._public(), pickle.HIGHEST_PROTOCOL)))
        for k, v in self.__dict__.items():
            if k[0] == "_":
                c.__dict__[k] = v
        c._notes = None
        return c

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "format": FORMAT_VERSION, "state": self._public()}

    @classmethod
    def from_json_body(cls, body: dict[str, Any]) -> GameState:
        s = object.__new__(cls)
        s.__dict__.update(json.loads(json.dumps(body)))
        s._notes = None
        s._restore()
        return s

    def _restore(self) -> None:
        """Rebuild derived, non-serialised attributes after ``from_json``/``clone``."""

    def __eq__(self, other: object) -> bool:  # to_json() == other.to_json(), without the wrappers
        return isinstance(other, GameState) and self.game == other.game and \
            self._public() == other._public()

    __hash__ = None  # type: ignore[assignment]

    # ---- what games implement -----------------------------------------------------------------
    def _decide(self, player: int, action: Action) -> None:
        raise NotImplementedError

    def describe(self, action: Action) -> str:
        """A short human-readable text for an action, from this view."""
        inner = " ".join(f"{k}={v}" for k, v in action.args)
        return f"{action.kind} {inner}".strip()

    def outcome(self) -> dict[str, Any] | None:
        """The result once the game is over (winners, scores), else ``None``."""
        raise NotImplementedError

    def card_name(self, card: int | None) -> str:
        return "?" if card is None else str(card)

    def result_text(self) -> str:
        """The result in words, once the game is over."""
        o = self.outcome()
        return "" if o is None else str(o)

    def status(self, seat: int | None = None) -> list[str]:
        """Lines describing the table as this view sees it, for ``seat``'s screen."""
        return []

    def arrangement_prompt(self, by: int, slots: tuple[int, ...]) -> str | None:
        """For ``Shuffle(slots, by=seat)``: a question for a human when the order is theirs to
        choose (e.g. "put the top 3 cards back in any order"); ``None`` when the order does not
        matter to them (it is then random)."""
        return None

    def disguise(self, player: int, action: Action, rng: Any) -> Action:
        """The action ``player``'s own program sends for ``action``, a choice from ``legal``: the
        same move with each card it names replaced by one picked at random (``rng``, the
        sender's own: the table passes OS randomness) among the cards ``player`` knows to be
        equivalent to it. ``legal`` lists one canonical slot per group of equivalent cards (the
        lowest), so sending it as listed would tell every onlooker that no hidden card below it
        is of that kind; ``validate`` accepts any equivalent slot. The default sends the action
        as it is; a game whose actions name interchangeable cards overrides it, usually as
        ``self._disguise_slots(player, action, rng, key)``. Pure: no mutation."""
        return action

    def _disguise_slots(self, p: int, action: Action, rng: Any, key: Any,
                        only: Sequence[str] | None = None) -> Action:
        """``disguise`` for the slot arguments of ``action`` (the ``slot``/``slots`` types of
        ``ACTION_ARGS``, or those of them in ``only``): ``key(slot)`` is the card's equivalence class as seat ``p`` knows it,
        or ``None`` for a slot the move fixes (it is kept). Two slots are interchangeable when
        they sit in the same zone, have the same key and the same ``known`` mask -- a card
        others know is never swapped for one they do not -- and every slot the action names is
        mapped through one random permutation of each such class (so a slot named twice, e.g.
        a pass's ``give`` among its ``slots``, stays consistent).

        Why this leaks nothing: seen from a seat ``q`` that does not know them, the cards of a
        class's slots were last mixed together by their holder (``mix_hand``) and have had the
        same public history since (the same mask), so every arrangement of them that agrees with
        the record is equally likely to ``q``. The move opens (or hands on) a card of kind ``k``
        from one of them; the sender picks each such slot with probability ``1/n_k`` where
        ``n_k`` is the number of kind-``k`` cards there, whatever the arrangement, so the
        likelihood of seeing slot ``s`` named is the same for every arrangement with a ``k`` in
        ``s`` -- the same as if the cards had been picked up blind -- and ``q`` learns only
        the card that is shown, not where the others lie. The lowest slot, by contrast, has
        likelihood 1 or 0 depending on the cards below it.

        The result must pass ``check`` at this copy; if it does not (a game whose ``validate``
        does not accept the equivalent card: a bug), the action is sent as it was."""
        want = (self.ACTION_ARGS or {}).get(action.kind) or {}
        names = [n.rstrip("?") for n, t in want.items() if t in ("slot", "slots")
                 and (only is None or n.rstrip("?") in only)]
        args = dict(action.args)
        named: list[int] = []
        for n in names:
            v = args.get(n)
            named += list(v) if isinstance(v, tuple) else [] if v is None else [v]
        if not named or not all(isinstance(s, int) and 0 <= s < self.n_cards for s in named):
            return action
        perm: dict[int, int] = {}
        for s in dict.fromkeys(named):
            if s in perm:
                continue
            k = key(s) if self.zone_of[s] else None
            if k is None:
                perm[s] = s
                continue
            cell = [t for t in self.zones[self.zone_of[s]]
                    if self.known[t] == self.known[s] and key(t) == k]
            images = list(cell)
            rng.shuffle(images)
            perm.update(zip(cell, images, strict=True))
        for n in names:
            v = args.get(n)
            if isinstance(v, tuple):  # sorted stays sorted, an order that matters stays
                args[n] = tuple(sorted(perm[s] for s in v)) if list(v) == sorted(v) \
                    else tuple(perm[s] for s in v)
            elif v is not None:
                args[n] = perm[v]
        out = Action(action.kind, **args)
        try:
            self.check(p, out)
        except RuleViolation:
            return action
        return out

    def chat_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not send a chat line now (``None``: it may). The table enforces it."""
        return None

    def chat_audience(self, seat: int) -> list[int]:
        """The seats that receive ``seat``'s chat lines (default: everyone else)."""
        return [p for p in range(self.n_players) if p != seat]

    @classmethod
    def rules_text(cls) -> str:
        """The card data and house rules, for ``p2pcards rules GAME``."""
        return ""

    # ---- helpers for games --------------------------------------------------------------------
    def request(self, req: Request, then: str | None = None, /, **kwargs: Any) -> None:
        if self.req is not None:
            raise AssertionError("a request is already pending")
        if then is None and kwargs:
            raise AssertionError("continuation arguments given without a continuation: name the "
                                 "continuation positionally, request(req, 'name', **kwargs)")
        if isinstance(req, Decide):
            self.req = {"type": "decide", "player": req.player}
        elif isinstance(req, Shuffle):
            self.req = {"type": "shuffle", "slots": list(req.slots), "by": req.by}
            if req.mix:
                if req.by is None:
                    raise AssertionError("a mixed hand needs its holder: Shuffle(slots, by=p, mix=True)")
                self.req["mix"] = True
        elif isinstance(req, Reveal):
            self.req = {"type": "reveal", "slots": list(req.slots), "to": sorted(req.to)}
        elif isinstance(req, Random):
            if req.n < 1:
                raise AssertionError("Random(n) needs n >= 1")
            self.req = {"type": "random", "n": req.n}
        elif isinstance(req, Prove):
            if not req.slots or not req.allowed or list(req.allowed) != sorted(set(req.allowed)):
                raise AssertionError("Prove needs slots and ascending, distinct allowed values")
            self.req = {"type": "prove", "slots": list(req.slots), "by": req.by,
                        "allowed": list(req.allowed)}
        self.then = None if then is None else [then, kwargs]

    def decide(self, player: int) -> None:
        self.request(Decide(player))

    def prove(self, slots: Sequence[int], by: int, allowed: Iterable[int], claim: str,
              then: str, /, **kw: Any) -> None:
        """Seat ``by`` claims that every card in ``slots`` is one of ``allowed``: it proves it
        now, in zero knowledge (``Prove``), and the game goes on with ``then(**kw)`` once it is
        proven. ``claim`` says what was claimed, for the ``RuleViolation`` a copy that knows the
        cards raises when the claim is false (see ``_on_proven``). With no slots the claim is
        empty, and when every card it does not allow lies face up elsewhere (known to every
        seat) it is plain to all: either way no proof is needed and the game goes on at once.
        With no allowed value it is false for everyone to see, and ``by`` is named at once; so is
        a claim about a card every seat sees that is not allowed (secrecy 2: such a card is
        checked by every copy and left out of the proof)."""
        vals = sorted(set(allowed))
        inside = set(slots)
        public = {self.values[s] for s, k in enumerate(self.known)
                  if k == self.all_mask and s not in inside}
        ok = set(vals) | public
        if not slots or self.secrecy < 1 or (vals and all(c in ok for c in range(self.n_cards))):
            getattr(self, "_after_" + then)(**kw)
            return
        if not vals:
            raise RuleViolation(by, f"{claim}: no card could make that true")
        if self.secrecy >= 2:
            # a card every seat sees needs no proof: every copy checks it here (secrecy 1
            # proved it too, publishing nothing new)
            for s in slots:
                if self.known[s] == self.all_mask and self.values[s] not in vals:
                    raise RuleViolation(by, f"{claim}, but it holds "
                                            f"{self.card_name(self.values[s])}")
            slots = [s for s in slots if self.known[s] != self.all_mask]
            if not slots:
                getattr(self, "_after_" + then)(**kw)
                return
        if self._reencrypt_first(slots, self.all_mask & ~(1 << by), 1 << by,
                                 ["prove", [list(slots), by, vals, claim, then], kw]):
            return
        if self.secrecy >= 2:
            self.request(Prove(tuple(slots), by, tuple(vals)), then, **kw)
        else:
            self.request(Prove(tuple(slots), by, tuple(vals)), "proven_remix",
                         slots=list(slots), by=by, then_=then, kw=kw)
        assert self.req is not None
        self.req["claim"] = claim

    def _after_proven_remix(self, slots: list[int], by: int, then_: str, kw: dict[str, Any]) -> None:
        """Secrecy 1 only (records made before ``_reencrypt_first``): after a proof the claimant
        mixed the claimed slots (a private reorder, which re-encrypts them)."""
        self.request(Shuffle(tuple(slots), by, mix=True), then_, **kw)

    def _reencrypt_first(self, slots: Sequence[int], publish: int, learn: int, op: list[Any]) -> bool:
        """Before an opening or a claim that publishes the plain shares of the seats in
        ``publish`` (and shows the cards to the seats in ``learn``): if that would complete the
        shares of a slot's current ciphertext -- every seat's published, by this operation and
        the ones before since its last re-encryption -- while some seat may still not see its
        card, anyone could decode the card from the public record (protocol/SPEC.md 5.7, "shares
        add up"). So the slot is re-encrypted first: one seat that knows its card mixes it alone
        (``Shuffle((slot,), by=that seat, mix=True)``: a private re-encryption that moves
        nothing, and the seats that knew the card still do), or, when no seat knows it, every
        seat shuffles it in turn. Then ``op`` (``[method, args, kw]``) runs again, and checks the
        next slot. Returns whether a re-encryption was requested. Secrecy 2 and later."""
        if self.secrecy < 2:
            return False
        exposed = self._exposure()
        for s in slots:
            if exposed[s] | publish == self.all_mask and self.known[s] | learn != self.all_mask:
                knowers = seats_of(self.known[s], self.n_players)
                by = knowers[0] if knowers else None
                self.request(Shuffle((s,), by, mix=by is not None), "reencrypted", op=op)
                return True
        return False

    def _after_reencrypted(self, op: list[Any]) -> None:
        method, args, kw = op
        getattr(self, method)(*args, **kw)

    def _exposure(self) -> list[int]:
        """``exposed``, made on first use for a state read from before it existed."""
        exposed = self.__dict__.get("exposed")
        if exposed is None:
            exposed = self.exposed = [0] * self.n_cards
        return exposed

    def reveal(self, slots: Sequence[int], to: Iterable[int] | None, then: str, /, **kw: Any) -> None:
        """Open ``slots`` to the seats ``to`` (``None``: everyone). When every seat in ``to``
        already knows every slot, the continuation runs at once with no request."""
        seats = tuple(range(self.n_players)) if to is None else tuple(sorted(set(to)))
        m = mask_of(seats)
        if all(self.known[s] & m == m for s in slots):
            getattr(self, "_after_" + then)(**kw)
            return
        if all(self.known[s] | m == self.all_mask for s in slots):
            # the cards become public anyway: open them to everyone, which tells no seat anything
            # new and lets public copies (spectators, logs) learn them too
            seats = tuple(range(self.n_players))
        elif self._reencrypt_first(slots, self.all_mask & ~m, m,
                                   ["reveal", [list(slots), list(seats), then], kw]):
            return
        self.request(Reveal(tuple(slots), seats), then, **kw)

    def draw(self, p: int, n: int, then: str, /, **kw: Any) -> None:
        """Seat ``p`` draws ``n`` cards from the top of the ``deck`` zone into ``hand{p}``; they
        are revealed to ``p`` (whose log names them) and the game continues with
        ``then(**kw, drawn=[slots])``. When the deck runs out mid-draw, ``refill`` may start a
        new one; otherwise ``p`` draws what there is."""
        self.drawing = {"p": p, "left": n, "drawn": [], "then": then, "kw": kw}
        self._after_draw_more()

    def _after_draw_more(self) -> None:
        t = self.drawing
        assert t is not None
        deck = self.zones["deck"]
        while t["left"] > 0 and deck:
            s = deck[-1]
            self.place(s, f"hand{t['p']}")
            t["drawn"].append(s)
            t["left"] -= 1
        if t["left"] > 0 and self.refill("draw_more"):
            return
        self.drawing = None
        self.reveal(t["drawn"], [t["p"]], "drawn_seen", p=t["p"], drawn=t["drawn"],
                    then=[t["then"], t["kw"]])

    def _after_drawn_seen(self, p: int, drawn: list[int], then: list[Any]) -> None:
        if drawn:
            self.say_cards(f"{self.pname(p)} draws {plural(len(drawn), 'card')}", drawn)
        zone = f"hand{p}"
        if zone in self.hands():
            self.mix_hand(zone, drawn, "drawn_mixed", drawn=drawn, then=then)
        else:
            self._after_drawn_mixed(drawn, then)

    def _after_drawn_mixed(self, drawn: list[int], then: list[Any]) -> None:
        name, kw = then
        getattr(self, "_after_" + name)(**kw, drawn=drawn)

    def hands(self) -> dict[str, int]:
        """The zones that are hands, each with the seat that holds it (``{"hand0": 0, ...}``).
        A card that enters a hand is mixed with the others (``mix_hand``); ``draw`` does it by
        itself for ``hand{p}``. The default declares none (nothing is mixed)."""
        return {}

    def interchangeable(self, seat: int) -> list[list[int]]:
        """Groups of slots whose cards ``seat`` knows (and this copy holds) and whose order
        among themselves means nothing: to the rules (no rule and no public field singles one
        out) and to the other seats (the same zone, the same ``known`` mask, last mixed
        together). A bot decides on a copy where each group's cards lie in one canonical order
        (``p2pcards.bots.base.blind_view``), so its choice cannot depend on where the cards
        lie. The default: each hand of ``hands()``, its slots ``seat`` knows split by mask."""
        out: list[list[int]] = []
        for zone in self.hands():
            cells: dict[int, list[int]] = {}
            for s in self.zones.get(zone, ()):
                if self.known[s] >> seat & 1 and self.values[s] is not None:
                    cells.setdefault(self.known[s], []).append(s)
            out += [c for c in cells.values() if len(c) >= 2]
        return out

    def mix_hand(self, zone: str, entered: Sequence[int], then: str, /, **kw: Any) -> None:
        """The cards ``entered`` the hand ``zone`` (declared in ``hands()``): its holder mixes
        it, ``Shuffle(slots, by=holder, mix=True)``, so every other seat loses track of which
        slot holds which card -- a gift cannot be followed, a just-drawn card cannot be told from
        the old ones -- while the holder still knows them all. Skipped (the continuation runs at
        once) when there is nothing to lose track of: fewer than two cards, or only the cards
        that just entered together and no other seat knows any of them. Only the slots the
        holder knows are mixed. After a mix, ``entered`` says how many cards came, not where
        they are."""
        holder = self.hands()[zone]
        slots = [s for s in self.zones[zone] if self.known[s] >> holder & 1]
        others = self.all_mask & ~(1 << holder)
        fresh = set(entered)
        if len(slots) >= 2 and (any(s not in fresh for s in slots)
                                or any(self.known[s] & others for s in slots)):
            self.request(Shuffle(tuple(slots), holder, mix=True), then, **kw)
        else:
            getattr(self, "_after_" + then)(**kw)

    def refill(self, then: str) -> bool:
        """The ``deck`` zone ran out: start making a new deck and continue with ``then`` once it
        is made, or return False when the game's rules make none (the default)."""
        return False

    def pname(self, p: int) -> str:
        """Seat ``p``'s name: the table's ``names`` config, else "Seat n"."""
        names = self.config.get("names")
        return names[p] if names and p < len(names) else f"Seat {p + 1}"

    def zone(self, name: str) -> list[int]:
        return self.zones[name]

    def place(self, slot: int, zone: str, index: int | None = None) -> None:
        """Move a slot to a zone (on top, or at ``index``). Knowledge is unchanged: a card put
        face down stays known to whoever knew it."""
        old = self.zone_of[slot]
        if old:
            self.zones[old].remove(slot)
        z = self.zones.setdefault(zone, [])
        if index is None:
            z.append(slot)
        else:
            z.insert(index, slot)
        self.zone_of[slot] = zone

    def knows(self, seat: int, slot: int) -> bool:
        return bool(self.known[slot] >> seat & 1)

    def value(self, slot: int) -> int | None:
        return self.values[slot]

    def make_public(self, slots: Iterable[int]) -> None:
        """Mark slots whose values every copy already holds as public (no deck operation)."""
        for s in slots:
            self.known[s] = self.all_mask

    def say_cards(self, line: str, slots: Sequence[int]) -> None:
        """Narrate ``line``, naming the cards of ``slots`` when this copy holds all of them. Every
        copy narrates from its own cards, so only the seats that may see them read their names."""
        names = [self.card_name(self.values[s]) for s in slots if self.values[s] is not None]
        self.say(f"{line}: {', '.join(names)}." if slots and len(names) == len(slots) else f"{line}.")

    def say(self, text: str) -> None:
        if self._notes is not None:
            self._notes.append(text)

    @property
    def narrating(self) -> bool:
        return self._notes is not None

    def narrate(self) -> None:
        """Start collecting log lines; ``take_notes()`` returns and clears them."""
        self._notes = []

    def take_notes(self) -> list[str]:
        notes = self._notes or []
        if self._notes is not None:
            self._notes = []
        return notes

    # ---- service outcomes ---------------------------------------------------------------------
    def _on_revealed(self, ev: Revealed, r: dict[str, Any]) -> None:
        slots = list(ev.slots)
        if slots != r["slots"]:
            raise RuleViolation(None, "revealed slots differ from the request")
        m = mask_of(r["to"])
        sees = self.sees(r["to"])
        if sees:
            if ev.values is None or len(ev.values) != len(slots):
                raise RuleViolation(None, "a reveal to this seat came without its values")
            for s, v in zip(slots, ev.values, strict=True):
                if not 0 <= v < self.n_cards:
                    raise RuleViolation(None, f"revealed card {v} does not exist")
                old = self.values[s]
                if old is not None and old != v:
                    raise RuleViolation(None, f"slot {s} revealed as {v}, known to hold {old}")
                self.values[s] = v
        exposed = self._exposure()
        for s in slots:
            self.known[s] |= m
            if m != self.all_mask:
                exposed[s] |= self.all_mask & ~m  # the others' shares were published

    def _on_shuffled(self, ev: Shuffled, r: dict[str, Any]) -> None:
        slots = list(ev.slots)
        if slots != r["slots"]:
            raise RuleViolation(None, "shuffled slots differ from the request")
        by = r["by"]
        by_knows = by is not None and all(self.known[s] >> by & 1 for s in slots)
        exposed = self._exposure()
        if by is not None and not by_knows:
            # a seat reordering cards it does not know can still follow each ciphertext back,
            # and carry the shares published before onto it: count them as still published
            carried = 0
            for s in slots:
                carried |= exposed[s]
            for s in slots:
                exposed[s] = carried
        else:
            for s in slots:
                exposed[s] = 0  # re-encrypted: the shares published before fit no ciphertext now
        if by_knows and len(slots) == 1 and self.secrecy >= 2:
            # one slot re-encrypted by a seat that knows it (``_reencrypt_first``): nothing
            # moved, so whoever knew the card still does
            if self.viewer in (None, by):
                v = ev.values
                if v is None or list(v) != [self.values[slots[0]]]:
                    raise RuleViolation(by, "a re-encryption changed the card in its slot")
            return
        sees = self.viewer is None or (by_knows and self.viewer == by)
        if sees:
            vals = ev.values
            if vals is None or len(vals) != len(slots) or any(v is None for v in vals):
                raise RuleViolation(None, "a shuffle outcome came without the values this copy knows")
            if sorted(vals) != sorted(self.values[s] for s in slots):  # type: ignore[type-var]
                raise RuleViolation(by, "a shuffle changed which cards are in the slots")
            for s, v in zip(slots, vals, strict=True):
                self.values[s] = v
        else:
            for s in slots:
                self.values[s] = None
        k = (1 << by) if by_knows else 0
        for s in slots:
            self.known[s] = k

    def _on_proven(self, ev: Proven, r: dict[str, Any]) -> None:
        """Seat ``r["by"]`` proved that the cards of ``r["slots"]`` are among ``r["allowed"]``.
        A copy that knows one of those cards checks it (the full-information copy checks every
        claim, the claimant's own copy its own); the others learn only that it was proven."""
        if list(ev.slots) != r["slots"]:
            raise RuleViolation(None, "proven slots differ from the request")
        allowed = set(r["allowed"])
        exposed = self._exposure()
        for s in r["slots"]:
            exposed[s] |= self.all_mask & ~(1 << r["by"])  # every share but the claimant's
            v = self.values[s]
            if v is not None and v not in allowed:
                claim = r.get("claim") or f"a claim about slot {s}"
                raise RuleViolation(r["by"], f"{claim}, but it holds {self.card_name(v)}")


def project(event: Event, req: Request, before: GameState, viewer: int) -> Event:
    """The outcome that seat ``viewer``'s copy receives, given the full-information outcome and
    the full state before it was applied."""
    if isinstance(event, Revealed):
        assert isinstance(req, Reveal)
        sees = viewer in req.to or (viewer == SPECTATOR and len(req.to) == before.n_players)
        return event if sees else Revealed(event.slots, None)
    if isinstance(event, Shuffled):
        assert isinstance(req, Shuffle)
        by = req.by
        if by is not None and viewer == by and all(before.known[s] >> by & 1 for s in req.slots):
            return event
        return Shuffled(event.slots, None)
    return event
