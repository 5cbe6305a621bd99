"""``p2pcards demo``: a whole match between peers as separate processes on this machine (the
host here, bots in their own processes), with the mental-poker deck and every peer's own audit;
``scripts/bench_table.py`` measures the same match (``local_match``)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.identity import Identity, IdentityError, data_dir, ensure_dir
from protocol.mesh import Mesh

from .bots.pacing import seat_bot
from .lobby import GameInfo, end_bots, play_seat, spawn_bot
from .net import say
from .table import TableResult


@dataclass
class MatchReport:
    """A local networked match: this process hosts (a bot seat), the others are bot processes."""

    game: str
    names: list[str]
    result: TableResult
    bot_reports: list[dict | None]
    seating_s: float
    game_s: float
    transcript: Path | None = None
    envelopes: int = 0
    transcript_bytes: int = 0

    @property
    def ok(self) -> bool:
        v = self.result.verdict
        return bool(v and v.clean) and all(
            r is not None and (r.get("verdict") or {}).get("clean") and
            r.get("outcome") == self.result.outcome for r in self.bot_reports)


async def local_match(game: str, players: int, level: str, root: Path,
                      say_: Any = say) -> MatchReport:
    """Play one match on 127.0.0.1 with ``players - 1`` bot processes; data under ``root``."""
    info = GameInfo(game, players, {})
    info.check()
    t0 = time.perf_counter()
    procs = []
    try:
        me = Identity.load_or_create(str(root / "host"))
        mesh = await Mesh.host(me, players, game_info=info.to_json(), name="host",
                               bind="127.0.0.1", home=str(root / "host"))
        for i in range(1, players):
            procs.append(spawn_bot(mesh.address.removeprefix("tcp://"), mesh.code or "",
                                   name=f"bot{i}", level=level, home=root / f"bot{i}",
                                   quiet=False, extra=["--bind", "127.0.0.1", "--json"]))
        await mesh.wait_full()
        t_full = time.perf_counter()
        result = await play_seat(mesh, seat_bot(game, mesh.seat, level, 1), say=say_, bot=True)
        t_end = time.perf_counter()
        names = [mesh.name_of(s) for s in range(players)]
        path = mesh.transcript_path
        await mesh.close()
        reports: list[dict | None] = []
        for p in procs:
            out, _ = await asyncio.to_thread(p.communicate, timeout=300)
            lines = [ln for ln in (out or b"").decode().splitlines() if ln.startswith("{")]
            reports.append(json.loads(lines[-1]) if lines else None)
        rep = MatchReport(game, names, result, reports, t_full - t0, t_end - t_full, path)
        if path is not None and path.exists():
            data = path.read_bytes()
            rep.transcript_bytes = len(data)
            rep.envelopes = sum(1 for ln in data.splitlines() if b'"env"' in ln)
        return rep
    finally:
        end_bots(procs, grace=0.0)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def _keep_transcript(path: Path | None) -> Path | None:
    """Copy the demo host's transcript into the data directory, where 'tables' lists it and
    'replay' and 'audit' read it (the demo's own files are temporary)."""
    if path is None or not path.exists():
        return None
    dest = data_dir() / "tables" / f"demo-{path.name}"
    try:  # private as every record is: the folders 0700 (as p2pcards makes them), the file 0600
        ensure_dir(data_dir())  # (a parent made by mkdir(parents=True) would be 0755)
        ensure_dir(dest.parent)
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out, open(path, "rb") as src:
            shutil.copyfileobj(src, out)
    except (OSError, IdentityError) as exc:
        say(f"(the demo's transcript was not kept: {exc})")
        return None
    return dest


async def run_demo(game: str, players: int, level: str) -> bool:
    """A host (this process, a bot seat) and players-1 bot processes on 127.0.0.1."""
    root = Path(tempfile.mkdtemp(prefix="p2pcards-demo-"))
    try:
        say(f"demo: {game}, {players} peers as separate processes on 127.0.0.1, "
            f"mental-poker deck, end-of-game audit")
        m = await local_match(game, players, level, root)
        r = m.result
        say("")
        say(f"Result: {r.text}")
        say("Audit verdicts (each peer audits the whole game itself):")
        v = r.verdict
        say(f"  {m.names[0]:>6} (this process): {v.text(m.names) if v else 'not audited'}")
        for rep in m.bot_reports:
            if rep is None:
                say("  a bot process ended without a report")
                continue
            rv = rep.get("verdict") or {}
            text = "clean" if rv.get("clean") else f"NOT clean: {rv.get('reason')}"
            say(f"  {rep['name']:>6} (own process):  {text}; same result: "
                f"{'yes' if rep.get('outcome') == r.outcome else 'NO'}")
        tm = r.timings
        lat = r.turn_latencies
        say("Timings:")
        say(f"  seating {m.seating_s:.2f} s; game {m.game_s:.2f} s ({r.steps} steps); deck service "
            f"{tm.get('deck_s', 0):.2f} s; audit {tm.get('audit_s', 0):.2f} s")
        say(f"  other seats' turns as seen here: median {1000 * percentile(lat, 0.5):.1f} ms, "
            f"p95 {1000 * percentile(lat, 0.95):.1f} ms")
        say("All peers agree and the game audits clean." if m.ok else "PROBLEM: see above.")
        kept = _keep_transcript(m.transcript)
        if kept is not None:
            say(f"Saved: {kept}  (p2pcards replay {kept})")
        return m.ok
    finally:
        shutil.rmtree(root, ignore_errors=True)
