"""Rules fidelity: an independent reading of The Girl and the Robot's rulebook (the shared
``girl-and-robot.txt``) and of the house rules in ``docs/girl-and-robot.md``, run beside the engine
over many seeded games.

This file does not use the game's rule code: it reads the state (zones, card values, who knows
what, characters, who lives, the turn's flags) and the card data, and from them

* generates every legal decision itself, phase by phase, and asserts it equals ``legal()``;
* keeps its own record of the turn -- whose turn comes next (turn order, extra turns, the Robot's
  choice, deaths), what "the next player" received (Ambush, Provoke, the Girl's hex, the Robot's
  ban), whether the player may, must not or may twice draw, the Ability Points pool, the Cancel
  Action window (who is asked next, what resolves, what is cancelled, the Girl's hex) -- and
  asserts the engine's state agrees after every decision.

Quick by default (a few dozen seeded games); ``P2PCARDS_FIDELITY_GAMES=N`` plays N games per
configuration for a long run.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from p2pcards.engine import Action, Decide, Decision, LocalDealer
from p2pcards.games import new_game
from p2pcards.games.girl_and_robot.data import load

DATA = load()
KIND = DATA.card_kind  # card id -> kind key
ON_ALLY_TURN = ("manipulate", "scout", "smoke_bomb")  # "If you have an ally, you may play this
# card during their turn."
NEED_PILE = ("lure", "manipulate", "scout", "smoke_bomb")
FACE_DOWN = ("kings_sword", "pendant")  # "Once played, place this Weapon face down."


def cat(kind: str) -> str:
    return DATA.kinds[kind].category


# ---- reading the table -----------------------------------------------------------------------


class Table:
    """Read-only questions about a full-information state, answered from its public fields."""

    def __init__(self, g: Any) -> None:
        self.g = g
        self.n = g.n_players

    def kind(self, s: int) -> str:
        return KIND[self.g.values[s]]

    def knows(self, p: int, s: int) -> bool:
        return bool(self.g.known[s] >> p & 1)

    def zone(self, z: str) -> list[int]:
        return self.g.zones[z]

    def seat(self, char: str) -> int | None:
        return self.g.chars.index(char) if char in self.g.chars else None

    def alive(self, p: int) -> bool:
        return self.g.alive[p]

    def in_play(self, char: str) -> bool:
        q = self.seat(char)
        return q is not None and self.alive(q)

    def ally(self, p: int) -> int | None:
        """"When playing as a team": the other member of p's team, if alive (and p too)."""
        mine = self.g.team[p]
        for q in range(self.n):
            if q != p and self.g.team[q] == mine and self.alive(q) and self.alive(p):
                return q
        return None

    def others(self, p: int) -> list[int]:
        """The other living players, in turn order from p."""
        d = self.g.direction
        return [q for q in ((p + d * i) % self.n for i in range(1, self.n)) if self.alive(q)]

    def next_after(self, p: int) -> int:
        o = self.others(p)
        return o[0] if o else p

    def face_down(self, w: int) -> bool:
        return str(w) in self.g.hidden

    def cursed(self, p: int) -> bool:
        """"Cursed Sword: [...] Its owner cannot use any ability"."""
        return any(not self.face_down(w) and self.kind(w) == "cursed_sword"
                   for w in self.zone(f"weapons{p}"))

    def all_weapons(self) -> list[int]:
        return [w for q in range(self.n) for w in self.zone(f"weapons{q}")]

    def lowest_per_kind(self, p: int, slots: list[int]) -> list[tuple[int, str]]:
        """One slot (the lowest) for each kind of card p knows among ``slots``: the engine lists
        one canonical card per group of equal cards."""
        best: dict[str, int] = {}
        for s in slots:
            if self.knows(p, s):
                k = self.kind(s)
                best[k] = min(best.get(k, s), s)
        return [(s, k) for k, s in best.items()]


# ---- the independent record of the turn ------------------------------------------------------


def fresh_fx() -> dict[str, Any]:
    return {"ban": False, "hex": False, "provoke": False, "extra": 0}


@dataclass
class Record:
    """What the rulebook says the table should look like, kept from the decisions alone."""

    n: int
    turns: int = 0
    turn: int = -1
    direction: int = 1
    extra: int = 0  # extra turns still owed to the player of this turn
    override: int | None = None  # the Robot's 4: who plays after
    owed: dict[str, Any] = field(default_factory=fresh_fx)  # for "the next player"
    flags: dict[str, Any] = field(default_factory=dict)  # this turn's
    points: int = 0
    boost: dict[int, int] = field(default_factory=dict)  # the Queen's 1: the Shadow's next turn
    stack: list[dict[str, Any]] = field(default_factory=list)  # the Cancel Action window
    expect_asked: int | None = None  # who must be asked next in the window

    # ---- turns ----
    def new_turn(self, t: Table) -> None:
        """A turn started: predict whose it is and what it carries."""
        g = t.g
        if self.turns == 0:
            q = t.seat("girl")  # "The Girl starts"
        else:
            p = self.turn
            if t.alive(p) and self.extra > 0:
                self.extra -= 1
                q = p
            else:
                self.extra = 0
                o = self.override
                q = o if o is not None and t.alive(o) else t.next_after(p)
                self.override = None
        fx = fresh_fx()
        if q != self.turn:  # "the next player" is the next *other* player
            fx, self.owed = self.owed, fresh_fx()
        self.extra += fx["extra"]
        self.turn = q
        self.turns += 1
        self.flags = {"ban": fx["ban"], "hex": fx["hex"], "provoke": fx["provoke"],
                      "no_draw": False, "may_skip": False, "double": False, "borrow": None,
                      "ally_called": False}
        self.points = self.boost.pop(q, 0)
        assert g.turns == self.turns
        assert g.turn == q, f"turn {self.turns}: expected seat {q} to play, not {g.turn}"
        self.check(t)

    def upcoming(self, t: Table, k: int) -> list[int]:
        """Who plays the next ``k`` turns, were this one to end now: own extra turns first, then
        the Robot's choice or the turn order; the extra turns owed to "the next player" go to
        the first other player."""
        out: list[int] = []
        p, extra, override, owed = self.turn, self.extra, self.override, self.owed["extra"]
        for _ in range(k):
            if t.alive(p) and extra > 0:
                extra -= 1
                q = p
            else:
                extra = 0
                q = override if override is not None and t.alive(override) else t.next_after(p)
                override = None
            if q != p:
                extra, owed = extra + owed, 0
            out.append(q)
            p = q
        return out

    def check(self, t: Table) -> None:
        g = t.g
        assert g.upcoming(4) == self.upcoming(t, 4), "the next turns as the bots are told them"
        for k, v in self.flags.items():
            assert g.tf[k] == v, f"turn {self.turns} (seat {self.turn}): {k} is {g.tf[k]}, expected {v}"
        assert g.points == self.points, f"turn {self.turns}: {g.points} points, expected {self.points}"
        assert g.direction == self.direction
        for q in list(self.boost):
            if not t.alive(q):
                del self.boost[q]

    # ---- effects ----
    def action_effect(self, t: Table, p: int, card: str, prm: dict[str, Any]) -> None:
        f = self.flags
        if card == "ambush":  # "You may choose not to draw [...]. The next player plays 1 extra turn."
            f["may_skip"] = True
            self.owed["extra"] += 1
        elif card == "provoke":  # "You may choose not to draw [...]. The next player must play 2 cards"
            f["may_skip"] = True
            self.owed["provoke"] = True
        elif card == "evade":  # "Do not draw any card this turn. You may choose a new turn order"
            f["no_draw"] = True
            self.direction = prm.get("direction", self.direction)
        elif card == "lone_wolf":  # "Use any ability from the Alone side [...] for free."
            self.ability_effect(t, p, prm["ability"], {})

    def ability_effect(self, t: Table, p: int, aid: str, prm: dict[str, Any]) -> None:
        f = self.flags
        if aid == "girl_hex":
            self.owed["hex"] = True
        elif aid == "girl_borrow":
            f["borrow"] = t.seat("robot")
        elif aid == "robot_ban":
            self.owed["ban"] = True
        elif aid == "robot_skip":
            f["no_draw"] = True
        elif aid == "robot_next":
            self.override = prm["target"]
        elif aid == "queen_double":
            f["double"] = True
        elif aid == "queen_boost":
            sh = t.seat("shadow")
            self.boost[sh] = self.boost.get(sh, 0) + 2  # type: ignore[index]

    # ---- the Cancel Action window ----
    def played_action(self, t: Table, p: int, card: str, prm: dict[str, Any]) -> None:
        if p == self.turn and self.flags["hex"]:
            return  # the Girl's 3: "its effects are cancelled" (no window)
        self.stack.append({"card": card, "by": p, "prm": prm, "ask": t.others(p)})
        self.run_stack(t)

    def cancel(self, t: Table, p: int) -> None:
        if p == self.turn and self.flags["hex"]:
            self.run_stack(t)  # a hexed Cancel Action has no effect either
            return
        self.stack.append({"card": "cancel_action", "by": p, "prm": {}, "ask": t.others(p)})
        self.run_stack(t)

    def run_stack(self, t: Table) -> None:
        while self.stack:
            top = self.stack[-1]
            if top["ask"]:
                self.expect_asked = top["ask"].pop(0)
                return
            self.stack.pop()
            if top["card"] == "cancel_action":
                self.stack.pop()  # "Cancel the effect of an Action card that has just been played."
                continue
            self.action_effect(t, top["by"], top["card"], top["prm"])
        self.expect_asked = None


# ---- the independent move generator ----------------------------------------------------------


def ability_usable(t: Table, rec: Record, p: int, aid: str) -> list[dict[str, Any]]:
    """The parameter choices with which ability ``aid`` does something for p now ([] if none)."""
    g, f = t.g, rec.flags
    draw, discard = t.zone("draw"), t.zone("discard")
    if aid in ("girl_bottom2", "queen_top2"):  # "Reveal the bottom/top 2 cards of the Draw Pile"
        return [{}] if draw else []
    if aid == "girl_hex":
        return [{}]
    if aid == "girl_borrow":  # "You may play cards from the Robot's hand this turn."
        return [{}] if t.in_play("robot") and f["borrow"] is None and p == rec.turn else []
    if aid == "girl_pendant":  # "If the Pendant card is in the discard pile, take it."
        return [{}] if any(t.kind(s) == "pendant" for s in discard) else []
    if aid == "robot_ban":
        return [{}]
    if aid == "robot_skip":  # "Do not draw any card this turn."
        return [] if f["no_draw"] else [{}]
    if aid == "robot_draw":  # "Draw 1 card": no draw at all after a ban or "Do not draw"
        return [] if f["ban"] or f["no_draw"] else [{}]
    if aid == "robot_next":  # "Choose the player who plays after you."
        return [{"target": q} for q in t.others(p)]
    if aid == "queen_double":  # "If the Girl and the Robot are in play, you may draw 2 cards"
        ok = t.in_play("girl") and t.in_play("robot")
        return [{}] if ok and not f["double"] and not f["ban"] and not f["no_draw"] else []
    if aid == "queen_take":  # "If the top card of the discard pile is an Action card, take it."
        return [{}] if discard and cat(t.kind(discard[-1])) == "action" else []
    if aid == "queen_boost":  # "(this can only be used once)"
        return [{}] if not g.boost_used and t.in_play("shadow") else []
    if aid == "queen_move":  # "Look for a face-up Demon in the Draw Pile"
        return [{}] if any(s in g.faceup and t.kind(s) == "demon" for s in draw) else []
    if aid == "shadow_destroy_all":  # "Destroy all Weapons in play."
        return [{}] if t.all_weapons() else []
    if aid == "shadow_revive":  # "Revive the Evil Queen."
        return [{}] if t.seat("queen") is not None and not t.in_play("queen") else []
    if aid == "shadow_give":  # "Choose a player. They must give 1 card [...] to the Evil Queen."
        queen = t.seat("queen")
        return [{"target": q} for q in [p] + t.others(p) if q != queen and t.zone(f"hand{q}")]
    if aid == "shadow_destroy_one":  # "Destroy 1 face-up Weapon in play."
        return [{"weapon": w} for w in t.all_weapons() if not t.face_down(w)]
    raise AssertionError(aid)


def side(t: Table, p: int) -> str:
    """"If you play with an ally, flip your Character card to its Team side"."""
    return "team" if t.ally(p) is not None else "alone"


def abilities(t: Table, p: int, char: str, side_: str) -> list[Any]:
    return [a for a in DATA.characters[char].abilities if a.side == side_]


def action_variants(t: Table, rec: Record, p: int, kind: str) -> list[dict[str, Any]]:
    others = t.others(p)
    if kind in ("blind", "steal", "magic_mirror"):  # "Choose a player" with a hand to use
        return [{"target": q} for q in others if t.zone(f"hand{q}")]
    if kind in ("spy", "trade"):
        return [{"target": q} for q in others]
    if kind == "evade":
        d = rec.direction
        return [{"direction": d}] if t.n == 2 else [{"direction": d}, {"direction": -d}]
    if kind == "weapon_tax":  # "If another player has more Weapons than you on the table, take one"
        mine = len(t.zone(f"weapons{p}"))
        return [{"target": q, "weapon": w} for q in others if len(t.zone(f"weapons{q}")) > mine
                for w in t.zone(f"weapons{q}") if t.kind(w) != "dagger"]  # "cannot be taken"
    if kind == "lone_wolf":
        if t.cursed(p):
            return []
        char = t.g.chars[p]
        return [{"ability": a.id} for a in abilities(t, p, char, "alone")
                if ability_usable(t, rec, p, a.id) == [{}]]
    if kind in NEED_PILE:
        return [{}] if t.zone("draw") else []
    if kind == "cancel_action":
        return []
    return [{}]


def card_moves(t: Table, rec: Record, p: int, s: int, kind: str, phase: str) -> list[Action]:
    c = cat(kind)
    if c == "action":
        if kind == "cancel_action" or (phase == "ally" and kind not in ON_ALLY_TURN):
            return []
        return [Action("play", slot=s, card=kind, **v) for v in action_variants(t, rec, p, kind)]
    if phase == "ally" or c == "demon":
        return []
    if c == "points":
        return [Action("play", slot=s, card=kind)]
    if kind in FACE_DOWN:
        return [Action("hide", slot=s)]
    if kind == "cursed_sword":  # "You may place this Weapon on any character in play."
        targets = [q for q in range(t.n) if t.alive(q)]
    elif kind == "dagger":  # "You may place this Weapon on an ally's character instead of your own."
        a = t.ally(p)
        targets = [p] + ([a] if a is not None else [])
    else:
        targets = [p]
    return [Action("play", slot=s, card=kind, target=q) for q in targets]


def shows(t: Table, p: int, to: int) -> list[Action]:
    """"They can talk and show their cards to each other during the game.\""""
    slots = [s for s in t.zone(f"hand{p}") if t.knows(p, s) and not t.knows(to, s)]
    return [Action("show", slots=[s]) for s in slots] + (
        [Action("show", slots=slots)] if len(slots) > 1 else [])


def placeable(t: Table, p: int) -> list[int]:
    """A set-aside Demon: "Place the Demon face up anywhere in the Draw Pile during any other turn"."""
    return [s for s in t.zone(f"aside{p}") if t.g.aside_turn.get(str(s)) != t.g.turns]


def moves(t: Table, rec: Record, p: int) -> list[Action]:
    g = t.g
    ph, task = g.phase, g.task
    if ph == "direction":  # "chooses the turn order (clockwise or counter-clockwise)"
        return [Action("direction", d=1), Action("direction", d=-1)]
    if ph == "turn":
        out: list[Action] = []
        zones = [t.zone(f"hand{p}")]
        b = rec.flags["borrow"]
        if b is not None and t.alive(b):
            zones.append(t.zone(f"hand{b}"))
        for z in zones:
            for s, k in t.lowest_per_kind(p, z):
                out += card_moves(t, rec, p, s, k, ph)
        out += [Action("flip", slot=s) for s in t.zone(f"hand{p}") if not t.knows(p, s)]
        a = t.ally(p)
        if a is not None:
            out += shows(t, p, a)
            if not rec.flags["ally_called"]:
                out.append(Action("ally"))
        if not t.cursed(p):
            for ab in abilities(t, p, g.chars[p], side(t, p)):
                if ab.cost <= rec.points:
                    out += [Action("ability", id=ab.id, **v) for v in ability_usable(t, rec, p, ab.id)]
        d = placeable(t, p)
        if d:
            out.append(Action("unleash", slot=d[0]))
        f = rec.flags
        if f["ban"] or f["no_draw"]:
            draws = [0]
        else:
            draws = ([0] if f["may_skip"] else []) + [1] + ([2] if f["double"] else [])
        return out + [Action("end", draw=n) for n in draws]
    if ph == "ally":
        out = [Action("pass")]
        for s, k in t.lowest_per_kind(p, t.zone(f"hand{p}")):
            out += card_moves(t, rec, p, s, k, ph)
        return out + shows(t, p, rec.turn)
    if ph == "respond":
        return [Action("pass")] + [Action("cancel", slot=s) for s, k in
                                   t.lowest_per_kind(p, t.zone(f"hand{p}")) if k == "cancel_action"]
    if ph == "flipped":
        s = task["slot"]
        return card_moves(t, rec, p, s, t.kind(s), ph) or [Action("waste", slot=s)]
    if ph == "drawn":  # "If you draw a Demon card, reveal it to everyone!"
        return [Action("demon") if t.kind(task["slot"]) == "demon" else Action("safe")]
    if ph == "defend":  # "use one of your Weapons" (Euro: "An ally can use the Weapons of their ally")
        ws = list(t.zone(f"weapons{p}"))
        a = t.ally(p)
        if g.config.get("euro") and a is not None:
            ws += t.zone(f"weapons{a}")
        return [Action("defend", weapon=w) for w in ws]
    if ph == "position":  # "Place the Demon card back face up anywhere in the Draw Pile"
        return [Action("position", index=i) for i in range(len(t.zone("draw")) + 1)]
    if ph == "order":  # "put them back [...] face up in an order of your choice"
        x, y = task["slots"]
        return [Action("order", slots=[x, y]), Action("order", slots=[y, x])]
    if ph == "choose":
        hand = t.zone(f"hand{p}")
        return ([Action("choose", slot=s) for s, _ in t.lowest_per_kind(p, hand)]
                + [Action("choose", slot=s) for s in hand if not t.knows(p, s)])
    if ph == "bury":  # "their cards are placed into the Discard Pile in any order"
        return [Action("bury", slot=s) for s, _ in t.lowest_per_kind(p, t.zone("grave"))]
    if ph == "copy":  # "Copy the effect of one of their Action cards as if you played it."
        out = [Action("nocopy")]
        for s, k in t.lowest_per_kind(p, t.zone(f"hand{task['target']}")):
            if cat(k) == "action" and k not in ("cancel_action", "magic_mirror"):
                out += [Action("copy", slot=s, card=k, **v) for v in action_variants(t, rec, p, k)]
        return out
    if ph == "lure":  # "Search the Draw Pile for a Demon"
        draw = t.zone("draw")
        down = sorted(s for s in draw if s not in g.faceup and t.knows(p, s) and t.kind(s) == "demon")
        up = sorted(s for s in draw if s in g.faceup and t.kind(s) == "demon")
        return [Action("lure", slot=s) for s in down[:1] + up[:1]] or [Action("nodemon")]
    if ph == "pick":  # the Queen's 3: "Look for a face-up Demon in the Draw Pile"
        return [Action("pick", slot=s) for s in t.zone("draw")
                if s in g.faceup and t.kind(s) == "demon"]
    if ph == "pendant":  # "if the Robot is in play, you may use one of its abilities for free"
        out = [Action("pass")]
        r = t.seat("robot")
        if r is not None and t.alive(r) and not t.cursed(p):
            for ab in abilities(t, p, "robot", side(t, r)):
                out += [Action("pendant", id=ab.id, **v) for v in ability_usable(t, rec, p, ab.id)]
        return out
    if ph == "aside":
        d = placeable(t, p)
        return [Action("pass")] + ([Action("unleash", slot=d[0])] if d else [])
    raise AssertionError(f"unknown phase {ph}")


# ---- running the two side by side ------------------------------------------------------------


def params(a: Action) -> dict[str, Any]:
    return {k: v for k, v in a.args if k in ("target", "weapon", "ability", "direction")}


def choose(rng: random.Random, g: Any, legal: list[Action]) -> Action:
    """A random legal decision, leaning towards playing cards so that more rules are exercised."""
    if g.phase == "turn":
        busy = [a for a in legal if a.kind != "end"]
        if busy and rng.random() < 0.8:
            return rng.choice(busy)
    return rng.choice(legal)


def run_game(players: int, options: dict[str, Any], seed: int) -> Counter:
    g = new_game("girl-and-robot", players, options)
    t = Table(g)
    dealer = LocalDealer(seed)
    rng = random.Random(seed * 7919 + players)
    rec = Record(players)
    seen: Counter = Counter()
    for _ in range(200_000):
        req = g.pending()
        if req is None:
            break
        if not isinstance(req, Decide):
            g.apply(dealer.fulfil(g, req))
            continue
        if g.turns != rec.turns:
            assert g.turns == rec.turns + 1
            rec.new_turn(t)
        elif rec.turns:
            rec.check(t)
        p = req.player
        if g.phase == "respond":
            assert p == rec.expect_asked, f"seat {p} asked to answer; expected {rec.expect_asked}"
        mine, theirs = Counter(moves(t, rec, p)), Counter(g.legal(p))
        assert mine == theirs, (f"seed {seed}, turn {g.turns}, phase {g.phase}, seat {p}:\n"
                                f"  only the rulebook: {sorted(map(repr, mine - theirs))}\n"
                                f"  only the engine:   {sorted(map(repr, theirs - mine))}")
        a = choose(rng, g, list(theirs))
        seen[(g.phase, a.kind)] += 1
        phase, before_points = g.phase, rec.points
        g.apply(Decision(p, a))
        follow(t, rec, p, a, phase, before_points)
    else:
        raise AssertionError(f"seed {seed}: no end")
    assert g.outcome() is not None
    return seen


def follow(t: Table, rec: Record, p: int, a: Action, phase: str, before_points: int) -> None:
    """Update the record for decision ``a``, taken in ``phase`` (the rulebook's consequences)."""
    k = a.kind
    if k == "direction":
        rec.direction = a.d
    elif k == "play":
        c = cat(a.card)
        if c == "points":  # "play any combination of Ability Points cards"
            rec.points = before_points + DATA.kinds[a.card].value
        elif c == "action":
            rec.played_action(t, p, a.card, params(a))
    elif k == "ability":
        rec.points = before_points - DATA.ability(a.id).cost
        rec.ability_effect(t, p, a.id, params(a))
    elif k == "pendant":  # "you may use one of its abilities for free"
        rec.ability_effect(t, p, a.id, params(a))
    elif k == "copy":  # "Copy the effect of one of their Action cards as if you played it."
        rec.action_effect(t, p, a.card, params(a))
    elif k == "cancel":
        rec.cancel(t, p)
    elif k == "pass" and phase == "respond":
        rec.run_stack(t)
    elif k == "ally":
        rec.flags["ally_called"] = True


GAMES = int(os.environ.get("P2PCARDS_FIDELITY_GAMES", "12"))
CONFIGS = [(2, {}), (3, {}), (4, {}), (3, {"euro": True}), (4, {"euro": True, "act2": True}),
           (2, {"act2": True})]


@pytest.mark.parametrize(("players", "options"), CONFIGS,
                         ids=[f"{n}p-{'-'.join(o) or 'plain'}" for n, o in CONFIGS])
def test_the_engine_plays_the_rulebook(players: int, options: dict[str, Any]) -> None:
    """Legal decisions equal, and the table as the rulebook predicts it, in every seeded game."""
    seen: Counter = Counter()
    for seed in range(GAMES):
        seen += run_game(players, options, seed)
    # the games exercised the rules they check
    assert seen[("turn", "play")] and seen[("turn", "end")] and seen[("respond", "pass")]
