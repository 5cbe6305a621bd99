"""``p2pcards audit TRANSCRIPT``: check a finished game from one peer's transcript alone.

1. The transcript's signatures and hash chains (``protocol.transcript``), and any equivocation
   proof the mesh recorded.
2. The deck audit (``protocol.audit``): every deck message through the receiver checks of
   protocol v2 (every key proof, proof of shuffle and share proof, every commitment). No secret is
   needed and none is revealed; on a transcript that stopped early it says which seat deviated,
   or that none did and where the record stops.
3. The game: replay every decision as a spectator, fed what the deck opened to everyone -- plus
   the cards opened to the transcript's owner when its seat journal (``<table>.seat``, next to the
   transcript) is there: then the replay runs on the owner's view.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from protocol.audit import audit as deck_audit
from protocol.envelope import is_int
from protocol.kdf import PeerSecrets
from protocol.params import DeckParams
from protocol.transcript import TranscriptError, read_transcript

from .engine import (
    SPECTATOR,
    Action,
    ConfigError,
    Decision,
    Event,
    GameState,
    RandomValue,
    Request,
    Revealed,
    Shuffle,
    Shuffled,
)
from .games import new_game
from .lobby import GameInfo, deck_spec
from .replay import Verdict, replay
from .ui.text import outcome_words, printable


@dataclass
class TranscriptAudit:
    path: str
    game: str = "?"
    names: list[str] = field(default_factory=list)
    checks: list[tuple[str, bool, str]] = field(default_factory=list)  # (what, ok, detail)
    verdict: Verdict | None = None

    @property
    def clean(self) -> bool:
        return bool(self.checks) and all(ok for _, ok, _ in self.checks)

    def add(self, what: str, ok: bool, detail: str = "") -> None:
        self.checks.append((what, ok, detail))

    def lines(self) -> list[str]:
        out = [f"Audit of {self.path} ({self.game}, players: {', '.join(self.names) or '?'})"]
        for what, ok, detail in self.checks:
            out.append(f"  [{'ok' if ok else 'FAIL'}] {what}{': ' + detail if detail else ''}")
        out.append("Verdict: " + ("clean" if self.clean else "NOT clean"))
        return out

    def to_json(self) -> dict[str, Any]:
        v = self.verdict
        return {"path": self.path, "game": self.game, "players": self.names, "clean": self.clean,
                "checks": [{"check": w, "ok": ok, "detail": d} for w, ok, d in self.checks],
                "culprit": None if v is None or v.clean else v.culprit,
                "outcome": None if v is None else v.outcome}


def _who(names: list[str], seat: object) -> str:
    """A seat as a person reads it: its name and its number counted from 1."""
    if is_int(seat) and 0 <= seat < len(names):
        return f"{names[seat]} (seat {seat + 1})"
    return f"an unknown sender ({seat!r:.20})"


def _stop_words(stop: dict[str, Any], names: list[str]) -> str:
    """The recorded stop as the screen showed it, and whom the record blames: a seat only when
    this program saw the deviation itself (or checked a proof); another peer's bare word is its
    claim, and the checks below are what decide."""
    reason = printable(str(stop.get("reason", "")), newlines=False)[:500]
    culprit, claimed = stop.get("culprit"), stop.get("claimed")
    if is_int(culprit) and 0 <= culprit < len(names):
        return f"{reason} (recorded culprit: {_who(names, culprit)})"
    if is_int(claimed) and 0 <= claimed < len(names):
        return (f"{reason} (an unproven claim against {_who(names, claimed)}: no culprit recorded; "
                "the checks below decide)")
    return f"{reason} (no culprit recorded)"


def _events(outcomes: list[dict[str, Any]]) -> list[Event]:
    events: list[Event] = []
    for o in outcomes:
        kind = o.get("kind")
        if kind == "shuffle":
            events.append(Shuffled(tuple(o["slots"]), None))
        elif kind == "open":
            vals = o.get("values")
            events.append(Revealed(tuple(o["slots"]), None if vals is None else tuple(vals)))
        elif kind == "random":
            events.append(RandomValue(int(o["value"])))
    return events


def _owner_journal(path: str) -> tuple[bytes, dict[int, list[int]]] | None:
    """The deck seed and the arrangements (game step -> order) in the owner's seat journal next
    to the transcript, if it is there and readable."""
    seed, orders = None, {}
    try:
        with open(Path(path).with_suffix(".seat"), encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                if not isinstance(rec, dict):
                    return None
                if rec.get("kind") == "seed" and seed is None:
                    seed = bytes.fromhex(rec["deck"])
                elif rec.get("kind") == "arrange":
                    orders[int(rec["step"])] = [int(x) for x in rec["order"]]
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    return (seed, orders) if seed is not None and len(seed) == 32 else None


def _filler(seat: int, seed: bytes, orders: dict[int, list[int]], outcomes: list[dict[str, Any]]
            ) -> Callable[[int, GameState, Request, Event], Event]:
    """Completes the owner's own arrangements and hand mixes for the replay on its view: an
    arrangement's order is in its journal; a mix's is drawn from its seed and the shuffled input
    (``DeckPeer.reorder(mix=True)``)."""
    sec = PeerSecrets(seed)
    steps = sorted(orders)

    def fill(index: int, state: GameState, req: Request, ev: Event) -> Event:
        if not (isinstance(req, Shuffle) and req.by == seat and isinstance(ev, Shuffled)):
            return ev
        if not all(state.known[s] >> seat & 1 for s in req.slots):
            return ev
        o = outcomes[index]
        if getattr(req, "mix", False):
            perm = sec.permutation("mix", o["op"], bytes.fromhex(o["input"]), len(req.slots))
            return Shuffled(req.slots, tuple(state.values[req.slots[p]] for p in perm))
        order = orders.get(steps.pop(0)) if steps else None
        if order is None or sorted(order) != sorted(req.slots):
            return ev  # no journal entry: the replay reports the missing values
        return Shuffled(req.slots, tuple(state.values[s] for s in order))
    return fill


def audit_transcript(path: str) -> TranscriptAudit:
    rep = TranscriptAudit(str(path))
    try:
        t = read_transcript(path)
    except TranscriptError as exc:
        rep.add("signatures and hash chains", False, str(exc))
        return rep
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    rep.add("signatures and hash chains", True, f"{len(t.entries)} envelopes verified")
    names = [""] * t.seats
    for m in t.roster:
        if isinstance(m, dict) and isinstance(m.get("seat"), int) and 0 <= m["seat"] < t.seats:
            names[m["seat"]] = str(m.get("name", ""))
    rep.names = names
    if t.stop is not None:
        rep.add("the table stopped", False, _stop_words(t.stop, names))
    rep.add("no equivocation recorded", not t.faults,
            f"{len(t.faults)} proof(s) of a peer sending different things" if t.faults else "")
    try:
        info = GameInfo.from_json(t.game_info)
        n_cards = new_game(info.game, info.players, info.options).n_cards
        if info.players != t.seats:
            raise ConfigError(f"the game is for {info.players} players, the table has {t.seats} seats")
    except ConfigError as exc:
        rep.add("game description", False, f"line 1 (the table record): {exc}")
        return rep
    rep.game = info.game
    deck_msgs = [(e.sender, e.body) for e in t.entries
                 if e.topic == "deck" and e.to is None and e.body is not None]
    try:
        params = DeckParams(bytes.fromhex(t.table), deck_spec(info), n_cards, t.seats)
    except ValueError as exc:
        rep.add("game description", False, f"line 1 (the table record): {exc}")
        return rep
    journal = _owner_journal(path)
    owner = (t.seat, journal[0]) if journal is not None and 0 <= t.seat < t.seats else None
    d = deck_audit(params, deck_msgs, owner=owner)
    v = d.verdict
    if v.older:  # a record of an older deck version: not checked, nobody blamed
        rep.add("deck audit", False, v.reason)
        rep.verdict = Verdict(False, None, v.reason)
        return rep
    if not v.clean:
        if v.culprit is not None and 0 <= v.culprit < len(names):
            who = _who(names, v.culprit)
        else:
            who = "no seat to blame"
        rep.add("deck audit", False, f"{who} at operation {v.op} {v.step}: {v.reason}")
        rep.verdict = Verdict(False, v.culprit, v.reason)
        return rep
    checked = f"{len(d.outcomes)} operations checked, every proof verified"
    if not v.complete:
        rep.add("deck audit", True, f"{checked}; no seat deviated")
        rep.add("the game reached its end", False, f"{v.reason} (op {v.op})")
        return rep
    rep.add("deck audit", True, checked)
    decisions: dict[int, Decision] = {}
    for e in t.entries:
        if e.topic != "game" or e.body is None:
            continue
        step = e.body.get("step")
        try:
            if not is_int(step):  # JSON: true and 1.0 are not a step number
                raise ValueError(step)
            action = Action.from_json(e.body.get("action"))
        except ValueError:
            rep.add("game messages", False, f"a malformed game message from {_who(names, e.sender)}")
            return rep
        if step in decisions:
            rep.add("game messages", False, f"{_who(names, e.sender)} sent a second action for step {step}")
            return rep
        decisions[step] = Decision(e.sender, action)
    ordered = [decisions[k] for k in sorted(decisions)]
    outs = [o for o in d.outcomes if o.get("kind") in ("shuffle", "open", "random")]
    events = _events(outs)
    viewer = SPECTATOR if journal is None else t.seat
    fill = None if journal is None else _filler(t.seat, journal[0], journal[1], outs)
    verdict = replay(info.game, info.players, {**info.options, "names": names}, ordered, events,
                     viewer=viewer, fill=fill)
    rep.verdict = verdict
    who = "a spectator" if owner is None else f"{names[t.seat] or 'the owner'}'s view"
    if verdict.clean:
        detail = (f"{len(ordered)} decisions replayed as {who}; "
                  f"result: {outcome_words(verdict.outcome, names)}")
    else:
        detail = verdict.text(names)
    rep.add("game replayed on what the deck opened", verdict.clean, detail)
    return rep
