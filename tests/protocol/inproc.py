"""Drive a whole table in one process over an ``InMemoryHub`` (test helpers for the deck dealer):
every seat's copy fed only its own outcomes, then the audited replay on the full engine."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2pcards.deck_dealer import DeckDealer
from p2pcards.engine import Agent, Decide, Decision, Event, GameState, Request, project


@dataclass
class Step:
    """One request of a game played by ``play_in_process`` and the event each seat applied."""

    request: Request
    events: list[Event]


async def play_in_process(views: Sequence[GameState], dealers: Sequence[DeckDealer],
                          agents: Sequence[Agent], *, max_steps: int = 1_000_000,
                          on_step: Callable[[Step, Sequence[GameState]], None] | None = None
                          ) -> list[Step]:
    """Play a game to the end with every seat in this process: seat ``p`` sees only
    ``views[p]`` (its own copy, fed only its own outcomes) and its agent decides and arranges from
    it; every other seat's copy validates each decision. Returns the steps."""
    n = len(views)
    steps: list[Step] = []
    for _ in range(max_steps):
        req = views[0].pending()
        if req is None:
            return steps
        if any(v.pending() != req for v in views):
            raise AssertionError("the seats' copies disagree on the next request")
        if isinstance(req, Decide):
            p = req.player
            events: list[Event] = [Decision(p, agents[p].decide(views[p], views[p].legal(p)))] * n
        else:
            def arrange(by: int, slots: tuple[int, ...]) -> Sequence[int]:
                return agents[by].arrange(views[by], slots)

            events = list(await asyncio.gather(*(d.fulfil(v, req, arrange)
                                                 for d, v in zip(dealers, views, strict=True))))
        for v, e in zip(views, events, strict=True):
            v.apply(e)
        step = Step(req, events)
        steps.append(step)
        if on_step is not None:
            on_step(step, views)
    raise AssertionError(f"no end after {max_steps} steps")


def replay_full(full: GameState, steps: Sequence[Step], full_events: Sequence[Event],
                on_step: Callable[[int, GameState], None] | None = None) -> GameState:
    """Replay a game played by ``play_in_process`` on the full-information copy ``full``, with
    the audited full-information events of the service requests (``DeckDealer.audit``). Checks at
    every step that projecting the full event gives exactly what each seat applied; the engine's
    own checks (``RuleViolation``) run on every decision and outcome. Returns ``full``."""
    it = iter(full_events)
    for i, step in enumerate(steps):
        if full.pending() != step.request:
            raise AssertionError(f"step {i}: the full-information copy expects {full.pending()}")
        if isinstance(step.request, Decide):
            full.apply(step.events[0])
        else:
            ev = next(it)
            before = full.clone()
            full.apply(ev)
            for p, got in enumerate(step.events):
                if project(ev, step.request, before, p) != got:
                    raise AssertionError(f"step {i}: seat {p} got {got}, the audit says {ev}")
        if on_step is not None:
            on_step(i, full)
    if next(it, None) is not None:
        raise AssertionError("more audited events than service requests")
    return full
