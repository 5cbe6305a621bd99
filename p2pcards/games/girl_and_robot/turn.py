"""The Girl and the Robot, the turn: starting it (what "the next player" received), playing
cards, the ally's window, ending it ("End your turn by drawing 1 card from the Draw Pile"), the
draw and its declaration, who plays next, and the hands (a card that enters one is mixed in).
"""

from __future__ import annotations

from ...engine import Action, RuleViolation, Shuffle, plural
from .common import (
    DEMON,
    GIRL,
    Common,
    _params,
)


class Turn(Common):
    """Your Turn: from its start to the draw that ends it."""

    def _played(self, p: int) -> None:
        if p == self.turn and self.phase != "flipped":
            self.tf["played"] += 1

    def _do_play(self, p: int, a: Action) -> None:
        s, card = a.slot, a.card
        self._played(p)
        self.task = None
        cat = self.category(card)
        if cat == "action":
            self.place(s, "stack")
            self.reveal([s], None, "shown", p=p, slot=s, card=card, params=_params(a))
        elif cat == "points":
            self.place(s, "pool")
            self.reveal([s], None, "points_shown", p=p, slot=s, card=card)
        else:
            self.place(s, f"weapons{a.target}")
            self.reveal([s], None, "weapon_shown", p=p, slot=s, card=card, target=a.target)

    def _check_claim(self, p: int, slot: int, card: str) -> None:
        if self.kind(slot) != card:
            raise RuleViolation(p, f"played {self.slot_name(slot)} as {self.kind_name(card)}")

    def _after_points_shown(self, p: int, slot: int, card: str) -> None:
        self._check_claim(p, slot, card)
        self.points += self._data.kinds[card].value
        self.say(f"{self.pname(p)} plays {self.kind_name(card)} ({plural(self.points, 'point')} this turn).")
        self._resume()

    def _do_flip(self, p: int, a: Action) -> None:
        self._played(p)
        self.reveal([a.slot], None, "flipped", p=p, slot=a.slot)

    def _after_flipped(self, p: int, slot: int) -> None:
        self.say(f"{self.pname(p)} turns over a face-down card: {self.slot_name(slot)}.")
        self._ask(p, "flipped", slot=slot)

    def _do_waste(self, p: int, a: Action) -> None:
        self.task = None
        self.place(a.slot, "discard")
        self.say(f"{self.pname(p)} cannot play {self.slot_name(a.slot)} and discards it.")
        self._resume()

    def _do_show(self, p: int, a: Action) -> None:
        ally = self.living_ally(p)
        self.say(f"{self.pname(p)} shows {plural(len(a.slots), 'card')} to {self.pname(ally)}.")  # type: ignore[arg-type]
        self.reveal(list(a.slots), [ally], "k", k=["resume", {}])

    def _do_ally(self, p: int, a: Action) -> None:
        self.tf["ally_called"] = True
        self.say(f"{self.pname(p)} calls on their ally.")
        self._ally_window(["resume", {}])

    def _after_resume(self) -> None:
        self._resume()

    def _do_pass(self, p: int, a: Action) -> None:
        ph = self.phase
        if ph == "respond":
            self._run_stack()
        elif ph == "ally":
            k = self.allywin["k"]
            self.allywin = None
            self.ctx = "turn"
            self._k(k)
        elif ph == "aside":
            t = self.task
            self.task = None
            self._aside_next(t["owners"][1:], t["k"])
        elif ph == "pendant":
            k = self.task["k"]
            self.task = None
            self._k(k)

    def _resume(self) -> None:
        """Back to the turn's player (or to the ally's window) after an action or ability."""
        self.task = None
        if self.ctx == "ally" and self.allywin is not None:
            self.phase = "ally"
            self.decide(self.allywin["who"])
        else:
            self.phase = "turn"
            self.decide(self.turn)

    def _choose(self, who: int, k: list) -> None:
        """Seat ``who`` chooses a card of their hand; ``k`` gets ``slot`` (None: no card)."""
        if not self.hand(who):
            self._k(k, slot=None)
            return
        self._ask(who, "choose", k=k)

    def _do_choose(self, p: int, a: Action) -> None:
        k = self.task["k"]
        self.task = None
        self._k(k, slot=a.slot)

    def _receive(self, q: int, slots: list[int | None], k: list) -> None:
        """Cards just moved into seat q's hand are seen by q (by everyone while q is spied)."""
        got = [s for s in slots if s is not None]
        self.reveal(got, None if self.spied[q] else [q], "k", k=k)

    def _mix(self, q: int, entered: list[int | None], k: list) -> None:
        """Cards ``entered`` seat q's hand (a draw, Steal, Trade, a gift, a card taken from the
        discard pile): q mixes the hand, so no other seat can follow a card into it or tell it
        from the old ones -- the engine's hand mixing, ``Shuffle(hand, by=q, mix=True)``, as
        ``GameState.mix_hand`` issues it. Only the cards q knows are mixed (a blind hand's
        face-down cards stay where they are). Not while q is spied: that hand lies face up on
        the table. Skipped when there is nothing to lose track of (fewer than two cards, or only
        the cards that just entered, which no other seat knows). This game declares no
        ``hands()``: its rules keep some hand cards known to others on purpose (Spy, Magic
        Mirror, cards shown to the ally, the Girl's look at the Robot's hand)."""
        if self.spied[q]:
            self._k(k)
            return
        slots = [s for s in self.hand(q) if self.known[s] >> q & 1]
        others = self.all_mask & ~(1 << q)
        fresh = {s for s in entered if s is not None}
        if len(slots) >= 2 and (any(s not in fresh for s in slots)
                                or any(self.known[s] & others for s in slots)):
            self.request(Shuffle(tuple(slots), q, mix=True), "mixed", q=q, slots=slots, k=k)
        else:
            self._k(k)

    def _after_mix(self, q: int, entered: list[int | None], k: list) -> None:
        self._mix(q, entered, k)

    def _after_mixed(self, q: int, slots: list[int], k: list) -> None:
        self._spread_claims(slots)
        girl = self.seat_of(GIRL)
        if self.tf["borrow"] == q and girl is not None and girl == self.turn and self.alive[girl]:
            # the Girl plays from the Robot's hand this turn: she looks at it again
            self.reveal(slots, [girl], "k", k=k)
        else:
            self._k(k)

    def _ally_window(self, k: list) -> None:
        a = self.living_ally(self.turn)
        if a is None:
            self._k(k)
            return
        self.allywin = {"who": a, "k": k}
        self.ctx = "ally"
        self.phase = "ally"
        self.task = None
        self.decide(a)

    def _aside_window(self, k: list) -> None:
        owners = [o for o in self.others_in_order(self.turn) if self._placeable(o)]
        self._aside_next(owners, k)

    def _aside_next(self, owners: list[int], k: list) -> None:
        owners = [o for o in owners if self._placeable(o)]
        if not owners:
            self._k(k)
            return
        self._ask(owners[0], "aside", owners=owners, k=k)

    def _after_aside_next(self, owners: list[int], k: list) -> None:
        self._aside_next(owners, k)

    def _start_turn(self, q: int) -> None:
        again = q == self.turn  # an extra turn of the same player
        self.turn = q
        self.turns += 1
        # "the next player" is the next *other* living player: what this player did to the next
        # player waits through their own extra turns, for whoever plays after them
        fx = self._fresh_fx() if again else self.next_fx
        if not again:
            self.next_fx = self._fresh_fx()
        tf = self._fresh_turn()
        tf["ban"], tf["hex"], tf["provoke"] = fx["ban"], fx["hex"], fx["provoke"]
        self.tf = tf
        self.extra += fx["extra"]
        self.points = self.bonus[q]
        self.bonus[q] = 0
        notes = [n for n, on in (("cannot draw", tf["ban"]), ("Action cards cancelled", tf["hex"]),
                                 ("provoked", tf["provoke"]),
                                 ("plays an extra turn", fx["extra"] == 1),
                                 (f"plays {fx['extra']} extra turns", fx["extra"] > 1),
                                 (f"starts with {plural(self.points, 'point')}", self.points)) if on]
        self.say(f"— Turn {self.turns}: {self.pname(q)} ({self.char_ref(q)})"
                 f"{' · ' + ', '.join(notes) if notes else ''}.")
        self.ctx = "turn"
        self.allywin = None
        self.phase = "turn"
        self.task = None
        self.decide(q)

    def _do_end(self, p: int, a: Action) -> None:
        self.tf["ended"] = True
        self.tf["left"] = a.draw  # the end-of-turn draws still to make
        need = 0
        if self.tf["provoke"]:
            need += max(0, 2 - self.tf["played"])
        if self.cursed(p):
            need += max(0, 1 - self.tf["played"])
        self._discards(p, min(need, len(self.hand(p))), ["obligations_done", {}])

    def _discards(self, p: int, n: int, k: list) -> None:
        if n <= 0 or not self.hand(p):
            self._k(k)
            return
        self._choose(p, ["discarded", {"p": p, "n": n, "k": k}])

    def _after_discarded(self, p: int, n: int, k: list, slot: int) -> None:
        self.place(slot, "discard")
        self.reveal([slot], None, "discard_seen", p=p, n=n, k=k, slot=slot)

    def _after_discard_seen(self, p: int, n: int, k: list, slot: int) -> None:
        self.say(f"{self.pname(p)} must discard: {self.slot_name(slot)}.")
        self._discards(p, n - 1, k)

    def _after_obligations_done(self) -> None:
        self._ally_window(["before_draw", {}])

    def _after_before_draw(self) -> None:
        tf = self.tf
        if tf["left"] > 0 and not tf["no_draw"] and not tf["ban"]:
            self._aside_window(["draws", {}])
        else:
            self._next_draw()

    def _after_draws(self) -> None:
        self._next_draw()

    def _next_draw(self) -> None:
        p, tf = self.turn, self.tf
        if not self.alive[p] or tf["left"] <= 0 or tf["no_draw"] or tf["ban"]:
            self._end_turn()
            return
        tf["left"] -= 1
        self._draw_card(p, "end", ["next_draw", {}])

    def _after_next_draw(self) -> None:
        self._next_draw()

    def _draw_card(self, p: int, mode: str, k: list) -> None:
        """Seat p draws one card (``mode`` "end": a Demon kills unless defeated; "robot": the
        Robot's draw, where a Demon simply goes back face up)."""
        discard = self.zones["discard"]
        from_discard = self.tf["digger"] and mode == "end" and p == self.turn and bool(discard)
        pile = discard if from_discard else self.zones["draw"]
        if not pile:
            self.say(f"{self.pname(p)} has no card to draw: the Draw Pile is empty.")
            self._k(k)
            return
        s = pile[-1]
        self.place(s, f"hand{p}")
        self.spied[p] = False
        blinds = [x for x in self.hand(p) if x != s and not self.known[x] >> p & 1] if self.blind[p] else []
        self.blind[p] = False
        self.say(f"{self.pname(p)} draws {'the ' + self.slot_name(s) + ' from the discard pile' if from_discard else 'a card'}.")
        self.reveal([s] + blinds, [p], "drawn", p=p, slot=s, mode=mode, k=k)

    def _after_drawn(self, p: int, slot: int, mode: str, k: list) -> None:
        if self.public(slot):
            if self.kind(slot) == DEMON:
                self._demon(p, slot, mode, k)
            else:
                self._mix(p, [slot], k)
            return
        self._ask(p, "drawn", slot=slot, mode=mode, k=k)

    def _do_safe(self, p: int, a: Action) -> None:
        t = self.task
        self.task = None
        self.safe[str(t["slot"])] = p
        # "not a Demon" is proven now, before the card is mixed into the hand
        self.prove([t["slot"]], p, self.not_demons(),
                   "declared the card they drew safe (not a Demon)",
                   "safe_proven", p=p, slot=t["slot"], k=t["k"])

    def _after_safe_proven(self, p: int, slot: int, k: list) -> None:
        self._mix(p, [slot], k)

    def _end_turn(self) -> None:
        p = self.turn
        for s in list(self.zones["pool"]) + list(self.zones["held"]):
            self.place(s, "discard")
        self.points = 0
        if self.alive[p] and self.extra > 0:
            self.extra -= 1
            q = p
        else:
            self.extra = 0
            o = self.override
            q = o if o is not None and self.alive[o] else self.next_alive(p)
            self.override = None
        self._start_turn(q)
