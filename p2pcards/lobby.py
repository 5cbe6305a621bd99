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
from .absence import REMIND_EVERY, UNHEARD_FIRST, _announce, _watch_absence, clock_text
from .blame import before_naming, compared
from .deck_dealer import DeckDealer
from .engine import SECRECY, ConfigError, Event, GameState, Request, Shuffle
from .games import game_class, new_game
from .journal import SeatJournal, journal_lost
from .patient import DECK_ALLOWANCE, DECK_LATE_BUDGET, PatientChannel
from .replay import code_drawn
from .table import CHAT_IN_A_MATCH, Table, TableResult, TableStopped

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
