"""Garbage, forgeries, replays and equivocation are caught, logged and named; honest play goes on."""

import asyncio
import contextlib
import logging

import zmq
import zmq.asyncio

from protocol.envelope import GENESIS, canonical, envelope_hash, seal
from protocol.identity import Identity
from protocol.mesh import K_CTL, K_ENV, K_HS

from .helpers import close_all, make_table, raw_dealer, run_async, until


async def exchange(meshes, tag):
    """Everyone broadcasts and sends privately once; everyone receives it all."""
    for m in meshes:
        await m.channel.broadcast("b", {"tag": tag, "from": m.seat})
        await m.channel.send((m.seat + 1) % len(meshes), "p", {"tag": tag})
    for m in meshes:
        got = sorted([await m.channel.recv("b", 5) for _ in range(len(meshes) - 1)])
        assert [b["tag"] for _, b in got] == [tag] * (len(meshes) - 1)
        assert (await m.channel.recv("p", 5))[1] == {"tag": tag}


@run_async()
async def test_garbage_and_bad_envelopes_are_dropped_with_a_log_line(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="p2pcards.mesh")
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    await exchange(meshes, "before")
    ctx = zmq.asyncio.Context()
    raw = raw_dealer(ctx, host)  # an attacker who knows the code but holds no seat
    # what a connection that has proven a seat sends is read and checked: bob's, modified
    seated = bob._send_frames
    try:
        old = bob.verifier.chains[1].get(1)
        nxt = bob.verifier.chains[1].seq + 1
        head = bob.verifier.chains[1].head
        forged = seal(Identity.generate(), host.table, 1, nxt, head, "b", {"tag": "forged"})
        wrong_table = seal(bob.identity, "ab" * 16, 1, nxt, head, "b", {"tag": "elsewhere"})
        ctl = {"t": "heads", "table": host.table, "from": 1, "sess": "x", "boot": 1, "ctr": 1}
        ctl["sig"] = "AAAA"
        attempts = [
            ([b"just one frame"], "expected 2 frames"),
            ([b"a", b"b", b"c"], "expected 2 frames"),
            ([b"zzz", b"{}"], "unknown frame kind"),
            # refused on their bytes, unparsed: no envelope's header at their end
            ([K_ENV, b"\x00\xffnot json"], "not an envelope in canonical form"),
            ([K_ENV, b"[1,2,3]"], "not an envelope in canonical form"),
            ([K_ENV, b'{"v": 1}'], "not an envelope in canonical form"),
            ([K_ENV, canonical({"v": 1, "hello": "world"})], "not an envelope in canonical form"),
            ([K_ENV, canonical(forged)], "bad signature"),
            ([K_ENV, canonical(wrong_table)], "wrong table"),
            ([K_ENV, canonical(old)], "duplicate"),  # a replay of bob's first envelope
            ([K_CTL, canonical(ctl)], "bad signature"),
            # a seat's connection has no handshake left to make (red team 16a)
            ([K_HS, b"{}"], "handshake message on a connection that proved a seat"),
        ]
        for frames, _ in attempts:
            seated(0, frames)
        # from a connection without a seat, only a handshake or a small control message is read
        await raw.send_multipart([K_ENV, canonical(forged)])
        await raw.send_multipart([K_CTL, b"{" + b'"x":"' + b"a" * 9000 + b'"}'])
        await until(lambda: host.budgets.dropped >= 2, what="refused unread")
        # replay a genuine control message of bob's: the counter gives it away
        sent = {}
        orig = bob._send_frames

        def spy(seat, frames):
            if seat == 0 and frames[0] == K_CTL:
                sent["ctl"] = frames
            orig(seat, frames)

        bob._send_frames = spy
        bob._send_heads(0, reply=False)
        await until(lambda: "ctl" in sent)
        await asyncio.sleep(0.05)
        await raw.send_multipart(sent["ctl"])
        await until(lambda: "replayed control message" in caplog.text, what="replayed ctl logged")
        for _, words in attempts:
            await until(lambda w=words: w in caplog.text, what=f"a log line with {words!r}")
        assert not [e for e in host.events if e.kind in ("fault", "equivocation")]
        # each frame bob's connection sent that was refused is counted against him (6
        # envelopes, the one-frame message, the unknown kind, the badly signed control message
        # and the handshake), within the budget an honest program's one-off bug may use: nobody
        # is named
        await until(lambda: host._rejects.get(1) == 10, what="bob's 10 refused frames counted")
        assert host.stopped is None
        await exchange(meshes, "after")  # and everyone plays on
    finally:
        raw.close(0)
        ctx.term()
        await close_all(meshes)


@run_async()
async def test_equivocation_is_named_by_head_comparison(tmp_path):
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        await exchange(meshes, "honest")
        # bob tells alice one thing and carol another, under the same sequence number
        chain = bob.verifier.chains[1]
        a = seal(bob.identity, bob.table, 1, chain.seq + 1, chain.head, "b", {"card": "ace"})
        b = seal(bob.identity, bob.table, 1, chain.seq + 1, chain.head, "b", {"card": "king"})
        bob.verifier.append(a, envelope_hash(a))
        bob._sent_at.append(0.0)
        bob._send_frames(0, [K_ENV, canonical(a)])
        bob._send_frames(2, [K_ENV, canonical(b)])
        assert await host.channel.recv("b", 5) == (1, {"card": "ace"})
        assert await carol.channel.recv("b", 5) == (1, {"card": "king"})
        found = await host.checkpoint(5)
        assert len(found) == 1
        e = found[0]
        assert e.seat == 1
        assert {envelope_hash(e.first), envelope_hash(e.second)} == {
            envelope_hash(a),
            envelope_hash(b),
        }
        # the proof stands on its own: both carry bob's valid signature and the same seq
        from protocol.envelope import check_signature

        for env in (e.first, e.second):
            check_signature(env, bob.identity.public_key)
        assert e.first["seq"] == e.second["seq"]
        # carol learns it too (from her own comparison or alice's evidence), with the proof
        await until(lambda: [x.seat for x in carol.equivocations] == [1], what="carol names bob")
        ev = [x for x in host.events if x.kind == "equivocation"]
        assert ev and ev[0].seat == 1 and ev[0].name == "bob" and len(ev[0].proof) == 2
        # and it is in the transcript
        from protocol.transcript import read_transcript

        t = read_transcript(host.transcript_path)
        assert [f["seat"] for f in t.faults] == [1]
    finally:
        await close_all(meshes)


@run_async()
async def test_a_genesis_forgery_is_not_blamed_on_anyone(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="p2pcards.mesh")
    meshes = await make_table(tmp_path, 2)
    host, bob = meshes
    try:
        ctx = zmq.asyncio.Context()
        raw = raw_dealer(ctx, bob)
        env = seal(Identity.generate(), host.table, 0, 1, GENESIS, "b", {"x": 1})
        await raw.send_multipart([K_ENV, canonical(env)])  # refused unread: no seat proven
        await until(lambda: bob.budgets.dropped >= 1, what="refused")
        host._send_frames(1, [K_ENV, canonical(env)])  # read on a seated connection
        await until(lambda: "bad signature" in caplog.text)
        raw.close(0)
        ctx.term()
        assert bob.equivocations == []
        await host.channel.broadcast("b", {"x": 2})
        assert await bob.channel.recv("b", 5) == (0, {"x": 2})
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_an_address_zeromq_refuses_takes_no_seat_and_prints_no_traceback(tmp_path, caplog):
    """Red team: a joiner with the code advertised ``tcp://-:7000``. The address check let it
    through, the host took it into the roster, then ZeroMQ refused to dial it: a traceback in the
    host's log, a ghost seat nobody was told of, the next honest joiner's join failing on the
    ghost's address, the one after refused as 'full'. Now such a hello is refused where it is
    read, and the table fills with the honest players."""
    from protocol.mesh import JoinFailed, Mesh, Timings

    from .helpers import LOOPBACK, NAMES, identity

    caplog.set_level(logging.DEBUG, logger="p2pcards")
    t = Timings(**{**Timings.fast().__dict__, "handshake_timeout": 1.5})
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name=NAMES[0])
    meshes = [host]
    try:
        async def mallory(i: int, addr: str) -> None:
            class Advertising(Mesh):  # a joiner announcing ``addr``
                def _advertised(self, ip):
                    return addr

            with contextlib.suppress(JoinFailed, ValueError):  # refused: times out
                meshes.append(await Advertising.join(identity(tmp_path, 7 + i), host.address,
                                                     host.code, f"mallory{i}", bind=LOOPBACK,
                                                     timings=t))

        bad = ("tcp://-:7000", "tcp://é.lan:7000", "tcp://a:٧٠٠٠")
        # the three at once (each waits out its 1.5 s handshake timeout)
        await asyncio.gather(*(mallory(i, addr) for i, addr in enumerate(bad)))
        assert set(host._members) == {0}, host._members
        for i in (1, 2):
            meshes.append(await Mesh.join(identity(tmp_path, i), host.address, host.code,
                                          NAMES[i], bind=LOOPBACK, timings=t))
        await asyncio.gather(*(m.wait_full(10) for m in meshes))
        assert [m.name for m in host.roster] == NAMES[:3]
        assert "Traceback" not in caplog.text
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_link_with_an_address_zeromq_refuses_is_dropped_in_one_line(tmp_path, caplog):
    """Red team: a seated peer's signed link with ``tcp://-:7000`` reached ZeroMQ's connect,
    whose error no handler caught: a traceback in the log (and, with no logging set up, on the
    player's terminal). Now the entry is refused where it is read; the peer keeps the address it
    had, and the table goes on."""
    caplog.set_level(logging.DEBUG, logger="p2pcards")
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        before = host._members[1].addr
        bad = bob._own_entry(bob.name_of(1), "tcp://-:7000")
        bob._send_ctl(0, "link", {"entry": bad.to_json(), "heads": bob._heads_list()})
        await asyncio.sleep(0.5)
        assert host._members[1].addr == before
        await exchange(meshes, "after")
        assert "Traceback" not in caplog.text and "error handling a frame" not in caplog.text
    finally:
        await close_all(meshes)
