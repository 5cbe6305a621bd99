"""What every proof of deck v2 shares: strict JSON encodings, the Fiat–Shamir transcript encoding,
and the derivation of deterministic nonces. See ``protocol/PROOFS.md``.

Nothing here raises on bad input from the wire: the parsers return ``None`` or raise
:class:`Malformed`, which the ``verify_*`` functions turn into a one-line reason.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any

from . import group as g
from .elgamal import Ciphertext
from .group import Point, Scalar, lp, u32

_HEX64 = re.compile(r"[0-9a-f]{64}")
#: Longest list a proof may carry (a shuffle of more cards than this is refused outright).
MAX_ITEMS = 1 << 16


class Malformed(Exception):
    """A proof or statement that does not have the required shape; ``str()`` is the reason."""


# ---- JSON encodings --------------------------------------------------------------------------------
def hex32(v: Any) -> bytes | None:
    """32 bytes from exactly 64 lowercase hex characters, else ``None`` (no other check)."""
    if type(v) is not str or len(v) != 64 or not _HEX64.fullmatch(v):
        return None
    return bytes.fromhex(v)


def point_from_hex(v: Any) -> Point | None:
    """A valid point (canonical, in the prime-order subgroup, not small order, not the identity)
    from 64 lowercase hex characters, else ``None``."""
    b = hex32(v)
    return b if b is not None and g.is_valid_point(b) else None


def scalar_from_hex(v: Any) -> Scalar | None:
    """A canonical scalar in ``[1, L)`` from 64 lowercase hex characters (little-endian), else
    ``None``."""
    b = hex32(v)
    if b is None:
        return None
    return b if 0 < int.from_bytes(b, "little") < g.L else None


def ct_to_json(ct: Ciphertext) -> list[str]:
    return [ct[0].hex(), ct[1].hex()]


def ct_from_json(v: Any, check: bool = True) -> Ciphertext | None:
    """A ciphertext from ``[hex a, hex b]``, both valid points, else ``None``.

    ``check=False`` checks the hex format only, which saves two subgroup checks (about one
    multiplication) per ciphertext. Use it only for ciphertexts that a ``verify_shuffle`` is about
    to check, and keep them only if it accepts: an accepted proof of shuffle has validated every
    input and output point (each was multiplied by a non-zero scalar, and libsodium refuses an
    invalid point). ``verify_shares`` and ``verify_encrypted_shares`` do not validate the ``b``
    components of their ciphertexts."""
    if type(v) not in (list, tuple) or len(v) != 2:
        return None
    if not check:
        a, b = hex32(v[0]), hex32(v[1])
    else:
        a, b = point_from_hex(v[0]), point_from_hex(v[1])
    if a is None or b is None:
        return None
    return (a, b)


# ---- parsing a proof -------------------------------------------------------------------------------
def check_keys(proof: Any, keys: Sequence[str]) -> dict:
    if type(proof) is not dict:
        raise Malformed(f"malformed proof: not an object (got {type(proof).__name__})")
    missing = [k for k in keys if k not in proof]
    if missing:
        raise Malformed(f"malformed proof: missing {missing[0]!r}")
    extra = [k for k in proof if k not in keys]
    if extra:
        raise Malformed(f"malformed proof: unexpected field {str(extra[0])[:40]!r}")
    return proof


def get_scalar(proof: dict, key: str, index: int | None = None) -> int:
    v = proof[key] if index is None else proof[key][index]
    where = repr(key) if index is None else f"{key!r}[{index}]"
    b = hex32(v)
    if b is None:
        raise Malformed(f"malformed proof: {where} is not 64 lowercase hex characters")
    k = int.from_bytes(b, "little")
    if not 0 < k < g.L:
        raise Malformed(f"malformed proof: {where} is not a canonical non-zero scalar")
    return k


def get_point(proof: dict, key: str, index: int | None = None) -> bytes:
    """The 32 bytes of a point field. Only the format is checked here: every such point is either
    multiplied by a non-zero scalar (libsodium then validates it) or compared with a computed one."""
    v = proof[key] if index is None else proof[key][index]
    b = hex32(v)
    if b is None:
        where = repr(key) if index is None else f"{key!r}[{index}]"
        raise Malformed(f"malformed proof: {where} is not 64 lowercase hex characters")
    return b


def get_list(proof: dict, key: str, n: int) -> list:
    v = proof[key]
    if type(v) is not list:
        raise Malformed(f"malformed proof: {key!r} is not a list")
    if len(v) != n:
        raise Malformed(f"malformed proof: {key!r} has {len(v)} items, the statement needs {n}")
    return v


def stmt_point(p: Any, what: str) -> bytes:
    if type(p) is not bytes or len(p) != 32:
        raise Malformed(f"statement: {what} is not a 32-byte point")
    return p


def _is_seq(v: Any) -> bool:
    return type(v) in (list, tuple) or (isinstance(v, Sequence) and not isinstance(v, (str, bytes)))


def stmt_cts(cts: Any, what: str) -> list[tuple[bytes, bytes]]:
    if not _is_seq(cts):
        raise Malformed(f"statement: {what} is not a list of ciphertexts")
    if len(cts) > MAX_ITEMS:
        raise Malformed(f"statement: too many {what} ({len(cts)})")
    out = []
    for i, ct in enumerate(cts):
        if type(ct) is tuple and len(ct) == 2 and type(ct[0]) is bytes and type(ct[1]) is bytes \
                and len(ct[0]) == 32 and len(ct[1]) == 32:
            out.append(ct)  # the common case, without building a message for each point
            continue
        if not _is_seq(ct) or len(ct) != 2:
            raise Malformed(f"statement: {what} {i} is not a ciphertext")
        out.append((stmt_point(ct[0], f"{what} {i}"), stmt_point(ct[1], f"{what} {i}")))
    return out


def stmt_points(ps: Any, what: str) -> list[bytes]:
    if not _is_seq(ps):
        raise Malformed(f"statement: {what} is not a list of points")
    if len(ps) > MAX_ITEMS:
        raise Malformed(f"statement: too many {what} ({len(ps)})")
    return [stmt_point(p, f"{what} {i}") for i, p in enumerate(ps)]


def stmt_context(context: Any) -> bytes:
    if type(context) is not bytes:
        raise Malformed("statement: the context is not bytes")
    return context


# ---- transcript --------------------------------------------------------------------------------------
def enc_points(ps: Sequence[bytes]) -> bytes:
    """``u32(n) || p_1 || ... || p_n`` (32 bytes each): the encoding of a list of points."""
    return u32(len(ps)) + b"".join(ps)


def enc_cts(cts: Sequence[Ciphertext]) -> bytes:
    """``u32(n) || a_1 || b_1 || ... || a_n || b_n``: the encoding of a list of ciphertexts."""
    return u32(len(cts)) + b"".join(a + b for a, b in cts)


def digest(*parts: bytes) -> bytes:
    """``SHA-512(lp(part_1) || ... || lp(part_n))``."""
    return hashlib.sha512(b"".join([len(p).to_bytes(4, "big") + p for p in parts])).digest()


def nonces(domain: bytes, nonce_seed: bytes, witness: bytes, statement: bytes) -> Callable[[], int]:
    """The prover's nonces: ``nonce_stream(k, domain)`` with
    ``k = HMAC-SHA-512(nonce_seed, lp(domain) || lp(witness) || lp(statement digest))``. Binding the
    witness and the statement means a seed re-used for another statement still yields fresh nonces
    (re-using a nonce with two challenges would reveal the witness)."""
    if type(nonce_seed) is not bytes:
        raise TypeError("nonce_seed must be bytes")
    k = hmac.digest(nonce_seed, lp(domain) + lp(witness) + lp(statement), "sha512")
    return g.nonce_stream_int(k, domain)


def sc_hex(v: int) -> str:
    return g.sc(v).hex()


def scalar_arg(k: Any, what: str) -> int:
    """A prover's secret scalar argument as an int (``ValueError`` if it is not a valid scalar)."""
    try:
        return g.sc_int(g.validate_scalar(k))
    except g.InvalidScalar as exc:
        raise ValueError(f"{what}: {exc}") from None


# ---- proofs already seen to hold -------------------------------------------------------------------
#: How many verified proofs a process remembers (the oldest half is forgotten when full). A
#: two-seat game of Go Out Girl verifies about 200 proofs.
HELD_MAX = 4096
#: Off in the benchmarks, which verify one proof again and again to time it, and play every seat
#: of a table in one process where a real table verifies each proof once per program.
REMEMBER = True
_HELD: dict[bytes, None] = {}
_HELD_LOCK = threading.Lock()


def _held_key(name: str, args: tuple[Any, ...]) -> bytes | None:
    """A digest of exactly these arguments, their types included: ``repr`` of the plain values a
    verifier is given (bytes, str, int, bool, None, lists, tuples, dicts) tells apart every two
    values that differ in any byte, in type (``1`` and ``True``, a list and a tuple) or in the
    order of a dict's keys. Anything else (or a value too deep to ``repr``) is not remembered."""
    try:
        if not _plain(args, 0):
            return None
        return hashlib.blake2b(repr((name, args)).encode(), digest_size=32).digest()
    except (RecursionError, ValueError, TypeError):
        return None


def _plain(v: Any, depth: int) -> bool:
    t = type(v)
    if t in (bytes, str, int, bool) or v is None:
        return True
    if depth > 8:
        return False
    if t in (list, tuple):
        return all(_plain(x, depth + 1) for x in v)
    if t is dict:
        return all(type(k) is str and _plain(x, depth + 1) for k, x in v.items())
    return False


def remember_holds(verify: Callable[..., str | None]) -> Callable[..., str | None]:
    """``verify`` (a ``verify_*`` of this package: deterministic, ``None`` when the proof holds)
    run at most once per process on the same statement and proof. Only a proof that holds is
    remembered, under a digest of every argument (statement, proof and context, byte for byte
    and type for type); the same call again returns ``None`` without the multiplications. A
    proof that fails is checked afresh every time, so its reason is always computed.

    Where it saves: several seats in one process (tests, a bot host) each check the same shuffle
    step; an audit in the process that played the game, or audits of one record over and over
    (the audit's tests, a fuzzer), replay proofs already checked. No check is skipped: a proof
    and statement are only ever taken as holding when these exact values held before."""
    name = f"{verify.__module__}.{verify.__qualname__}"

    def wrapper(*args: Any, **kwargs: Any) -> str | None:
        key = _held_key(name, (*args, sorted(kwargs.items()))) if REMEMBER else None
        if key is not None and key in _HELD:
            return None
        reason = verify(*args, **kwargs)
        if reason is None and key is not None:
            with _HELD_LOCK:
                if len(_HELD) >= HELD_MAX:
                    for old in list(_HELD)[:HELD_MAX // 2]:
                        del _HELD[old]
                _HELD[key] = None
        return reason

    wrapper.__name__, wrapper.__qualname__ = verify.__name__, verify.__qualname__
    wrapper.__doc__, wrapper.__module__ = verify.__doc__, verify.__module__
    wrapper.__wrapped__ = verify  # type: ignore[attr-defined]
    return wrapper


def forget_held() -> None:
    """Forget every remembered proof (tests that count the work a verifier does)."""
    with _HELD_LOCK:
        _HELD.clear()
