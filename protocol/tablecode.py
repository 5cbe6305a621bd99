"""Table codes and table ids.

The *table code* is what ``host`` prints and players type into ``join``: six Crockford base-32
characters shown as ``ABC-DEF`` (30 bits). Input is forgiving: case, spaces and dashes are ignored
and the look-alikes O, I and L read as 0, 1 and 1.

The code never goes on the wire. Both sides stretch it with scrypt (N=2^14, r=8, p=1, salt =
``b"p2pcards/v1/code" + table id bytes``) into a key and prove knowledge of it with HMAC-SHA256
over the handshake's two nonces and both identity keys (``code_proof``). The stretching makes an
offline guess at a code seen in a captured handshake cost ~30 ms of CPU and 16 MiB per guess.

The *table id* is 16 random bytes (32 hex digits), chosen by the host; every envelope is bound to it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from .identity import CROCKFORD

CODE_LENGTH = 6
_LOOKALIKE = {"O": "0", "I": "1", "L": "1"}


def new_code() -> str:
    raw = "".join(secrets.choice(CROCKFORD) for _ in range(CODE_LENGTH))
    return format_code(raw)


def format_code(code: str) -> str:
    half = CODE_LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


def normalize_code(text: str) -> str:
    """The canonical form ``ABC-DEF`` of a typed code; ``ValueError`` with a readable reason."""
    if not isinstance(text, str):
        raise ValueError("a table code is text like ABC-DEF")
    raw = "".join(_LOOKALIKE.get(c, c) for c in text.upper() if c not in " -_\t")
    bad = sorted({c for c in raw if c not in CROCKFORD})
    if bad:
        raise ValueError(f"a table code has only letters and digits (not {''.join(bad)!r})")
    if len(raw) != CODE_LENGTH:
        raise ValueError(
            f"a table code has {CODE_LENGTH} characters, like ABC-DEF (got {len(raw)})"
        )
    return format_code(raw)


def new_table_id() -> str:
    return secrets.token_hex(16)


def code_key(code: str, table: str) -> bytes:
    """The stretched key of a (normalised) code for one table."""
    return hashlib.scrypt(
        normalize_code(code).encode("ascii"),
        salt=b"p2pcards/v1/code" + bytes.fromhex(table),
        n=2**14,
        r=8,
        p=1,
        dklen=32,
    )


def transport_secret(code: str) -> bytes:
    """The table's transport key (a Curve25519 secret) from its code. Every peer's ROUTER is a
    CurveZMQ server with it, so nobody without the code can open a connection at all; each
    connection's session keys are ephemeral (forward secrecy), so neither the code nor an
    identity key opens a recorded game later."""
    return hashlib.scrypt(
        normalize_code(code).encode("ascii"),
        salt=b"p2pcards/v2/transport",
        n=2**14,
        r=8,
        p=1,
        dklen=32,
    )


def code_proof(
    key: bytes,
    role: str,
    table: str,
    host_nonce: str,
    join_nonce: str,
    joiner_key: str,
    host_key: str,
) -> str:
    """HMAC-SHA256 (hex) proving knowledge of the code; ``role`` is "join" or "host"."""
    msg = "\n".join(
        ["p2pcards/v1/code-proof", role, table, host_nonce, join_nonce, joiner_key, host_key]
    )
    return hmac.new(key, msg.encode("ascii"), hashlib.sha256).hexdigest()


def proofs_equal(a: object, b: str) -> bool:
    return isinstance(a, str) and hmac.compare_digest(
        a.encode("ascii", "replace"), b.encode("ascii")
    )
