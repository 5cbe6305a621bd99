"""The strong bot's exact planner in a round's last turns (``endgame.py``) reads the seat's view
alone: the others' unseen hand cards are left out of its model, two full states with the same
view give the same move, and the move is legal; it stands aside while a stack card is hidden."""

from __future__ import annotations

import random

from solver.out_of_this_world.bots import StrongBot
from solver.out_of_this_world.endgame import CARDS, endgame_move, round_from_view
from solver.out_of_this_world.model import round_from_game

from .bot_games import bot_decision
from .test_ootw_hints import swap_hidden


def _last_turns(g, p, legal) -> bool:
    return (g.phase == "go" and g.step in ("take", "action") and len(legal) > 1
            and sum(len(g.stack(i)) for i in range(g.n_stacks)) <= CARDS)


def test_endgame_reads_the_view_only_and_plays_legally():
    rng = random.Random(3)
    checked = moved = differ = 0
    for seed in range(12):
        full, p = bot_decision("out-of-this-world", 4, seed, _last_turns, skip=seed % 3)
        if full is None:
            continue
        view = full.view(p)
        m = round_from_view(view)
        if m is None:
            continue
        whole = round_from_game(full)
        assert m.hands[p] == whole.hands[p] and m.stacks == whole.stacks
        for q in range(full.n_players):
            known = sum(1 for s in full.hand(q) if view.values[s] is not None)
            assert len(m.hands[q]) == known  # unseen cards are left out, none invented
        other = swap_hidden(full, p, rng)
        differ += [full.values[s] for s in full.hand((p + 1) % 4)] != [
            other.values[s] for s in other.hand((p + 1) % 4)]
        v2 = other.view(p)
        assert v2 == view
        a1 = endgame_move(view, view.legal(p))
        a2 = endgame_move(v2, v2.legal(p))
        assert a1 == a2
        if a1 is not None:
            assert a1 in view.legal(p)
            assert StrongBot(p, 0).decide(view, view.legal(p)) == a1
            moved += 1
        checked += 1
    assert checked >= 6 and moved >= 4 and differ >= 2, (checked, moved, differ)


def test_endgame_stands_aside_while_a_stack_card_is_hidden():
    full, p = bot_decision("out-of-this-world", 4, 0,
                           lambda g, p, legal: g.phase == "go" and g.step == "take"
                           and any(len(g.stack(i)) >= 2 for i in range(g.n_stacks)))
    assert full is not None
    view = full.view(p)
    assert round_from_view(view) is None
    assert endgame_move(view, view.legal(p), cards=99) is None
