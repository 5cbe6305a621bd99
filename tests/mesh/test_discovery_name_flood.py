"""Red team (round 6b, #4): ``join`` says it looks for tables for 3 seconds, but after the look
it asked every name heard for its answer one at a time, 1.5 s for a name nobody answers for.
Written as the attacker: mallory (no code, no seat) multicasts PTR records for 40 made-up table
names every 0.3 s and never answers for them; the look took 3 + 1.5 × 40 = 63 s, silently (one
mDNS packet holds about 200 names: five minutes). Now every name is asked at once, within one
deadline, and alice's real table is still listed. On 127.0.0.1 only; only the names this test
made are looked at."""

from __future__ import annotations

import asyncio
import time

from protocol import discovery
from protocol.discovery import SERVICE_TYPE, browse, instance_name

from .helpers import run_async
from .test_discovery_spoof import advertised_alice

LO = ["127.0.0.1"]
FORGED = 40


async def flood_names(stop: asyncio.Event) -> None:
    from zeroconf import DNSOutgoing, DNSPointer, IPVersion, const
    from zeroconf.asyncio import AsyncZeroconf

    zc = AsyncZeroconf(interfaces=LO, ip_version=IPVersion.V4Only)

    def packet(ttl: int):
        out = DNSOutgoing(const._FLAGS_QR_RESPONSE | const._FLAGS_AA)
        for i in range(FORGED):
            out.add_answer_at_time(DNSPointer(SERVICE_TYPE, const._TYPE_PTR, const._CLASS_IN, ttl,
                                              f"forged{i:03d} 0000-0000.{SERVICE_TYPE}"), 0)
        return out

    try:
        while not stop.is_set():
            zc.zeroconf.async_send(packet(4500))
            await asyncio.sleep(0.3)
    finally:
        zc.zeroconf.async_send(packet(0))  # goodbyes: no later test hears mallory's names
        await asyncio.sleep(0.1)
        await zc.async_close()


@run_async(120)
async def test_a_flood_of_names_nobody_answers_for_does_not_stretch_the_look(tmp_path):
    alice, ad, me = await advertised_alice(tmp_path)
    stop = asyncio.Event()
    mallory = asyncio.create_task(flood_names(stop))
    try:
        await asyncio.sleep(0.5)
        name = instance_name("alice", me.fingerprint)
        listed, took = [], 0.0
        for _ in range(3):  # under load alice's responder can be slow to answer: look again
            t0 = time.monotonic()
            found = await browse(1.0, interfaces=LO)
            took = max(took, time.monotonic() - t0)
            listed = [t for t in found if t.name == name]
            if listed:
                break
        # the look and one deadline for every name heard, with room for a loaded machine
        assert took < 1.0 + discovery.ASK_SECONDS + 3.0, took
        assert [t.fingerprint for t in listed] == [me.fingerprint]
        assert not [t for t in found if t.name.startswith("forged")]  # nobody answered for them
    finally:
        stop.set()
        await mallory
        await ad.close()
        await alice.close()
