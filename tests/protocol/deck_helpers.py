"""Shared helpers for the deck-service tests: in-process tables of ``DeckPeer``s, adversarial
peers, and a hub that emulates the mesh's equivocation detection."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from hypothesis import strategies as st

from protocol.channel import InMemoryHub, MemoryChannel, Message
from protocol.deck import DeckPeer
from protocol.errors import Equivocation
from protocol.kdf import PeerSecrets
from protocol.proofs import ct_from_json, point_from_hex
from protocol.steps import PublicDeck, descriptor_of, record_digest

TABLE = b"test-table"
SPEC = "test-deck/v2"


def seed(seat: int, tag: str = "") -> bytes:
    return hashlib.sha256(f"p2pcards-test/{tag}/{seat}".encode()).digest()


class MeshLikeHub(InMemoryHub):
    """An ``InMemoryHub`` with the mesh's contract: a sender that delivers two different bodies
    for one ``(op, step)`` of topic ``deck`` to different seats is caught at the second delivery,
    and from then on every seat's ``recv`` raises ``Equivocation`` naming it (the mesh stops the
    table everywhere, with both signed messages as its proof)."""

    def __init__(self, seats: int) -> None:
        super().__init__(seats)
        self.first: dict[tuple[int, Any, Any], Message] = {}
        self.equivocator: tuple[int, Any, Any] | None = None
        self.channels = [_MeshLikeChannel(self, s) for s in range(seats)]

    def deliver(self, sender: int, tos: list[int], topic: str, body: Message) -> None:
        if topic == "deck" and isinstance(body, dict):
            key = (sender, body.get("op"), body.get("step"))
            if key in self.first and self.first[key] != body and self.equivocator is None:
                self.equivocator = key
            self.first.setdefault(key, copy.deepcopy(body))
        super().deliver(sender, tos, topic, body)


class _MeshLikeChannel(MemoryChannel):
    hub: MeshLikeHub

    def _check(self) -> None:
        e = self.hub.equivocator
        if e is not None:
            raise Equivocation(e[0], str(e[2]), "sent two different messages for one step to "
                               "different seats (the mesh's proof)", e[1] if isinstance(e[1], int)
                               else None)

    async def recv(self, topic: str, timeout: float | None = None) -> tuple[int, Message]:
        self._check()
        got = await super().recv(topic, timeout)
        self._check()
        return got


def make_table(n: int, n_cards: int, *, tag: str = "", timeout: float = 20.0,
               classes: dict[int, Callable[..., DeckPeer]] | None = None
               ) -> tuple[MeshLikeHub, list[DeckPeer]]:
    """``n`` peers over one hub; ``classes[seat]`` replaces ``DeckPeer`` for that seat."""
    hub = MeshLikeHub(n)
    peers = []
    for p in range(n):
        cls = (classes or {}).get(p, DeckPeer)
        peers.append(cls(hub.channel(p), TABLE, SPEC, n_cards, seed(p, tag), timeout))
    return hub, peers


async def together(peers: Sequence[DeckPeer], fn: Callable[[DeckPeer], Awaitable[Any]]) -> list[Any]:
    """Run ``fn`` at every peer concurrently; exceptions are returned, not raised."""
    return await asyncio.gather(*(fn(p) for p in peers), return_exceptions=True)


async def first_errors(peers: Sequence[DeckPeer],
                       ops: Sequence[Callable[[DeckPeer], Awaitable[Any]]]) -> list[Any]:
    """Run ``ops`` one after the other at every peer (each op ``together``) until one fails
    somewhere; each seat's first error (``None`` where it had none)."""
    errors: list[Any] = [None] * len(peers)
    for fn in ops:
        for i, r in enumerate(await together(peers, fn)):
            if isinstance(r, BaseException) and errors[i] is None:
                errors[i] = r
        if any(e is not None for e in errors):
            break
    return errors


async def ok(peers: Sequence[DeckPeer], fn: Callable[[DeckPeer], Awaitable[Any]]) -> list[Any]:
    """Like ``together`` but every peer must succeed."""
    out = await together(peers, fn)
    for p, r in enumerate(out):
        if isinstance(r, BaseException):
            raise AssertionError(f"seat {p} failed: {r!r}") from r
    return out


class Tamper(DeckPeer):
    """An adversarial peer: ``tamper(peer, body)`` returns the messages actually sent for one of
    its broadcasts (``[(None, body)]`` sends to everyone, ``[(seat, body), ...]`` to chosen
    seats, ``[]`` withholds). ``body`` is a private deep copy."""

    tamper: Callable[[DeckPeer, dict[str, Any]], list[tuple[int | None, dict[str, Any]]]]

    def _outgoing(self, body):  # type: ignore[no-untyped-def]
        self.sent = getattr(self, "sent", [])
        self.sent.append(copy.deepcopy(body))
        return type(self).tamper(self, copy.deepcopy(body))


def adversary(tamper: Callable[..., list[tuple[int | None, dict[str, Any]]]]) -> type[Tamper]:
    return type("Adversary", (Tamper,), {"tamper": staticmethod(tamper)})


def listener_reads(params: Any, messages: Sequence[tuple[int, dict[str, Any]]]
                   ) -> dict[str, list[tuple[int, int, int | None]]]:
    """What a passive listener holding every public deck message can decode: it follows every
    slot's ciphertext through the shuffles and pools every plain decryption share published of
    each ciphertext, across operations (an opening to some seats publishes the others' shares,
    a claim every share but the claimant's: SPEC 5.7, "shares add up"). Returns ``(op, slot,
    card or None)`` for the openings to everyone (``"public"``), and for every opening to some
    seats only and every claim (``"private"``): the card the listener decodes from all the
    shares of that ciphertext published by then, or None while one is missing. An operation on
    a ciphertext already opened to everyone counts as public."""
    from protocol import elgamal as eg
    from protocol.group import add, card_table
    from protocol.proofs import ct_from_json, point_from_hex

    _, index = card_table(params.table_id, params.deck_spec, params.n_cards)
    byop: dict[int, dict[tuple[str, int], dict[str, Any]]] = {}
    for s, b in messages:
        if isinstance(b, dict) and b.get("step") != "abort":
            byop.setdefault(b["op"], {})[(b["step"], s)] = b
    cts: list[Any] = []
    pool: dict[tuple[int, str], dict[int, Any]] = {}  # (slot, its ciphertext) -> seat -> share
    opened: set[tuple[int, str]] = set()  # (slot, its ciphertext) opened to everyone
    out: dict[str, list[tuple[int, int, int | None]]] = {"public": [], "private": []}
    for op in sorted(byop):
        msgs = byop[op]
        first = next(iter(msgs.values()))
        kind = first["kind"]
        if kind == "key":
            ys = [point_from_hex(msgs[("key", j)]["y"]) for j in range(params.seats)]
            y = ys[0]
            for v in ys[1:]:
                y = add(y, v)  # type: ignore[arg-type]
            points, _ = card_table(params.table_id, params.deck_spec, params.n_cards)
            cts = [eg.public_encrypt(pt, y) for pt in points]
        elif kind == "shuffle":
            last = max(j for (st, j) in msgs if st == "shuffle") if msgs else None
            body = msgs[("shuffle", last)] if last is not None and first["by"] is None else first
            for s, ct in zip(body["slots"], body["cts"], strict=True):
                cts[s] = ct_from_json(ct)
        elif kind in ("open", "prove"):
            to_all = kind == "open" and len(first["to"]) == params.seats
            for i, s in enumerate(first["slots"]):
                public = to_all or (s, repr(cts[s])) in opened
                if to_all:
                    opened.add((s, repr(cts[s])))
                shared = pool.setdefault((s, repr(cts[s])), {})
                for (step, j), m in msgs.items():
                    if step == "shares" and m.get("shares"):
                        shared[j] = point_from_hex(m["shares"][i])
                c = index.get(eg.decode(cts[s], list(shared.values()))) \
                    if len(shared) == params.seats else None  # type: ignore[arg-type]
                out["public" if public else "private"].append((op, s, c))
    return out


def by_op(messages: Sequence[Sequence[Any]]) -> dict[int, dict[tuple[str, int], dict[str, Any]]]:
    """A record's deck messages (``[sender, body]`` or with an envelope id) by op and step, the
    bodies themselves (editing one edits the record); aborts left out."""
    out: dict[int, dict[tuple[str, int], dict[str, Any]]] = {}
    for m in messages:
        sender, body = m[0], m[1]
        if isinstance(body, dict) and body.get("step") != "abort":
            out.setdefault(body["op"], {})[(body["step"], sender)] = body
    return out


def rekey(ops: dict[int, dict[tuple[str, int], dict[str, Any]]], params: Any, owner: int,
          seed: bytes) -> None:
    """Red team 13's re-keying forgery of a record's deck messages (``ops``: op -> (step, seat)
    -> body), in place: ``owner`` replaces its key share by one of a new seed
    (with a valid proof of knowledge) and re-makes every later deck message of its own under the
    new joint key, taking the other seats' signed outputs as they are: its shuffle steps over
    the file's inputs, its shares, its claims where it still can, its end-of-game digest over
    the forged record. Only the owner's own messages change; nobody else's signature is needed."""
    sec = PeerSecrets(seed)
    pub = PublicDeck(params)
    x, fields = pub.make_key(sec, owner)
    ops[0][("key", owner)].update(y=fields["y"], proof=fields["proof"])
    pub.set_keys([point_from_hex(ops[0][("key", j)]["y"]) for j in range(params.seats)])
    for op in sorted(o for o in ops if o > 0):
        msgs = ops[op]
        desc = descriptor_of(next(iter(msgs.values())))
        assert desc is not None
        kind = desc["kind"]
        if kind == "shuffle":
            cur = [pub.cts[s] for s in desc["slots"]]
            for j in pub.shufflers(desc):
                body = msgs[("shuffle", j)]
                if j == owner:
                    perm = sec.permutation("mix", op, bytes(32), len(cur))
                    cur, made = pub.make_shuffle(sec, op, owner, cur, perm)
                    body.update(made)
                else:
                    cur = [ct_from_json(c, check=False) for c in body["cts"]]
            for s, ct in zip(desc["slots"], cur, strict=True):
                pub.cts[s] = ct
        elif kind in ("open", "prove"):
            msgs[("shares", owner)].update(pub.make_shares(sec, x, op, desc, owner))
            if kind == "prove" and desc["by"] == owner:
                shares = {j: [point_from_hex(d) for d in b["shares"]]
                          for (st, j), b in msgs.items() if st == "shares" and b["shares"]}
                with contextlib.suppress(ValueError):  # (the others' shares no longer open
                    # its card under the new key: it keeps the proof it sent)
                    msgs[("member", owner)].update(pub.make_member(sec, x, op, desc, shares))
        elif kind == "end":
            msgs[("end", owner)]["digest"] = record_digest(
                [b for o, m in ops.items() if o < op for b in m.values()]).hex()



#: Any JSON value, nested a little: what a hostile peer may put anywhere in a message.
HOSTILE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=4), kids, max_size=3),
    max_leaves=6)


def places(obj: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value: each key of an object, each index of a list, recursively."""
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    out = []
    for k, v in items:
        out.append((*prefix, k))
        out.extend(places(v, (*prefix, k)))
    return out


def at(obj: Any, path: tuple) -> Any:
    """The value at a place ``places`` listed."""
    for k in path:
        obj = obj[k]
    return obj
