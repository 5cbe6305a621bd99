"""``Prove(slots, by, allowed)`` / ``Proven(slots)``: a claim about a card that stays hidden,
checked the moment it is made.

A toy game deals seat 0 one card it alone sees, and seat 0 claims "my card is low" (one of
0..4). The claim is proven at once (``Prove``); the full-information copy and seat 0's own copy
know the card and name seat 0 when the claim is false; the other seats learn nothing but that
it was proven. The forged claim is the red team's move (round 7b): a "safe" said of a card that
is not."""

from __future__ import annotations

import json

import pytest

from p2pcards.engine import (
    SPECTATOR,
    Action,
    Decide,
    Decision,
    GameState,
    LocalDealer,
    Prove,
    Proven,
    RuleViolation,
    Shuffle,
    Shuffled,
    event_from_json,
    event_to_json,
    project,
    request_from_json,
    request_to_json,
)

N = 10
LOW = (0, 1, 2, 3, 4)


class ClaimToy(GameState):
    game = "claim-toy"

    def __init__(self) -> None:
        super().__init__(2, N)
        for s in range(N):
            self.place(s, "deck")
        self.zones["hand0"] = []
        self.said = False
        self.request(Shuffle(tuple(range(N))), "dealt")

    def _after_dealt(self) -> None:
        self.place(self.zones["deck"][-1], "hand0")
        self.reveal(self.zones["hand0"], [0], "seen")

    def _after_seen(self) -> None:
        self.decide(0)

    def legal(self, player: int) -> list[Action]:
        return [Action("low")]

    def validate(self, player: int, action: Action) -> None:
        pass  # the claim is the proof's to check, not the decision's

    def _decide(self, player: int, action: Action) -> None:
        self.prove(self.zones["hand0"], 0, LOW, "seat 0 said its card is low", "proven")

    def _after_proven(self) -> None:
        self.said = True

    def outcome(self):
        return {"said": self.said} if self.said else None


def _deal(card: int, secrecy: int | None = None) -> tuple[ClaimToy, dict[int, GameState]]:
    """The toy with ``card`` dealt to seat 0 and the claim pending; every seat's copy too (of
    an engine of ``secrecy``, or today's)."""
    g = ClaimToy()
    if secrecy is not None:
        g.secrecy = secrecy
    order = [s for s in range(N) if s != card] + [card]  # card ends on top of the deck
    copies = {p: g.view(p) for p in (0, 1, SPECTATOR)}
    req = g.pending()
    ev = Shuffled(tuple(range(N)), tuple(order))
    before = g.clone()
    g.apply(ev)
    for p, c in copies.items():
        c.apply(project(ev, req, before, p))
    dealer = LocalDealer(0)
    req = g.pending()
    before = g.clone()
    ev2 = dealer.fulfil(g, req)
    g.apply(ev2)
    for p, c in copies.items():
        c.apply(project(ev2, req, before, p))
    for c in [g, *copies.values()]:
        c.apply(Decision(0, Action("low")))
    return g, copies


def test_prove_request_and_event_round_trip_json():
    req = Prove((3, 5), 1, (0, 2, 7))
    assert request_from_json(json.loads(json.dumps(request_to_json(req)))) == req
    ev = Proven((3, 5))
    assert event_from_json(json.loads(json.dumps(event_to_json(ev)))) == ev
    assert "values" not in event_to_json(ev)  # a proof tells no value


@pytest.mark.parametrize("allowed", [[], [2, 1], [1, 1]])
def test_a_prove_request_with_a_malformed_allowed_set_is_refused(allowed):
    with pytest.raises(ValueError):
        request_from_json({"type": "prove", "slots": [1], "by": 0, "allowed": allowed})


def test_an_honest_claim_is_proven_and_the_game_goes_on():
    g, copies = _deal(2)
    req = g.pending()
    assert req == Prove(tuple(g.zones["hand0"]), 0, LOW)
    ev = LocalDealer(0).fulfil(g, req)
    assert ev == Proven(req.slots)
    for c in [g, *copies.values()]:
        c.apply(ev)
        assert c.pending() is None and c.outcome() == {"said": True}
        # every seat's share but the claimant's is now public (SPEC 5.7): a later opening of
        # the slot to seats without the claimant re-encrypts it first (test_reencrypt.py)
        assert c.exposed[req.slots[0]] == c.all_mask & ~1


def test_an_engine_of_secrecy_1_re_mixes_after_every_claim():
    """As records made before the re-encryptions replay: the claimant re-mixed the claimed slots
    after every proof."""
    g2, copies2 = _deal(2, secrecy=1)
    req = g2.pending()
    ev = LocalDealer(0).fulfil(g2, req)
    for c in [g2, *copies2.values()]:
        c.apply(ev)
        assert c.pending() == Shuffle(req.slots, 0, mix=True)
    g2.apply(LocalDealer(0).fulfil(g2, g2.pending()))
    assert g2.outcome() == {"said": True}


def test_a_false_claim_names_the_claimant_in_every_copy_that_knows_the_card():
    """The attack: seat 0 holds 8 and says "low". The full-information copy and seat 0's own
    copy name seat 0 at the claim; seat 1 and a spectator cannot tell and go on (for them the
    deck's proof is the check: it cannot be made for a false claim)."""
    g, copies = _deal(8)
    req = g.pending()
    assert isinstance(req, Prove)
    ev = LocalDealer(0).fulfil(g, req)
    for c in (g, copies[0]):
        with pytest.raises(RuleViolation) as e:
            c.clone().apply(ev)
        assert e.value.player == 0
        assert "seat 0 said its card is low" in e.value.reason
    for p in (1, SPECTATOR):
        c = copies[p]
        assert c.values[req.slots[0]] is None
        c.apply(ev)
        assert c.pending() is None and c.outcome() == {"said": True}  # the game goes on


def test_proven_answers_only_a_pending_prove():
    g, _ = _deal(2)
    with pytest.raises(RuleViolation):
        g.clone().apply(Proven((g.zones["hand0"][0] + 1,)))  # other slots than asked
    h = ClaimToy()
    with pytest.raises(RuleViolation):
        h.apply(Proven((0,)))  # a shuffle is pending


def test_a_pending_prove_survives_json_and_clone():
    g, _ = _deal(2)
    again = type(g).from_json_body(json.loads(json.dumps(g.to_json()))["state"])
    assert again == g == g.clone()
    assert again.pending() == g.pending()
    assert isinstance(again.pending(), Prove) and not isinstance(again.pending(), Decide)


def test_a_claim_plain_from_the_public_cards_needs_no_proof():
    """Every card the claim does not allow (5..9) lies face up elsewhere: the claim is true for
    everyone to see, so no deck operation is spent on it."""
    g = ClaimToy()
    g.req = g.then = None
    hand = 0
    g.place(hand, "hand0")
    g.known[hand] = 1
    for s in range(1, N):
        g.known[s] = g.all_mask if g.values[s] >= 5 else 0
    g.decide(0)
    g.apply(Decision(0, Action("low")))
    assert g.pending() is None and g.outcome() == {"said": True}
    g.known[9] = 0  # one high card is hidden again: the claim must be proven
    h = ClaimToy()
    h.req = h.then = None
    h.place(hand, "hand0")
    h.known = list(g.known)
    h.decide(0)
    h.apply(Decision(0, Action("low")))
    assert isinstance(h.pending(), Prove)


class FaceUpToy(ClaimToy):
    """The toy with the dealt card shown to everyone before seat 0 says it is low."""

    game = "claim-toy-face-up"

    def _after_dealt(self) -> None:
        self.place(self.zones["deck"][-1], "hand0")
        self.reveal(self.zones["hand0"], None, "seen")


@pytest.mark.parametrize("card", [2, 8])
def test_a_claim_about_a_card_every_seat_sees_is_checked_by_every_copy_without_a_proof(card):
    """A proof about a card every seat sees publishes nothing new and proves nothing a copy
    cannot check itself (the red team's listener counted such claims as reads): every copy
    checks it at once, a true one goes on with no ``Prove``, a false one names seat 0."""
    g = FaceUpToy()
    dealer = LocalDealer(0)
    order = [s for s in range(N) if s != card] + [card]
    g.apply(Shuffled(tuple(range(N)), tuple(order)))
    g.apply(dealer.fulfil(g, g.pending()))
    copies = [g, g.view(1), g.view(SPECTATOR)]
    for c in copies:
        if card in LOW:
            c.apply(Decision(0, Action("low")))
            assert c.pending() is None and c.outcome() == {"said": True}
        else:
            with pytest.raises(RuleViolation) as e:
                c.apply(Decision(0, Action("low")))
            assert e.value.player == 0 and "but it holds 8" in e.value.reason
