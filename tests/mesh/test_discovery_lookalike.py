"""Red team (round 5, #1): a look-alike announcement name. Mallory (no code, no seat) announces
``alice  FP`` -- two spaces -- with alice's true fingerprint and her own address. Under another
name it is no conflict of one name, and its fingerprint is the host's, so the list showed two
lines that look the same, neither marked. Now every line of one host fingerprint heard at more
than one address and port is marked. On 127.0.0.1 only; only what these tests created is read."""

from __future__ import annotations

from protocol.discovery import TableInfo, browse, instance_name, mark_shared_fingerprints

from .helpers import run_async
from .test_discovery_spoof import LO, advertised_alice, end, spoof


def _line(name: str, port: int, fp: str = "K7QF-2M9X") -> TableInfo:
    return TableInfo(name=name, host="127.0.0.1", port=port, game="go-out-girl", free=2,
                     seats=3, version="1", fingerprint=fp)


def test_lines_of_one_fingerprint_at_two_places_are_marked_and_others_are_not():
    marked = mark_shared_fingerprints([_line("alice K7QF-2M9X", 41000),
                                       _line("alice  K7QF-2M9X", 40999),
                                       _line("bob R4PC-TA0R", 42000, "R4PC-TA0R")])
    assert [t.shared for t in marked] == [2, 2, 0]
    assert all("different names" in str(t) for t in marked[:2])
    assert "[" not in str(marked[2])
    # one table heard twice at the one place (a renamed re-announcement) is no second place
    same = mark_shared_fingerprints([_line("alice K7QF-2M9X", 41000),
                                     _line("alice2 K7QF-2M9X", 41000)])
    assert [t.shared for t in same] == [0, 0]


@run_async(60)
async def test_a_look_alike_name_with_the_hosts_fingerprint_is_marked(tmp_path, capsys,
                                                                       monkeypatch):
    from p2pcards import net

    alice, ad, me = await advertised_alice(tmp_path)
    lookalike = instance_name("alice", me.fingerprint).replace(" ", "  ", 1)
    zc, info, repeating = await spoof(lookalike, 40999, me.fingerprint, repeat=False)
    try:
        ours = {f"127.0.0.1:{alice.port}", "127.0.0.1:40999"}
        found: list[TableInfo] = []
        for _ in range(6):  # (under load a responder can be slow)
            found = [t for t in await browse(1.5, interfaces=LO)  # (loopback mDNS is the
                     if t.address in ours and t.fingerprint == me.fingerprint]  # machine's)
            if len(found) == 2:
                break
        assert len(found) == 2, found
        assert all(t.shared == 2 and "different names" in str(t) for t in found), found

        async def both(seconds, **kw):
            return found
        monkeypatch.setattr("protocol.discovery.browse", both)
        monkeypatch.setattr("sys.stdin.isatty", lambda: False)
        assert await net._pick_table("127.0.0.1") is None  # never taken by a script
        assert "look-alike name" in capsys.readouterr().out
    finally:
        await end(alice, ad, (zc, info, repeating))
