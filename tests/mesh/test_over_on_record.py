"""Issue 16: a peer that crashed right after the last move and comes back with its original
command once the others have gone gets the result from its own record, not an error; with an
incomplete record it gets a one-line error with words. On 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import shutil

import pytest

from p2pcards.botseat import bot_seat
from p2pcards.demo import local_match
from protocol.identity import Identity
from protocol.mesh import MeshError
from protocol.transcript import find_transcripts, read_transcript

pytestmark = [pytest.mark.network, pytest.mark.xdist_group("over-on-record")]  # one match for both


def _drop_lines(path, keep) -> None:
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(ln for ln in lines if keep(ln)))


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    """One finished two-seat match between processes (the host gone with it), for both tests:
    each works on its own copy of the bot's data directory."""
    root = tmp_path_factory.mktemp("m")
    rep = asyncio.run(local_match("go-out-girl", 2, "easy", root, say_=lambda s: None))
    assert rep.ok
    return rep, root / "bot1"


def test_a_bot_back_after_the_table_has_gone_shows_the_result_from_its_record(tmp_path, capsys,
                                                                              match, monkeypatch):
    from protocol.mesh import Mesh, Timings

    rep, home = match
    # nobody listens at the address any more: each bot gives up on its join after 3 s instead
    # of the usual 10 (what is tested is what it shows then, not how long it waits)
    real_join = Mesh.join.__func__

    async def join(cls, *args, timings=None, **kw):
        return await real_join(cls, *args, timings=timings or Timings(handshake_timeout=3.0), **kw)
    monkeypatch.setattr(Mesh, "join", classmethod(join))
    capsys.readouterr()
    me = Identity.load_or_create(str(home))
    path = find_transcripts(str(home))[0]
    t = read_transcript(path, me)
    address = next(m["addr"] for m in t.roster if m["seat"] == 0).removeprefix("tcp://")
    # three copies of the bot's data: finished; the end record lost (a crash mid-checkpoint,
    # the game complete in it); the last deck messages lost (a crash mid-audit)
    homes = {k: tmp_path / k for k in ("finished", "no_end", "cut_short")}
    for h in homes.values():
        shutil.copytree(home, h)
    [p] = find_transcripts(str(homes["no_end"]))
    _drop_lines(p, lambda ln: json.loads(ln).get("type") != "end")
    [p] = find_transcripts(str(homes["cut_short"]))
    lines = p.read_text().splitlines(keepends=True)
    p.write_text("".join(lines[: len(lines) // 2]))

    async def back(h):
        try:
            return await bot_seat(address, "AAA-AAA", "bot1", level="easy", bind="127.0.0.1",
                                  json_result=True, home=str(h))
        except MeshError as exc:
            return exc

    async def all_back():
        return await asyncio.wait_for(asyncio.gather(*(back(h) for h in homes.values())), 60)

    results = asyncio.run(all_back())
    out = capsys.readouterr().out
    reports = [json.loads(ln) for ln in out.splitlines() if ln.startswith("{")]
    assert len(reports) == 2, out
    for r in reports:
        assert r["from_record"] and r["verdict"]["clean"] and r["seat"] == 1
        assert r["outcome"] == rep.result.outcome
    assert "no longer answers: the match is over" in out
    err = results[2]
    assert isinstance(err, MeshError) and "no answer from" in str(err)


def test_join_resume_after_the_match_ended_shows_the_result_not_an_error(tmp_path, capsys, match):
    """A crash in the audit, after this seat's record was finished: `join --resume` has nothing
    to resume, and says so with the match's result from the record (issue 16: "the result and
    the verdict are shown ... at every peer that has them")."""
    from p2pcards.net import join_table

    rep, bot1 = match
    shutil.copytree(bot1, tmp_path / "bot1")
    home = str(tmp_path / "bot1")
    capsys.readouterr()
    result = asyncio.run(asyncio.wait_for(
        join_table(None, None, "bot1", bind="127.0.0.1", resume=True, home=home), 60))
    out = capsys.readouterr().out
    assert result is not None and result.outcome == rep.result.outcome
    assert "is over; there is nothing to resume" in out and "Result:" in out, out
    with pytest.raises(MeshError, match="no unfinished table"):
        asyncio.run(join_table(None, None, "x", bind="127.0.0.1", resume=True,
                               home=str(tmp_path / "empty")))


def test_join_resume_that_runs_out_of_memory_reading_the_record_says_so(tmp_path, match,
                                                                        monkeypatch):
    """Red team 12, H1: a comeback on a machine short of memory read "there is no unfinished
    table to resume on this machine" (the MemoryError was taken for another identity's record):
    wrong, and the player gave up on a seat the table then named him for leaving."""
    import p2pcards.resume as resume
    from p2pcards.net import join_table

    rep, bot1 = match
    shutil.copytree(bot1, tmp_path / "bot1")

    def short_of_memory(*a, **k):
        raise MemoryError()

    monkeypatch.setattr(resume, "read_transcript", short_of_memory)
    with pytest.raises(MeshError, match="ran out of memory reading the record .*nothing was "
                                        "changed"):
        asyncio.run(join_table(None, None, "bot1", bind="127.0.0.1", resume=True,
                               home=str(tmp_path / "bot1")))
