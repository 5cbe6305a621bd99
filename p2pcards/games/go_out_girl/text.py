"""Go Out Girl, words for people: the status lines, the rules text of ``p2pcards rules``, the
result and the description of every action (a part of ``Game``, game.py)."""

from __future__ import annotations

from typing import Any

from ...engine import Action, plural
from .data import default


class Text:
    """The game's words for the screen and the log; ``Game`` (game.py) holds the state they read."""

    _data: Any
    values: Any
    top: Any

    def status(self, seat: int | None = None) -> list[str]:
        chars = self._data.characters
        need = self.wins_needed()
        lines = [f"Battle {self.battle} · battles won: {self._won()} (a match takes {need})"]
        top = self.top
        if top is None:
            lines.append("Centre field: empty")
        else:
            cards = " ".join(self.card_name(self.values[s]) for s in top["slots"])
            as_ = f" as {top['number']}" if any(
                self.number(self.values[s]) != top["number"] for s in top["slots"]) else ""
            pair = " (as a pair)" if top["count"] != len(top["slots"]) else ""
            lines.append(f"Centre field: {cards}{as_}{pair} by {self.pname(top['owner'])}, "
                         f"{'●' * top['damage']} ({top['damage']} damage)")
        for p in range(self.n_players):
            ch = self.own_character(p)
            if self.revealed[p] is not None:
                who = f"{chars[ch].name} (life {chars[ch].life})"  # type: ignore[index]
            elif ch is not None:
                who = f"{chars[ch].name} (life {chars[ch].life}, face down)"
            else:
                who = "face-down character" if self.zones[f"char{p}"] else "choosing"
            state = "" if self.alive[p] else " · eliminated"
            mark = " ←" if self.req and self.req.get("player") == p else ""
            you = " (you)" if p == seat else ""
            lines.append(f"  {self.pname(p)}{you}: {who} · damage {self.damage[p]} · "
                         f"{plural(len(self.hand(p)), 'card')}{state}{mark}")
        if seat is not None:
            hand = sorted((self.values[s] for s in self.hand(seat) if self.values[s] is not None),
                          key=lambda c: (self.number(c) or 99, c))
            lines.append("Your hand: " + (" ".join(self.card_name(c) for c in hand) or "(empty)"))
        return lines

    @classmethod
    def rules_text(cls) -> str:
        d = default()
        out = ["Go Out Girl — card data (p2pcards/games/go_out_girl/cards.json)", "",
               f"Battle cards: numbers 1–13 × {d.copies} and Guard × {d.guards} ({d.n_battle_cards} cards)",
               "Hand sizes: " + ", ".join(f"{n} players {k}" for n, k in d.hand_sizes.items()),
               "Battle wins for the match: " + ", ".join(f"{n} players {k}" for n, k in d.wins_needed.items()),
               "", "Damage icons (● per card):"]
        for n in range(1, 15):
            label = "14 (Toyoko's 1)" if n == 14 else str(n)
            house = "   [house value]" if n in d.house_numbers else ""
            out.append(f"  {label:>16}: {'●' * d.damage[n]}{house}")
        out += ["", "Characters:"]
        for c in d.characters:
            out.append(f"  {c.name} — life {c.life}, difficulty {'★' * c.difficulty}{'☆' * (3 - c.difficulty)}"
                       f" — {c.ability}: {c.text}")
        out += ["", "House rules (where the rulebook is silent):"]
        out += [f"  • {text}" for _, text in d.house_rules]
        return "\n".join(out)

    def result_text(self) -> str:
        if self.winner is None:
            return ""
        return (f"{self.pname(self.winner)} wins the match after {plural(self.battle, 'battle')} "
                f"(battles won: {self._won()})")

    def _won(self) -> str:
        """Each seat's battles won: "wins: Player 0, Bot 1 0" read as "Player 0" and a lone
        "1 0" (ux22); "0 by Player, 0 by Bot 1" cannot."""
        return ", ".join(f"{self.wins[p]} by {self.pname(p)}" for p in range(self.n_players))

    def describe(self, a: Action) -> str:
        k = a.kind
        if k == "play":
            cards = " ".join(self.card_name(self.values[s]) for s in a.slots)
            extra = ""
            if a.count != len(a.slots):
                extra = " as a pair"
            if any(self.values[s] is not None and self.number(self.values[s]) != a.number
                   for s in a.slots):
                extra += f" as {a.number}"
            return f"play {cards}{extra}"
        if k == "character":
            v = self.values[a.slot]
            if v is None:
                return "choose a character"
            c = self._data.characters[self.character_of_card(v)[1]]
            return f"choose {c.name} (life {c.life}) — {c.ability}: {c.text}"
        if k in ("guard",):
            return "play Guard (pass without damage)"
        if k == "pass":
            d = self.top["damage"] if self.top else 0
            return f"pass (take {d} damage)"
        if k == "withdraw":
            return "withdraw (the damage would reach your life)"
        if k == "barrier":
            return "reveal Kira: Akane Barrier (pass without damage, discard instead)"
        if k == "reveal":
            return "reveal your character"
        if k == "reset":
            cards = " ".join(self.card_name(self.values[s]) for s in a.slots)
            return f"Reset with {cards} (clear the field, then lead)"
        if k in ("damage", "discard", "give"):
            verb = {"damage": "lay face down as damage", "discard": "discard",
                    "give": "give to the tableau's player"}[k]
            return f"{verb}: {self.card_name(self.values[a.slot])}"
        if k == "keep":
            return "keep your cards (do not use Let's Talk)"
        return super().describe(a)
