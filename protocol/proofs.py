"""The zero-knowledge proofs of deck protocol v2 (one import for the deck): key shares, decryption
shares, encrypted shares, the proof of shuffle and the membership proof of a claim, with their strict JSON encodings.

Every ``prove_*`` is deterministic in its arguments (its nonces come from ``nonce_seed``, the
witness and the statement through :func:`protocol.group.nonce_stream`), so a seat that restarts
re-sends byte-identical messages. Every proof is a JSON-ready dict of lowercase hex strings and
lists. Every ``verify_*`` returns ``None`` when the proof holds, else a short one-line reason, and
never raises, whatever value it is given. The specification is ``protocol/PROOFS.md``.
"""

from __future__ import annotations

from .proof_common import ct_from_json, ct_to_json, point_from_hex, scalar_from_hex
from .proof_member import prove_member, verify_member
from .proof_shuffle import prove_shuffle, verify_shuffle
from .proof_sigma import (
    encrypt_share,
    prove_encrypted_shares,
    prove_key,
    prove_shares,
    verify_encrypted_shares,
    verify_key,
    verify_shares,
)

__all__ = [
    "ct_from_json", "ct_to_json", "encrypt_share", "point_from_hex", "prove_encrypted_shares",
    "prove_key", "prove_member", "prove_shares", "prove_shuffle", "scalar_from_hex",
    "verify_encrypted_shares", "verify_key", "verify_member", "verify_shares", "verify_shuffle",
]
