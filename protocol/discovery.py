"""LAN discovery of tables with mDNS/DNS-SD (``zeroconf``).

A host advertises one service of type ``_p2pcards._tcp`` per table: the instance name is
``<host player> <fingerprint>``, the SRV record points at the host's ROUTER port and the TXT
record holds (all values UTF-8 text):

==========  ===============================================================
``game``    the game's id, e.g. ``go-out-girl``
``free``    free seats (the host updates it as players join; 0 = full)
``seats``   seats at the table
``v``       the p2pcards mesh protocol version (``1``)
``fp``      the host's identity fingerprint, e.g. ``K7QF-2M9X``
``at``      the IPv4 addresses the host announces, comma-separated (as many as fit)
``port``    the host's ROUTER port (the SRV record's)
==========  ===============================================================

Discovery is only a convenience: it is unauthenticated (anyone on the LAN can advertise anything),
so the fingerprint shown in the list must be checked against the one the host reads out, and the
table code is still needed to join. ``join HOST:PORT`` works without it.

Anyone can also answer under a host's exact instance name. ``browse`` therefore keeps every
distinct answer it hears for a name (not the last one, as a plain service lookup does): an
answer whose TXT fingerprint is not the one in its own instance name is refused (logged), and
when several different answers remain under one name each is listed, marked (``conflict``), so
the person checks the address and fingerprint with the host instead of being sent silently to
whichever answered last.

mDNS goodbyes (records with TTL 0) are not authenticated either: anyone can send one for the
host's own records. While ``browse`` listens a goodbye therefore erases nothing it heard: not an
answer, not an address, not a name. A goodbye for another answer than the ones heard under its
name counts as one more announcement under that name, so the line heard is marked (and never
taken without a person choosing). A host that really withdrew its table during the look stays
listed; joining it then fails with "no answer from ...".

The server name an SRV record points at (``p2pcards-<fp>-<port>.local.``) is public, so anyone
can send an A record for it with their own address. The host therefore states its addresses and
port in its TXT record (``at``, ``port``): a line uses only an address its TXT states, so a lone
forged A record sends nobody anywhere, and a forged TXT is one more announcement (marked). A TXT
without ``at`` (an earlier version) uses the first address heard, and its line is marked when its
server was heard at more than one.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import ipaddress
import logging
import socket
from dataclasses import dataclass
from typing import Any

from zeroconf import (
    BadTypeInNameException,
    DNSAddress,
    DNSOutgoing,
    DNSQuestion,
    DNSService,
    DNSText,
    InterfaceChoice,
    IPVersion,
    NonUniqueNameException,
    RecordUpdateListener,
    ServiceStateChange,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf
from zeroconf.const import _CLASS_IN, _FLAGS_QR_QUERY, _TYPE_A, _TYPE_SRV, _TYPE_TXT

log = logging.getLogger("p2pcards.discovery")

SERVICE_TYPE = "_p2pcards._tcp.local."
TXT_VERSION = "1"
Interfaces = Any  # InterfaceChoice or a list of addresses, as zeroconf takes them


@dataclass(frozen=True)
class TableInfo:
    """A table found on the LAN."""

    name: str  # the service instance name, e.g. "alice K7QF-2M9X"
    host: str  # an IPv4 address
    port: int
    game: str
    free: int
    seats: int
    version: str
    fingerprint: str
    conflict: int = 0  # >1: this many different announcements were heard under this one name
    shared: int = 0  # >1: this host fingerprint was heard at this many places, under other names

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def __str__(self) -> str:
        text = f"{self.name}: {self.game}, {self.free} of {self.seats} seats free, at {self.address}"
        if self.conflict > 1:
            text += (f" [one of {self.conflict} announcements under one name: check the address"
                     " and fingerprint with the host]")
        elif self.shared > 1:
            text += (f" [one of {self.shared} places announced with this host's fingerprint under "
                     "different names: check the name, address and fingerprint with the host]")
        return text


def mark_shared_fingerprints(tables: list[TableInfo]) -> list[TableInfo]:
    """``tables`` with every line marked whose host fingerprint was heard at more than one
    address and port. Anyone can announce a look-alike name (``alice  FP`` with two spaces, a
    Cyrillic ``а``) carrying the host's true fingerprint and their own address: under another
    name it is no conflict of one name, and its fingerprint checks out, so the lines would look
    alike and unmarked. (A host with two tables open at once is marked too: the person asks.)"""
    places: dict[str, set[tuple[str, int]]] = {}
    for t in tables:
        places.setdefault(t.fingerprint, set()).add((t.host, t.port))
    return [dataclasses.replace(t, shared=len(places[t.fingerprint]))
            if len(places[t.fingerprint]) > 1 else t for t in tables]


def encode_txt(
    game: str, free: int, seats: int, fingerprint: str, version: str = TXT_VERSION, *,
    addresses: list[str] | None = None, port: int | None = None,
) -> dict[str, str]:
    """The TXT properties for a table; ``addresses`` (as many as fit in one TXT string, in
    order) and ``port`` are where the host listens."""
    if not isinstance(free, int) or not isinstance(seats, int) or not 0 <= free <= seats:
        raise ValueError("free seats must be between 0 and the number of seats")
    txt = {"game": game, "free": str(free), "seats": str(seats), "v": version, "fp": fingerprint}
    if addresses:
        at = ""
        for a in addresses:
            more = f"{at},{a}" if at else a
            if len(f"at={more}".encode()) > 255:
                break
            at = more
        txt["at"] = at
    if port is not None:
        txt["port"] = str(port)
    for k, v in txt.items():
        if len(k.encode()) + 1 + len(v.encode()) > 255:
            raise ValueError(f"TXT value for {k!r} is too long")
    return txt


def decode_txt(props: dict[Any, Any]) -> dict[str, Any]:
    """Parse TXT properties (bytes or str keys/values) back; ``ValueError`` if something is missing
    or malformed. Unknown keys are ignored (for later versions)."""

    def text(v: Any) -> str:
        if isinstance(v, bytes):
            return v.decode("utf-8")
        if isinstance(v, str):
            return v
        raise ValueError("a TXT value is missing")

    p = {text(k): v for k, v in props.items()}
    try:
        out = {
            "game": text(p["game"]),
            "free": int(text(p["free"])),
            "seats": int(text(p["seats"])),
            "version": text(p["v"]),
            "fingerprint": text(p["fp"]),
            "addresses": _addresses(text(p["at"])) if "at" in p else None,
            "port": int(text(p["port"])) if "port" in p else None,
        }
    except KeyError as e:
        raise ValueError(f"TXT record lacks {e.args[0]!r}") from None
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"bad TXT record ({e})") from None
    if not 0 <= out["free"] <= out["seats"]:
        raise ValueError("bad TXT record (free seats out of range)")
    if out["port"] is not None and not 0 < out["port"] < 65536:
        raise ValueError("bad TXT record (port out of range)")
    return out


def _addresses(at: str) -> tuple[str, ...]:
    """A TXT's ``at``: dotted IPv4 addresses, comma-separated (``ValueError`` otherwise)."""
    out = tuple(at.split(","))
    for a in out:
        if str(ipaddress.IPv4Address(a)) != a:
            raise ValueError(f"{a!r} is not an IPv4 address as written")
    return out


def instance_name(player: str, fingerprint: str) -> str:
    """``<player> <fingerprint>`` within DNS-SD's 63 bytes: a long name is cut, never the
    fingerprint (``browse`` checks the TXT fingerprint against the one in the name)."""
    fp = fingerprint.replace(".", " ")
    room = max(0, 63 - len(fp.encode("utf-8")) - 1)
    raw = player.replace(".", " ").encode("utf-8")[:room]
    return f"{raw.decode('utf-8', 'ignore').strip()} {fp}".strip()


def name_fingerprint(name: str) -> str:
    """The fingerprint an instance name ends with (its last word)."""
    return name.rsplit(" ", 1)[-1]


def lan_addresses() -> list[str]:
    """Every non-loopback IPv4 address of this machine."""
    import ifaddr

    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                out.append(ip.ip)
    return out


class Advertiser:
    """One advertised table: ``update(free)`` as seats fill, ``close()`` to withdraw it."""

    def __init__(
        self, aiozc: AsyncZeroconf, info: AsyncServiceInfo, txt: dict[str, str], owned: bool
    ) -> None:
        self._zc = aiozc
        self.info = info
        self._txt = txt
        self._owned = owned
        self.closed = False

    @property
    def name(self) -> str:
        return self.info.name[: -len(SERVICE_TYPE) - 1]

    async def update(self, free: int) -> None:
        if self.closed:
            return
        encode_txt(self._txt["game"], free, int(self._txt["seats"]), self._txt["fp"])  # checked
        self._txt = {**self._txt, "free": str(free)}
        self.info = _service_info(
            self.info.name,
            self.info.port or 0,
            self.info.parsed_addresses(),
            self._txt,
            self.info.server,
        )
        await self._zc.async_update_service(self.info)

    async def close(self) -> None:
        """Withdraw the advertisement (sends mDNS goodbyes)."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            # zeroconf returns a task that sends the goodbyes: closing before it ran sent none
            sent = await self._zc.async_unregister_service(self.info)
            await asyncio.wait_for(sent, 3.0)
        if self._owned:
            await self._zc.async_close()


def _service_info(
    full_name: str, port: int, addresses: list[str], txt: dict[str, str], server: str | None
) -> AsyncServiceInfo:
    return AsyncServiceInfo(
        SERVICE_TYPE,
        full_name,
        addresses=[socket.inet_aton(a) for a in addresses],
        port=port,
        properties=txt,
        server=server,
    )


async def advertise(
    player: str,
    port: int,
    *,
    game: str,
    free: int,
    seats: int,
    fingerprint: str,
    addresses: list[str] | None = None,
    interfaces: Interfaces = InterfaceChoice.All,
    zeroconf: AsyncZeroconf | None = None,
) -> Advertiser:
    """Advertise a table on the LAN. ``addresses`` default to this machine's LAN IPv4 addresses."""
    addresses = addresses if addresses is not None else lan_addresses()
    txt = encode_txt(game, free, seats, fingerprint, addresses=addresses, port=port)
    owned = zeroconf is None
    aiozc = zeroconf or AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
    server = f"p2pcards-{fingerprint.lower().replace('-', '')}-{port}.local."
    info = _service_info(
        f"{instance_name(player, fingerprint)}.{SERVICE_TYPE}", port, addresses, txt, server
    )
    try:
        await aiozc.async_register_service(info, allow_name_change=True)
    except (NonUniqueNameException, BadTypeInNameException, OSError) as e:
        if owned:
            await aiozc.async_close()
        raise RuntimeError(f"cannot advertise the table on the LAN: {e}") from None
    log.info("advertising %s on port %d (%s)", info.name, port, ", ".join(addresses))
    return Advertiser(aiozc, info, txt, owned)


async def browse(
    timeout: float = 3.0,
    *,
    interfaces: Interfaces = InterfaceChoice.All,
    zeroconf: AsyncZeroconf | None = None,
    game: str | None = None,
) -> list[TableInfo]:
    """Listen for tables for ``timeout`` seconds; the ones found (with free seats first)."""
    owned = zeroconf is None
    aiozc = zeroconf or AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
    names: set[str] = set()

    def on_change(
        zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        # Removed too: a goodbye can be forged by anyone, so a name heard stays (it is asked
        # again below, and what was heard under it is kept)
        names.add(name)

    heard = _Answers()
    aiozc.zeroconf.async_add_listener(heard, None)
    browser = AsyncServiceBrowser(aiozc.zeroconf, SERVICE_TYPE, handlers=[on_change])
    addresses = asyncio.ensure_future(_ask_addresses(aiozc, heard))
    found: list[TableInfo] = []
    try:
        await asyncio.sleep(timeout)
        await _ask_all(aiozc, heard, names)
        for name in sorted(names):
            found.extend(t for t in heard.tables(name) if game is None or t.game == game)
    finally:
        addresses.cancel()
        await asyncio.gather(addresses, return_exceptions=True)
        aiozc.zeroconf.async_remove_listener(heard)
        await browser.async_cancel()
        if owned:
            await aiozc.async_close()
    return sorted(mark_shared_fingerprints(found), key=lambda t: (t.free == 0, t.name, t.address))


#: After the look, every name heard is asked for its answer at once, all within this many
#: seconds. They were asked one at a time, 1.5 s each for a name nobody answers for, so a
#: forger's packet of 200 names (PTR records cost nothing) held ``join`` for five minutes.
ASK_SECONDS = 1.5
#: At most this many names are asked (and addresses, at a time); the names whose answer was
#: already heard come first (an honest host's answer arrives with its name), and every name's
#: answers heard while looking are listed whether it was asked or not.
ASK_NAMES = 64
#: While ``browse`` lasts, the A record of every server an SRV record named, and no address was
#: heard for yet, is asked for again every this many seconds. A host's A record can come late
#: or not at all: a LAN loses packets, a responder that multicast it within the last second
#: holds the next copy back for a second or more (RFC 6762 section 14), and its answer to a
#: "QU" question goes by unicast, which reaches only one of the mDNS stacks of a machine.
ASK_ADDRESS_SECONDS = 0.5


def _ask(aiozc: AsyncZeroconf, questions: list[tuple[str, int]]) -> None:
    """Multicast "QM" questions (multicast answers), with no known answers: every responder
    answers, whatever this browser's cache holds."""
    if not questions:
        return
    out = DNSOutgoing(_FLAGS_QR_QUERY)
    for name, kind in questions:
        out.add_question(DNSQuestion(name, kind, _CLASS_IN))
    try:
        aiozc.zeroconf.async_send(out)
    except Exception as e:  # a browse lists what it heard, whatever the socket says
        log.info("asking for %d records failed: %s", len(questions), e)


async def _ask_addresses(aiozc: AsyncZeroconf, heard: _Answers) -> None:
    """Ask for the A record of every server heard without one, every ``ASK_ADDRESS_SECONDS``,
    until cancelled."""
    while True:
        await asyncio.sleep(ASK_ADDRESS_SECONDS)
        _ask(aiozc, [(s, _TYPE_A) for s in heard.servers_without_address()[:ASK_NAMES]])


async def _ask_all(aiozc: AsyncZeroconf, heard: _Answers, names: set[str]) -> None:
    """Ask every name heard for its SRV and TXT records (and every server without an address
    for its A record), twice within ``ASK_SECONDS``; the listener keeps what comes.

    The questions go to the network even when the cache already holds an answer for the name. A
    forged answer under a host's exact name has the host's very PTR record, so while mallory
    repeated hers, every PTR query of the browser carried it as a known answer and the host's
    responder never answered (nor sent its SRV, TXT and A records with it); the lookup this asked
    with then found mallory's SRV, TXT and A in the cache, complete, and asked nobody. The host's
    table went unlisted in nine browses out of ten."""
    order = sorted(names, key=lambda n: (n not in heard.srv or n not in heard.txt, n))[:ASK_NAMES]
    if not order:
        return
    for _ in range(2):
        _ask(aiozc, [(n, t) for n in order for t in (_TYPE_SRV, _TYPE_TXT)] +
             [(s, _TYPE_A) for s in heard.servers_without_address()[:ASK_NAMES]])
        await asyncio.sleep(ASK_SECONDS / 2)


def _txt_props(raw: bytes) -> dict[bytes, bytes | None]:
    """A TXT record's rdata (length-prefixed ``key=value`` strings) as properties."""
    props: dict[bytes, bytes | None] = {}
    i = 0
    while i < len(raw):
        n = raw[i]
        item = raw[i + 1 : i + 1 + n]
        i += 1 + n
        key, eq, value = item.partition(b"=")
        if key and key not in props:
            props[key] = value if eq else None
    return props


class _Answers(RecordUpdateListener):
    """Every distinct answer heard under each ``_p2pcards._tcp`` instance name while browsing:
    its SRV targets (server, port), its TXT records and the servers' IPv4 addresses. A plain
    service lookup keeps one SRV and one TXT per name, whichever came last, so a forged answer
    under a host's exact name would replace the host's own. Goodbyes (TTL 0) erase nothing:
    anyone can send one for the host's records (a forged goodbye for the host's SRV left a
    forged answer alone, unmarked). The SRV targets and TXT records they name are kept apart
    and counted as announcements under their name (``tables``)."""

    def __init__(self) -> None:
        self.srv: dict[str, set[tuple[str, int]]] = {}
        self.txt: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = {}
        self.addrs: dict[str, list[str]] = {}
        self.gone_srv: dict[str, set[tuple[str, int]]] = {}  # the goodbyes heard
        self.gone_txt: dict[str, set[tuple[Any, ...]]] = {}

    def async_update_records(self, zc: Any, now: float, records: list[Any]) -> None:
        for update in records:
            self._record(update.new, now)

    def _record(self, r: Any, now: float) -> None:
        gone = r.is_expired(now)  # a goodbye (TTL 0)
        name = r.name
        if isinstance(r, DNSAddress):
            if len(r.address) != 4:
                return
            ip = socket.inet_ntoa(r.address)
            known = self.addrs.setdefault(name.lower(), [])
            if not gone and ip not in known:  # (a goodbye removes no address heard)
                known.append(ip)
            return
        if not name.lower().endswith(SERVICE_TYPE.lower()):
            return
        if isinstance(r, DNSService):
            into = self.gone_srv if gone else self.srv
            into.setdefault(name, set()).add((r.server.lower(), r.port))
        elif isinstance(r, DNSText):
            self._text(name, _txt_props(r.text), gone)

    def _text(self, name: str, props: dict[Any, Any], gone: bool = False) -> None:
        try:
            txt = decode_txt(props)
        except ValueError as e:
            log.info("ignoring an announcement of %s: %s", name, e)
            return
        # (game, seats, version, fingerprint, the addresses and port the host states)
        ident = (txt["game"], txt["seats"], txt["version"], txt["fingerprint"],
                 txt["addresses"], txt["port"])
        if gone:
            self.gone_txt.setdefault(name, set()).add(ident)
        else:
            self.txt.setdefault(name, {})[ident] = txt  # the latest free seats of that table

    def servers_without_address(self) -> list[str]:
        """The servers SRV records answered with (goodbyes aside) that no A record was heard
        for, the ones of names with a TXT record first."""
        out: dict[str, bool] = {}
        for name, targets in self.srv.items():
            for server, _ in targets:
                if not self.addrs.get(server):
                    out[server] = out.get(server, False) or name in self.txt
        return sorted(out, key=lambda s: (not out[s], s))

    def _place(self, server: str, port: int, stated: set[str]) -> tuple[str, int]:
        """Where an SRV target sends a joiner: the first address heard for its server that a
        TXT under the name states, else the first heard, else the server name itself."""
        heard = self.addrs.get(server, [])
        good = [a for a in heard if a in stated]
        return ((good or heard)[0] if heard else server, port)

    def tables(self, full_name: str) -> list[TableInfo]:
        """The distinct tables announced under ``full_name``; each marked when there are
        several. An answer whose fingerprint is not its own name's is refused. The goodbyes
        heard under the name count too: one for another SRV target or TXT than the answers
        heard is another announcement, and marks the line(s) heard, even a single one.

        A TXT that states its host's addresses and port (``at``, ``port``) makes a line only
        with an SRV target of that port, at an address heard for its server that it states: an
        A record anyone sends for the (public) server name at another address is not used. A
        TXT that states none (an earlier version) takes the first address heard, and its line
        is marked when the server was heard at more than one."""
        name = full_name[: -len(SERVICE_TYPE) - 1]
        fp = name_fingerprint(name)
        out: dict[tuple[str, int, str, str, str], TableInfo] = {}
        spread = 0  # the most addresses heard for a server a TXT without ``at`` was paired with
        for txt in self.txt.get(full_name, {}).values():
            if txt["fingerprint"] != fp:
                log.info("refusing an announcement of %r: its fingerprint %r is not the one in "
                         "its name (wrong or forged)", name, txt["fingerprint"])
                continue
            for server, port in sorted(self.srv.get(full_name, ())):
                heard = self.addrs.get(server, [])
                if not heard or not port or txt["port"] not in (None, port):
                    continue
                if txt["addresses"] is None:
                    at = heard
                    spread = max(spread, len(heard))
                else:
                    at = [a for a in heard if a in txt["addresses"]]
                    if len(at) < len(heard):
                        log.info("not using %s for %r: addresses its host does not state "
                                 "(wrong or forged)",
                                 ", ".join(a for a in heard if a not in at), name)
                    if not at:
                        continue
                t = TableInfo(name=name, host=at[0], port=port, game=txt["game"],
                              free=txt["free"], seats=txt["seats"], version=txt["version"],
                              fingerprint=txt["fingerprint"])
                out.setdefault((t.host, t.port, t.game, str(t.seats), t.version), t)
        tables = list(out.values())
        idents = {i for i in self.txt.get(full_name, {}) if i[3] == fp}
        idents |= {i for i in self.gone_txt.get(full_name, set()) if i[3] == fp}
        stated = {a for i in idents if i[4] for a in i[4]}
        # where each SRV target heard sends a joiner (two servers at one address and port send
        # it to one place: one table), or the target itself if no address was heard for it
        targets = {self._place(server, port, stated)
                   for server, port in self.srv.get(full_name, set()) | self.gone_srv.get(full_name, set())}
        count = max(len(tables), len(targets), len(idents), spread)
        if tables and count > 1:
            log.info("%d different announcements under the one name %r (%d answered, goodbyes "
                     "for %d, %d addresses for one server)", count, name, len(tables),
                     len(self.gone_srv.get(full_name, ())) + len(self.gone_txt.get(full_name, ())),
                     spread)
            tables = [dataclasses.replace(t, conflict=count) for t in tables]
        return tables
