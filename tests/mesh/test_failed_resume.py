"""Issue 16, item 2: "A resume that fails never stops the table for the others: they keep waiting,
and say so." On loopback: carol crashes in the middle of a deck step, then every way a resume can
fail is tried while alice and bob wait for her share (a damaged record, another player's record,
a program that connects and dies in the middle of the handshake, a resume whose announced address
the others cannot reach); the table never stops and nobody is named, the waiting is said aloud,
and carol's real resume finally completes the step."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import shutil
import socket

import pytest
import zmq.asyncio

from p2pcards.absence import _watch_absence
from p2pcards.lobby import PatientChannel
from protocol.envelope import canonical
from protocol.mesh import K_HS, Mesh, MeshError
from protocol.mesh.common import MESH_VERSION
from protocol.transcript import TranscriptError

from .helpers import LOOPBACK, close_all, identity, make_table, raw_dealer, run_async, until

pytestmark = pytest.mark.network

STEP = 5.0  # the deck step's timeout for a present peer, in this test's fast timings


def dead_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


class Unreachable(Mesh):
    """A resumed program that announces an address the others cannot reach (issue 16 item 1:
    a resumed joiner announced loopback): its messages get out, theirs never come back."""

    port_for_others = 0

    def _advertised(self, toward: str | None) -> str:
        return f"tcp://{LOOPBACK}:{self.port_for_others}"


async def waits_for_carol(mesh: Mesh) -> tuple[int, dict]:
    """A deck step: our share is out, carol's is awaited (timing out only while she is present
    and reached)."""
    return await PatientChannel(mesh.channel, mesh).recv("deck", timeout=STEP)


@pytest.mark.slow  # (goes first: tests/conftest.py)
@run_async(timeout=150)
async def test_a_failed_resume_never_stops_the_table_and_the_others_say_they_wait(tmp_path):
    meshes = await make_table(tmp_path, 3)
    alice, bob, carol = meshes
    said: dict[int, list[str]] = {0: [], 1: []}
    watchers = [asyncio.create_task(_watch_absence(m, 600.0, said[m.seat].append, False))
                for m in (alice, bob)]
    resumed: list[Mesh] = []
    steps: list[asyncio.Task] = []
    try:
        await carol.channel.broadcast("warm", {"up": 1})
        await until(lambda: alice.heads() == bob.heads() == carol.heads(), what="all in step")
        carol_home, table = carol.home, carol.table
        await carol.close(announce=False)  # carol's machine crashes
        steps = [asyncio.create_task(waits_for_carol(m)) for m in (alice, bob)]
        for m in (alice, bob):  # the deck step goes on: their shares go out while she is away
            await m.channel.broadcast("share", {"from": m.seat})
        await until(lambda: 2 in alice.away and 2 in bob.away, what="carol away")

        # 1. a damaged record: the resume fails at carol's, in words; nobody else hears of it
        record = carol.transcript_path
        damaged = tmp_path / "damaged.jsonl"
        damaged.write_text("this is not a transcript\n")
        with pytest.raises(TranscriptError) as err:  # the CLI prints it as one line
            await Mesh.resume(identity(tmp_path, 2), transcript=damaged, bind=LOOPBACK,
                              timings=carol.timings)
        assert str(err.value) and "\n" not in str(err.value)

        # 2. another player's record (dave runs carol's resume): refused at dave's, in words
        stolen = tmp_path / "stolen.jsonl"
        shutil.copy(record, stolen)
        with pytest.raises(MeshError, match="belongs to another identity"):
            await Mesh.resume(identity(tmp_path, 3), transcript=stolen, bind=LOOPBACK,
                              timings=carol.timings)

        # 3. carol's original join command, killed in the middle of the handshake: its hello is
        # answered with a challenge, and the program is gone before it replies
        ctx = zmq.asyncio.Context()
        try:
            for m in (alice, bob):
                sock = raw_dealer(ctx, m)
                hello = {"t": "hello", "v": MESH_VERSION, "name": "carol",
                         "key": identity(tmp_path, 2).key_hex,
                         "addr": f"tcp://{LOOPBACK}:{dead_port()}", "nonce": secrets.token_hex(32)}
                await sock.send_multipart([K_HS, canonical(hello)])
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(sock.recv_multipart(), 5)
                sock.close(0)
        finally:
            ctx.destroy(0)

        # 4. carol resumes but announces an address nobody can reach: she is heard, not reached
        Unreachable.port_for_others = dead_port()
        # (on a fresh port: on her old one, the others' old links would still reach her)
        oneway = await Unreachable.resume(identity(tmp_path, 2), table, bind=LOOPBACK, port=0,
                                          timings=carol.timings, home=carol_home)
        resumed.append(oneway)
        await until(lambda: 2 not in alice.away and 2 not in bob.away, what="carol heard again")
        await until(lambda: 2 in alice.unreached() and 2 in bob.unreached(), timeout=30,
                    what="carol seen as unreached")
        # longer than the step's timeout (which would have run from when she was heard again,
        # before the wait above): it must not run out
        await asyncio.sleep(STEP + 2.0)
        for s in (0, 1):  # said, with the time, and not every second
            lines = [ln for ln in said[s] if "do not reach" in ln
                     and f"waiting for carol (seat 3, {alice.roster[2].fingerprint})" in ln]
            assert 1 <= len(lines) <= 2 and "rerun their join command" in lines[0], said[s]
        await oneway.close(announce=False)  # that program dies too
        await until(lambda: 2 in alice.away and 2 in bob.away, what="carol away again")

        # all along, the step waited and the table stood
        assert not any(t.done() for t in steps), [t for t in steps if t.done()]
        assert alice.stopped is None and bob.stopped is None
        assert not alice._accused and not bob._accused

        # 5. carol's real resume: she catches up and sends her share; the step completes
        carol2 = await Mesh.resume(identity(tmp_path, 2), table, bind=LOOPBACK,
                                   timings=carol.timings, home=carol_home)
        resumed.append(carol2)
        await carol2.channel.broadcast("deck", {"share": "carol"})
        got = await asyncio.wait_for(asyncio.gather(*steps), 30)
        assert [g[0] for g in got] == [2, 2] and all(g[1] == {"share": "carol"} for g in got)
        assert alice.stopped is None and bob.stopped is None
        assert any("waiting for carol" in line for line in said[0])
    finally:
        for t in (*watchers, *steps):
            t.cancel()
        with contextlib.suppress(Exception):
            await close_all([alice, bob, *resumed])
