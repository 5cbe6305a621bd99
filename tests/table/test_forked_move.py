"""Red team 19, #1, at a real table: 3 seats over the real mesh (play_seat, Go Out Girl, easy
bots). carol (seat 2), a modified program, sends alice her move and bob another legal move
under the same number (an equivocation), then keeps two chains: every later envelope goes to
alice on the first and to bob, re-signed, on the second, and her heads to bob show the second.

The two honest games part ways at once: the deck then opens the card carol chose, and each
honest program's share describes the opening of the card *its* copy says. With heads gossiped
at a real table's pace (``heads_every`` 1 s), bob's honest share reached alice before any
comparison of heads did, her deck refused it, and alice named bob: "bob: message describes
another operation than {'kind': 'open', ...}" -- in six runs of six, with carol named by alice
in none (bob named carol, by the same luck of who is refused first). Now a program that refuses
another seat's message compares heads with every seat before it names anyone
(``Mesh.prove_culprit(answered=True)``); carol's two envelopes prove her equivocation, and every honest program
names her with them.

With bad luck on top: the link between alice and bob is cut both ways, so carol carries all
they say to each other (the one seat that hears both) and her program hides the fork (bob gets
the second chain in every relay and proof too). alice cannot compare with bob at all; she named
bob, three runs of three. Now a seat that cannot be compared with (``Mesh.out_of_reach``) is
not named: alice's stop names nobody and says why, bob names carol on her own message.
``P2PCARDS_LONG=1`` plays six deals of each."""

from __future__ import annotations

import dataclasses
import json
import os
import time

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import play_seat
from p2pcards.table import TableStopped
from protocol.envelope import canonical, envelope_hash, seal
from protocol.mesh.common import K_ENV, K_RELAY
from tests.mesh.helpers import close_all, run_async
from tests.table.test_table_rules import honest_results, table_of

pytestmark = pytest.mark.network
ALICE, BOB, CAROL = 0, 1, 2
SEEDS = range(6) if os.environ.get("P2PCARDS_LONG") == "1" else range(1)


class Forker:
    """carol's easy bot; remembers the legal actions of her latest turn."""

    needs_view = True

    def __init__(self, seat: int, seed: int) -> None:
        self.bot = make_bot("go-out-girl", seat, "easy", seed)
        self.legal: list = []
        self.chosen = None

    def decide(self, view, legal):
        self.chosen = self.bot.decide(view, legal)
        self.legal = legal
        return self.chosen

    def arrange(self, view, slots):
        return self.bot.arrange(view, slots)


def fork_chains(carol, player: Forker) -> dict:
    """carol's program: at her first move with a choice, alice gets the move she chose and
    bob another; from then on bob gets every envelope on a second chain, and her heads to
    bob show that chain. Returns what it did (``forked``: the two actions)."""
    fork: dict = {}
    swap: dict[bytes, bytes] = {}  # an envelope of the first chain -> bob's copy
    send_env, sign_ctl, send_frames = carol._send_env, carol._sign_ctl, carol._send_frames

    def signed(seat, t, payload):
        if seat == BOB and fork and isinstance(payload.get("heads"), list):
            heads = [list(h) for h in payload["heads"]]
            heads[CAROL] = [fork["seq"], fork["head"]]
            payload = dict(payload, heads=heads)
        if seat == BOB and isinstance(payload.get("env"), dict) \
                and canonical(payload["env"]) in swap:  # a proof asked for
            payload = dict(payload, env=json.loads(swap[canonical(payload["env"])]))
        return sign_ctl(seat, t, payload)

    def frames_out(seat, frames):  # a relay or a resend to bob: his chain's copy
        if seat == BOB and len(frames) == 2 and frames[0] in (K_ENV, K_RELAY) \
                and frames[1] in swap:
            frames = [frames[0], swap[frames[1]]]
        send_frames(seat, frames)

    def sent(to, topic, body):
        first = not fork and topic == "game" and len(player.legal) > 1
        if not fork and not first:
            return send_env(to, topic, body)
        other = body
        if first:
            alt = next(a for a in player.legal if a != player.chosen)
            other = dict(body, action=alt.to_json())
            fork.update(seq=carol.verifier.chains[CAROL].seq, head=carol.verifier.chains[CAROL].head,
                        forked=(body["action"], other["action"]))
        chain = carol.verifier.chains[CAROL]
        key = carol._box_key(CAROL, to) if to is not None else None
        env = seal(carol.identity, carol.table, CAROL, chain.seq + 1, chain.head, topic, body,
                   to, key)
        env2 = seal(carol.identity, carol.table, CAROL, fork["seq"] + 1, fork["head"], topic,
                    other, to, key)
        carol.verifier.append(env, envelope_hash(env))
        carol._write({"type": "out", "env": env})
        carol._sent_at.append(time.monotonic())
        carol._send_frames(ALICE, [K_ENV, canonical(env)])
        carol._send_frames(BOB, [K_ENV, canonical(env2)])
        fork.update(seq=fork["seq"] + 1, head=envelope_hash(env2))
        swap[canonical(env)] = canonical(env2)
        return env

    carol._send_env, carol._sign_ctl, carol._send_frames = sent, signed, frames_out
    carol._equivocation = lambda *a, **k: None  # nor does it name itself on bob's heads
    return fork


def cut_between_alice_and_bob(meshes) -> None:
    """The link between alice and bob is cut both ways: nobody lies, carol carries it all."""
    for m, other in ((meshes[ALICE], BOB), (meshes[BOB], ALICE)):
        def cut(seat, frames, real=m._send_frames, other=other):
            if seat != other:
                real(seat, frames)
        m._send_frames = cut


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("cut", [False, True], ids=["links-up", "alice-bob-cut"])
@run_async(timeout=120)
async def test_a_forked_move_names_its_author_and_never_the_honest_seat_made_from_it(tmp_path,
                                                                                      cut, seed):
    meshes = await table_of(tmp_path, 3)
    for m in meshes:  # heads gossiped at a real table's pace; the bots play at once
        m.timings = dataclasses.replace(m.timings, heads_every=1.0)
    player = Forker(CAROL, seed)
    fork = fork_chains(meshes[CAROL], player)
    if cut:
        cut_between_alice_and_bob(meshes)

    def seat(m):
        return play_seat(m, player if m.seat == CAROL else make_bot("go-out-girl", m.seat,
                                                                    "easy", seed + m.seat),
                         say=lambda s: None, deck_timeout=5.0)
    try:
        results = (await honest_results(meshes, seat, liar=CAROL))[:2]
        assert "forked" in fork
        assert all(isinstance(r, TableStopped) for r in results), results
        blamed = [r.culprit for r in results] + [m.stopped.culprit for m in meshes[:2]]
        assert not {ALICE, BOB} & set(blamed), [str(r) for r in results]
        if not cut:  # every honest program names carol, with her two envelopes
            assert blamed == [CAROL] * 4, [str(r) for r in results]
            for r in results:
                assert "carol sent different messages to different players" in str(r)
        else:  # bob names carol on her own message; alice cannot tell and names nobody
            assert results[BOB].culprit == CAROL, str(results[BOB])
            assert results[ALICE].culprit in (None, CAROL), str(results[ALICE])
            if results[ALICE].culprit is None:
                assert "do not reach each other directly" in str(results[ALICE]) \
                    or meshes[ALICE].stopped.claimed is not None, str(results[ALICE])
    finally:
        await close_all(meshes)
