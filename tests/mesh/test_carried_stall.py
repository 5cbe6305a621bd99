"""Red team 27: a staller attacking the "carried" rule (docs/network.md, "A player your program
hears only through others is not named by it", and Known limits).

Four seats at the tests' timings (a seat is marked away 1.5 s after the last word of it,
``away_after``; the table's wait 2 s here). Bob is the staller and dave is his accomplice (or
the same person at two seats): bob cuts his sends to both honest programs, alice's and
carol's, so that each hears him only through dave (his words forwarded fresh, showing he gets
theirs: he is there, "carried"); then he stalls, and dave stops passing him on. Every honest
program now hears him only through others, so none names him. What still holds: the match
ends, naming nobody, within the wait and ``away_after`` of bob being marked away (nobody can
stall a table), and no honest player is named. The second test stacks the extra
``away_after``: bob comes back directly for a moment, is carried again, and goes away again,
twice: his time away adds up since the game last moved, so the table still ends naming nobody
once his time away reaches the wait and one ``away_after``, not a wait per spell."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from p2pcards.absence import _watch_absence
from tests.mesh.helpers import close_all, make_table, run_async, until
from tests.table.test_forked_move import cut_between_alice_and_bob

pytestmark = [pytest.mark.network, pytest.mark.slow]  # waits on timers: goes first (tests/conftest.py)
ALICE, BOB, CAROL, DAVE = range(4)
WAIT = 2.0  # the table's wait (seconds)


def watch(meshes, seats, said):
    # the game stands still (the table's step never moves), as at a real table (lobby.py)
    return [asyncio.create_task(_watch_absence(meshes[s], WAIT, said[s].append, bot=True,
                                               progress=lambda: 0))
            for s in seats]


@run_async(timeout=60)
async def test_a_staller_whose_accomplice_carries_him_to_every_honest_program_is_bounded(
        tmp_path):
    meshes = await make_table(tmp_path, 4)
    alice, bob, carol, dave = meshes
    honest = (alice, carol)
    said: dict[int, list[str]] = {s: [] for s in range(4)}
    tasks = []
    try:
        await asyncio.sleep(1.0)
        real_send = bob._send_frames
        # bob's own frames reach dave only; the honest programs hear him through dave
        bob._send_frames = lambda seat, frames: real_send(seat, frames) if seat == DAVE else None
        await until(lambda: all(BOB in m._quiet_seats() for m in honest), 8.0,
                    "bob quiet at alice and carol")
        await until(lambda: all(m.carried(BOB) == [DAVE] for m in honest), 8.0,
                    "bob carried by dave at alice and carol")
        assert not any(BOB in m.away for m in honest)
        # only the honest programs watch (dave, the accomplice, never names bob)
        tasks = watch(meshes, (ALICE, CAROL), said)
        real_dave = dave._send_frames

        def withhold(seat, frames):  # dave passes on nothing more of bob's
            if b'"from":1' in frames[-1]:
                return
            real_dave(seat, frames)

        bob._send_frames = lambda seat, frames: None  # bob stalls ...
        dave._send_frames = withhold  # ... and dave stops carrying him
        await until(lambda: all(BOB in m.away for m in honest), 8.0, "bob away at both")
        away = time.monotonic()
        await until(lambda: all(m.stopped is not None for m in honest), 15.0,
                    "every honest program to stop the match")
        took = time.monotonic() - away
        for m in honest:  # nobody names bob (nor anyone honest): the limit, stated
            assert m.stopped.culprit is None and m.stopped.claimed is None, (m.seat, m.stopped)
        first = next(m for m in honest if m.stopped.by == m.seat)
        assert "only through dave" in first.stopped.reason, first.stopped.reason
        assert first.stopped.reason.endswith("naming nobody"), first.stopped.reason
        # ... but the table is not stalled: the wait and away_after (2 + 1.5 s), with some slack
        grace = alice.timings.away_after
        assert took <= WAIT + grace + 1.5, took
    finally:
        for t in tasks:
            t.cancel()
        await close_all(meshes)


@run_async(timeout=90)
async def test_the_extra_away_after_is_given_once_not_once_per_spell(tmp_path):
    """Bob and carol together: bob cuts his sends to alice, carol carries him, then withholds
    him (bob away at alice, carried). Just before the wait bob shows himself to alice directly
    for a moment (back), then is carried and withheld again -- twice. His time away adds up
    since the game last moved: alice ends the match naming nobody once it reaches the wait and
    one ``away_after`` (3.5 s), not a wait and ``away_after`` a spell."""
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    said: dict[int, list[str]] = {s: [] for s in range(3)}
    tasks = []
    real_bob, real_carol = bob._send_frames, carol._send_frames
    show = {"bob": False, "carol": True}
    bob._send_frames = lambda seat, frames: real_bob(seat, frames) \
        if seat != ALICE or show["bob"] else None

    def carry(seat, frames):  # carol passes bob on to alice only when told
        if seat == ALICE and b'"from":1' in frames[-1] and not show["carol"]:
            return
        real_carol(seat, frames)

    carol._send_frames = carry
    away_spans: list[float] = []
    try:
        await until(lambda: BOB in alice._quiet_seats(), 8.0, "bob quiet at alice")
        await until(lambda: alice.carried(BOB) == [CAROL], 8.0, "bob carried at alice")
        tasks = watch(meshes, (ALICE,), said)
        for spell in range(3):
            show["carol"] = False  # withheld: away at alice, carried
            await until(lambda: BOB in alice.away or alice.stopped is not None, 8.0, "bob away")
            start = time.monotonic()
            if spell == 2:
                break
            await asyncio.sleep(WAIT - 0.6)  # under the wait: not yet named, nor nobody
            assert alice.stopped is None, alice.stopped
            away_spans.append(time.monotonic() - start)
            show["bob"] = True  # a moment directly: back, the evidence gone
            await until(lambda: BOB not in alice.away, 5.0, "bob back at alice")
            assert alice.carried(BOB) is None
            show["bob"], show["carol"] = False, True  # carried again, shown there
            await until(lambda: BOB in alice._quiet_seats()
                        and alice.carried(BOB) == [CAROL], 8.0, "bob carried again")
        await until(lambda: alice.stopped is not None, 15.0, "alice's program to stop")
        last = time.monotonic() - start
        st = alice.stopped
        assert st.culprit is None and "only through carol" in st.reason, st
        # the time away counted, all spells together: the wait and one away_after (3.5 s), not
        # more (the reason rounds it to a second)
        grace = alice.timings.away_after
        counted = sum(away_spans) + last
        assert counted <= WAIT + grace + 1.0, (away_spans, last)
        m = re.search(r"was away (\d+) s", st.reason)
        assert m and int(m.group(1)) <= round(WAIT + grace + 0.5), st.reason
    finally:
        for t in tasks:
            t.cancel()
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_move_stating_one_of_ours_it_never_held_is_no_evidence_of_being_carried(
        tmp_path):
    """Forged evidence: bob's move states (in its signed ``heads``) that he holds alice's next
    message before she has sent it -- seqs one ahead, a hash he cannot know. Carol, his
    accomplice, keeps it until alice has sent that message, then passes it on; bob never got
    it (the link cut both ways, carol passing alice's messages and words to nobody). On main
    alice's program took the move as proof that bob heard her after his own frames stopped
    (``Mesh.carried`` == [carol]): a seat that left could have its absence shielded by one
    move signed in advance. Now a stated heads counts only once it is what alice holds."""
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        await asyncio.sleep(1.0)
        real_carol = carol._send_frames
        release = {"bob": False}

        def gate(seat, frames):  # no words between alice and bob; bob's move held until told
            if seat in (ALICE, BOB) and b'"t":"vouch"' in frames[-1]:
                return
            if seat == BOB and b'"from":0' in frames[-1]:
                return  # nothing of alice's reaches bob
            if seat == ALICE and b'"from":1' in frames[-1] and not release["bob"]:
                return
            real_carol(seat, frames)

        carol._send_frames = gate
        cut_between_alice_and_bob(meshes)
        real_stated = bob._stated_heads

        def forged():  # "I hold alice's next message" (he does not: it is not yet sent)
            h = real_stated()
            seqs = list(h["seqs"])
            seqs[ALICE] += 1
            return {"seqs": seqs, "hash": h["hash"]}

        bob._stated_heads = forged
        await bob.channel.broadcast("hist", {"i": 1})
        await until(lambda: carol.verifier.chains[BOB].seq == bob.verifier.chains[BOB].seq, 5.0,
                    "bob's move at carol")
        await asyncio.sleep(1.0)  # well after bob's own frames stopped reaching alice
        await alice.channel.broadcast("hist", {"i": 0})
        await asyncio.sleep(0.2)
        assert bob.verifier.chains[ALICE].seq < alice.verifier.chains[ALICE].seq
        release["bob"] = True
        await until(lambda: alice.verifier.chains[BOB].seq == bob.verifier.chains[BOB].seq, 5.0,
                    "bob's move at alice")
        # bob never held alice's message: on main, alice took it as evidence ([carol])
        assert alice.carried(BOB) is None, alice.carried(BOB)
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_word_stating_one_of_ours_it_never_held_is_no_evidence_of_being_carried(
        tmp_path):
    """The same forgery in bob's signed words (heads) rather than a move: each states alice's
    chain one message ahead of what he holds, with a hash he cannot know; carol passes them on
    once alice has sent that message. On main alice took it as proof (``carried`` == [carol]);
    now only our own hash at that seq counts."""
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    try:
        await asyncio.sleep(1.0)
        real_carol = carol._send_frames
        release = {"bob": False}

        def gate(seat, frames):  # nothing of alice's to bob; bob's words held until told
            if seat == BOB and (b'"t":"vouch"' in frames[-1] or b'"from":0' in frames[-1]):
                return
            if seat == ALICE and b'"from":1' in frames[-1] and not release["bob"]:
                return
            real_carol(seat, frames)

        carol._send_frames = gate
        cut_between_alice_and_bob(meshes)
        real_heads = bob._heads_list
        ahead = alice.verifier.chains[ALICE].seq + 1

        def forged():  # "I hold alice's next message": he never gets it
            heads = real_heads()
            heads[ALICE] = [ahead, heads[ALICE][1]]
            return heads

        bob._heads_list = forged
        await asyncio.sleep(1.0)  # well after bob's own frames stopped reaching alice
        await alice.channel.broadcast("hist", {"i": 0})
        await asyncio.sleep(0.3)
        assert bob.verifier.chains[ALICE].seq < ahead
        release["bob"] = True
        await until(lambda: alice._through_state.get(BOB) is not None, 5.0,
                    "a word of bob's forwarded to alice")
        await asyncio.sleep(0.5)  # a few of them
        assert bob.verifier.chains[ALICE].seq < ahead
        # on main: alice took the stated message as evidence ([carol])
        assert alice.carried(BOB) is None, alice.carried(BOB)
    finally:
        await close_all(meshes)
