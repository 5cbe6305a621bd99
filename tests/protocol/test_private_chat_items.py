"""Red team 15a: an honest player named for a chat line with commas in it.

A private body may take no more to hold than its envelope (``overfull``: red team 12's padded
boxes). What it takes to hold was counted as ``held_cost`` of its text: its bytes, or 64 bytes
for each comma, bracket and brace in it -- *inside strings too* (``json_items``, an upper bound
counted on the bytes before parsing). A chat line is a string, so a player who typed
"1,2,3,4,5,6,7,8,9,10" (or eight ":-[") to another seat sent a box that "takes 704 bytes to
hold in an envelope of 576": its recipient stopped the table naming the honest sender, every
other peer opened the box with its key and named them too, and ``p2pcards audit`` found the
fault line's key "verified". A comma inside a string costs no memory once parsed: the body is
counted by its values (what parsing it holds), and padding made of values is still named."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest

from protocol.envelope import (
    GENESIS,
    box_key,
    canonical,
    envelope_key,
    held_cost,
    overfull,
    seal,
)
from protocol.evidence import check_fault
from protocol.identity import Identity
from tests.mesh.helpers import close_all, make_table, run_async, until

TABLE = "ab" * 16
#: lines a person may type, and the most a 500-character line can hold of commas and brackets
LINES = ["1,2,3,4,5,6,7,8,9,10", ":-[ :-[ :-[ :-[ :-[ :-[ :-[ :-[", "{[(,)]}" * 70, "," * 500,
         "[" * 500, "\u00e9," * 250]


def _ids() -> list[Identity]:
    return [Identity.load_or_create(tempfile.mkdtemp(prefix="red15a-")) for _ in range(2)]


@pytest.mark.parametrize("text", LINES)
def test_an_honest_chat_line_is_never_a_box_holding_more_than_its_envelope(text):
    a, b = _ids()
    pair = box_key(a, b.public_key, a.public_key, b.public_key, TABLE)
    body = {"text": text[:500], "step": 7}
    env = seal(a, TABLE, 0, 1, GENESIS, "chat", body, to=1, key=pair)
    assert overfull(canonical(env), body) is None, text
    # and a recipient showing its key to the others proves nothing against the sender
    fault = {"type": "fault", "seat": 0, "reason": "overfull", "first": env,
             "key": envelope_key(pair, env).hex()}
    assert check_fault(fault, TABLE, 2, {0: a.public_key, 1: b.public_key}) is not None


def test_padding_made_of_values_is_still_a_box_holding_more_than_its_envelope():
    a, b = _ids()
    pair = box_key(a, b.public_key, a.public_key, b.public_key, TABLE)
    for pad in ([{}] * 2_000, [[]] * 2_000, [0] * 2_000, [""] * 2_000, [None] * 2_000):
        body = {"text": "x", "step": 0, "pad": pad}
        env = seal(a, TABLE, 0, 1, GENESIS, "chat", body, to=1, key=pair)
        assert "a private message that takes" in overfull(canonical(env), body)
        fault = {"type": "fault", "seat": 0, "reason": "overfull", "first": env,
                 "key": envelope_key(pair, env).hex()}
        assert check_fault(fault, TABLE, 2, {0: a.public_key, 1: b.public_key}) is None
    # the budgets still count a body's bytes as before (an upper bound, on the bytes)
    assert held_cost(canonical({"text": "," * 500})) == 64 * 501


@pytest.mark.network
@run_async(timeout=60)
async def test_bob_typing_commas_to_carol_is_named_by_nobody(tmp_path: Path):
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    heard: list[str] = []

    async def reader(m, keep):
        while True:
            _, body = await m.channel.recv("chat")
            if keep:
                heard.append(body["text"])

    tasks = [asyncio.create_task(reader(host, False)), asyncio.create_task(reader(carol, True))]
    try:
        for text in [*LINES, "that was all"]:
            await bob.channel.send(carol.seat, "chat", {"text": text[:500], "step": 0})
        await until(lambda: "that was all" in heard or carol.stopped is not None, 20,
                    "carol to hear bob's lines")
        assert carol.stopped is None, carol.stopped
        assert heard == [t[:500] for t in [*LINES, "that was all"]]
        await until(lambda: host.verifier.chains[bob.seat].seq >= len(LINES) + 1, 20,
                    "alice to hold bob's envelopes")
        assert host.stopped is None, host.stopped
    finally:
        for t in tasks:
            t.cancel()
        await close_all(meshes)
