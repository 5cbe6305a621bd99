"""Red team (round 5, #2): a forged A record for the host's own server name. Mallory (no code, no
seat, no code of her own either) multicasts, unasked, an A record for alice's server name
``p2pcards-<fp>-<port>.local.`` -- built only from the public fingerprint and port -- with her
own address. The list showed one line, with alice's name and fingerprint, unmarked, at
mallory's address, and a join with nobody at a terminal went there. Now the host states its
addresses and port in its TXT record: an address not among them is not used. On 127.0.0.1
only (mallory's address is 127.0.0.9, which nobody listens on); only what these tests created
is read."""

from __future__ import annotations

import asyncio
import socket

from protocol.discovery import SERVICE_TYPE, _Answers, advertise, browse, encode_txt
from protocol.identity import Identity

from .helpers import run_async
from .test_discovery_spoof import LO, advertised_alice

EVIL = "127.0.0.9"
FP = "K7QF-2M9X"
FULL = f"alice {FP}.{SERVICE_TYPE}"
SERVER = "p2pcards-k7qf2m9x-4000.local."


def _txt(props: dict[str, str]) -> bytes:
    return b"".join(bytes([len(item)]) + item for item in
                    (f"{k}={v}".encode() for k, v in props.items()))


def _hear(heard: _Answers, *packets: list) -> None:
    from zeroconf import current_time_millis

    for records in packets:  # one packet's records together, as zeroconf hands them over
        heard.async_update_records(None, current_time_millis(), [_Update(r) for r in records])


class _Update:  # zeroconf's RecordUpdate: (new, old)
    def __init__(self, new) -> None:
        self.new, self.old = new, None


def _answer(txt: dict[str, str], server: str = SERVER, port: int = 4000) -> list:
    from zeroconf import DNSService, DNSText, const

    unique = const._CLASS_IN | const._CLASS_UNIQUE
    return [DNSService(FULL, const._TYPE_SRV, unique, 120, 0, 0, port, server),
            DNSText(FULL, const._TYPE_TXT, unique, 4500, _txt(txt))]


def _a(ip: str, server: str = SERVER) -> list:
    from zeroconf import DNSAddress, const

    return [DNSAddress(server, const._TYPE_A, const._CLASS_IN | const._CLASS_UNIQUE, 120,
                       socket.inet_aton(ip))]


ALICE_TXT = {"game": "go-out-girl", "free": "2", "seats": "3", "v": "1", "fp": FP,
             "at": "127.0.0.1", "port": "4000"}


def test_an_address_the_host_does_not_state_is_not_used():
    """Mallory's A record is heard first (she sends one every 50 ms), alice's after: the line
    is alice's, at her own address, and unmarked (nothing else was announced under the name)."""
    heard = _Answers()
    _hear(heard, _a(EVIL), _answer(ALICE_TXT) + _a("127.0.0.1"), _a(EVIL))
    assert [(t.address, t.conflict) for t in heard.tables(FULL)] == [("127.0.0.1:4000", 0)]


def test_only_forged_addresses_heard_list_no_line_at_them():
    """Alice's own A record not heard at all (only mallory's): no line sends anyone to 127.0.0.9."""
    heard = _Answers()
    _hear(heard, _a(EVIL), _answer(ALICE_TXT))
    assert [t.address for t in heard.tables(FULL)] == []


def test_a_host_with_several_addresses_is_one_unmarked_line():
    """An honest host on two networks states both: its A records, heard in different packets
    and in any order, are one table, not a conflict."""
    heard = _Answers()
    txt = {**ALICE_TXT, "at": "192.168.1.5,10.0.0.7"}
    _hear(heard, _answer(txt) + _a("10.0.0.7"), _a("192.168.1.5"), _a("10.0.0.7"))
    assert [(t.address, t.conflict) for t in heard.tables(FULL)] == [("10.0.0.7:4000", 0)]


def test_a_forged_txt_with_mallorys_address_is_a_second_announcement():
    """Mallory also forges the TXT (her address in ``at``): two announcements under one name,
    both marked; neither is taken by a script."""
    heard = _Answers()
    _hear(heard, _answer(ALICE_TXT) + _a("127.0.0.1"),
          _answer({**ALICE_TXT, "at": EVIL}) + _a(EVIL))
    found = heard.tables(FULL)
    assert sorted((t.address, t.conflict) for t in found) == [("127.0.0.1:4000", 2),
                                                             ("127.0.0.9:4000", 2)], found


def test_a_host_that_does_not_state_its_addresses_heard_at_two_is_marked():
    """A TXT without ``at`` (a host of an earlier version): two addresses for its server are
    at most one host's; the line is marked, so a script does not take it."""
    heard = _Answers()
    old = {k: v for k, v in ALICE_TXT.items() if k not in ("at", "port")}
    _hear(heard, _a(EVIL), _answer(old) + _a("127.0.0.1"))
    found = heard.tables(FULL)
    assert [(t.address, t.conflict) for t in found] == [("127.0.0.9:4000", 2)], found
    assert "one of 2 announcements under one name" in str(found[0])


def test_the_txt_states_addresses_and_port_that_fit():
    txt = encode_txt("go-out-girl", 2, 3, FP, addresses=["10.0.0.7", "192.168.1.5"], port=4000)
    assert (txt["at"], txt["port"]) == ("10.0.0.7,192.168.1.5", "4000")
    many = encode_txt("go-out-girl", 2, 3, FP, addresses=[f"10.0.{i}.{i}" for i in range(40)],
                      port=4000)
    assert len(b"at=" + many["at"].encode()) <= 255 and many["at"].startswith("10.0.0.0,10.0.1.1")


async def _flood(zc, server: str) -> None:
    """Mallory: an A record for ``server`` at her address, every 50 ms, until cancelled."""
    from zeroconf import DNSAddress, DNSOutgoing, const

    while True:
        out = DNSOutgoing(const._FLAGS_QR_RESPONSE | const._FLAGS_AA)
        out.add_answer_at_time(DNSAddress(server, const._TYPE_A, const._CLASS_IN, 120,
                                          socket.inet_aton(EVIL)), 0)
        zc.zeroconf.async_send(out)
        await asyncio.sleep(0.05)


@run_async(90)
async def test_a_forged_a_record_for_the_hosts_server_sends_no_script_to_mallory(
        tmp_path, monkeypatch, capsys):
    from zeroconf import IPVersion
    from zeroconf.asyncio import AsyncZeroconf

    from p2pcards import net

    alice, ad, me = await advertised_alice(tmp_path)
    where = alice.address.removeprefix("tcp://")
    zc = AsyncZeroconf(interfaces=LO, ip_version=IPVersion.V4Only)
    flood = asyncio.create_task(_flood(zc, ad.info.server))
    try:
        await asyncio.sleep(1.0)
        import protocol.discovery as discovery
        real_browse = discovery.browse

        async def ours(seconds, **kw):
            return [t for t in await real_browse(seconds, **kw) if t.fingerprint == me.fingerprint]
        monkeypatch.setattr(discovery, "browse", ours)  # join's look (``browse`` here: the real)
        monkeypatch.setattr("sys.stdin.isatty", lambda: False)
        monkeypatch.setattr(net, "BROWSE_SECONDS", 1.5)
        async def one(delay: float):  # a look beside a join's look
            await asyncio.sleep(delay)
            return await asyncio.gather(browse(1.5, interfaces=LO), net._pick_table("127.0.0.1"))

        listed, taken = 0, 0
        # three rounds, a second apart (the flood's A records land at different points of each)
        for found, picked in await asyncio.gather(*(one(d) for d in (0.0, 1.0, 2.0))):
            found = [t for t in found if t.fingerprint == me.fingerprint]
            assert all(t.host != EVIL for t in found), found
            assert [(t.address, t.conflict) for t in found] in ([(where, 0)], []), found
            listed += len(found)
            assert picked is None or picked.address == where, (picked, capsys.readouterr().out)
            taken += picked is not None
        assert listed >= 1
        assert taken >= 1  # (and always at alice's address)
    finally:
        flood.cancel()
        await asyncio.gather(flood, return_exceptions=True)
        await zc.async_close()
        await ad.close()
        await alice.close()


@run_async(60)
async def test_a_host_announced_at_two_addresses_is_one_unmarked_line():
    """An honest host with two addresses (127.0.0.1 and 127.0.0.2, both this machine's):
    listed once, unmarked, at one of them."""
    fp = Identity.generate().fingerprint
    ad = await advertise("alice", 45680, game="go-out-girl", free=2, seats=3, fingerprint=fp,
                         addresses=["127.0.0.1", "127.0.0.2"], interfaces=LO)
    try:
        found: list = []
        for _ in range(4):
            found = [t for t in await browse(1.5, interfaces=LO) if t.fingerprint == fp]
            if found:
                break
        assert [(t.port, t.conflict, t.shared) for t in found] == [(45680, 0, 0)], found
        assert found[0].host in ("127.0.0.1", "127.0.0.2")
    finally:
        await ad.close()
