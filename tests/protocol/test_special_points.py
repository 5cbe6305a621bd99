"""Red team 26: the group's special values in place of any point or scalar of any deck message.

``test_hostile_values.py`` puts any JSON value anywhere; this puts the 64-hex-digit values a
cheater who knows the group would try, each where a point or a scalar goes (every 64-hex-digit
string of a key share, a shuffle step, plain and encrypted shares, a claim's proof, a commitment,
a nonce): the identity, non-canonical encodings (the field's p, a "negative" s, the top bit set,
all ones), the generator, and the scalars L, L + 1, L - 1 and 0. Every honest seat must name the
sender at that step, and the audit of an honest seat's record must agree; nothing may crash.
(A key share's ``desc`` is left alone: another game description names nobody without the
host's signed game, SPEC.md 5.2.)

Measured on the code before this test (red team 26): 756 tables (9 values, every seat, the first
7 messages, 4 places in each): every one named the sender; no finding. Quick in the suite (one
seat, one place); ``P2PCARDS_LONG=1`` runs them all."""

from __future__ import annotations

import asyncio
import os
import re
from typing import Any

import pytest

from protocol import group as g
from protocol.audit import audit
from protocol.deck import DeckPeer
from protocol.errors import DeckError

from .deck_helpers import adversary, at, first_errors, make_table, places

LONG = os.environ.get("P2PCARDS_LONG") == "1"
HEX = re.compile(r"[0-9a-f]{64}\Z")
SPECIAL = {
    "identity": "00" * 32,
    "p": (2**255 - 19).to_bytes(32, "little").hex(),
    "negative s": "01" + "00" * 31,
    "top bit": "00" * 31 + "80",
    "all ones": "ff" * 32,
    "G": g.base_mul(g.sc(1)).hex(),
    "L": g.L.to_bytes(32, "little").hex(),
    "L+1": (g.L + 1).to_bytes(32, "little").hex(),
    "L-1": (g.L - 1).to_bytes(32, "little").hex(),
}
OPS = [lambda p: p.shuffle(list(range(6))), lambda p: p.open([0], [1]),
       lambda p: p.open([1, 2], [0, 2]), lambda p: p.open_all([3]),
       lambda p: p.prove([0], 1, list(range(6))), lambda p: p.random(5)]
ATTACKERS = range(3) if LONG else [1]
NTHS = range(8)
#: where in a message's 64-hex-digit strings (modulo their number): the quick run tries the
#: sixth for a point value (a ciphertext or share, mostly) and the last for a scalar (a proof's)
WHERES = (0, 1, 5, 1000)
SCALARS = {"L", "L+1", "L-1"}


def _hex_places(body: dict[str, Any]) -> list[tuple]:
    return [pt for pt in places(body) if pt != ("desc",)
            and isinstance(at(body, pt), str) and HEX.match(at(body, pt))]


@pytest.mark.parametrize("name", sorted(SPECIAL))
def test_a_special_group_value_in_any_message_names_its_sender(name: str) -> None:
    value = SPECIAL[name]
    tried = 0
    for attacker in ATTACKERS:
        for nth in NTHS:
            for where in WHERES if LONG else (1000,) if name in SCALARS else (5,):
                changed: list[tuple[str, tuple]] = []

                def tamper(peer: DeckPeer, body: dict[str, Any], nth: int = nth,
                           where: int = where, changed: list = changed) -> list:
                    peer.count = getattr(peer, "count", 0) + 1
                    spots = _hex_places(body)
                    if peer.count - 1 == nth and spots:
                        pt = spots[where % len(spots)]
                        if at(body, pt) != value:
                            changed.append((body["step"], pt))
                            at(body, pt[:-1])[pt[-1]] = value
                    return [(None, body)]

                _, peers = make_table(3, 6, tag="special", timeout=2.0,
                                      classes={attacker: adversary(tamper)})
                errors = asyncio.run(first_errors(peers, OPS))
                if not changed:
                    continue
                tried += 1
                for seat, err in enumerate(errors):
                    if seat == attacker:
                        continue
                    assert isinstance(err, DeckError) and err.peer == attacker, \
                        (name, attacker, changed, seat, err)
                    rec = peers[seat].record()
                    v = audit(rec["params"], rec["messages"]).verdict
                    assert v.culprit == attacker, (name, attacker, changed, seat, v)
    assert tried >= len(ATTACKERS) * 6
