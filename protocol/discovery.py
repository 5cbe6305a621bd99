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
==========  ===============================================================

Discovery is only a convenience: it is unauthenticated (anyone on the LAN can advertise anything),
so the fingerprint shown in the list must be checked against the one the host reads out, and the
table code is still needed to join. ``join HOST:PORT`` works without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from dataclasses import dataclass
from typing import Any

from zeroconf import (
    BadTypeInNameException,
    InterfaceChoice,
    IPVersion,
    NonUniqueNameException,
    ServiceStateChange,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

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

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def __str__(self) -> str:
        return (
            f"{self.name}: {self.game}, {self.free} of {self.seats} seats free, at {self.address}"
        )


def encode_txt(
    game: str, free: int, seats: int, fingerprint: str, version: str = TXT_VERSION
) -> dict[str, str]:
    """The TXT properties for a table."""
    if not isinstance(free, int) or not isinstance(seats, int) or not 0 <= free <= seats:
        raise ValueError("free seats must be between 0 and the number of seats")
    txt = {"game": game, "free": str(free), "seats": str(seats), "v": version, "fp": fingerprint}
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
        }
    except KeyError as e:
        raise ValueError(f"TXT record lacks {e.args[0]!r}") from None
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"bad TXT record ({e})") from None
    if not 0 <= out["free"] <= out["seats"]:
        raise ValueError("bad TXT record (free seats out of range)")
    return out


def instance_name(player: str, fingerprint: str) -> str:
    base = f"{player} {fingerprint}".replace(".", " ")
    raw = base.encode("utf-8")[:63]
    return raw.decode("utf-8", "ignore").strip()


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
        self._txt = encode_txt(
            self._txt["game"], free, int(self._txt["seats"]), self._txt["fp"], self._txt["v"]
        )
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
            await self._zc.async_unregister_service(self.info)
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
    txt = encode_txt(game, free, seats, fingerprint)
    addresses = addresses if addresses is not None else lan_addresses()
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
        if state_change is ServiceStateChange.Removed:
            names.discard(name)
        else:
            names.add(name)

    browser = AsyncServiceBrowser(aiozc.zeroconf, SERVICE_TYPE, handlers=[on_change])
    found: list[TableInfo] = []
    try:
        await asyncio.sleep(timeout)
        for name in sorted(names):
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            if not await info.async_request(aiozc.zeroconf, 1500):
                continue
            table = _table_info(info)
            if table is not None and (game is None or table.game == game):
                found.append(table)
    finally:
        await browser.async_cancel()
        if owned:
            await aiozc.async_close()
    return sorted(found, key=lambda t: (t.free == 0, t.name))


def _table_info(info: AsyncServiceInfo) -> TableInfo | None:
    try:
        txt = decode_txt(info.properties)
    except ValueError as e:
        log.info("ignoring %s: %s", info.name, e)
        return None
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if not addresses or not info.port:
        return None
    return TableInfo(
        name=info.name[: -len(SERVICE_TYPE) - 1],
        host=addresses[0],
        port=info.port,
        game=txt["game"],
        free=txt["free"],
        seats=txt["seats"],
        version=txt["version"],
        fingerprint=txt["fingerprint"],
    )
