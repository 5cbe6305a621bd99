"""The Girl and the Robot, words for people: the outcome, the status lines, the rules text of
``p2pcards rules``, and the description of every action.
"""

from __future__ import annotations

from typing import Any

from ...engine import Action, join_names, plural
from .common import (
    TEAM_NAMES,
    Common,
    _cap,
    _params,
)
from .data import default


class Text(Common):
    """The game's words for the screen and the log."""

    def _target_text(self, params: dict[str, Any]) -> str:
        out = ""
        if "target" in params:
            out += f" → {self.pname(params['target'])}"
        if "weapon" in params:
            out += f" (taking {self._weapon_text(params['weapon'])})"
        if "ability" in params:
            out += f": {self._ability_text(params['ability'])}"
        if "direction" in params and self.n_players > 2:
            out += f" ({'clockwise' if params['direction'] == 1 else 'counter-clockwise'})"
        return out

    def _ability_text(self, aid: str) -> str:
        ab = self._data.ability(aid)
        return f"[{ab.cost}] {ab.text.rstrip('.')}"

    @staticmethod
    def _depth_text(depth: int) -> str:
        if depth == 0:
            return "on top"
        return f"under {depth} card{'s' if depth > 1 else ''}"

    def _weapon_text(self, w: int) -> str:
        return self.slot_name(w) if self.face_up_weapon(w) and self.values[w] is not None \
            else "a face-down weapon"

    def outcome(self) -> dict[str, Any] | None:
        if self.winner is None:
            return None
        winners = [p for p in range(self.n_players) if self.team[p] == self.winner]
        return {"team": ("girl", "queen")[self.winner], "winners": winners,
                "result": f"{_cap(TEAM_NAMES[self.winner])} wins",
                "alive": list(self.alive), "turns": self.turns}

    def result_text(self) -> str:
        o = self.outcome()
        if o is None:
            return ""
        who = join_names(self.pname(p) for p in o["winners"])
        return f"{o['result']} ({who}) after {o['turns']} turns"

    def arrangement_prompt(self, by: int, slots: tuple[int, ...]) -> str | None:
        if slots and all(self.zone_of[s] == "draw" for s in slots):
            draw = self.zones["draw"]
            # a face-up card among the top three stays where it lies: "the last position is
            # the top card, drawn first" was untrue then (ux21: Magic Mirror lay face up on top)
            depth = {s: len(draw) - 1 - i for i, s in enumerate(draw)}  # 0: the top card
            deepest = max(depth[t] for t in slots)
            stay = [(depth[s], s) for s in draw if s not in slots and depth[s] < deepest]
            if not stay:
                return ("Manipulate: put these cards back on the draw pile in the order you "
                        "choose. Position 1 goes deepest; the last position is the top card, "
                        "drawn first.")
            kept = "; ".join(f"{self.slot_name(s)} ({self._depth_text(d)})"
                             for d, s in sorted(stay))
            return ("Manipulate: put these cards back on the draw pile in the order you choose. "
                    "Position 1 goes deepest, the last position highest; a face-up card stays "
                    f"where it lies: {kept}.")
        return None

    # The rulebook's limit holds "during the game": once it is won, everyone talks to everyone
    # (the chat panel said "only allies talk, and you have no living ally" under the result,
    # to the dead and the winners alike; ux22). Every program reads the same rule at a step.
    def chat_audience(self, seat: int) -> list[int]:
        if self.winner is not None:
            return [p for p in range(self.n_players) if p != seat]
        a = self.living_ally(seat)
        return [] if a is None else [a]

    def chat_refusal(self, seat: int) -> str | None:
        if self.winner is None and self.living_ally(seat) is None:
            return "only allies talk, and you have no living ally"
        return None

    def status(self, seat: int | None = None) -> list[str]:
        draw = self.zones["draw"]
        head = f"Turn {self.turns} · {self.pname(self.turn)} to play" if self.turns else "Setting up"
        lines = [f"{head} · order {'clockwise' if self.direction == 1 else 'counter-clockwise'}"
                 f"{' · Euro variant' if self.config.get('euro') else ''}"]
        known = []
        for depth, s in enumerate(reversed(draw)):
            if self.values[s] is not None and (s in self.faceup or seat is not None):
                up = "face up" if s in self.faceup else "you know"
                known.append(f"{self._depth_text(depth)}: {self.slot_name(s)} ({up})")
        lines.append(f"Draw Pile: {plural(len(draw), 'card')}" + (" · " + "; ".join(known) if known else ""))
        disc = self.zones["discard"]
        lines.append(f"Discard pile: {plural(len(disc), 'card')}"
                     + (f", top {self.slot_name(disc[-1])}" if disc else ""))
        if self.points or self.zones["pool"]:
            lines.append(f"Ability Points this turn: {self.points}")
        for p in range(self.n_players):
            ws = ", ".join(self._weapon_label(w, seat) for w in self.weapons(p)) or "no weapon"
            marks = [m for m, on in (("dead", not self.alive[p]), ("face up (Spy)", self.spied[p]),
                                     ("blind", self.blind[p]), ("cursed", self.cursed(p)),
                                     (f"{plural(len(self.zones[f'aside{p}']), 'Demon')} set aside",
                                      self.zones[f"aside{p}"])) if on]
            you = " (you)" if p == seat else ""
            turn = " ←" if self.req and self.req.get("player") == p else ""
            # the character card's side, as the rulebook names it: "[team]" alone read as a
            # team's name to a newcomer, and a dead seat's "[-]" as nothing (ux22)
            side = f" [{self.side(p).capitalize()} side]" if self.alive[p] else ""
            lines.append(f"  {self.pname(p)}{you}: {self.char_name(p)}{side} · {ws} · "
                         f"{plural(len(self.hand(p)), 'card')}{self._known_in(p, seat)}"
                         f"{' · ' + ', '.join(marks) if marks else ''}{turn}")
        if seat is not None and seat >= 0:
            lines.append("Your hand: " + (", ".join(
                self.slot_name(s) if self.values[s] is not None else "(face down)"
                for s in self.hand(seat)) or "(empty)"))
            a = self.ally(seat)
            if a is not None and self.tf.get("borrow") == a and self.turn == seat:
                lines.append("Robot's hand: " + ", ".join(self.slot_name(s) for s in self.hand(a)))
        return lines

    def _known_in(self, p: int, seat: int | None) -> str:
        """The cards of another player's hand this seat has seen (shown by its ally, a Spy):
        "carol shows 3 cards to bob." named no card, even on bob's screen (ux21)."""
        if seat is None or seat < 0 or p == seat:
            return ""
        seen = [self.slot_name(s) for s in self.hand(p) if self.values[s] is not None]
        return f" (you know: {', '.join(seen)})" if seen else ""

    def _weapon_label(self, w: int, seat: int | None) -> str:
        if not self.face_up_weapon(w):
            mine = self.values[w] is not None and seat is not None
            return f"face-down weapon{' (' + self.slot_name(w) + ')' if mine else ''}"
        used = " (used once)" if w in self.king_used else ""
        return self.slot_name(w) + used

    @classmethod
    def rules_text(cls) -> str:
        d = default()
        out = ["The Girl and the Robot — card data (p2pcards/games/girl_and_robot/cards.json)", "",
               "Teams: 2 players the Girl vs the Evil Queen; 3 players the Girl and the Robot vs "
               "the Evil Queen; 4 players the Girl and the Robot vs the Evil Queen and the Shadow Robot.",
               f"Hand size: {d.hand_size}. Options: --euro (allies share one life and each "
               "other's weapons), --act2 (Act II in the deck, for a longer game).", "",
               "Deck ([house value]: not printed in the rulebook, chosen by p2pcards):"]
        for cat, title, totals in (("action", "Action cards", ("action",)),
                                   ("points", "Ability Points cards", ("points",)),
                                   ("demon", "Demons", ("demon",)),
                                   ("weapon", "Weapons", ("basic_weapon", "effect_weapon"))):
            ks = [k for k in d.kinds.values() if k.category == cat]
            house = "   [house total]" if any(t in d.house_totals for t in totals) else ""
            out.append(f"  {title} ({sum(k.copies for k in ks)}){house}:")
            for k in ks:
                house = "   [house value]" if k.house else ""
                out.append(f"    {k.copies} × {k.name}{house} — {k.text}")
        out += ["", "Characters (the number is the ability's cost in Ability Points):"]
        for c in d.characters.values():
            out.append(f"  {c.name}")
            for side in ("alone", "team"):
                out.append(f"    {side.capitalize()}: " + " | ".join(
                    f"{a.cost}: {a.text}" for a in c.side(side)))
        out += ["", "House rules (where the rulebook is silent):"]
        out += [f"  • {text}" for _, text in d.house_rules]
        return "\n".join(out)

    def describe(self, a: Action) -> str:
        k = a.kind
        if k == "play":
            name = self.kind_name(a.card)
            where = ""
            if self.category(a.card) == "weapon":
                where = " next to your character" if a.target == self.turn else \
                    f" on {self.pname(a.target)}'s character"
                return f"place {name}{where}"
            src = ""
            if self.zone_of[a.slot].startswith("hand") and self.zone_of[a.slot] != f"hand{self.req_player()}":
                src = " (from the Robot's hand)"
            return f"play {name}{src}{self._target_text(_params(a))}"
        if k == "hide":
            return f"place {self.slot_name(a.slot)} face down as a weapon"
        if k == "flip":
            return f"turn over a face-down card of your hand (#{self.hand(self.req_player()).index(a.slot) + 1}) and play it"
        if k == "waste":
            return f"discard {self.slot_name(a.slot)} (it cannot be played)"
        if k == "ability":
            return f"ability: {self._ability_text(a.id)}{self._target_text({x: y for x, y in _params(a).items()})}"
        if k == "pendant":
            return f"Pendant, free Robot ability: {self._ability_text(a.id)}{self._target_text(_params(a))}"
        if k == "show":
            return f"show your ally: {join_names(self.slot_name(s) for s in a.slots)}"
        if k == "ally":
            return "call on your ally (Manipulate, Scout, Smoke Bomb)"
        if k == "unleash":
            return "place a set-aside Demon in the Draw Pile"
        if k == "end":
            return {0: "end your turn without drawing", 1: "end your turn: draw 1 card",
                    2: "end your turn: draw 2 cards"}[a.draw]
        if k == "pass":
            return {"respond": "let it resolve", "ally": "do nothing", "aside": "keep the set-aside Demons for later",
                    "pendant": "no ability"}.get(self.phase, "pass")
        if k == "cancel":
            top = self.stack[-1]["card"] if self.stack else None
            return f"play Cancel Action{' against ' + self.kind_name(top) if top else ''}"
        if k == "direction":
            return "clockwise" if a.d == 1 else "counter-clockwise"
        if k == "safe":
            return "keep the card (it is not a Demon)"
        if k == "demon":
            return "reveal the Demon"
        if k == "defend":
            return f"defeat the Demon with {self._weapon_label(a.weapon, self.req_player())}" + (
                "" if a.weapon in self.weapons(self.req_player()) else " (your ally's)")
        if k == "position":
            return f"place it {self._depth_text(len(self.zones['draw']) - a.index)}" + (
                " (at the bottom)" if a.index == 0 and self.zones["draw"] else "")
        if k == "order":
            return "on top: " + ", then ".join(self.slot_name(s) for s in a.slots)
        if k == "choose":
            v = self.values[a.slot]
            return self.card_name(v) if v is not None else \
                f"face-down card #{self.hand(self.req_player()).index(a.slot) + 1}"
        if k == "bury":
            return f"discard {self.slot_name(a.slot)} next"
        if k == "copy":
            return f"copy {self.kind_name(a.card)}{self._target_text(_params(a))}"
        if k == "nocopy":
            return "copy nothing"
        if k == "lure":
            return f"take the {'face-up ' if a.slot in self.faceup else ''}Demon " \
                   f"{self._depth_text(len(self.zones['draw']) - 1 - self.zones['draw'].index(a.slot))}"
        if k == "nodemon":
            return "there is no Demon to take"
        if k == "pick":
            return f"move the face-up Demon " \
                   f"{self._depth_text(len(self.zones['draw']) - 1 - self.zones['draw'].index(a.slot))}"
        return super().describe(a)

    def req_player(self) -> int:
        r = self.req
        return r["player"] if r and r.get("type") == "decide" else self.turn
