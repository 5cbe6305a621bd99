"""Out Of This World: words for the players -- card names, the status, action descriptions and
``p2pcards rules out-of-this-world``."""

from __future__ import annotations

from typing import Any

from ...engine import Action, join_names, plural
from .base import TableBase
from .data import WILD, CardData, CardDef


class Text(TableBase):
    def card_name(self, card: int | None) -> str:
        if card is None:
            return "?"
        c = self._cards[card]
        if c.is_item:
            return f"{c.name} ({self._data.type_name(c.type)} {c.value})"
        kind = "Difficult Foe" if c.difficult else "Foe"
        return f"{c.name} ({kind}: {vuln_text(c)})"

    def short(self, slot: int) -> str:
        c = self.card(slot)
        if c is None:
            return "?"
        if c.is_item:
            return f"{c.name} {self._data.type_name(c.type)[0]}{c.value}"
        return c.name

    def status(self, seat: int | None = None) -> list[str]:
        n = self.n_players
        phase = {"setup": "setting up", "characters": "choosing characters", "deal": "the deal",
                 "gear": "Gear Up!", "go": "Go For It!", "care": "Taking Care of Things",
                 "over": "over"}.get(self.phase, self.phase)
        tokens = "●" * self.time + "○" * max(0, self.time_max - self.time)
        lines = [f"Out Of This World — {self._adv.name} ({self._diff.name}) · round {self.round} · "
                 f"{phase} · Time {tokens} ({self.time})",
                 f"Goal: {self._win_text()}.",
                 f"Vocal Player: {self.pname(self.vocal)}"
                 + (f" · turn: {self.pname(self.turn)}" if self.phase == "go" else "")]
        if self.phase in ("gear", "go"):
            parts = []
            for i in range(self.n_stacks):
                z = self.stack(i)
                if not z:
                    parts.append(f"[{i + 1}] empty")
                    continue
                # "[3] Spray paints (Hardware 4) +1" left a newcomer guessing (ux22)
                parts.append(f"[{i + 1}] {self.card_name(self.values[z[-1]])}"
                             + (f", {len(z) - 1} under" if len(z) > 1 else ""))
            lines.append("Stacks: " + " | ".join(parts))
        lines.append(f"Deck {len(self.zones['deck'])} · discard {len(self.zones['discard'])} · "
                     f"removed {len(self.zones['removed'])}")
        need = self.points_needed()
        for p in range(n):
            ch = self.character(p)
            who = f"{self.char_name(p)} ({ch.ability})" if ch else "no character yet"
            eq = ", ".join(self.short(s) + (" (spent)" if s in self.spent else "")
                           for s in sorted(self.equipped(p))) or "nothing"
            fo = ", ".join(self.short(s) for s in sorted(self.foes(p))) or "none"
            mark = " ←" if self.req and self.req.get("player") == p else ""
            you = " (you)" if p == seat else ""
            lines.append(f"  {self.pname(p)}{you}: {who} · {self.points(p)}/{need} pts: {eq} · "
                         f"foes: {fo} · hand {len(self.hand(p))}{mark}")
        if seat is not None and 0 <= seat < n:
            hand = sorted((self.values[s] for s in self.hand(seat) if self.values[s] is not None),
                          key=lambda c: (self._cards[c].type or "", self._cards[c].value, c))
            lines.append("Your hand: " + (", ".join(self.card_name(c) for c in hand) or "(empty)"))
        if self.result is not None:
            lines.append(f"The team {'won' if self.result == 'won' else 'lost'}: {self.reason}.")
        return lines

    def describe(self, a: Action) -> str:
        k = a.kind

        def cards(slots: Any) -> str:
            return join_names(self.card_name(self.values[s]) for s in slots)

        if k == "character":
            ch = self._chars.get(a.key)
            if ch is None or not 0 <= a.side < len(ch.sides):
                return f"play a character that is not in this game ({a.key!r}, side {a.side!r})"
            return f"play {ch.sides[a.side]} — {ch.ability}: {ch.text}"
        if k == "starter":
            n = len(self.zones["starting"])
            return (f"{self.pname(a.seat)} starts with the adventure's "
                    f"{'Item' if n == 1 else 'Items'} equipped")
        if k == "foes":
            if not a.slots:
                return "no Foes in your hand: keep it"
            return f"lay out {cards(a.slots)} and draw {plural(len(a.slots), 'more card')}"
        if k == "take":
            z = self.stack(a.stack) if 0 <= a.stack < self.n_stacks else []
            top = self.card_name(self.values[z[-1]]) if z else "nothing"
            sneak = " (Sneaky)" if a.get("sneak") else ""
            return f"take {top} from stack {a.stack + 1}{sneak}"
        if k == "leg_it":
            return "Leg it! (discard your whole hand and skip your turn)"
        if k == "done":
            return "no action (end your turn)"
        if k == "pass":
            other = [s for s in a.slots if s != a.give]
            return (f"Pass {self.card_name(self.values[a.give])} to {self.pname(a.to)} "
                    f"(discard {cards(other)})")
        if k == "equip":
            other = [s for s in a.slots if s != a.keep]
            return f"Equip {self.card_name(self.values[a.keep])} (discard {cards(other)})"
        if k == "defeat":
            c = self.card(a.foe)
            name = c.name if c else "?"
            owner = self.zone_of[a.foe][4:] if self.zone_of[a.foe].startswith("foes") else ""
            whose = f" (in front of {self.pname(int(owner))})" if owner and int(owner) != \
                (self.req or {}).get("player") else ""
            twice = " twice: remove it from the game" if a.get("twice") else ""
            return f"Defeat {name}{whose} with {cards(a.slots)}{twice}"
        if k == "spend":
            c = self.card(a.item)
            what = c.name if c else "?"
            if a.get("foe") is not None:
                f = self.card(a.foe)
                what += f" on {f.name if f else '?'}"
            if a.get("stack") is not None:
                what += f" on stack {a.stack + 1}"
            return f"Spend {what}: {c.text.removeprefix('SPEND: ') if c else ''}"
        if k == "give":
            return f"give {self.card_name(self.values[a.slot])} to {self.pname(a.to)}"
        if k == "discard":
            return f"discard {self.card_name(self.values[a.slot])}"
        return super().describe(a)


def vuln_text(c: CardDef) -> str:
    return " + ".join("any" if r == "any" else r.capitalize() for r in c.vulnerability)


def _house_mark(h: tuple[str, ...]) -> str:
    if not h:
        return ""
    if h == ("*",):
        return "   [house]"
    return f"   [house: {', '.join(h)}]"


def rules_text(d: CardData) -> str:
    out = ["Out Of This World — card data (p2pcards/games/out_of_this_world/cards.json and "
           "adventures/*.json)",
           "[house] marks p2pcards house content the rulebook does not print; "
           "[house: fields] marks only those fields.", "",
           f"Time tokens: {d.time_tokens} · {d.stacks} stacks of {d.stack_size} · deal "
           f"{d.initial_hand} each · discard down to {d.hand_limit}",
           "Points to equip per player: " + ", ".join(f"{n} players {v}" for n, v in d.points.items()),
           "Difficulties: " + "; ".join(
               f"{x.name}: {plural(x.difficult_foes, 'Difficult Foe')}"
               + (", everyone may talk all the time" if x.table_talk else "")
               for x in d.difficulties.values()), ""]

    def item_line(c: CardDef, typed: bool = False) -> str:
        n = f"{c.count}× " if c.count > 1 else ""
        ab = f" — {c.text}" if c.text else ""
        value = f"{d.type_name(c.type)} {c.value}" if typed else str(c.value)
        return f"    {n}{c.name} ({value}){ab}{_house_mark(c.house)}"

    out.append("Items (64):")
    for t in (*d.type_names, WILD):
        out.append(f"  {d.type_name(t)}:")
        out += [item_line(c) for c in d.items if c.type == t]

    def foe_line(c: CardDef) -> str:
        n = f"{c.count}× " if c.count > 1 else ""
        return f"    {n}{c.name} — defeat with {vuln_text(c)} — {c.text}{_house_mark(c.house)}"

    out += ["", f"Foes ({sum(c.count for c in d.foes)}):"] + [foe_line(c) for c in d.foes]
    out += ["", f"Difficult Foes ({sum(c.count for c in d.difficult_foes)}):"]
    out += [foe_line(c) for c in d.difficult_foes]
    out += ["", "Characters (each has two equal sides):"]
    for ch in d.characters:
        out.append(f"    {ch.sides[0]} / {ch.sides[1]} — {ch.ability}: {ch.text}{_house_mark(ch.house)}")
    out += ["", "Adventures:"]
    for a in d.adventures.values():
        label = f"Chapter {a.chapter}. " if a.chapter else ""
        code = f", code {a.code}" if a.code is not None else ""
        out.append(f"  {label}{a.name} ('{a.key}'{code}) — {a.time_tokens} Time tokens"
                   f"{_house_mark(a.house)}")
        if a.flavor:
            out.append(f"    \"{a.flavor}\"")
        out += [f"    • {r}" for r in a.special_rules]
        for c in a.cards:
            out.append((item_line(c, True) if c.is_item else foe_line(c)).replace("    ", "      ", 1)
                       + ("" if c.is_item else " [Difficult]" if c.difficult else ""))
    out += ["", "House rules (where the rulebook is silent):"]
    out += [f"  • {text}" for _, text in d.house_rules]
    return "\n".join(out)
