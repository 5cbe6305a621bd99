"""Full states consistent with one seat's view of The Girl and the Robot (determinizations).

A view holds every card its seat has seen; the other slots are ``None``. A determinization deals
the unseen cards into those slots, at random among the deals the rules allow from that view:

* a Demon is never in a hand (hands are dealt without Demons and a drawn Demon is revealed at
  once), except the card another player has just drawn and not yet declared;
* a face-down weapon is a King's Sword or a Pendant (its placer's claim);
* every other unseen card may be anywhere unseen.

The deals are drawn uniformly among the allowed ones: the face-down weapons first (among the
unseen King's Swords and Pendants), then the Demons (among the slots allowed to hold one), then
the rest of the cards shuffled into the rest of the slots -- each allowed deal has the same
number of ways to come out, so the sample is uniform. ``sample`` is deterministic for a given
``random.Random``. The knowledge masks (who knows which slot) are public and stay as they are,
so the other seats' bots in a simulation "know" what their seat knows in the sampled world.
"""

from __future__ import annotations

import random
from fractions import Fraction

from p2pcards.games.girl_and_robot.game import DEMON, FACE_DOWN_WEAPONS, Game


class Inconsistent(ValueError):
    """The view leaves no deal of its unseen cards that the rules allow."""


class Unseen:
    """What a seat's view leaves open: the unseen cards and the slots they may go to."""

    def __init__(self, view: Game) -> None:
        if view.viewer is None:
            raise ValueError("a determinization needs a seat's view, not the full state")
        self.view = view
        seen = {v for v in view.values if v is not None}
        self.cards = [c for c in range(view.n_cards) if c not in seen]
        self.slots = [s for s in range(view.n_cards) if view.values[s] is None]
        if len(self.cards) != len(self.slots):
            raise Inconsistent(f"{len(self.cards)} unseen cards for {len(self.slots)} unseen slots")
        drawn = None
        task = view.task or {}
        if view.phase == "drawn" and task.get("slot") is not None:
            drawn = task["slot"]
        self.demon_ok = [s for s in self.slots
                         if not view.zone_of[s].startswith(("hand", "weapons")) or s == drawn]
        self.facedown = [s for s in self.slots if view.zone_of[s].startswith("weapons")]
        self.demons = [c for c in self.cards if view.kind_of(c) == DEMON]
        self.fd_cards = [c for c in self.cards if view.kind_of(c) in FACE_DOWN_WEAPONS]
        if len(self.demons) > len(self.demon_ok) or len(self.facedown) > len(self.fd_cards):
            raise Inconsistent("the unseen Demons or face-down weapons have nowhere to go")

    @property
    def top(self) -> int | None:
        """The Draw Pile's top slot if this seat has not seen it (None otherwise)."""
        draw = self.view.zones["draw"]
        return draw[-1] if draw and self.view.values[draw[-1]] is None else None

    def top_demon(self) -> Fraction:
        """The exact chance that the unseen top card of the Draw Pile is a Demon, under the
        deals this class draws (the Demons are spread evenly over the slots that may hold one)."""
        top = self.top
        if top is None or top not in self.demon_ok or not self.demons:
            return Fraction(0)
        return Fraction(len(self.demons), len(self.demon_ok))

    def deal(self, rng: random.Random, top_demon: bool | None = None) -> dict[int, int]:
        """slot -> card for every unseen slot; with ``top_demon``, a deal conditioned on the
        unseen top card of the Draw Pile being a Demon (True) or not (False) -- uniform among
        those deals, as the Demons' slots are drawn apart from the other cards'."""
        out: dict[int, int] = {}
        for s, c in zip(self.facedown, rng.sample(self.fd_cards, len(self.facedown)), strict=True):
            out[s] = c
        spots = self.demon_ok
        demons = self.demons
        top = self.top
        if top_demon is not None and top is not None and top in spots and demons:
            spots = [s for s in spots if s != top]
            if top_demon:
                out[top] = demons[rng.randrange(len(demons))]
                demons = [c for c in demons if c != out[top]]
        for s, c in zip(rng.sample(spots, len(demons)), demons, strict=True):
            out[s] = c
        used = set(out.values())
        rest_cards = [c for c in self.cards if c not in used]
        rest_slots = [s for s in self.slots if s not in out]
        rng.shuffle(rest_cards)
        out.update(zip(rest_slots, rest_cards, strict=True))
        return out

    def distinct(self, limit: int) -> list[dict[int, int]] | None:
        """Every distinct deal of the unseen cards *by kind* the rules allow (cards of one kind
        play alike), or None when there are more than ``limit``. Each allowed card-level deal maps
        to exactly one of them, and each of them to the same number of card-level deals, so they
        are equally likely: their plain average is the exact expectation over the hidden cards."""
        v = self.view
        by_kind: dict[str, list[int]] = {}
        for c in self.cards:
            by_kind.setdefault(v.kind_of(c), []).append(c)
        kinds = sorted(by_kind)
        left = {k: len(by_kind[k]) for k in kinds}
        demon_ok = set(self.demon_ok)
        facedown = set(self.facedown)
        out: list[dict[int, int]] = []
        chosen: list[str] = []

        def allowed(slot: int, k: str) -> bool:
            if k == DEMON and slot not in demon_ok:
                return False
            return slot not in facedown or k in FACE_DOWN_WEAPONS

        def rec(i: int) -> bool:
            if i == len(self.slots):
                used = {k: 0 for k in kinds}
                deal = {}
                for s, k in zip(self.slots, chosen, strict=True):
                    deal[s] = by_kind[k][used[k]]
                    used[k] += 1
                out.append(deal)
                return len(out) <= limit
            for k in kinds:
                if left[k] and allowed(self.slots[i], k):
                    left[k] -= 1
                    chosen.append(k)
                    ok = rec(i + 1)
                    chosen.pop()
                    left[k] += 1
                    if not ok:
                        return False
            return True

        return out if rec(0) and out else None

    def sample(self, rng: random.Random) -> Game:
        """A full-information state whose view for the seat is the given view."""
        g = self.view.clone()
        g.viewer = None
        for s, c in self.deal(rng).items():
            g.values[s] = c
        return g  # type: ignore[return-value]


def sample(view: Game, rng: random.Random) -> Game:
    return Unseen(view).sample(rng)
