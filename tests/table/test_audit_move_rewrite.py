"""Red team 17: a record's owner rewrites one of its own *game moves* in its file.

The deck audit takes each operation's descriptor from the game's signed moves (every engine
issues the same requests), and named the sender of the first message that describes another.
The owner holds its own key: it changes a move of its own (another card played) and its own
deck message for the opening that follows, re-signs its chain, and every other seat's authentic
message of that opening now "describes another operation". ``p2pcards audit`` of the file then
said "NOT clean: bob (seat 2) at fault (the deck audit: message describes another operation
than {...})" about a clean game. The moves are every seat's, so a descriptor another seat
disagrees with is no proof against it in an owner's file: nobody is named. (Live, every seat
compares the descriptor with its own engine's, fed the moves it was really sent.)"""

from __future__ import annotations

from typing import Any

import pytest

from . import transcript_mutants as tm
from .test_transcript_fuzz import run_audit

pytestmark = [pytest.mark.network, pytest.mark.xdist_group("shared-game")]

OWNER = 0  # the shared game is alice's (seat 0's) record of a two-seat match


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tm.Game:
    return tm.shared_game(tmp_path_factory)


def envs(recs: list[dict[str, Any]], seat: int, topic: str) -> list[dict[str, Any]]:
    return [r["env"] for r in recs if r.get("type") in ("in", "out")
            and r["env"]["from"] == seat and r["env"]["topic"] == topic
            and isinstance(r["env"].get("body"), dict)]


def forged(game: tm.Game, tmp_path, new: list[int]) -> tuple[int, str]:
    """Alice's first one-card play made to play ``new`` instead, in her move and in her own
    deck message of the opening that follows; her chain re-signed."""
    recs = tm.parse(game.lines)
    moves = [e["body"] for e in envs(recs, OWNER, "game")]
    move = next(m for m in moves if m["action"]["kind"] == "play"
                and len(m["action"]["slots"]) == 1)
    old = move["action"]["slots"]
    opening = next(e["body"] for e in envs(recs, OWNER, "deck")
                   if e["body"].get("kind") == "open" and e["body"].get("slots") == old)
    move["action"]["slots"], opening["slots"] = list(new), list(new)
    path = tmp_path / game.path.name
    path.write_bytes(tm.join(tm.encode(tm.resign(recs, {OWNER: game.identities[OWNER]}))))
    return run_audit(path)


def _try_rewrites(game: tm.Game, tmp_path) -> int:
    """Alice's first one-card play rewritten to each card she plays later (alone or with
    others) until one she held then passes her move and her opening; how many got that far."""
    recs = tm.parse(game.lines)
    plays = [e["body"]["action"]["slots"] for e in envs(recs, OWNER, "game")
             if e["body"]["action"]["kind"] == "play"]
    first = next((i for i, p in enumerate(plays) if len(p) == 1), len(plays))
    for new in ([s] for p in plays[first + 1:] for s in p):
        code, out = forged(game, tmp_path, new)
        assert "bob (seat 2) at fault" not in out, out  # named here before
        if "than the game's moves in this record give" in out:  # (a try whose change of
            # card alters an earlier operation of alice's own names her, as it should)
            assert "nobody is named" in out and "at fault" not in out and code == 1, out
            return 1  # (each try is a whole audit)
    return 0


def test_an_owner_rewriting_its_own_move_gets_nobody_named(game, tmp_path):
    """Alice tries the cards she plays later in the match until one she held then passes her
    move and her opening: bob's authentic shares of the real card were named. The deck is
    shuffled afresh each match, so a match where alice held none of her later cards at her
    first one-card play (it ended her battle, say; CI met one) is followed by another."""
    reached = _try_rewrites(game, tmp_path)
    for extra in range(3):
        if reached:
            break
        reached = _try_rewrites(tm.make_game(tmp_path / f"another-{extra}"), tmp_path)
    assert reached, "no card alice held then in four matches: the forgery was never tried"


# ---- moves that change no deck operation ------------------------------------------------------
def _local_game(seed: int) -> tuple[list[Any], list[Any], list[int]]:
    """A two-player Go Out Girl game played locally: its moves, the deck's outcomes, and the
    game step of each move (every request is a step, as at a table)."""
    from p2pcards.bots.registry import make_bot
    from p2pcards.engine import Decision, LocalDealer, play
    from p2pcards.games import new_game

    decisions: list[Any] = []
    outcomes: list[Any] = []
    steps: list[int] = []
    count = [0]

    def on_step(_state: Any, ev: Any) -> None:
        if isinstance(ev, Decision):
            decisions.append(ev)
            steps.append(count[0])
        else:
            outcomes.append(ev)
        count[0] += 1

    play(new_game("go-out-girl", 2), [make_bot("go-out-girl", p, "easy", seed + p)
                                      for p in range(2)], LocalDealer(seed), on_step=on_step)
    return decisions, outcomes, steps


def _stated(decisions: list[Any], steps: list[int]) -> list[str]:
    """The ``seen`` every move states at a table: the digest of the moves before it."""
    from p2pcards.replay import MOVES_START, moves_seen

    out, h = [], MOVES_START
    for d, s in zip(decisions, steps, strict=True):
        out.append(h.hex())
        h = moves_seen(h, s, d.player, d.action.to_json())
    return out


def _toyoko_forgery() -> tuple[list[Any], list[Any], list[Any], list[int], list[str]]:
    """A game where alice (seat 1), Toyoko revealed, played a 1 as a 1 and bob answered with a
    play; her file plays it as 14 instead (the same card, the same opening: nothing in the deck
    record changes), which bob's answer does not beat. (real, forged, outcomes, steps, seen)"""
    from p2pcards.engine import Action, Decision
    from p2pcards.replay import replay

    for seed in range(20):
        ds, outs, steps = _local_game(seed)
        for i, d in enumerate(ds):
            a = d.action.to_json()
            if d.player == 0 and a["kind"] == "play" and a["number"] == 1 and i + 1 < len(ds) \
                    and ds[i + 1].player == 1 and ds[i + 1].action.kind == "play":
                forged = list(ds)
                forged[i] = Decision(0, Action.from_json({**a, "number": 14}))
                if replay("go-out-girl", 2, {}, forged, outs, steps=steps
                          ).reason.endswith("beat 14"):
                    return ds, forged, outs, steps, _stated(ds, steps)
    pytest.fail("no Toyoko play of a 1 answered by a play in 20 games")


def test_an_owner_rewriting_a_move_that_changes_no_deck_operation_gets_nobody_named():
    """Bob's next move, a 4, was legal; against alice's forged 14 it is not, and the audit's
    replay of her file named him ("4 does not beat 14"): nothing bob signed said which of her
    moves he answered. Every move now states the digest of the moves it was made after
    (``seen``); bob's states the real ones, which her file does not hold: nobody is named."""
    from p2pcards.replay import replay

    real, forged, outs, steps, seen = _toyoko_forgery()
    v = replay("go-out-girl", 2, {}, forged, outs, steps=steps)
    assert v.culprit == 1 and v.reason.endswith("beat 14"), v  # without seen: bob, framed
    v = replay("go-out-girl", 2, {}, forged, outs, steps=steps, seen=seen, owner=0)
    assert v.culprit is None and not v.clean, v
    assert "made after other moves than this record holds" in v.reason, v
    assert "nobody is named" in v.reason and "beat 14" in v.reason, v
    # the honest record is clean; a verifier not told whose file it is names bob, as before
    assert replay("go-out-girl", 2, {}, real, outs, steps=steps, seen=seen, owner=0).clean
    assert replay("go-out-girl", 2, {}, forged, outs, steps=steps, seen=seen).culprit == 1


def test_a_move_against_the_rules_after_the_moves_the_file_holds_is_named():
    """What ``seen`` must not excuse: bob's own move against the rules, made after the very
    moves the file holds (his ``seen`` matches it), names him; so does alice's forged move in
    her own file, whatever it states."""
    from p2pcards.engine import Action, Decision
    from p2pcards.replay import replay

    real, forged, outs, steps, seen = _toyoko_forgery()
    i = next(i for i, d in enumerate(real) if d.player == 1 and d.action.kind == "play"
             and d.action.to_json()["number"] < 13)
    bad = list(real)
    bad[i] = Decision(1, Action.from_json({**real[i].action.to_json(), "number": 13}))
    v = replay("go-out-girl", 2, {}, bad, outs, steps=steps, seen=seen, owner=0)
    assert v.culprit == 1, v  # "played ... as 13"
    v = replay("go-out-girl", 2, {}, bad, outs, steps=steps, seen=seen, owner=1)
    assert v.culprit == 1, v  # the owner's own move is never excused


def test_every_move_of_a_networked_game_states_the_moves_it_followed(game):
    """The shared two-player match, played by this version's tables: every move states the
    digest of the moves before it, and the audit (which checks them) finds it clean."""
    from p2pcards.replay import MOVES_START, moves_seen

    recs = tm.parse(game.lines)
    moves = sorted((e["body"]["step"], e["from"], e["body"]) for s in (0, 1)
                   for e in envs(recs, s, "game"))
    h = MOVES_START
    for step, seat, body in moves:
        assert body.get("seen") == h.hex(), (step, seat, body)
        h = moves_seen(h, step, seat, body["action"])


def test_a_record_made_before_seen_is_re_sent_as_it_was_made():
    """A restarted program re-sends its recorded moves byte for byte (else its re-run diverges
    and the seat cannot be taken back): a move recorded by a program from before ``seen`` is
    re-sent without it; one recorded with it, and every live move, states it."""
    from p2pcards.engine import Action
    from p2pcards.table import Table

    class Recorded:  # the channel's view of the re-run: the recorded sends not yet re-sent
        def __init__(self, bodies):
            self.bodies = bodies

        def pending_replay(self, topic):
            return [(None, b) for b in self.bodies] if topic == "game" else []

    table = Table("go-out-girl", 2, {}, 0, Recorded([]), None, None, audit=False)
    move = Action.from_json({"kind": "pass"})
    assert "seen" in table._move_body(move)  # live
    table.channel = Recorded([{"step": 0, "action": move.to_json()}])
    assert "seen" not in table._move_body(move)  # an older record's move, re-sent
    table.channel = Recorded([{"step": 0, "action": move.to_json(), "seen": "00" * 32}])
    assert "seen" in table._move_body(move)


# ---- red team 20: what a message states it was made from --------------------------------------
def test_a_deck_message_made_from_the_records_own_messages_is_named(game, tmp_path):
    """Bob's share of the opening after alice's first one-card play, made to open another card
    (as bob's modified program would send it: re-signed by bob). Before, the audit of alice's
    file named nobody: alice could have rewritten her move, and bob's share would then describe
    "another operation". Now bob's envelope states the heads he held (``heads``), and they are
    the file's own: nothing alice could have rewritten went into it, so bob is named. An owner
    that does rewrite her move changes her chain's hashes, and bob's heads no longer match:
    nobody is named, as before (``test_an_owner_rewriting_its_own_move_gets_nobody_named``)."""
    recs = tm.parse(game.lines)
    moves = [e["body"] for e in envs(recs, OWNER, "game")]
    played = next(m["action"]["slots"] for m in moves if m["action"]["kind"] == "play"
                  and len(m["action"]["slots"]) == 1)
    share = next(e for e in envs(recs, 1, "deck") if e["body"].get("kind") == "open"
                 and e["body"].get("slots") == played)
    assert isinstance(share.get("heads"), dict), "bob's envelopes state no heads"
    share["body"]["slots"] = [played[0] + 1 if played[0] == 0 else played[0] - 1]
    path = tmp_path / game.path.name
    path.write_bytes(tm.join(tm.encode(tm.resign(recs, {1: game.identities[1]}))))
    code, out = run_audit(path)
    assert code == 1 and "bob (seat 2) at fault" in out, out
    assert "describes another operation" in out and "nobody is named" not in out, out
