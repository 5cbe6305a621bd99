"""Red team 17: two seats pooling their deck secrets against the third (what held).

A whole Go Out Girl game among three in-process peers over the deck service. Seats 1 and 2 (0
and 1 on the wire) collude: they pool both key shares, every plain share the record holds of
each ciphertext (across operations: SPEC 5.7, "shares add up"), and every encrypted share
either of them was sent. A card the game opened to seat 3 alone stays unreadable to them at
every operation: the only share they lack is seat 3's, which is never published for a card
opened to seat 3 or claimed by it, and the engine re-encrypts a slot before an opening that
would publish it."""

from __future__ import annotations

import asyncio
from typing import Any

from p2pcards.bots.go_out_girl import GoOutGirlBot
from p2pcards.deck_dealer import DeckDealer
from p2pcards.games.go_out_girl import Game
from protocol import elgamal as eg
from protocol.group import card_table, sub
from protocol.kdf import PeerSecrets
from protocol.proofs import ct_from_json, point_from_hex
from protocol.steps import PublicDeck

from .deck_helpers import make_table, seed
from .inproc import play_in_process

N = 3
US = (0, 1)
TAG = "pooled"


def pooled_reads(params: Any, messages: list[tuple[int, dict[str, Any]]]
                 ) -> list[tuple[int, int, tuple[int, ...], int | None]]:
    """``(op, slot, receivers, card or None)`` for every opening or claim: the card the two
    colluders decode from everything they hold of that slot's ciphertext by then."""
    xs = {j: PeerSecrets(seed(j, TAG)).key(params.table_id, params.digest) for j in US}
    _, index = card_table(params.table_id, params.deck_spec, params.n_cards)
    byop: dict[int, dict[tuple[str, int], dict[str, Any]]] = {}
    for s, b in messages:
        if isinstance(b, dict) and b.get("step") != "abort":
            byop.setdefault(b["op"], {})[(b["step"], s)] = b
    pub = PublicDeck(params)
    pool: dict[tuple[int, Any], dict[int, Any]] = {}
    out = []
    for op in sorted(byop):
        msgs = byop[op]
        first = next(iter(msgs.values()))
        kind = first["kind"]
        if kind == "key":
            pub.set_keys([point_from_hex(msgs[("key", j)]["y"]) for j in range(N)])
        elif kind == "shuffle":
            last = max(j for (st, j) in msgs if st == "shuffle")
            for s, ct in zip(first["slots"], msgs[("shuffle", last)]["cts"], strict=True):
                pub.cts[s] = ct_from_json(ct)
        elif kind in ("open", "prove"):
            to = tuple(first["to"]) if kind == "open" else (first["by"],)
            for i, s in enumerate(first["slots"]):
                ct = pub.cts[s]
                shared = pool.setdefault((s, ct), {})
                for j in US:  # their own shares, which they can always make
                    shared[j] = eg.share(xs[j], ct)
                for (step, j), m in msgs.items():
                    if step != "shares":
                        continue
                    if m.get("shares"):
                        shared[j] = point_from_hex(m["shares"][i])
                    for e in m.get("enc") or []:
                        if e["to"] in US:  # a share encrypted to one of them: they open it
                            a, b = ct_from_json(e["cts"][i])
                            shared[j] = sub(b, eg.share(xs[e["to"]], (a, b)))
                card = index.get(eg.decode(ct, list(shared.values()))) if len(shared) == N \
                    else None
                out.append((op, s, to, card))
    return out


def test_two_colluders_read_no_card_opened_to_the_third_alone():
    n_cards = Game.new(N).n_cards
    hub, peers = make_table(N, n_cards, tag=TAG, timeout=60.0)
    dealers = [DeckDealer(d, p) for p, d in enumerate(peers)]
    views = [Game.new(N).view(p) for p in range(N)]

    async def game() -> None:
        await play_in_process(views, dealers, [GoOutGirlBot(p, 20 + p) for p in range(N)])
        await asyncio.gather(*(d.audit() for d in dealers))

    asyncio.run(game())
    reads = pooled_reads(peers[0].params, [(s, b) for s, to, t, b in hub.log
                                           if t == "deck" and to == 0 or s == 0 and t == "deck"])
    theirs = [r for r in reads if set(r[2]) & set(US)]
    hers = [r for r in reads if set(r[2]) == {2}]
    assert hers and theirs, "the game opened cards to seat 3 alone and to the colluders"
    assert all(c is not None for _, _, _, c in theirs)  # (what they may read, they do read)
    assert [r for r in hers if r[3] is not None] == [], "a card of seat 3's read by seats 1 and 2"
