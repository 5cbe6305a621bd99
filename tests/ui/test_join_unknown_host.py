"""``join nohost:80 --code ...`` waited 10 s, then said "no answer from tcp://nohost:80 within
10 s: check the address and that the host is running": a name that names no machine was taken
for a host that does not answer (walk-through ux20, a typo in every command's options). Now it
is said at once."""

from __future__ import annotations

import asyncio
import time

import pytest

from p2pcards import net
from protocol.mesh import MeshError


def test_joining_a_host_name_that_does_not_resolve_says_so_at_once(tmp_path):
    t0 = time.monotonic()
    with pytest.raises(MeshError) as got:
        asyncio.run(net.join_table("nohost.invalid:80", "ABC-DEF", "bob", bind="127.0.0.1",
                                   resume=False, home=str(tmp_path)))
    assert str(got.value) == (
        "'nohost.invalid' names no machine this one can find (the name does not resolve): use "
        "the address the host printed, like 192.168.1.20:41234"), got.value
    assert time.monotonic() - t0 < 8


def test_no_table_found_says_a_full_table_is_not_listed(monkeypatch, capsys):
    """A person whose friends' table had just filled ran ``join`` and read only "No table
    found": a table is withdrawn from the LAN once every seat is taken (walk-through ux20)."""
    from protocol import discovery

    async def nothing(seconds, **kw):
        return []

    monkeypatch.setattr(discovery, "browse", nothing)
    assert asyncio.run(net._pick_table("127.0.0.1")) is None
    out = " ".join(capsys.readouterr().out.split())
    assert "No open table found (a table stops being listed once every seat is taken). Ask the " \
           "host for its address and code: p2pcards join HOST:PORT --code CODE" in out, out


def test_joining_a_port_where_nothing_listens_says_so_at_once(tmp_path):
    """``join localhost:PORT`` with no table there waited 10 s for "no answer" (walk-through
    ux20, F10): the machine had refused the connection at once, and ZeroMQ retried quietly."""
    import socket

    with socket.socket() as s:  # a port nothing listens on: bound, then closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.monotonic()
    with pytest.raises(MeshError) as got:
        asyncio.run(net.join_table(f"127.0.0.1:{port}", "ABC-DEF", "bob", bind="127.0.0.1",
                                   resume=False, home=str(tmp_path)))
    assert str(got.value) == (
        f"nothing at 127.0.0.1:{port} takes the connection (it was refused): check the port the "
        "host printed, and that its table is still open"), got.value
    assert time.monotonic() - t0 < 5
