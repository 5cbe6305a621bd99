"""Red team (round 4, #2): forged mDNS goodbyes. A goodbye is a record with TTL 0; mDNS does not
authenticate it, so anyone on the LAN can send one for anybody's record. Written as the
attacker: mallory (no code, no seat) sends goodbyes for alice's own records every 0.2 s, with
or without her own answer under alice's exact name. On 127.0.0.1 only (zeroconf bound to the
loopback interface); skipped where that cannot bind. mDNS on the loopback is machine-wide:
only the names and ports these tests created are looked at."""

from __future__ import annotations

import asyncio
import contextvars
import socket

import pytest

from protocol.discovery import (
    SERVICE_TYPE,
    TableInfo,
    _Answers,
    advertise,
    browse,
    encode_txt,
    instance_name,
)
from protocol.identity import Identity

from .helpers import run_async
from .test_discovery_spoof import advertised_alice, alice_and_mallory, end

LO = ["127.0.0.1"]
LOOK = 3.0  # join's look (net.BROWSE_SECONDS)


def goodbyes(records: str, ad) -> list:
    """Goodbyes (TTL 0) for those of alice's records named in ``records`` (``ptr``, ``srv``,
    ``txt``, ``a``), made from what she announces, as anyone on the LAN can make them."""
    from zeroconf import DNSAddress, DNSPointer, DNSService, DNSText, const

    unique = const._CLASS_IN | const._CLASS_UNIQUE
    full, server = ad.info.name, ad.info.server
    out = []
    if "ptr" in records.split():
        out.append(DNSPointer(SERVICE_TYPE, const._TYPE_PTR, const._CLASS_IN, 0, full))
    if "srv" in records.split():
        out.append(DNSService(full, const._TYPE_SRV, unique, 0, 0, 0, ad.info.port, server))
    if "txt" in records.split():
        out.append(DNSText(full, const._TYPE_TXT, unique, 0, ad.info.text))
    if "a" in records.split():
        out.append(DNSAddress(server, const._TYPE_A, unique, 0, socket.inet_aton("127.0.0.1")))
    return out


async def say_goodbye(zc, records: list) -> None:
    """Mallory sends ``records`` every 0.2 s, until cancelled."""
    from zeroconf import DNSOutgoing, const

    while True:
        out = DNSOutgoing(const._FLAGS_QR_RESPONSE | const._FLAGS_AA)
        for r in records:
            out.add_answer_at_time(r, 0)
        zc.zeroconf.async_send(out)
        await asyncio.sleep(0.2)


def only(name: str, monkeypatch) -> None:
    """``join``'s look sees only the tables under ``name`` (another script may be announcing
    on this machine's loopback)."""
    import protocol.discovery as discovery

    real_browse = discovery.browse

    async def ours(seconds, **kw):
        return [t for t in await real_browse(seconds, **kw) if t.name == name]

    monkeypatch.setattr(discovery, "browse", ours)


SAID: contextvars.ContextVar[list[str]] = contextvars.ContextVar("said")


def joins_say_apart(net, monkeypatch) -> None:
    """What each join's look says goes to its own list (``looks`` runs two at once)."""
    monkeypatch.setattr(net, "say", lambda text: SAID.get().append(text))


async def looks(net, name: str) -> list[tuple[list[TableInfo], object, str]]:
    """Two rounds, the second 1.5 s after the first, so the goodbyes land at different points
    of their looks; in each a browse and join's look side by side: for each round, the tables
    the browse found under ``name``, what join picked and what it said."""

    async def one(delay: float):
        await asyncio.sleep(delay)
        said: list[str] = []
        SAID.set(said)  # (the two tasks below see this list: they copy this context)
        found, picked = await asyncio.gather(browse(LOOK, interfaces=LO),
                                             net._pick_table("127.0.0.1"))
        return [t for t in found if t.name == name], picked, "\n".join(said)

    return list(await asyncio.gather(one(0.0), one(1.5)))


@pytest.mark.parametrize("records", ["srv", "ptr srv txt a"])
@run_async(120)
async def test_a_forged_goodbye_for_the_hosts_answer_never_leaves_the_forged_one_unmarked(
        tmp_path, monkeypatch, records):
    """Mallory answers under alice's name with alice's fingerprint and her own address, and
    sends goodbyes for alice's own records every 0.2 s. The goodbye erased alice's answer: the
    list showed one unmarked line, pointing at mallory, and a join with nobody at a terminal
    took it. A goodbye now erases nothing heard during the look: mallory's line is always
    marked (both are listed), and nobody is sent to either without a person choosing."""
    from p2pcards import net

    alice, ad, mallory, name, fp = await alice_and_mallory(tmp_path, "addr")
    bye = asyncio.create_task(say_goodbye(mallory[0], goodbyes(records, ad)))
    try:
        await asyncio.sleep(1.0)
        only(name, monkeypatch)  # (join's look only: ``browse`` here is the real one)
        monkeypatch.setattr("sys.stdin.isatty", lambda: False)
        monkeypatch.setattr(net, "BROWSE_SECONDS", LOOK)
        joins_say_apart(net, monkeypatch)
        both = 0
        for found, picked, out in await looks(net, name):
            for t in found:
                if t.port == 40999:
                    assert t.conflict >= 2 and "announcements under one name" in str(t), found
            both += sorted(t.port for t in found) == sorted([alice.port, 40999])
            assert picked is None, (picked, out)
            assert "announced more than once under one name" in out, out
        assert both >= 1
    finally:
        bye.cancel()
        await asyncio.gather(bye, return_exceptions=True)
        await end(alice, ad, mallory)


@pytest.mark.parametrize("records", ["ptr", "ptr srv txt a"])
@run_async(120)
async def test_a_forged_goodbye_does_not_hide_the_table(tmp_path, monkeypatch, records):
    """Mallory, without an answer of her own, sends goodbyes for alice's records every 0.2 s.
    The browser's Removed dropped alice's name: "No table found". Now the name stays and alice's
    own answer is listed, unmarked (a goodbye beside the one answer heard is no conflict), and a
    join with nobody at a terminal takes it."""
    from zeroconf import IPVersion
    from zeroconf.asyncio import AsyncZeroconf

    from p2pcards import net

    alice, ad, me = await advertised_alice(tmp_path)
    name = instance_name("alice", me.fingerprint)
    where = alice.address.removeprefix("tcp://")
    zc = AsyncZeroconf(interfaces=LO, ip_version=IPVersion.V4Only)
    bye = asyncio.create_task(say_goodbye(zc, goodbyes(records, ad)))
    try:
        await asyncio.sleep(1.0)
        only(name, monkeypatch)  # (join's look only: ``browse`` here is the real one)
        monkeypatch.setattr("sys.stdin.isatty", lambda: False)
        monkeypatch.setattr(net, "BROWSE_SECONDS", LOOK)
        joins_say_apart(net, monkeypatch)
        for found, picked, out in await looks(net, name):
            assert [(t.address, t.conflict) for t in found] == [(where, 0)], found
            assert picked is not None and picked.address == where, out
    finally:
        bye.cancel()
        await asyncio.gather(bye, return_exceptions=True)
        try:
            await zc.async_close()
        finally:
            try:
                await ad.close()
            finally:
                await alice.close()


@run_async(60)
async def test_a_table_withdrawn_during_the_look_stays_listed_unmarked():
    """A host that really closes its table during the look sends the same goodbyes mallory can
    forge, so they cannot be told apart: the answer heard stays listed (joining it then fails
    with "no answer from ..."), and it is not marked, the goodbye being for that very answer."""
    fp = Identity.generate().fingerprint
    try:
        ad = await advertise("alice", 45679, game="go-out-girl", free=2, seats=3,
                             fingerprint=fp, addresses=LO, interfaces=LO)
    except (OSError, RuntimeError) as e:
        pytest.skip(f"zeroconf cannot bind to 127.0.0.1 here ({e})")
    try:
        look = asyncio.create_task(browse(LOOK, interfaces=LO))
        await asyncio.sleep(1.5)
        await ad.close()
        found = [t for t in await look if t.fingerprint == fp]
        assert [(t.address, t.conflict) for t in found] == [("127.0.0.1:45679", 0)], found
    finally:
        await ad.close()


def answer_records(full: str, server: str, port: int, fp: str, ttl: int) -> list:
    from zeroconf import DNSAddress, DNSService, DNSText, const

    unique = const._CLASS_IN | const._CLASS_UNIQUE
    txt = b"".join(bytes([len(item)]) + item for item in
                   (f"{k}={v}".encode() for k, v in encode_txt("go-out-girl", 2, 3, fp).items()))
    return [DNSService(full, const._TYPE_SRV, unique, ttl, 0, 0, port, server),
            DNSText(full, const._TYPE_TXT, unique, ttl, txt),
            DNSAddress(server, const._TYPE_A, unique, ttl, socket.inet_aton("127.0.0.1"))]


def test_a_goodbye_for_another_answer_marks_the_one_heard_and_erases_nothing():
    """What the listener does with goodbyes, record by record. A goodbye for the very answer
    heard (a host closing) erases nothing and marks nothing. A goodbye for another answer
    under the name counts as a second announcement: the one line heard is marked, so it is
    never taken without a person. (zeroconf passes on only goodbyes for records in its cache,
    so such a goodbye is for a record heard before the look began, by a zeroconf given to
    ``browse``.)"""
    from zeroconf import current_time_millis

    fp = "K7QF-2M9X"
    full = f"alice {fp}.{SERVICE_TYPE}"
    heard = _Answers()

    def hear(records: list) -> None:
        now = current_time_millis()  # (a goodbye has expired once it is made)
        for r in records:
            assert r.is_expired(now) == (r.ttl == 0)
            heard._record(r, now)

    hear(answer_records(full, "mallory.local.", 40999, fp, 120))
    hear(answer_records(full, "mallory.local.", 40999, fp, 0))
    assert [(t.address, t.conflict) for t in heard.tables(full)] == [("127.0.0.1:40999", 0)]
    hear(answer_records(full, "p2pcards-k7qf2m9x-4000.local.", 4000, fp, 0))
    found = heard.tables(full)
    assert [(t.address, t.conflict) for t in found] == [("127.0.0.1:40999", 2)], found
    assert "one of 2 announcements under one name" in str(found[0])


@run_async(30)
async def test_nobody_at_a_terminal_never_takes_a_lone_marked_line(monkeypatch, capsys):
    """A single line can be marked (the other announcement under its name was a goodbye): with
    nobody at a terminal it was taken because it was the only line."""
    import protocol.discovery as discovery
    from p2pcards import net

    lone = TableInfo(name="alice K7QF-2M9X", host="127.0.0.1", port=40999, game="go-out-girl",
                     free=2, seats=3, version="1", fingerprint="K7QF-2M9X", conflict=2)

    async def one_marked(seconds, **kw):
        return [lone]

    monkeypatch.setattr(discovery, "browse", one_marked)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert await net._pick_table("127.0.0.1") is None
    out = capsys.readouterr().out
    assert "announced more than once under one name" in out
    assert "join it by its address" in out, out
