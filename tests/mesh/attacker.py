"""An attacker on the LAN with no code and no key, as its own OS process (its memory is not the
victim's): ``python tests/mesh/attacker.py MODE ADDRESS SECONDS [CODE]``. Bounded: it stops
after SECONDS (or after one message, for ``parts``) and prints ``sent N``. Without CODE it cannot
even complete the encrypted connection; with it, it is someone who knows the code (a former
player) but holds no seat.

Modes: ``big`` (512 KiB ``ctl`` frames, the largest a peer accepts, as fast as the socket takes them), ``parts`` (one message of
200,000 one-byte frames), ``hello`` (well-formed hellos from 8 connections, never finishing the
handshake), ``nested`` (frames nested 100,000 deep), ``many`` (``big`` from 64 connections at
once: each new connection starts with a full budget), ``paced`` (red team round 3: 64
connections each sending a 200 KB frame of valid canonical JSON, ``{"a":[0,0,...]}``, as an
``env`` frame every 3.2 s, within what a connection without a seat was allowed (64 KiB/s): it
cost the victim 150-190 ms of parsing a frame).
"""

from __future__ import annotations

import json
import secrets
import sys
import time
from pathlib import Path

import zmq

from protocol.mesh.common import MESH_VERSION

MIB = 1024 * 1024


def _keys(n: int) -> list[str]:
    from nacl.signing import SigningKey

    return [SigningKey.generate().verify_key.encode().hex() for _ in range(n)]


KEYS: list[str] = []


def hello(i: int) -> bytes:
    if not KEYS:
        KEYS.extend(_keys(64))
    msg = {"addr": f"tcp://127.0.0.1:{20000 + i % 1000}", "key": KEYS[i % len(KEYS)],
           "name": f"x{i % 1000}", "nonce": secrets.token_hex(32), "t": "hello",
           "v": MESH_VERSION}
    return json.dumps(msg, sort_keys=True, separators=(",", ":")).encode()


def run(mode: str, address: str, seconds: float, code: str = "") -> int:
    ctx = zmq.Context()
    socks = []
    curve = None
    if code:
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
        from protocol.mesh.common import Curve
        from protocol.tablecode import transport_secret

        curve = Curve.from_secret(transport_secret(code))
    for _ in range({"hello": 8, "many": 64, "paced": 64}.get(mode, 1)):
        s = ctx.socket(zmq.DEALER)
        if curve is not None:
            curve.dial(s)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.SNDHWM, 1000)
        s.connect(address)
        socks.append(s)
    sent, end = 0, time.monotonic() + seconds
    try:
        if mode == "parts":
            socks[0].send_multipart([b"ctl"] + [b"x"] * 200_000)
            sent = 1
            time.sleep(min(seconds, 2.0))
        elif mode == "paced":
            time.sleep(1.0)  # the encrypted handshakes
            junk = json.dumps({"a": [0] * 100_000}, separators=(",", ":")).encode()
            while time.monotonic() < end:
                for s in socks:
                    try:
                        s.send_multipart([b"env", junk], flags=zmq.DONTWAIT)
                        sent += 1
                    except zmq.Again:
                        pass
                time.sleep(3.2)
        else:
            big = b"\x00" * (MIB // 2 - 64)
            payload = {"big": big, "many": big, "nested": b"[" * 100_000 + b"]" * 100_000}
            while time.monotonic() < end:
                for s in socks:
                    data = hello(sent) if mode == "hello" else payload[mode]
                    kind = b"hs" if mode == "hello" else b"ctl"
                    try:
                        s.send_multipart([kind, data], flags=zmq.DONTWAIT)
                        sent += 1
                    except zmq.Again:
                        time.sleep(0.001)
    finally:
        for s in socks:
            s.close(0)
        ctx.term()
    return sent


if __name__ == "__main__":
    n = run(sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else "")
    print(f"sent {n}", flush=True)
