"""Who the others are: a per-seat opponent model learnt from what one seat has seen over a match.

The view carries no log of past actions, but a bot lives for a whole match and sees a view at
each of its own decisions. ``TableMemory.observe`` reads two kinds of public fact from each view
(never the full state):

* **a play**: the pile on the field names its owner and its cards (``top["slots"]``); the cards
  under it say whether it was a lead (nothing under it) or a follow, and onto what (the pile
  just under it, when its as-number is plain);
* **a refusal**: every seat still in the battle between that owner and the seat to move had its
  turn on this very pile and did not beat it (``determinize.declined_seats``).

Each fact is scored under two models of the seat: the heuristic bot (``policy.heuristic``, the
model the search has always assumed) and a uniform random player (a legal move, uniformly). The
hidden part -- the seat's hand at that moment -- is averaged over deals sampled from the view
(``ViewInfo.sample``; for a play, the played cards are put back into the sampled hand and the
pile under it put back on the field). The likelihoods are soft (``FLOOR`` for a play the
heuristic would not make in that deal, ``DECLINE_ALPHA`` for a refusal it would not make: the
reconstruction is approximate -- a seat that took damage has drawn since). A seat's log
likelihood ratio adds over the facts seen (each fact once: a fact is keyed by the battle and
the pile), and with the prior ``PRIOR_RANDOM`` it gives the posterior chance that the seat plays
at random. ``BIAS`` corrects an excess the scoring leaves: the soft floor does not normalise,
and a random player whose only play is the heuristic's own looks like the heuristic while its
refusals are seen less often (only between a pile's owner and this seat). Calibrated on 12
whole matches (seeds 100-111, the heuristic bot observing): with 0.2 a fact, 28 of 36 random
seats end below 0 and 35 of 36 heuristic seats above. The search then plays each opponent in its playouts as that mixture: each of its
moves is, with that chance, a legal move picked uniformly, else the heuristic's
(``policy.rollout``'s per-seat ``noise``).

Everything here is the seat's own information: the views it was handed, in order.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from p2pcards.games.go_out_girl.game import Game

from .determinize import DECLINE_ALPHA, ViewInfo, declined_seats
from .model import DAMAGE, REVEAL, TURN, Battle
from .policy import heuristic

PRIOR_RANDOM = 0.5  # before any fact, a seat is as likely random as heuristic
FLOOR = 0.05  # the heuristic's likelihood of a play it would not make in a sampled deal
SAMPLES = 8  # deals sampled per view to average the hidden hands over
CLAMP = 0.01  # a posterior this close to 0 or 1 is taken as certain (no noise, or all noise)
MAX_LLR = 30.0
BIAS = 0.2  # taken off each fact's log ratio: the facts as scored lean toward the heuristic


def _pile_numbers(view: Game, slots: list[int]) -> list[int]:
    return [view.number(view.values[s]) for s in slots]  # type: ignore[arg-type]


def _under(view: Game) -> tuple[int, int, int] | None | bool:
    """The pile just under the top one as (as-number, count, damage), ``None`` when the top pile
    was a lead, ``False`` when it cannot be told (a mixed pile, Kyoko's single card as a pair,
    1s that may have been 14s)."""
    top = view.top
    assert top is not None
    field = view.zones["field"]
    k = len(top["slots"])
    rest = field[: len(field) - k]
    if not rest:
        return None
    count = top["count"]
    if k != count or len(rest) < count:
        return False
    nums = _pile_numbers(view, rest[-count:])
    if len(set(nums)) == 1 and nums[0] != 1:
        n = nums[0]
    elif set(nums) <= {4, 5, 6} and set(nums) & {4, 5}:
        n = 6
    else:
        return False
    if n >= top["number"]:
        return False
    return n, count, DAMAGE[n]


class TableMemory:
    """One seat's record of the others' play over a match, and the opponent model it implies."""

    def __init__(self, me: int, n: int, *, prior_random: float = PRIOR_RANDOM,
                 samples: int = SAMPLES) -> None:
        self.me = me
        self.n = n
        self.llr = [0.0] * n  # log P(facts | heuristic) - log P(facts | random), per seat
        self.facts = [0] * n
        self.prior = math.log((1 - prior_random) / prior_random)
        self.samples = samples
        self._seen: set[tuple] = set()

    # ---- the model ----------------------------------------------------------------------------
    def p_random(self, q: int) -> float:
        """The posterior chance that seat ``q`` plays at random rather than like the heuristic."""
        x = max(-MAX_LLR, min(MAX_LLR, self.llr[q] + self.prior))
        p = 1 / (1 + math.exp(x))
        return 0.0 if p < CLAMP else 1.0 if p > 1 - CLAMP else p

    def noise(self) -> list[float]:
        """Per seat, the share of its playout moves to pick at random (0 for this seat)."""
        return [0.0 if q == self.me else self.p_random(q) for q in range(self.n)]

    # ---- reading a view -----------------------------------------------------------------------
    def observe(self, view: Game, info: ViewInfo | None = None, seed: int = 0) -> int:
        """Record the facts this view shows that were not recorded yet; how many were new."""
        if view.viewer != self.me or view.phase not in ("turn", "lead", "damage", "discard",
                                                        "give") or view.top is None:
            return 0
        top = view.top
        pile = (view.battle, top["owner"], top["number"], top["count"], tuple(top["slots"]),
                len(view.zones["discard"]))
        new: list[tuple] = []
        owner = top["owner"]
        if owner != self.me and ("play", pile) not in self._seen:
            self._seen.add(("play", pile))
            under = _under(view)
            if under is not False:
                new.append(("play", owner, under))
        for q in declined_seats(view):
            if q != self.me and ("decline", q, pile) not in self._seen:
                self._seen.add(("decline", q, pile))
                new.append(("decline", q, None))
        if not new:
            return 0
        if info is None:
            info = ViewInfo(view)
        rng = random.Random(seed)
        deals = [info.sample(rng) for _ in range(self.samples)]
        used = tuple(sorted(Counter(_pile_numbers(view, top["slots"])).items()))
        played = ("P", top["number"], top["count"], used)
        for kind, q, under in new:
            if kind == "play":
                ph, pr = _play_likelihoods(deals, q, played, under)  # type: ignore[arg-type]
            else:
                ph, pr = _decline_likelihoods(deals, q)
            if ph > 0 and pr > 0:
                self.llr[q] += math.log(ph) - math.log(pr) - BIAS
                self.facts[q] += 1
        return len(new)


def _random_choice_p(b: Battle, a: tuple) -> float:
    """The chance a uniform random player picks ``a`` in ``b`` (a reveal first, then ``a``,
    counted too)."""
    legal = b.legal()
    if a not in legal and REVEAL not in legal:
        return 0.0
    p = (1 / len(legal)) if a in legal else 0.0
    if REVEAL in legal and not b.revealed[b.turn]:
        b.revealed[b.turn] = True
        after = b.legal()
        b.revealed[b.turn] = False
        if a in after:
            p += (1 / len(legal)) * (1 / len(after))
    return p


def _heuristic_picks(b: Battle) -> tuple:
    a = heuristic(b)
    if a == REVEAL:
        b.revealed[b.turn] = True
        a = heuristic(b)
        b.revealed[b.turn] = False
    return a


def _play_likelihoods(deals: list[Battle], q: int, played: tuple,
                      under: tuple[int, int, int] | None) -> tuple[float, float]:
    """P(seat q made this play | heuristic), P(... | random), averaged over the deals with the
    played cards back in q's hand and the pile under it back on top."""
    ph = pr = 0.0
    for d in deals:
        b = d.copy()
        h = b.hands[q]
        for n, k in played[3]:
            h[n] += k
            b.size[q] += k
        b.top = None if under is None else (*under, -1)
        b.turn, b.phase = q, TURN
        ph += 1.0 if _heuristic_picks(b) == played else FLOOR
        pr += _random_choice_p(b, played)
    return ph / len(deals), pr / len(deals)


def _decline_likelihoods(deals: list[Battle], q: int) -> tuple[float, float]:
    """P(seat q did not beat the pile | heuristic), P(... | random), over the deals: a random
    player declines with the share of its legal moves that are not plays."""
    ph = pr = 0.0
    for d in deals:
        b = d.copy()
        b.turn, b.phase = q, TURN
        beats = _heuristic_picks(b)[0] in ("P", "X")
        ph += DECLINE_ALPHA if beats else 1.0
        legal = [a for a in b.legal() if a != REVEAL]
        pr += sum(1 for a in legal if a[0] not in ("P", "X")) / len(legal) if legal else 1.0
    return ph / len(deals), pr / len(deals)


__all__ = ["TableMemory"]
