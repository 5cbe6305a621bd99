"""The adversary matrix: every seat position x every step kind x every deviation that applies.

Written as an attacker would: one seat runs a ``DeckPeer`` whose outgoing message at the target
step is changed (substituted, duplicated, dropped, scaled, its proof or share corrupted, replayed,
withheld, or sent differently to different seats). Every honest seat must stop at that very step
naming the attacker -- never an honest seat -- and, for a provable deviation, the offline audit
of an honest seat's public record must name the attacker at the same place (evidence a third
party can check).

Small decks keep it quick; ``P2PCARDS_LONG=1`` runs 4 seats and a 24-card deck as well.
"""

from __future__ import annotations

import asyncio
import copy
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from protocol import elgamal as eg
from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import CheatDetected, DeckError, DeckTimeout, Equivocation, PeerAborted
from protocol.group import add, base_mul, card_point, mul, scalar_from_int
from protocol.kdf import PeerSecrets
from protocol.params import DeckParams
from protocol.proofs import ct_from_json, ct_to_json
from protocol.steps import PublicDeck

from .deck_helpers import SPEC, TABLE, adversary, make_table, seed, together

LONG = os.environ.get("P2PCARDS_LONG") == "1"
SIZES = [(3, 6)] + ([(4, 24)] if LONG else [])
TWO = scalar_from_int(2)
G = base_mul(scalar_from_int(1))

Op = Callable[[DeckPeer], Awaitable[Any]]


@dataclass
class Scenario:
    """Honest ``setup`` operations, then the ``target`` operation whose ``step`` the attacker
    tampers with (the setup holds one operation of the same kind, so a replay has material)."""

    setup: list[Op]
    target: Op
    step: str


def scenario(kind: str, a: int, n: int, m: int) -> Scenario:
    allc = list(range(m))
    nxt = (a + 1) % n

    def reorder(slots: list[int], by: int) -> Op:
        return lambda p: p.reorder(slots, by, list(reversed(slots)) if p.seat == by else None)

    if kind == "key":
        return Scenario([], lambda p: p.start(), "key")
    if kind == "shuffle":
        return Scenario([lambda p: p.shuffle(allc)], lambda p: p.shuffle(allc), "shuffle")
    if kind == "subset":
        return Scenario([lambda p: p.shuffle(allc), lambda p: p.shuffle([0, 2, 4])],
                        lambda p: p.shuffle([1, 3, 4]), "shuffle")
    if kind == "reorder":
        return Scenario([lambda p: p.shuffle(allc), lambda p: p.open([0, 1], [a]),
                         reorder([0, 1], a)], reorder([0, 1], a), "shuffle")
    if kind == "open_one":
        return Scenario([lambda p: p.shuffle(allc), lambda p: p.open([4, 5], [nxt])],
                        lambda p: p.open([2, 3], [nxt]), "shares")
    if kind == "open_several":
        to = sorted({a, nxt})
        return Scenario([lambda p: p.shuffle(allc), lambda p: p.open([4, 5], to)],
                        lambda p: p.open([2, 3], to), "shares")
    if kind == "open_all":
        return Scenario([lambda p: p.shuffle(allc), lambda p: p.open_all([4, 5])],
                        lambda p: p.open_all([2, 3]), "shares")
    assert kind == "random"
    return Scenario([lambda p: p.random(6)], lambda p: p.random(6), "reveal")


# ---- deviations: each changes the attacker's message at the target step ----------------------
def _cts_field(body: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Where the attacked list lives: a shuffle's ``cts``, plain ``shares``, or the first
    encrypted-share entry's ``cts``."""
    if body["step"] == "shuffle":
        return body, "cts"
    if body["shares"] is not None:
        return body, "shares"
    return body["enc"][0], "cts"


def _scale(v: Any) -> Any:
    if isinstance(v, list):
        a, b = ct_from_json(v)  # type: ignore[misc]
        return ct_to_json((mul(TWO, a), mul(TWO, b)))
    return mul(TWO, bytes.fromhex(v)).hex()


def _other_value(peer: DeckPeer, body: dict[str, Any], v: Any) -> Any:
    """A valid value that is not the right one: for a ciphertext, a fresh encryption of a card
    (substitution); for a share, the attacker's share of another slot (it would decode another
    card)."""
    if isinstance(v, list):
        assert peer.pub.y is not None
        r = scalar_from_int(12345)
        card = card_point(TABLE, SPEC, 0)
        return ct_to_json((base_mul(r), add(card, mul(r, peer.pub.y))))
    other = next(s for s in range(peer.params.n_cards) if s not in body["slots"])
    return eg.share(peer.x, peer.pub.cts[other]).hex()


def _corrupt(v: Any) -> Any:
    """Change one hex digit of the first hex string found in a proof."""
    if isinstance(v, str) and v and all(c in "0123456789abcdef" for c in v):
        return v[:-1] + "0123456789abcdef"[("0123456789abcdef".index(v[-1]) + 1) % 16]
    if isinstance(v, dict):
        for k in sorted(v):
            new = _corrupt(v[k])
            if new != v[k]:
                return {**v, k: new}
    if isinstance(v, list):
        for i, x in enumerate(v):
            new = _corrupt(x)
            if new != x:
                return v[:i] + [new] + v[i + 1:]
    return v


def substitute(peer: DeckPeer, body: dict[str, Any]) -> dict[str, Any] | None:
    if body["step"] == "key":
        body["y"] = G.hex()
    elif body["step"] == "reveal":
        body["nonce"] = "ab" * 32
    elif body["step"] == "commit":
        body["commit"] = "cd" * 32
    else:
        holder, f = _cts_field(body)
        holder[f][0] = _other_value(peer, body, holder[f][0])
    return body


def duplicate(peer: DeckPeer, body: dict[str, Any]) -> dict[str, Any] | None:
    if body["step"] == "key":  # the next seat's key share (its seed is the test's)
        j = (peer.seat + 1) % peer.n
        other_x = PeerSecrets(seed(j)).key(peer.params.table_id, peer.params.digest)
        body["y"] = base_mul(other_x).hex()
    elif body["step"] == "reveal":
        body["echo"] = [body["echo"][peer.seat]] * peer.n
    elif body["step"] == "shuffle":  # a re-randomised copy of another output: the v1 peek
        assert peer.pub.y is not None
        ct = ct_from_json(body["cts"][0])
        body["cts"][1] = ct_to_json(eg.reencrypt(peer.pub.y, ct, scalar_from_int(777)))  # type: ignore[arg-type]
    else:
        holder, f = _cts_field(body)
        holder[f][1] = holder[f][0]
    return body


def drop(peer: DeckPeer, body: dict[str, Any]) -> dict[str, Any] | None:
    if body["step"] == "key":
        del body["proof"]
    elif body["step"] == "reveal":
        del body["nonce"]
    else:
        holder, f = _cts_field(body)
        holder[f] = holder[f][:-1]
    return body


def scale(peer: DeckPeer, body: dict[str, Any]) -> dict[str, Any] | None:
    if body["step"] == "key":
        body["y"] = _scale(body["y"])
    else:
        holder, f = _cts_field(body)
        holder[f][0] = _scale(holder[f][0])
    return body


def wrong_proof(peer: DeckPeer, body: dict[str, Any]) -> dict[str, Any] | None:
    if body["step"] in ("key", "shuffle") or body["shares"] is not None:
        body["proof"] = _corrupt(body["proof"])
    else:
        body["enc"][0]["proof"] = _corrupt(body["enc"][0]["proof"])
    return body


def wrong_share(peer: DeckPeer, body: dict[str, Any]) -> dict[str, Any] | None:
    holder, f = _cts_field(body)
    v = holder[f][0]
    if isinstance(v, list):
        holder[f][0] = [v[0], add(bytes.fromhex(v[1]), G).hex()]
    else:
        holder[f][0] = add(bytes.fromhex(v), G).hex()
    return body


DEVIATIONS: dict[str, Callable[[DeckPeer, dict[str, Any]], dict[str, Any] | None]] = {
    "substitute": substitute, "duplicate": duplicate, "drop": drop, "scale": scale,
    "wrong_proof": wrong_proof, "wrong_share": wrong_share,
}
KINDS = ["key", "shuffle", "subset", "reorder", "open_one", "open_several", "open_all", "random"]
NOT_APPLICABLE = {  # (kind, deviation): a random has no points nor proof; a key share no share
    ("key", "wrong_share"), ("random", "scale"), ("random", "wrong_proof"),
    ("random", "wrong_share"), ("shuffle", "wrong_share"), ("subset", "wrong_share"),
    ("reorder", "wrong_share"),
}
ALL_DEVIATIONS = [*DEVIATIONS, "replay", "withhold", "equivocate"]


def cases() -> list[Any]:
    out = []
    for n, m in SIZES:
        for kind in KINDS:
            for dev in ALL_DEVIATIONS:
                if (kind, dev) in NOT_APPLICABLE:
                    continue
                if dev == "withhold":  # every seat's case at once (see the test)
                    out.append(pytest.param(n, m, kind, dev, None,
                                            id=f"{n}x{m}-{kind}-{dev}-every-seat"))
                    continue
                for a in seats_of(n):
                    out.append(pytest.param(n, m, kind, dev, a, id=f"{n}x{m}-{kind}-{dev}-seat{a}"))
    return out


def seats_of(n: int) -> list[int]:
    return sorted({0, 1, n // 2, n - 1})


def run_case(n: int, m: int, kind: str, dev: str, a: int
             ) -> tuple[list[Any], list[DeckPeer], int, str]:
    main, peers, target_op, step = prepare_case(n, m, kind, dev, a)
    return asyncio.run(main()), peers, target_op, step


def prepare_case(n: int, m: int, kind: str, dev: str, a: int
                 ) -> tuple[Callable[[], Awaitable[list[Any]]], list[DeckPeer], int, str]:
    """The table of one case, and the coroutine function that plays it (the errors each seat
    ended with)."""
    sc = scenario(kind, a, n, m)
    target_op = len(sc.setup) + (0 if kind == "key" else 1)
    step = "commit" if kind == "random" and dev in ("replay", "equivocate") else sc.step
    earlier: dict[str, dict[str, Any]] = {}

    def tamper(peer: DeckPeer, body: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        if body["op"] != target_op or body["step"] != step:
            if body["step"] == step:
                earlier[step] = body
            return [(None, body)]
        if dev == "withhold":
            return []
        if dev == "replay":
            old = earlier.get(step)
            if old is None:  # (the key share) its key message from another table
                other = PublicDeck(DeckParams(b"another-table", SPEC, m, n))
                return [(None, {**body, **other.make_key(peer.secrets, peer.seat)[1]})]
            # an earlier message of the same step, relabelled for this operation and input
            return [(None, {**old, **{k: body[k] for k in ("op", "slots", "to", "by", "n", "prev")
                                      if k in body}})]
        if dev == "equivocate":
            bad = substitute(peer, copy.deepcopy(body))
            first = (a + 1) % n
            return [(first, body)] + [(j, bad) for j in range(n) if j not in (a, first)]  # type: ignore[list-item]
        return [(None, DEVIATIONS[dev](peer, body))]  # type: ignore[list-item]

    _, peers = make_table(n, m, classes={a: adversary(tamper)}, timeout=30.0)

    async def main() -> list[Any]:
        errors: list[Any] = [None] * n
        for fn in [*sc.setup, sc.target]:
            if fn is sc.target and dev == "withhold":  # (not before: honest steps take time)
                for p in peers:
                    p.timeout = 1.0
            for i, r in enumerate(await together(peers, fn)):
                if isinstance(r, BaseException) and errors[i] is None:
                    errors[i] = r
        return errors

    return main, peers, target_op, step


@pytest.mark.parametrize(("n", "m", "kind", "dev", "a"), cases())
def test_deviation_is_caught_at_its_step_naming_the_attacker(n: int, m: int, kind: str, dev: str,
                                                             a: int | None) -> None:
    if a is None:
        # A withholder is named when the others' timeout (1 s) runs out: the case is that
        # second's wait. The cases of every attacker seat run side by side (each its own table,
        # in one event loop), so their waits overlap; each is checked as on its own.
        prepared = {a: prepare_case(n, m, kind, dev, a) for a in seats_of(n)}

        async def every_seat() -> list[list[Any]]:
            return await asyncio.gather(*(main() for main, *_ in prepared.values()))

        for (a, (_, peers, target_op, step)), errors in zip(prepared.items(),
                                                           asyncio.run(every_seat()), strict=True):
            check_case(errors, peers, target_op, step, n, dev, a)
        return
    errors, peers, target_op, step = run_case(n, m, kind, dev, a)
    check_case(errors, peers, target_op, step, n, dev, a)


def check_case(errors: list[Any], peers: list[DeckPeer], target_op: int, step: str, n: int,
               dev: str, a: int) -> None:
    # a withholder is named by a timeout, or -- when it stops the table itself once another
    # seat timed out -- by its abort arriving while this seat still waits for its message
    want = {"withhold": (DeckTimeout, PeerAborted), "equivocate": Equivocation}.get(dev, CheatDetected)
    for seat, err in enumerate(errors):
        if seat == a:
            continue
        assert isinstance(err, want), f"attacker {a}, seat {seat}: {err!r}"
        assert (err.peer, err.op, err.step) == (a, target_op, step), \
            f"attacker {a}, seat {seat}: {err!r}"
    if want is CheatDetected:  # the public record of any honest seat convicts the attacker
        h = (a + 1) % n
        rec = peers[h].record()
        verdict = audit(rec["params"], rec["messages"]).verdict
        assert (verdict.culprit, verdict.op, verdict.step) == (a, target_op, step), verdict
    for p in peers:  # nobody ever goes on: no value is drawn again, no card is dealt
        if p.seat != a:
            assert isinstance(p.failed, DeckError)


def test_the_matrix_covers_every_position_kind_and_deviation() -> None:
    ids = {c.id for c in cases()}
    for kind in KINDS:
        for dev in ALL_DEVIATIONS:
            if (kind, dev) not in NOT_APPLICABLE:
                if dev == "withhold":
                    assert f"3x6-{kind}-{dev}-every-seat" in ids and seats_of(3) == [0, 1, 2]
                    continue
                for a in (0, 1, 2):
                    assert f"3x6-{kind}-{dev}-seat{a}" in ids
