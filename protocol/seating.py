"""Which game the host seated each player at: the evidence a key share carries (SPEC.md 5.2).

The host signs the game of its table once, ``game_sig`` = its Ed25519 signature over
``b"p2pcards/v1/game\\n" + canonical({"table": T, "game_info": ...})``, and hands it to every
joiner in its signed ``welcome`` (a joiner refuses a welcome without it). Each seat's key share
then carries ``seated``: ``{"game": the game_info it plays, "sig": the host's game_sig over it,
"keys": [[seat, key hex], ...]}`` (the keys its game description ``D`` binds, SPEC.md 2.1).

When a key share's ``desc`` differs from this seat's, the evidence says who lied:

* the share's ``seated`` is missing or malformed, the host's signature over its game does not
  verify, or its game and keys do not yield the ``desc`` it claims: its **sender** lies (an honest
  program sends what its host signed; nobody else can make the host's signature);
* the host signed that game, and it is not the game this seat's host signed to it (or, for the
  audit, another seat's share shows another host-signed game): the **host** signed two games at
  one table (seat 0);
* the host signed the same game to both, so the keys differ: the host showed players different
  rosters, or a program was changed, and nothing signed says which: **nobody** is named (as the
  mesh's roster comparison does).

This module knows nothing about games: ``describe(game_info, keys_digest)`` is the caller's (the
lobby's ``deck_spec``), and raises ``ValueError`` for a game_info that is no game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .envelope import b64, canonical, is_int, unb64
from .identity import Identity, verify
from .params import desc_digest
from .roster import keys_digest

GAME_DOMAIN = b"p2pcards/v1/game\n"
FIELD = "seated"  # the key share's optional field


def game_payload(table: str, game_info: Any) -> bytes:
    return GAME_DOMAIN + canonical({"table": table, "game_info": game_info})


def sign_game(identity: Identity, table: str, game_info: Any) -> str:
    """The host's ``game_sig`` (base64) over its table's game."""
    return b64(identity.sign(game_payload(table, game_info)))


def game_signed(host_key: bytes, table: str, game_info: Any, sig: Any) -> bool:
    """Whether ``sig`` is the host's signature over ``game_info`` at ``table``."""
    try:
        return verify(host_key, unb64(sig, "game signature"), game_payload(table, game_info))
    except (ValueError, TypeError):
        return False


def evidence(game_info: Any, sig: str, keys: Sequence[tuple[int, bytes]]) -> dict[str, Any]:
    """The ``seated`` field of this seat's key share."""
    return {"game": game_info, "sig": sig,
            "keys": [[s, k.hex()] for s, k in sorted(keys)]}


def _keys(keys: Any) -> str:
    if not isinstance(keys, list) or not all(
            isinstance(p, list) and len(p) == 2 and is_int(p[0]) and isinstance(p[1], str)
            for p in keys):
        raise ValueError("malformed keys")
    return keys_digest({"seat": s, "key": k} for s, k in keys)


@dataclass(frozen=True)
class Seating:
    """What a seat (or the audit) needs to weigh the evidence: the table id (hex), the host's
    key, and ``describe`` (game_info, keys digest) -> ``D``. ``mine``: this seat's own evidence
    (``None`` for the audit, which compares the shares with each other)."""

    table: str
    host_key: bytes
    describe: Callable[[Any, str], str]
    mine: dict[str, Any] | None = None

    def ident(self) -> list[str]:
        return [self.table, self.host_key.hex()]

    def backs(self, claimed: Any, ev: Any) -> str | None:
        """``None`` when ``ev`` is a game the host signed at this table that, with its keys,
        yields the description digest ``claimed`` (hex); else what is wrong."""
        if not isinstance(ev, dict) or set(ev) != {"game", "sig", "keys"}:
            return "it carries no host-signed game (its 'seated' is missing or malformed)"
        if not game_signed(self.host_key, self.table, ev["game"], ev["sig"]):
            return "the game it shows is not signed by the host"
        try:
            d = self.describe(ev["game"], _keys(ev["keys"]))
        except (ValueError, TypeError, KeyError) as e:
            return f"the game it shows is no game ({e})"
        if desc_digest(d).hex() != claimed:
            return "the host-signed game and keys it shows do not yield the description it claims"
        return None

    def judge(self, seat: int, body: dict[str, Any]) -> tuple[int | None, bool, str]:
        """Seat ``seat``'s key share ``body`` claims another description than this seat's: who
        lied (``None``: nothing signed says), whether it is the share's sender by its own
        message (its evidence does not back it), and why."""
        problem = self.backs(body.get("desc"), body.get(FIELD))
        if problem is not None:
            return seat, True, (f"seat {seat + 1} claims to play another game than this seat, "
                                f"but {problem}: its message lies")
        assert self.mine is not None
        culprit, why = self._versus(seat, body[FIELD], None, self.mine)
        return culprit, False, why

    def _versus(self, seat: int, ev: dict[str, Any], other: int | None, mine: dict[str, Any]
                ) -> tuple[int | None, str]:
        who, me = f"seat {seat + 1}", ("this seat" if other is None else f"seat {other + 1}")
        if canonical(ev["game"]) != canonical(mine["game"]):
            return 0, (f"the host signed two different games at this table: {who}'s and {me}'s "
                       f"({_games(ev['game'], mine['game'])})")
        return None, (f"{who} plays the game the host signed to {me}, with other players' keys: "
                      "the host showed players different rosters, or a program was changed; "
                      "nothing signed says which, so nobody is named")

    def judge_all(self, shares: Sequence[tuple[int, dict[str, Any]]]) -> tuple[int | None, str]:
        """The audit's verdict on the key shares ``(seat, body)`` a record holds, whose
        descriptions differ: the first (in seat order) that its evidence does not back names its
        sender; else two host-signed games name the host; else nobody (other keys)."""
        for j, b in shares:
            problem = self.backs(b.get("desc"), b.get(FIELD))
            if problem is not None:
                return j, (f"seat {j + 1}'s key share claims another game than the others', "
                           f"but {problem}: its message lies")
        first, b0 = shares[0]
        for j, b in shares[1:]:
            if b.get("desc") != b0.get("desc"):
                return self._versus(j, b[FIELD], first, b0[FIELD])
        raise ValueError("the key shares agree")


def _games(a: Any, b: Any) -> str:
    """How two game descriptions differ, in a few words."""
    def field(g: Any, k: str) -> Any:
        return g.get(k) if isinstance(g, dict) else None

    for k, what in (("game", "game"), ("players", "players"), ("options", "options")):
        x, y = field(a, k), field(b, k)
        if canonical(x) != canonical(y):
            if k == "options":
                return "other options"
            return f"{what} {_short(x)} and {_short(y)}"
    return "other details"


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."
