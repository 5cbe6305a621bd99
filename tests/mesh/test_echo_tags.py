"""Mesh version 8: an echo nobody can guess. Every signed ``heads`` echoes, per seat, the newest of
that seat's control messages its author has seen as ``[ctr, tag]``, the tag the first 8 bytes of
the SHA-256 of that message's signature (``protocol/mesh/echo.py``). In version 7 the echo was
the counter alone, which counts up at a pace every seat sees: a liar could echo a counter it
never got (red team 25; the attack, written as carol, is
``tests/table/test_own_cut.py::test_a_liar_echoing_a_guessed_counter_hides_from_a_program_that_nobody_hears_it``).
Here: what the tag proves and what it does not, an honest echo of a message from before a
restart, and a version 7 program refused at the hello. (The malformed echoes that drop their
heads are in ``test_ctl_values.py``.)"""

from __future__ import annotations

import asyncio
import json
import secrets
import time

import pytest
import zmq
import zmq.asyncio

from protocol.envelope import canonical
from protocol.mesh import Mesh, Timings
from protocol.mesh.common import K_HS, MESH_VERSION
from protocol.mesh.echo import echo_tag

from .helpers import LOOPBACK, close_all, identity, make_table, raw_dealer, run_async, until

pytestmark = pytest.mark.network
ALICE, BOB, CAROL = range(3)


def word(mesh: Mesh, entry: list | None) -> dict:
    """A heads message as ``mesh`` reads one: its echo of ``mesh``'s seat is ``entry``."""
    echo: list = [None] * mesh.seats
    echo[mesh.seat] = entry
    return {"t": "heads", "echo": echo}


@run_async(timeout=30)
async def test_an_echo_counts_only_with_the_tag_of_the_message_we_signed_at_that_counter(tmp_path):
    """Alice's own message, echoed with its tag, is recent presence; the same counter with any
    other tag (a guess, or the tag of an older message of hers the echoer did get), a counter she
    has not signed yet, or none, is nothing: no presence, no proof that anyone heard her."""
    meshes = await make_table(tmp_path, 3)
    alice = meshes[ALICE]
    try:
        older = alice._sign_ctl(BOB, "heads", {"heads": alice._heads_list()})
        msg = alice._sign_ctl(BOB, "heads", {"heads": alice._heads_list()})
        now = time.monotonic()
        right = [msg["ctr"], echo_tag(msg["sig"])]
        assert alice._echo_fresh(word(alice, right), now)
        for wrong in ([msg["ctr"], secrets.token_hex(8)],
                      [msg["ctr"], echo_tag(older["sig"])],  # an older tag, the newer counter
                      [alice._ctr + 1, echo_tag(msg["sig"])],  # not signed yet
                      None):
            assert not alice._echo_fresh(word(alice, wrong), now), wrong
        before = alice._reached_at
        alice._note_reach(word(alice, [msg["ctr"], secrets.token_hex(8)]))
        assert alice._reached_at == before
        alice._note_reach(word(alice, right))
        assert alice._reached_at > before
    finally:
        await close_all(meshes)


@run_async(timeout=40)
async def test_an_honest_echo_of_our_last_runs_message_names_nobody(tmp_path, caplog):
    """Carol's program crashes and she takes her seat back (``join --resume``): her new run
    counts its control messages from 1 again. Bob, not yet reached by the new run, still echoes
    the last message of her old run he got, at a counter the new run has signed again, with the
    old message's tag. That is no proof bob heard the new run (it counts as nothing), and no lie
    of bob's either: the echo does not say which run it echoes, so carol's program names
    nobody, charges bob nothing, and the table goes on."""
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    again = None
    try:
        await asyncio.sleep(0.5)
        old = bob._echo()[CAROL]  # the last of carol's words bob got: [ctr, tag] of her old run
        assert old is not None
        await carol.close(announce=False)  # no goodbye, like SIGKILL
        await until(lambda: CAROL in alice.away and CAROL in bob.away, what="carol away")
        again = await Mesh.resume(identity(tmp_path, CAROL), alice.table, bind=LOOPBACK,
                                  timings=Timings.fast())
        while again._ctr < old[0]:  # the new run signs that counter again
            again._sign_ctl(ALICE, "heads", {"heads": again._heads_list()})
        checked: list = []  # each echo of carol's words her new run reads, and what it proved
        real = again._signed_time
        again._signed_time = lambda mine: checked.append((mine, real(mine))) or checked[-1][1]
        for _ in range(5):  # bob's signed heads, as his program sent them before it heard her
            echo = bob._echo()
            echo[CAROL] = old
            bob._send_ctl(CAROL, "heads", {"heads": bob._heads_list(), "reply": False,
                                           "roster": bob.roster_digest, "echo": echo})
            await asyncio.sleep(0.1)
        await until(lambda: (tuple(old), None) in checked, what="bob's heads read")
        assert all(t is None for mine, t in checked if mine == tuple(old))  # counted as nothing
        await until(lambda: not again.away and CAROL not in bob.away, what="carol back")
        assert [m.stopped for m in (alice, bob, again)] == [None, None, None]
        assert not [e for m in (alice, bob, again) for e in m.events if e.kind in ("fault", "stop")]
        assert "from seat 2 that does nothing" not in caplog.text  # nothing charged to bob
        assert "from seat 1 that does nothing" not in caplog.text
    finally:
        await close_all([alice, bob] + ([again] if again is not None else []))


@run_async(timeout=30)
async def test_a_mesh_version_7_program_is_refused_at_the_hello_with_words(tmp_path):
    """A program of mesh version 7 echoes bare counters: a version 8 program would drop all its
    heads as malformed and charge it for them. It is refused at the hello, and told why."""
    assert MESH_VERSION == 8
    meshes = await make_table(tmp_path, 3)
    ctx = zmq.asyncio.Context()
    sock = raw_dealer(ctx, meshes[ALICE])
    try:
        hello = {"t": "hello", "v": 7, "name": "dave", "key": identity(tmp_path, 3).key_hex,
                 "addr": f"tcp://{LOOPBACK}:1", "nonce": secrets.token_hex(32)}
        await sock.send_multipart([K_HS, canonical(hello)])
        frames = await asyncio.wait_for(sock.recv_multipart(), 5)
        answer = json.loads(frames[1])
        assert answer["t"] == "refused", answer
        assert answer["reason"] == "incompatible p2pcards mesh version 7 (this table speaks 8)"
    finally:
        sock.close(0)
        ctx.term()
        await close_all(meshes)
