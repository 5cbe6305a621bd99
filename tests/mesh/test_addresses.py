"""The address a program hands out (docs/network.md, "When someone drops out"): "Addresses work
on a LAN without internet: a program listening on every interface announces the address on its
route to the other players (or, with no route, its first LAN interface's), never ``127.0.0.1``
unless the table is bound there. What ``host`` prints is an address another machine can use."

A host that printed ``127.0.0.1:7000`` on a LAN party's own network (no internet, so no default
route) would leave everyone unable to join, and a player that announced it would never be
reached by the others. The machine's routes and interfaces are played here (the tests listen on
127.0.0.1 only): what the program would hand out is read from ``Mesh._advertised``, the one
place that turns a bind on every interface into the address others are given."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from protocol.mesh import Mesh, common


def machine(monkeypatch, routes: dict[str, str | None], interfaces: list[str]) -> None:
    """A machine whose route toward each target is ``routes[target]`` (``None``: no route) and
    whose LAN interfaces (not loopback) have ``interfaces``."""
    monkeypatch.setattr(common, "_route_ip", lambda target: (
        "127.0.0.1" if target.startswith("127.") else routes.get(target)))
    monkeypatch.setattr(common, "lan_addresses", lambda: list(interfaces))


def handed_out(bind: str, toward: str | None) -> str:
    """What a program bound at ``bind``, port 7000, gives others to reach it by (``toward``:
    the peer it is telling, ``None`` for what ``host`` prints)."""
    return Mesh._advertised(SimpleNamespace(bind_host=bind, port=7000), toward)


@pytest.mark.parametrize("bind", ["0.0.0.0", "*", ""])
def test_a_lan_without_internet_gets_the_lan_address_not_loopback(monkeypatch, bind):
    # a LAN party's own network: no default route, one interface on the players' LAN
    machine(monkeypatch, {"10.0.0.5": "10.0.0.7"}, ["10.0.0.7"])
    assert handed_out(bind, None) == "tcp://10.0.0.7:7000"  # what 'host' prints
    assert handed_out(bind, "10.0.0.5") == "tcp://10.0.0.7:7000"  # what a joiner announces


def test_the_route_toward_the_other_players_wins_over_the_default_route(monkeypatch):
    # a laptop on the office Wi-Fi (default route) and a cable to the table's switch
    machine(monkeypatch, {"192.0.2.1": "172.16.4.20", "10.0.0.5": "10.0.0.7"},
            ["172.16.4.20", "10.0.0.7"])
    assert handed_out("0.0.0.0", "10.0.0.5") == "tcp://10.0.0.7:7000"
    assert handed_out("0.0.0.0", None) == "tcp://172.16.4.20:7000"


def test_a_route_that_comes_back_as_loopback_is_not_handed_out(monkeypatch):
    # the route lookup toward a peer answers 127.x (a local alias of a peer's name, say):
    # the program still hands out what another machine can use
    machine(monkeypatch, {"10.0.0.5": "127.0.1.1", "192.0.2.1": None}, ["10.0.0.7"])
    assert handed_out("0.0.0.0", "10.0.0.5") == "tcp://10.0.0.7:7000"


def test_loopback_only_when_bound_there_or_when_playing_on_this_machine(monkeypatch):
    machine(monkeypatch, {"192.0.2.1": "10.0.0.7"}, ["10.0.0.7"])
    assert handed_out("127.0.0.1", None) == "tcp://127.0.0.1:7000"
    assert handed_out("0.0.0.0", "127.0.0.1") == "tcp://127.0.0.1:7000"  # a table on this machine
    assert handed_out("192.168.1.5", "10.0.0.5") == "tcp://192.168.1.5:7000"  # --bind is kept
    machine(monkeypatch, {}, [])  # no network at all: loopback is all there is
    assert handed_out("0.0.0.0", None) == "tcp://127.0.0.1:7000"
