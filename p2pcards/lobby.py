"""Sitting at a networked table: open or join one, bring bots, and run this seat's game over the
mesh with the mental-poker deck, then audit it.

Files (under the data directory, ``$P2PCARDS_HOME`` or the platformdirs user data dir):
``identity.pem`` (this user's key), ``tables/<table>.jsonl`` (the signed transcript, written by the
mesh) and ``tables/<table>.seat`` (this seat's secrets: the deck seed and its private
arrangements, plus its own decisions, so a restarted peer re-makes exactly the same choices).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.channel import Channel, Message
from protocol.deck import DeckPeer
from protocol.identity import Identity
from protocol.mesh import Mesh, Timings
from protocol.params import VERSION as DECK_VERSION

from . import __version__
from .deck_dealer import DeckDealer
from .engine import ConfigError, Event, GameState, Request, Shuffle
from .games import game_class, new_game
from .table import Table, TableResult

DECK_TIMEOUT = 60.0  # seconds a present peer may take to answer a deck step
DECISION_TIMEOUT = 6 * 3600.0  # a step that waits on a person's choice (a private arrangement)


@dataclass
class GameInfo:
    game: str
    players: int
    options: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "options": self.options,
                "version": __version__}

    @classmethod
    def from_json(cls, d: Any) -> GameInfo:
        if not isinstance(d, dict) or not isinstance(d.get("game"), str):
            raise ConfigError("the table did not say which game it plays")
        game_class(d["game"])  # raises ConfigError for a game this version does not know
        players, options = d.get("players"), d.get("options", {})
        if not isinstance(players, int) or not isinstance(options, dict):
            raise ConfigError("the table's game description is malformed")
        return cls(d["game"], players, options)

    def check(self) -> None:
        """Build the game once, so bad options fail before anyone sits down."""
        new_game(self.game, self.players, self.options)


class PatientChannel(Channel):
    """The mesh channel as the deck service sees it: a timeout only runs while every peer is
    present, so a peer whose terminal closed is waited for (the table pauses), while a peer that
    is present and withholds a message is named when its time is up."""

    def __init__(self, inner: Any, mesh: Mesh) -> None:
        self.inner = inner
        self.mesh = mesh
        self.seat = inner.seat
        self.seats = inner.seats

    async def send(self, to: int, topic: str, body: Message) -> None:
        await self.inner.send(to, topic, body)

    async def broadcast(self, topic: str, body: Message) -> None:
        await self.inner.broadcast(topic, body)

    async def recv(self, topic: str, timeout: float | None = None) -> tuple[int, Message]:
        if timeout is None:
            return await self.inner.recv(topic)
        left = timeout
        while True:
            step = min(left, 0.5)
            try:
                return await self.inner.recv(topic, step)
            except TimeoutError:
                if not self.mesh.away:
                    left -= step
                    if left <= 0:
                        raise


class SeatJournal:
    """This seat's private journal: the deck seed first, then its own decisions and
    arrangements, one JSON object per flushed line (0600)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records: list[dict[str, Any]] = []
        if path.exists():
            data = path.read_bytes()
            whole = data.rfind(b"\n") + 1
            if whole < len(data):  # a torn last line (a crash mid-write) was never written
                with path.open("r+b") as f:
                    f.truncate(whole)
            for n, line in enumerate(data[:whole].splitlines(), 1):
                try:
                    rec = json.loads(line)
                except (json.JSONDecodeError, UnicodeDecodeError):
                    rec = None
                if not isinstance(rec, dict):
                    raise ConfigError(f"{path}: line {n} is damaged") from None
                self.records.append(rec)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._f = os.fdopen(fd, "a", buffering=1)

    def append(self, record: dict[str, Any]) -> None:
        self._f.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._f.flush()

    def seed(self) -> bytes:
        for r in self.records:
            if r.get("kind") == "seed":
                try:
                    return bytes.fromhex(r["deck"])
                except (KeyError, TypeError, ValueError):
                    raise ConfigError(f"{self.path}: the deck seed is damaged") from None
        seed = secrets.token_bytes(32)
        self.append({"kind": "seed", "deck": seed.hex()})
        return seed

    def close(self) -> None:
        self._f.close()


class DealerAdapter:
    """The deck dealer in the shape the table expects (async ``arrange``; ``audit`` returning the
    full-information outcomes in request order)."""

    def __init__(self, dealer: DeckDealer) -> None:
        self.dealer = dealer

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
            deck.timeout = DECISION_TIMEOUT
        try:
            return await self.dealer.fulfil(view, req, (lambda by, slots: order) if order else None)
        finally:
            deck.timeout = usual

    async def audit(self) -> list[Event]:
        _, pairs = await self.dealer.audit()
        return [ev for _, ev in pairs]


def deck_spec(info: GameInfo) -> str:
    """The deck description every proof binds (protocol/SPEC.md "Parameters"): the game, its
    options, the player count and the deck protocol version, as canonical JSON."""
    return json.dumps({"game": info.game, "players": info.players, "options": info.options,
                       "protocol": DECK_VERSION}, sort_keys=True, separators=(",", ":"))


async def play_seat(mesh: Mesh, player: Any, *, say: Callable[[str], Any] = print,
                    deck_timeout: float = DECK_TIMEOUT, on_table: Callable[[Table], Any] | None = None
                    ) -> TableResult:
    """Run this seat's game to the end (resuming from the journal after a crash), then audit it."""
    await mesh.wait_full()
    info = GameInfo.from_json(mesh.game_info)
    names = [mesh.name_of(s) for s in range(mesh.seats)]
    assert mesh.transcript_path is not None
    journal = SeatJournal(mesh.transcript_path.with_suffix(".seat"))
    resume = [r for r in journal.records if r.get("kind") in ("decision", "arrange")]
    n_cards = new_game(info.game, info.players, info.options).n_cards
    deck = DeckPeer(PatientChannel(mesh.channel, mesh), bytes.fromhex(mesh.table), deck_spec(info),
                    n_cards, journal.seed(), timeout=deck_timeout)
    table = Table(info.game, info.players, info.options, mesh.seat, mesh.channel,
                  DealerAdapter(DeckDealer(deck, mesh.seat)), player, names=names, say=say,
                  journal=journal.append, resume=resume)
    if on_table is not None:
        on_table(table)
    events = asyncio.create_task(_announce(mesh, say))
    try:
        result = await table.run()
        equivocations = await mesh.checkpoint()
        if equivocations and result.verdict is not None and result.verdict.clean:
            e = equivocations[0]
            from .replay import Verdict
            result.verdict = Verdict(False, getattr(e, "seat", None),
                                     "sent different messages to different peers")
        mesh.finish({"outcome": result.outcome,
                     "verdict": None if result.verdict is None else result.verdict.clean})
        return result
    finally:
        events.cancel()
        journal.close()


async def _announce(mesh: Mesh, say: Callable[[str], Any]) -> None:
    q = mesh.subscribe()
    while True:
        ev = await q.get()
        if ev.kind == "away":
            say(f"** {ev.name} is away; the table waits for them to come back "
                f"(they rerun the same join command).")
        elif ev.kind == "back":
            say(f"** {ev.name} is back.")
        elif ev.kind in ("equivocation", "fault"):
            say(f"** {ev}")


def spawn_bot(address: str, code: str, *, name: str, level: str, home: Path,
              quiet: bool = True, extra: list[str] | None = None) -> subprocess.Popen:
    """Start ``p2pcards bot`` as its own OS process, with its own data directory (identity)."""
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "P2PCARDS_HOME": str(home)}
    cmd = [sys.executable, "-m", "p2pcards", "bot", address, "--code", code, "--name", name,
           "--level", level, *(extra or [])]
    out = subprocess.DEVNULL if quiet else None
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE if not quiet else out,
                            stderr=subprocess.DEVNULL if quiet else None, start_new_session=True)


def load_identity(home: str | None = None) -> Identity:
    return Identity.load_or_create(home)


def fast_timings() -> Timings:
    return Timings.fast()
