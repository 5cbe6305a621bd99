"""A host's address record that comes late, or is lost a few times: the browse still lists its
table. A real LAN loses packets, and a responder that multicast its A record within the last
second holds the next copy back for a second or more (RFC 6762 section 14; zeroconf answers a
"QU" question by unicast, which on a machine with several mDNS stacks reaches any one of them).
A full-suite run once missed alice's A record this way and listed no table. The browse asked
for a name's address only after the look, a few times within 1.5 seconds, and only for the
server of the SRV record the cache held last; now it asks for the address of every server heard
without one, again and again while it lasts.

The host here is a bare responder on 127.0.0.1 (a socket of this test's own, no zeroconf): it
answers every question about its table with the PTR, SRV and TXT records but never the A
record, and answers a question for the A record only from the fourth time it is asked (the
first three answers "were lost")."""

from __future__ import annotations

import asyncio
import socket
import struct

from protocol.discovery import SERVICE_TYPE, browse

from .helpers import run_async
from .test_discovery_spoof import LO

FP = "Q3LA-TE7R"
FULL = f"alice {FP}.{SERVICE_TYPE}"
SERVER = "p2pcards-q3late7r-45711.local."
PORT = 45711
GROUP = "224.0.0.251"
LOST = 3  # the first answers to a question for the A record that never arrive


def _txt() -> bytes:
    props = {"game": "go-out-girl", "free": "2", "seats": "3", "v": "1", "fp": FP,
             "at": "127.0.0.1", "port": str(PORT)}
    return b"".join(bytes([len(item)]) + item for item in
                    (f"{k}={v}".encode() for k, v in props.items()))


class _Responder(asyncio.DatagramProtocol):
    """Alice's table, answered by hand: everything but the A record, which only the
    ``LOST + 1``-th question for it gets."""

    def __init__(self) -> None:
        self.transport: asyncio.DatagramTransport | None = None
        self.asked_a = 0

    def connection_made(self, transport) -> None:  # type: ignore[override]
        self.transport = transport

    def _send(self, records: list) -> None:
        from zeroconf import DNSOutgoing, const

        out = DNSOutgoing(const._FLAGS_QR_RESPONSE | const._FLAGS_AA)
        for r in records:
            out.add_answer_at_time(r, 0)
        assert self.transport is not None
        for packet in out.packets():
            self.transport.sendto(packet, (GROUP, 5353))

    def datagram_received(self, data: bytes, addr) -> None:  # type: ignore[override]
        from zeroconf import DNSAddress, DNSIncoming, DNSPointer, DNSService, DNSText, const

        msg = DNSIncoming(data)
        if not msg.valid or not msg.is_query():
            return
        unique = const._CLASS_IN | const._CLASS_UNIQUE
        table = [DNSPointer(SERVICE_TYPE, const._TYPE_PTR, const._CLASS_IN, 4500, FULL),
                 DNSService(FULL, const._TYPE_SRV, unique, 120, 0, 0, PORT, SERVER),
                 DNSText(FULL, const._TYPE_TXT, unique, 4500, _txt())]
        for q in msg.questions:
            name = q.name.lower()
            if name in (SERVICE_TYPE.lower(), FULL.lower()):
                self._send(table)
            elif name == SERVER and q.type in (const._TYPE_A, const._TYPE_ANY):
                self.asked_a += 1
                if self.asked_a > LOST:
                    self._send([DNSAddress(SERVER, const._TYPE_A, unique, 120,
                                           socket.inet_aton("127.0.0.1"))])


async def _responder() -> tuple[asyncio.DatagramTransport, _Responder]:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    s.bind(("", 5353))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                 socket.inet_aton(GROUP) + socket.inet_aton("127.0.0.1"))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, struct.pack("B", 1))
    s.setblocking(False)
    transport, proto = await asyncio.get_running_loop().create_datagram_endpoint(
        _Responder, sock=s)
    return transport, proto  # type: ignore[return-value]


@run_async(60)
async def test_a_table_whose_address_record_was_lost_three_times_is_still_listed():
    """Alice's A record is lost the first three times it is asked for. The browse asked for it
    three times at most (after the look, within 1.5 seconds) and listed nothing; now it keeps
    asking while it lasts, and lists her table once, unmarked, at her address."""
    transport, alice = await _responder()
    try:
        found = [t for t in await browse(1.5, interfaces=LO) if t.fingerprint == FP]
        assert alice.asked_a > LOST, f"asked for the A record {alice.asked_a} times"
        assert [(t.address, t.conflict) for t in found] == [(f"127.0.0.1:{PORT}", 0)], found
    finally:
        transport.close()
