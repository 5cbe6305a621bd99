"""mDNS discovery. The live test runs on 127.0.0.1 only (zeroconf bound to the loopback interface,
so nothing leaves the machine); where that cannot bind it is skipped and the TXT tests still run."""

import asyncio

import pytest

from protocol.discovery import (
    SERVICE_TYPE,
    advertise,
    browse,
    decode_txt,
    encode_txt,
    instance_name,
)
from protocol.identity import Identity

from .helpers import identity, run_async

LO = ["127.0.0.1"]


def test_txt_round_trip():
    txt = encode_txt("go-out-girl", 2, 4, "K7QF-2M9X")
    assert txt == {"game": "go-out-girl", "free": "2", "seats": "4", "v": "1", "fp": "K7QF-2M9X"}
    as_wire = {k.encode(): v.encode() for k, v in txt.items()}
    assert decode_txt(as_wire) == {
        "game": "go-out-girl",
        "free": 2,
        "seats": 4,
        "version": "1",
        "fingerprint": "K7QF-2M9X",
        "addresses": None,  # (a host of an earlier version states neither)
        "port": None,
    }
    assert decode_txt({**as_wire, b"future": b"x"})["free"] == 2
    stated = encode_txt("go-out-girl", 2, 4, "K7QF-2M9X", addresses=["10.0.0.7", "192.168.1.5"],
                        port=7000)
    back = decode_txt({k.encode(): v.encode() for k, v in stated.items()})
    assert (back["addresses"], back["port"]) == (("10.0.0.7", "192.168.1.5"), 7000)


@pytest.mark.parametrize(
    "props, words",
    [
        ({b"game": b"x", b"seats": b"4", b"v": b"1", b"fp": b"A"}, "lacks 'free'"),
        ({b"game": b"x", b"free": b"many", b"seats": b"4", b"v": b"1", b"fp": b"A"}, "bad TXT"),
        ({b"game": b"x", b"free": b"5", b"seats": b"4", b"v": b"1", b"fp": b"A"}, "out of range"),
        ({b"game": None, b"free": b"1", b"seats": b"4", b"v": b"1", b"fp": b"A"}, "missing"),
        ({b"game": b"x", b"free": b"1", b"seats": b"4", b"v": b"1", b"fp": b"A",
          b"at": b"10.0.0.7,mallory.local"}, "bad TXT"),
        ({b"game": b"x", b"free": b"1", b"seats": b"4", b"v": b"1", b"fp": b"A",
          b"at": b"010.0.0.7"}, "bad TXT"),
        ({b"game": b"x", b"free": b"1", b"seats": b"4", b"v": b"1", b"fp": b"A",
          b"port": b"70000"}, "port out of range"),
    ],
)
def test_bad_txt_is_refused(props, words):
    with pytest.raises(ValueError, match=words):
        decode_txt(props)


def test_encode_checks_its_input():
    with pytest.raises(ValueError):
        encode_txt("g", 5, 4, "fp")
    with pytest.raises(ValueError):
        encode_txt("g" * 300, 1, 4, "fp")
    assert instance_name("alice.example", "K7QF-2M9X") == "alice example K7QF-2M9X"
    assert len(instance_name("é" * 100, "K7QF-2M9X").encode()) <= 63


@run_async(40)
async def test_advertise_update_browse_withdraw_on_loopback():
    fp = Identity.generate().fingerprint  # unique, in case other test runs share the loopback
    try:
        ad = await advertise(
            "alice",
            45678,
            game="go-out-girl",
            free=2,
            seats=3,
            fingerprint=fp,
            addresses=LO,
            interfaces=LO,
        )
    except (OSError, RuntimeError) as e:
        pytest.skip(f"zeroconf cannot bind to 127.0.0.1 here ({e}); TXT encoding is tested above")
    try:
        found = [t for t in await browse(1.0, interfaces=LO) if t.fingerprint == fp]
        assert len(found) == 1
        t = found[0]
        assert (t.host, t.port, t.game, t.free, t.seats, t.version) == (
            "127.0.0.1",
            45678,
            "go-out-girl",
            2,
            3,
            "1",
        )
        assert t.address == "127.0.0.1:45678" and t.name == ad.name == f"alice {fp}"
        assert ad.info.name.endswith(SERVICE_TYPE)
        await ad.update(0)
        # (the look for another game beside it, not after it)
        found, other = await asyncio.gather(browse(1.0, interfaces=LO),
                                            browse(0.5, interfaces=LO, game="other-game"))
        assert [t.free for t in found if t.fingerprint == fp] == [0]
        assert other == []
    finally:
        await ad.close()
    assert [t for t in await browse(1.0, interfaces=LO) if t.fingerprint == fp] == []


@run_async(60)
async def test_join_without_an_address_lists_the_lan_tables_and_takes_the_pick(
        tmp_path, monkeypatch, capsys):
    """``p2pcards join`` with no address lists the tables found and lets the user pick. Two hosts
    on 127.0.0.1 advertise the way ``p2pcards host --bind 127.0.0.1`` does (discovery follows
    the bind address); the person types a bad answer, then picks the second table."""
    from p2pcards import net
    from protocol.mesh import Mesh

    hosts: list[Mesh] = []
    ads: list = []
    try:
        for i, name in enumerate(["zed", "amy"]):  # (inside the try: closed whatever fails)
            hosts.append(await Mesh.host(identity(tmp_path, i), 3, bind="127.0.0.1", name=name))
            ads.append(await net._advertise(hosts[-1], "go-out-girl", 3, identity(tmp_path, i),
                                            "127.0.0.1"))
        if any(ad is None for ad in ads):
            pytest.skip("zeroconf cannot bind to 127.0.0.1 here")
        mine = {m.address.removeprefix("tcp://") for m in hosts}
        monkeypatch.setattr(net, "BROWSE_SECONDS", 2.0)
        import protocol.discovery as discovery

        real_browse = discovery.browse
        looked: list = []

        async def browse_until_both(seconds, **kw):
            """The person's look, until both advertisements answer (under load a responder can
            be slower than one look: CI flakes), bounded at 10 looks. The picks after the first
            are shown the tables the first look found: they check what is done with a list of
            two (a look of their own took 3.5 s each, and now and then missed a responder)."""
            if looked:
                return looked[0]
            for _ in range(10):
                found = await real_browse(seconds, **kw)
                if mine <= {t.address for t in found}:
                    break
            # only this test's tables: loopback mDNS is the whole machine's, and another test's
            # table (or one left answering by another process) must not shift the numbers
            looked.append([t for t in found if t.address in mine])
            return looked[0]

        monkeypatch.setattr(discovery, "browse", browse_until_both)
        answers = iter(["7", "2"])
        monkeypatch.setattr("sys.stdin.isatty", lambda: True)
        monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
        picked = await net._pick_table("127.0.0.1")
        out = capsys.readouterr().out
        listed = [line.split(". ", 1)[1] for line in out.splitlines() if line.startswith("  ")]
        assert any("go-out-girl, 2 of 3 seats free" in t for t in listed)
        assert "Type a number from 1 to" in out
        assert picked.address in mine and picked.address in listed[1]

        def eof(prompt):
            raise EOFError
        monkeypatch.setattr("builtins.input", eof)
        assert await net._pick_table("127.0.0.1") is None  # Ctrl-D: no traceback, nothing joined

        monkeypatch.setattr("sys.stdin.isatty", lambda: False)
        capsys.readouterr()
        picked = await net._pick_table("127.0.0.1")
        out = capsys.readouterr().out
        assert picked is None  # nobody to ask which of several
        assert "Several tables found" in out
    finally:
        for ad in ads:
            if ad is not None:
                await ad.close()
        for m in hosts:
            await m.close()
