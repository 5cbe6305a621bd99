"""Issue 3: "the deck service fulfils the engine's Shuffle, Reveal and Random requests,
interchangeable with the LocalDealer. A test plays the same Go Out Girl battle driven by each and
both finish legally."

The battle is played by three in-process peers with the mental-poker deck (v2), then by the same
bots on one full-information state driven through ``engine.play`` by a local dealer. Both finish
legally; every seat's end-of-game step agrees on the record, each seat's own events replay on its
view, and a passive listener holding every deck message of the battle decodes no card that was
not opened to everyone (issue 11)."""

from __future__ import annotations

import asyncio
import contextlib

from p2pcards.bots.go_out_girl import GoOutGirlBot
from p2pcards.deck_dealer import DeckDealer
from p2pcards.engine import Decide, LocalDealer, play
from p2pcards.games.go_out_girl import Game

from .deck_helpers import listener_reads, make_table
from .inproc import play_in_process

N = 3


class FirstBattleOver(Exception):
    pass


def test_same_battle_with_the_deck_service_and_a_local_dealer():
    n_cards = Game.new(N).n_cards
    hub, peers = make_table(N, n_cards, tag="gog", timeout=60.0)
    dealers = [DeckDealer(d, p) for p, d in enumerate(peers)]
    views = [Game.new(N).view(p) for p in range(N)]
    steps = []

    async def deck_battle():
        def stop_after_first_battle(step, vs):
            steps.append(step)
            if vs[0].battle_winners:
                raise FirstBattleOver()
        with contextlib.suppress(FirstBattleOver):
            await play_in_process(views, dealers, [GoOutGirlBot(p, 10 + p) for p in range(N)],
                                  on_step=stop_after_first_battle)
        return await asyncio.gather(*(d.audit() for d in dealers))

    ended = asyncio.run(deck_battle())
    assert views[0].battle_winners, "the battle finished over the deck service"
    assert len({digest for digest, _ in ended}) == 1, "every seat holds the same public record"
    for p, (_, pairs) in enumerate(ended):  # each seat's own events replay on its view
        view = Game.new(N).view(p)
        it = iter(ev for _, ev in pairs)
        for st in steps:
            view.apply(st.events[0] if isinstance(st.request, Decide) else next(it))
        assert view.zones == views[p].zones and view.values == views[p].values

    reads = listener_reads(peers[0].params, [(s, b) for s, to, t, b in hub.log if t == "deck"])
    assert reads["private"], "the battle dealt cards privately"
    assert all(c is None for _, _, c in reads["private"])
    assert all(c is not None for _, _, c in reads["public"])

    full = Game.new(N)

    def stop(st, ev):
        if st.battle_winners:
            raise FirstBattleOver()

    with contextlib.suppress(FirstBattleOver):
        play(full, [GoOutGirlBot(p, 10 + p) for p in range(N)], LocalDealer(7), views=True,
             on_step=stop)
    assert full.battle_winners, "the same battle finishes with a local dealer"
