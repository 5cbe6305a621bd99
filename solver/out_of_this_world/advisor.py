"""Set advice for one seat of Out Of This World, from that seat's view alone.

The view gives the seat's own hand, every player's equipped Items and Foes (public), the hand
sizes, the face-up tops of the five stacks and the Time tokens. ``problem`` turns it into the
pure ``setplan.Problem`` (prices below), CP-SAT finds the best plan for the rest of the round,
and the advice is the plan's first step:

* **take**: the take option the optimal plan chooses (every legal take is an option of one
  model), unless Leg it! scores better (the same objective with an empty hand, the visible Foe
  left for the next player);
* **action**: one group of the plan -- a Defeat that unblocks the rest first, then Equips
  (highest first), Passes, other Defeats and Spends; no action when the plan is empty;
* **discard** (Taking Care of Things): the card whose loss costs the next round's plan least
  (with more than ``DISCARD_SEARCHES`` kinds in hand, the best-ranked ones planned in full);
* **give** (Slingshot): each card to the player who needs it most;
* character: Monster Hunter, Tinkerer, Pack Rat, Smooth Talker, Sneaky, in that order; starter
  and the deal's Foe declaration: the heuristic bot's rules.

Prices, in hundredths of a point: a point equipped toward the seat's goal is 100 (more for a seat
further from its goal than the team's average); a Time token is worth what the team still needs
divided by the tokens left (between 4 and 16 points), and the Time the round's end costs is the
most Foe weight in front of one player -- the others' Foes at half weight (they may clear them),
the seat's own at less the more turns it has left, plus a phantom "Foe still to come" weighted by
the chance of taking one; a Foe got rid of is worth its share of later rounds' Time and its
standing penalty; a card kept for later is worth a little more than a third of the Equip it may
complete (less as the Time runs out), a pair kept together a bonus; a passed card is worth half
of a kept card to its receiver, more the further the receiver is from the goal. The prices are
a heuristic (``reader.Prices``), tuned by playing whole games; the optimisation over them is exact.

Every decision's plan searches share a work budget (``WORK``, ``SEARCH``: CP-SAT's deterministic
time, never a clock), so a hint or a strong bot's move answers in about a second at most however
big the hand; a plan the budget cut short is said to be a quick one ("a quick plan", "a quick
look") rather than the best.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from typing import Any

from p2pcards.bots.out_of_this_world import OutOfThisWorldBot
from p2pcards.engine import Action
from p2pcards.games.out_of_this_world.game import Game
from solver import hints

from . import pimc, setplan
from .model import abstract
from .plantext import (
    _phantom,
    _priority,
    _tokens,
    group_signature,
    group_text,
    plan_text,
    signature,
)
from .reader import DEFAULT, LOSE, Prices, Reader, problem
from .setplan import Group, Plan, Problem


@dataclass
class Advice(hints.Advice):
    value: int | None = None
    options: list[tuple[str, int]] = field(default_factory=list)  # take options and their scores
    then: str | None = None  # at a take: the action the plan makes this turn
    seconds: float = 0.0
    work: float = 0.0  # CP-SAT deterministic time the plan searches spent

    def headline(self) -> str:
        return super().headline() + (f", then {self.then}" if self.then else "")

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "then": self.then, "value": self.value,
                "options": [{"text": t, "value": v} for t, v in self.options]}



# ---- the advice ------------------------------------------------------------------------------
def advise(view: Game, legal: list[Action], *, seed: int = 0, prices: Prices = DEFAULT,
           explain: bool = True, search: bool | None = None) -> Advice:
    """The recommended action for the seat whose view this is, with its plan and reason.
    Deterministic: the round search's worlds are drawn from ``seed`` and the view alone.
    ``explain=False`` (bots) skips scoring every take option for the text and the round search
    (the strong bot runs its own, with more worlds); ``search`` overrides that choice."""
    t0 = time.perf_counter()
    me = view.viewer
    if me is None or me < 0:
        raise ValueError("advice needs a seat's view")
    if not legal:
        raise ValueError("no legal action to advise on")
    step = view.step
    work = setplan.Work(WORK, SEARCH)
    if step == "take":
        adv = _advise_take(view, legal, prices, explain, work)
    elif step == "action":
        adv = _advise_action(view, legal, prices, work)
    elif step == "discard":
        adv = _advise_discard(view, legal, prices, work)
    elif step == "give":
        adv = _advise_give(view, legal, prices)
    else:
        adv = _advise_other(view, legal)
    if (explain if search is None else search) and step in ("take", "action") and len(legal) > 1:
        adv = _searched(view, legal, adv, seed, not work.full())
    adv.seconds = time.perf_counter() - t0
    adv.work = work.spent
    return adv


# The plan searches of one decision (hint or bot) share WORK of CP-SAT's deterministic time,
# SEARCH at most each: a count of work, not a clock, so the answer stays a function of the view.
# On the benchmark's positions a whole decision uses under 0.01 (every search proven optimal);
# a 40-card hand's single search would use the old 1.0 limit in full (2-3 s of CPU) unproven.
WORK = 0.25
SEARCH = 0.1
QUICK = ("a quick plan (your hand is too big to search every plan in the time a hint "
         "has, so this one may not be the best): ")


HINT_WORLDS = 8  # the hint's round search: fewer worlds than the strong bot's, for its latency


def _searched(view: Game, legal: list[Action], adv: Advice, seed: int,
              quick: bool = False) -> Advice:
    """The set plan's move checked by the determinized round search (``pimc.py``): kept, with
    the search's agreement in the reason, or replaced by a move that scores better."""
    act, means = pimc.search(view, legal, adv.action, random.Random(seed), HINT_WORLDS)
    if not means:
        return adv
    worlds = (f"{HINT_WORLDS} random deals of the cards you have not seen, every player playing "
              f"on to the round's end")
    if act == adv.action:
        adv.reason = adv.reason.rstrip(".") + "."
        adv.reason += f" Played out over {worlds}, none of the {len(means)} moves compared " \
            "does better."
        return adv
    gain = means[abstract(view, act)] - means[abstract(view, adv.action)]
    # "the set plan's move" and "the carry score" were our words, not a player's (ux22); the
    # move the plan for the hand alone makes follows a colon: it is an imperative (ux21)
    alone = SHORT_PLAN if quick else HAND_PLAN
    plan = f"{alone}: {adv.text}" + (f"; with it, {adv.plan}" if adv.plan else "")
    return Advice(act, view.describe(act),
                  f"played out over {worlds}, this ends the round {gain:.1f} points better than "
                  f"the move {alone} ({SCORE}).",
                  plan, adv.value, options=adv.options)


#: The plan line when the round search overrules the plan made for the hand alone (ux22).
HAND_PLAN = "the best plan for your hand alone suggests"
SHORT_PLAN = "a quick plan for your hand alone suggests"
#: What the round search's "points" count, in a player's words (ux22: "the carry score").
SCORE = ("the score counts a win above all, then 8 points for each Time token left, each point "
         "equipped toward a goal, minus 3 for each Foe left in play and half a point for each "
         "card kept")


# the Monster Hunter keeps Foes down, the Tinkerer equips high, the Pack Rat keeps more cards;
# the Sneaky player would leave its Foes to the next player
CHARACTER_ORDER = ("malala_bart", "zoe_zack", "penny_percy", "rita_rick", "nina_ned")


def _advise_other(view: Game, legal: list[Action]) -> Advice:
    me = view.viewer
    step = view.step
    if step == "character":
        a = min(legal, key=lambda a: (CHARACTER_ORDER.index(a.key)
                                      if a.key in CHARACTER_ORDER else 99, a.side))
    else:
        a = OutOfThisWorldBot(me, 0).decide(view, legal)  # type: ignore[arg-type]
    if step == "character":
        ch = view._chars[a.key]
        why = (f"{ch.ability} ({ch.text.rstrip('.')}) is the ability that helps your plans most"
               if len(legal) > 1 else "it is the only choice")
    elif step == "starter":
        why = "the adventure's starting Items count toward the goal of whoever equips them"
    elif step == "declare":
        why = "the rules: Foes dealt are laid out and replaced"
    else:
        why = "it is the only sensible choice here"
    return Advice(a, view.describe(a), why + ".")


def _points_text(r: Reader, p: Problem, plan: Plan) -> str:
    bits = []
    if plan.equipped:
        bits.append(f"+{plan.equipped} points equipped (you need {r.needs[r.me]} more)")
    real = [i for i in plan.defeated if p.foes[i].cid >= 0]  # not the Foe still to come
    if real:
        bits.append(f"{len(real)} Foe{'s' * (len(real) != 1)} defeated")
    if len(real) < len(plan.defeated):
        bits.append("a pair kept against a Foe still to come")
    return ", ".join(bits)


def _advise_action(view: Game, legal: list[Action], prices: Prices,
                   work: setplan.Work | None = None) -> Advice:
    adv = _action(view, legal, prices, work)
    if work is not None and not work.full() and len(legal) > 1:
        adv.reason = QUICK + adv.reason
    return adv


def _action(view: Game, legal: list[Action], prices: Prices, work: setplan.Work | None) -> Advice:
    p, r = problem(view, prices, taken=True)
    plan = setplan.best(p, time_limit=1.0, work=work)
    text_plan = plan_text(view, p, plan)
    done = next((a for a in legal if a.kind == "done"), legal[-1])
    if len(legal) == 1:
        return Advice(legal[0], view.describe(legal[0]), "it is your only legal move: "
                      + _nothing_possible(view, p) + ".", text_plan, plan.value)
    if not any(g.action and not _phantom(p, g) for g, _ in plan.groups) and not plan.spends:
        return Advice(done, view.describe(done), "nothing in your hand is worth its cards now: "
                      "keep them for a better set" if p.hand else "your hand is empty",
                      text_plan, plan.value)
    by_sig = {}
    for a in legal:
        sig = signature(view, a)
        if sig is not None:
            by_sig.setdefault(sig, a)
    first = min((g for g, _ in plan.groups if g.action and not _phantom(p, g)),
                key=lambda g: _priority(p, plan, g), default=None)
    if first is not None:
        a = by_sig.get(group_signature(p, first))
        if a is not None:
            why = _why(r, p, plan, first)
            return Advice(a, view.describe(a), why, text_plan, plan.value)
    sp = p.spends[plan.spends[0]] if plan.spends else None
    if sp is not None and sp.key in legal:
        return Advice(sp.key, view.describe(sp.key), f"the plan spends it now: {sp.label}.",  # type: ignore[arg-type]
                      text_plan, plan.value)
    return Advice(done, view.describe(done), "no step of the plan is possible this turn.",
                  text_plan, plan.value)


def _nothing_possible(view: Game, p: Problem) -> str:
    """Why no action is legal this turn."""
    me = view.viewer
    if view.no_action:
        return "the Foe you took this turn forbids an action"
    if not p.hand:
        return "your hand is empty and you have nothing to Spend"
    why = []
    if view.restricted(me, "no_equip"):  # type: ignore[arg-type]
        why.append("a Foe in front of you forbids Equipping")
    if view.restricted(me, "no_pass"):  # type: ignore[arg-type]
        why.append("a Foe in front of you forbids Passing")
    why.append("your cards make no Equip, Pass or Defeat and you have nothing to Spend")
    return "; ".join(why)


def _why(r: Reader, p: Problem, plan: Plan, g: Group) -> str:
    left = p.actions - plan.actions()
    slack = (f"it fills one of your {p.actions} remaining actions"
             if left <= 0 else f"with {left} turn{'s' * (left != 1)} to spare")
    if g.kind == "equip":
        need = r.needs[r.me]
        if need and g.points >= need and r.last_goal:
            return (f"+{g.points} points now: you need {need} more and every other player has "
                    "reached the goal, so the team wins at the end of this round (the victory "
                    "check comes before any Time is lost).")
        if need and plan.equipped >= need:
            return (f"+{g.points} points now; the plan reaches your goal ({need} more points) "
                    f"this round, {slack}; after it your cards can go to the others.")
        return (f"+{g.points} points now ({max(0, need - g.points)} still missing after it); "
                f"the best plan for your hand equips {plan.equipped} points in all, {slack}.")
    if g.kind == "pass":
        return (f"{r.v.pname(g.to)} needs {r.needs[g.to]} more points and your cards are worth "  # type: ignore[index]
                f"more to them than to you ({'your goal is met' if not r.needs[r.me] else slack}).")
    f = p.foes[g.foe]  # type: ignore[index]
    if f.blocks:
        return f"{f.name} forbids you to {' and '.join(sorted(f.blocks))}; the rest of the plan needs it gone."
    return (f"{f.name} costs Time every round it stays; after the plan the round costs "
            f"about {_tokens(plan.loss)} (now {_tokens(max(r.end_w))}).")


def _advise_take(view: Game, legal: list[Action], prices: Prices, explain: bool = True,
                 work: setplan.Work | None = None) -> Advice:
    p, r = problem(view, prices, taken=False, legal=legal)
    options: list[tuple[str, int]] = []
    best_plan = setplan.best(p, time_limit=1.0, work=work) if p.takes else None
    chosen: Action | None = None
    text_plan = None
    value = None
    if best_plan is not None and best_plan.take is not None:
        t = p.takes[best_plan.take]
        chosen = t.key  # type: ignore[assignment]
        value = best_plan.value
        text_plan = plan_text(view, p, best_plan)
        options.append((t.label, best_plan.value))
        # the best other take (one more solve, not one per option): for the reason and --json
        if explain:
            alt = _without(p, _same_take(p, best_plan.take))
            if alt is not None:
                other = setplan.best(alt, time_limit=1.0, work=work)
                if other.take is not None:
                    options.append((alt.takes[other.take].label, other.value))
    then = None
    if best_plan is not None:
        first = _first_step(view, p, best_plan)
        then = "no action" if first is None else first[0].lower() + first[1:]
    leg = next((a for a in legal if a.kind == "leg_it"), None)
    if leg is not None:
        lv = _leg_value(view, p, r, prices, work)
        options.append((view.describe(leg), lv))
        if chosen is None or lv > (value if value is not None else -10**12):
            chosen, value, then = leg, lv, None
            text_plan = "discard your hand and skip this turn; the visible Foe goes on"
    if chosen is None:
        chosen = legal[0]
    options.sort(key=lambda o: -o[1])
    why = _take_reason(view, r, p, chosen, options, best_plan)
    if work is not None and not work.full():
        why = QUICK + why
    return Advice(chosen, view.describe(chosen), why, text_plan, value, options, then)


def _first_step(v: Game, p: Problem, plan: Plan) -> str | None:
    """The text of the action the plan makes first (None: no action this turn)."""
    first = min((g for g, _ in plan.groups if g.action and not _phantom(p, g)),
                key=lambda g: _priority(p, plan, g), default=None)
    if first is not None:
        return group_text(v, p, first)
    if plan.spends:
        return p.spends[plan.spends[0]].label
    return None


def _same_take(p: Problem, i: int) -> set[int]:
    """The take options that bring the same card as option ``i`` (the same Item class or Foe
    class from another stack): scoring them apart would only repeat its score."""
    def sig(t) -> tuple:
        return (t.item, p.foes[t.foe].cid if t.foe is not None else None,
                bool(t.key is not None and t.key.get("sneak")))
    s = sig(p.takes[i])
    return {j for j, t in enumerate(p.takes) if sig(t) == s}


def _without(p: Problem, drop: set[int]) -> Problem | None:
    """The problem with the take options ``drop`` removed (None when none is left); the Foes they
    would bring stay in the list, inert, so Foe indices keep their meaning."""
    keep = [j for j in range(len(p.takes)) if j not in drop]
    if not keep:
        return None
    new = {j: k for k, j in enumerate(keep)}
    foes = []
    for f in p.foes:
        if f.take is None:
            foes.append(f)
        elif f.take in new:
            foes.append(replace(f, take=new[f.take]))
        else:
            foes.append(replace(f, take=0, defeatable=False, weight=0, worth=0,
                                blocks=frozenset()))
    return replace(p, takes=[p.takes[j] for j in keep], foes=foes, _groups=None)


def _leg_value(view: Game, p: Problem, r: Reader, prices: Prices,
               work: setplan.Work | None = None) -> int:
    """Leg it!: the hand is discarded, no card taken, no action this turn; the cheapest visible
    Foe falls to the next player."""
    weights = list(p.weights)
    foe_takes = [t for t in p.takes if t.foe is not None]
    passed_cost = 0
    if foe_takes:
        t = min(foe_takes, key=lambda t: t.cost)
        f = p.foes[t.foe]  # type: ignore[index]
        weights[view.left(r.me)] += f.weight
        passed_cost = t.cost + prices.leg_penalty  # the next player suffers it instead
    foes = [f if f.take is None else replace(f, take=None, weight=0, worth=0, defeatable=False,
                                             blocks=frozenset()) for f in p.foes]
    q = replace(p, hand={}, takes=[], actions=max(0, p.actions - 1), weights=weights, foes=foes,
                _groups=None)
    return setplan.best(q, time_limit=1.0, work=work).value - passed_cost


def _take_reason(view: Game, r: Reader, p: Problem, chosen: Action, options: list[tuple[str, int]],
                 plan: Plan | None) -> str:
    if chosen.kind == "leg_it":
        return ("every card you could take costs more than your hand is worth: leg it and let "
                "the next player take the Foe.")
    alt = next((o for o in options if o[0] != view.describe(chosen)), None)
    gap = ""
    if alt is not None and options:
        diff = (options[0][1] - alt[1]) / 100
        # "0.0 points better than" read as a contradiction (ux22): a tie is said as one
        gap = (f"; \"{alt[0]}\" would cost the game's last Time token" if diff * 100 >= LOSE // 2
               else f"; {diff:.1f} points better than \"{alt[0]}\"" if diff >= 0.05
               else f"; \"{alt[0]}\" is about as good")
    if plan is None:
        return "it is the only card you may take" + gap + "."
    t = p.takes[plan.take] if plan.take is not None else None
    if t is not None and t.foe is not None:
        f = p.foes[t.foe]
        return (f"a visible Foe must be taken; {f.name} is the least harmful for your plan"
                f"{' (your plan defeats it)' if t.foe in plan.defeated else ''}{gap}.")
    gain = _points_text(r, p, plan)
    return f"it fits your best plan ({gain or 'the cards you keep'}){gap}."


DISCARD_SEARCHES = 8  # the discards planned in full at most (the others judged by the bound)


def _advise_discard(view: Game, legal: list[Action], prices: Prices,
                    work: setplan.Work | None = None) -> Advice:
    """The card whose loss costs the next round's plan least. The plan for the whole hand
    gives, for each discard, a plan still possible without the card (the same plan, less one
    of the card's groups if it uses every copy): a lower bound on the value left. The
    discards with the best bounds are then planned in full, best first, while the work budget
    lasts; each keeps the better of its bound and its plan. With a hand of at most
    ``DISCARD_SEARCHES`` kinds and every search finished, this is the exact comparison."""
    r = Reader(view, prices)
    hand = r.hand()

    def without(c: int) -> dict[int, int]:
        return {k: n - (k == c) for k, n in hand.items() if n - (k == c)}

    def planned(h: dict[int, int]) -> Problem:
        p, _ = problem(view, prices, hand=h, actions=5, taken=True)
        return replace(p, keep_cap=99, _groups=None)

    whole = planned(hand)
    full = setplan.best(whole, time_limit=1.0, work=work)
    cls = [r.cls(a.slot) for a in legal]
    value = [_bound(whole, full, without(c)) for c in cls]
    order = sorted(range(len(legal)), key=lambda i: (-value[i], i))[:DISCARD_SEARCHES]
    searched = 0
    for i in order:
        if work is not None and work.limit(1.0) < setplan.MIN_LIMIT:
            break
        value[i] = max(value[i], setplan.best(planned(without(cls[i])), time_limit=1.0,
                                              work=work).value)
        searched += 1
    i = max(range(len(legal)), key=lambda i: (value[i], -i))
    a = legal[i]
    why = "of your cards it is the one the next round's best plan misses least."
    if searched < len(legal) or (work is not None and not work.full()):
        why = (f"of your cards it is the one the next round's plan misses least, as far as a "
               f"quick look can tell: with {sum(hand.values())} cards, {searched} of the "
               f"{len(legal)} discards were planned{'' if work is None or work.full() else ' (some cut short)'}"
               " and the others judged by the plan for your whole hand (the cards it leaves "
               "unused go first).")
    return Advice(a, view.describe(a), why, None, value[i])


def _bound(whole: Problem, plan: Plan, hand: dict[int, int]) -> int:
    """The value of a plan still possible with ``hand`` (the whole hand less one card): the
    whole hand's ``plan`` if it leaves a copy of that card unused, else the plan less the one
    of its groups whose loss costs least."""
    p = replace(whole, hand=hand, _groups=None)
    counts = dict(plan.groups)
    tries = [counts] + [{h: k - (h == g) for h, k in counts.items() if k - (h == g)}
                        for g in counts]
    best = None
    for c in tries:
        if setplan.feasible(p, plan.take, c, plan.spends):
            v = setplan.evaluate(p, plan.take, c, plan.spends)[0]
            best = v if best is None else max(best, v)
    if best is None:
        best = setplan.quick(p).value
    return best


def _advise_give(view: Game, legal: list[Action], prices: Prices) -> Advice:
    r = Reader(view, prices)

    def score(a: Action) -> tuple:
        return (r.pass_worth(r.cls(a.slot), a.to), r.needs[a.to], -a.to)

    a = max(legal, key=score)
    return Advice(a, view.describe(a), f"{view.pname(a.to)} needs {r.needs[a.to]} more points; "
                  "this card helps them most.")


def hinter(view: Game, legal: list[Action], *, seed: int = 0) -> str | None:
    """The ``hint`` command's text for this seat."""
    if not legal or view.viewer is None or view.viewer < 0:
        return None
    return advise(view, legal, seed=seed).render()


__all__ = ["LOSE", "Advice", "Prices", "Reader", "advise", "hinter", "problem"]
