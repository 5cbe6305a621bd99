"""Go Out Girl: every rule of ``rules/go-out-girl.txt`` on the knowledge-aware engine.

Cards: ids ``0..B-1`` are battle cards (numbers 1..13, ``copies`` each, then the Guards); seat p's
eight character cards follow as ``B + 8p + k`` (k in the rulebook's order: Nerai, Toyoko, Niwa,
Shian, Satsuki, Kira, Ten, Kyoko). Choosing a character face down is a hidden choice made with
cards: the seat privately rearranges its character cards (``Shuffle(by=seat)``) and then picks a
face-down slot; revealing it is a ``Reveal`` to all, so nobody can change their mind later.

Zones: ``deck``, ``discard``, ``field`` (the centre field), and per seat ``hand{p}``, ``dmg{p}``
(face-down damage), ``chars{p}`` (character cards set aside), ``char{p}`` (the chosen one) and
``locked{p}`` (characters that won a battle).

Claims that depend on hidden cards are checked when the cards are revealed (a play is revealed to
all at once). A pass with a face-down character claims that the character's life is more than
the damage: it is proven at once (``Prove`` of ``char{p}``: one of p's characters whose life the
damage does not reach, revealing nothing else) unless every character p may still hold survives
it, and a pass that none of them survives is refused outright. The character is checked again
when it is revealed.

The words for people (status lines, rules text, result, each action described) are in ``text.py``.
"""

from __future__ import annotations

from typing import Any

from ...engine import Action, ConfigError, GameState, RuleViolation, Shuffle, join_names, plural
from ...engine.requests import Random
from .data import CardData, default
from .text import Text

NERAI, TOYOKO, NIWA, SHIAN, SATSUKI, KIRA, TEN, KYOKO = range(8)
GUARD = 0  # the "number" of a Guard card

REVEAL = Action("reveal")
PASS = Action("pass")
WITHDRAW = Action("withdraw")
BARRIER = Action("barrier")
KEEP = Action("keep")


class Game(Text, GameState):
    game = "go-out-girl"
    min_players = 2
    max_players = 5
    ACTION_ARGS = {
        "character": {"slot": "slot"}, "give": {"slot": "slot"}, "keep": {},
        "guard": {"slot": "slot"}, "damage": {"slot": "slot"}, "discard": {"slot": "slot"},
        "reset": {"slots": "slots"}, "play": {"slots": "slots", "number": "int", "count": "int"},
        "reveal": {}, "pass": {}, "withdraw": {}, "barrier": {},
    }

    # ---- set-up -------------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, options: dict[str, Any] | None = None) -> Game:
        options = dict(options or {})
        if not cls.min_players <= players <= cls.max_players:
            raise ConfigError(f"Go Out Girl is for 2 to 5 players, not {players}")
        unknown = set(options) - {"names", *cls.OPTIONS}
        if unknown:
            raise ConfigError(f"Go Out Girl has no option(s) {', '.join(sorted(unknown))}")
        data = default()
        b = data.n_battle_cards
        s = cls(players, b + 8 * players, {"players": players, **options})
        s._restore()
        s.zones = {"deck": [], "discard": [], "field": []}
        for p in range(players):
            for z in ("hand", "dmg", "chars", "char", "locked"):
                s.zones[f"{z}{p}"] = []
        for c in range(b):
            s.place(c, "deck")
        for p in range(players):
            for k in range(8):
                s.place(b + 8 * p + k, f"chars{p}")
        s.battle = 0
        s.start = 0
        s.turn = 0
        s.phase = "setup"
        s.wins = [0] * players
        s.alive = [True] * players
        s.damage = [0] * players  # damage taken this battle (counts toward life)
        s.revealed: list[int | None] = [None] * players
        s.top: dict[str, Any] | None = None
        s.task: dict[str, Any] | None = None
        s.queue: list[int] = []
        s.winner: int | None = None
        s.battle_winners: list[int] = []
        s.request(Random(players), "first_player")
        return s

    def _restore(self) -> None:
        self._data: CardData = default()
        self._b = self._data.n_battle_cards
        self._copies = self._data.copies

    # ---- card helpers -------------------------------------------------------------------------
    def number(self, card: int) -> int:
        """1..13 for a number card, 0 for a Guard, -1 for a character card."""
        if card >= self._b:
            return -1
        n = card // self._copies
        return n + 1 if n < 13 else GUARD

    def character_of_card(self, card: int) -> tuple[int, int]:
        """(seat, character index) of a character card."""
        return divmod(card - self._b, 8)

    def card_name(self, card: int | None) -> str:
        if card is None:
            return "?"
        n = self.number(card)
        if n == GUARD:
            return "Guard"
        if n > 0:
            return str(n)
        return self._data.characters[self.character_of_card(card)[1]].name

    def hand(self, p: int) -> list[int]:
        return self.zones[f"hand{p}"]

    def hands(self) -> dict[str, int]:
        """Each seat's hand is mixed when a card enters it (a draw, Ten's gift)."""
        return {f"hand{p}": p for p in range(self.n_players)}

    def own_character(self, p: int) -> int | None:
        """Seat p's chosen character as this view knows it (revealed, or p's own view)."""
        if self.revealed[p] is not None:
            return self.revealed[p]
        chosen = self.zones[f"char{p}"]
        if chosen and self.values[chosen[0]] is not None:
            return self.character_of_card(self.values[chosen[0]])[1]  # type: ignore[arg-type]
        return None

    def life(self, character: int) -> int:
        return self._data.characters[character].life

    def possible_characters(self, p: int) -> list[int]:
        """The characters seat p may be using, from what is public: its revealed one, else every
        one of its characters that has not won a battle (those are locked, face up)."""
        if self.revealed[p] is not None:
            return [self.revealed[p]]
        locked = {self.character_of_card(v)[1] for s in self.zones[f"locked{p}"]
                  if (v := self.values[s]) is not None}
        return [k for k in range(8) if k not in locked]

    def wins_needed(self) -> int:
        return self._data.wins_needed[self.n_players]

    def _next_alive(self, p: int) -> int:
        n = self.n_players
        for i in range(1, n + 1):
            q = (p + i) % n
            if self.alive[q]:
                return q
        return p

    def _groups(self, p: int) -> dict[int, list[int]]:
        """Seat p's known hand cards by number (0 = Guard), slots ascending."""
        g: dict[int, list[int]] = {}
        for s in sorted(self.hand(p)):
            v = self.values[s]
            if v is not None:
                g.setdefault(self.number(v), []).append(s)
        return g

    # ---- legal actions ------------------------------------------------------------------------
    def legal(self, player: int) -> list[Action]:
        r = self.req
        if r is None or r["type"] != "decide" or r["player"] != player:
            return []
        if any(self.values[s] is None for s in self.hand(player)):
            return []  # this view cannot see the hand
        phase = self.phase
        p = player
        if phase == "choose":
            return [Action("character", slot=s) for s in
                    sorted(self.zones[f"chars{p}"], key=lambda s: self.values[s])]  # type: ignore[arg-type,return-value]
        groups = self._groups(p)
        if phase in ("damage", "discard"):
            return [Action(phase, slot=ss[0]) for _, ss in sorted(groups.items())]
        if phase == "give":
            return [Action("give", slot=ss[0]) for _, ss in sorted(groups.items())] + [KEEP]
        if phase == "lead":  # after Shian's Reset: a new tableau card, or a Guard (a pass)
            acts = self._plays(p, groups)
            if GUARD in groups:
                acts.append(Action("guard", slot=groups[GUARD][0]))
            return acts
        # phase == "turn"
        acts: list[Action] = []
        rev = self.revealed[p]
        if rev is None:
            acts.append(REVEAL)
        acts += self._plays(p, groups)
        if GUARD in groups:
            acts.append(Action("guard", slot=groups[GUARD][0]))
        top = self.top
        if top is not None:
            if rev == SHIAN:
                twos, threes = groups.get(2, []), groups.get(3, [])
                for a in range(4):
                    if a <= len(twos) and 3 - a <= len(threes):
                        acts.append(Action("reset", slots=sorted(twos[:a] + threes[: 3 - a])))
            char = self.own_character(p)
            if char is None:
                return acts  # cannot tell pass from withdrawal without the character
            if rev is None and char == KIRA:
                acts.append(BARRIER)
            lethal = self.damage[p] + top["damage"] >= self.life(char)
            acts.append(WITHDRAW if lethal else PASS)
        return acts

    def _plays(self, p: int, groups: dict[int, list[int]]) -> list[Action]:
        rev = self.revealed[p]
        top = self.top
        acts: list[Action] = []

        def play(slots: list[int], number: int, count: int) -> None:
            acts.append(Action("play", slots=sorted(slots), number=number, count=count))

        nums = [n for n in sorted(groups) if n != GUARD]
        if rev == KYOKO:
            counts = (1, 2) if top is None else ((top["count"],) if top["count"] <= 2 else ())
            for n in nums:
                if top is None or n > top["number"]:
                    for c in counts:
                        play(groups[n][:1], n, c)
            return acts
        if top is None:
            for n in nums:
                for k in range(1, len(groups[n]) + 1):
                    play(groups[n][:k], n, k)
        else:
            c = top["count"]
            for n in nums:
                if n > top["number"] and len(groups[n]) >= c:
                    play(groups[n][:c], n, c)
        if rev == NERAI and (top is None or top["number"] < 6):
            fours, fives, sixes = groups.get(4, []), groups.get(5, []), groups.get(6, [])
            for a in range(len(fours) + 1):
                for b in range(len(fives) + 1):
                    if a + b == 0:
                        continue  # only sixes: an ordinary play of 6s
                    for c6 in range(len(sixes) + 1):
                        k = a + b + c6
                        if top is None or k == top["count"]:
                            play(fours[:a] + fives[:b] + sixes[:c6], 6, k)
        if rev == TOYOKO and 1 in groups:
            ones = groups[1]
            if top is None:
                for k in range(1, len(ones) + 1):
                    play(ones[:k], 14, k)
            elif top["number"] < 14 and len(ones) >= top["count"]:
                play(ones[: top["count"]], 14, top["count"])
        return acts

    # ---- validation ---------------------------------------------------------------------------
    def validate(self, player: int, action: Action) -> None:
        self._check_public(player, action)
        if (self.viewer is None or self.viewer == player) and \
                self.canonical(player, action) not in self.legal(player):
            raise RuleViolation(player, f"{self.describe(action)} is not a legal action now")

    def disguise(self, player: int, action: Action, rng: Any) -> Action:
        """Each hand card the move names becomes a random one of the same number (a Guard any
        Guard): ``legal`` lists the lowest slot (see ``GameState.disguise``)."""
        hand = set(self.hand(player))

        def key(s: int) -> int | None:
            v = self.values[s]
            return None if v is None or s not in hand else self.number(v)

        return action if action.kind == "character" else \
            self._disguise_slots(player, action, rng, key)

    def canonical(self, p: int, a: Action) -> Action:
        """The same action with each card replaced by the lowest-numbered slot of an equivalent
        card (same number) in the hand: the form ``legal`` lists."""
        if a.kind == "character":
            return a
        groups = self._groups(p)
        if "slots" in dict(a.args):
            need: dict[int, int] = {}
            for s in a.slots:
                v = self.values[s]
                if v is None:
                    return a
                n = self.number(v)
                need[n] = need.get(n, 0) + 1
            slots = sorted(s for n, k in need.items() for s in groups.get(n, [])[:k])
            return Action(a.kind, **{**dict(a.args), "slots": slots})
        if "slot" in dict(a.args):
            v = self.values[a.slot]
            if v is None:
                return a
            return Action(a.kind, **{**dict(a.args), "slot": groups[self.number(v)][0]})
        return a

    def _check_public(self, p: int, a: Action) -> None:
        """Checks every view can make, with no hidden card."""
        phase = self.phase
        hand = self.hand(p)
        allowed = {
            "choose": {"character"},
            "turn": {"reveal", "play", "guard", "pass", "withdraw", "barrier", "reset"},
            "lead": {"play", "guard"},
            "damage": {"damage"},
            "discard": {"discard"},
            "give": {"give", "keep"},
        }.get(phase, set())
        if a.kind not in allowed:
            raise RuleViolation(p, f"'{a.kind}' is not possible now ({phase})")
        slots: tuple[int, ...] = ()
        if "slots" in dict(a.args):
            slots = a.slots
            if not isinstance(slots, tuple) or not all(isinstance(s, int) for s in slots):
                raise RuleViolation(p, "malformed card list")
            if len(set(slots)) != len(slots) or not slots:
                raise RuleViolation(p, "a play needs distinct cards")
        elif "slot" in dict(a.args):
            if not isinstance(a.slot, int):
                raise RuleViolation(p, "malformed card")
            slots = (a.slot,)
        if a.kind == "character":
            if slots[0] not in self.zones[f"chars{p}"]:
                raise RuleViolation(p, "that is not one of your available characters")
            return
        if any(s not in hand for s in slots if 0 <= s < self.n_cards) or any(
            not 0 <= s < self.n_cards for s in slots
        ):
            raise RuleViolation(p, "that card is not in your hand")
        top = self.top
        rev = self.revealed[p]
        if a.kind in ("pass", "withdraw", "barrier", "reset") and top is None:
            raise RuleViolation(p, f"there is no tableau pile to {a.kind} against")
        if a.kind == "pass" and top is not None and not any(
                self.life(k) > self.damage[p] + top["damage"] for k in self.possible_characters(p)):
            # "When passing, if the total damage including the damage received so far equals or
            # exceeds the life of the character you are using, you are eliminated": no character
            # p may hold survives this pass, and every copy can tell
            raise RuleViolation(p, f"passed to {self.damage[p] + top['damage']} damage, which "
                                   "reaches the life of every character they may hold: they "
                                   "must withdraw")
        if a.kind in ("reveal", "barrier") and rev is not None:
            raise RuleViolation(p, "your character is already revealed")
        if a.kind == "reset":
            if rev != SHIAN:
                raise RuleViolation(p, "only a revealed Shian can reset")
            if len(slots) != 3:
                raise RuleViolation(p, "Reset takes exactly 3 cards")
        if a.kind == "give" and (rev != TEN or top is None):
            raise RuleViolation(p, "only a revealed Ten gives a card after damage")
        if a.kind == "play":
            number, count = a.get("number"), a.get("count")
            if not isinstance(number, int) or not isinstance(count, int):
                raise RuleViolation(p, "a play names its number and count")
            if not (1 <= number <= 13 or (number == 14 and rev == TOYOKO)):
                raise RuleViolation(p, f"cannot play as number {number}")
            if rev == KYOKO:
                if len(slots) != 1 or count not in (1, 2):
                    raise RuleViolation(p, "Kyoko plays exactly one card, as a single or a pair")
            elif count != len(slots):
                raise RuleViolation(p, "the count must be the number of cards played")
            if top is not None:
                if count != top["count"]:
                    raise RuleViolation(p, f"must play {plural(top['count'], 'card')}, not {count}")
                if number <= top["number"]:
                    raise RuleViolation(p, f"{number} does not beat {top['number']}")

    def _check_play_cards(self, p: int, slots: list[int], number: int) -> None:
        rev = self.revealed[p]
        for s in slots:
            n = self.number(self.values[s])  # type: ignore[arg-type]
            ok = n == number or (number == 6 and rev == NERAI and n in (4, 5, 6)) or (
                number == 14 and rev == TOYOKO and n == 1
            )
            if not ok:
                raise RuleViolation(p, f"played {self.card_name(self.values[s])} as {number}")

    # ---- decisions ----------------------------------------------------------------------------
    def _decide(self, p: int, a: Action) -> None:
        getattr(self, "_do_" + a.kind)(p, a)

    def _do_character(self, p: int, a: Action) -> None:
        self.place(a.slot, f"char{p}")
        self.say(f"{self.pname(p)} chooses a character face down.")
        self._next_chooser()

    def _do_reveal(self, p: int, a: Action) -> None:
        self._reveal_character(p, "revealed_turn")

    def _after_revealed_turn(self, p: int) -> None:
        self.decide(p)

    def _do_play(self, p: int, a: Action) -> None:
        slots = list(a.slots)
        for s in slots:
            self.place(s, "field")
        self.reveal(slots, None, "played", p=p, slots=slots, number=a.number, count=a.count)

    def _after_played(self, p: int, slots: list[int], number: int, count: int) -> None:
        self._check_play_cards(p, slots, number)
        damage = self._data.damage[number]
        if self.revealed[p] == SATSUKI and number != 13:
            damage += 1
        self.top = {"slots": slots, "number": number, "count": count, "damage": damage, "owner": p}
        if self.narrating:
            cards = " ".join(self.card_name(self.values[s]) for s in slots)
            as_ = f" as {'pair of ' if count == 2 and len(slots) == 1 else ''}{number}" if (
                number in (6, 14) and any(self.number(self.values[s]) != number for s in slots)
                or len(slots) != count) else ""
            self.say(f"{self.pname(p)} plays {cards}{as_} ({'●' * damage}).")
        if not self.hand(p):
            self._win_battle(p, "empties their hand")
            return
        self._next_turn(p)

    def _do_guard(self, p: int, a: Action) -> None:
        self.place(a.slot, "discard")
        self.reveal([a.slot], None, "guarded", p=p, slot=a.slot)

    def _after_guarded(self, p: int, slot: int) -> None:
        if self.number(self.values[slot]) != GUARD:  # type: ignore[arg-type]
            raise RuleViolation(p, f"played {self.card_name(self.values[slot])} as a Guard")
        self.say(f"{self.pname(p)} plays Guard and passes without damage.")
        if not self.hand(p):
            self._win_battle(p, "empties their hand")
            return
        self._next_turn(p)

    def _do_pass(self, p: int, a: Action) -> None:
        assert self.top is not None
        d = self.top["damage"]
        self.damage[p] += d
        niwa = self.revealed[p] == NIWA
        self.say(f"{self.pname(p)} passes and takes {d} damage"
                 f"{' (Awakening: draws double)' if niwa else ''}.")
        if self.revealed[p] is None:
            # the pass claims the face-down character survives it: proven now, unless every
            # character p may hold does
            possible = self.possible_characters(p)
            alive = [k for k in possible if self.life(k) > self.damage[p]]
            if len(alive) < len(possible):
                self.prove(self.zones[f"char{p}"], p, [self._b + 8 * p + k for k in alive],
                           f"passed to {self.damage[p]} damage, claiming a face-down character whose "
                           "life that does not reach", "pass_proven", p=p, d=d)
                return
        self._after_pass_proven(p, d)

    def _after_pass_proven(self, p: int, d: int) -> None:
        niwa = self.revealed[p] == NIWA
        self.draw(p, 2 * d if niwa else d, "damage_drawn", p=p, d=d)

    def _after_damage_drawn(self, p: int, d: int, drawn: list[int]) -> None:
        lay = min(d, len(drawn))
        self._pick(p, "damage", lay, "damage_laid", p=p, extra=len(drawn) - lay)

    def _after_damage_laid(self, p: int, extra: int) -> None:
        self._pick(p, "discard", extra, "damage_done", p=p, why="Awakening")

    def _after_damage_done(self, p: int) -> None:
        if self.revealed[p] == TEN and self.hand(p):
            self.phase = "give"
            self.decide(p)
        else:
            self._next_turn(p)

    def _do_give(self, p: int, a: Action) -> None:
        assert self.top is not None
        owner = self.top["owner"]
        self.place(a.slot, f"hand{owner}")
        self.reveal([a.slot], [owner], "given", p=p, owner=owner, s=a.slot)

    def _after_given(self, p: int, owner: int, s: int) -> None:
        self.say_cards(f"{self.pname(p)} (Let's Talk) gives a card to {self.pname(owner)}", [s])
        # the receiver mixes the card into her hand: Ten cannot follow her gift
        self.mix_hand(f"hand{owner}", [s], "gift_mixed", p=p)

    def _after_gift_mixed(self, p: int) -> None:
        if not self.hand(p):
            self._win_battle(p, "gives away her last card")
        else:
            self._next_turn(p)

    def _do_keep(self, p: int, a: Action) -> None:
        self._next_turn(p)

    def _do_withdraw(self, p: int, a: Action) -> None:
        self._reveal_character(p, "withdrawn")

    def _after_withdrawn(self, p: int) -> None:
        assert self.top is not None
        life = self.life(self.revealed[p])  # type: ignore[arg-type]
        if self.damage[p] + self.top["damage"] < life:
            raise RuleViolation(p, "withdrew although the damage would not reach their life")
        self.alive[p] = False
        self.say(f"{self.pname(p)} withdraws and is eliminated.")
        left = [q for q in range(self.n_players) if self.alive[q]]
        if len(left) == 1:
            self._win_battle(left[0], "is the last one standing")
        else:
            self._next_turn(p)

    def _do_barrier(self, p: int, a: Action) -> None:
        self._reveal_character(p, "barrier_revealed")

    def _after_barrier_revealed(self, p: int) -> None:
        assert self.top is not None
        if self.revealed[p] != KIRA:
            raise RuleViolation(p, "only Kira has the Akane Barrier")
        n = min(self.top["damage"], len(self.hand(p)))
        self.say(f"{self.pname(p)} raises the Akane Barrier: no damage; "
                 f"discards {plural(n, 'card')} face up instead.")
        self._pick(p, "discard", n, "barrier_done", p=p, why="Akane Barrier")

    def _after_barrier_done(self, p: int) -> None:
        if not self.hand(p):
            self._win_battle(p, "discards her last card")
        else:
            self._next_turn(p)

    def _do_reset(self, p: int, a: Action) -> None:
        slots = list(a.slots)
        for s in slots:
            self.place(s, "discard")
        self.reveal(slots, None, "reset_revealed", p=p, slots=slots)

    def _after_reset_revealed(self, p: int, slots: list[int]) -> None:
        for s in slots:
            if self.number(self.values[s]) not in (2, 3):  # type: ignore[arg-type]
                raise RuleViolation(p, f"Reset needs 2s and 3s, not {self.card_name(self.values[s])}")
        cards = join_names(self.card_name(self.values[s]) for s in slots)
        self.say(f"{self.pname(p)} (Reset) plays {cards}, discards the tableau pile and leads.")
        self._clear_field()
        if not self.hand(p):
            self._win_battle(p, "empties their hand")
            return
        self.phase = "lead"
        self.decide(p)

    def _do_damage(self, p: int, a: Action) -> None:
        self.place(a.slot, f"dmg{p}")
        self._picked(p)

    def _do_discard(self, p: int, a: Action) -> None:
        self.place(a.slot, "discard")
        self.reveal([a.slot], None, "discard_shown", p=p, slot=a.slot)

    def _after_discard_shown(self, p: int, slot: int) -> None:
        why = (self.task or {}).get("why", "")
        self.say(f"{self.pname(p)} discards {self.card_name(self.values[slot])} face up"
                 f"{f' ({why})' if why else ''}.")
        self._picked(p)

    # ---- flow ---------------------------------------------------------------------------------
    def _after_first_player(self, value: int) -> None:
        self.start = value
        self._new_battle()

    def _new_battle(self) -> None:
        self.battle += 1
        for c in range(self._b):
            if self.zone_of[c] != "deck":
                self.place(c, "deck")
        for p in range(self.n_players):
            for s in list(self.zones[f"char{p}"]):
                self.place(s, f"chars{p}")
        n = self.n_players
        self.alive = [True] * n
        self.damage = [0] * n
        self.revealed = [None] * n
        self.top = None
        self.phase = "setup"
        self.say(f"Battle {self.battle} begins; {self.pname(self.start)} starts.")
        self.request(Shuffle(tuple(self.zones["deck"])), "battle_shuffled")

    def _after_battle_shuffled(self) -> None:
        deck = self.zones["deck"]
        order = [(self.start + i) % self.n_players for i in range(self.n_players)]
        for _ in range(self._data.hand_sizes[self.n_players]):
            for p in order:
                self.place(deck[-1], f"hand{p}")
        self._after_hands_dealt(0)

    def _after_hands_dealt(self, p: int) -> None:
        if p < self.n_players:
            self.reveal(list(self.hand(p)), [p], "hands_dealt", p=p + 1)
        else:
            self._after_characters_arranged(0)

    def _after_characters_arranged(self, p: int) -> None:
        if p < self.n_players:
            self.request(Shuffle(tuple(self.zones[f"chars{p}"]), by=p),
                         "characters_arranged", p=p + 1)
        else:
            self.queue = [(self.start + i) % self.n_players for i in range(self.n_players)]
            self._next_chooser()

    def _next_chooser(self) -> None:
        if self.queue:
            p = self.queue.pop(0)
            self.phase = "choose"
            self.turn = p
            self.decide(p)
        else:
            self._begin_turn(self.start)

    def _begin_turn(self, p: int) -> None:
        self.turn = p
        self.phase = "turn"
        self.decide(p)

    def _next_turn(self, p: int) -> None:
        """After p played or passed: the next player still in the battle moves; when everyone
        else passed in a row (the turn is back to the tableau's owner) the field is cleared."""
        q = self._next_alive(p)
        if self.top is not None and self.top["owner"] == q:
            self._clear_field()
            self.say(f"Everyone passed: the field is cleared and {self.pname(q)} leads.")
        self._begin_turn(q)

    def _clear_field(self) -> None:
        for s in list(self.zones["field"]):
            self.place(s, "discard")
        self.top = None

    def _reveal_character(self, p: int, then: str) -> None:
        slot = self.zones[f"char{p}"][0]
        self.reveal([slot], None, "character_shown", p=p, slot=slot, then=then)

    def _after_character_shown(self, p: int, slot: int, then: str) -> None:
        seat, ch = self.character_of_card(self.values[slot])  # type: ignore[arg-type]
        if seat != p:
            raise RuleViolation(p, "the chosen character card is not theirs")
        if self.revealed[p] is None:
            self.revealed[p] = ch
            self.say(f"{self.pname(p)} reveals {self._data.characters[ch].name}.")
            if self.damage[p] >= self.life(ch):
                raise RuleViolation(p, f"passed on with {self.damage[p]} damage as "
                                    f"{self._data.characters[ch].name} (life {self.life(ch)})")
        getattr(self, "_after_" + then)(p=p)

    def _pick(self, p: int, kind: str, count: int, then: str, /, why: str = "", **kw: Any) -> None:
        """Seat p picks ``count`` hand cards one at a time ("damage" or "discard"); ``why``
        names the ability a discard is for, in the log."""
        if count <= 0 or not self.hand(p):
            getattr(self, "_after_" + then)(**kw)
            return
        self.task = {"kind": kind, "left": count, "then": then, "kw": kw, "back": self.phase,
                     "why": why}
        self.phase = kind
        self.decide(p)

    def _picked(self, p: int) -> None:
        t = self.task
        assert t is not None
        t["left"] -= 1
        if t["left"] > 0 and self.hand(p):
            self.decide(p)
            return
        self.task = None
        self.phase = t["back"]
        getattr(self, "_after_" + t["then"])(**t["kw"])

    def refill(self, then: str) -> bool:
        if not self.zones["discard"]:
            return False  # house rule: with no deck and no discard pile, draw what there is
        self.say("The deck is empty: the discard pile is shuffled into a new deck.")
        self.request(Shuffle(tuple(self.zones["discard"])), "discard_reshuffled", then=then)
        return True

    def _after_discard_reshuffled(self, then: str) -> None:
        for s in list(self.zones["discard"]):
            self.place(s, "deck", 0)
        getattr(self, "_after_" + then)()

    def _win_battle(self, w: int, how: str) -> None:
        self.wins[w] += 1
        self.battle_winners.append(w)
        self.say(f"{self.pname(w)} {how} and wins battle {self.battle} "
                 f"({self.wins[w]} of {self.wins_needed()}).")
        if self.wins[w] >= self.wins_needed():
            self.winner = w
            self.phase = "over"
            self.say(f"{self.pname(w)} wins the match!")
            return
        self._reveal_character(w, "winner_locked")

    def _after_winner_locked(self, p: int) -> None:
        slot = self.zones[f"char{p}"][0]
        self.place(slot, f"locked{p}")
        self.start = (p + 1) % self.n_players
        self._new_battle()

    # ---- outcome (the words: text.py) ----------------------------------------------------------
    def outcome(self) -> dict[str, Any] | None:
        if self.winner is None:
            return None
        return {"winner": self.winner, "wins": list(self.wins), "battles": self.battle,
                "battle_winners": list(self.battle_winners)}
