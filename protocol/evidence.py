"""A transcript's ``fault`` lines, checked the way a live program checks evidence it is handed.

A ``fault`` line is written by the transcript's own program and is not signed: anyone who can
edit the file can add one. What makes it evidence is the signed envelopes it holds, checked by
the very functions a live program runs on a pair another peer forwards to it
(``protocol/envelope.py``: ``check_foreign`` -- each envelope's shape, table and signature, one
spelling of it, against the author's key -- and ``equivocation_of`` -- the same author,
different hashes, one place in the author's chain: the same ``seq``, or a ``seq + 1`` that does
not follow). A transcript is exactly such a forwarder; there is no second checker.
"""

from __future__ import annotations

from typing import Any

from .envelope import (
    EnvelopeError,
    Message,
    canonical,
    check_foreign,
    ctl_signature_problem,
    equivocation_of,
    is_int,
    open_box,
    overfull,
)


def overfull_box(env: Message, key: Any) -> str | None:
    """What the private envelope ``env`` (its signature already checked) holds beyond the bound,
    shown with its own key ``key`` (hex, ``envelope_key``: the recipient's proof, which opens
    that box and no other), in words; ``None`` if the key does not open it or the body keeps
    the bound. The box is authenticated under that key, so a wrong key proves nothing: a
    recipient cannot make another's box say what it did not."""
    if env.get("to") is None or not (isinstance(key, str) and len(key) == 64):
        return None
    try:
        body = open_box(env, bytes.fromhex(key), own=True)
    except (EnvelopeError, ValueError):
        return None
    return overfull(canonical(env), body)


def check_fault(rec: Message, table: str, seats: int, keys: dict[int, bytes]) -> str | None:
    """``None`` if the fault line ``rec`` holds the proof it claims against its ``seat``, else why
    not, in words.

    - ``first`` and ``second``: an equivocation proof; it must prove the seat the line names.
    - ``first`` alone: a message the program judged at the time (``FaultMixin._fault``: a
      private message on a topic every seat must get, a private payload it could not open); it
      must be an envelope validly signed by that seat. What was wrong with it is the program's
      own finding, for the audit to weigh; the signature only shows the seat sent it.
    - ``first`` and ``key``: a box that holds more than its envelope, with the box's own key;
      the key must show it (``overfull_box``).
    """
    seat, first, second = rec.get("seat"), rec.get("first"), rec.get("second")
    if not (is_int(seat) and 0 <= seat < seats):
        return f"it names no seat of this table ({seat!r:.20})"
    if first is None:
        return "it holds no signed message"

    def key_of(s: int) -> bytes:
        if s not in keys:
            raise EnvelopeError(f"seat {s + 1} has no key in the roster", None, s)
        return keys[s]
    checked = []
    for which, env in (("its first message", first), ("its second message", second)):
        if env is None:
            continue
        try:
            checked.append(check_foreign(env, table, seats, key_of))
        except EnvelopeError as e:
            return f"{which} does not verify ({e.reason})"
        if env["from"] != seat:
            return f"{which} is signed by seat {env['from'] + 1}, not by the seat the line names"
    if second is None:
        if "key" in rec and overfull_box(checked[0][0], rec["key"]) is None:
            return "its key does not show the box holding more than its envelope"
        return None
    (a, ha), (b, hb) = checked
    if equivocation_of(a, ha, b, hb) is None:
        return ("its two messages are no proof: they are the same message, or two that can "
                "both come from an honest program (different places in its chain)")
    return None


def check_stop(rec: Message, table: str, seats: int, owner: int, keys: dict[int, bytes]
               ) -> str | None:
    """``None`` if the stop line ``rec`` holds its stopper's signed stop (``signed``: the control
    message the seat ``by`` signed, to this transcript's owner or, for the owner's own stop,
    from it), else why not, in words. The signature shows only that ``by`` stopped the table
    and what it said; what it claimed is its word, for the audit to weigh. The line must say
    the stop named whom the signed stop names (red team 15a: a line kept a seat's real signed
    stop, which named nobody, and said it had accused another seat)."""
    msg, by = rec.get("signed"), rec.get("by")
    if not isinstance(msg, dict):
        return "it holds no signed stop"
    frm, to = msg.get("from"), msg.get("to")
    if msg.get("t") != "stop" or msg.get("table") != table:
        return "its signed message is not a stop of this table"
    if not (is_int(frm) and 0 <= frm < seats and frm in keys) or frm != by:
        return "its signed stop is not from the seat the line says stopped the table"
    if not (to == owner or frm == owner) or not is_int(to):
        return "its signed stop was sent to another seat, by another"
    problem = ctl_signature_problem(msg, keys[frm])
    if problem is not None:
        return f"its signed stop has {problem} (it does not verify)"
    # whom the line says the stop named: the owner's own stop records its culprit, another's
    # its claim (``claimed``, the culprit left empty); the signature shows whom it named
    named = rec.get("culprit") if frm == owner else rec.get("claimed")
    signed = msg.get("culprit")
    if (frm != owner and rec.get("culprit") is not None) or \
            type(named) is not type(signed) or named != signed:
        return ("its signed stop names another seat than the line says it did (the line was "
                "edited)")
    return None
