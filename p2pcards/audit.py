"""``p2pcards audit TRANSCRIPT``: check a finished game from one peer's transcript alone.

1. The transcript's signatures and hash chains (``protocol.transcript``), and any equivocation
   proof the mesh recorded.
2. The deck audit (``protocol.audit``): from the broadcast deck messages and the secrets every
   peer revealed at the end, recompute every shuffle, lock, key and random value.
3. The game: replay every decision on the full-information engine, fed the true outcome of every
   deck operation, so every rule is re-checked — including hidden claims no peer could check
   during play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.audit import audit as deck_audit
from protocol.params import DeckParams
from protocol.transcript import TranscriptError, read_transcript

from .engine import Action, ConfigError, Decision, Event, RandomValue, Revealed, Shuffled
from .games import new_game
from .lobby import GameInfo, deck_spec
from .replay import Verdict, replay
from .ui.text import outcome_words


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


def _events(outcomes: list[dict[str, Any]]) -> list[Event]:
    events: list[Event] = []
    for o in outcomes:
        kind = o.get("kind")
        if kind == "shuffle":
            events.append(Shuffled(tuple(o["slots"]), tuple(o["values"])))
        elif kind == "open":
            events.append(Revealed(tuple(o["slots"]), tuple(o["values"])))
        elif kind == "random":
            events.append(RandomValue(int(o["value"])))
    return events


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
    if not any(b.get("step") == "secrets" for _, b in deck_msgs):
        rep.add("the game reached its audit", False, "no revealed secrets in this transcript "
                "(the game did not finish, or this peer left before the end)")
        return rep
    params = DeckParams(bytes.fromhex(t.table), deck_spec(info), n_cards, t.seats)
    d = deck_audit(params, deck_msgs)
    if not d.clean:
        v = d.verdict
        if v.culprit is not None and 0 <= v.culprit < len(names):
            who = f"{names[v.culprit]} (seat {v.culprit})"
        else:
            who = "no seat to blame"
        rep.add("deck audit", False, f"{who} at operation {v.op} {v.step}: {v.reason}")
        rep.verdict = Verdict(False, v.culprit, v.reason)
        return rep
    rep.add("deck audit", True, f"{len(d.outcomes)} operations recomputed")
    decisions: dict[int, Decision] = {}
    for e in t.entries:
        if e.topic != "game" or e.body is None:
            continue
        step = e.body.get("step")
        try:
            action = Action.from_json(e.body.get("action"))
        except ValueError:
            rep.add("game messages", False, f"a malformed action from seat {e.sender}")
            return rep
        if not isinstance(step, int) or step in decisions:
            rep.add("game messages", False, f"seat {e.sender} sent a second action for step {step}")
            return rep
        decisions[step] = Decision(e.sender, action)
    ordered = [decisions[k] for k in sorted(decisions)]
    verdict = replay(info.game, info.players, {**info.options, "names": names}, ordered,
                     _events(d.outcomes))
    rep.verdict = verdict
    if verdict.clean:
        detail = f"{len(ordered)} decisions replayed; result: {outcome_words(verdict.outcome, names)}"
    else:
        detail = verdict.text(names)
    rep.add("game replayed on the full-information engine", verdict.clean, detail)
    return rep
