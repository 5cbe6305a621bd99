"""The heuristic bot: it plays from its own view only, beats random play, and makes the
team moves it is meant to make."""

from __future__ import annotations

from p2pcards.bots.base import RandomBot
from p2pcards.bots.girl_and_robot import GirlAndRobotBot
from p2pcards.bots.registry import make_bot
from p2pcards.engine import Action, LocalDealer, RandomValue, play
from p2pcards.games import new_game

from .gar_rig import Table, rig


def test_registered_as_easy():
    assert isinstance(make_bot("girl-and-robot", 1, "easy", 3), GirlAndRobotBot)


def test_decides_from_its_own_copy():
    """Each bot keeps its own copy, fed only what its seat may see, and decides from it."""
    for n in (2, 3, 4):
        for seed in range(3):
            st = new_game("girl-and-robot", n, {"euro": seed == 1})
            final = play(st, [GirlAndRobotBot(p, seed) for p in range(n)], LocalDealer(seed), views=True)
            assert final.outcome() is not None


def test_beats_random_play():
    """A team of heuristic bots against a team of random bots, 4 players, sides alternating."""
    wins = games = 0
    for seed in range(40):
        st = new_game("girl-and-robot", 4)
        st.apply(RandomValue(seed % 16))  # the seating
        smart = seed % 2
        agents = [GirlAndRobotBot(p, seed) if st.team[p] == smart else RandomBot(p, seed)
                  for p in range(4)]
        final = play(st, agents, LocalDealer(seed))
        games += 1
        wins += final.winner == smart
    assert wins >= 0.75 * games, f"the heuristic team won only {wins} of {games}"


def bot_choice(t: Table, p: int) -> Action:
    return GirlAndRobotBot(p, 0).decide(t.views[p], t.legal(p))


def test_escapes_a_face_up_demon_without_a_weapon():
    g = rig(["girl", "queen"], hands={0: ["evade", "steal"], 1: ["spy"]},
            draw=["*", "*", "demon"], faceup=[2], weapons={0: []})
    t = Table(g)
    a = bot_choice(t, 0)
    assert a.kind == "play" and a.card == "evade"


def test_places_a_demon_where_an_opponent_draws():
    """After defeating a Demon at the end of its turn, the Girl puts it on top: the Queen draws
    next."""
    g = rig(["girl", "queen"], draw=["*", "*", "*", "demon"])
    t = Table(g)
    t.end(0)
    t.act(0, "demon")
    t.act(0, "defend", weapon=g.weapons(0)[0])
    assert bot_choice(t, 0) == Action("position", index=len(g.zones["draw"]))
    # in a 4-player game with the ally next, the Demon goes one card deeper
    g4 = rig(["girl", "robot", "queen", "shadow"], draw=["*", "*", "*", "demon"])
    t4 = Table(g4)
    t4.end(0)
    t4.act(0, "demon")
    t4.act(0, "defend", weapon=g4.weapons(0)[0])
    assert bot_choice(t4, 0) == Action("position", index=len(g4.zones["draw"]) - 1)


def test_cancels_a_steal_aimed_at_its_team():
    g = rig(["girl", "robot", "queen"], hands={2: ["steal"], 1: ["cancel_action"], 0: ["spy"]},
            draw=["*"] * 4, turn=2)
    t = Table(g)
    t.play(2, "steal", target=0)
    assert t.decider() == 0
    t.act(0, "pass")
    assert bot_choice(t, 1).kind == "cancel"


def test_lets_its_allys_action_resolve():
    g = rig(["girl", "robot", "queen"], hands={0: ["steal"], 1: ["cancel_action"], 2: ["spy"]},
            draw=["*"] * 4)
    t = Table(g)
    t.play(0, "steal", target=2)
    assert bot_choice(t, 1) == Action("pass")


def test_manipulates_a_demon_to_the_opponents_draw():
    """As the Girl's ally, before her draw, the Robot who knows the top card is a Demon plays
    Manipulate and arranges the three cards so that the Demon is the Queen's (turn order Girl,
    Robot, Queen)."""
    g = rig(["girl", "robot", "queen"], hands={1: ["manipulate"]},
            draw=["*", "*", "*", "*", "demon"], weapons={0: []})
    top = g.zones["draw"][-1]
    g.known[top] |= 1 << 1  # the Robot has scouted it
    bot = GirlAndRobotBot(1, 0)
    t = Table(g, arrange=lambda by, slots: bot.arrange(t.views[by], slots))
    t.act(0, "end", draw=1)
    assert g.phase == "ally"
    a = bot.decide(t.views[1], t.legal(1))
    assert a.kind == "play" and a.card == "manipulate"
    t.do(1, a)
    t.pass_all()
    # the Girl draws the top card, the Robot the next, the Queen the third
    assert t.top(3)[2] == "demon" and "demon" not in t.top(3)[:2]
