"""DeckDealer: the deck service drives a game exactly as LocalDealer + project would.

A toy game (shuffle, private deals, a peek and a private reorder by seat 0, a card face up, a
joint random first player, one card played by each seat, the table re-shuffled into the deck, a
last private deal) is played twice with the same decisions: once by in-process DeckPeers, each
seat applying only its own outcomes to its own view; once by LocalDealer on a full-information state
with ``project``. What each seat knows must agree at every step; then the end-of-game step gives
every seat the same record digest and the events it applied, which replay cleanly on its own view
(deck v2 reveals nothing hidden, so there are no full-information events any more). A hand mix
(``Shuffle(by=holder, mix=True)``, built here by hand) is a private reorder the holder draws."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from p2pcards.deck_dealer import DeckDealer
from p2pcards.engine import (
    Action,
    Decide,
    Decision,
    Event,
    GameState,
    LocalDealer,
    Random,
    RandomValue,
    Request,
    Revealed,
    RuleViolation,
    Shuffle,
    project,
    request_to_json,
)
from protocol.deck import DeckPeer

from .deck_helpers import make_table
from .inproc import play_in_process

N_CARDS = 24


class Toy(GameState):
    game = "toy-deck-test"

    def __init__(self, n_players: int) -> None:
        super().__init__(n_players, N_CARDS)
        for s in range(N_CARDS):
            self.place(s, "deck")
        for p in range(n_players):
            self.zones[f"hand{p}"] = []
        self.zones["table"] = []
        self.plays = 0
        self.first: int | None = None
        self.request(Shuffle(tuple(self.zones["deck"])), "deal", p=0, k=2)

    def _after_deal(self, p: int, k: int) -> None:
        if p < self.n_players:
            top = self.zones["deck"][-k:]
            for s in list(top):
                self.place(s, f"hand{p}")
            self.reveal(top, [p], "deal", p=p + 1, k=k)
        elif k == 2:
            top3 = self.zones["deck"][-3:]
            self.reveal(top3, [0], "reorder", top=list(top3))

    def _after_reorder(self, top: list[int]) -> None:
        self.request(Shuffle(tuple(top), by=0), "flip")

    def _after_flip(self) -> None:
        s = self.zones["deck"][-1]
        self.place(s, "table")
        self.reveal([s], None, "pick")

    def _after_pick(self) -> None:
        self.request(Random(self.n_players), "first")

    def _after_first(self, value: int) -> None:
        self.first = value
        self.decide(value)

    def legal(self, player: int) -> list[Action]:
        if self.req is None or self.req != {"type": "decide", "player": player}:
            return []
        return [Action("play", slot=s) for s in self.zones[f"hand{player}"]]

    def _decide(self, player: int, action: Action) -> None:
        self.place(action.slot, "table")
        self.reveal([action.slot], None, "next", p=player)

    def _after_next(self, p: int) -> None:
        self.plays += 1
        if self.plays < self.n_players:
            self.decide((p + 1) % self.n_players)
            return
        for s in list(self.zones["table"]):
            self.place(s, "deck", 0)
        self.request(Shuffle(tuple(self.zones["deck"])), "deal", p=0, k=1)

    def outcome(self) -> dict[str, Any] | None:
        return None if self.req is not None else {"first": self.first}


def decide(view: GameState, legal: list[Action]) -> Action:
    return legal[-1]  # value-blind, so both runs take the same decisions


def arrange(view: GameState, slots: Sequence[int]) -> list[int]:
    return list(reversed(slots))


def shape(v: GameState) -> tuple[Any, ...]:
    """What a seat knows, without the card values themselves."""
    return copy.deepcopy((v.req, v.zones, v.known, [x is None for x in v.values]))


class SameRandom(LocalDealer):
    """A LocalDealer whose ``Random`` outcomes are given (the deck run's), so that both runs take
    the same decisions; shuffles stay its own."""

    def __init__(self, seed: int, values: list[int]) -> None:
        super().__init__(seed)
        self.values = list(values)

    def fulfil(self, state: GameState, req: Request, arrange: Any = None) -> Event:
        if isinstance(req, Random):
            return RandomValue(self.values.pop(0))
        return super().fulfil(state, req, arrange)


def play_local(n: int, seed: int, randoms: list[int]) -> list[tuple[Any, list[Any]]]:
    full = Toy(n)
    dealer = SameRandom(seed, randoms)
    views = [full.view(p) for p in range(n)]
    trace = []
    while (req := full.pending()) is not None:
        if isinstance(req, Decide):
            ev: Event = Decision(req.player, decide(views[req.player], views[req.player].legal(req.player)))
            full.apply(ev)
            for v in views:
                v.apply(ev)
        else:
            before = full.clone()
            ev = dealer.fulfil(full, req, lambda by, slots: arrange(views[by], slots))
            full.apply(ev)
            for p, v in enumerate(views):
                v.apply(project(ev, req, before, p))
        for p, v in enumerate(views):
            assert v == full.view(p)
        trace.append((request_to_json(req), [shape(v) for v in views]))
    return trace


class ValueBlind:
    """Decides and arranges without looking at card values, so both runs take the same path."""

    needs_view = True

    def decide(self, view: GameState | None, legal: list[Action]) -> Action:
        return decide(view, legal)  # type: ignore[arg-type]

    def arrange(self, view: GameState, slots: Sequence[int]) -> list[int]:
        return arrange(view, slots)


async def play_deck(n: int, peers: list[DeckPeer]) -> dict[str, Any]:
    dealers = [DeckDealer(d, p) for p, d in enumerate(peers)]
    views = [Toy(n).view(p) for p in range(n)]
    snapshots: list[list[GameState]] = []
    steps = await play_in_process(views, dealers, [ValueBlind()] * n,
                                  on_step=lambda st, vs: snapshots.append([v.clone() for v in vs]))
    ended = await asyncio.gather(*(d.audit() for d in dealers))
    return {"steps": steps, "snapshots": snapshots, "ended": ended}


def replay_view(n: int, p: int, steps: list[Any], events: list[Event]) -> GameState:
    """Seat ``p``'s view rebuilt from the decisions and its own deck events."""
    view = Toy(n).view(p)
    it = iter(events)
    for st in steps:
        view.apply(st.events[0] if isinstance(st.request, Decide) else next(it))
    return view


@pytest.mark.parametrize("n", [2, 3, 5])
def test_deck_dealer_is_interchangeable_with_the_local_dealer(n: int) -> None:
    _, peers = make_table(n, N_CARDS, tag=f"dealer{n}")
    run = asyncio.run(play_deck(n, peers))
    steps, snaps = run["steps"], run["snapshots"]
    randoms = [s.events[0].value for s in steps if isinstance(s.request, Random)]
    local = play_local(n, seed=n, randoms=randoms)

    # 1. step by step, every seat knows the same things as in the LocalDealer game
    assert [request_to_json(s.request) for s in steps] == [r for r, _ in local]
    for views, (_, shapes) in zip(snaps, local, strict=True):
        assert [shape(v) for v in views] == shapes
    kinds = {type(s.request).__name__ for s in steps}
    assert {"Shuffle", "Reveal", "Random", "Decide"} <= kinds
    assert any(isinstance(s.request, Shuffle) and s.request.by == 0 for s in steps)

    # 2. the end step: one record digest; each seat gets back the events it applied
    assert len({digest for digest, _ in run["ended"]}) == 1
    service = [i for i, s in enumerate(steps) if not isinstance(s.request, Decide)]
    for p, (_, pairs) in enumerate(run["ended"]):
        assert [req for req, _ in pairs] == [steps[i].request for i in service]
        assert [ev for _, ev in pairs] == [steps[i].events[p] for i in service]

    # 3. they replay cleanly on each seat's view, ending where the seat ended
    for p, (_, pairs) in enumerate(run["ended"]):
        view = replay_view(n, p, steps, [ev for _, ev in pairs])
        assert view == snaps[-1][p] and view.pending() is None

    # 4. the replay check has teeth: a wrong card in a seat's own reveal is refused
    p = 0
    events = [ev for _, ev in run["ended"][p][1]]
    i = next(k for k, e in enumerate(events) if isinstance(e, Revealed) and e.values)
    bad = list(events)
    bad[i] = Revealed(bad[i].slots, tuple((v + 1) % N_CARDS for v in bad[i].values))
    with pytest.raises(RuleViolation):  # the same card later shows face up with its true value
        replay_view(n, p, steps, bad)


@dataclass(frozen=True, slots=True)
class MixShuffle(Shuffle):
    """The rules engineer's ``Shuffle(slots, by=holder, mix=True)``, before it lands."""

    mix: bool = True


def test_a_hand_mix_is_a_private_reorder_its_holder_draws() -> None:
    """Seat 0 is dealt three cards, then mixes them: seat 0's dealer reports the new order
    (drawn from its seed and the operation: no arrange callback), the others get nothing; opening
    the hand to seat 0 confirms the cards really moved as reported; the same seeds mix the same
    way (a resumed seat re-sends the same messages)."""

    async def main(tag: str) -> tuple[Any, Any]:
        _, peers = make_table(3, N_CARDS, tag=tag)
        dealers = [DeckDealer(d, p) for p, d in enumerate(peers)]
        views = [Toy(3).view(p) for p in range(3)]
        req = views[0].pending()
        for v, e in zip(views, await asyncio.gather(*(d.fulfil(v, req) for d, v in
                                                        zip(dealers, views, strict=True))),
                        strict=True):
            v.apply(e)
        hand = (0, 1, 2)
        dealt = await asyncio.gather(*(d.deck.open(hand, [0]) for d in dealers))
        for s, c in zip(hand, dealt[0], strict=True):
            views[0].values[s] = c
            views[0].known[s] = 1
        mix = MixShuffle(hand, by=0)
        out = await asyncio.gather(*(d.fulfil(v, mix) for d, v in zip(dealers, views, strict=True)))
        again = await asyncio.gather(*(d.deck.open(hand, [0]) for d in dealers))
        return dealt[0], out, again[0], peers[0].record()["messages"]

    dealt, out, again, msgs = asyncio.run(main("mix"))
    assert out[0].values is not None and sorted(out[0].values) == sorted(dealt)
    assert out[1].values is None and out[2].values is None
    assert list(out[0].values) == again  # the deck moved the cards as seat 0's dealer reported
    assert [b for _, b in msgs if b["step"] == "shuffle" and b["by"] == 0][0]["seat"] == 0
    _, out2, _, msgs2 = asyncio.run(main("mix"))
    assert out2[0] == out[0] and msgs2 == msgs
