"""One game at one seat: engine ⇄ deck service ⇄ channel ⇄ player.

Every peer runs the same engine on its own view. At each step the pending request says what
happens: the deciding seat's player chooses and broadcasts its action (topic ``game``); every
other peer checks it with its own engine, so an illegal action stops the table and names its
sender. ``Shuffle``/``Reveal``/``Random``/``Prove`` go to the dealer (the mental-poker deck service on a
real table). Chat lines (topic ``chat``) follow the game's table-talk rules on both ends.

When the game ends, the check: the dealer confirms every seat holds the same public deck record
and returns the outcome of every deck request as this seat saw it, and the whole game is replayed
on this seat's view (a dealer with full-information outcomes, e.g. a local one, may return those:
projected to the view by the engine).
"""

from __future__ import annotations

import asyncio
import inspect
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from protocol.channel import Channel, ChannelClosed
from protocol.envelope import is_int
from protocol.errors import CheatDetected, DeckError, DeckTimeout, PeerAborted

from .engine import SPECTATOR, Action, Decide, Decision, Event, GameState, Request, RuleViolation
from .games import new_game
from .replay import MOVES_START, Verdict, moves_seen, replay
from .ui.text import printable

MAX_AHEAD = 10_000  # steps a peer's action may arrive ahead of ours (a bound on buffering)
TALK_HISTORY = 512  # steps back a chat line may be judged at (its sender's step; issue 14 item 9)
TALK_AHEAD = 64  # chat lines kept, per sender, until our game reaches their sender's step
#: a line dated at a step this seat's game has left may arrive this many seconds after it left
#: (a turn's last line still on its way); later, it is heard only if its sender may talk now
CHAT_LATE = 5.0
CHAT_RATE, CHAT_BURST = 2.0, 8.0  # chat lines a second (and in a burst) shown from one sender
# The most chat lines one player may send a table in a match (a chatty person sends a few
# hundred in an evening): past it every program names them as flooding, at the same line
# (lobby.TOPIC_CAPS). Under it a flood is only cut on the screen (CHAT_RATE), and red team 11
# slowed a table 3-4 times with 660 lines a second for as long as it liked.
CHAT_IN_A_MATCH = 2_000
#: this program's own randomness for the card a move names among equivalent ones (OS entropy:
#: nobody can predict it from a seed or the record)
_DISGUISE = random.SystemRandom()
COUNTDOWN = 30.0  # the last seconds of a turn are counted down
# a wait that comes back this much later than asked means this program stood still (stopped,
# suspended, its loop stuck): that time is nobody's (the lobby's clocks use it too)
OWN_PAUSE = 1.0


class Dealer(Protocol):
    async def fulfil(self, view: GameState, req: Request,
                     arrange: Callable[[int, tuple[int, ...]], Any] | None = None) -> Event: ...

    async def audit(self) -> list[Event]: ...


class TableStopped(Exception):
    """The table stopped: a peer broke the rules or the protocol (``culprit`` is its seat)."""

    def __init__(self, culprit: int | None, reason: str, inferred: bool = False,
                 clock: bool = False) -> None:
        # the reason may quote what a peer sent: one line, cut, its control characters escaped
        reason = printable(reason, newlines=False)
        reason = reason if len(reason) <= 500 else reason[:499] + "…"
        super().__init__(reason)
        self.culprit = culprit
        self.reason = reason
        self.clock = clock  # found on this program's clock (a turn or a deck step not sent)
        # named by inference, not on a proof this program holds: another seat aborted the deck
        # over a message that checks out here, or a seat's prev names another input than this
        # seat holds (a seat that sent the two different copies would explain either): the mesh
        # has its grace to prove that first
        self.inferred = inferred


@dataclass
class _Line:
    """A chat line as it came: the game step its sender dated it at (the sender's word), the
    sender's moves that had reached this seat before it (the channel's count; None: it cannot
    tell) and when it came (``time.monotonic``)."""
    step: Any
    sender: int
    text: str
    moves: int | None
    at: float


@dataclass
class TableResult:
    outcome: dict[str, Any] | None
    verdict: Verdict | None
    steps: int
    decisions: list[Decision] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    turn_latencies: list[float] = field(default_factory=list)
    text: str = ""  # the result in words
    compared: bool | None = None  # the final checkpoint matched every peer's transcript (networked)


class Table:
    def __init__(self, game: str, players: int, options: dict[str, Any], seat: int,
                 channel: Channel, dealer: Dealer, player: Any, *,
                 names: Sequence[str] | None = None, say: Callable[[str], Any] = print,
                 audit: bool = True, journal: Callable[[dict], Any] | None = None,
                 resume: Sequence[dict] = (), turn_time: float | None = None,
                 peer_turn_time: float | None = None, stand_in: Any = None) -> None:
        self.game = game
        self.players = players
        self.options = dict(options)
        self.seat = seat
        self.channel = channel
        self.dealer = dealer
        self.player = player
        self.names = list(names) if names else [f"Seat {p + 1}" for p in range(players)]
        self.say = lambda line: say(printable(line))  # peers' text cannot repaint the terminal
        self.do_audit = audit
        self.state: GameState = new_game(game, players, {**self.options, "names": self.names}).view(seat)
        self.state.narrate()
        self.decisions: list[Decision] = []
        #: the digest of the moves applied so far, which every move this seat sends states
        #: (``seen``: the audit of another player's file tells by it a move against the rules
        #: from one made after moves that file's owner rewrote; red team 17)
        self._seen = MOVES_START
        self.step = 0
        self._early: dict[tuple[int, int], dict] = {}  # (step, sender) -> message
        self._ended = False  # the game is over here: any move still coming is named at the end
        # the table-talk rules in force at each recent step (seat -> (refusal, audience)), so a
        # chat line is judged at the step its sender sent it, and lines sent from steps we have
        # not reached yet
        self._talk: dict[int, dict[int, tuple[str | None, list[int]]]] = {}
        self._reached: dict[int, float] = {}  # recent steps: when this seat's game reached each
        # chat lines kept until our game reaches their step, or has read the move before them
        self._held: list[_Line] = []
        # every seat's moves as this seat read them, in the order it sent them (their steps): a
        # chat line is placed among its sender's moves by the channel, so it cannot be dated
        # before a move it came after
        self._moves: dict[int, list[int]] = {}
        self._moved_at = -1  # the step of this seat's last move sent
        self._saying = asyncio.Lock()
        # This seat's own choices, journalled as they are made (``journal``) so that a restarted
        # peer re-makes exactly the same ones (``resume``) while it catches up.
        self.journal = journal
        self._resume_decisions = [r for r in resume if r.get("kind") == "decision"]
        self._resume_arrangements = [r for r in resume if r.get("kind") == "arrange"]
        # Turn time: our own player has ``turn_time`` seconds, then ``stand_in`` (a bot) plays;
        # a peer silent for ``peer_turn_time`` while present is named (None: no limit).
        self.turn_time = turn_time
        self.peer_turn_time = peer_turn_time
        self.stand_in = stand_in
        # the turn being waited for ((step, player)), the present time waited on it, and
        # whether its countdown was said: kept across the messages that end a wait
        # (the turn, its time waited, how many of its countdown lines were said)
        self._turn_wait: tuple[tuple[int, int] | None, float, int] = (None, 0.0, 0)
        self._chat_budget: dict[int, list[float]] = {}  # sender -> [tokens, last time, dropped]
        # called after every event the table's state takes (a deal, an opened card, a move), so
        # a screen redraws from it even when no line is written (the cards dealt to a seat that
        # does not move first)
        self.on_change: Callable[[], Any] | None = None

    # ---- the main loop --------------------------------------------------------------------------
    async def run(self) -> TableResult:
        timings = {"deck_s": 0.0, "wait_s": 0.0, "decide_s": 0.0}
        latencies: list[float] = []
        chat_task = asyncio.create_task(self._chat_loop())
        try:
            while (req := self.state.pending()) is not None:
                self._flush()
                self._note_talk()
                self._judge_early(req)
                t0 = time.perf_counter()
                if isinstance(req, Decide):
                    if req.player == self.seat:
                        ev = await self._my_decision()
                        timings["decide_s"] += time.perf_counter() - t0
                    else:
                        ev = await self._their_decision(req.player)
                        timings["wait_s"] += time.perf_counter() - t0
                        latencies.append(time.perf_counter() - t0)
                    try:
                        self._apply(ev, req.player)
                    except TableStopped as finding:
                        if req.player == self.seat:
                            raise
                        await self._settle(ev, finding)
                    self.decisions.append(ev)  # type: ignore[arg-type]
                    self._seen = moves_seen(self._seen, self.step, ev.player,  # type: ignore[union-attr]
                                            ev.action.to_json())  # type: ignore[union-attr]
                else:
                    try:
                        ev = await self.dealer.fulfil(self.state, req, self._arrange)
                    except DeckError as exc:  # the deck service caught a peer: stop, name it
                        raise self._deck_stop(exc) from None
                    except RuleViolation as exc:  # this seat's own claim is false (a modified
                        # program, or a bug): its dealer refuses to prove it, and it stops
                        culprit = self.seat if exc.player is None else exc.player
                        raise TableStopped(culprit, f"{self._name(culprit)}: {exc.reason}") from None
                    timings["deck_s"] += time.perf_counter() - t0
                    self._apply(ev, None)
                self.step += 1
            self._flush()
            await self._judge_after_end()
        finally:
            chat_task.cancel()
        outcome = self.state.outcome()
        verdict = None
        if self.do_audit:
            t0 = time.perf_counter()
            verdict = await self.audit(outcome)
            timings["audit_s"] = time.perf_counter() - t0
        return TableResult(outcome, verdict, self.step, self.decisions, timings, latencies,
                           self.state.result_text())

    def _broke(self, culprit: int | None, reason: str) -> str:
        """A move the rules refuse, in a stop's words: "carol made a move the rules forbid:
        played 4 as 13". It said "carol: played 4 as 13", which a player new to the game did not
        read as a cheat caught, nor as the reason nothing more is played (ux23, walked)."""
        return f"{self._name(culprit)} made a move the rules forbid: {reason}"

    def _deck_stop(self, exc: DeckError) -> TableStopped:
        reason = exc.reason
        head, colon, rest = reason.partition(": ")
        if colon and rest.startswith(f"{head}: "):  # "shuffle proof: shuffle proof: ..."
            reason = rest
        if isinstance(exc, CheatDetected):
            # "carol: shuffle proof: challenge mismatch (another statement or context)" said
            # nothing a player could read as a cheat caught (ux23, walked): say what it is first
            said = f"{self._name(exc.peer)}'s program sent a deck message the protocol " \
                   f"forbids: {reason}"
        else:
            said = f"{self._name(exc.peer)}: {reason}"
        return TableStopped(exc.peer, f"{said} (deck step {exc.step})",
                            inferred=isinstance(exc, PeerAborted) or exc.confirm,
                            clock=isinstance(exc, DeckTimeout))

    async def _settle(self, ev: Decision, finding: TableStopped) -> None:
        """A peer's move that this copy refuses (``finding``). When it breaks a rule only this
        seat can see -- it is about a card this seat knows and some others do not (a card shown
        to this seat, the Robot's hand to its owner) -- the others' copies take it, and their
        next deck steps settle it: the claim's proof that the cheater cannot give, or the card's
        opening. Stopping at once on this seat's own word left those steps undone, so only this
        seat named the cheater and the others named nobody (red team 10 #2). So this seat takes
        part in those steps from its public copy (what the others' copies hold: ``view(SPECTATOR)``),
        and stops with what they find, which every seat finds alike; only when the game reaches
        the next move with nothing found does it stop on its own finding, as before. A move the
        public copy refuses too is refused by every copy: stop at once, in the public copy's
        words. This copy's own words may name a card only this seat knows (its own hand's,
        quoted back from a move that names its slot), and a stop's reason goes to every peer,
        the move's author first among them (red team 16c). Raises ``TableStopped``."""
        public = self.state.view(SPECTATOR)
        # the move was refused by its checks, which change nothing (a move refused while it
        # was being carried out left the state part way: its own words say what went wrong)
        checked = self.state.pending() == Decide(ev.player)
        try:
            public.apply(ev)
        except RuleViolation as exc:
            if not checked:
                raise finding from None
            culprit = exc.player if exc.player is not None else ev.player
            raise TableStopped(culprit, self._broke(culprit, exc.reason)) from None
        while (req := public.pending()) is not None and not isinstance(req, Decide):
            try:
                out = await self.dealer.fulfil(public, req)
            except DeckError as exc:
                raise self._deck_stop(exc) from None
            except Exception:  # noqa: BLE001 -- a step this copy cannot take part in from there
                raise finding from None
            try:
                public.apply(out)
            except RuleViolation as exc:  # the opened card is not the one claimed: public now
                culprit = exc.player if exc.player is not None else ev.player
                raise TableStopped(culprit, self._broke(culprit, exc.reason)) from None
        raise finding

    def _apply(self, ev: Event, player: int | None) -> None:
        try:
            self.state.apply(ev)
        except RuleViolation as exc:
            culprit = exc.player if exc.player is not None else player
            raise TableStopped(culprit, self._broke(culprit, exc.reason)) from None
        if self.on_change is not None:
            self.on_change()

    def _flush(self) -> None:
        for line in self.state.take_notes():
            self.say(line)

    def _name(self, seat: int | None) -> str:
        return "the deck service" if seat is None else self.names[seat]

    # ---- decisions ------------------------------------------------------------------------------
    async def _my_decision(self) -> Decision:
        legal = self.state.legal(self.seat)
        if self._resume_decisions:  # recovering: re-take the decision made before the crash
            rec = self._resume_decisions.pop(0)
            if rec.get("step") != self.step:
                raise TableStopped(self.seat, "this seat's journal does not match the game")
            try:
                action = Action.from_json(rec.get("action"))
            except ValueError:
                raise TableStopped(self.seat, "this seat's journal is damaged") from None
        else:
            # the move as sent: its cards picked at random among the equivalent ones, so the
            # slot tells nobody where the rest of the hand lies (GameState.disguise)
            action = self.state.disguise(self.seat, await self._timed_decide(legal), _DISGUISE)
            if self.journal is not None:
                self.journal({"kind": "decision", "step": self.step, "action": action.to_json()})
        try:
            self.state.check(self.seat, action)
        except RuleViolation as exc:  # a damaged journal, or a bug: never send it
            # this copy's words may name this seat's own cards, and the stop goes to every peer
            # (red team 16c): they are said here only, the stop is worded as the public copy
            # words the move, or names no card
            self.say(f"This seat's own decision is illegal: {exc.reason}")
            try:
                self.state.view(SPECTATOR).check(self.seat, action)
                public = "it breaks a rule about this seat's own cards"
            except RuleViolation as refusal:
                public = refusal.reason
            raise TableStopped(self.seat, f"this seat's own decision is illegal: {public}") from None
        self._moved_at = self.step  # a chat line from now on is dated after this move
        await self.channel.broadcast("game", self._move_body(action))
        return Decision(self.seat, action)

    def _move_body(self, action: Action) -> dict[str, Any]:
        """This seat's move as sent: its step, its action and the digest of the moves before
        it (``seen``). While a restarted program re-sends its recorded moves, a record made by
        a program from before ``seen`` gets its moves again as that program sent them (else
        the re-run would diverge from the record and the seat could not be taken back)."""
        body = {"step": self.step, "action": action.to_json(), "seen": self._seen.hex()}
        pending = getattr(self.channel, "pending_replay", None)
        recorded = next((b for to, b in pending("game") if to is None), None) \
            if callable(pending) else None
        if isinstance(recorded, dict) and "seen" not in recorded:
            del body["seen"]
        return body

    async def _timed_decide(self, legal: list[Action]) -> Action:
        """The player's decision within the turn time (counted down at the end); when it runs
        out, the stand-in bot plays this turn and says so."""
        return await self._timed(
            lambda: self.player.decide(self.state, legal),
            lambda: self.stand_in.decide(self.state, legal),
            "to decide; then your bot plays this turn",
            f"your bot plays this turn for {self.names[self.seat]}")

    async def _timed(self, ask: Callable[[], Any], stand_in: Callable[[], Any], left_words: str,
                     up_words: str) -> Any:
        """What the player answers ``ask`` within the turn time (counted down at the end); when
        it runs out, what the stand-in bot answers, said so."""
        answer = asyncio.ensure_future(_maybe_await(ask()))
        if not self.turn_time or self.stand_in is None:
            return await answer
        left = self.turn_time
        try:
            while left > 0:
                wait = left - COUNTDOWN if left > COUNTDOWN else (left - 10 if left > 10 else left)
                done, _ = await asyncio.wait({answer}, timeout=wait)
                if done:
                    return answer.result()
                left -= wait
                if left > 0:
                    self.say(f"({int(round(left))} s left {left_words})")
        finally:
            answer.cancel()
        self.say(f"(time is up: {up_words})")
        return await _maybe_await(stand_in())

    async def _recv_game(self, player: int) -> tuple[int, dict]:
        """The next game message; a deciding peer present and silent past the turn time is named.

        The time waited belongs to the turn (``_turn_wait``), not to one call: a message that
        ends a wait without being the turn's move (the player's move for a later step, filed for
        then) does not start the count afresh. (Red team 14: a staller sent, just inside the
        limit each time, a move for the next step, then the one after, up to ``MAX_AHEAD`` steps
        ahead, and was never named.) A slice that took over ``OWN_PAUSE`` longer than asked is
        this program standing still (Ctrl-Z, a paused virtual machine), not the player's time: it
        counts as the slice asked for (before, the whole pause was the player's, and a program
        woken from a pause longer than the turn named an honest player still thinking)."""
        if not self.peer_turn_time:
            return await self.channel.recv("game")
        turn = (self.step, player)
        if self._turn_wait[0] != turn:
            self._turn_wait = (turn, 0.0, 0)
        _, waited, warned = self._turn_wait
        away = getattr(self.channel, "away", lambda: set())
        while True:
            t0 = time.monotonic()
            try:
                got: tuple[int, dict] | None = await self.channel.recv("game", 1.0)
            except TimeoutError:
                got = None
            if player not in away():
                spent = time.monotonic() - t0
                waited += 1.0 if spent > 1.0 + OWN_PAUSE else spent
            self._turn_wait = (turn, waited, warned)
            if got is not None:
                return got
            left = self.peer_turn_time - waited
            if (left <= COUNTDOWN and warned < 1) or (0 < left <= 10 and warned < 2):
                warned = 1 if left > 10 else 2  # said again 10 s before: a notice stays up
                self._turn_wait = (turn, waited, warned)
                # the person reading it wonders what is left, of what, and then what (ux23): it
                # said "(waiting for carol's turn: 29 s left)"
                name = self._name(player)
                self.say(f"** {name}'s time for this turn is up, and their program has not "
                         f"played it for them: in {int(left)} s the table stops, naming {name}")
            if left <= 0:
                raise TableStopped(player, f"{self._name(player)}'s program did not play its turn "
                                   f"within {int(self.peer_turn_time)} s", clock=True)

    async def _their_decision(self, player: int) -> Decision:
        key = (self.step, player)
        while key not in self._early:
            sender, msg = await self._recv_game(player)
            self._file_game(sender, msg, player)
        msg = self._early.pop(key)  # anyone else's move for this step was named as it came
        try:
            action = Action.from_json(msg["action"])
        except ValueError as exc:
            raise TableStopped(player, f"{self._name(player)} sent a malformed action: {exc}") from None
        return Decision(player, action)

    def _file_game(self, sender: int, msg: Any, player: int | None) -> None:
        """Check a game message as it arrives while ``player`` is to move (``None``: nobody, the
        deck is at work or the game is over), and keep it for its step; ``TableStopped`` names its sender when it
        cannot be right."""
        step = msg.get("step") if isinstance(msg, dict) else None
        if not is_int(step) or "action" not in msg:  # JSON: true and 1.0 are not a step
            raise TableStopped(sender, f"{self._name(sender)} sent a malformed game message")
        if step > self.step + MAX_AHEAD:
            raise TableStopped(sender, f"{self._name(sender)} sent an action for step {step}, "
                               f"far beyond the game's step {self.step}")
        if step < self.step or (step, sender) in self._early:
            raise TableStopped(sender, f"{self._name(sender)} sent a second action for step "
                               f"{step} (a replay, or out of turn)")
        if step == self.step and player is None and not self._ended:  # a deck step
            raise TableStopped(sender, f"{self._name(sender)} acted out of turn (nobody is to "
                               f"move: the deck is at work)")
        if step == self.step and player is not None and sender != player:  # named now
            raise TableStopped(sender, f"{self._name(sender)} acted out of turn "
                               f"({self._name(player)} is to move)")
        try:  # its shape is checked now too, not once the game reaches its step
            Action.from_json(msg["action"])
        except ValueError as exc:
            raise TableStopped(sender, f"{self._name(sender)} sent a malformed action: "
                               f"{str(exc)[:120]}") from None
        self._early[(step, sender)] = msg
        self._moves.setdefault(sender, []).append(step)

    def _judge_early(self, req: Any) -> None:
        """On reaching a step: a move that arrived ahead for it from anyone but the player to
        move (or from anyone at all, at a deck step) is named now."""
        player = req.player if isinstance(req, Decide) else None
        for (step, sender) in list(self._early):
            if step == self.step and sender != player:
                where = f"{self._name(player)} is to move" if player is not None \
                    else "nobody is to move: the deck is at work"
                raise TableStopped(sender, f"{self._name(sender)} acted out of turn ({where})")

    async def _judge_after_end(self) -> None:
        """Once the game is over here: a move that arrived for a step the game never reached
        cannot have been right (an honest program sends none after the end), so its sender is
        named, by every program that holds it."""
        self._ended = True
        await self._read_arrived(None)
        if self._early:
            step, sender = min(self._early)
            raise TableStopped(sender, f"{self._name(sender)} sent a move for step {step}, after "
                               f"the game's end (step {self.step})")

    async def check_arrived(self, most: int = 64) -> None:
        """After another peer's unproven stop: check the game messages that had already arrived
        (say during this seat's own turn, when nobody reads them), so that a deviation this
        program can see for itself is named by it, not taken on the stopper's word."""
        req = self.state.pending()
        if req is None:  # the game is over here
            return
        await self._read_arrived(req.player if isinstance(req, Decide) else None, most)
        self._judge_early(req)

    async def _read_arrived(self, player: int | None, most: int | None = None) -> None:
        """File (``_file_game``) the game messages that have arrived, without waiting for more."""
        while most is None or most > 0:
            try:
                sender, msg = await self.channel.recv("game", 0.05)
            except (ChannelClosed, TimeoutError):
                return
            self._file_game(sender, msg, player)
            most = None if most is None else most - 1

    async def _arrange(self, by: int, slots: tuple[int, ...]) -> list[int]:
        if self._resume_arrangements:
            order = self._resume_arrangements.pop(0).get("order")
            if not (isinstance(order, list) and all(is_int(x) for x in order)
                    and sorted(order) == sorted(slots)):
                raise TableStopped(self.seat, "this seat's journal is damaged")
            return order
        # a person at an arrangement prompt has the turn time too: walking away from it (or a
        # client that never answers) would otherwise hold the whole table
        order = list(await self._timed(
            lambda: self.player.arrange(self.state, slots),
            lambda: self.stand_in.arrange(self.state, slots),
            "to order the cards; then your bot orders them",
            f"your bot orders the cards for {self.names[self.seat]}"))
        if self.journal is not None:
            self.journal({"kind": "arrange", "step": self.step, "order": order})
        return order

    # ---- chat -----------------------------------------------------------------------------------
    async def send_chat(self, text: str) -> str | None:
        """Send a chat line; returns why it was refused, or ``None``."""
        async with self._saying:  # lines go out in the order they were said
            # A line is dated with our game's step. Between sending our move and applying it
            # the step is still the move's: wait for it to move on, so the line is dated after
            # the move (as every seat sees it come: after it), not at a turn that is over.
            for _ in range(100):
                if self._moved_at < self.step:
                    break
                await asyncio.sleep(0.01)
            else:
                return "your move is still on its way; say it again in a moment"
            refusal = self.state.chat_refusal(self.seat)
            if refusal:
                return refusal
            for p in self.state.chat_audience(self.seat):
                await self.channel.send(p, "chat", {"text": text[:500], "step": self.step})
            return None

    def _talk_rules(self, sender: int) -> tuple[str | None, list[int]]:
        return self.state.chat_refusal(sender), self.state.chat_audience(sender)

    def _note_talk(self) -> None:
        """Remember the table-talk rules of this step; hear the lines waiting for it."""
        self._talk[self.step] = {p: self._talk_rules(p) for p in range(self.players)}
        self._talk.pop(self.step - TALK_HISTORY, None)
        self._reached[self.step] = time.monotonic()
        self._reached.pop(self.step - TALK_HISTORY, None)
        held, self._held = self._held, []
        for line in held:
            if self._ready(line):
                self._hear(line)
            else:
                self._held.append(line)

    def _ready(self, line: _Line) -> bool:
        """A line is judged once our game has reached its step and read every move its sender
        sent before it."""
        moves = len(self._moves.get(line.sender, ()))
        return (not is_int(line.step) or line.step <= self.step) and \
            (line.moves is None or moves >= line.moves)

    def _chat_allowed(self, sender: int) -> bool:
        """A few lines a second per sender; a flood is dropped and reported now and then."""
        now = time.monotonic()
        b = self._chat_budget.setdefault(sender, [CHAT_BURST, now, 0.0, now])
        b[0] = min(CHAT_BURST, b[0] + (now - b[1]) * CHAT_RATE)
        b[1] = now
        if b[0] >= 1:
            b[0] -= 1
            return True
        b[2] += 1
        if now - b[3] >= 5.0 or b[2] == 1:
            b[3] = now
            self.say(f"({self._name(sender)} is flooding the chat; {int(b[2])} lines dropped; "
                     f"past {CHAT_IN_A_MATCH:,} lines in a match the table stops, naming them)")
        return False

    async def _chat_loop(self) -> None:
        while True:
            try:
                sender, msg, before = await self.channel.recv_stamped("chat")
            except ChannelClosed:
                return
            if not self._chat_allowed(sender):
                continue
            text = msg.get("text") if isinstance(msg, dict) else None
            if not isinstance(text, str):
                continue
            # one line, runs of spaces as one (no padding that wraps a forged line onto a line
            # of its own), control characters escaped
            text = " ".join(printable(text[:500], newlines=False).split())
            # the sender's moves that reached this seat before the line (None: the channel
            # cannot tell)
            moves = before.get("game", 0) if isinstance(before, dict) else None
            line = _Line(msg.get("step", self.step), sender, text, moves, time.monotonic())
            if is_int(line.step) and line.step > self.step + MAX_AHEAD:
                self._hear(line)  # refused: too far ahead
            elif not self._ready(line):
                # judged once we reach its step (or read the move); a sender's own lines
                # waiting cannot crowd out another's
                if sum(1 for h in self._held if h.sender == sender) < TALK_AHEAD:
                    self._held.append(line)
                else:
                    self.say(f"(a chat line from {self._name(sender)} was dropped: "
                             f"{TALK_AHEAD} of their lines are already waiting for their game "
                             "step)")
            else:
                self._hear(line)

    def _hear(self, line: _Line) -> None:
        """Judge a chat line by the table-talk rules in force at the step it was sent."""
        step, sender = line.step, line.sender
        if not is_int(step):
            refusal: str | None = "it carried no game step"
            audience: list[int] = [self.seat]
        elif step == self.step:
            refusal, audience = self._talk_rules(sender)
        elif step in self._talk:
            refusal, audience = self._talk[step].get(sender, ("it came from no seat", [self.seat]))
        else:
            refusal, audience = f"it was sent at game step {step}, too far from ours", [self.seat]
        if self.seat not in audience:
            refusal = "it was not meant for this seat (team talk)"
        if not refusal:
            refusal = self._dated_back(line) or self._too_late(line)
        if refusal:
            self.say(f"(a chat line from {self._name(sender)} was refused: {refusal})")
        else:
            # the sender's seat after its name: a name may be a word the program's or a game's
            # own lines begin with ("Revealed: ...", "Result: ..."), never with a seat after it
            self.say(f"{self._name(sender)} (seat {sender + 1}): {line.text}")

    def _dated_back(self, line: _Line) -> str | None:
        """A line dated at or before a move its sender sent before it: no honest program dates
        one so (it dates a line after its own move), so the sender's program lied about when."""
        moves = self._moves.get(line.sender, [])
        if not line.moves or len(moves) < line.moves:
            return None
        moved = moves[line.moves - 1]
        if moved < line.step:
            return None
        name = self._name(line.sender)
        return (f"{name}'s program dated it at game step {line.step}, but it came after "
                f"{name}'s move at step {moved}: a line cannot be dated back")

    def _too_late(self, line: _Line) -> str | None:
        """A line dated at a step this seat's game left more than ``CHAT_LATE`` s before the
        line came, from a sender who may not talk now (a delay no honest link makes, or a
        program dating its lines back where no move of its own shows it)."""
        left = next((self._reached[s] for s in range(line.step + 1, self.step + 1)
                     if s in self._reached), None)  # when our game left the line's step
        if left is None or line.at - left <= CHAT_LATE:
            return None
        refusal, audience = self._talk_rules(line.sender)
        if refusal is None and self.seat in audience:
            return None  # it may be said now anyway
        return (f"it was dated at game step {line.step}, which this seat's game had left "
                f"{line.at - left:.0f} s before it came (a line may come {CHAT_LATE:.0f} s late)")

    # ---- audit ----------------------------------------------------------------------------------
    async def audit(self, outcome: dict[str, Any] | None) -> Verdict:
        try:
            outcomes = await self.dealer.audit()
        except Exception as exc:  # a deck cheat: the dealer names the peer
            culprit = getattr(exc, "peer", None)
            return Verdict(False, culprit, f"deck audit failed: {exc}")
        return replay(self.game, self.players, {**self.options, "names": self.names},
                      self.decisions, outcomes, expected_outcome=outcome, viewer=self.seat)


async def _maybe_await(x: Any) -> Any:
    return await x if inspect.isawaitable(x) else x
