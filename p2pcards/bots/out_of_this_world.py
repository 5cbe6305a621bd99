"""A sensible Out Of This World bot: it plays for the team from its own seat's view.

Everything is weighed in one unit, equipped points:

* a hand has a *potential*: most of the best Equip it could make now (a set's value is its
  lowest card, or its best with the Tinkerer) plus a little for every card; an action's cost is
  the potential it uses up, and a card taken is worth the potential it adds;
* a Time token is worth what the team still needs divided by the tokens left; Time is lost by
  the player with the most Foes, so defeating a Foe is worth the tokens it saves at the end of
  this round, plus a share for the rounds after;
* cards beyond the hand limit at the end of the round would be discarded anyway, so near the
  end of a round spending them is nearly free.

It sees only its view: its own hand and the public table (what others took from the stacks and
what was passed in the open are known to all).
"""

from __future__ import annotations

from collections import Counter

from ..engine import Action
from ..games.out_of_this_world.data import TYPES, WILD, CardDef
from ..games.out_of_this_world.game import Game
from .base import Bot

CHARACTER_ORDER = ("zoe_zack", "penny_percy", "nina_ned", "rita_rick", "malala_bart")
SET_WEIGHT = 0.6  # share of the best set's points a hand is worth before it is equipped
LEVEL = 1  # Foes a player may keep: each player holding one costs a token a round anyway
FUTURE = 0.3  # share of a token a Foe is expected to cost in later rounds
PASS_PENALTY = 3.0


def best_equip(cards: list[CardDef], any_card: bool = False) -> int:
    """The most points one Equip could bring from these cards (0 if none)."""
    best = max((v for v, k in Counter(c.value for c in cards).items() if k >= 3), default=0)
    wild = [c.value for c in cards if c.type == WILD]
    for t in TYPES:
        vs = sorted([c.value for c in cards if c.type == t] + wild, reverse=True)
        if len(vs) >= 3:
            best = max(best, vs[0] if any_card else vs[2])
    return best


class OutOfThisWorldBot(Bot):
    name = "heuristic"

    def decide(self, view: Game | None, legal: list[Action]) -> Action:  # type: ignore[override]
        assert view is not None
        if len(legal) == 1:
            return legal[0]
        # per-decision caches: the table does not change while the bot thinks
        self._needs = [max(0, view.points_needed() - view.points(q)) for q in range(view.n_players)]
        self._wanted_keys = {w["card"] for w in view._adv.win if w["kind"] == "equipped"}
        self._memo: dict = {}
        step = view.step
        if step == "character":
            return min(legal, key=lambda a: (CHARACTER_ORDER.index(a.key)
                                             if a.key in CHARACTER_ORDER else 99, a.side))
        if step == "starter":
            return next((a for a in legal if a.seat == self.seat), legal[0])
        if step == "take":
            return self._take(view, legal)
        hand = self._hand(view)
        if step == "discard":
            cards = list(hand.values())
            base = self._potential(view, cards)
            return min(legal, key=lambda a: (
                base - self._potential(view, [c for s, c in hand.items() if s != a.slot]), a.slot))
        if step == "give":
            return max(legal, key=lambda a: (self._gain_for(view, a.to, hand[a.slot]), -a.to))
        return self._act(view, legal, hand)

    # ---- evaluation ---------------------------------------------------------------------------
    def _hand(self, view: Game) -> dict[int, CardDef]:
        return {s: view.card(s) for s in view.hand(self.seat)  # type: ignore[misc]
                if view.values[s] is not None}

    def _need(self, view: Game, p: int) -> int:
        return self._needs[p]

    def _token_value(self, view: Game) -> float:
        team_need = sum(self._need(view, q) for q in range(view.n_players))
        return max(4.0, min(16.0, (team_need + 10) / max(1, view.time)))

    def _weights(self, view: Game) -> list[int]:
        return [view.foe_weight(q) for q in range(view.n_players)]

    def _potential(self, view: Game, cards: list[CardDef], seat: int | None = None) -> float:
        p = self.seat if seat is None else seat
        need = self._need(view, p)
        be = best_equip(cards, bool(view.power(p, "equip_any")))
        h = SET_WEIGHT * (min(be, need) + 0.2 * max(0, be - need))
        for c in cards:
            h += 0.3 + 0.05 * c.value + (0.4 if c.type == WILD else 0.0) + 5.0 * self._wanted(view, c)
        return h

    def _gain_for(self, view: Game, q: int, c: CardDef) -> float:
        """What card c adds to seat q's hand, as far as this view knows q's hand."""
        key = ("gain", q, c)
        if key not in self._memo:
            self._memo[key] = self._gain_for_uncached(view, q, c)
        return self._memo[key]

    def _gain_for_uncached(self, view: Game, q: int, c: CardDef) -> float:
        known = [view.card(s) for s in view.hand(q) if view.values[s] is not None]
        cards: list[CardDef] = [d for d in known if d is not None]
        gain = self._potential(view, [*cards, c], q) - self._potential(view, cards, q)
        unknown = len(view.hand(q)) - len(cards)
        if unknown and self._need(view, q):  # it may well fit a set among q's hidden cards
            gain += 0.12 * c.value * min(unknown, 4)
        return gain

    def _wanted(self, view: Game, c: CardDef) -> int:
        """Whether the adventure's win condition asks for this Item to be equipped."""
        return int(c.key in self._wanted_keys)

    def _severity(self, view: Game, c: CardDef) -> float:
        """Harm (in points) of keeping a Foe, beyond the Time it costs."""
        s = 0.0
        for e in c.effects:
            if e.when == "while_in_play":
                s += {"no_equip": 6.0, "counts_as": 0.0, "hand_limit": 1.5}.get(e.do, 1.0)
            elif e.when in ("end_of_round", "end_of_turn") and e.do != "move_left":
                s += self._token_value(view) if e.do == "lose_time" else 1.5
        if any(w.get("card") == c.key and w["kind"] in ("no_foe", "defeated") for w in view._adv.win):
            s += 8.0
        return s

    def _defeatable_with(self, view: Game, cards: list[int], foe: CardDef) -> bool:
        counts = Counter(view._cls[v] for v in cards)
        return bool(view._matching_sets(tuple(foe.vulnerability), counts))

    def _thrift(self, view: Game) -> float:
        """How dear this seat's cards are: more when it is further from its goal than the
        team's average (every player must reach the goal), less once it is there."""
        needs = [self._need(view, q) for q in range(view.n_players)]
        avg = sum(needs) / len(needs)
        if not avg:
            return 1.0
        return 0.5 + 0.5 * min(3.0, needs[self.seat] / avg)

    def _turns_left(self, view: Game) -> int:
        """How many more turns this seat gets this round after the current decision."""
        left = sum(len(view.stack(i)) for i in range(view.n_stacks))
        n = view.n_players
        return max(0, (left - 1) // n) if view.turn == self.seat else max(0, left // n)

    def _loss_drop(self, view: Game, owner: int, w: int) -> float:
        """Tokens saved at the end of this round if ``owner`` loses ``w`` Foe weight now."""
        weights = self._weights(view)
        before = max(weights)
        excess = max(0, weights[owner] - LEVEL) - max(0, weights[owner] - w - LEVEL)
        weights[owner] -= w
        after = max(weights)
        clear = 0.0
        if after == 0 and before > 0:  # a round with no Foe left costs nothing, unless more come
            left = sum(len(view.stack(i)) for i in range(view.n_stacks))
            clear = before * 0.84 ** left
        if view.time > before + 1:  # no hurry: a round losing LEVEL tokens is the norm
            before, after = max(before, LEVEL), max(after, LEVEL)
        return max(before - after, excess, clear)

    # ---- taking a card ------------------------------------------------------------------------
    def _take(self, view: Game, legal: list[Action]) -> Action:
        me = self.seat
        hand = self._hand(view)
        cards = list(hand.values())
        hand_ids = [view.values[s] for s in hand]
        takes = [a for a in legal if a.kind == "take"]
        tops = {a.stack: view.stack(a.stack)[-1] for a in takes}
        defs = {i: view.card(s) for i, s in tops.items()}
        foe_takes = [a for a in takes if defs[a.stack].is_foe]  # type: ignore[union-attr]
        items = [a for a in takes if not defs[a.stack].is_foe]  # type: ignore[union-attr]
        base = self._potential(view, cards)

        def item_gain(a: Action) -> float:
            c: CardDef = defs[a.stack]  # type: ignore[assignment]
            g = self._potential(view, [*cards, c]) - base
            for f in view.defeatable(me):
                fc = view.card(f)
                if fc and not self._defeatable_with(view, hand_ids, fc) and self._defeatable_with(
                        view, [*hand_ids, view.values[tops[a.stack]]], fc):  # type: ignore[list-item]
                    g += 2.0
                    break
            return g

        best_item = max(items, key=item_gain) if items else None
        if not foe_takes:
            return best_item or legal[0]
        weights = self._weights(view)
        others_max = max((w for q, w in enumerate(weights) if q != me), default=0)
        tv = self._token_value(view)
        thrift = self._thrift(view)

        def cost(a: Action) -> float:
            c: CardDef = defs[a.stack]  # type: ignore[assignment]
            w = 2 if c.has("while_in_play", "counts_as") else 1
            cst = self._severity(view, c)
            for e in c.fx("on_take"):
                cst += {"lose_time": tv * e.n, "discard_random": 1.0 * e.n}.get(e.do, 1.0)
            if self._defeatable_with(view, hand_ids, c):  # type: ignore[arg-type]
                cst += 2.0 * thrift
            else:
                over = weights[me] + w - others_max
                cst += tv * (0.7 * max(0, over) + 0.3 * w)
            return cst

        best_foe = min(foe_takes, key=cost)
        if best_item is not None and item_gain(best_item) > 2.0:  # Sneaky
            return best_item
        if any(a.kind == "leg_it" for a in legal):
            fewer = any(weights[q] < weights[me] for q in range(view.n_players) if q != me)
            if fewer and base < 1.0 and cost(best_foe) > tv * 0.5:
                return next(a for a in legal if a.kind == "leg_it")
        return best_foe

    # ---- the action ---------------------------------------------------------------------------
    def _act(self, view: Game, legal: list[Action], hand: dict[int, CardDef]) -> Action:
        cards = list(hand.values())
        base = self._potential(view, cards)
        # cards beyond the hand limit at the end of the round are lost anyway (each later turn
        # adds a card, and an action uses two or three)
        spare = len(hand) - self._turns_left(view) - view.hand_limit(self.seat)
        tv = self._token_value(view)
        best, best_score = legal[-1], 0.0
        for a in legal:
            s = self._score(view, hand, base, spare, tv, a)
            if s > best_score:
                best, best_score = a, s
        return best

    def _use(self, view: Game, hand: dict[int, CardDef], base: float, spare: int,
             slots: tuple[int, ...]) -> float:
        """The potential these cards take out of the hand."""
        key = ("use", tuple(sorted(slots)))
        if key not in self._memo:
            self._memo[key] = self._potential(view, [c for s, c in hand.items() if s not in slots])
        lost = base - self._memo[key]
        if spare > 0:
            lost *= max(0.2, 1.0 - spare / len(slots))
        return lost

    def _score(self, view: Game, hand: dict[int, CardDef], base: float, spare: int, tv: float,
               a: Action) -> float:
        me = self.seat
        k = a.kind
        if k == "done":
            return 0.0
        if k == "defeat":
            f = view.card(a.foe)
            assert f is not None
            owner = int(view.zone_of[a.foe][4:])
            w = 2 if f.has("while_in_play", "counts_as") else 1
            drop = self._loss_drop(view, owner, w)
            val = tv * (drop + FUTURE * w) + self._severity(view, f)
            if owner != me:  # their own cards should answer it; ours are for our own points
                left = sum(len(view.stack(i)) for i in range(view.n_stacks))
                if not drop:
                    val *= 0.3
                elif left >= view.n_players and len(view.hand(owner)) >= len(f.vulnerability):
                    val *= 0.5
            val /= self._thrift(view)
            if a.get("twice"):
                val += 4.0 if any(c.get("card") == f.key for c in view._adv.win) else -8.0
            return val - self._use(view, hand, base, spare, a.slots)
        if k == "equip":
            kept = hand[a.keep]
            need = self._need(view, me)
            gain = min(kept.value, need) + 0.2 * max(0, kept.value - need) if need else -0.5
            gain += 10.0 * self._wanted(view, kept) + (0.5 if kept.spend() else 0.0)
            return gain - self._use(view, hand, base, spare, a.slots)
        if k == "pass":
            g = hand[a.give]
            gain = self._gain_for(view, a.to, g)
            penalty = 0.3 if not self._need(view, me) else PASS_PENALTY
            return gain - self._use(view, hand, base, spare, a.slots) - penalty
        if k == "spend":
            return self._spend_score(view, hand, a, tv)
        return 0.0

    def _spend_score(self, view: Game, hand: dict[int, CardDef], a: Action, tv: float) -> float:
        me = self.seat
        item = view.card(a.item)
        assert item is not None
        e = item.spend()
        assert e is not None
        weights = self._weights(view)
        if e.do in ("remove_foe", "discard_foe"):
            f = view.card(a.foe)
            assert f is not None
            owner = int(view.zone_of[a.foe][4:])
            w = 2 if f.has("while_in_play", "counts_as") else 1
            return tv * (self._loss_drop(view, owner, w) + FUTURE * w) + self._severity(view, f) - 1.0
        if e.do == "gain_time":
            return tv - 2.0 if view.time <= max(weights) + 2 else 0.2
        if e.do == "move_foe_left":
            f = view.card(a.foe)
            w = 2 if f and f.has("while_in_play", "counts_as") else 1
            weights[me] -= w
            weights[view.left(me)] += w
            return tv * (max(self._weights(view)) - max(weights)) - 0.5
        if e.do == "give_hand":
            if self._need(view, me) == 0 and any(self._need(view, q) for q in range(view.n_players)):
                return 0.5 * len(hand)
            return -1.0
        if e.do == "peek_stack":
            return 0.05
        return 0.0
