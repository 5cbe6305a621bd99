"""Damaged and malicious transcripts for the fuzz tests of ``p2pcards audit`` and friends.

``make_game`` plays one small real game in-process (two meshes on 127.0.0.1, random bots) and
keeps both peers' identities, so a mutant can be *re-signed*: its envelopes carry valid
signatures and chains around a body no honest peer would send, which takes the mutation past
the signature check into the deck audit and the replay.

Every mutator takes a ``random.Random`` and the original lines and returns ``(label, data)``.
"""

from __future__ import annotations

import asyncio
import copy
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.envelope import ENV_DOMAIN, GENESIS, b64, canonical, envelope_hash
from protocol.identity import Identity

GAME = "go-out-girl"

# values of the wrong type or size for any field
WRONG = [None, "", "x", "zz" * 40, [], [1, 2], {}, {"a": 1}, -1, 0, 1, 7, 10**30, -(10**30),
         True, False, 1.5, "0" * 64, ["x"], [None], [10**30]]


@dataclass
class Game:
    """A finished game's transcript (seat 0's) and the identities of its seats."""

    path: Path
    lines: list[bytes]
    identities: dict[int, Identity]

    @property
    def data(self) -> bytes:
        return b"".join(ln + b"\n" for ln in self.lines)


async def _play(root: Path) -> tuple[Path, dict[int, Identity]]:
    from p2pcards.bots.registry import make_bot
    from p2pcards.lobby import GameInfo, play_seat
    from protocol.mesh import Mesh, Timings

    info = GameInfo(GAME, 2, {})
    t = Timings.fast()
    ids = {0: Identity.load_or_create(root / "a"), 1: Identity.load_or_create(root / "b")}
    a = await Mesh.host(ids[0], 2, game_info=info.to_json(), name="alice", bind="127.0.0.1",
                        timings=t, home=str(root / "a"))
    try:
        b = await Mesh.join(ids[1], a.address.removeprefix("tcp://"), a.code, "bob",
                            bind="127.0.0.1", timings=t, home=str(root / "b"))
        try:
            quiet = lambda _text: None  # noqa: E731
            ra, rb = await asyncio.gather(
                play_seat(a, make_bot(GAME, 0, "random", 1), say=quiet),
                play_seat(b, make_bot(GAME, 1, "random", 2), say=quiet))
            assert ra.verdict is not None and ra.verdict.clean, ra.verdict
            assert ra.outcome == rb.outcome
            assert a.transcript_path is not None
            return a.transcript_path, ids
        finally:
            await b.close()
    finally:
        await a.close()


def make_game(root: Path) -> Game:
    path, ids = asyncio.run(asyncio.wait_for(_play(root), 60))
    return Game(path, path.read_bytes().splitlines(), ids)


_SHARED: dict[str, Game] = {}


def shared_game(tmp_path_factory: Any, key: str = "game") -> Game:
    """One game per test process (each xdist worker) for every module that only reads it (its
    bytes, its lines, its journals, its keys) and writes its mutants elsewhere: the modules'
    own fixtures each played one (several seconds of CPU each, once per worker they were spread
    over). ``key`` names a second, different game (another table's)."""
    if key not in _SHARED:
        _SHARED[key] = make_game(tmp_path_factory.mktemp(f"shared-{key}"))
    return _SHARED[key]


# ---- helpers --------------------------------------------------------------------------------


def cli_audit(path: Path) -> tuple[int, str, dict[str, Any]]:
    """``p2pcards audit PATH`` as a person runs it: (exit code, what it printed, its ``--json``)."""
    import json

    from typer.testing import CliRunner

    from p2pcards.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["audit", str(path)])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    js = runner.invoke(app, ["audit", "--json", str(path)])
    return res.exit_code, res.output, json.loads(js.output)


def join(lines: list[bytes]) -> bytes:
    return b"".join(ln + b"\n" for ln in lines)


def parse(lines: list[bytes]) -> list[dict[str, Any]]:
    import json

    return [json.loads(ln) for ln in lines]


def encode(recs: list[dict[str, Any]]) -> list[bytes]:
    return [canonical(r) for r in recs]


def resign(recs: list[dict[str, Any]], ids: dict[int, Identity]) -> list[dict[str, Any]]:
    """Renumber, re-chain and re-sign every envelope, in file order, as its sender would."""
    heads: dict[int, tuple[int, str]] = {}
    for r in recs:
        env = r.get("env")
        if r.get("type") not in ("in", "out") or not isinstance(env, dict):
            continue
        s = env.get("from")
        if s not in ids:
            continue
        seq, head = heads.get(s, (0, GENESIS))
        env["seq"], env["prev"] = seq + 1, head
        env.pop("sig", None)
        env["sig"] = b64(ids[s].sign(ENV_DOMAIN + canonical(env)))
        heads[s] = (seq + 1, envelope_hash(env))
    return recs


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (tuple of keys/indices) into ``obj``, containers included."""
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:8]):  # enough of a long list
            out += _paths(v, (*prefix, i))
    return out


def _set(obj: Any, path: tuple, value: Any) -> None:
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value


def _get(obj: Any, path: tuple) -> Any:
    for k in path:
        obj = obj[k]
    return obj


def _delete(obj: Any, path: tuple) -> None:
    for k in path[:-1]:
        obj = obj[k]
    del obj[path[-1]]


def _plausible(rng: random.Random, old: Any) -> Any:
    """A value of the right type but the wrong content."""
    if isinstance(old, bool):
        return not old
    if isinstance(old, int):
        return rng.choice([old + 1, old - 1, -old - 1, old * 1000 + 7, 2**63])
    if isinstance(old, str):
        if old and all(c in "0123456789abcdef" for c in old):
            i = rng.randrange(len(old))
            return old[:i] + ("0" if old[i] != "0" else "1") + old[i + 1:]
        return rng.choice([old + "x", old[:-1], old.upper(), "Ω" + old])
    if isinstance(old, list):
        if not old:
            return [0]
        lst = list(old)
        op = rng.randrange(4)
        if op == 0:
            lst.pop(rng.randrange(len(lst)))
        elif op == 1:
            lst.append(copy.deepcopy(rng.choice(lst)))
        elif op == 2:
            rng.shuffle(lst)
        else:
            lst = lst * 3
        return lst
    if isinstance(old, dict):
        d = dict(old)
        if d and rng.random() < 0.5:
            d.pop(rng.choice(sorted(d)))
        else:
            d["extra"] = rng.choice(WRONG)
        return d
    return rng.choice(WRONG)


def _mutate_tree(rng: random.Random, root: dict[str, Any], base: tuple = ()) -> str:
    """Replace, retype or delete one value somewhere under ``root[base]``; returns what."""
    paths = [p for p in _paths(_get(root, base), base) if len(p) > len(base)]
    if not paths:
        _set(root, base, rng.choice(WRONG)) if base else None
        return f"{'/'.join(map(str, base))}=wrong"
    p = rng.choice(paths)
    where = "/".join(map(str, p))
    r = rng.random()
    if r < 0.4:
        v = rng.choice(WRONG)
        _set(root, p, copy.deepcopy(v))
        return f"{where}={v!r:.20}"
    if r < 0.55 and isinstance(p[-1], str):
        _delete(root, p)
        return f"del {where}"
    _set(root, p, _plausible(rng, _get(root, p)))
    return f"{where}~plausible"


# ---- byte-level mutators: no re-signing --------------------------------------------------------


def truncate(rng: random.Random, g: Game) -> tuple[str, bytes]:
    data = g.data
    n = rng.randrange(len(data))
    return f"truncate at byte {n}", data[:n]


def truncate_at_line(rng: random.Random, g: Game) -> tuple[str, bytes]:
    n = rng.randrange(1, len(g.lines))
    return f"keep {n} lines", join(g.lines[:n])


def drop_line(rng: random.Random, g: Game) -> tuple[str, bytes]:
    lines = list(g.lines)
    i = rng.randrange(len(lines))
    del lines[i]
    return f"drop line {i + 1}", join(lines)


def duplicate_line(rng: random.Random, g: Game) -> tuple[str, bytes]:
    lines = list(g.lines)
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return f"duplicate line {i + 1}", join(lines)


def swap_lines(rng: random.Random, g: Game) -> tuple[str, bytes]:
    lines = list(g.lines)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return f"swap lines {i + 1} and {j + 1}", join(lines)


def flip_char(rng: random.Random, g: Game) -> tuple[str, bytes]:
    data = bytearray(g.data)
    i = rng.randrange(len(data))
    data[i] = rng.choice(b'0123456789abcdefxyz{}[]",:\\ \n\x00\x7f')
    return f"byte {i} -> {data[i]:#x}", bytes(data)


def invalid_utf8(rng: random.Random, g: Game) -> tuple[str, bytes]:
    data = g.data
    i = rng.randrange(len(data))
    junk = rng.choice([b"\xff", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", "é".encode()])
    return f"insert {junk!r} at byte {i}", data[:i] + junk + data[i:]


def binary_file(rng: random.Random, g: Game) -> tuple[str, bytes]:
    return "random bytes", rng.randbytes(rng.choice([1, 50, 5000]))


def empty_file(rng: random.Random, g: Game) -> tuple[str, bytes]:
    return "empty", rng.choice([b"", b"\n", b"\n\n", b"{}\n", b"[]\n", b"null\n"])


# ---- record-level mutators -------------------------------------------------------------------


def retype_unsigned(rng: random.Random, g: Game) -> tuple[str, bytes]:
    """Mutate a record outside any envelope: the table record, a roster, a note, the end."""
    recs = parse(g.lines)
    idx = [i for i, r in enumerate(recs) if r.get("type") not in ("in", "out")]
    i = rng.choice(idx[:3] * 4 + idx)  # the table record and the rosters most often
    what = _mutate_tree(rng, recs[i])
    return f"line {i + 1} ({recs[i].get('type')}): {what}", join(encode(recs))


def retype_envelope(rng: random.Random, g: Game) -> tuple[str, bytes]:
    """Mutate an envelope's header or body without re-signing (the signature must catch it)."""
    recs = parse(g.lines)
    idx = [i for i, r in enumerate(recs) if r.get("type") in ("in", "out")]
    i = rng.choice(idx)
    what = _mutate_tree(rng, recs[i])
    return f"line {i + 1}: {what}", join(encode(recs))


def resigned_body(rng: random.Random, g: Game) -> tuple[str, bytes]:
    """A validly signed and chained envelope whose body is wrong: a malicious peer."""
    recs = parse(g.lines)
    topic = rng.choice(["deck", "game", "deck", "any"])
    idx = [i for i, r in enumerate(recs) if r.get("type") in ("in", "out")
           and "body" in r["env"] and (topic == "any" or r["env"]["topic"] == topic)]
    i = rng.choice(idx)
    env = recs[i]["env"]
    r = rng.random()
    if r < 0.1:
        env["topic"] = rng.choice(["deck", "game", "chat", "x" * 64])
        what = f"topic={env['topic']}"
    else:
        what = _mutate_tree(rng, env, ("body",))
    return f"line {i + 1} re-signed: {what}", join(encode(resign(recs, g.identities)))


def resigned_reorder(rng: random.Random, g: Game) -> tuple[str, bytes]:
    """Drop, repeat or swap envelopes of one sender, then re-chain: a peer that withheld,
    repeated or reordered its messages."""
    recs = parse(g.lines)
    idx = [i for i, r in enumerate(recs) if r.get("type") in ("in", "out")]
    if rng.random() < 0.5:
        idx = [i for i in idx if recs[i]["env"]["topic"] == "game"]
    i = rng.choice(idx)
    r = rng.random()
    if r < 0.4:
        del recs[i]
        what = f"drop envelope line {i + 1}"
    elif r < 0.7:
        recs.insert(rng.randrange(i, len(recs)), copy.deepcopy(recs[i]))
        what = f"repeat envelope line {i + 1}"
    else:
        s = recs[i]["env"]["from"]
        same = [j for j in idx if recs[j]["env"]["from"] == s and j != i]
        j = rng.choice(same) if same else i
        recs[i], recs[j] = recs[j], recs[i]
        what = f"swap envelope lines {i + 1} and {j + 1}"
    return f"{what}, re-signed", join(encode(resign(recs, g.identities)))


def resigned_insert(rng: random.Random, g: Game) -> tuple[str, bytes]:
    """A validly signed envelope no honest peer sends, added to a sender's chain: an abort with
    an odd culprit, another seat's message claimed as its own, a message of an unknown step."""
    recs = parse(g.lines)
    idx = [i for i, r in enumerate(recs) if r.get("type") in ("in", "out") and "body" in r["env"]]
    i = rng.choice(idx)
    new = copy.deepcopy(recs[i])
    env = new["env"]
    s = env["from"]
    r = rng.random()
    if r < 0.35:
        env["topic"] = "deck"
        env["body"] = {"v": 1, "op": rng.choice([0, 1, 5, 10**6, -1]), "kind": "shuffle",
                       "step": "abort", "seat": s, "culprit": rng.choice([*WRONG, 0, 1]),
                       "about": rng.choice(WRONG), "reason": rng.choice(WRONG)}
        what = f"an abort from seat {s}, culprit {env['body']['culprit']!r:.20}"
    elif r < 0.7:
        other = recs[rng.choice(idx)]["env"]
        env["topic"], env["body"] = other["topic"], copy.deepcopy(other["body"])
        if "seat" in env["body"] and rng.random() < 0.7:
            env["body"]["seat"] = s
        what = f"seat {s} repeats line {recs.index(recs[i]) + 1}'s body"
    else:
        what = "a mutated copy: " + _mutate_tree(rng, env, ("body",))
    j = rng.randrange(i + 1, len(recs) + 1)
    recs.insert(j, new)
    return f"insert at line {j + 1} {what}, re-signed", join(encode(resign(recs, g.identities)))


BYTE_MUTATORS: list[Callable[[random.Random, Game], tuple[str, bytes]]] = [
    truncate, truncate_at_line, drop_line, duplicate_line, swap_lines, flip_char, invalid_utf8,
    binary_file, empty_file, retype_unsigned, retype_envelope,
]
DEEP_MUTATORS: list[Callable[[random.Random, Game], tuple[str, bytes]]] = [
    resigned_body, resigned_reorder, resigned_insert,
]
