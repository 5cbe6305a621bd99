"""The ZeroMQ mesh: every seat of a table talks to every other seat, no server.

Each peer binds one ROUTER (its inbox) and connects one DEALER to every other peer's ROUTER
(zguide's "Harmony" pattern, as in Zyre). Everything a peer sends goes out on its DEALERs; the
ROUTER only ever receives (and answers join handshakes); ``gate`` decides which connections it
admits at the end of their encrypted handshake (at most 128 from one address). See ``docs/network.md`` for the full
wire format; in short every ZeroMQ message is two frames, ``[kind, canonical JSON]``:

- ``hs``: join handshake (hello → challenge → join → welcome | refused), the only unsigned-by-roster
  traffic; the table code is proven with an HMAC, never sent.
- ``ctl``: control messages signed by a seated peer (link, heads, roster, want, proof?, proof,
  evidence, bye), bound to the table and fresh by (session, counter).
- ``env`` / ``relay``: an envelope (``protocol.envelope``) sent by its author / forwarded by
  another peer during catch-up.

Usage::

    mesh = await Mesh.host(identity, seats=3, port=0, game_info={"game": "go-out-girl"})
    print(mesh.code, mesh.address)             # tell the other players
    await mesh.wait_full()
    ch = mesh.channel                          # a protocol.channel.Channel
    await ch.broadcast("game", {"hello": 1})

    mesh = await Mesh.join(identity, "192.168.1.5:7000", code="ABC-DEF", name="bob")
    mesh = await Mesh.resume(identity, table_id)   # after a crash: replay from the transcript
"""

from __future__ import annotations

from .channel import MeshChannel, Replay
from .common import (
    CTL_DOMAIN,
    HS_DOMAIN,
    HWM,
    K_CTL,
    K_ENV,
    K_HS,
    K_RELAY,
    MAX_BATCH,
    MAX_FRAME,
    MAX_FUTURE,
    MESH_VERSION,
    JoinFailed,
    JoinRefused,
    MeshError,
    MeshEvent,
    ReplayDivergence,
    Timings,
)
from .core import Mesh

__all__ = [
    "Mesh",
    "MeshChannel",
    "Replay",
    "MESH_VERSION",
    "CTL_DOMAIN",
    "HS_DOMAIN",
    "K_HS",
    "K_CTL",
    "K_ENV",
    "K_RELAY",
    "MAX_FRAME",
    "HWM",
    "MAX_FUTURE",
    "MAX_BATCH",
    "MeshError",
    "JoinRefused",
    "JoinFailed",
    "ReplayDivergence",
    "Timings",
    "MeshEvent",
]
