"""Red team, control messages: a seated peer's modified client signs control messages (heads,
link, roster, want, proof?, proof, evidence) with any JSON value in any field -- huge integers,
100 kB strings, deep lists, bidi controls. Every peer drops what it cannot use in a short log
line, never a traceback; the table goes on or stops naming only that peer (a false roster
digest is its own signed word). Quick in the suite; ``P2PCARDS_LONG=1`` sends ten times as many."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random

import pytest

from protocol.channel import TableStop

from .helpers import close_all, make_table, play, run_async

pytestmark = pytest.mark.network

COUNT = 1500 if os.environ.get("P2PCARDS_LONG") == "1" else 300
HOSTILE = [None, True, -1, 0, 2**70, -(2**70), 1.5, "", "x" * 100_000, [], {}, [[[[[]]]]],
           [0] * 5000, {"a": 1}, [[0, "0" * 64]] * 3, "\u202e\x1b[2J", [-1, "zz"],
           [[2**63, "ab"]], 10**300, [[1, "0" * 16]] * 3, [None, [2**62, "f" * 16], None]]
FIELDS = {"heads": ["heads", "reply", "roster", "cp", "cpat", "cpr", "at", "echo"],
          "link": ["entry", "heads"], "roster": ["roster", "sealed"], "want": ["seat", "start"],
          "proof?": ["seat", "seq"], "proof": ["env"], "evidence": ["first", "second", "reason"]}


@pytest.mark.parametrize("seed", [3, 4])
@run_async(timeout=120)
async def test_any_value_in_a_signed_control_message_is_dropped_or_names_its_sender(
        tmp_path, caplog, seed):
    caplog.set_level(logging.INFO)
    rng = random.Random(seed)
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        for i in range(COUNT):
            t = rng.choice(list(FIELDS))
            payload = {f: rng.choice(HOSTILE) for f in FIELDS[t] if rng.random() < 0.7}
            bob._send_ctl(rng.choice([0, 2]), t, payload)
            if i % 20 == 0:
                await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)
        with contextlib.suppress(TableStop):
            await asyncio.wait_for(asyncio.gather(*(play(m.channel, 2) for m in meshes)), 30)
        for m in (host, carol):
            assert m.stopped is None or (m.stopped.culprit in (1, None)
                                         and m.stopped.claimed in (1, None)), m.stopped
            assert all(e.seat in (1, None) for e in m.events
                       if e.kind in ("fault", "equivocation", "stop"))
        assert "Traceback" not in caplog.text
        assert max(len(r.getMessage()) for r in caplog.records) < 600
    finally:
        await close_all(meshes)


@pytest.mark.parametrize("t,payload", [
    ("want", {"seat": True, "start": 1}),
    ("want", {"seat": 1, "start": 1.0}),
    ("heads", {"heads": [[True, "0" * 64], [0, "0" * 64], [0, "0" * 64]]}),
    # the echo (mesh version 8): per seat null or [counter, 16 lowercase hex digits], the
    # counter in 1..2^63-1, or the heads are dropped
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [None, [True, "0" * 16], None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [None, [1.0, "0" * 16], None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[2**70, "0" * 16], None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[-1, "0" * 16], None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[0, "0" * 16], None, None]}),
    # a mesh version 7 echo (a bare counter per seat) is no echo of this version
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [0, 5, 0]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[5], None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[5, "0" * 16, 1], None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[5, "0" * 15], None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[5, "0" * 17], None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[5, "0" * 15 + "g"], None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[5, "A" * 16], None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[5, "0" * 15 + "\n"], None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [[5, 12345678], None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": [{"ctr": 5}, None, None]}),
    ("heads", {"heads": [[0, "0" * 64]] * 3, "echo": "00" * 8}),
])
@run_async(timeout=60)
async def test_true_and_1_0_are_not_integers_in_a_control_message(tmp_path, caplog, t, payload):
    """JSON's ``true`` and ``1.0`` are not the integer 1, though Python's ``==`` and
    ``isinstance(True, int)`` say they are: a program written from docs/network.md drops them, so
    ours must too, or two implementations would act differently on the same signed message."""
    caplog.set_level(logging.INFO)
    meshes = await make_table(tmp_path, 3)
    host, bob, _ = meshes
    try:
        bob._send_ctl(0, t, payload)
        for _ in range(40):
            if f"from seat 1 that does nothing: a malformed {t}" in caplog.text:
                break
            await asyncio.sleep(0.05)
        # dropped, and charged as a control message that does nothing (one is not a flood)
        assert f"from seat 1 that does nothing: a malformed {t}" in caplog.text
        assert host.stopped is None
    finally:
        await close_all(meshes)
