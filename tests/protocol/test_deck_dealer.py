"""DeckDealer: the deck service drives a game exactly as LocalDealer + project would.

A toy game (shuffle, private deals, a peek and a private reorder by seat 0, a card face up, a
joint random first player, one card played by each seat, the table re-shuffled into the deck, a
last private deal) is played twice with the same decisions: once by in-process DeckPeers, each
seat applying only its own outcomes to its own view; once by LocalDealer on a full-information state
with ``project``. What each seat knows must agree at every step; then the audited full-information
events must replay cleanly on a full-information copy that matches every seat's view."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Sequence
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
from protocol.errors import DeckError

from .deck_helpers import make_table
from .inproc import play_in_process, replay_full

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
    audited = await asyncio.gather(*(d.audit() for d in dealers))
    return {"steps": steps, "snapshots": snapshots, "full": [f for _, f in audited[0][1]],
            "audited": audited}


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

    # 2. every seat got the same full-information events from the audit, one per service request
    full_events = run["full"]
    assert all([f for _, f in a[1]] == full_events for a in run["audited"])
    assert len(full_events) == sum(not isinstance(s.request, Decide) for s in steps)

    # 3. they replay cleanly on a full-information copy, projecting each one gives exactly what
    #    each seat received, and the copy matches every seat's view at every step
    def same_views(i: int, full: GameState) -> None:
        for p in range(n):
            assert full.view(p) == snaps[i][p]

    full = replay_full(Toy(n), steps, full_events, on_step=same_views)
    assert full.pending() is None
    assert sorted(full.values) == list(range(N_CARDS))  # type: ignore[type-var]

    # 4. the replay check has teeth: a wrong card in one audited event is refused
    i = next(k for k, e in enumerate(full_events) if isinstance(e, Revealed))
    bad = list(full_events)
    bad[i] = Revealed(bad[i].slots, tuple((v + 1) % N_CARDS for v in bad[i].values))
    with pytest.raises((AssertionError, RuleViolation)):
        replay_full(Toy(n), steps, bad)


class Lazy(DeckPeer):
    def _permutation(self, op: int, m: int) -> list[int]:
        return list(range(m))


def test_deck_dealer_audit_names_a_lazy_shuffler() -> None:
    _, peers = make_table(3, N_CARDS, tag="lazy", classes={2: Lazy})

    async def main() -> list[Any]:
        dealers = [DeckDealer(d, p) for p, d in enumerate(peers)]
        views = [Toy(3).view(p) for p in range(3)]
        req = views[0].pending()
        events = await asyncio.gather(*(dealers[p].fulfil(views[p], req) for p in range(3)))
        for v, e in zip(views, events, strict=True):
            v.apply(e)
        return await asyncio.gather(*(d.audit() for d in dealers), return_exceptions=True)

    for err in asyncio.run(main()):
        assert isinstance(err, DeckError) and (err.peer, err.op, err.step) == (2, 0, "shuffle")
