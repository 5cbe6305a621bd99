"""Red team 17's open question, as the attacker: two colluders taking turns to stall.

Every stalling allowance is a seat's own (a program cannot tell a colluder's absence from an
honest cut link, so it may not charge one seat for another's): a seat away for just under the
table's wait before every step is named once its absences add up to three times the wait
(``test_stall_budgets.py``). Two colluders can each use their own allowance, so together they
hold the table about twice as long as one, and no longer; and no honest seat may be named for
it. Over the real mesh on 127.0.0.1, the clocks scaled down (wait 2 s: allowance 6 s a seat)."""

from __future__ import annotations

import asyncio
import time

import pytest

from p2pcards.bots.registry import make_bot
from p2pcards.lobby import GameInfo, play_seat
from p2pcards.table import TableStopped
from tests.mesh.helpers import close_all, make_table, run_async

pytestmark = pytest.mark.network

WAIT = 2.0
QUIET = 3.0  # marked away after about 1.5 s: each spell away ~1.5 s, under the wait


def stall_in_turns(mesh, tables, colluders, spells) -> None:
    """``mesh``'s program goes quiet for ``QUIET`` before the first message it sends at each
    new table step that is its turn among ``colluders`` (step parity), then comes back."""
    silent = [False]
    real_frames, real_send = mesh._send_frames, mesh._send
    last = [None]

    def frames(seat, fr):
        if not silent[0]:
            real_frames(seat, fr)

    async def send(to, topic, body):
        t = tables.get(mesh.seat)
        if topic in ("deck", "game") and t is not None and t.step != last[0]:
            last[0] = t.step
            if colluders[t.step % len(colluders)] == mesh.seat:
                silent[0] = True
                await asyncio.sleep(QUIET)
                silent[0] = False
                spells[mesh.seat] = spells.get(mesh.seat, 0) + 1
                mesh._link_all(force=True)  # "I am back"
        return await real_send(to, topic, body)

    mesh._send_frames, mesh._send = frames, send


@pytest.mark.slow  # (goes first: tests/conftest.py)
@run_async(timeout=180)
async def test_two_colluders_taking_turns_to_stall_are_named_and_never_an_honest_seat(tmp_path):
    """Bob and dave (seats 2 and 4 of 4) take turns: at each new step one of them goes quiet
    for a spell shorter than the wait, so "away since the game last moved" never runs out and
    each spell is one seat's. A colluder is named for being away too often (by alice's or
    carol's own clock, the other shows that claim or names it too), never an honest seat; and the table is held for at most about the two
    allowances together (2 x 3 waits of absences, each spell ~1.5 s of a 3 s silence)."""
    info = GameInfo("go-out-girl", 4, {}, wait=WAIT, turn_time=3.0).to_json()
    meshes = await make_table(tmp_path, 4, game_info=info)
    tables: dict[int, object] = {}
    spells: dict[int, int] = {}
    colluders = (1, 3)
    for s in colluders:
        stall_in_turns(meshes[s], tables, colluders, spells)
    start = time.monotonic()
    runs = [asyncio.create_task(play_seat(
        m, make_bot("go-out-girl", m.seat, "random", m.seat), bot=True, say=lambda s: None,
        on_table=lambda tb, s=m.seat: tables.__setitem__(s, tb))) for m in meshes]
    try:
        results = await asyncio.gather(runs[0], runs[2], return_exceptions=True)
        held = time.monotonic() - start
        assert all(isinstance(r, TableStopped) for r in results), results
        assert all("away too often" in r.reason for r in results), [r.reason for r in results]
        # each honest program names a colluder itself, or shows the other's claim naming one:
        # the other may be a moment short of the allowance on its own clock when the colluder's
        # last spell ends just then (a clean-clone run saw it); never an honest seat either way
        stops = [meshes[0].stopped, meshes[2].stopped]
        assert all(st is not None and (st.culprit if st.culprit is not None else st.claimed)
                   in colluders for st in stops), stops
        assert any(st.culprit in colluders and st.claimed is None for st in stops), stops
        # both stalled, in turns, each within its own allowance until one ran out of it
        assert spells.get(1, 0) >= 2 and spells.get(3, 0) >= 2, spells
        # at most the two allowances (2 x 3 waits away) in ~1.5 s counted per 3 s spell,
        # and the deal and the game around them
        assert held < 2 * (3 * WAIT) * (QUIET / 1.5) + 20, (held, spells)
    finally:
        for s in colluders:
            runs[s].cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        await close_all(meshes)
