"""The audit's use of the owner's seat journal (``<table>.seat``): its deck seed and private
arrangements, which let the audit replay the game on the owner's own view. Nobody signs the
file, so it is used only where it reproduces the signed record exactly (the seed re-makes the
owner's deck messages; each arrangement re-makes a signed reorder); otherwise the audit says so
and replays on the public view (docs/deck.md, "Reading an audit")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol import elgamal as eg
from protocol.envelope import is_int
from protocol.group import base_mul
from protocol.kdf import PeerSecrets
from protocol.params import DeckParams
from protocol.proof_common import ct_from_json, ct_to_json
from protocol.steps import PublicDeck, vec_digest

from .engine import Event, GameState, Request, Shuffle, Shuffled
from .journal import JournalDamaged, journal_records

JOURNAL = "the owner's seat journal"


class JournalMismatch(Exception):
    """The owner's journal does not reproduce one of the owner's signed reorder messages."""


@dataclass
class OwnerJournal:
    """The deck seed and the arrangements (game step -> order) in the owner's seat journal.
    Nobody signs the file: it is used only once it matches the signed record (``seed_problem``,
    ``Reorders``), and only for the owner's own view."""

    seed: bytes
    orders: dict[int, list[int]]


def owner_journal(path: str, params: DeckParams, deck_msgs: list[tuple[int, Any]], seat: int,
                  name: str) -> OwnerJournal | str | None:
    """The owner's seat journal as far as the signed record bears it out: ``None`` when there is
    none, the journal when its deck seed re-makes the owner's key message, else why it is not
    used (``read_journal``, ``seed_problem``). The audit and the replay of a saved game both
    start here."""
    journal = read_journal(path)
    if isinstance(journal, OwnerJournal):
        problem = seed_problem(params, deck_msgs, seat, journal.seed, name)
        if problem is not None:
            return problem
    return journal


def read_journal(path: str) -> OwnerJournal | str | None:
    """The owner's seat journal next to the transcript: ``None`` when there is none, else the
    journal, or why it cannot be read (``journal.journal_records``, the seat's own reader: a torn
    last line was never written); the journal's own decisions are not read (the signed game
    messages are the moves)."""
    try:
        read = journal_records(Path(path).with_suffix(".seat"))
    except JournalDamaged as exc:
        return str(exc)
    except OSError as exc:
        return f"it cannot be read ({exc.strerror or exc})"
    if read is None:
        return None
    seed, orders = None, {}
    for n, rec in enumerate(read[0], 1):
        try:
            if rec.get("kind") == "seed" and seed is None:
                seed = bytes.fromhex(rec["deck"])
                if len(seed) != 32:
                    raise ValueError(seed)
            elif rec.get("kind") == "seed":
                return f"line {n} is a second deck seed"
            elif rec.get("kind") == "arrange":
                step, order = rec["step"], rec["order"]
                if not is_int(step) or not isinstance(order, list) or \
                        not all(is_int(x) for x in order):
                    raise TypeError(rec)
                if step in orders:
                    return f"line {n} is a second arrangement for game step {step}"
                orders[step] = list(order)
        except (ValueError, KeyError, TypeError):
            return f"line {n} is damaged"
    if seed is None:
        return "it holds no deck seed"
    return OwnerJournal(seed, orders)


def seed_problem(params: DeckParams, deck_msgs: list[tuple[int, Any]], seat: int,
                  seed: bytes, who: str) -> str | None:
    """Whether ``seed`` is the one behind the owner's signed key share (its public key)."""
    mine = [b for s, b in deck_msgs if s == seat and isinstance(b, dict)
            and b.get("op") == 0 and b.get("step") == "key"]
    if not mine:  # the record stops before the owner's key share: nothing of it is replayed
        return None
    y = base_mul(PeerSecrets(seed).key(params.table_id, params.digest)).hex()
    if any(b.get("y") != y for b in mine):
        return (f"its deck seed is not the one behind {who}'s signed key share (the journal of "
                "another seat or another table, or edited)")
    return None


class Reorders:
    """The inputs and signed outputs of the owner's own reorders (arrangements and hand mixes),
    read from a deck record the deck audit accepted, to check the journal against: with the
    owner's seed, an order is the owner's only if it re-creates the owner's signed message
    (``DeckPeer.reorder`` derives its re-encryption from the seed and the input)."""

    def __init__(self, params: DeckParams, deck_msgs: list[tuple[int, Any]],
                 outcomes: list[dict[str, Any]], seat: int, seed: bytes) -> None:
        self.sec = PeerSecrets(seed)
        self.seat = seat
        bodies = {(b["op"], b["step"], s): b for s, b in deck_msgs}
        pub = PublicDeck(params)
        pub.set_keys([bytes.fromhex(bodies[0, "key", j]["y"]) for j in range(params.seats)])
        self.y = pub.y
        #: op -> (slots, input ciphertexts, the owner's signed outputs)
        self.ops: dict[int, tuple[list[int], list[Any], list[Any]]] = {}
        for o in outcomes:
            if o.get("kind") != "shuffle":
                continue
            op, slots = o["op"], o["slots"]
            cur = [pub.cts[s] for s in slots]
            for j in pub.shufflers(o):
                got = bodies[op, "shuffle", j]["cts"]
                if j == seat and o["by"] == seat:
                    self.ops[op] = (slots, cur, got)
                cur = [ct_from_json(c, check=False) for c in got]
            for s, ct in zip(slots, cur, strict=True):
                pub.cts[s] = ct
        self.orders_used = 0

    def mix(self, op: int) -> list[int]:
        """The owner's hand mix at ``op`` as positions, checked against its signed message."""
        slots, cur, _ = self.ops[op]
        perm = self.sec.permutation("mix", op, vec_digest(cur), len(slots))
        if not self.proves(op, perm):
            raise JournalMismatch(f"the hand mix its seed gives at deck operation {op} is not "
                                   "the owner's signed one")
        return perm

    def proves(self, op: int, perm: list[int]) -> bool:
        slots, cur, got = self.ops[op]
        outs, _ = eg.shuffle(self.y, cur, perm, self.sec.seed32("reenc", op, vec_digest(cur)))
        return [ct_to_json(ct) for ct in outs] == got


def checked_filler(rec: Reorders, orders: dict[int, list[int]], outcomes: list[dict[str, Any]]
                    ) -> Callable[[int, GameState, Request, Event], Event]:
    """Completes the owner's own arrangements and hand mixes for the replay on its view: an
    arrangement's order is in its journal (one entry per arrangement, in game-step order); a
    mix's is drawn from its seed and the shuffled input (``DeckPeer.reorder(mix=True)``). Each
    must re-create the owner's signed reorder message, else ``JournalMismatch``."""
    seat = rec.seat
    steps = sorted(orders)

    def fill(index: int, state: GameState, req: Request, ev: Event) -> Event:
        if not (isinstance(req, Shuffle) and req.by == seat and isinstance(ev, Shuffled)):
            return ev
        o = outcomes[index]
        if o.get("kind") != "shuffle" or o["op"] not in rec.ops or \
                list(o["slots"]) != list(req.slots):
            raise JournalMismatch("the owner's reorders in the signed record do not follow "
                                   "the game's")
        if getattr(req, "mix", False):
            perm = rec.mix(o["op"])
        else:
            if not steps:
                raise JournalMismatch(f"it holds no arrangement for deck operation {o['op']}, "
                                       "an arrangement the owner signed")
            step = steps.pop(0)
            order = orders[step]
            if sorted(order) != sorted(req.slots) or len(set(order)) != len(order):
                raise JournalMismatch(f"its arrangement for game step {step} does not hold the "
                                       "slots the owner arranged there")
            perm = [list(req.slots).index(s) for s in order]
            if not rec.proves(o["op"], perm):
                raise JournalMismatch(f"its arrangement for game step {step} is not the one "
                                       f"the owner signed (deck operation {o['op']})")
            rec.orders_used += 1
        if not all(state.known[s] >> seat & 1 for s in req.slots):
            return ev
        return Shuffled(req.slots, tuple(state.values[req.slots[p]] for p in perm))
    return fill
