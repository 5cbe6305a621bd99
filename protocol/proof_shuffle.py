"""The proof of shuffle of deck v2: Terelius–Wikström, as specified step by step in Haenni,
Locher, Koenig, Dubuis, "Pseudo-code algorithms for verifiable re-encryption mix-nets" (FC 2017
workshops), ``GenShuffleProof`` / ``CheckShuffleProof``, written additively over the prime-order
subgroup of edwards25519 (their ``g`` is ``G``, their ``h`` and ``h_i`` are
``generators(b"p2pcards/v2/shuffle", N + 1)``). ``protocol/PROOFS.md`` gives every equation,
the hash inputs byte by byte and the cost; the names below follow it.

Statement: inputs ``e_j = (a_j, b_j)``, outputs ``e'_i = (a'_i, b'_i)``, joint key ``Y``. Witness:
``ψ`` (``perm``) and ``r'_i`` (``rands``) with ``e'_i = e_{ψ(i)} + (r'_i·G, r'_i·Y)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import group as g
from .elgamal import Ciphertext, check_perm
from .group import L, Point, Scalar, u32
from .proof_common import (
    Malformed,
    check_keys,
    digest,
    enc_cts,
    enc_points,
    get_list,
    get_point,
    get_scalar,
    nonces,
    remember_holds,
    sc_hex,
    stmt_context,
    stmt_cts,
    stmt_point,
)

SHUFFLE_DOMAIN = b"p2pcards/v2/shuffle"
#: The label of the generators ``h`` (index 0: the start of the commitment chain) and
#: ``h_1..h_N`` (indices 1..N: the permutation commitment).
GENERATORS_LABEL = b"p2pcards/v2/shuffle"

FIELDS = ("c", "perm_commit", "chain", "t1", "t2", "t3", "t4a", "t4b", "t_chain",
          "s1", "s2", "s3", "s4", "s_chain", "s_perm")


_GENERATOR_SUMS: dict[int, Point] = {}


def _sum_generators(n: int) -> Point:
    """``Σ h_i`` for ``i = 1..n`` (cached: it depends on ``n`` only)."""
    if n not in _GENERATOR_SUMS:
        _GENERATOR_SUMS[n] = g.sum_points(g.generators(GENERATORS_LABEL, n + 1)[1:])
    return _GENERATOR_SUMS[n]


def _statement(y: bytes, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext], context: bytes) -> bytes:
    """``D0``: the digest of the statement."""
    return digest(SHUFFLE_DOMAIN, context, y, GENERATORS_LABEL, u32(len(inputs)), enc_cts(inputs),
                  enc_cts(outputs))


def _challenges(d0: bytes, commits: Sequence[bytes]) -> tuple[bytes, list[int]]:
    """``D1 = digest(D0, commitments)`` and ``u_j = H(domain + "/u", D1, u32(j))``."""
    d1 = digest(SHUFFLE_DOMAIN + b"/commit", d0, enc_points(commits))
    dom = SHUFFLE_DOMAIN + b"/u"
    return d1, [g.hash_to_int(dom, d1, u32(j)) for j in range(len(commits))]


def _challenge(d1: bytes, chain: Sequence[bytes], t1: bytes, t2: bytes, t3: bytes, t4a: bytes, t4b: bytes,
               t_chain: Sequence[bytes]) -> int:
    return g.hash_to_int(SHUFFLE_DOMAIN, d1, enc_points(chain), t1, t2, t3, t4a, t4b, enc_points(t_chain))


def prove_shuffle(y: Point, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext],
                  perm: Sequence[int], rands: Sequence[Scalar], context: bytes, nonce_seed: bytes) -> dict:
    """The proof that ``outputs[i] = reencrypt(y, inputs[perm[i]], rands[i])`` for every ``i``,
    revealing nothing about ``perm``. Deterministic in its arguments."""
    n = len(inputs)
    if len(outputs) != n or len(rands) != n:
        raise ValueError("prove_shuffle: as many outputs and rands as inputs")
    check_perm(perm, n)
    rp = [g.sc_int(r) % L for r in rands]
    hs = g.generators(GENERATORS_LABEL, n + 1)
    h0, hs = hs[0], hs[1:]
    d0 = _statement(y, inputs, outputs, context)
    witness = b"".join(u32(j) for j in perm) + b"".join(g.sc(r) for r in rp)
    nxt = nonces(SHUFFLE_DOMAIN, nonce_seed, witness, d0)

    # permutation commitment: c_{ψ(i)} = r_{ψ(i)}·G + h_i
    r = [nxt() for _ in range(n)]
    commits: list[bytes] = [b""] * n
    for i, j in enumerate(perm):
        commits[j] = g.add(g.base_mul_int(r[j]), hs[i])
    d1, u = _challenges(d0, commits)
    up = [u[j] for j in perm]  # u'_i = u_{ψ(i)}

    # commitment chain: ĉ_0 = h, ĉ_i = r̂_i·G + u'_i·ĉ_{i-1}
    rh = [nxt() for _ in range(n)]
    chain = []
    prev = h0
    for i in range(n):
        prev = g.add(g.base_mul_int(rh[i]), g.mul_int(up[i], prev))
        chain.append(prev)

    r_bar = sum(r) % L
    r_hat = 0
    v = 1  # v_i = Π_{k>i} u'_k, from i = N down
    for i in range(n - 1, -1, -1):
        r_hat = (r_hat + rh[i] * v) % L
        v = v * up[i] % L
    r_tilde = sum(rj * uj for rj, uj in zip(r, u, strict=True)) % L
    r_prime = sum(ri * ui for ri, ui in zip(rp, up, strict=True)) % L

    w1, w2, w3, w4 = nxt(), nxt(), nxt(), nxt()
    w_hat = [nxt() for _ in range(n)]
    w_prime = [nxt() for _ in range(n)]
    t1 = g.base_mul_int(w1)
    t2 = g.base_mul_int(w2)
    t3 = g.add(g.base_mul_int(w3), g.msm_int(w_prime, hs))
    # Σ ω'_i·e'_i = Σ ω'_i·e_{ψ(i)} + (Σ ω'_i·r'_i)·(G, Y): the same points, computed from the
    # inputs, whose a are all G in the public initial deck (msm merges them into one fixed-base
    # multiplication).
    k = (sum(w * r_ for w, r_ in zip(w_prime, rp, strict=True)) - w4) % L
    t4a = g.add(g.msm_int(w_prime, [inputs[j][0] for j in perm]), g.base_mul_int(k))
    t4b = g.add(g.msm_int(w_prime, [inputs[j][1] for j in perm]), g.mul_any(k, y))
    t_chain = []
    prev = h0
    for i in range(n):
        t_chain.append(g.add(g.base_mul_int(w_hat[i]), g.mul_int(w_prime[i], prev)))
        prev = chain[i]

    c = _challenge(d1, chain, t1, t2, t3, t4a, t4b, t_chain)
    return {
        "c": sc_hex(c),
        "perm_commit": [p.hex() for p in commits],
        "chain": [p.hex() for p in chain],
        "t1": t1.hex(), "t2": t2.hex(), "t3": t3.hex(), "t4a": t4a.hex(), "t4b": t4b.hex(),
        "t_chain": [p.hex() for p in t_chain],
        "s1": sc_hex(w1 + c * r_bar), "s2": sc_hex(w2 + c * r_hat),
        "s3": sc_hex(w3 + c * r_tilde), "s4": sc_hex(w4 + c * r_prime),
        "s_chain": [sc_hex(w_hat[i] + c * rh[i]) for i in range(n)],
        "s_perm": [sc_hex(w_prime[i] + c * up[i]) for i in range(n)],
    }


@remember_holds
def verify_shuffle(y: Point, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext], proof: Any,
                   context: bytes) -> str | None:
    """``None`` when ``proof`` shows ``outputs`` to be a re-encryption of a permutation of
    ``inputs`` under ``y``, else a one-line reason. Never raises."""
    try:
        return _verify(y, inputs, outputs, proof, context)
    except Malformed as exc:
        return f"shuffle proof: {exc}"
    except Exception as exc:  # the promise: a verifier never raises
        return f"shuffle proof: malformed input ({type(exc).__name__})"


def _verify(y: Any, inputs: Any, outputs: Any, proof: Any, context: Any) -> str | None:
    context = stmt_context(context)
    y = stmt_point(y, "the joint key")
    ins = stmt_cts(inputs, "input")
    outs = stmt_cts(outputs, "output")
    n = len(ins)
    if len(outs) != n:
        return f"shuffle proof: {len(outs)} outputs for {n} inputs"
    p = check_keys(proof, FIELDS)
    for k in ("perm_commit", "chain", "t_chain", "s_chain", "s_perm"):
        get_list(p, k, n)  # the lengths first: a huge list is refused before anything is parsed
    commits = [get_point(p, "perm_commit", i) for i in range(n)]
    chain = [get_point(p, "chain", i) for i in range(n)]
    t_chain = [get_point(p, "t_chain", i) for i in range(n)]
    t1, t2, t3, t4a, t4b = (get_point(p, k) for k in ("t1", "t2", "t3", "t4a", "t4b"))
    s1, s2, s3, s4 = (get_scalar(p, k) for k in ("s1", "s2", "s3", "s4"))
    s_chain = [get_scalar(p, "s_chain", i) for i in range(n)]
    s_perm = [get_scalar(p, "s_perm", i) for i in range(n)]

    hs = g.generators(GENERATORS_LABEL, n + 1)
    h0, hs = hs[0], hs[1:]
    d0 = _statement(y, ins, outs, context)
    d1, u = _challenges(d0, commits)
    c = _challenge(d1, chain, t1, t2, t3, t4a, t4b, t_chain)
    # The challenge is also carried in the proof: it binds even a shuffle of no card (where no
    # equation involves it) to its context and statement.
    if get_scalar(p, "c") != c:
        return "shuffle proof: challenge mismatch (another statement or context)"
    cu_neg = [-c * uj for uj in u]

    # t3 = s3·G + Σ s'_i·h_i − c·Σ u_j·c_j   (this multiplication validates every c_j)
    try:
        commit_part = g.msm_int(cu_neg, commits)
    except g.InvalidPoint as exc:
        return f"shuffle proof: 'perm_commit'[{exc.index}] is not a valid point"
    if g.add(g.add(g.base_mul_int(s3), g.msm_int(s_perm, hs)), commit_part) != t3:
        return "shuffle proof: equation t3 fails"

    # t_chain_i = ŝ_i·G + s'_i·ĉ_{i-1} − c·ĉ_i   (validates every ĉ_i)
    prev = h0
    for i in range(n):
        try:
            lhs = g.add(g.add(g.base_mul_int(s_chain[i]), g.mul_int(s_perm[i], prev)), g.mul_int(-c, chain[i]))
        except g.InvalidPoint:
            return f"shuffle proof: 'chain'[{i}] is not a valid point"
        if lhs != t_chain[i]:
            return f"shuffle proof: equation t_chain[{i}] fails"
        prev = chain[i]

    # t1 = s1·G − c·c̄,  c̄ = Σ c_j − Σ h_i
    c_bar = g.sub(g.sum_points(commits), _sum_generators(n))
    if g.sub(g.base_mul_int(s1), g.mul_any(c, c_bar)) != t1:
        return "shuffle proof: equation t1 fails"

    # t2 = s2·G − c·ĉ,  ĉ = ĉ_N − (Π u_j)·h
    u_prod = 1
    for uj in u:
        u_prod = u_prod * uj % L
    c_hat = g.sub(chain[-1] if n else h0, g.mul_int(u_prod, h0))
    if g.sub(g.base_mul_int(s2), g.mul_any(c, c_hat)) != t2:
        return "shuffle proof: equation t2 fails"

    # t4 = Σ s'_i·e'_i − c·Σ u_j·e_j − s4·(G, Y)
    try:
        out_a = g.msm_int(s_perm, [a for a, _ in outs])
        out_b = g.msm_int(s_perm, [b for _, b in outs])
    except g.InvalidPoint as exc:
        return f"shuffle proof: output {exc.index} is not a valid point"
    try:
        in_a = g.msm_int(cu_neg, [a for a, _ in ins])
        in_b = g.msm_int(cu_neg, [b for _, b in ins])
    except g.InvalidPoint as exc:
        return f"shuffle proof: input {exc.index} is not a valid point"
    if g.sub(g.add(out_a, in_a), g.base_mul_int(s4)) != t4a:
        return "shuffle proof: equation t4a fails"
    try:
        ys4 = g.mul_int(s4, y)
    except g.InvalidPoint:
        return "shuffle proof: the joint key is not a valid point"
    if g.sub(g.add(out_b, in_b), ys4) != t4b:
        return "shuffle proof: equation t4b fails"
    return None
