"""Issue 3: "the deck service fulfils the engine's Shuffle, Reveal and Random requests,
interchangeable with the LocalDealer. A test plays the same Go Out Girl battle driven by each and
both finish legally."

The battle is played by three in-process peers with the mental-poker deck; then the same battle
is played on one full-information state driven through ``engine.play`` by a local dealer that
deals what the deck's audit says was dealt. Both take the same decisions, every seat's copy stays
equal to its view of the truth, and the battle ends the same way."""

from __future__ import annotations

import asyncio
import contextlib

from p2pcards.bots.go_out_girl import GoOutGirlBot
from p2pcards.deck_dealer import DeckDealer
from p2pcards.engine import LocalDealer, play
from p2pcards.games.go_out_girl import Game

from .deck_helpers import make_table
from .inproc import play_in_process

N = 3


class FirstBattleOver(Exception):
    pass


class AuditedDealer(LocalDealer):
    """A local dealer whose outcomes are the deck's audited full-information events."""

    def __init__(self, events):
        super().__init__(0)
        self.events = list(events)

    def fulfil(self, state, req, arrange=None):
        ev = self.events.pop(0)
        assert tuple(getattr(ev, "slots", getattr(req, "slots", ()))) == tuple(getattr(req, "slots", ())), \
            "the audited event answers a different request"
        return ev


def test_same_battle_with_the_deck_service_and_a_local_dealer():
    n_cards = Game.new(N).n_cards
    _, peers = make_table(N, n_cards, tag="gog", timeout=30.0)
    dealers = [DeckDealer(d, p) for p, d in enumerate(peers)]
    views = [Game.new(N).view(p) for p in range(N)]

    async def deck_battle():
        def stop_after_first_battle(step, vs):
            if vs[0].battle_winners:
                raise FirstBattleOver()
        with contextlib.suppress(FirstBattleOver):
            await play_in_process(views, dealers, [GoOutGirlBot(p, 10 + p) for p in range(N)],
                                  on_step=stop_after_first_battle)
        return await asyncio.gather(*(d.audit() for d in dealers))

    audited = asyncio.run(deck_battle())
    assert views[0].battle_winners, "the battle finished over the deck service"
    events = [ev for _, ev in audited[0][1]]
    assert all([ev for _, ev in a[1]] == events for a in audited), "every seat audits the same deal"

    full = Game.new(N)

    def stop(st, ev):
        if st.battle_winners:
            raise FirstBattleOver()

    with contextlib.suppress(FirstBattleOver):
        play(full, [GoOutGirlBot(p, 10 + p) for p in range(N)], AuditedDealer(events), views=True,
             on_step=stop)
    assert full.battle_winners == views[0].battle_winners
    assert full.wins == views[0].wins
    for p in range(N):
        seat_view = full.view(p)
        assert seat_view.zones == views[p].zones and seat_view.values == views[p].values
