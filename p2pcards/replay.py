"""Re-running a whole game: the game half of the end-of-game check and of ``p2pcards audit``.

The transcript supplies every decision; the deck supplies the outcome of every Shuffle, Reveal and
Random *as one copy of the game saw it*. Deck v2 reveals nothing hidden, so the replay runs on a
view: a seat's own (its events: what was opened to it, its own arrangements), or a spectator's
(``viewer=SPECTATOR``: what was opened to everyone). Every rule checkable from that view is
re-checked; the full-information engine is used only when a caller has full-information events
(a local game, tests)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from protocol.roster import CODE_DRAW

from .engine import (
    SECRECY,
    SPECTATOR,
    Decide,
    Decision,
    Event,
    GameState,
    Prove,
    Proven,
    Random,
    RandomValue,
    Request,
    Reveal,
    Revealed,
    RuleViolation,
    Shuffle,
    Shuffled,
)
from .games import new_game


@dataclass
class Verdict:
    clean: bool
    culprit: int | None = None  # the seat to blame, when not clean
    reason: str = ""
    step: int | None = None
    outcome: dict[str, Any] | None = None
    details: list[str] = field(default_factory=list)
    #: ``partial`` replay: the record ran out before the game's end, every move before checking
    #: out (``clean`` then, with no outcome)
    stopped: bool = False

    def text(self, names: Sequence[str] | None = None) -> str:
        if self.clean:
            return "clean: every shuffle, deal and play checks out"
        who = "no one" if self.culprit is None else (
            names[self.culprit] if names and self.culprit < len(names) else f"seat {self.culprit + 1}")
        at = "" if self.step is None else f" at step {self.step}"
        return f"CHEATING DETECTED{at}: {who} — {self.reason}"


#: the history of moves before a game's first: ``seen`` of the first move (``moves_seen``)
MOVES_START = hashlib.sha256(b"p2pcards/v1/moves").digest()


def moves_seen(before: bytes, step: int, player: int, action: dict[str, Any]) -> bytes:
    """The digest of the moves up to and including seat ``player``'s ``action`` at game step
    ``step``, after the moves digested in ``before`` (``MOVES_START`` for none). Every move a
    program sends states the digest of the moves it was made after (``seen``), so that the
    audit of one player's file can tell a move against the rules from a move made after other
    moves than the file holds: a file's owner can rewrite its own moves (red team 17)."""
    item = json.dumps([step, player, action], sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True).encode()
    return hashlib.sha256(before + len(item).to_bytes(4, "big") + item).digest()


def replay(game: str, players: int, options: dict[str, Any], decisions: Sequence[Decision],
           outcomes: Sequence[Event], *, expected_outcome: dict[str, Any] | None = None,
           viewer: int | None = None,
           fill: Callable[[int, GameState, Request, Event], Event] | None = None,
           steps: Sequence[int] | None = None, partial: bool = False,
           secrecy: int = SECRECY, seen: Sequence[Any] | None = None,
           owner: int | None = None) -> Verdict:
    """Replay ``decisions`` and the full-information ``outcomes`` (in request order) from a new
    game. The outcome of a ``Shuffle(by=seat)`` may carry the arranged values; any malformed or
    missing entry is reported as a verdict, never raised. ``viewer``: replay on that seat's view
    (or ``SPECTATOR``'s) with the events that view received; ``None``: the full-information copy.
    ``fill(index, state, request, event)`` may complete outcome ``index`` before it is applied
    (e.g. the values of a seat's own arrangement, which no deck record holds).

    ``steps``: the game step each decision was signed for (ascending; several senders may share
    one). A move for a step where another seat is to decide, or nobody is (the deck is at work),
    is its sender's, named out of turn wherever it lies in the record. ``partial``: the record
    stops before the game's end (a stopped table): running out of it is where the replay stops,
    naming nobody (``Verdict(True, stopped=True)``); every move before is checked as usual.
    ``secrecy``: that of the version that made the record (``GameState.secrecy``).

    ``seen`` (with ``steps``): the digest each move states of the moves it was made after (its
    ``seen``; ``None`` where it states none), and ``owner`` the seat whose file this is. A move
    of another seat that the replay would name, and that states other moves than the file holds
    before it, names nobody: the owner could have rewritten its own moves in its file (and any
    seat colluding with it its own), and that move was made after the moves really sent. A
    record whose moves state no ``seen`` (made before it) is judged as before. ``True`` for a
    move: its envelope states it was made from exactly the messages the file holds (its
    ``heads``, red team 20), so it is judged on them whatever its ``seen``."""
    about: list[int | None] = [None]  # the index of the move the verdict is about
    verdict = _replay(game, players, options, decisions, outcomes, expected_outcome, viewer,
                      fill, steps, partial, secrecy, about)
    if owner is None or seen is None or steps is None or verdict.clean \
            or verdict.culprit is None or verdict.culprit == owner \
            or not any(isinstance(x, str) or x is True for x in seen):
        return verdict
    j, i = verdict.culprit, about[0]
    if i is None or decisions[i].player != j:
        return verdict
    history = MOVES_START  # the moves before it, one a step as every program applied them
    for k in range(len(decisions)):
        if steps[k] < steps[i]:
            history = moves_seen(history, steps[k], decisions[k].player,
                                 decisions[k].action.to_json())
    if seen[i] is True or seen[i] == history.hex():
        return verdict
    return Verdict(False, None, f"seat {j + 1}'s move at step {steps[i]} would be named "
                   f"({verdict.reason}), but it was made after other moves than this record "
                   f"holds before it: the record's owner (seat {owner + 1}) could have rewritten "
                   "its own moves in its file, and any seat colluding with it its own, so "
                   "nobody is named", verdict.step)


def _replay(game: str, players: int, options: dict[str, Any], decisions: Sequence[Decision],
            outcomes: Sequence[Event], expected_outcome: dict[str, Any] | None,
            viewer: int | None, fill: Callable[[int, GameState, Request, Event], Event] | None,
            steps: Sequence[int] | None, partial: bool, secrecy: int,
            about: list[int | None]) -> Verdict:
    state: GameState = new_game(game, players, options, secrecy=secrecy)
    if viewer is not None:
        state = state.view(viewer)
    di = oi = 0
    step = 0
    try:
        while (req := state.pending()) is not None:
            if steps is not None and di < len(decisions) and steps[di] <= step:
                # moves signed for this step: only the seat to decide may send one
                player = req.player if isinstance(req, Decide) else None
                at = [i for i in range(di, len(decisions)) if steps[i] == step] \
                    if steps[di] == step else [di]
                wrong = [i for i in at if decisions[i].player != player]
                if steps[di] < step:  # a step the game has passed: not a step to act at
                    about[0] = di
                    return Verdict(False, decisions[di].player,
                                   f"sent a move for step {steps[di]}, a step already played",
                                   steps[di])
                if wrong:
                    about[0] = wrong[0]
                    where = (f"seat {player + 1} was to decide" if player is not None
                             else "nobody was to decide: the deck was at work")
                    return Verdict(False, decisions[wrong[0]].player,
                                   f"acted out of turn ({where})", step)
            if isinstance(req, Decide):
                if di >= len(decisions) or (steps is not None and steps[di] != step):
                    if partial:
                        return Verdict(True, None, "the record stops here", step, stopped=True)
                    return Verdict(False, req.player, "the record ends before the game does", step)
                d = decisions[di]
                di += 1
                about[0] = di - 1
                if d.player != req.player:
                    return Verdict(False, d.player, f"acted when seat {req.player + 1} was to decide",
                                   step)
                try:
                    state.apply(d)
                except (TypeError, ValueError, KeyError, IndexError) as exc:
                    # a view cannot check every hidden claim of another seat's action, but a
                    # malformed one it cannot even apply is that seat's
                    return Verdict(False, d.player, f"malformed action ({exc})", step)
            else:
                if oi >= len(outcomes):
                    if partial:
                        return Verdict(True, None, "the record stops here", step, stopped=True)
                    return Verdict(False, None, "the deck record ends before the game does", step)
                ev = outcomes[oi]
                if fill is not None:
                    ev = fill(oi, state, req, ev)
                oi += 1
                if viewer is None and isinstance(req, Shuffle) and isinstance(ev, Shuffled) \
                        and ev.values is None:
                    return Verdict(False, None, "a shuffle outcome lacks its values", step)
                state.apply(ev)
            step += 1
    except RuleViolation as exc:  # about the named seat's last move applied
        about[0] = next((k for k in range(di - 1, -1, -1) if decisions[k].player == exc.player),
                        None)
        return Verdict(False, exc.player, exc.reason, step)
    if di != len(decisions):
        extra = decisions[di]
        about[0] = di
        return Verdict(False, extra.player, "acted after the game was over", step)
    outcome = state.outcome()
    if expected_outcome is not None and outcome != expected_outcome:
        return Verdict(False, None, f"the table reported {expected_outcome}, the replay gives {outcome}",
                       step, outcome)
    return Verdict(True, outcome=outcome)


def deck_op(req: Request) -> dict[str, Any]:
    """The deck operation descriptor (``protocol.steps``) a request of the engine is fulfilled
    by (``p2pcards.deck_dealer``): a shuffle of ``slots`` by ``by`` (a mix too), an opening of
    ``slots`` to ``to``, a random value in ``[0, n)``, a proof by ``by`` that the cards of
    ``slots`` are among the values ``in``."""
    if isinstance(req, Shuffle):
        return {"kind": "shuffle", "slots": list(req.slots), "by": req.by}
    if isinstance(req, Reveal):
        return {"kind": "open", "slots": list(req.slots), "to": sorted(set(req.to))}
    if isinstance(req, Random):
        return {"kind": "random", "n": req.n}
    if isinstance(req, Prove):
        return {"kind": "prove", "slots": list(req.slots), "by": req.by, "in": list(req.allowed)}
    raise TypeError(f"no deck operation fulfils {req!r}")


CODE_OP = 1  # the deck operation of the roster code's draw (after the key step, operation 0)
#: the kinds of deck outcome that are events of the game (the key and end steps are not)
EVENT_KINDS = ("shuffle", "open", "random", "prove")


def code_drawn(spec: str) -> bool:
    """Whether the deck of the description ``spec`` (``lobby.deck_spec``) opens with the draw
    the roster code is made from: its operation 1, which is no event of the game. Records made
    before it have no ``"code"`` in their description, which every key share signs."""
    try:
        d = json.loads(spec)
    except (TypeError, ValueError, RecursionError):
        return False
    return isinstance(d, dict) and d.get("code") == 1


def game_outcomes(outcomes: Sequence[dict[str, Any]], coded: bool) -> list[dict[str, Any]]:
    """The deck outcomes that are events of the game, in order: not the key step, the end step
    or (``coded``) the roster code's draw at operation 1."""
    return [o for o in outcomes if o.get("kind") in EVENT_KINDS
            and not (coded and o.get("op") == CODE_OP)]


class DeckRequests:
    """The deck operations every seat's engine issued, derived by replaying the signed moves
    (every seat's engine issues the same requests, a spectator's too): an ``ops`` function for
    ``protocol.audit.audit``, called with the outcomes of operations ``0..k-1`` for operation
    ``k``'s descriptor. Operation 0 is the key step, then (``coded``: ``code_drawn``) the roster
    code's draw; after the game's last move comes the end step. ``moves``: the signed move of each ``(game step, seat)``. ``None`` where the moves
    stop (the seat to decide sent none for its step) or one of them cannot be applied (the
    replay of the game names it): from there on, no operation is known."""

    def __init__(self, game: str, players: int, options: dict[str, Any],
                 moves: dict[tuple[int, int], Decision], secrecy: int = SECRECY,
                 coded: bool = False) -> None:
        # secrecy: that of the version that made the record (which deck operations it issued)
        self.state = new_game(game, players, options, secrecy=secrecy).view(SPECTATOR)
        self.players = players
        self.moves = moves
        self.step = 0
        # outcomes applied: operation 0, the key step, is no event, nor the code's draw
        self.fed = CODE_OP + 1 if coded else 1
        self.known: dict[int, dict[str, Any] | None] = {0: {"kind": "key"}}
        if coded:
            self.known[CODE_OP] = {"kind": "random", "n": CODE_DRAW}
        self.ended = False
        #: the seats whose moves were applied so far, and by operation the seats whose moves its
        #: descriptor was derived from (``movers``)
        self.moved: set[int] = set()
        self.moved_at: dict[int, frozenset[int]] = {}

    def __call__(self, outcomes: list[dict[str, Any]]) -> dict[str, Any] | None:
        op = len(outcomes)
        if op not in self.known:
            self.known[op] = self._next(outcomes)
            self.moved_at[op] = frozenset(self.moved)
        return self.known[op]

    def movers(self, op: int) -> frozenset[int]:
        """The seats whose signed moves operation ``op``'s descriptor rests on (every move
        before it): the audit names a seat whose message describes another operation only when
        no other seat's move is among them (a record's owner can rewrite its own moves)."""
        return self.moved_at.get(op, frozenset())

    def _next(self, outcomes: list[dict[str, Any]]) -> dict[str, Any] | None:
        if self.ended:
            return None
        try:
            while self.fed < len(outcomes):
                o = outcomes[self.fed]
                self.fed += 1
                kind = o.get("kind")
                if kind == "shuffle":
                    self.state.apply(Shuffled(tuple(o["slots"]), None))
                elif kind == "open":
                    vals = o.get("values") if len(o.get("to", ())) == self.players else None
                    self.state.apply(Revealed(tuple(o["slots"]),
                                              None if vals is None else tuple(vals)))
                elif kind == "random":
                    self.state.apply(RandomValue(int(o["value"])))
                elif kind == "prove":
                    self.state.apply(Proven(tuple(o["slots"])))
                else:  # the end step: no operation follows
                    self.ended = True
                    return None
                self.step += 1
            while (req := self.state.pending()) is not None:
                if not isinstance(req, Decide):
                    return deck_op(req)
                d = self.moves.get((self.step, req.player))
                if d is None:
                    self.ended = True
                    return None
                self.state.apply(d)
                self.moved.add(req.player)
                self.step += 1
        except (RuleViolation, TypeError, ValueError, KeyError, IndexError):
            self.ended = True
            return None
        return {"kind": "end"}
