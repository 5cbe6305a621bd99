"""What a player types to open or reach a table -- an address, ``--bind``, a name, a table
code -- checked before any network use, with an error in words that says what is accepted;
and the numbers of seconds the commands take."""

from __future__ import annotations

import contextlib

from protocol.errors import MeshError

from .ui.text import printable


def checked_address(address: str) -> str:
    """HOST:PORT as the mesh wants it, or a clear error."""
    from protocol.roster import normalize_address

    try:
        return normalize_address(address)
    except ValueError as exc:
        raise MeshError(f"{exc} (for example 192.168.1.20:41234)") from None


WILDCARD = "0.0.0.0"


def checked_bind(bind: str) -> str:
    """What ``--bind`` names, as the mesh binds it: ``0.0.0.0`` (or ``*``) for every interface,
    an IPv4 address of this machine, or an interface's name, taken as its IPv4 address (so the
    table hands out an address others can dial, not ``eth0:PORT``); else a clear error that
    names the value and lists what this machine has."""
    import ipaddress

    text = bind.strip()
    if text in (WILDCARD, "*"):
        return WILDCARD
    interfaces = _interfaces()
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        ip = None
    shown = printable(text, newlines=False)[:60]
    if isinstance(ip, ipaddress.IPv6Address):
        raise MeshError(f"--bind {shown!r}: IPv6 addresses are not supported; "
                        f"{_bind_choices(interfaces)}")
    if ip is not None:
        ours = {a for addrs in (interfaces or {}).values() for a in addrs}
        if not ours or ip.is_loopback or str(ip) in ours:
            return str(ip)  # no interface list to check against: the mesh's bind will tell
        raise MeshError(f"--bind {shown!r} is not an address of this machine; "
                        f"{_bind_choices(interfaces)}")
    if interfaces and text in interfaces:
        if interfaces[text]:
            return interfaces[text][0]
        raise MeshError(f"--bind {shown!r}: that interface has no IPv4 address; "
                        f"{_bind_choices(interfaces)}")
    raise MeshError(f"--bind {shown!r} is neither an IP address of this machine nor a network "
                    f"interface name; {_bind_choices(interfaces)}")


def _interfaces() -> dict[str, list[str]] | None:
    """This machine's network interfaces by name, each with its IPv4 addresses (``None``: the
    list cannot be read here)."""
    import socket

    out: dict[str, list[str]] = {}
    with contextlib.suppress(OSError, AttributeError):
        out = {name: [] for _, name in socket.if_nameindex()}
    try:
        import ifaddr  # zeroconf's own dependency

        adapters = ifaddr.get_adapters()
    except Exception:  # noqa: BLE001 -- no addresses: an address is left to the mesh to try
        return out or None
    for a in adapters:
        ips = [ip.ip for ip in a.ips if isinstance(ip.ip, str)]
        for name in dict.fromkeys([a.name, a.nice_name]):  # Windows: a GUID and a nice name
            out[name] = ips
    return out


def _bind_choices(interfaces: dict[str, list[str]] | None) -> str:
    if not interfaces:
        return ("give an IP address of this machine or an interface name, or 0.0.0.0 for every "
                "interface")
    seen = [f"{name} ({', '.join(ips) or 'no IPv4 address'})" for name, ips in interfaces.items()]
    return ("give an IP address of this machine or an interface name (here: "
            f"{'; '.join(seen)}), or 0.0.0.0 for every interface (the default)")


def checked_name(name: str) -> str:
    """A name as the table will show it, or a clear error saying what a name may hold."""
    from protocol.roster import check_name

    try:
        return check_name(name)
    except ValueError as exc:
        raise MeshError(f"{printable(name, newlines=False)!r} cannot be your name: {exc}") from None


def checked_code(code: str | None) -> str | None:
    """A typed table code in its canonical form (``None``: none given), or a clear error."""
    from protocol.tablecode import normalize_code

    if code is None:
        return None
    try:
        return normalize_code(code)
    except ValueError as exc:
        raise MeshError(f"{code!r} is not a table code: {exc}") from None


def finite_seconds(value: float) -> float:
    """A number of seconds (an option's callback) that is a number: ``nan`` and ``inf`` would
    freeze the table (``--pace inf``: the bots never moved)."""
    import math

    import typer

    if not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a number of seconds")
    return value


def seconds_not_negative(value: float) -> float:
    """``finite_seconds`` that cannot be negative either (typer's ``min=0`` said of ``nan``
    "should be greater than or equal to 0")."""
    import typer

    if finite_seconds(value) < 0:
        raise typer.BadParameter(f"{value:g} is negative: give 0 or more seconds")
    return value
