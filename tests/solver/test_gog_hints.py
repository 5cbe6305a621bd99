"""Hints use the seat's view alone and are deterministic for a fixed seed."""

from __future__ import annotations

import random

from solver.go_out_girl.advisor import advise
from solver.go_out_girl.determinize import ViewInfo
from solver.go_out_girl.model import LIFE
from solver.hints import hinter_for

from .bot_games import bot_decision

BUDGET = 8000  # keep the tests quick; the benchmark measures the real budget


def position(seed: int, players: int = 4, *, phase: str = "turn", skip: int = 0):
    """A full state of a bot game at a decision in ``phase`` (after ``skip`` such decisions)."""
    g, p = bot_decision("go-out-girl", players, seed,
                        lambda g, p, legal: g.phase == phase and len(legal) > 1, skip=skip)
    assert g is not None, "no such decision"
    return g, p


def swap_hidden(full, seat: int, rng: random.Random):
    """Another full state with the same view for ``seat``: swap cards between slots ``seat``
    cannot see (other hands, the deck, others' face-down damage) and change face-down
    characters of the other seats among their other unlocked ones."""
    other = full.clone()
    b = other._b
    hidden = [s for s in range(b) if not other.knows(seat, s)]
    rng.shuffle(hidden)
    vals = [other.values[s] for s in hidden]
    rng.shuffle(vals)
    for s, v in zip(hidden, vals, strict=True):
        other.values[s] = v
    for q in range(other.n_players):
        if q == seat or other.revealed[q] is not None or not other.zones[f"char{q}"]:
            continue
        chosen = other.zones[f"char{q}"][0]
        for s in other.zones[f"chars{q}"]:
            ch = other.character_of_card(other.values[s])[1]
            if LIFE[ch] > other.damage[q]:
                other.values[chosen], other.values[s] = other.values[s], other.values[chosen]
                break
    return other


def other_hands(s, p: int) -> list[list[int]]:
    return [sorted(s.number(s.values[x]) for x in s.hand(q)) for q in range(s.n_players) if q != p]


def test_same_view_same_hint():
    rng = random.Random(5)
    checked = 0
    for seed, phase, skip in [(1, "turn", 3), (2, "turn", 9), (3, "damage", 1), (4, "choose", 0),
                              (6, "turn", 0)]:
        full, p = position(seed, phase=phase, skip=skip)
        other = swap_hidden(full, p, rng)
        assert other != full
        assert other_hands(other, p) != other_hands(full, p), "the hidden hands should differ"
        v1, v2 = full.view(p), other.view(p)
        assert v1 == v2
        legal = v1.legal(p)
        a1 = advise(v1, legal, seed=11, budget=BUDGET)
        a2 = advise(v2, v2.legal(p), seed=11, budget=BUDGET)
        assert a1.render() == a2.render()
        assert a1.to_json() == a2.to_json()
        checked += 1
    assert checked == 5


def test_hint_text_and_registry():
    full, p = position(8, phase="turn", skip=2)
    view = full.view(p)
    hinter = hinter_for("go-out-girl", seed=3)
    assert hinter is not None
    text = hinter(view, view.legal(p))
    assert text.startswith("Hint: ") and "Why:" in text
    assert hinter_for("no-such-game") is None
    assert hinter(view, []) is None


def test_advice_is_legal_and_deterministic():
    for seed in range(10, 16):
        full, p = position(seed, players=3, phase="turn", skip=seed % 5)
        view = full.view(p)
        legal = view.legal(p)
        a = advise(view, legal, seed=seed, budget=BUDGET)
        assert a.action in legal
        assert advise(view, legal, seed=seed, budget=BUDGET).to_json() == a.to_json()


def test_samples_agree_with_the_view():
    full, p = position(21, phase="turn", skip=6)
    view = full.view(p)
    info = ViewInfo(view)
    rng = random.Random(0)
    own = [0] * 14
    for s in view.hand(p):
        own[view.number(view.values[s])] += 1
    for _ in range(50):
        b = info.sample(rng)
        assert b.hands[p] == own
        assert b.size == [len(view.hand(q)) for q in range(view.n_players)]
        assert len(b.deck) == len(view.zones["deck"])
        total = [0] * 14
        for h in b.hands:
            total = [x + y for x, y in zip(total, h, strict=True)]
        for n in b.deck:
            total[n] += 1
        assert all(total[n] + b.discard[n] + b.field[n] <= (8 if n == 0 else 6) for n in range(14))
        for q in range(view.n_players):
            assert LIFE[b.char[q]] > b.damage[q] or not b.alive[q]
            if view.revealed[q] is not None:
                assert b.char[q] == view.revealed[q]


def test_obvious_win_is_found():
    """With a pair left and the lead, the advisor plays it out."""
    for seed in range(30, 60):
        full, p = position(seed, players=3, phase="turn", skip=0)
        view = full.view(p)
        legal = view.legal(p)
        outs = [a for a in legal if a.kind == "play" and len(a.slots) == len(view.hand(p))]
        if outs:
            assert advise(view, legal, seed=1, budget=BUDGET).action in outs
            return
    # construct one: empty the hand but for a single card
    full, p = position(31, players=3, phase="turn", skip=0)
    keep = next(s for s in full.hand(p) if full.number(full.values[s]) != 0)
    for s in [s for s in full.hand(p) if s != keep]:
        full.place(s, "discard")
        full.known[s] = full.all_mask
    full.top = None
    for s in list(full.zones["field"]):
        full.place(s, "discard")
    view = full.view(p)
    legal = view.legal(p)
    a = advise(view, legal, seed=1, budget=BUDGET)
    assert a.action.kind == "play" and list(a.action.slots) == [keep]


def test_exact_search_in_the_endgame_finds_the_forced_win(monkeypatch):
    """With few cards left in the hands, the advisor searches sampled deals exactly. In the
    Akane Barrier puzzle (a forced win by revealing Kira) untuned playouts alone (the heuristic
    for every seat, to the end of the battle) prefer "play 10"; the exact search finds the forced win in most deals consistent with the view and the advice
    follows it, saying so."""
    from pathlib import Path

    from solver import positions
    from solver.go_out_girl import advisor
    from solver.go_out_girl.position import build, parse

    data = positions.read(Path(__file__).resolve().parents[2] / "docs" / "puzzles" /
                          "02-akane-barrier.json")
    full = build(parse(data))
    view = full.view(data["to_move"])
    legal = view.legal(data["to_move"])
    adv = advise(view, legal, seed=0)
    assert adv.text == data["solution"]["move"]
    assert "searched move by move to the end" in adv.reason
    assert "whatever the others play" in adv.reason
    monkeypatch.setattr(advisor, "ENDGAME_CARDS", 0)  # playouts alone
    monkeypatch.setattr(advisor, "TUNED", False)
    assert advise(view, legal, seed=0, horizon=400, noise=0.3).text != data["solution"]["move"]


def test_exact_search_never_reads_the_hidden_cards():
    """The endgame search samples deals from the view: two full states with the same view in
    the endgame give the same advice and reason."""
    rng = random.Random(3)
    found = 0
    for seed in range(40):
        g, p = bot_decision("go-out-girl", 3, seed,
                            lambda g, p, legal: g.phase == "turn" and len(legal) > 1 and sum(
                                len(g.hand(q)) for q in range(g.n_players) if g.alive[q]) <= 10)
        if g is None:
            continue
        other = swap_hidden(g, p, rng)
        a = advise(g.view(p), g.view(p).legal(p), seed=1, budget=BUDGET)
        b = advise(other.view(p), other.view(p).legal(p), seed=1, budget=BUDGET)
        assert a.text == b.text and a.reason == b.reason
        found += "searched move by move" in a.reason
        if found >= 3:
            break
    assert found >= 3


def test_the_reason_matches_the_odds_it_quotes():
    """The reason never calls a move "next best" that scored more than the advice: when the
    tuned policy's move is kept because another is not clearly better on the same deals, the
    reason says so, and both figures are the candidates' own playout win rates."""
    kept = 0
    for seed in range(8):
        full, p = position(seed, skip=seed % 3)
        view = full.view(p)
        adv = advise(view, view.legal(p), seed=seed, budget=2000)
        ranked = sorted((c for c in adv.candidates if c.alive and c.action != adv.action),
                        key=lambda c: -c.mean)
        best = next(c for c in adv.candidates if c.action == adv.action)
        assert (f"over {best.runs} random deals of the cards you cannot see, it wins the battle "
                f"{best.mean:.0%} of the time") in adv.reason
        if ranked and "searched move by move" not in adv.reason:
            nxt = ranked[0]
            assert f"{nxt.mean:.0%}" in adv.reason
            if nxt.mean > best.mean:
                assert "too little more to be sure it is better" in adv.reason
                kept += 1
            else:
                assert "(next best)" in adv.reason
    assert kept >= 1  # the case arises on these seeds (seed-fixed: deterministic)
