"""Saved local games: ``p2pcards play`` and ``demo`` keep a record of every game in the data
directory's ``tables/`` folder, next to the networked transcripts, as ``local-*.game`` files that
``p2pcards tables`` lists and ``p2pcards replay`` steps through.

The format is JSON Lines: a header (game, players, options, names, the human's seat), then one
line per step with the full-information event (``engine.event_to_json``), then the result. A
local game had a trusted dealer, so the record holds every card; a replay shows a seat only what
that seat saw (``engine.project``), or a spectator the public cards."""

from __future__ import annotations

import contextlib
import datetime
import errno
import json
import os
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from protocol.envelope import is_int
from protocol.transcript import MAX_TIME

from ..engine import (
    SECRECY,
    SPECTATOR,
    ConfigError,
    Decision,
    Event,
    GameState,
    event_from_json,
    event_to_json,
    project,
)
from ..games import game_class, new_game
from .text import no_file

FORMAT = "p2pcards-local-game"
SUFFIX = ".game"
VERSION = 3  # of a local save
#: the engine's secrecy (``GameState.secrecy``) of each version of a local save: 1 before claims
#: about hidden cards were proven, 2 with their Prove/Proven events, 3 with the re-encryptions
#: that keep shares from adding up
SECRECY_OF = {1: 0, 2: 1, 3: SECRECY}


def tables_dir(home: str | None = None) -> Path:
    from protocol.identity import data_dir

    return data_dir(home) / "tables"


def find_local_games(home: str | None = None) -> list[Path]:
    d = tables_dir(home)
    # only files: a pipe or a device under the name would block whoever opened it
    return sorted((p for p in d.glob(f"*{SUFFIX}") if p.is_file()),
                  key=lambda p: p.stat().st_mtime, reverse=True) if d.is_dir() else []


class Recorder:
    """Writes one game's record as it is played (a crash keeps what was played so far)."""

    def __init__(self, game: str, players: int, options: dict[str, Any], names: list[str],
                 seat: int | None, *, home: str | None = None, path: Path | None = None) -> None:
        from protocol.identity import IdentityError, data_dir, ensure_dir

        if path is None:
            stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = tables_dir(home) / f"local-{stamp}-{game}{SUFFIX}"
            home_dir = data_dir(home)
            try:  # the data directory as the rest of p2pcards makes it (0700), then tables/
                if home_dir.exists() and not home_dir.is_dir():
                    raise IdentityError(f"cannot create the p2pcards data directory {home_dir}: "
                                        "a file of that name is in the way")
                ensure_dir(home_dir)
            except IdentityError as exc:
                raise ConfigError(f"{exc}; the game is not started (set P2PCARDS_HOME to a "
                                  "folder you can write)") from None
            try:  # tables/ as the transcripts' writer makes it: a file in its way is named
                ensure_dir(path.parent)
            except IdentityError as exc:
                raise ConfigError(f"{exc}; the game is not started") from None
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # private (0600) as the transcripts are: a local game's record holds every hand
            # (made so before it is opened for writing, which keeps the mode)
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
            self._f = path.open("w", encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot save the game in {path.parent}: "
                              f"{exc.strerror or exc}; the game is not started") from None
        self.path = path
        #: why the record stopped before the game did (a full disk...), said to the player
        self.error: str | None = None
        self.steps = 0
        self._write({"format": FORMAT, "version": VERSION, "game": game, "players": players,
                     "options": options, "names": names, "seat": seat, "created": time.time()})
        if self.error is not None:
            raise ConfigError(f"cannot save the game in {path}: {self._why}; the game is "
                              "not started")

    def _write(self, rec: dict[str, Any]) -> None:
        """One line; a write that fails (a full disk) stops the record, never the game."""
        if self.error is not None:
            return
        try:
            self._f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            self._f.flush()
        except OSError as exc:
            self._why = exc.strerror or str(exc)
            self.error = (f"The record of this game stopped after {self.steps} steps, "
                          f"{self.path} could not be written ({self._why}): it keeps what came "
                          "before.")
            self.close()

    def event(self, ev: Event) -> None:
        self._write({"event": event_to_json(ev)})
        if self.error is None:
            self.steps += 1

    def finish(self, final: GameState) -> None:
        self._write({"result": final.outcome(), "text": final.result_text()})
        self.close()

    def close(self) -> None:
        if not self._f.closed:
            # what was left in the buffer may not be written either (a full disk)
            with contextlib.suppress(OSError):
                self._f.close()


@dataclass
class SavedGame:
    path: Path
    game: str
    players: int
    options: dict[str, Any]
    names: list[str]
    seat: int | None
    created: float
    events: list[Event] = field(default_factory=list)
    result_text: str | None = None
    #: whose view ``events`` are (a networked game reveals nothing hidden, so its record holds
    #: one view: the owner's, with its seat journal, or a spectator's); ``None``: full information
    viewer: int | None = None
    #: the engine's secrecy of the version that made it (``GameState.secrecy``; lower for a local
    #: save of an earlier version, or a transcript whose deck's description says so)
    secrecy: int = SECRECY

    @property
    def finished(self) -> bool:
        return self.result_text is not None


def is_local(path: str | Path) -> bool:
    return str(path).endswith(SUFFIX)


MAX_PLAYERS = 16


def _json(v: object) -> str:
    """A value as the file spells it, cut short."""
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _header(p: Path, head: dict[str, Any]) -> SavedGame:
    """The header of a saved local game, every field checked (a ``ValueError`` saying which is
    wrong), so that listing and replaying it can trust each one."""
    def field_(key: str) -> Any:
        if key not in head:
            raise ValueError(f"no {key!r}")
        return head[key]

    version, game, players = field_("version"), field_("game"), field_("players")
    options, names, seat, created = head.get("options") or {}, field_("names"), \
        head.get("seat"), field_("created")
    if not is_int(version) or version not in SECRECY_OF:
        raise ValueError(f"version is {_json(version)}, not 1 to {VERSION}: written by another "
                         "p2pcards")
    if not isinstance(game, str) or not game:
        raise ValueError(f"game is {_json(game)}, not a game's name")
    try:
        game_class(game)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    if not is_int(players) or not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"players is {_json(players)}, not 2 to {MAX_PLAYERS}")
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise ValueError(f"options is {_json(options)}, not an object")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names is {_json(names)}, not a list of names")
    if len(names) != players:
        raise ValueError(f"{len(names)} names for {players} players")
    if seat is not None and not (is_int(seat) and 0 <= seat < players):
        raise ValueError(f"seat is {_json(seat)}, not 0 to {players - 1} (or null)")
    if not (isinstance(created, int | float) and not isinstance(created, bool)
            and 0 <= created <= MAX_TIME):  # NaN fails both comparisons
        raise ValueError(f"created is {_json(created)}, not a time")
    return SavedGame(p, game, players, dict(options), list(names), seat, float(created),
                     secrecy=SECRECY_OF[version])


#: the largest file read as a saved local game: a whole game is 2 KB to about 100 KB (Out Of
#: This World's longest); ``tables`` took 51 s and 1 GB of memory to list a 165 MB one
MAX_BYTES = 16 * 2**20


def read(path: str | Path) -> SavedGame:
    """Read a saved local game; a missing or damaged file is a ``ConfigError`` naming the line."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise ConfigError(f"{path}: {size:,} bytes, far more than any saved game (a whole "
                              f"game is under {MAX_BYTES // 2**20} MB): not read")
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(no_file(path)) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ConfigError(no_file(path)) from None
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    lines = text.splitlines()
    try:
        head = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ConfigError(f"{path}: not a saved local game (line 1)")
    try:
        g = _header(p, head)
    except ValueError as exc:
        raise ConfigError(f"{path}: line 1 is damaged ({exc})") from None
    for n, line in enumerate(lines[1:], 2):
        try:
            rec = json.loads(line)
            if "event" in rec:
                g.events.append(event_from_json(rec["event"]))
            elif "text" in rec:
                g.result_text = str(rec["text"])
        except (json.JSONDecodeError, TypeError, ValueError) as exc:
            if n == len(lines):  # a torn last line: the game was cut short there
                break
            raise ConfigError(f"{path}: line {n} is damaged ({exc})") from None
    return g


@dataclass
class Frame:
    """One moment of a replay: the seat's view after a step, and the log so far."""

    view: GameState
    log: list[str]
    label: str


def frames(g: SavedGame, seat: int | None) -> list[Frame]:
    """The game as ``seat`` saw it (``None``: a spectator), one frame per decision."""
    viewer = SPECTATOR if seat is None else seat
    if seat is not None and not 0 <= seat < g.players:
        raise ConfigError(f"--seat must be between 1 and {g.players}")
    if g.viewer is not None and viewer != g.viewer:
        raise ConfigError(f"{g.path}: this record replays only {_as(g.viewer, g.names)} "
                          "(or as a spectator): the other hands were never revealed")
    try:
        state = new_game(g.game, g.players, {**g.options, "names": g.names}, secrecy=g.secrecy)
    except ConfigError as exc:
        raise ConfigError(f"{g.path}: {exc}") from None
    if g.viewer is not None:
        state = state.view(g.viewer)
    copy = state.view(viewer)
    copy.narrate()
    log: list[str] = list(copy.take_notes())
    out = [Frame(copy.clone(), list(log), "start")]
    for i, ev in enumerate(g.events):
        req = state.pending()
        if req is None:
            raise ConfigError(f"{g.path}: event {i + 1} comes after the end of the game")
        before = state.clone()
        try:
            state.apply(ev)
            copy.apply(project(ev, req, before, viewer))
        except Exception as exc:  # noqa: BLE001 -- a damaged record is reported, not raised
            raise ConfigError(f"{g.path}: event {i + 1} does not fit the game "
                              f"({type(exc).__name__}: {exc})") from None
        log.extend(copy.take_notes())
        if isinstance(ev, Decision) or state.pending() is None:
            who = g.names[ev.player] if isinstance(ev, Decision) else "the end"
            out.append(Frame(copy.clone(), list(log), who))
    if state.pending() is None:
        out[-1].log.append(f"Result: {state.result_text()}")
    else:
        out[-1].log.append(UNFINISHED)
    return out


UNFINISHED = "The record stops here: this game was cut short before its end (no result)."


def unfinished(frames_: list[Frame]) -> bool:
    """Whether a replay's record stops before the game's end."""
    return bool(frames_) and frames_[-1].view.pending() is not None


OWNER = "owner"  # load_any's default view: the owner's seat when its journal is there


def _as(viewer: int, names: list[str]) -> str:
    return "as a spectator" if viewer == SPECTATOR else f"as {names[viewer]}'s seat"


def load_any(path: str | Path, view: int | str | None = OWNER) -> SavedGame:
    """A saved local game (full information: any seat's view can be shown), or a finished
    networked transcript turned into the same form for one view: its owner's (``OWNER``, or the
    owner's seat number; needs the seat journal beside it) or a spectator's (``None``)."""
    if not str(path):
        raise ConfigError("no file given: name a saved game (p2pcards tables lists them)")
    if Path(path).is_dir():
        raise ConfigError(f"{path} is a folder (a directory), not a saved game (p2pcards tables "
                          "lists them)")
    if Path(path).exists() and not Path(path).is_file():  # a pipe would block its reader
        raise ConfigError(f"{path} is not a file (a pipe or a device), not a saved game")
    if is_local(path):
        return read(path)
    if not Path(path).exists():
        raise ConfigError(no_file(path))
    if sniff(path) == "puzzle":
        raise ConfigError(f"{path} is not a saved game or a transcript: it looks like a puzzle "
                          f"(p2pcards solve {path})")
    if (beside := companion(path, "replay")) is not None:
        raise ConfigError(beside)
    return from_transcript(path, view)


def companion(path: str | Path, command: str) -> str | None:
    """For a file that sits beside a transcript in the tables folder -- the seat's journal
    (``.seat``) or the table's lock (``.lock``) -- what it is, and the command on the transcript
    itself. 'p2pcards audit X.seat' said "[DAMAGED] ... record is not in canonical form (the line
    is damaged or truncated)", of a whole and healthy file (ux21)."""
    p = Path(path)
    if p.suffix == ".lock":
        what = "the lock a running table holds on its transcript"
    elif p.suffix == ".seat" or _first_kind(p) == "seed":
        what = "a seat's journal (its deck secret and its choices, kept beside the transcript)"
    else:
        return None
    twin = p.with_suffix(".jsonl")
    then = f": p2pcards {command} {shlex.quote(str(twin))}" if twin.is_file() else \
        " ('p2pcards tables' lists them)"
    return f"{path} is {what}, not a transcript; {command} the transcript{then}"


def _first_kind(p: Path) -> object:
    try:
        with open(p, "rb") as f:
            rec = json.loads(f.readline(4096).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return rec.get("kind") if isinstance(rec, dict) else None


def sniff(path: str | Path) -> str | None:
    """What a file looks like: ``"local"`` (a saved local game), ``"transcript"`` (a networked
    game's), ``"puzzle"`` (a position file for ``solve`` and ``hint``), or ``None``."""
    try:
        if not Path(path).is_file():  # a FIFO or a device is never opened here: it could block
            return None
        with open(path, "rb") as f:
            data = f.read(1 << 20)
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    first = text.split("\n", 1)[0]
    for candidate in (first, text):
        try:
            rec = json.loads(candidate)
        except (ValueError, RecursionError):  # a JSONDecodeError, or a 5000-digit number
            continue
        if not isinstance(rec, dict):
            return None
        if rec.get("format") == FORMAT:
            return "local"
        if rec.get("type") == "table":
            return "transcript"
        if "seats" in rec and "game" in rec:
            return "puzzle"
    return None


def from_transcript(path: str | Path, view: int | str | None = OWNER) -> SavedGame:
    """The decisions of a finished networked game and, from the deck audit, the outcome of every
    deck step as ``view`` saw it. Deck v2 opens nothing hidden at the end, so only the owner's
    seat (whose own cards its journal completes) and a spectator can be replayed."""
    from protocol.audit import audit as deck_audit
    from protocol.envelope import is_int
    from protocol.transcript import TranscriptError, read_transcript

    from ..audit import _events, _moves, deck_params
    from ..audit_journal import (
        JournalMismatch,
        OwnerJournal,
        Reorders,
        checked_filler,
        owner_journal,
    )
    from ..engine import Action, Decide
    from ..lobby import GameInfo
    from ..replay import DeckRequests, code_drawn, game_outcomes

    try:
        t = read_transcript(path)
    except TranscriptError as exc:
        if exc.line == 1 and sniff(path) != "transcript":
            raise ConfigError(f"{path} is not a saved game or a transcript "
                              f"(line 1: {exc.reason})") from None
        raise ConfigError(str(exc)) from None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    deck = [e for e in t.entries if e.topic == "deck" and e.to is None and e.body is not None]
    deck_msgs = [(e.sender, e.body) for e in deck]
    try:
        info = GameInfo.from_json(t.game_info)
        n_cards = new_game(info.game, info.players, info.options).n_cards
        params, _, secrecy = deck_params(t, info, n_cards, deck_msgs)
    except (ConfigError, ValueError) as exc:
        raise ConfigError(f"{path}: line 1 (the table record): {exc}") from None
    names = [f"Seat {i + 1}" for i in range(t.seats)]
    for m in t.roster:
        if isinstance(m, dict) and isinstance(m.get("seat"), int) and 0 <= m["seat"] < t.seats:
            names[m["seat"]] = str(m.get("name", names[m["seat"]]))
    journal = owner_journal(str(path), params, deck_msgs, t.seat, names[t.seat])
    if view == OWNER:
        view = t.seat if isinstance(journal, OwnerJournal) else None
    if view is not None and not isinstance(journal, OwnerJournal):
        why = ("is missing" if journal is None else
               f"does not match the signed record ({journal})")
        raise ConfigError(f"{path}: its seat journal {Path(path).with_suffix('.seat').name} "
                          f"{why}, so only its public cards can be shown: replay it with "
                          f"--spectator (the owner's seat, seat {t.seat + 1}, needs the journal; "
                          "the other hands were never revealed)")
    if view is not None and view != t.seat:
        raise ConfigError(f"{path}: a networked game replays as its owner's seat, seat {t.seat + 1}"
                          ", or as a spectator (--spectator): the other hands were never revealed")
    owner = (t.seat, journal.seed) if view is not None and isinstance(journal, OwnerJournal) else None
    # as p2pcards audit checks it: each message with its envelope, against the operations the
    # game's signed moves make every engine issue
    ops = DeckRequests(info.game, info.players, {**info.options, "names": names}, _moves(t.entries),
                       secrecy, code_drawn(params.deck_spec))
    d = deck_audit(params, [(e.sender, e.body, [e.seq, e.hash]) for e in deck], ops=ops,
                   owner=owner, seat=t.seat)
    if not d.verdict.clean:
        raise ConfigError(f"{path}: the deck audit fails ({d.verdict.reason}); see p2pcards audit")
    if not d.verdict.complete:
        raise ConfigError(f"{path}: this game did not finish, so it cannot be replayed yet "
                          "(p2pcards join --resume finishes it)")
    decisions: dict[int, Decision] = {}
    for e in t.entries:
        if e.topic == "game" and e.body is not None and is_int(e.body.get("step")):
            try:
                decisions[e.body["step"]] = Decision(e.sender, Action.from_json(e.body.get("action")))
            except ValueError as exc:
                raise ConfigError(f"{path}: a malformed action ({exc})") from None
    ds = [decisions[k] for k in sorted(decisions)]
    outs = game_outcomes(d.outcomes, code_drawn(params.deck_spec))
    deck_events = _events(outs)
    viewer = SPECTATOR if view is None else view
    fill = None
    if owner is not None and isinstance(journal, OwnerJournal):
        fill = checked_filler(Reorders(params, deck_msgs, d.outcomes, t.seat, journal.seed),
                               journal.orders, outs)
    state = new_game(info.game, info.players, {**info.options, "names": names},
                     secrecy=secrecy).view(viewer)
    events: list[Event] = []
    di = oi = 0
    while (req := state.pending()) is not None:
        if isinstance(req, Decide):
            if di >= len(ds):
                raise ConfigError(f"{path}: the record ends before the game does")
            ev: Event = ds[di]
            di += 1
        else:
            if oi >= len(deck_events):
                raise ConfigError(f"{path}: the deck record ends before the game does")
            try:
                ev = deck_events[oi] if fill is None else fill(oi, state, req, deck_events[oi])
            except JournalMismatch as exc:
                raise ConfigError(f"{path}: its seat journal does not match the signed record "
                                  f"({exc}): replay it with --spectator") from None
            oi += 1
        try:
            state.apply(ev)
        except Exception as exc:  # noqa: BLE001
            raise ConfigError(f"{path}: the game does not replay ({exc}); see p2pcards audit") from None
        events.append(ev)
    return SavedGame(Path(path), info.game, info.players, info.options, names, t.seat,
                     t.created, events, state.result_text(), viewer, secrecy)
