"""The Girl and the Robot, Action cards: the response window (Cancel Action), then one
``_fx_<key>`` method per card, in the rulebook's order, and the Draw Pile's shuffle they share.
"""

from __future__ import annotations

from typing import Any

from ...engine import Action, RuleViolation, Shuffle, join_names, plural
from ...engine.requests import Random
from .common import (
    CANCEL,
    DEMON,
    Common,
    _params,
)


class ActionCards(Common):
    """Action Cards: the response window and each card's effect."""

    def _after_shown(self, p: int, slot: int, card: str, params: dict[str, Any]) -> None:
        self._check_claim(p, slot, card)
        self.say(f"{self.pname(p)} plays {self.kind_name(card)}{self._target_text(params)}.")
        if p == self.turn and self.tf["hex"]:
            self.say(f"The Girl's curse: the effect of {self.kind_name(card)} is cancelled.")
            self.place(slot, "discard")
            self._resume()
            return
        self.stack.append({"slot": slot, "by": p, "card": card, "params": params,
                           "ask": self.others_in_order(p)})
        self._run_stack()

    def _run_stack(self) -> None:
        top = self.stack[-1]
        if top["ask"]:
            q = top["ask"].pop(0)
            self.phase = "respond"
            self.task = None
            self.decide(q)
            return
        self.stack.pop()
        if top["card"] == CANCEL:
            target = self.stack.pop()
            self.say(f"{self.kind_name(target['card'])} is cancelled.")
            self.place(target["slot"], "discard")
            self.place(top["slot"], "discard")
            if self.stack:
                self._run_stack()
            else:
                self._resume()
            return
        self._effect(top["by"], top["card"], top["params"], ["resolved", {"slot": top["slot"]}])

    def _do_cancel(self, p: int, a: Action) -> None:
        self._played(p)
        self.place(a.slot, "stack")
        self.reveal([a.slot], None, "cancel_shown", p=p, slot=a.slot)

    def _after_cancel_shown(self, p: int, slot: int) -> None:
        self._check_claim(p, slot, CANCEL)
        target = self.stack[-1]
        self.say(f"{self.pname(p)} plays Cancel Action against {self.kind_name(target['card'])}.")
        if p == self.turn and self.tf["hex"]:
            self.say("The Girl's curse: the Cancel Action has no effect.")
            self.place(slot, "discard")
        else:
            self.stack.append({"slot": slot, "by": p, "card": CANCEL, "params": {},
                               "ask": self.others_in_order(p)})
        self._run_stack()

    def _after_resolved(self, slot: int) -> None:
        k = self.kind(slot)
        self.place(slot, "removed" if k == "act_ii" else "held" if k == "grave_digger" else "discard")
        self._resume()

    def _effect(self, p: int, card: str, prm: dict[str, Any], k: list[Any]) -> None:
        getattr(self, "_fx_" + card)(p, prm, k)

    def _fx_deal_with_demon(self, p: int, prm: dict, k: list) -> None:
        self.tf["deal"] = True
        self._k(k)

    def _fx_act_ii(self, p: int, prm: dict, k: list) -> None:
        self.say("The discard pile is shuffled into the Draw Pile.")
        for s in list(self.zones["discard"]):
            self.place(s, "draw", 0)
        self._shuffle_pile(k)

    def _fx_ambush(self, p: int, prm: dict, k: list) -> None:
        self.tf["may_skip"] = True
        self.next_fx["extra"] += 1
        self._k(k)

    def _fx_blind(self, p: int, prm: dict, k: list) -> None:
        t = prm["target"]
        hand = self.hand(t)
        if len(hand) >= 2:
            self.request(Shuffle(tuple(hand)), "blinded", t=t, k=k)
        else:
            self._after_blinded(t, k)

    def _after_blinded(self, t: int, k: list) -> None:
        hand = self.hand(t)
        self._spread_claims(list(hand))
        self.blind[t] = len(hand) >= 2
        self.spied[t] = False
        self.say(f"{self.pname(t)}'s hand is shuffled face down.")
        self._k(k)

    def _fx_evade(self, p: int, prm: dict, k: list) -> None:
        self.tf["no_draw"] = True
        self.direction = prm.get("direction", self.direction)
        self._k(k)

    def _fx_grave_digger(self, p: int, prm: dict, k: list) -> None:
        self.tf["digger"] = True
        self._k(k)

    def _fx_lone_wolf(self, p: int, prm: dict, k: list) -> None:
        self._ability(p, prm["ability"], {}, k)

    def _fx_lure(self, p: int, prm: dict, k: list) -> None:
        down = [s for s in self.zones["draw"] if s not in self.faceup]
        self.reveal(down, [p], "lure_seen", p=p, k=k)

    def _after_lure_seen(self, p: int, k: list) -> None:
        self._ask(p, "lure", k=k)

    def _do_lure(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self.place(a.slot, "moving")
        self.reveal([a.slot], None, "lured", p=p, slot=a.slot, k=k)

    def _after_lured(self, p: int, slot: int, k: list) -> None:
        if self.kind(slot) != DEMON:
            raise RuleViolation(p, f"Lure took {self.slot_name(slot)}, not a Demon")
        self._shuffle_pile(["lure_place", {"slot": slot, "k": k}])

    def _after_lure_place(self, slot: int, k: list) -> None:
        draw = self.zones["draw"]
        self.place(slot, "draw", max(0, len(draw) - 2))
        self.faceup.append(slot)
        self.say("A Demon is placed face up under the top 2 cards of the Draw Pile.")
        self._k(k)

    def _do_nodemon(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self.say(f"{self.pname(p)} finds no Demon in the Draw Pile.")
        # "Search the Draw Pile for a Demon": none among the face-down cards, proven now
        down = [s for s in self.zones["draw"] if s not in self.faceup]
        self.prove(down, p, self.not_demons(),
                   "searched the Draw Pile with Lure and said it holds no Demon",
                   "nodemon_proven", k=k)

    def _after_nodemon_proven(self, k: list) -> None:
        self._shuffle_pile(k)

    def _fx_magic_mirror(self, p: int, prm: dict, k: list) -> None:
        t = prm["target"]
        self.reveal(list(self.hand(t)), None, "mirrored", p=p, t=t, k=k)

    def _after_mirrored(self, p: int, t: int, k: list) -> None:
        self.blind[t] = False
        if self.narrating:
            cards = join_names(self.slot_name(s) for s in self.hand(t)) or "no cards"
            self.say(f"{self.pname(t)} reveals their hand: {cards}.")
        self._ask(p, "copy", target=t, k=k)

    def _do_copy(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self.say(f"{self.pname(p)} copies {self.kind_name(a.card)}{self._target_text(_params(a))}.")
        self._effect(p, a.card, _params(a), k)

    def _do_nocopy(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self._k(k)

    def _fx_manipulate(self, p: int, prm: dict, k: list) -> None:
        top = [s for s in self.zones["draw"][-3:] if s not in self.faceup]
        self.reveal(top, [p], "manipulate_seen", p=p, top=top, k=k)

    def _after_manipulate_seen(self, p: int, top: list[int], k: list) -> None:
        if len(top) >= 2:
            self.request(Shuffle(tuple(top), by=p), "k", k=k)
        else:
            self._k(k)

    def _fx_peace_treaty(self, p: int, prm: dict, k: list) -> None:
        self._treaty([p] + self.others_in_order(p), k)

    def _treaty(self, order: list[int], k: list) -> None:
        while order:
            q = order.pop(0)
            if self.hand(q):
                self._choose(q, ["treaty_pick", {"order": order, "k": k}])
                return
        chosen = self.zones["treaty"]
        if len(chosen) >= 2:
            self.request(Shuffle(tuple(chosen)), "treaty_shuffled", k=k)
        else:
            self._after_treaty_shuffled(k)

    def _after_treaty_pick(self, order: list[int], k: list, slot: int) -> None:
        self.place(slot, "treaty")
        self._treaty(order, k)

    def _after_treaty_shuffled(self, k: list) -> None:
        n = len(self.zones["treaty"])
        for s in list(self.zones["treaty"]):
            self.place(s, "draw")
        self.say(f"{plural(n, 'card')} {'is' if n == 1 else 'are'} shuffled and placed on top of the Draw Pile.")
        self._k(k)

    def _fx_provoke(self, p: int, prm: dict, k: list) -> None:
        self.tf["may_skip"] = True
        self.next_fx["provoke"] = True
        self._k(k)

    def _fx_scout(self, p: int, prm: dict, k: list) -> None:
        self.reveal(self.zones["draw"][-5:], [p], "k", k=k)

    def _fx_smoke_bomb(self, p: int, prm: dict, k: list) -> None:
        self._shuffle_pile(k)

    def _fx_spy(self, p: int, prm: dict, k: list) -> None:
        t = prm["target"]
        self.reveal(list(self.hand(t)), None, "spied_on", t=t, k=k)

    def _after_spied_on(self, t: int, k: list) -> None:
        self.spied[t] = True
        self.blind[t] = False
        if self.narrating:
            cards = join_names(self.slot_name(s) for s in self.hand(t)) or "no cards"
            self.say(f"{self.pname(t)} plays with their hand face up: {cards}.")
        self._k(k)

    def _fx_steal(self, p: int, prm: dict, k: list) -> None:
        t = prm["target"]
        if not self.hand(t):
            self._k(k)
            return
        self.request(Random(len(self.hand(t))), "stolen", p=p, t=t, k=k)

    def _after_stolen(self, p: int, t: int, k: list, value: int) -> None:
        s = self.hand(t)[value]
        self.place(s, f"hand{p}")
        line = f"{self.pname(p)} takes a card at random from {self.pname(t)}'s hand"
        self._receive(p, [s], ["said", {"line": line, "slots": [s],
                                        "k": ["mix", {"q": p, "entered": [s], "k": k}]}])

    def _after_said(self, line: str, slots: list[int], k: list) -> None:
        """Narrate a card that changed hands once it is seen: the two players read its name."""
        self.say_cards(line, slots)
        self._k(k)

    def _fx_trade(self, p: int, prm: dict, k: list) -> None:
        t = prm["target"]
        self._choose(p, ["trade_mine", {"p": p, "t": t, "k": k}])

    def _after_trade_mine(self, p: int, t: int, k: list, slot: int | None) -> None:
        self._choose(t, ["trade_theirs", {"p": p, "t": t, "mine": slot, "k": k}])

    def _after_trade_theirs(self, p: int, t: int, mine: int | None, k: list, slot: int | None) -> None:
        if mine is not None:
            self.place(mine, f"hand{t}")
        if slot is not None:
            self.place(slot, f"hand{p}")
        self._receive(t, [mine], ["trade_back", {"p": p, "t": t, "mine": mine, "theirs": slot,
                                                 "k": k}])

    def _after_trade_back(self, p: int, t: int, mine: int | None, theirs: int | None,
                          k: list) -> None:
        self._receive(p, [theirs], ["traded", {"p": p, "t": t, "mine": mine, "theirs": theirs,
                                               "k": k}])

    def _after_traded(self, p: int, t: int, mine: int | None, theirs: int | None, k: list) -> None:
        # each copy narrates from its own cards: the two traders read what changed hands
        gave = [(self.pname(a), self.slot_name(s)) for a, s in ((p, mine), (t, theirs))
                if s is not None and self.values[s] is not None]
        detail = ": " + join_names(f"{who} gives {card}" for who, card in gave) if gave else ""
        self.say(f"{self.pname(p)} and {self.pname(t)} trade cards{detail}.")
        self._mix(t, [mine], ["mix", {"q": p, "entered": [theirs], "k": k}])

    def _fx_weapon_tax(self, p: int, prm: dict, k: list) -> None:
        t, w = prm["target"], prm["weapon"]
        if w not in self.weapons(t) or len(self.weapons(t)) <= len(self.weapons(p)):
            self.say("Weapon Tax has no effect any more.")
            self._k(k)
            return
        self.place(w, f"weapons{p}")
        self.say(f"{self.pname(p)} takes {self._weapon_text(w)} from {self.pname(t)}.")
        self.reveal([w], [p], "k", k=k)

    def _shuffle_pile(self, k: list) -> None:
        """Shuffle the Draw Pile: its face-down cards by the deck service, then each face-up card
        back at a random position, still face up."""
        draw = self.zones["draw"]
        for s in [s for s in draw if s in self.faceup]:
            self.place(s, "shuffling")
        down = list(self.zones["draw"])
        if len(down) >= 2:
            self.request(Shuffle(tuple(down)), "pile_shuffled", k=k)
        else:
            self._after_pile_shuffled(k)

    def _after_pile_shuffled(self, k: list) -> None:
        if self.zones["shuffling"]:
            self.request(Random(len(self.zones["draw"]) + 1), "up_inserted", k=k)
        else:
            self.say("The Draw Pile is shuffled.")
            self._k(k)

    def _after_up_inserted(self, k: list, value: int) -> None:
        s = self.zones["shuffling"][0]
        self.place(s, "draw", value)
        self.faceup.append(s)
        self._after_pile_shuffled(k)
