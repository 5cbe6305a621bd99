"""``p2pcards audit TRANSCRIPT``: check a finished game from one peer's transcript alone.

1. The transcript's signatures and hash chains (``protocol.transcript``), and any equivocation
   proof the mesh recorded: a ``fault`` line counts only when the signed envelopes in it prove it
   (the checks a live program runs on evidence handed to it, ``protocol.evidence``).
2. The deck audit (``protocol.audit``): every deck message through the receiver checks of
   protocol v2 (every key proof, proof of shuffle and share proof, every commitment). No secret is
   needed and none is revealed; on a transcript that stopped early it says which seat deviated,
   or that none did and where the record stops. Each message goes with its envelope (a second
   envelope for one step is a replay), in file order, checked against the operations the game's
   signed moves make every engine issue (``replay.DeckRequests``), as the owner's seat checked
   them; and only up to the owner's own stop: what came after it was never acted on, and is
   listed as having arrived after the stop.
3. The game: replay every decision (up to where the record stops, in a game that stopped
   early) as a spectator, fed what the deck opened to everyone -- plus
   the cards opened to the transcript's owner when its seat journal (``<table>.seat``, next to the
   transcript) is there: then the replay runs on the owner's view. Nobody signs the journal, so it
   is used only as far as the signed record bears it out: its seed must be the one behind the
   owner's signed key share, and each of its arrangements (and each hand mix its seed gives) must
   re-create the owner's signed reorder message. A journal that does not is marked DAMAGED and
   not used (the replay runs as a spectator): it never names a seat, nor hides one.
4. The ``stop`` line, if any: what the owner's program recorded when the table stopped. It is not
   signed, so it is shown as that program's record and weighed against the checks above; it never
   names a seat by itself. A stop after a whole, clean game leaves the verdict clean: whatever it
   claims is not borne out by the record and names nobody, its author included.

The verdict is one of three (``TranscriptAudit.status``), and always comes from the signed record:

- *clean*: every check passes and the game was played to its end.
- *NOT clean*: the signed record shows a problem: a seat at fault, named only when a verified
  proof or the audit's own checks find it; or a game that stopped before its end, where the audit
  names nobody unless its checks find somebody.
- *damaged record*: the file holds what its signed record does not support -- a line that fails
  its signature or chain, a ``fault`` line whose proof does not verify, a ``stop`` line without
  its stopper's signed stop beside a record that reached its end with every check passing. Nobody
  is blamed on such a line. (A seat the signed record itself finds at fault is still named: *NOT
  clean* then, with a note.) A stop line that holds the stopper's signed stop there is a stop
  after the game: *clean*, saying who stopped, blaming nobody.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from protocol.audit import audit as deck_audit
from protocol.envelope import is_int
from protocol.identity import fingerprint
from protocol.params import DeckParams
from protocol.roster import keys_digest, roster_code
from protocol.seating import Seating
from protocol.transcript import Transcript, TranscriptError, read_transcript

from .audit_journal import (
    JOURNAL,
    JournalMismatch,
    Reorders,
    checked_filler,
    owner_journal,
)
from .engine import (
    SECRECY,
    SPECTATOR,
    Action,
    ConfigError,
    Decision,
    Event,
    Proven,
    RandomValue,
    Revealed,
    Shuffled,
)
from .games import new_game
from .lobby import PUBLIC_TOPICS, TABLE_TOPICS, GameInfo, deck_spec, describe_game
from .replay import CODE_OP, DeckRequests, Verdict, code_drawn, game_outcomes, replay
from .ui.text import outcome_words, printable

CLEAN, NOT_CLEAN, DAMAGED = "clean", "not clean", "damaged record"


@dataclass
class TranscriptAudit:
    path: str
    game: str = "?"
    names: list[str] = field(default_factory=list)
    #: each seat's key fingerprint as the roster in the file gives it ("" if none), shown beside
    #: its name where the reader must tell who is who (the header, the culprit)
    fingerprints: list[str] = field(default_factory=list)
    code: str = ""  # the roster code every seat was shown, made again from the record's draw
    checks: list[tuple[str, bool, str]] = field(default_factory=list)  # (what, ok, detail)
    verdict: Verdict | None = None  # the deck's or the replay's
    damaged: set[int] = field(default_factory=set)  # indices of checks on lines the record does not support
    found: dict[int, str] = field(default_factory=dict)  # seat -> which check found it at fault
    recorded_culprit: int | None = None  # the stop line's culprit: the owner's program's record
    unreadable: bool = False  # the file does not verify: nothing in it was checked
    stopped_early: bool = False  # the signed record stops before the game's end
    end_reached: bool = False  # the signed record plays the game to its end, replayed clean
    judged: list[str] = field(default_factory=list)  # faults the audit cannot re-check, in words
    journal_damaged: bool = False  # the owner's seat journal does not match the record: not used
    stopped_after: int | None = None  # the seat whose signed stop came after a clean, whole game
    stopped_claim: int | None = None  # whom that stop named (its claim, not borne out)

    @property
    def culprit(self) -> int | None:
        """The seat the audit itself finds at fault (the first, if several): by a verified proof
        or its own checks of the signed record, never on an unsigned line's word."""
        return next(iter(self.found), None)

    @property
    def status(self) -> str:
        if self.culprit is not None:
            return NOT_CLEAN
        if self.damaged or not self.checks:
            return DAMAGED
        return CLEAN if all(ok for _, ok, _ in self.checks) else NOT_CLEAN

    @property
    def clean(self) -> bool:
        return self.status == CLEAN

    def add(self, what: str, ok: bool, detail: str = "", damaged: bool = False) -> None:
        if damaged:
            self.damaged.add(len(self.checks))
        self.checks.append((what, ok, detail))

    def find(self, seat: int, how: str) -> None:
        self.found.setdefault(seat, how)

    def verdict_words(self) -> str:
        status = self.status
        if status == CLEAN and self.stopped_after is not None and self.stopped_claim is not None:
            return (f"clean: the game was played to its end; then "
                    f"{_who(self.names, self.stopped_after)} stopped the table (their signed stop, "
                    f"above), naming {_who(self.names, self.stopped_claim)}: a claim the signed "
                    "record does not bear out, which names nobody")
        if status == CLEAN and self.stopped_after is not None:
            return (f"clean: the game was played to its end; then {_who(self.names, self.stopped_after)} "
                    "stopped the table (their signed stop, above), which blames nobody")
        if status == CLEAN:
            return "clean"
        names = self.names
        if self.culprit is not None:
            # the key's fingerprint too: a reader compares it with the one that player reads out
            # (a roster entry in a file is signed by its own key only)
            fp = (self.fingerprints[self.culprit]
                  if self.culprit < len(self.fingerprints) else "")
            out = (f"NOT clean: {_who(names, self.culprit)} at fault"
                   f"{', fingerprint ' + fp if fp else ''} ({self.found[self.culprit]})")
            if self.damaged:
                what, them = self._damaged_words("also ")
                out += f"; {what}: nobody is blamed on {'those' if them == 'them' else them}"
            return out
        if status == DAMAGED:
            if self.unreadable:
                return ("damaged record: the file does not verify (above), so nothing in it is "
                        "checked and nobody is blamed")
            what, them = self._damaged_words()
            out = f"damaged record: {what}, and nobody is blamed on {them}"
            rest = [ok for i, (_, ok, _) in enumerate(self.checks) if i not in self.damaged]
            if self.end_reached and all(rest):
                out += "; the signed record itself checks out: the game was played to its end"
            elif self.stopped_early:
                out += "; the signed record stops before the game's end and names nobody"
            return out
        out = "NOT clean: the audit names nobody"
        if self.stopped_early:
            out += "; the game stopped before its end"
        if self.recorded_culprit is not None:
            out += (f" (this program recorded {_who(names, self.recorded_culprit)} as the culprit "
                    "at the time: see the stop above)")
        return out

    def _damaged_words(self, also: str = "") -> tuple[str, str]:
        """What the DAMAGED marks are about, and the pronoun for them."""
        lines = len(self.damaged) - self.journal_damaged
        out = f"the file {also}holds lines its signed record does not support" if lines else ""
        if self.journal_damaged:
            j = ("the owner's seat journal beside the file does not match its signed record and "
                 "was not used")
            out = f"{out}, and {j}" if out else j
        return out + " (marked DAMAGED)", "them" if lines else "it"

    def lines(self) -> list[str]:
        players = ", ".join(" ".join(x for x in (name, fp) if x) for name, fp in
                            zip(self.names, self.fingerprints or [""] * len(self.names),
                                strict=True))
        code = f", roster code {self.code}" if self.code else ""
        out = [f"Audit of {self.path} ({self.game}, players: {players or '?'}{code})"]
        for i, (what, ok, detail) in enumerate(self.checks):
            mark = "ok" if ok else "DAMAGED" if i in self.damaged else "FAIL"
            out.append(f"  [{mark}] {what}{': ' + detail if detail else ''}")
        out.append("Verdict: " + self.verdict_words())
        return out

    def to_json(self) -> dict[str, Any]:
        v = self.verdict
        return {"path": self.path, "game": self.game, "players": self.names,
                "fingerprints": self.fingerprints, "roster_code": self.code, "clean": self.clean,
                "verdict": self.status,
                "checks": [{"check": w, "ok": ok, "detail": d, "damaged": i in self.damaged}
                           for i, (w, ok, d) in enumerate(self.checks)],
                "culprit": self.culprit, "recorded_culprit": self.recorded_culprit,
                "outcome": None if v is None else v.outcome}


def _who(names: list[str], seat: object) -> str:
    """A seat as a person reads it: its name and its number counted from 1."""
    if is_int(seat) and 0 <= seat < len(names):
        return f"{names[seat]} (seat {seat + 1})"
    return f"an unknown sender ({seat!r:.20})"


def _stop_check(rep: TranscriptAudit, stop: dict[str, Any], line: int | None,
                unsigned: str | None = "it holds no signed stop") -> None:
    """The recorded stop, in the words the screen showed, weighed against the signed record. Its
    culprit is what this program recorded at the time (a seat only when it saw the deviation
    itself or checked a proof; another peer's bare word is kept as that peer's claim); the audit
    names a seat only when its own checks or a verified proof find it. Beside a signed record
    that reached its end with every check passing, a line holding its stopper's signed stop
    (``unsigned`` is None) is a stop after the game: that seat's own act, which changes nothing
    in the game and blames nobody (an honest program stops so when a message of the game's end
    did not reach it); a line without one is not borne out by the record."""
    names = rep.names
    reason = printable(str(stop.get("reason", "")), newlines=False)[:500]
    culprit, claimed = stop.get("culprit"), stop.get("claimed")
    culprit = culprit if is_int(culprit) and 0 <= culprit < len(names) else None
    claimed = claimed if is_int(claimed) and 0 <= claimed < len(names) else None
    rep.recorded_culprit = culprit
    if culprit is not None:
        said = f"recorded culprit: {_who(names, culprit)}"
    elif claimed is not None:
        said = (f"an unproven claim against {_who(names, claimed)}: no culprit recorded; "
                "the checks above decide")
    else:
        said = "no culprit recorded"
    clean_end = _signed_record_clean(rep)
    where = "the line" if line is None else f"line {line}"
    by = stop.get("by")
    if clean_end and unsigned is None:
        rep.stopped_after = by
        accused = culprit if culprit is not None else claimed
        rep.stopped_claim = accused
        after = (f"{reason} ({said}). After the game: the signed record holds the whole game "
                 f"with every check passing, and {_who(names, by)} signed this stop: it came once "
                 "the game was played and changes nothing in it")
        if accused is None:
            rep.add("the table stopped", True, f"{after}; nobody is blamed on it")
            return
        # a claim after the game may be honest and still not in this record (a message of the
        # end that did not come in time, a move only the claimant's own view could check), so
        # it names nobody, its author included: the record alone cannot tell it false
        rep.add("the table stopped", True,
                f"{after}. Its claim against {_who(names, accused)} is not borne out by the "
                "signed record, which shows nobody cheating; the audit names nobody on it, "
                f"{_who(names, by)} included (a claim after the game may rest on what no "
                "record holds: a message that did not come in time, or a move only the "
                "claimant's own cards could check)")
        return
    if clean_end:
        detail = (f"{reason} ({said}). Not borne out by the record: {where} is not signed "
                  f"({unsigned}), and the signed record shows the game played to its end with "
                  "every check passing (the file is damaged or was edited); nobody is blamed "
                  "on it")
        rep.add("the table stopped", False, detail, damaged=True)
        return
    if culprit is not None:
        if culprit in rep.found:
            said += f"; the audit finds the same: {rep.found[culprit]}"
        elif rep.found:
            who = ", ".join(_who(names, s) for s in rep.found)
            said += (", this program's own finding at the time; the audit does not find it, "
                     f"and names {who}")
        else:
            why = (" (the replay up to where the record stops finds no move out of turn or "
                   "against the rules)" if rep.stopped_early else "")
            said += (", this program's own finding at the time, which the audit's checks do not "
                     f"confirm{why}: the audit names nobody")
    rep.add("the table stopped", False, f"{reason} ({said})")


def _fault_checks(rep: TranscriptAudit, t: Transcript) -> None:
    """The fault lines: each verified proof (``read_transcript`` kept only those) names its seat;
    a line that does not verify is shown as such, naming nobody."""
    names = rep.names
    for u in t.unverified:
        named = is_int(u.seat) and 0 <= u.seat < len(names)
        against = f"against {_who(names, u.seat)} " if named else ""
        rep.add("fault line", False,
                f"line {u.line}: a fault line {against}that does not verify: {u.why}. It is not "
                "part of the signed record (the file is damaged or was edited) and is no proof "
                f"against {_who(names, u.seat) if named else 'anyone'}", damaged=True)
    proofs: list[str] = []
    public: list[str] = []
    overfull: list[str] = []
    junk: list[str] = []
    for n, rec in zip(t.fault_lines, t.faults, strict=True):
        seat, first, second = rec["seat"], rec["first"], rec.get("second")
        who = _who(names, seat)
        if second is not None:
            what = (f"two different envelopes with seq {first['seq']}"
                    if first["seq"] == second["seq"] else
                    f"seq {second['seq']} does not follow its seq {first['seq']}")
            proofs.append(f"{who} signed {what} (line {n}: both signatures verified)")
            rep.find(seat, "a verified proof that they sent different messages to different "
                           "players")
        elif first["topic"] not in TABLE_TOPICS:
            junk.append(f"{who} sent a message on topic {printable(str(first['topic']))!r} "
                          f"(line {n}, signed by {names[seat] or 'them'}), which no program at "
                          "the table uses")
            rep.find(seat, "a message, signed, on a topic no program at the table uses")
        elif first["to"] is not None and first["topic"] in PUBLIC_TOPICS:
            public.append(f"{who} sent a {printable(first['topic'])} message to "
                          f"{_who(names, first['to'])} alone (line {n}, signed by "
                          f"{names[seat] or 'them'}); every seat must get those")
            rep.find(seat, f"a {printable(first['topic'])} message, signed, sent to one seat alone")
        elif "key" in rec:  # its key opened the box and showed it overfull (check_fault)
            overfull.append(f"{who} sent {_who(names, first['to'])} a private message that "
                            f"takes more to hold than its envelope (line {n}: the box opened "
                            "with its own key, which the record holds)")
            rep.find(seat, "a private message that held more than its envelope, shown with the "
                           "box's own key")
        else:
            reason = printable(str(rec.get("reason", "")), newlines=False)[:300]
            rep.judged.append(
                f"{reason} ({who}, line {n}: this program's own finding at the time, about a "
                f"private message {names[seat] or 'they'} signed; only its two ends can read it, "
                "so the audit cannot re-check it)")
    if proofs:
        rep.add("no equivocation recorded", False, "; ".join(proofs))
    else:
        rep.add("no equivocation recorded", True,
                "no verified proof (the fault lines above do not verify)" if t.unverified else "")
    if public:
        rep.add("every move sent to every seat", False, "; ".join(public))
    if overfull:
        rep.add("every private message within its envelope", False, "; ".join(overfull))
    if junk:
        rep.add("every message on a topic the table uses", False, "; ".join(junk))


def _signed_record_clean(rep: TranscriptAudit) -> bool:
    """The signed record plays the game to its end and every check of it passes."""
    return rep.end_reached and not rep.found and all(
        ok for i, (_, ok, _) in enumerate(rep.checks) if i not in rep.damaged)


def _judged_checks(rep: TranscriptAudit) -> None:
    """The messages this program judged at the time and the audit cannot re-check (a private
    payload it could not open): its word, like a stop's, and not borne out beside a signed
    record that reached its end with every check passing."""
    clean_end = _signed_record_clean(rep)
    for j in rep.judged:
        if clean_end:
            rep.add("a message judged at the time", False,
                    f"{j}. Not borne out by the record: the line is not signed, and the signed "
                    "record shows the game played to its end with every check passing (the file "
                    "is damaged or was edited); nobody is blamed on it", damaged=True)
        else:
            rep.add("a message judged at the time", False, j)


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
        elif kind == "prove":
            events.append(Proven(tuple(o["slots"])))
    return events


def _journal_not_used(rep: TranscriptAudit, why: str) -> None:
    rep.journal_damaged = True
    rep.add(JOURNAL, False, f"{why}: it does not match the signed record, so it is not used (the "
            "game is replayed as a spectator) and nobody is blamed on it", damaged=True)


def _public(o: dict[str, Any], seats: int) -> dict[str, Any]:
    """A deck outcome as everyone saw it: the cards opened to the owner alone removed."""
    if o.get("kind") == "open" and len(o.get("to", ())) != seats:
        return {**o, "values": None}
    return o


def audit_transcript(path: str) -> TranscriptAudit:
    rep = TranscriptAudit(str(path))
    try:
        # a damaged line ends the reading, and the verified record before it is audited: a
        # damaged line never hides a cheat that record proves (docs/deck.md, "Reading an audit")
        t = read_transcript(path, keep_prefix=True)
    except TranscriptError as exc:
        rep.unreadable = True
        rep.add("signatures and hash chains", False, str(exc), damaged=True)
        return rep
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    if t.damaged is not None:
        rep.add("signatures and hash chains", False,
                f"{t.damaged}; nothing from that line on is read, and the "
                f"{len(t.entries)} envelopes before it verified", damaged=True)
    else:
        rep.add("signatures and hash chains", True, f"{len(t.entries)} envelopes verified")
    names = [""] * t.seats
    fingerprints = [""] * t.seats
    for m in t.roster:
        if isinstance(m, dict) and isinstance(m.get("seat"), int) and 0 <= m["seat"] < t.seats:
            names[m["seat"]] = str(m.get("name", ""))
            with contextlib.suppress(TypeError, ValueError):
                fingerprints[m["seat"]] = fingerprint(bytes.fromhex(m.get("key")))
    rep.names = names
    rep.fingerprints = fingerprints
    _fault_checks(rep, t)
    _audit_game(rep, t, path)
    _judged_checks(rep)
    if t.stop is not None:
        _stop_check(rep, t.stop, t.stop_line, t.stop_unsigned)
    return rep


def _until_own_stop(rep: TranscriptAudit, t: Transcript) -> list[Any]:
    """The envelopes up to the owner's own stop: when its program stopped the table, what came
    after was never acted on (a message held back past the wait and sent then, say), so the
    record is checked as it stood at the stop; the rest is listed, not checked."""
    stop = t.stop
    if stop is None or t.stop_line is None or stop.get("by") != t.seat:
        return list(t.entries)
    kept = [e for e in t.entries if e.line < t.stop_line]
    late = len(t.entries) - len(kept)
    if late:
        senders = sorted({e.sender for e in t.entries if e.line > t.stop_line})
        rep.add("arrived after the stop", True,
                f"{late} envelope(s) from {', '.join(_who(rep.names, s) for s in senders)} "
                f"arrived after {_who(rep.names, t.seat)} stopped the table (line "
                f"{t.stop_line}): the record is checked as it stood at the stop, without them")
    return kept


def _moves(entries: list[Any]) -> dict[tuple[int, int], Decision]:
    """Each seat's signed move per game step, as far as it can be read (the first, for the
    deck's operations: the replay of the game judges the rest)."""
    moves: dict[tuple[int, int], Decision] = {}
    for e in entries:
        if e.topic != "game" or e.body is None or not is_int(step := e.body.get("step")):
            continue
        try:
            moves.setdefault((step, e.sender), Decision(e.sender, Action.from_json(
                e.body.get("action"))))
        except ValueError:
            continue
    return moves


def deck_params(t: Transcript, info: GameInfo, n_cards: int,
                deck_msgs: list[tuple[int, Any]]) -> tuple[DeckParams, bool, int]:
    """The deck's parameters of the record ``t``; whether it was made before the deck bound the
    players' keys; whether its games proved their claims about hidden cards. The roster's keys
    are in the description every seat's key share signs (SPEC.md 2.1): a seat re-keyed in the
    file no longer matches the others' signed messages. A record whose every key share binds
    the description of an earlier version (without the claims' proofs; without the keys either)
    is read as that version made it. Raises ValueError for a bad table record."""
    table = bytes.fromhex(t.table)
    keys = keys_digest(t.roster)
    params = DeckParams(table, deck_spec(info, keys), n_cards, t.seats)
    # whatever a signed body holds: a list there is no description (the deck audit names it)
    descs = {d if isinstance(d, str) else repr(d)[:80] for s, b in deck_msgs
             if isinstance(b, dict) and b.get("op") == 0 and b.get("step") == "key"
             for d in [b.get("desc")]}
    # (before the roster code's draw; before the claims' proofs; before the keys)
    for roster, before_keys, secrecy in ((keys, False, SECRECY), (keys, False, 1), (keys, False, 0),
                                         (None, True, 0)):
        older = DeckParams(table, deck_spec(info, roster, secrecy, code=False), n_cards, t.seats)
        if descs == {older.digest.hex()}:
            return older, before_keys, secrecy
    return params, False, SECRECY


def _seating(t: Transcript) -> Seating | None:
    """The table and its host's key as the record gives them, to weigh the host-signed games
    the key shares show when their descriptions differ (SPEC.md 5.2). The host's key is the
    file's, but every envelope of the host's was verified with it, and its signature over a
    game is checked against it: a key changed in the file makes its games unsigned."""
    for m in t.roster:
        if isinstance(m, dict) and m.get("seat") == 0:
            with contextlib.suppress(TypeError, ValueError):
                return Seating(t.table, bytes.fromhex(m.get("key")), describe_game)
    return None


def _audit_game(rep: TranscriptAudit, t: Transcript, path: str) -> None:
    """The deck audit and the replay of the game, on the signed record."""
    names = rep.names
    try:
        info = GameInfo.from_json(t.game_info)
        n_cards = new_game(info.game, info.players, info.options).n_cards
        if info.players != t.seats:
            raise ConfigError(f"the game is for {info.players} players, the table has {t.seats} seats")
    except ConfigError as exc:
        rep.add("game description", False, f"line 1 (the table record): {exc}")
        return
    rep.game = info.game
    entries = _until_own_stop(rep, t)
    deck = [e for e in entries if e.topic == "deck" and e.to is None and e.body is not None]
    deck_msgs = [(e.sender, e.body) for e in deck]
    try:
        params, before_keys, secrecy = deck_params(t, info, n_cards, deck_msgs)
    except ValueError as exc:
        rep.add("game description", False, f"line 1 (the table record): {exc}")
        return
    if before_keys:
        rep.add("the players' keys", True, "this record was made before the deck bound every "
                "seat's key into the game description (protocol/SPEC.md 2.1): the keys in this "
                "file are vouched for by nobody but themselves, so compare the fingerprints with "
                "the ones the players read out")
    journal = owner_journal(path, params, deck_msgs, t.seat, names[t.seat] or "the owner") \
        if 0 <= t.seat < t.seats else None
    if isinstance(journal, str):
        _journal_not_used(rep, journal)
        journal = None
    if journal is not None and not any(s == t.seat and isinstance(b, dict) and b.get("op") == 0
                                       for s, b in deck_msgs):
        journal = None  # nothing to check it against: the record stops before the game begins
    owner = None if journal is None else (t.seat, journal.seed)
    # each message with its envelope (a second envelope for one step is a replay), in file
    # order, against the operations the game's signed moves make every engine issue
    coded = code_drawn(params.deck_spec)
    ops = DeckRequests(info.game, info.players, {**info.options, "names": names}, _moves(entries),
                       secrecy, coded)
    d = deck_audit(params, [(e.sender, e.body, [e.seq, e.hash]) for e in deck], ops=ops,
                   owner=owner, seat=t.seat, seating=_seating(t),
                   made_from_record=t.made_from_record())
    v = d.verdict
    rep.code = next((roster_code([m for m in t.roster if isinstance(m, dict)], o["value"])
                     for o in d.outcomes  # (the draw the code is made from: SPEC 5.5)
                     if coded and o.get("op") == CODE_OP and is_int(o.get("value"))), "")
    if v.older:  # a record of an older deck version: not checked, nobody blamed
        rep.add("deck audit", False, v.reason)
        rep.verdict = Verdict(False, None, v.reason)
        return
    if not v.clean:
        if v.culprit is not None and 0 <= v.culprit < len(names):
            who = _who(names, v.culprit)
            rep.find(v.culprit, f"the deck audit: {v.reason}")
        else:
            who = "no seat to blame"
        rep.add("deck audit", False, f"{who} at operation {v.op} {v.step}: {v.reason}")
        rep.verdict = Verdict(False, v.culprit, v.reason)
        return
    checked = f"{len(d.outcomes)} operations checked, every proof verified"
    if not v.complete:
        # a game that stopped early is replayed up to where its signed record stops: a signed
        # move that breaks the rules before that point names its author as in a finished game
        rep.add("deck audit", True, f"{checked}; no seat deviated")
        rep.add("the game reached its end", False, f"{v.reason} (op {v.op})")
        rep.stopped_early = True
        if not any(o.get("kind") == "key" for o in d.outcomes):
            return  # the record stops before the key shares: no move can be replayed
    else:
        rep.add("deck audit", True, checked)
    decisions: dict[tuple[int, int], Decision] = {}
    seen: dict[tuple[int, int], Any] = {}  # the moves each move states it was made after
    same = t.made_from_record()  # ... or True: it states it was made from this file's messages
    for e in entries:
        if e.topic != "game" or e.body is None:
            continue
        step = e.body.get("step")
        try:
            if not is_int(step):  # JSON: true and 1.0 are not a step number
                raise ValueError(step)
            action = Action.from_json(e.body.get("action"))
        except ValueError:
            rep.add("game messages", False, f"a malformed game message from {_who(names, e.sender)}")
            rep.find(e.sender, "a malformed game message, signed")
            return
        if (step, e.sender) in decisions:
            rep.add("game messages", False, f"{_who(names, e.sender)} sent a second action for step {step}")
            rep.find(e.sender, f"a second action for step {step}, signed")
            return
        # another seat's move for the same step is judged by the replay: the one whose turn it
        # was not is named, wherever the two lie in the file
        decisions[step, e.sender] = Decision(e.sender, action)
        seen[step, e.sender] = True if (e.sender, e.seq) in same else e.body.get("seen")
    keys = sorted(decisions)
    ordered = [decisions[k] for k in keys]
    steps = [step for step, _ in keys]
    seens = [seen[k] for k in keys]
    partial = rep.stopped_early
    outs = game_outcomes(d.outcomes, coded)
    events = _events(outs)
    verdict = None
    if journal is not None:
        try:
            reorders = Reorders(params, deck_msgs, d.outcomes, t.seat, journal.seed)
            verdict = replay(info.game, info.players, {**info.options, "names": names}, ordered,
                             events, viewer=t.seat,
                             fill=checked_filler(reorders, journal.orders, outs),
                             steps=steps, partial=partial, secrecy=secrecy, seen=seens,
                             owner=t.seat)
            if verdict.clean and not verdict.stopped and \
                    reorders.orders_used < len(journal.orders):
                raise JournalMismatch(
                    f"it holds {len(journal.orders) - reorders.orders_used} arrangement(s) the "
                    "owner never signed")
        except JournalMismatch as exc:
            _journal_not_used(rep, str(exc))
            journal = owner = verdict = None
            events = _events([_public(o, t.seats) for o in outs])
        else:
            rep.add(JOURNAL, True, f"its deck seed and {reorders.orders_used} arrangement(s) "
                    f"match {names[t.seat] or 'the owner'}'s signed messages")
    if verdict is None:
        verdict = replay(info.game, info.players, {**info.options, "names": names}, ordered,
                         events, viewer=SPECTATOR, steps=steps, partial=partial, seen=seens,
                         owner=t.seat,
                         secrecy=secrecy)
    rep.verdict = verdict
    who = "a spectator" if owner is None else f"{names[t.seat] or 'the owner'}'s view"
    if verdict.clean and verdict.stopped:
        detail = (f"replayed as {who} up to step {verdict.step}, where the signed record stops; "
                  "every move before it checks out")
    elif verdict.clean and partial:  # the moves reach the game's end; the deck's end step does not
        detail = (f"{len(ordered)} decisions replayed as {who}; every move checks out; "
                  f"result: {outcome_words(verdict.outcome, names)}")
    elif verdict.clean:
        detail = (f"{len(ordered)} decisions replayed as {who}; "
                  f"result: {outcome_words(verdict.outcome, names)}")
        rep.end_reached = True
    else:
        detail = verdict.text(names)
        if verdict.culprit is not None and 0 <= verdict.culprit < len(names):
            rep.find(verdict.culprit, f"the replay of the game: {verdict.reason}")
    what = "game replayed on what the deck opened" + (
        ", up to where the record stops" if partial else "")
    rep.add(what, verdict.clean, detail)
