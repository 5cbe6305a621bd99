"""The small proofs of deck v2: Schnorr proof of a key share, batched Chaum–Pedersen proof of
decryption shares, and the proof of encrypted shares. Fiat–Shamir, challenge form ``(c, z...)``:
the verifier recomputes the commitments and the challenge. See ``protocol/PROOFS.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import group as g
from .elgamal import Ciphertext
from .group import L, Point, Scalar
from .proof_common import (
    Malformed,
    check_keys,
    digest,
    enc_cts,
    enc_points,
    get_scalar,
    nonces,
    remember_holds,
    sc_hex,
    scalar_arg,
    stmt_context,
    stmt_cts,
    stmt_point,
    stmt_points,
)

KEY_DOMAIN = b"p2pcards/v2/key"
SHARES_DOMAIN = b"p2pcards/v2/shares"
ENC_SHARES_DOMAIN = b"p2pcards/v2/encrypted-shares"


def _alphas(domain: bytes, d: bytes, m: int) -> list[int]:
    """The batching coefficients ``α_i = H(domain + "/alpha", D, u32(i))``, fixed by the whole
    statement (digest ``D``) before the prover's commitments, and the same for every verifier."""
    dom = domain + b"/alpha"
    return [g.hash_to_int(dom, d, g.u32(i)) for i in range(m)]


# ---- Schnorr: knowledge of x with Y = x·G -------------------------------------------------------------
def _key_statement(y: bytes, context: bytes) -> bytes:
    return digest(KEY_DOMAIN, context, y)


def prove_key(x: Scalar, context: bytes, nonce_seed: bytes) -> dict:
    """Schnorr proof of knowledge of ``x`` with ``Y = x·G``, bound to ``context``."""
    xi = scalar_arg(x, "prove_key")
    y = g.base_mul_int(xi)
    d = _key_statement(y, context)
    w = nonces(KEY_DOMAIN, nonce_seed, g.sc(xi), d)()
    t = g.base_mul_int(w)
    c = g.hash_to_int(KEY_DOMAIN, d, t)
    return {"c": sc_hex(c), "z": sc_hex(w + c * xi)}


def verify_key(y: Point, proof: Any, context: bytes) -> str | None:
    """``None`` when ``proof`` proves knowledge of ``log_G y`` under ``context``, else a reason."""
    try:
        context = stmt_context(context)
        y = stmt_point(y, "the public key")
        p = check_keys(proof, ("c", "z"))
        c, z = get_scalar(p, "c"), get_scalar(p, "z")
        try:
            t = g.sub(g.base_mul_int(z), g.mul_int(c, y))
        except g.InvalidPoint:
            return "key proof: the public key is not a valid point"
        if g.hash_to_int(KEY_DOMAIN, _key_statement(y, context), t) != c:
            return "key proof: challenge mismatch"
        return None
    except Malformed as exc:
        return f"key proof: {exc}"
    except Exception as exc:  # the promise: a verifier never raises
        return f"key proof: malformed input ({type(exc).__name__})"


# ---- batched Chaum–Pedersen: d_i = x·a_i for every i, Y = x·G ----------------------------------------
def _shares_statement(y: bytes, cts: Sequence[Ciphertext], shares: Sequence[bytes], context: bytes) -> bytes:
    return digest(SHARES_DOMAIN, context, y, enc_cts(cts), enc_points(shares))


def prove_shares(x: Scalar, cts: Sequence[Ciphertext], context: bytes, nonce_seed: bytes, *,
                 shares: Sequence[Point] | None = None, y: Point | None = None) -> dict:
    """Batched Chaum–Pedersen proof that ``d_i = x·a_i`` for every card ``i`` (``d_i`` being
    :func:`protocol.elgamal.share`) and ``Y = x·G``. A caller that has already computed the
    shares (or ``Y``) passes them, saving a multiplication each; they must be exactly those
    values (otherwise the proof made does not verify)."""
    xi = scalar_arg(x, "prove_shares")
    y = g.base_mul_int(xi) if y is None else y
    shares = [g.mul_int(xi, a) for a, _ in cts] if shares is None else list(shares)
    if len(shares) != len(cts):
        raise ValueError("prove_shares: one share per ciphertext")
    d = _shares_statement(y, cts, shares, context)
    alphas = _alphas(SHARES_DOMAIN, d, len(cts))
    w = nonces(SHARES_DOMAIN, nonce_seed, g.sc(xi), d)()
    t1 = g.base_mul_int(w)
    t2 = g.msm_int([w * al for al in alphas], [a for a, _ in cts])
    c = g.hash_to_int(SHARES_DOMAIN, d, t1, t2)
    return {"c": sc_hex(c), "z": sc_hex(w + c * xi)}


@remember_holds
def verify_shares(y_j: Point, cts: Sequence[Ciphertext], shares: Sequence[Point], proof: Any,
                  context: bytes) -> str | None:
    """``None`` when ``shares[i] = x·cts[i].a`` for every ``i`` with ``y_j = x·G``, else a reason."""
    try:
        context = stmt_context(context)
        y = stmt_point(y_j, "the public key")
        cts_ = stmt_cts(cts, "ciphertext")
        ds = stmt_points(shares, "share")
        if len(ds) != len(cts_):
            return f"share proof: {len(ds)} shares for {len(cts_)} ciphertexts"
        p = check_keys(proof, ("c", "z"))
        c, z = get_scalar(p, "c"), get_scalar(p, "z")
        d = _shares_statement(y, cts_, ds, context)
        alphas = _alphas(SHARES_DOMAIN, d, len(cts_))
        try:
            t1 = g.sub(g.base_mul_int(z), g.mul_int(c, y))
        except g.InvalidPoint:
            return "share proof: the public key is not a valid point"
        try:
            ta = g.msm_int([z * al for al in alphas], [a for a, _ in cts_])
        except g.InvalidPoint as exc:
            return f"share proof: ciphertext {exc.index} is not a valid point"
        try:
            td = g.msm_int([-c * al for al in alphas], ds)
        except g.InvalidPoint as exc:
            return f"share proof: share {exc.index} is not a valid point"
        t2 = g.add(ta, td)
        if g.hash_to_int(SHARES_DOMAIN, d, t1, t2) != c:
            return "share proof: challenge mismatch"
        return None
    except Malformed as exc:
        return f"share proof: {exc}"
    except Exception as exc:  # the promise: a verifier never raises
        return f"share proof: malformed input ({type(exc).__name__})"


# ---- encrypted shares: E_i = (ρ_i·G, x·a_i + ρ_i·Y_to) ---------------------------------------------------
def encrypt_share(x: Scalar, ct: Ciphertext, y_to: Point, rho: Scalar) -> Ciphertext:
    """``(ρ·G, x·a + ρ·Y_to)``: a decryption share only the owner of ``Y_to`` can read
    (:func:`protocol.elgamal.decrypt_share`), published with :func:`prove_encrypted_shares`."""
    ri = g.sc_int(rho)
    return (g.base_mul_int(ri), g.add(g.mul(x, ct[0]), g.mul_int(ri, y_to)))


def _enc_statement(y: bytes, cts: Sequence[Ciphertext], y_to: bytes, encs: Sequence[Ciphertext],
                   context: bytes) -> bytes:
    return digest(ENC_SHARES_DOMAIN, context, y, y_to, enc_cts(cts), enc_cts(encs))


def prove_encrypted_shares(x: Scalar, cts: Sequence[Ciphertext], y_to: Point, encs: Sequence[Ciphertext],
                           rhos: Sequence[Scalar], context: bytes, nonce_seed: bytes) -> dict:
    """Proof of knowledge of ``(x, ρ_i)`` with ``Y_j = x·G``, ``E_i1 = ρ_i·G`` and
    ``E_i2 = x·a_i + ρ_i·Y_to`` for every ``i`` (batched with the coefficients ``α_i``)."""
    if len(encs) != len(cts) or len(rhos) != len(cts):
        raise ValueError("prove_encrypted_shares: one encrypted share and one rho per ciphertext")
    xi = scalar_arg(x, "prove_encrypted_shares")
    ris = [g.sc_int(r) % L for r in rhos]
    y = g.base_mul_int(xi)
    d = _enc_statement(y, cts, y_to, encs, context)
    alphas = _alphas(ENC_SHARES_DOMAIN, d, len(cts))
    rho = sum(al * r for al, r in zip(alphas, ris, strict=True)) % L
    nxt = nonces(ENC_SHARES_DOMAIN, nonce_seed, g.sc(xi) + b"".join(g.sc(r) for r in ris), d)
    w, v = nxt(), nxt()
    t1 = g.base_mul_int(w)
    t2 = g.base_mul_int(v)
    t3 = g.add(g.msm_int([w * al for al in alphas], [a for a, _ in cts]), g.mul_int(v, y_to))
    c = g.hash_to_int(ENC_SHARES_DOMAIN, d, t1, t2, t3)
    return {"c": sc_hex(c), "z1": sc_hex(w + c * xi), "z2": sc_hex(v + c * rho)}


@remember_holds
def verify_encrypted_shares(y_j: Point, cts: Sequence[Ciphertext], y_to: Point, encs: Sequence[Ciphertext],
                            proof: Any, context: bytes) -> str | None:
    """``None`` when every ``encs[i]`` encrypts ``x·cts[i].a`` under ``y_to`` with ``y_j = x·G``."""
    try:
        context = stmt_context(context)
        y = stmt_point(y_j, "the public key")
        yt = stmt_point(y_to, "the receiver's key")
        cts_ = stmt_cts(cts, "ciphertext")
        es = stmt_cts(encs, "encrypted share")
        if len(es) != len(cts_):
            return f"encrypted share proof: {len(es)} encrypted shares for {len(cts_)} ciphertexts"
        p = check_keys(proof, ("c", "z1", "z2"))
        c, z1, z2 = get_scalar(p, "c"), get_scalar(p, "z1"), get_scalar(p, "z2")
        d = _enc_statement(y, cts_, yt, es, context)
        alphas = _alphas(ENC_SHARES_DOMAIN, d, len(cts_))
        neg = [-c * al for al in alphas]
        try:
            t1 = g.sub(g.base_mul_int(z1), g.mul_int(c, y))
        except g.InvalidPoint:
            return "encrypted share proof: the public key is not a valid point"
        try:
            t2 = g.add(g.base_mul_int(z2), g.msm_int(neg, [e1 for e1, _ in es]))
            t3 = g.add(g.msm_int(neg, [e2 for _, e2 in es]), g.mul_int(z2, yt))
        except g.InvalidPoint as exc:
            where = "the receiver's key" if exc.index is None else f"encrypted share {exc.index}"
            return f"encrypted share proof: {where} is not a valid point"
        try:
            t3 = g.add(t3, g.msm_int([z1 * al for al in alphas], [a for a, _ in cts_]))
        except g.InvalidPoint as exc:
            return f"encrypted share proof: ciphertext {exc.index} is not a valid point"
        if g.hash_to_int(ENC_SHARES_DOMAIN, d, t1, t2, t3) != c:
            return "encrypted share proof: challenge mismatch"
        return None
    except Malformed as exc:
        return f"encrypted share proof: {exc}"
    except Exception as exc:  # the promise: a verifier never raises
        return f"encrypted share proof: malformed input ({type(exc).__name__})"


__all__ = [
    "encrypt_share", "prove_encrypted_shares", "prove_key", "prove_shares",
    "verify_encrypted_shares", "verify_key", "verify_shares",
]
