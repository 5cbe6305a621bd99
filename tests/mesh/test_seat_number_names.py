"""Red team 15b: a name that reads as a seat number. A joiner with the code calls itself "2"
(or the Arabic-Indic "٢", or "seat 2") and sits at seat 3: the host's lobby lists "seat 3: 2",
and the host who types 'kick 2' to remove that joiner removed -- and barred for good -- the
honest player at seat 2. The host now seats no such name, and a number that could be a seated
player's name removes nobody."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from p2pcards import net
from protocol.mesh import Mesh, MeshError, Timings
from protocol.mesh.common import JoinRefused

from .helpers import LOOPBACK, close_all, identity, run_async, until

pytestmark = pytest.mark.network


@run_async(timeout=60)
async def test_a_joiner_named_like_a_seat_number_cannot_get_an_honest_seat_kicked(
        tmp_path, monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(net, "say", said.append)
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice",
                           hold=True)
    bob = await Mesh.join(identity(tmp_path, 1), host.address, host.code, "bob",
                          bind=LOOPBACK, timings=t)
    meshes = [host, bob]
    try:
        for i, name in enumerate(("2", "\u0662", "seat 2", "Seat 2")):  # ٢: an Arabic-Indic two
            try:
                meshes.append(await Mesh.join(identity(tmp_path, 5 + i), host.address, host.code,
                                              name, bind=LOOPBACK, timings=t,
                                              home=tmp_path / f"mallory{i}"))
            except JoinRefused as exc:
                assert "reads as a seat number" in exc.reason
            else:  # seated (the old code): the host types what its lobby shows for her
                await until(lambda: host.full, what="mallory seated")
                said.clear()
                with pytest.raises(MeshError, match="closed"):  # (the lobby's 'quit')
                    await net._wait_for_players(host, None, _lines(f"kick {name}", "who", "quit"))
            assert any(m.seat == 1 and m.name == "bob" for m in host.roster), \
                f"'kick {name}' removed bob, the honest player at seat 2: {said}"
    finally:
        await close_all(meshes)


async def _lines(*lines: str):
    for line in lines:
        yield line


@dataclass
class _Seated:
    seat: int
    name: str
    fingerprint: str


@dataclass
class _Lobby:
    """The host's mesh as ``_kick`` sees it, with a roster a host of an earlier version seated
    (before it refused such names) and resumed."""

    roster: list[_Seated]
    seat: int = 0
    removed: list[int] = field(default_factory=list)

    def remove(self, seat: int) -> str:
        self.removed.append(seat)
        return next(m.name for m in self.roster if m.seat == seat)


def test_a_number_that_could_be_a_name_removes_nobody():
    lobby = _Lobby([_Seated(0, "alice", "AAAA-AAAA"), _Seated(1, "bob", "BBBB-BBBB"),
                    _Seated(2, "2", "MMMM-MMMM")])
    for typed in ("2", "\u0662", "seat 2"):
        answer = net._kick(lobby, typed)
        assert lobby.removed == [], f"'kick {typed}' removed a seat"
        assert "could be seat 2 (bob [BBBB-BBBB]) or seat 3 (2 [MMMM-MMMM])" in answer
    # a name that is another player's fingerprint: the fingerprint alone is ambiguous too
    odd = _Lobby([_Seated(0, "alice", "AAAA-AAAA"), _Seated(1, "bob", "BBBB-BBBB"),
                  _Seated(2, "BBBB-BBBB", "MMMM-MMMM")])
    assert "nobody removed" in net._kick(odd, "BBBB-BBBB") and odd.removed == []
    assert "bob is removed from seat 2" in net._kick(odd, "seat 2") and odd.removed == [1]
    assert "bob is removed from seat 2" in net._kick(lobby, "bbbb-bbbb")
    assert "2 is removed from seat 3" in net._kick(lobby, "3")
    assert lobby.removed == [1, 2]


def test_digits_no_list_can_hold_get_a_line_not_a_traceback():
    lobby = _Lobby([_Seated(0, "alice", "AAAA-AAAA"), _Seated(1, "bob", "BBBB-BBBB")])
    for typed in ("\u00b2", "\u2460", "1" * 5000):  # ², ①: str.isdigit says yes, int says no
        assert "nobody to remove" in net._kick(lobby, typed)
    assert lobby.removed == []
