"""Advice for one seat of The Girl and the Robot, from that seat's view alone.

The advice is built in two layers.

**The rule of thumb.** The careful player's move (``policy.CarefulBot``: the heuristic bot that
keeps its escape cards for a dangerous draw) is the starting point. At the seat's own turn,
before its draw, each legal action is weighed by **the chance that the seat dies at this turn's
draw** once it is taken (``death_after``):

* no draw at all: Evade, Ambush and Provoke (their "you may choose not to draw"), the Robot's
  skip, ending the turn without drawing when allowed -- 0;
* a draw that cannot kill: Grave Digger (the discard pile holds no Demon), A Deal with a Demon
  (the Demon is set aside), a weapon placed or taken with Weapon Tax (the Demon is defeated; the
  weapon is used up), Peace Treaty (the players' own cards go on top) -- 0;
* a changed pile: Smoke Bomb (the pile is shuffled: the top is any of its cards), Lure (a Demon
  goes under the top two, the rest is shuffled), Manipulate (the top three face-down cards in the
  seat's order: only all-Demons kill), the Girl's and the Queen's two-card reveals (two Demons
  kill), the Robot's draw (the top card is taken first; a Demon is put back elsewhere);
* anything else leaves the odds as they are (``odds.Odds``).

When the careful player would end the turn and draw while the chance of dying is high
(``HIGH``), the rule is the action that lowers it most, the cheapest card first, preferring not
to leave the Demon to an ally who draws next; a seat with a weapon keeps it when the next card is
likely a Demon.

**The search.** At the seat's turn, when answering an Action card and when helping the ally,
the information-set search (``search.search``, the ``HINT`` budget) plays the rule's move and
its alternatives in sampled deals of the unseen cards and keeps the rule's move unless another is
clearly better. The reason names the move, what it prevents (the chance of dying it removes, the
card it stops, the move it beats) and the figures it rests on (``reasons``). The other decisions
(defending, placing a Demon, giving a card...) take the rule's move, with the odds as reason.
Deterministic for a fixed seed: the same view gives the same advice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from p2pcards.bots.girl_and_robot import KEEP
from p2pcards.engine import Action
from p2pcards.games.girl_and_robot.game import DEMON, Game
from solver import hints

from .odds import ONE, ZERO, Odds, odds
from .policy import CarefulBot
from .reasons import searched_reason
from .search import HINT, Budget, search

HIGH = Fraction(1, 5)  # a chance of dying worth a card to avoid
WEAPON_HIGH = Fraction(1, 2)  # with a weapon: worth a card to keep the weapon
NO_DRAW = ("evade", "ambush", "provoke")
SAFE_DRAW = ("grave_digger", "deal_with_demon", "peace_treaty")
SEARCHED = ("turn", "respond", "ally")  # decisions the hint searches (``search.search``)


@dataclass
class Advice(hints.Advice):
    odds: Fraction = ZERO
    death: Fraction = ZERO
    options: list[tuple[str, Fraction]] = field(default_factory=list)
    search: dict[str, Any] | None = None  # the playouts behind a searched hint

    plan_label: ClassVar[str] = "Odds"

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "demon_next": float(self.odds), "death": float(self.death),
                "options": [{"text": t, "death": float(d)} for t, d in self.options],
                "search": self.search}


def _pct(p: Fraction) -> str:
    return f"{float(p):.0%}"


def draw_odds(view: Game, o: Odds) -> Fraction:
    """The chance that this seat's coming end-of-turn draw is a Demon that can hurt it (a
    Demon drawn after A Deal with a Demon is set aside: it cannot)."""
    tf = view.tf
    if tf["no_draw"] or tf["ban"] or tf["deal"]:
        return ZERO
    if tf["digger"] and view.zones["discard"]:
        return ZERO
    return o.top


def death_after(view: Game, o: Odds, a: Action, me: int) -> Fraction | None:
    """The chance of dying at this turn's draw after action ``a`` (None: the action does not
    change it, as far as this one-step look can tell)."""
    p = draw_odds(view, o)
    armed = bool(view.defenders(me))
    k = a.kind
    if k == "end":
        if a.draw == 0 or view.tf["deal"]:
            return ZERO
        if armed:
            return ZERO
        return o.within(2) if a.draw == 2 else p
    if armed:
        return ZERO
    if k == "hide":
        return ZERO
    if k == "play":
        card = a.card
        cat = view.category(card)
        if cat == "weapon":
            return ZERO if a.get("target") == me else None
        if card in NO_DRAW or card in SAFE_DRAW:
            return ZERO if card != "grave_digger" or view.zones["discard"] else None
        if card == "smoke_bomb":
            n = len(o.pile)
            return Fraction(o.demons_in_pile()) / n if n else ZERO
        if card == "lure":
            # a Demon (if any) goes under the top two, the other cards are shuffled
            n = len(o.pile)
            d = o.demons_in_pile()
            some = ONE if DEMON in o.pile else 1 - o.none_among(sum(c is None for c in o.pile))
            if n <= 1 or d == 0:
                return ZERO
            return max(ZERO, Fraction(d - some) / (n - 1))
        if card == "manipulate":
            return _manipulated(o)
        if card == "weapon_tax":
            return ZERO  # the weapon taken goes next to this seat's character
        return None
    if k == "ability":
        aid = a.id
        if aid == "robot_skip":
            return ZERO
        if aid in ("girl_bottom2", "queen_top2"):
            cards = o.pile[-2:] if aid == "girl_bottom2" else o.pile[:2]
            if any(c is not None and c != DEMON for c in cards):
                return ZERO
            known = sum(c == DEMON for c in cards)
            return o.all_among(len(cards) - known) if cards else p
        if aid == "robot_draw":
            return o.at(1) if len(o.pile) > 1 else ZERO
    return None


def _manipulated(o: Odds) -> Fraction:
    """Manipulate: the seat reorders the face-down cards among the top three; it dies only if
    the top is face up and a Demon, or every card it may put on top is one."""
    if not o.pile:
        return ZERO
    if o.faceup and o.faceup[0]:
        return o.top
    down = [c for c, up in zip(o.pile[:3], o.faceup[:3], strict=False) if not up]
    if any(c is not None and c != DEMON for c in down):
        return ZERO
    known = sum(c == DEMON for c in down)
    return o.all_among(len(down) - known)


def _cost(view: Game, a: Action) -> float:
    if a.kind in ("play", "hide"):
        k = view.kind(a.slot)
        return KEEP.get(k or "", 3)
    if a.kind == "ability":
        return 1.0 + view._data.ability(a.id).cost
    return 0.0


def advise(view: Game, legal: list[Action], *, seed: int = 0, deep: bool = True,
           budget: Budget = HINT) -> Advice:
    """The recommended action for the seat whose view this is, with the odds behind it.
    With ``deep`` (the default), turn, answer and ally decisions are searched
    (``search.search`` with ``budget``, seeded by ``seed``); otherwise the rule of thumb
    stands. Deterministic for a fixed seed; the view alone is read."""
    me = view.viewer
    if me is None or me < 0:
        raise ValueError("advice needs a seat's view")
    if not legal:
        raise ValueError("no legal action to advise on")
    o = odds(view)
    base = CarefulBot(me, seed).decide(view, legal)
    plan = o.text()
    nxt = o.top
    if view.phase == "turn" and view.turn == me:
        rule = _advise_turn(view, legal, o, base, plan)
    else:
        rule = Advice(base, view.describe(base), _other_reason(view, o, base, me), plan, nxt)
    if not deep or view.phase not in SEARCHED or len(legal) < 2:
        return rule
    res = search(view, legal, budget, seed, base=rule.action)
    if not res.searched:
        return rule
    chosen = res.best
    death_now = draw_odds(view, o) if view.phase == "turn" and not view.defenders(me) else None
    d_after = death_after(view, o, chosen, me) if view.phase == "turn" else None
    if d_after is None and death_now is not None:
        d_after = death_now if chosen.kind != "end" or chosen.draw else ZERO
    why = searched_reason(view, o, res, chosen, rule.action, rule.reason, death_now, d_after)
    lines = [{"text": view.describe(x.action), "standing": round(x.mean, 4),
              "alive": round(x.survive, 4), "team_whole": round(x.team_alive, 4)}
             for x in res.lines]
    return Advice(chosen, view.describe(chosen), why, plan, nxt,
                  d_after if d_after is not None else rule.death, rule.options,
                  {"deals": res.deals, "exact": res.exact, "horizon": res.horizon,
                   "unseen": res.unseen, "demon_deals": res.demon_deals,
                   "top_demon": res.top_demon, "lines": lines})


def _passes_to(view: Game, a: Action, me: int) -> int | None:
    """The player who draws next after ``a`` if ``a`` skips this seat's draw (else None)."""
    skips = ((a.kind == "play" and a.card in NO_DRAW) or (a.kind == "end" and a.draw == 0)
             or (a.kind == "ability" and a.id == "robot_skip"))
    if not skips:
        return None
    if a.kind == "play" and a.card == "evade" and a.get("direction") is not None:
        n = view.n_players
        for i in range(1, n + 1):
            q = (me + a.direction * i) % n
            if view.alive[q]:
                return q
    return view.upcoming(1)[0]


def _ally_risk(view: Game, o: Odds, a: Action, me: int) -> Fraction:
    """When ``a`` skips this seat's draw, the top card falls to the next drawer: the chance it
    kills an ally of this seat (a weapon halves the harm: it is used up)."""
    q = _passes_to(view, a, me)
    if q is None or q == me or view.team[q] != view.team[me]:
        return ZERO
    return o.top * (Fraction(1, 2) if view.defenders(q) else 1)


def _advise_turn(view: Game, legal: list[Action], o: Odds, base: Action, plan: str) -> Advice:
    me = view.viewer
    assert me is not None
    p = draw_odds(view, o)
    armed = bool(view.defenders(me))
    baseline = ZERO if armed else p
    options: list[tuple[Action, Fraction]] = []
    for a in legal:
        d = death_after(view, o, a, me)
        if d is not None:
            options.append((a, d))
    opts = [(view.describe(a), d) for a, d in options]
    weapons = len(view.defenders(me))
    arms = f"you have {weapons} weapon{'s' * (weapons != 1)}" if weapons else "you have no weapon"
    if p == 0:
        reason = ("A Deal with a Demon sets a Demon you draw aside" if view.tf["deal"]
                  else "your draw cannot be a Demon now" if view.tf["no_draw"] or view.tf["ban"]
                  or view.tf["digger"] else "the top card of the Draw Pile is no Demon")
        return Advice(base, view.describe(base), f"{reason}; {_plain(view, base)}", plan, p,
                      ZERO, opts)
    base_death = death_after(view, o, base, me)
    drawing = base.kind == "end" and base.draw > 0  # the heuristic would draw now
    if not armed and baseline >= HIGH and (drawing or base_death is None and p >= WEAPON_HIGH):
        best = min(options, key=lambda t: (t[1] + _ally_risk(view, o, t[0], me),
                                           _cost(view, t[0]), t[0].kind == "end"), default=None)
        if best is not None and best[1] < baseline:
            a, d = best
            return Advice(a, view.describe(a),
                          f"{arms} and your draw is a Demon with chance {_pct(baseline)}; "
                          f"{_q(view, a)} brings the chance of dying to {_pct(d)}.",
                          plan, p, d, opts)
        if drawing:
            return Advice(base, view.describe(base), f"{arms} and your draw is a Demon with "
                          f"chance {_pct(baseline)}, and nothing you can do now lowers it.", plan,
                          p, baseline, opts)
    if armed and p >= WEAPON_HIGH and drawing:
        keep = [(a, d) for a, d in options if d == 0 and _passes_to(view, a, me) is not None
                or (a.kind == "play" and a.card in SAFE_DRAW and d == 0)]
        keep = [(a, d) for a, d in keep if _ally_risk(view, o, a, me) == 0]
        if keep:
            a = min(keep, key=lambda t: (_cost(view, t[0]), t[0].kind == "end"))[0]
            return Advice(a, view.describe(a), f"{arms}, but your draw is a Demon with chance "
                          f"{_pct(p)}: {_q(view, a)} saves a weapon.", plan, p, ZERO, opts)
    if base_death is not None and base_death < baseline:
        why = (f"{arms} and your draw is a Demon with chance {_pct(baseline)}; "
               f"{_q(view, base)} brings the chance of dying to {_pct(base_death)}")
        return Advice(base, view.describe(base), why + ".", plan, p, base_death, opts)
    if armed:
        why = f"{arms}: a Demon drawn costs a weapon, not your life"
    elif baseline >= HIGH:
        return Advice(base, view.describe(base), f"{arms} and your draw is a Demon with chance "
                      f"{_pct(baseline)}: {_q(view, base)} first"
                      f"{' ' + _paid_for(view, base) if _paid_for(view, base) else ''}, "
                      "before you end your turn.",
                      plan, p, baseline, opts)
    else:
        why = f"the chance of a Demon ({_pct(p)}) is low enough to keep your cards"
    return Advice(base, view.describe(base), f"{why}; {_plain(view, base)}", plan, p, baseline,
                  opts)


def _plain(view: Game, a: Action) -> str:
    if a.kind == "end":
        return f"{view.describe(a)}."
    goal = _paid_for(view, a)
    if goal:
        return f"{_q(view, a)} {goal}."
    return f"{_q(view, a)} is the best use of your turn."


def _q(view: Game, a: Action) -> str:
    """A move quoted inside a reason: "ability: [3] Choose a player. They must give 1 card ...
    → Bot 2 is the best use of your turn" read as one run-on sentence (ux22)."""
    return f"\"{view.describe(a)}\""


def _paid_for(view: Game, a: Action) -> str:
    """For an Ability Points card: "to pay for <the ability the points go to>" (the ability the
    careful player rates best among those the pool and the hand's points can pay for)."""
    if a.kind != "play" or view.category(a.card) != "points" or view.viewer is None:
        return ""
    me = view.viewer
    bot = CarefulBot(me, 0)
    have = view.points + sum(view._data.kinds[view.kind(s)].value for s in view.hand(me)
                             if view.kind(s) is not None and view.category(view.kind(s)) == "points")
    best: tuple[float, Action] | None = None
    char = view._data.characters[view.chars[me]]
    for ab in char.side(view.side(me)):
        if not 0 < ab.cost <= have or not view.ability_ok(me, ab.id):
            continue
        for va in view.ability_variants(me, ab.id):
            act = Action("ability", id=ab.id, **va)
            sc = bot.ability_score(view, ab.id, act)
            if sc > 0 and (best is None or sc > best[0]):
                best = (sc, act)
    return "" if best is None else f"to pay for {_q(view, best[1])}"


def _other_reason(view: Game, o: Odds, a: Action, me: int) -> str:
    ph = view.phase
    if ph == "defend":
        return "the Demon must be defeated with a weapon; this one is the least useful to keep."
    if ph == "position":
        return ("place the Demon where the other team draws it first (the next draws, in turn "
                "order, are known).")
    if ph == "ally":
        drawer = view.turn
        return (f"{view.pname(drawer)} draws next: {o.short(said=True)}; "
                f"{'help them' if a.kind != 'pass' else 'nothing to play now'}.")
    if ph == "respond":
        return ("cancel only what hurts your team" if a.kind == "cancel"
                else "this Action card does not hurt your team enough to cancel it") + "."
    if ph == "drawn":  # "a Demon drawn is revealed at once" was said of a safe card too (ux22)
        if a.kind == "safe":
            return "the card you drew is not a Demon: you keep it in your hand."
        return "the rules: \"If you draw a Demon card, reveal it to everyone!\""
    if ph in ("choose", "bury"):
        return "it is the card of least use to your team among those you may give up."
    if ph == "direction":
        return ("the turn order that makes the other team draw right after you, so a Demon you "
                "leave on the pile goes to them.")
    if ph == "order":
        return ("put a Demon on top when the other team draws first, a safe card when your team "
                f"does ({o.short()}).")
    if ph == "aside":
        return ("a set-aside Demon goes into the pile just before a player of the other team "
                "draws.")
    if ph in ("copy", "pendant", "flipped"):
        return "it is the move worth most now: " + o.short() + "."
    return f"nothing here changes the Demon odds ({o.short()})."


def hinter(view: Game, legal: list[Action], *, seed: int = 0) -> str | None:
    """The ``hint`` command's text for this seat."""
    if not legal or view.viewer is None or view.viewer < 0:
        return None
    return advise(view, legal, seed=seed).render()


__all__ = ["Advice", "advise", "death_after", "hinter", "odds"]
