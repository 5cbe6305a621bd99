"""Sitting at a networked table: open or join one, bring bots, and run this seat's game over the
mesh with the mental-poker deck, then audit it.

Files (under the data directory, ``$P2PCARDS_HOME`` or the platformdirs user data dir):
``identity.pem`` (this user's key), ``tables/<table>.jsonl`` (the signed transcript, written by the
mesh) and ``tables/<table>.seat`` (this seat's secrets: the deck seed and its private
arrangements, plus its own decisions, so a restarted peer re-makes exactly the same choices).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import subprocess
import sys
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.channel import CLAIM_WINDOW, TableStop
from protocol.deck import DeckPeer
from protocol.envelope import is_int
from protocol.errors import DeckError
from protocol.identity import Identity
from protocol.mesh import Mesh, MeshError, Timings
from protocol.params import TOPIC as DECK_TOPIC
from protocol.params import VERSION as DECK_VERSION
from protocol.roster import CODE_DRAW, keys_digest, roster_code
from protocol.seating import Seating, evidence

from . import __version__
from .blame import before_naming, compared
from .deck_dealer import DeckDealer
from .engine import SECRECY, ConfigError, Event, GameState, Request, Shuffle
from .games import game_class, new_game
from .journal import SeatJournal, journal_lost
from .patient import DECK_ALLOWANCE, DECK_LATE_BUDGET, PatientChannel
from .replay import code_drawn
from .table import CHAT_IN_A_MATCH, OWN_PAUSE, Table, TableResult, TableStopped

log = logging.getLogger("p2pcards.lobby")

DECK_TIMEOUT = 60.0  # seconds a present peer may take to answer a deck step
# the topics every seat must get: a private message on one, signed by its author, is that
# author's fault whoever judges it (the mesh at play, the audit afterwards)
PUBLIC_TOPICS = frozenset({"game", DECK_TOPIC})
# every topic a table's programs use: a message on another is named by every program
TABLE_TOPICS = PUBLIC_TOPICS | {"chat"}
# the most messages one player may send a table in a match, by topic (table.CHAT_IN_A_MATCH)
TOPIC_CAPS = {"chat": CHAT_IN_A_MATCH}
DECISION_TIMEOUT = 6 * 3600.0  # a step that waits on a person's choice (a private arrangement)
WAIT = 120.0  # default --wait: seconds the table waits for a player who is away
PERSON_TURN, BOT_TURN = 300.0, 30.0  # default --turn-time for a person's and a bot's seat
TURN_GRACE = 30.0  # the others wait this much beyond the turn time before naming a silent program
REMIND_EVERY = 15.0  # seconds between "waiting for ..." reminders
UNHEARD_FIRST = 8.0  # seconds (at most half the wait) before an unheard seat is said (relays: ~4 s)
# a seat's absences over the whole match may add up to this many times the table's wait: one
# honest cut (up to a wait) and a few short drop-outs fit; a seat that goes away for just under
# the wait before every step (each spell alone allowed, the game moving in between) runs out
ABSENCE_IN_ALL = 3
# the absence watcher looks every 0.25 s; a look this much later means this program stood still
# (stopped, suspended, its loop stuck): that time is nobody's absence. Above the slowest honest
# deck step measured here (0.84 s), so a busy loop is still counted as usual. (table.OWN_PAUSE:
# the turn clock uses the same.)


@dataclass
class GameInfo:
    game: str
    players: int
    options: dict[str, Any]
    wait: float = WAIT  # seconds the table waits for an away player, then ends the match
    turn_time: float | None = None  # None: the defaults (a person 300 s, a bot 30 s); 0: off

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "options": self.options,
                "version": __version__, "wait": self.wait, "turn_time": self.turn_time}

    def own_turn_time(self, bot: bool) -> float | None:
        """How long this seat's own program lets its player think before its bot plays."""
        if self.turn_time is None:
            return BOT_TURN if bot else PERSON_TURN
        return self.turn_time or None

    def peer_turn_time(self) -> float | None:
        """How long the others wait for a seat's decision before naming its silent program."""
        if self.turn_time == 0:
            return None
        return (self.turn_time or PERSON_TURN) + TURN_GRACE

    def settings_text(self) -> str:
        turn = ("off" if self.turn_time == 0 else
                f"{clock_text(PERSON_TURN)} for a person, {clock_text(BOT_TURN)} for a bot"
                if self.turn_time is None else clock_text(self.turn_time))
        return f"Table settings: turn time {turn}; the table waits {clock_text(self.wait)} for an absent player."

    @classmethod
    def from_json(cls, d: Any) -> GameInfo:
        if not isinstance(d, dict) or not isinstance(d.get("game"), str):
            raise ConfigError("the table did not say which game it plays")
        game_class(d["game"])  # raises ConfigError for a game this version does not know
        players, options = d.get("players"), d.get("options", {})
        if not is_int(players) or not isinstance(options, dict):
            raise ConfigError("the table's game description is malformed")
        wait, turn = d.get("wait", WAIT), d.get("turn_time")
        if not _seconds(wait) or wait <= 0 or not (turn is None or _seconds(turn)):
            raise ConfigError("the table's wait or turn time is malformed")
        return cls(d["game"], players, options, float(wait), None if turn is None else float(turn))

    def check(self) -> None:
        """Build the game once, so bad options fail before anyone sits down."""
        new_game(self.game, self.players, self.options)


class DealerAdapter:
    """The deck dealer in the shape the table expects (async ``arrange``; ``audit`` returning the
    full-information outcomes in request order)."""

    def __init__(self, dealer: DeckDealer, decision_timeout: float | None = None) -> None:
        self.dealer = dealer
        # how long the others wait for a seat's private arrangement (a person's choice): the
        # table's turn time for that seat, with its grace; no turn time: DECISION_TIMEOUT
        self.decision_timeout = decision_timeout or DECISION_TIMEOUT

    async def fulfil(self, view: GameState, req: Request, arrange=None) -> Event:
        order = None
        mix = getattr(req, "mix", False)  # a hand mix: the holder's program draws the order
        if isinstance(req, Shuffle) and req.by == self.dealer.seat and arrange is not None \
                and not mix:
            order = await arrange(req.by, req.slots)
        deck = self.dealer.deck
        usual = deck.timeout
        if isinstance(req, Shuffle) and req.by is not None and req.by != self.dealer.seat and \
                not mix and view.arrangement_prompt(req.by, req.slots) is not None:
            # the arranger may be a human thinking it over: that is a decision, not a deck step
            deck.timeout = self.decision_timeout
            if hasattr(getattr(deck, "ch", None), "lenient"):
                deck.ch.lenient = {req.by}  # a person thinking is not a late program
        try:
            return await self.dealer.fulfil(view, req, (lambda by, slots: order) if order else None)
        finally:
            deck.timeout = usual
            if hasattr(getattr(deck, "ch", None), "lenient"):
                deck.ch.lenient = set()

    async def audit(self) -> list[Event]:
        _, pairs = await self.dealer.audit()
        return [ev for _, ev in pairs]


def _seconds(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and 0 <= x <= 7 * 86400


def clock_text(seconds: float) -> str:
    """A span of time as the table says it: "0:40", "2:00", "12 s"."""
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}" if s >= 60 else f"{s} s"


def deck_spec(info: GameInfo, roster: str | None, secrecy: int = SECRECY, code: bool = True) -> str:
    """The deck description every proof binds (protocol/SPEC.md "Parameters"): the game, its
    options, the player count, the deck protocol version and ``roster``, the digest of every
    seat's key (``protocol.roster.keys_digest``), as canonical JSON. With the keys in it, every
    seat's signed key share vouches for every other seat's key (a roster entry is signed by its
    own key only). ``roster=None``: the description of records made before it held the keys
    (the audit still reads them). ``secrecy``: how the games keep hidden cards hidden
    (``GameState.secrecy``, written as ``"claims"``): programs of different levels issue other
    deck operations, so they must not share a table, and the audit must know which a record is.
    A lower level: the description of records made by an earlier version (the audit still reads
    them). ``code``: the deck's operation 1 is the draw the roster code is made from
    (``roster_code``, written as ``"code": 1``), before the game's first request; ``False``: the
    description of records made before it (the audit reads their operation 1 as the game's)."""
    spec: dict[str, Any] = {"game": info.game, "players": info.players, "options": info.options,
                            "protocol": DECK_VERSION}
    if roster is not None:
        spec["roster"] = roster
    if secrecy:
        spec["claims"] = secrecy
    if code:
        spec["code"] = 1
    return json.dumps(spec, sort_keys=True, separators=(",", ":"))


def describe_game(game_info: Any, keys: str) -> str:
    """The deck description ``D`` of a game_info and keys digest (``ValueError``: no game)."""
    return deck_spec(GameInfo.from_json(game_info), keys)


def seating(mesh: Mesh) -> Seating:
    """The game the host signed to this seat, which its key share shows, and how to weigh
    another seat's (protocol/seating.py, SPEC.md 5.2). A transcript from before the welcome
    carried the host's signature over the game has none to show (a mismatch names nobody)."""
    sig = mesh.game_sig
    mine = None if sig is None else evidence(mesh.game_info, sig,
                                             [(m.seat, m.key) for m in mesh.roster])
    return Seating(mesh.table, mesh.roster[0].key, describe_game, mine)


async def until_dealt(mesh: Mesh, say: Callable[[str], Any] = print) -> None:
    """Wait for the deal: every seat taken, the roster sealed, every peer heard (directly or
    through the others' relays). Before it nothing is dealt and nothing can be resumed, so a
    joiner does not wait for a host that went away (its machine failed, its program was killed:
    nobody stopped the host's bots) longer than the table's own wait: ``MeshError`` naming the
    host. Bots and joiners used to wait for a deal that never came, a bot for its whole
    patience (30 minutes). A seat whose program has not heard some seated player at all, even
    through the others, says whom it waits for (red team 12, H2: it waited with nothing on its
    screen), and past the table's wait stops the table naming nobody: nothing proves whose
    link failed, and nothing was dealt."""
    seat_path = mesh.transcript_path.with_suffix(".seat") if mesh.transcript_path else None
    if seat_path is not None and seat_path.is_file() and SeatJournal.read_only(seat_path).has_seed():
        # dealt before: a seat coming back plays on once the roster is whole (the comeback
        # looked for the others; a seat nobody hears is the table's away rules' to handle)
        while not mesh.full:
            if mesh.stopped is not None:
                raise MeshError(f"the table stopped: {mesh.stopped.reason}")
            await asyncio.sleep(0.2)
        return
    wait = GameInfo.from_json(mesh.game_info).wait
    told = False
    unheard_since: float | None = None
    said_at = -1e9
    while True:
        with contextlib.suppress(TimeoutError):
            await mesh.wait_full(0.5)
            return
        now = time.monotonic()
        unheard = mesh.not_heard_from() if mesh.full and mesh.sealed else []
        if not unheard:
            unheard_since = None
        else:
            unheard_since = now if unheard_since is None else unheard_since
            spent = now - unheard_since
            who = ", ".join(f"{mesh.name_of(s)} ({mesh.seat_text(s)})" for s in unheard)
            if spent > wait:
                reason = (f"{mesh.name_of(mesh.seat)}'s program never heard {who}, directly or "
                          f"through the others, within {clock_text(wait)} before the deal; "
                          "nothing was dealt and nobody is named (a link failed, or a program "
                          "does not talk to every seat)")
                mesh.stop(None, reason)
                raise MeshError(f"the table could not start: {reason}")
            if spent >= min(UNHEARD_FIRST, wait / 2) and now - said_at >= REMIND_EVERY:
                said_at = now
                say(f"** waiting to hear from {who}: their program has not reached this one, "
                    f"directly or through the others ({clock_text(spent)} of at most "
                    f"{clock_text(wait)}); nothing is dealt until it does")
        if mesh.seat == 0 or 0 not in mesh.away:
            told = False
            continue
        if not told:
            told = True
            say(f"{mesh.name_of(0)}, the host, is not answering; without them there is no deal. "
                f"Waiting {clock_text(wait)} for them to come back.")
        gone = time.monotonic() - mesh.away_since.get(0, time.monotonic())
        if gone > wait:
                raise MeshError(f"{mesh.name_of(0)}, the host, went away before the deal and did "
                                f"not come back within {clock_text(wait)}; nothing was dealt")


async def play_seat(mesh: Mesh, player: Any, *, say: Callable[[str], Any] = print,
                    deck_timeout: float = DECK_TIMEOUT, on_table: Callable[[Table], Any] | None = None,
                    bot: bool = False, checkpoint_timeout: float = 30.0,
                    late_after: float | None = None, late_budget: float | None = None) -> TableResult:
    """Run this seat's game to the end (resuming from the journal after a crash), then audit it.

    A stop (ours or any peer's) ends it with ``TableStopped`` at every peer; a player away for
    longer than the table's wait ends it too, naming them. The result is recorded before the
    final checkpoint, so no trouble on the links after the last move can take it away."""
    mesh.public_topics = PUBLIC_TOPICS  # every seat gets every move
    mesh.topics = TABLE_TOPICS
    mesh.topic_caps = dict(TOPIC_CAPS)
    # every envelope states what this program held when it made it (``heads``: red team 20),
    # which a re-run after a power cut could not state again byte for byte: each is on the
    # disk before it goes (about one sync a turn more than the seat journal's, per program)
    mesh.remade_topics = frozenset()
    await until_dealt(mesh, say)
    info = GameInfo.from_json(mesh.game_info)
    if info.players != mesh.seats:  # the host's own description of its table does not add up
        raise ConfigError(f"{mesh.name_of(0)}'s table has {mesh.seats} seats but describes a game "
                          f"for {info.players} players; nobody can play it")
    names = [mesh.name_of(s) for s in range(mesh.seats)]
    assert mesh.transcript_path is not None
    seat_path = mesh.transcript_path.with_suffix(".seat")
    if not (seat_path.is_file() and SeatJournal.read_only(seat_path).has_seed()):
        # the same join command rerun after a crash comes back here without 'join --resume':
        # a seat that has dealt cannot go on with a new deck secret (its re-run would diverge)
        from protocol.transcript import read_transcript

        lost = journal_lost(read_transcript(mesh.transcript_path, tolerate_torn_tail=True),
                            contacted=True)
        if lost is not None:
            raise ConfigError(lost)
    journal = SeatJournal(seat_path)
    resume = [r for r in journal.records if r.get("kind") in ("decision", "arrange")]
    n_cards = new_game(info.game, info.players, info.options).n_cards
    patient = PatientChannel(mesh.channel, mesh, late_after=late_after or DECK_ALLOWANCE,
                             late_budget=late_budget or DECK_LATE_BUDGET)
    spec = deck_spec(info, keys_digest(mesh.roster))
    deck = DeckPeer(patient, bytes.fromhex(mesh.table), spec, n_cards, journal.seed(),
                    timeout=deck_timeout, seating=seating(mesh))
    from .bots.registry import make_bot

    table = Table(info.game, info.players, info.options, mesh.seat, mesh.channel,
                  DealerAdapter(DeckDealer(deck, mesh.seat), info.peer_turn_time()), player,
                  names=names, say=say,
                  journal=journal.append, resume=resume,
                  turn_time=info.own_turn_time(bot), peer_turn_time=info.peer_turn_time(),
                  stand_in=make_bot(info.game, mesh.seat, "easy",
                                    int.from_bytes(os.urandom(4), "big")))
    if on_table is not None:
        on_table(table)
    q = mesh.subscribe()
    events = asyncio.create_task(_announce(mesh, q, say, bot))
    watch = asyncio.create_task(_watch_absence(mesh, info.wait, say, bot,
                                               progress=lambda: table.step))
    game = asyncio.create_task(_code_then_game(mesh, deck, table, None if bot else say)
                               if code_drawn(spec) else table.run())
    stopped = asyncio.create_task(_until_stopped(mesh))
    try:
        done, _ = await asyncio.wait({game, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if game not in done:  # a stop while we were not waiting on the channel (our own turn)
            game.cancel()
            with contextlib.suppress(BaseException):
                await game
        try:
            result = await game if game in done else None
            if result is None:
                assert mesh.stopped is not None
                raise mesh.stopped
        except TableStop as exc:
            if exc.claimed is not None:  # another's bare word: check what had arrived here
                try:
                    await table.check_arrived()
                except TableStopped as seen:  # seen here: this program names it itself
                    found = await before_naming(mesh, seen)
                    if found is not seen and found.culprit is not None:
                        raise found from None
                    mesh.stop(found.culprit, found.reason)
                    raise found from None
            if exc.culprit is None and exc.claimed is None and exc.by != mesh.seat:
                # another's stop naming nobody ("the mesh names it"): the heads may prove who
                await mesh.prove_culprit()
                if mesh.stopped is not None:
                    exc = mesh.stopped
            raise _stopped(mesh, exc) from None
        except TableStopped as exc:  # we caught a cheat or a rule break: everyone stops
            found = await before_naming(mesh, exc)  # a proven fork: its author instead
            if found is not exc and found.culprit is not None:
                raise found from None
            if found.culprit is None:  # "the mesh names it": stop now, and let the proof come
                mesh.stop(None, found.reason)
            # our own "the mesh names it" (not compared above): a fork's author proven, named
            if not compared(mesh, exc) and (exc.inferred or exc.culprit is None) \
                    and await mesh.prove_culprit(None if exc.culprit is None else [exc.culprit]):
                assert mesh.stopped is not None and mesh.stopped.culprit is not None
                raise _stopped(mesh, mesh.stopped) from None
            mesh.stop(found.culprit, found.reason)
            if found.culprit is not None and mesh.stopped is not None \
                    and mesh.stopped.culprit == found.culprit:  # the stop as recorded and sent:
                raise _stopped(mesh, mesh.stopped) from None  # the seat told apart by number
            if found is exc:
                raise
            raise found from None
        # the result is ours now: record it before anything on the links can get in the way
        mesh.finish(_end_record(result))
        watch.cancel()
        cap = checkpoint_timeout + info.wait
        telling = asyncio.create_task(_say_comparing(mesh, say, cap))
        try:
            equivocations = await mesh.checkpoint(checkpoint_timeout, patient=True, cap=cap)
            result.compared = True
        except (TimeoutError, OSError) as exc:
            result.compared = False
            text = str(exc)
            who = (text.removeprefix(NO_ANSWER) if text.startswith(NO_ANSWER)
                   else ", ".join(mesh.waiting_for()) or "every peer")
            say(f"(could not compare transcripts with {who} after the last move; the result and "
                "audit stand as played here)")
            equivocations = list(mesh.equivocations)
        finally:
            telling.cancel()
        if equivocations and result.verdict is not None and result.verdict.clean:
            e = equivocations[0]
            from .replay import Verdict
            result.verdict = Verdict(False, getattr(e, "seat", None),
                                     "sent different messages to different peers")
            mesh.finish(_end_record(result))
        return result
    finally:
        cancel_quietly(events, watch, stopped, game)
        journal.close()


def cancel_quietly(*tasks: asyncio.Task) -> None:
    """Cancel a seat's tasks as it stops (the player left, Ctrl-C, a stop). One that ends with
    an error instead -- the deck, cancelled mid-message, sends on a mesh already closed
    (``ChannelClosed``) -- has it read here and logged to ``p2pcards.log``: left unread, asyncio
    printed "Task exception was never retrieved" with a traceback on the player's terminal
    after "You left the table" (red team 18; 2 of 4 runs that left mid-deal)."""
    def read(t: asyncio.Task) -> None:
        if not t.cancelled() and t.exception() is not None:
            log.info("after the seat stopped, %s ended with %r", t.get_name(), t.exception())

    for t in tasks:
        t.cancel()
        t.add_done_callback(read)


CODE_LINE = "Roster code: {} — read it aloud: everyone should see the same one."


async def _code_then_game(mesh: Mesh, deck: DeckPeer, table: Table,
                          say: Callable[[str], Any] | None) -> TableResult:
    """The roster code, then the game: the deck's first operation after the key step is a joint
    draw (commit-reveal) the code is made from (``protocol.roster.roster_code``), so a host
    cannot search for two rosters with one code; a seat that comes back re-draws the same value
    from its journal's seed and shows the same code. ``say``: ``None`` for a bot (it shows
    nothing). A seat whose reveal does not match its commitment is named like any deck cheat."""
    try:
        draw = await deck.random(CODE_DRAW)
    except DeckError as exc:
        raise table._deck_stop(exc) from None
    if say is not None:
        say(CODE_LINE.format(roster_code(mesh.roster, draw)))
    return await table.run()


NO_ANSWER = "no checkpoint answer from "  # how Mesh.checkpoint's TimeoutError names who was silent
# seconds into the last comparison of records before the person is told what it waits for (an
# honest one takes a moment; one with a player gone after the last move waits up to ``cap``):
# past the mesh's ``away_after`` (6 s), so that a player gone is named
COMPARE_SAY = 8.0


async def _say_comparing(mesh: Mesh, say: Callable[[str], Any], cap: float) -> None:
    """Once the last comparison has run ``COMPARE_SAY`` seconds: that the game is over, whom it
    waits for, and for how long at most (red team 14: up to 2:30 with nothing on the screen)."""
    await asyncio.sleep(COMPARE_SAY)
    who = ", ".join(mesh.waiting_for()) or "the other players"
    say(f"(the game is over: comparing records with {who} before the result is final; "
        f"at most {clock_text(cap - COMPARE_SAY)} more)")


def _end_record(result: TableResult) -> dict[str, Any]:
    return {"outcome": result.outcome,
            "verdict": None if result.verdict is None else result.verdict.clean}


def _stopped(mesh: Mesh, stop: TableStop) -> TableStopped:
    return TableStopped(stop.culprit, stop.reason)


async def _until_stopped(mesh: Mesh) -> None:
    while mesh.stopped is None:
        await asyncio.sleep(0.1)
    if mesh.stopped.claimed is not None:
        # another peer's unproven claim: this program's own checks and clocks get the claim's
        # window to see the deviation for themselves (the game ends by itself once it is over)
        await asyncio.sleep(CLAIM_WINDOW + 0.5)


#: What each table's absence watcher counts now against each seat away (seconds, the figure its
#: reminders give: absences since the game last moved), for the screens' line about the pause.
_COUNTED: weakref.WeakKeyDictionary[Mesh, dict[int, float]] = weakref.WeakKeyDictionary()


_MATCH_LEFT: weakref.WeakKeyDictionary[Mesh, dict[int, float]] = weakref.WeakKeyDictionary()


def counted_away(mesh: Mesh) -> dict[int, float]:
    """Seat -> seconds of absence the table counts against it now (``_watch_absence``)."""
    try:
        return dict(_COUNTED.get(mesh, {}))
    except TypeError:  # not a mesh (a stand-in that cannot be weakly referenced): nothing counted
        return {}


def match_left(mesh: Mesh) -> dict[int, float]:
    """Seat away -> seconds left of its allowance for the whole match (``ABSENCE_IN_ALL`` times
    the wait, every spell counted): past it the table ends the match naming the seat, however
    short its spell now."""
    try:
        return dict(_MATCH_LEFT.get(mesh, {}))
    except TypeError:
        return {}


async def _watch_absence(mesh: Mesh, wait: float, say: Callable[[str], Any], bot: bool,
                         progress: Callable[[], Any] | None = None) -> None:
    """Remind everyone whom the table waits for, with the time away; after ``wait`` seconds
    of absence end the match for everyone, naming who left. A peer cut off from everyone
    (all others away) is told so and names nobody. A peer we hear but whose own heads show our
    messages do not reach it (a failed resume, a one-way link) is waited for and said so; it is
    not named here (the deck's clock names it once ``MAX_UNREACHED_PAUSE`` is spent, and at
    once if its claim contradicts what it signed it held: ``Mesh.unreached``).

    Absence adds up while the game makes no progress (``progress()``, the table's step, stays
    the same): a seat that leaves and comes back for a moment, again and again, restarts
    neither the wait nor anything else, so it cannot stall the table beyond ``wait``. And it
    adds up over the whole match: past ``ABSENCE_IN_ALL`` times ``wait`` in all the seat is
    named, so going away for just under the wait before every step (the game moving after
    each) cannot stall the table for a wait a step either.

    Time this program itself stood still (stopped with Ctrl-Z, its computer suspended or too
    busy: a look that comes ``OWN_PAUSE`` late) is nobody's absence: it is not charged to a seat
    away meanwhile (the mesh forgives it to the seats it hears), and the person is told.

    So is a stretch in which this program heard nobody (every other seat away at once, not all
    of them gone with a goodbye, at more than two seats): most likely its own link was cut, and
    the others counted *it* away meanwhile. It is taken out of every spell that spans it, and
    counted neither since the last move nor over the match; the person is told when it ends.
    At most ``ABSENCE_IN_ALL`` waits of such stretches over the match (what the others allow
    this seat's own absences): past that a stretch counts as usual, so seats that go away
    together to look like this program's cut hold the table that much more, not for ever."""
    reminded: dict[Any, float] = {}
    unreached: dict[int, float] = {}  # seat -> since when: heard from, but our messages fail
    absent: dict[int, float] = {}  # seat -> seconds away since the game last made progress
    spells: dict[int, int] = {}  # seat -> times it went away since the game last made progress
    spell_of: dict[int, float] = {}  # seat -> the start of its spell away counted last
    total: dict[int, float] = {}  # seat -> seconds away over the whole match (never reset)
    # (seat, start of its spell) -> the part of it that was nobody's absence: our own pauses,
    # and stretches in which we heard nobody
    paused: dict[tuple[int, float], float] = {}
    allowance = ABSENCE_IN_ALL * wait
    alone_used = 0.0  # seconds of stretches hearing nobody forgiven over the match (<= allowance)
    stretch = [0.0, 0.0]  # the stretch under way: its length, and the part of it forgiven
    # the same for a stretch in which nobody heard us (``unheard_since``), and whether a seat
    # was away in it
    unheard: list[Any] = [0.0, 0.0, False]
    unheard_to = 0.0  # forgiven up to then
    held: dict[int, tuple[float, float]] = {}  # seat -> (spell, match) counted, at its last look

    def gone(s: int, now: float, since_unknown: float) -> float:  # its spell so far, less the above
        since = mesh.away_since.get(s, since_unknown)
        return max(0.0, now - since - paused.get((s, since), 0.0))

    mark = progress() if progress is not None else None
    last = time.monotonic()
    while True:
        # a quarter second: a spell that ends between two looks loses at most that much, so
        # many short spells cannot slip under the match's allowance
        await asyncio.sleep(0.25)
        now = time.monotonic()
        pause = now - last - 0.25
        paused = {k: v for k, v in paused.items() if mesh.away_since.get(k[0]) == k[1]}
        if pause > OWN_PAUSE:  # we stood still, not they: not part of anyone's spell away
            # The standstill is one stretch of ``pause`` inside [last, now], and the mesh marks a
            # seat away only while this program runs, so a spell began either before the
            # standstill or after it. One that began after it began at ``last + pause`` or later
            # (within the 0.25 s since waking); one that began before it, earlier, even after our
            # last look (marked just before the stop: it was charged the whole pause, and a
            # woken program named a seat it heard again at once).
            for s in mesh.away:
                since = mesh.away_since.get(s, now)
                if since < last + pause:
                    paused[s, since] = paused.get((s, since), 0.0) + pause
            say(f"** this program was paused for {clock_text(pause)} (stopped, or its computer "
                "asleep or too busy): that time is not counted against anyone")
        else:
            pause = 0.0

        others = [s for s in range(mesh.seats) if s != mesh.seat]
        step = progress() if progress is not None else None
        if step != mark:  # the game moved on: nobody is stalling it
            mark, absent, spells = step, {}, {s: 1 for s in mesh.away}
        for s in mesh.away:  # a new spell (however brief the return between): one more
            since = mesh.away_since.get(s, now)
            if spell_of.get(s) != since:
                spell_of[s] = since
                spells[s] = spells.get(s, 0) + 1
        # not while we are cut off, as far as we can tell: every other seat away at once, not
        # each with a goodbye (after a stop the others may go: its claim is still counted)
        part = 0.0
        if (mesh.stopped is None and mesh.seats > 2 and set(mesh.away) >= set(others)
                and not set(others) <= mesh.left):
            begun = max(mesh.away_since.get(s, now) for s in others)  # the last one went away
            whole = max(0.0, now - max(last + pause, begun))
            part = min(whole, max(0.0, allowance - alone_used))
            alone_used += part
            stretch = [stretch[0] + whole, stretch[1] + part]
            for s in mesh.away:  # every spell under way spans it (each began by ``begun``)
                since = mesh.away_since.get(s, now)
                paused[s, since] = paused.get((s, since), 0.0) + part
        elif stretch[0] > 0.0:
            if not set(mesh.away) >= set(others):  # someone is heard again (not: all left)
                length, kept = stretch
                counted = "that time is not counted against anyone" if kept >= length - 0.5 else (
                    f"only {clock_text(kept)} of it is not counted against anyone (at most "
                    f"{clock_text(allowance)} over the match, {ABSENCE_IN_ALL} times the table's wait)")
                say(f"** this program heard nobody for {clock_text(length)} (every other player "
                    f"away at once: most likely its own network was cut): {counted}")
                # past what is forgiven, a seat that went over its wait or allowance in the
                # stretch is named, back or not: two seats back at the same moment are no excuse
                due = [(-t, -u, x) for x, (t, u) in held.items() if t >= wait or u >= allowance]
                if due and mesh.stopped is None:  # the one away longest (the lower seat on a tie)
                    t, u, x = min(due)
                    t, u = -t, -u
                    mesh.stop(x, _alone_too_long(mesh.name_of(x), t, u, wait, allowance))
                    return
            stretch, held = [0.0, 0.0], {}
        for s in mesh.away:  # the time away in this tick, not the whole tick
            tick = max(0.0, min(now - last - pause - part, gone(s, now, last)))
            absent[s] = absent.get(s, 0.0) + tick
            total[s] = total.get(s, 0.0) + tick
        # A stretch in which no seat heard this program (none echoed its words: its own link is
        # most likely cut one way) is nobody's absence either: a seat heard only through the
        # others cannot show meanwhile that its word is recent, and is waited for as away. Found
        # a moment in (``Mesh.unheard_since``), it is forgiven from its start, out of the same
        # allowance as a stretch hearing nobody, and only while a seat is away.
        since_unheard = mesh.unheard_since() if mesh.stopped is None and not part else None
        if since_unheard is not None and not set(mesh.away) >= set(others):
            start = max(since_unheard, unheard_to)
            whole = max(0.0, now - start)
            mute = min(whole, max(0.0, allowance - alone_used)) if mesh.away else 0.0
            alone_used += mute
            unheard = [unheard[0] + whole, unheard[1] + mute, unheard[2] or bool(mesh.away)]
            unheard_to = now
            for s in mesh.away:  # the part of its spell in the stretch, counted above
                since = mesh.away_since.get(s, now)
                forgive = min(mute, max(0.0, now - max(start, since)))
                paused[s, since] = paused.get((s, since), 0.0) + forgive
                absent[s] = max(0.0, absent.get(s, 0.0) - forgive)
                total[s] = max(0.0, total.get(s, 0.0) - forgive)
        elif unheard[0] > 0.0:
            length, kept, mattered = unheard
            unheard = [0.0, 0.0, False]
            counted = "that time is not counted against anyone" if kept >= length - 0.5 else (
                f"only {clock_text(kept)} of it is not counted against anyone (at most "
                f"{clock_text(allowance)} over the match, {ABSENCE_IN_ALL} times the table's wait)")
            if mattered:  # a seat was away meanwhile (else there is nothing to tell)
                say(f"** no other player heard this program for {clock_text(length)} (its "
                    f"messages reached nobody: most likely its own network was cut): {counted}")
        last = now
        away = {s: max(gone(s, now, now), absent.get(s, 0.0) if progress is not None else 0.0)
                for s in mesh.away}
        _COUNTED[mesh] = away
        _MATCH_LEFT[mesh] = {s: max(0.0, allowance - total.get(s, 0.0)) for s in mesh.away}
        cut = mesh.unreached() - mesh.away  # a failed resume, a one-way link: we wait, and say so
        unreached = {s: unreached.get(s, now) for s in cut}
        reminded = {k: v for k, v in reminded.items()
                    if not (isinstance(k, tuple) and k[1] not in unreached)}
        for s, since in sorted(unreached.items()):
            if now - reminded.get(("unreached", s), -1e9) >= REMIND_EVERY:
                reminded[("unreached", s)] = now
                how = "" if bot else f"; {_comeback(s)}"
                say(f"** waiting for {mesh.name_of(s)} ({mesh.seat_text(s)}): our messages do not "
                    f"reach their program ({clock_text(now - since)}){how}")
        if not away:
            reminded = {k: v for k, v in reminded.items() if isinstance(k, tuple)}
            continue
        # every other seat away at once: most likely this program is the one cut off, so it
        # names nobody and keeps trying -- unless each of them said goodbye (a signed leave):
        # then nobody is cut off, and the table's wait runs for them as for anyone who left
        if (mesh.stopped is None and mesh.seats > 2 and set(away) >= set(others)
                and not set(others) <= mesh.left):
            held = {s: (t, total.get(s, 0.0)) for s, t in away.items()}
            # ... but not for ever: once every one of them is past the match's allowance, and
            # a whole wait of the stretch was counted (time to come back, and be named on it),
            # the match ends, naming nobody (red team 23: two of three going silent together
            # for good held a person's table until Ctrl-C, and were never named either)
            if stretch[0] - stretch[1] >= wait and all(
                    total.get(s, 0.0) >= allowance for s in others):
                mesh.stop(None, _nobody_heard(stretch[0], allowance, wait))
                return
            if now - reminded.get("cut", -1e9) >= REMIND_EVERY:
                reminded["cut"] = now
                say(f"** you are cut off from {', '.join(mesh.name_of(s) for s in others)} "
                    f"({clock_text(stretch[0])}); retrying")
            continue
        # the longest away first: past the wait, the one that went first is named (red team 21:
        # carol went silent, bob quit after her, and her goodbye, past the wait, had bob named,
        # the lower seat, both being past it at once)
        for s, t in sorted(away.items(), key=lambda kv: (-kv[1], kv[0])):
            if mesh.stopped is not None and s != mesh.stopped.claimed:
                continue  # stopped: only another's claim is still checked (the others may go)
            if t >= wait:
                verb = "left the table" if s in mesh.left else "was away"
                if spells.get(s, 1) > 1:  # in spells, coming and going
                    mesh.stop(s, f"{mesh.name_of(s)} kept leaving and coming back: away "
                              f"{clock_text(t)} in all since the game last moved (at most {clock_text(wait)})")
                else:
                    mesh.stop(s, f"{mesh.name_of(s)} {verb} and did not come back within {clock_text(wait)}")
                return
            used = total.get(s, 0.0)
            if used >= allowance:  # every spell under the wait, but again and again
                mesh.stop(s, f"{mesh.name_of(s)} was away too often: {clock_text(used)} in all over "
                          f"the match (at most {clock_text(allowance)}, {ABSENCE_IN_ALL} times the "
                          f"table's wait of {clock_text(wait)})")
                return
            if t >= min(5.0, wait / 2) and now - reminded.get(s, -1e9) >= REMIND_EVERY:
                reminded[s] = now
                how = "" if bot else f"; {_comeback(s)}"
                say(f"** waiting for {mesh.name_of(s)} ({mesh.seat_text(s)}): away {clock_text(t)} of "
                    f"at most {clock_text(wait)}; {clock_text(used)} of at most {clock_text(allowance)} "
                    f"in all this match; past either, the match ends naming them{how}")


def _nobody_heard(length: float, allowance: float, wait: float) -> str:
    """The stop when this program has heard nobody for so long, past what it forgives, that
    every other seat is past its allowance for the match (``_watch_absence``)."""
    return (f"this program has heard nobody for {clock_text(length)}: every other player has "
            f"been away at once, each past the most the table waits for a player over the match "
            f"({clock_text(allowance)}, {ABSENCE_IN_ALL} times the table's wait of "
            f"{clock_text(wait)}), beyond the {clock_text(allowance)} of such time not counted "
            "against anyone. This program cannot tell its own cut network from all of them "
            "going silent together, so the match ends naming nobody")


def _alone_too_long(name: str, t: float, used: float, wait: float, allowance: float) -> str:
    """The stop for a seat found past its wait or allowance when this program, having heard
    nobody for longer than it forgives (``_watch_absence``), hears someone again."""
    why = (f"away {clock_text(t)} (at most {clock_text(wait)})" if t >= wait else
           f"away too often: {clock_text(used)} in all over the match (at most {clock_text(allowance)})")
    return (f"{name} was {why}, the end of it while every other player was away too: such time "
            f"is not counted against anyone for up to {clock_text(allowance)} over the match, "
            "and that was used up")


def _comeback(seat: int, command: str = "their join command") -> str:
    """How a seat that is away comes back: a joiner reruns its join command; the host (seat 0)
    has none (running ``host`` again opens a new table), it runs ``join --resume``."""
    return "they run 'p2pcards join --resume'" if seat == 0 else f"they rerun {command}"


async def _announce(mesh: Mesh, q: asyncio.Queue, say: Callable[[str], Any], bot: bool) -> None:
    while True:
        ev = await q.get()
        if ev.kind == "away":
            others = {s for s in range(mesh.seats) if s != mesh.seat}
            if mesh.seats > 2 and others <= set(mesh.away) and not others <= mesh.left:
                # every other player away at once: most likely this program is the one cut off
                say(f"** {ev.name} ({mesh.seat_text(ev.seat)}) is away too: every other player "
                    "is away at once, so most likely it is this program that is cut off (its "
                    "network); it keeps trying to reach them.")
                continue
            how = "" if bot else f" ({_comeback(ev.seat, 'the same join command')})"
            say(f"** {ev.name} ({mesh.seat_text(ev.seat)}) is away; the table waits for them to "
                f"come back{how}.")
        elif ev.kind == "left":
            say(f"** {ev.name} ({mesh.seat_text(ev.seat)}) left the table.")
        elif ev.kind == "back":
            say(f"** {ev.name} ({mesh.seat_text(ev.seat)}) is back.")
        elif ev.kind == "stop":
            say(f"** the table stopped: {ev.detail}")
        elif ev.kind in ("equivocation", "fault"):
            say(f"** {ev}")


def spawn_bot(address: str, code: str, *, name: str, level: str, home: Path,
              quiet: bool = True, extra: list[str] | None = None) -> subprocess.Popen:
    """Start ``p2pcards bot`` as its own OS process, with its own data directory (identity)."""
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "P2PCARDS_HOME": str(home), "P2PCARDS_CODE": code}  # never on a command line
    cmd = [sys.executable, "-m", "p2pcards", "bot", address, "--name", name,
           "--level", level, *(extra or [])]
    out = subprocess.DEVNULL if quiet else None
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE if not quiet else out,
                            stderr=subprocess.DEVNULL if quiet else None, start_new_session=True)


def load_identity(home: str | None = None) -> Identity:
    return Identity.load_or_create(home)


def fast_timings() -> Timings:
    return Timings.fast()


BOTS_FINISH = 10.0  # seconds a finished match's bots get to end by themselves
BOT_GRACE = 2.0  # seconds a bot told to stop (SIGTERM) gets before it is killed


def end_bots(procs: list[subprocess.Popen], grace: float = BOT_GRACE) -> None:
    """Stop the bot processes we started: SIGTERM, ``grace`` seconds, then SIGKILL; and reap
    them all (no zombie is left behind)."""
    for p in procs:
        if p.poll() is None:
            with contextlib.suppress(OSError):
                p.terminate()
    deadline = time.monotonic() + grace
    for p in procs:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                p.kill()
            p.wait()


async def bots_end(procs: list[subprocess.Popen], seconds: float) -> None:
    """Give bots up to ``seconds`` to end by themselves (the mesh still answering them)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while any(p.poll() is None for p in procs) and loop.time() < end:
        await asyncio.sleep(0.1)
