"""Red team 22: a seated liar's heads take a cut-off honest seat's presence away. A program that
hears a seat only through the others (their link cut) counts that seat present on its signed
word forwarded by a seat that hears it (a ``vouch``, "Presence through the others") -- unless
it has lacked envelopes of that seat's for a while (``_behind_since``): a forwarder that passes
on a seat's presence and withholds its messages must not keep our clocks running on it. But
"lacks" was whatever any seat's heads claimed: one heads message from carol stating bob's chain
a thousand envelopes past what bob ever signed left alice "behind" on bob for good, so every
vouch for him was ignored, bob was marked away, and named past the table's wait -- though dave,
honest, heard bob and carried everything between them.

Four seats at the tests' timings, the alice-bob link cut both ways (a firewall, bad luck)."""

from __future__ import annotations

import asyncio

import pytest

from p2pcards.absence import _watch_absence
from tests.mesh.helpers import close_all, make_table, run_async, short_claim_window, until
from tests.table.test_forked_move import cut_between_alice_and_bob

pytestmark = pytest.mark.network
ALICE, BOB, CAROL, DAVE = range(4)


@run_async(timeout=60)
async def test_heads_claiming_envelopes_nobody_delivers_do_not_make_a_carried_seat_away(
        tmp_path, monkeypatch):
    short_claim_window(monkeypatch)
    meshes = await make_table(tmp_path, 4)
    alice, bob, carol, dave = meshes
    said: list[str] = []
    try:
        cut_between_alice_and_bob(meshes)
        await asyncio.sleep(3.0)  # alice hears bob through carol and dave: not away
        assert BOB not in alice.away
        watch = asyncio.create_task(_watch_absence(alice, 3.0, said.append, bot=True))
        # carol's signed heads, bob's chain a thousand past what bob signed (one was enough on
        # main: bob named 3 s after bob was marked away)
        for _ in range(5):
            heads = carol._heads_list()
            heads[BOB] = [heads[BOB][0] + 1000, "0" * 64]
            carol._send_ctl(ALICE, "heads", {"heads": heads, "reply": False,
                                             "roster": carol.roster_digest})
            await asyncio.sleep(1.0)
        await asyncio.sleep(3.0)  # more than the wait past when bob would be marked away
        assert alice.stopped is None or alice.stopped.culprit != BOB, alice.stopped
        assert BOB not in alice.away, said
        watch.cancel()
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_forwarder_that_passes_on_presence_and_withholds_the_messages_still_gets_none(
        tmp_path):
    """What the rule is for, kept: carol, the only seat hearing both, forwards bob's signed
    word to alice but none of bob's envelopes. Bob's own word says what he signed; alice lacks
    it for longer than a few asks, so his word stops counting as presence and alice waits for
    him as for a seat she cannot hear (marked away), rather than run her clocks on him."""
    from protocol.mesh import K_RELAY

    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        cut_between_alice_and_bob(meshes)
        real = carol._send_frames

        def withhold(seat, frames):
            if not (seat == ALICE and frames[0] == K_RELAY):
                real(seat, frames)

        carol._send_frames = withhold
        await asyncio.sleep(3.0)
        assert BOB not in alice.away  # bob's word comes through carol
        await bob.channel.broadcast("hist", {"i": 1})
        loop = asyncio.get_running_loop()
        end = loop.time() + 8.0
        while BOB not in alice.away and loop.time() < end:
            await asyncio.sleep(0.05)
        assert BOB in alice.away and alice.verifier.chains[BOB].seq < bob.verifier.chains[BOB].seq
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_proof_that_never_comes_at_the_last_comparison_names_who_owes_it(tmp_path):
    """Carol's heads state another hash for a message of bob's that alice holds, again and
    again, and she never answers alice's ask for that message (``proof?``): alice's last
    comparison waits for the proof until its time runs out, and said so as "no checkpoint
    answer from a proof" -- the table's line read "could not compare transcripts with a proof
    after the last move". It names carol, whose proof it waited for. Nobody is named for it
    (a lie about a hash proves nothing), and the wait is the comparison's, bounded."""
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        await bob.channel.broadcast("hist", {"i": 1})
        await until(lambda: alice.verifier.chains[BOB].seq == carol.verifier.chains[BOB].seq == 1,
                    what="bob's message everywhere")
        carol._on_proof_request = lambda seat, msg: None  # she never shows it
        stop = asyncio.Event()

        async def lie():
            while not stop.is_set():
                heads = carol._heads_list()
                heads[BOB] = [1, "f" * 64]
                carol._send_ctl(ALICE, "heads", {"heads": heads, "reply": False,
                                                 "roster": carol.roster_digest})
                await asyncio.sleep(0.3)

        liar = asyncio.create_task(lie())
        await asyncio.sleep(0.5)
        with pytest.raises(TimeoutError) as caught:
            await alice.checkpoint(timeout=2.0)
        stop.set()
        await liar
        assert str(caught.value) == ("no checkpoint answer from carol, who never showed a "
                                     "message of bob's that their heads state otherwise")
        assert alice.stopped is None
    finally:
        await close_all(meshes)
