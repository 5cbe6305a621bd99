"""The determinized round search (``pimc.py``) samples its worlds from the seat's view alone:
every world keeps what the view shows and deals only the cards the seat has not seen (never a Foe
into a hand), two full states with the same view give the same move and the same scores, and
the move is legal; the fast playout policy finishes every round it starts."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from p2pcards.bots.registry import make_bot
from p2pcards.engine import Decide, Decision, LocalDealer
from p2pcards.games import new_game
from solver.out_of_this_world.bots import StrongBot
from solver.out_of_this_world.endgame import carry, carry_adventure
from solver.out_of_this_world.model import round_from_game
from solver.out_of_this_world.pimc import Next, Unseen, best_equip, greedy, playout, search

from .bot_games import bot_decision
from .test_ootw_hints import swap_hidden


def _action(g, p, legal) -> bool:
    return g.phase == "go" and g.step == "action" and len(legal) > 2


def _decisions(seeds, skip):
    """(full state, seat) at an action decision of the strong team's game of each seed, the
    ``skip(seed)``-th such decision; seeds whose game has none are left out."""
    for seed in seeds:
        full, p = bot_decision("out-of-this-world", 4, seed, _action, skip=skip(seed))
        if full is not None:
            yield full, p


def test_worlds_keep_the_view_and_deal_only_unseen_cards():
    rng = random.Random(1)
    checked = 0
    for full, p in _decisions(range(6), lambda seed: seed * 3):
        view = full.view(p)
        u = Unseen(view)
        for _ in range(5):
            deal = u.deal(rng)
            assert set(deal) == {s for s in range(view.n_cards) if view.values[s] is None}
            cards = list(deal.values()) + [v for v in view.values if v is not None]
            assert sorted(cards) == list(range(view.n_cards))  # each card exactly once
            for s, c in deal.items():
                if view.zone_of[s].startswith("hand"):
                    assert not view._cards[c].is_foe  # a Foe is never hidden in a hand
            m = round_from_game(view, deal=deal)
            whole = round_from_game(full)
            assert m.hands[p] == whole.hands[p] and m.foes == whole.foes
            assert [len(z) for z in m.stacks] == [len(z) for z in whole.stacks]
            assert [z[-1] for z in m.stacks if z] == [z[-1] for z in whole.stacks if z]
            assert [len(h) for h in m.hands] == [len(h) for h in whole.hands]
        checked += 1
    assert checked >= 4


def _same_view_pairs(rng: random.Random):
    """(seat, its view, its legal moves, the other view): at an action decision of the strong
    team's games (seeds 0-7), the seat's view and the view of the same seat in a full state
    with other hidden cards (the same view, checked)."""
    for full, p in _decisions(range(8), lambda seed: seed * 2 + 1):
        view = full.view(p)
        other = swap_hidden(full, p, rng).view(p)
        assert other == view
        yield p, view, view.legal(p), other


def test_same_view_same_move_and_scores():
    checked = compared = 0
    for p, view, legal, other in _same_view_pairs(random.Random(7)):
        first = legal[-1]  # no action: a candidate the search must compare with the others
        a1, s1 = search(view, legal, first, random.Random(3), k=4)
        a2, s2 = search(other, other.legal(p), first, random.Random(3), k=4)
        assert a1 == a2 and s1 == s2
        assert a1 in legal
        compared += len(s1) >= 2
        checked += 1
    assert checked >= 5 and compared >= 3, (checked, compared)


def test_the_playout_policy_finishes_rounds_with_legal_moves():
    rng = random.Random(2)
    ends = Counter()
    for full, _ in _decisions(range(6), lambda seed: seed):
        m = round_from_game(full)
        for _ in range(400):
            if m.result is not None:
                break
            a = greedy(m, rng)
            assert a in m.legal(), a
            m.apply(a)
        assert m.result in ("won", "lost", "over")
        ends[m.result] += 1
        playout(round_from_game(full), rng)  # the scored form ends too
    assert sum(ends.values()) >= 4


def test_best_equip_is_the_best_of_all_equips():
    """The playout's shortcut finds the Equip that keeps the highest Item at the lowest set
    value, as a scan of every legal Equip does (random hands of 3-9 Items, wilds included, with
    and without the Tinkerer's power)."""
    full, p = bot_decision("out-of-this-world", 4, 0, _action)
    m = round_from_game(full)
    items = [c for c in range(len(m.r.cards)) if m.card(c).is_item and not m.card(c).effects]
    rng = random.Random(4)
    found = 0
    rules = m.r
    for i in range(300):
        any_card = i % 2 == 1  # the Tinkerer's power (equip any card of the set) half the time
        m.r = replace(rules, equip_any=tuple(any_card if q == p else x
                                             for q, x in enumerate(rules.equip_any)))
        m.hands[p] = tuple(sorted(rng.choice(items) for _ in range(rng.randint(3, 9))))
        every = m._equips(p)
        got = best_equip(m, p)
        if not every:
            assert got is None
            continue
        assert got in every
        key = lambda a: (m.card(a[2]).value, -sum(m.card(c).value for c in a[1]))  # noqa: E731
        assert key(got) == max(key(a) for a in every)
        found += 1
    assert found >= 100


def test_strong_bot_with_its_search_reads_the_view_only():
    """The strong bot searches its takes and actions: two full states with the same view give
    it the same move (a bot seeded alike), whatever the others hold and the stacks hide."""
    rng = random.Random(11)
    checked = 0
    for seed, step in [(1, "take"), (2, "action"), (3, "take"), (5, "action")]:
        full, p = bot_decision("out-of-this-world", 4, seed,
                               lambda g, q, legal, step=step: g.phase == "go" and g.step == step
                               and len(legal) > 2 and sum(len(g.stack(i)) for i in range(5)) > 4,
                               skip=seed * 2)
        if full is None:
            continue
        other = swap_hidden(full, p, rng)
        v1, v2 = full.view(p), other.view(p)
        assert v1 == v2
        a1 = StrongBot(p, 9).decide(v1, v1.legal(p))
        a2 = StrongBot(p, 9).decide(v2, v2.legal(p))
        assert a1 == a2 and a1 in v1.legal(p)
        checked += 1
    assert checked >= 3


def _adventure_decision(adventure: str, seed: int = 0):
    """A full state at a Go For It! action decision of a heuristic-bot game of ``adventure``."""
    g = new_game("out-of-this-world", 4, {"adventure": adventure, "difficulty": "standard"})
    dealer = LocalDealer(seed)
    bots = [make_bot("out-of-this-world", q, "easy", seed * 8 + q) for q in range(4)]
    while (req := g.pending()) is not None:
        if isinstance(req, Decide):
            p = req.player
            legal = g.legal(p)
            if g.phase == "go" and g.step == "action" and g.round >= 2:
                return g, p
            g.apply(Decision(p, bots[p].decide(g.view(p), legal)))
        else:
            g.apply(dealer.fulfil(g, req))
    raise AssertionError("the game ended before a second round's action")


def _cls(m, key: str) -> int:
    return next(c for c, d in enumerate(m.r.cards) if d.key == key)


def test_carry_values_the_adventures_other_conditions():
    """The carry score counts what the adventure makes of a round's end: a Herald left costs
    more than a plain Foe (it takes a Time token at every round's end), The Visitor defeated is
    worth more than The Visitor standing (the win needs it defeated), a Gargoyle left costs
    twice a plain Foe (it counts as two), and an equipped Stained glass shard is worth more than
    another 3-point Item (the win needs both equipped). The default score (``carry``) sees none of it."""
    full, _ = _adventure_decision("confrontation")
    m = round_from_game(full)
    m.foes = [()] * 4
    herald, visitor, plain = _cls(m, "herald"), _cls(m, "the_visitor"), _cls(m, "slime_blob")
    base = carry_adventure(m)[1]
    with_foe = {}
    for f in (herald, visitor, plain):
        x = m.copy()
        x.foes[1] = (f,)
        with_foe[f] = carry_adventure(x)[1]
        assert carry(x)[1] == carry(m)[1] - 3  # the old score: any Foe alike
    assert base - with_foe[plain] == 3
    assert with_foe[herald] < with_foe[plain] - 4
    assert with_foe[visitor] < with_foe[herald]
    done = m.copy()
    done.defeated = (("the_visitor", 1),)
    assert carry_adventure(done)[1] > base > with_foe[visitor]
    assert carry(done) == carry(m)

    full, _ = _adventure_decision("stained-glass")
    m = round_from_game(full)
    m.foes = [()] * 4
    gargoyle, shard, plain = _cls(m, "gargoyle"), _cls(m, "glass_shard"), _cls(m, "slime_blob")
    x, y = m.copy(), m.copy()
    x.foes[2], y.foes[2] = (gargoyle,), (plain,)
    assert carry_adventure(x)[1] == carry_adventure(y)[1] - 3
    three = next(c for c, d in enumerate(m.r.cards)
                 if d.is_item and d.value == 3 and d.key != "glass_shard")
    for p in range(4):
        m.equip[p] = ()
    a, b = m.copy(), m.copy()
    a.equip[0], b.equip[0] = ((shard, False),), ((three, False),)
    assert carry_adventure(a)[1] > carry_adventure(b)[1] and carry(a) == carry(b)


def test_two_round_playout_deals_the_next_round_from_the_world():
    """``Next`` deals the next round from the world's deck (the cards the view has not seen
    dealt into it), each seat discards down to its hand limit, and the playout goes on through
    the next round; the search with two rounds stays a function of the view."""
    rng = random.Random(5)
    checked = 0
    for full, p in _decisions(range(4), lambda seed: seed * 2):
        view = full.view(p)
        deal = Unseen(view).deal(rng)
        nxt = Next(view, deal, random.Random(1), view.n_stacks)
        deck = Counter(view._cls[deal.get(s, view.values[s])] for s in view.zones["deck"])
        dealt = Counter(c for z in nxt.stacks for c in z)
        assert sum(dealt.values()) == 20 and len(nxt.stacks) == 5
        if sum(deck.values()) >= 20:
            assert not dealt - deck  # every card from the world's deck
        m = round_from_game(view, deal=deal)
        for _ in range(400):
            if m.result is not None:
                break
            m.apply(greedy(m, rng))
        if m.result != "over":
            continue
        nxt.start(m)
        assert m.result is None and m.turn == (view.first + 1) % 4 and m.step == "T"
        assert all(len(m.hands[q]) <= nxt.limits[q] for q in range(4))
        for _ in range(400):
            if m.result is not None:
                break
            a = greedy(m, rng)
            assert a in m.legal(), a
            m.apply(a)
        assert m.result in ("won", "lost", "over")
        other = swap_hidden(full, p, rng)
        legal = view.legal(p)
        a1, s1 = search(view, legal, legal[-1], random.Random(3), k=2, rounds=2)
        a2, s2 = search(other.view(p), other.view(p).legal(p), legal[-1], random.Random(3), k=2,
                        rounds=2)
        assert a1 == a2 and s1 == s2
        checked += 1
    assert checked >= 2


def test_margin_by_standard_error_and_more_worlds_read_the_view_only(monkeypatch):
    """The opt-in override rule (``z``: the paired difference must pass ``z`` standard errors;
    ``more``: further worlds for the best move and the advisor's when the verdict is close)
    stays a function of the view and plays the further worlds only for those two moves."""
    import solver.out_of_this_world.pimc as pimc

    calls = Counter()
    real = pimc.playout

    def counted(m, rng, **kw):
        calls["n"] += 1
        return real(m, rng, **kw)

    monkeypatch.setattr(pimc, "playout", counted)
    checked = extended = 0
    for p, view, legal, other in _same_view_pairs(random.Random(13)):
        first = legal[-1]
        calls["n"] = 0
        a1, s1 = search(view, legal, first, random.Random(3), k=4, z=1.0, more=6)
        n = calls["n"]
        a2, s2 = search(other, other.legal(p), first, random.Random(3), k=4, z=1.0, more=6)
        assert a1 == a2 and s1 == s2 and a1 in legal
        assert n in (4 * len(s1), 4 * len(s1) + 2 * 6)  # the further worlds: two moves only
        extended += n > 4 * len(s1)
        checked += 1
    assert checked >= 5 and extended >= 1, (checked, extended)


def test_take_weights_choose_the_playouts_item_take(monkeypatch):
    """``TAKE_WEIGHTS`` prices an Item take in the playouts: the fourth pass's weights (fit
    first) take a low card that pairs with the hand over a high wild; the set advisor's kind of
    weights (2, 3, 4: value first, a wild worth more) take the high wild."""
    import solver.out_of_this_world.pimc as pimc

    full, p = bot_decision("out-of-this-world", 4, 0, lambda g, q, legal: g.phase == "go"
                           and g.step == "take")
    m = round_from_game(full)
    cards = m.r.cards
    low = next(c for c, d in enumerate(cards) if d.is_item and d.value == 3 and d.type != "wild"
               and not d.effects)
    mate = low  # the hand holds another card of the same class: the same value
    wild = max((c for c, d in enumerate(cards) if d.is_item and d.type == "wild"),
               key=lambda c: cards[c].value)
    assert cards[wild].value >= 6
    m.hands[p] = (mate,)
    m.stacks = [(low,), (wild,), (), (), ()]
    m.turn, m.step = p, "T"
    rng = random.Random(0)
    assert greedy(m, rng) == ("T", 0, False)  # fit 2 x 10 + 3 against fit 1 x 10 + 6 or more
    monkeypatch.setattr(pimc, "TAKE_WEIGHTS", (2, 3, 4))
    assert greedy(m, rng) == ("T", 1, False)  # 4 + 9 against 2 + 18 or more + 4
