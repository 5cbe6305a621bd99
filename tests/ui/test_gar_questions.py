"""The Girl and the Robot at the plain prompt (walk-through ux20, on a LAN): a player holding no
Cancel Action was asked "let it resolve, or answer it with Cancel Action?" with one option, "let
it resolve", and questions began in lower case ("which way does play go now?") where nothing
came before them. Rulebook: "Cancel Action: ... You may play this card at any time", so every
player is asked about every Action card, holding one or not."""

from __future__ import annotations

from p2pcards.engine import Action
from p2pcards.ui.present import presenter_for
from tests.games.girl_and_robot.test_rules import Table, rig

P = presenter_for("girl-and-robot")


def test_a_player_without_cancel_action_is_told_so_and_questions_start_as_sentences():
    g = rig(["girl", "robot", "queen", "shadow"], hands={0: ["scout"], 3: ["cancel_action"]},
            draw=["*"] * 6)
    t = Table(g)
    t.play(0, "scout")
    assert g.phase == "respond"
    p = t.decider()
    view = g.view(p)
    legal = view.legal(p)
    assert {a.kind for a in legal} == {"pass"}, legal  # seat 2 holds no Cancel Action
    assert P.question(view, p, legal, "alice plays Scout.") == \
        "alice plays Scout: let it resolve (you hold no Cancel Action to answer it with)."
    assert P.question(view, p, legal, None) == \
        "Let it resolve (you hold no Cancel Action to answer it with)."
    # one who holds one is asked as before
    both = [Action("pass"), Action("cancel", slot=1)]
    assert P.question(view, p, both, "Bot 2 plays Peace Treaty.") == \
        "Bot 2 plays Peace Treaty: let it resolve, or answer it with Cancel Action?"
    assert P.question(view, p, both, None) == "Let it resolve, or answer it with Cancel Action?"
    assert P.question(view, p, [Action("direction", d=1)], None) == "Which way does play go now?"


def test_the_plain_prompt_names_what_triggered_the_question():
    """The plain prompt asked "let it resolve, or answer it with Cancel Action?" naming no card:
    the full-screen table names the table's last line about someone else, and now so does the
    prompt ("alice plays Scout: let it resolve ...")."""
    import asyncio

    from p2pcards.ui.terminal import TerminalPlayer

    g = rig(["girl", "robot", "queen", "shadow"], hands={0: ["scout"], 3: ["cancel_action"]},
            draw=["*"] * 6)
    t = Table(g)
    t.play(0, "scout")
    p = t.decider()  # seat 2, asked first
    view = g.view(p)
    legal = view.legal(p)
    said: list[str] = []

    async def go():
        player = TerminalPlayer(p, out=said.append)
        player.name = "dave"
        for line in ("alice plays Scout.", "dave (seat 4): hm", "** carol is away"):
            player.heard(line)  # (a chat line of one's own, a notice: no trigger)
        player.heard("dave draws a card.")
        deciding = asyncio.create_task(player.decide(view, legal))
        await asyncio.sleep(0)
        await player.handle("1")
        await asyncio.wait_for(deciding, 5)

    asyncio.run(go())
    assert "alice plays Scout: let it resolve (you hold no Cancel Action to answer it with)." \
        in said, said


def test_a_card_asked_for_says_where_it_goes():
    """ux21, on a LAN: bob was asked "bot1 plays Peace Treaty: which card?", not told that the
    card goes onto the Draw Pile, not to bot1. Rulebook: "Peace Treaty: Each player chooses 1 card
    from their hand if they can. Shuffle these cards and place them on top of the Draw Pile."
    "Trade: Choose another player. Each of you chooses a card from your hand if you can, then
    gives it to the other player." """
    from tests.games.girl_and_robot.gar_rig import Table as Rig
    from tests.games.girl_and_robot.gar_rig import rig as gar

    g = gar(["girl", "robot", "queen"], hands={0: ["peace_treaty", "steal"], 2: ["trade", "ap1"]},
            draw=["demon", "*"])
    t = Rig(g)
    t.play(0, "peace_treaty")
    t.pass_all()
    view = g.view(0)
    assert P.question(view, 0, view.legal(0), "Ann plays Peace Treaty.") == (
        "Ann plays Peace Treaty: which card goes on top of the Draw Pile? (Peace Treaty: every "
        "player's card is shuffled there)")

    g = gar(["girl", "robot", "queen"], hands={0: ["trade", "steal"], 2: ["spy", "ap2"]},
            draw=["*"] * 5)
    g.config["names"] = ["Ann", "Rob", "Queenie"]
    t = Rig(g)
    t.play(0, "trade", target=2)
    t.pass_all()
    view = g.view(0)
    assert P.question(view, 0, view.legal(0), None) == \
        "Which card do you give Queenie? (Trade: they then give you one)"
    t.act(0, "choose", slot=t.slot("steal", "hand0"))
    view = g.view(2)
    assert P.question(view, 2, view.legal(2), None) == \
        "Which card do you give Ann in return? (Trade)"


def test_cards_shown_by_your_ally_stay_named_on_your_screen():
    """ux21, on a LAN: carol showed her whole hand to bob, her ally; bob's prompt said "carol
    shows 3 cards to bob." and never which (nor did 'status'). Rulebook: "They can talk and show
    their cards to each other during the game." The cards shown are named on the ally's seat
    line for as long as they stay in that hand, and on nobody else's."""
    from p2pcards.engine import Action as A
    from tests.games.girl_and_robot.gar_rig import Table as Rig
    from tests.games.girl_and_robot.gar_rig import rig as gar

    g = gar(["girl", "robot", "queen", "shadow"], hands={0: ["steal", "scout", "ap2"]})
    g.config["names"] = ["Ann", "Rob", "Queenie", "Shade"]
    t = Rig(g)
    steal, scout = t.slot("steal", "hand0"), t.slot("scout", "hand0")
    t.do(0, A("show", slots=[steal, scout]))
    ally = next(line for line in t.views[1].status(1) if line.startswith("  Ann:"))
    assert "· 3 cards (you know: " in ally, ally
    assert sorted(ally.split("(you know: ")[1].split(")")[0].split(", ")) == ["Scout", "Steal"]
    other = next(line for line in t.views[2].status(2) if line.startswith("  Ann:"))
    assert "you know" not in other
    own = next(line for line in t.views[0].status(0) if line.startswith("  Ann (you):"))
    assert "you know" not in own


def test_the_card_drawn_is_named_when_it_is_declared():
    """ux21, on a LAN: bob's prompt asked "You drew a card: is it a Demon? Declare it." with
    one option, "keep the card (it is not a Demon)", and named no card (he looked for it in
    his hand). Rulebook: "If you draw a Demon card, reveal it to everyone!" """
    from tests.games.girl_and_robot.gar_rig import Table as Rig
    from tests.games.girl_and_robot.gar_rig import rig as gar

    for top, want in (("*", "not a Demon, so you keep it (the others learn only that)."),
                      ("demon", "You drew a Demon: reveal it to everyone.")):
        g = gar(["girl", "queen"], hands={0: ["ap1"]}, draw=["*", "*", top])
        t = Rig(g)
        t.act(0, "end", draw=1)
        assert g.phase == "drawn" and t.decider() == 0
        view = g.view(0)
        q = P.question(view, 0, view.legal(0), None)
        assert q.endswith(want), q
        if top == "*":
            drawn = view.slot_name(view.task["slot"])
            assert q == f"You drew {drawn}: {want}"


def test_at_the_plain_prompt_enter_takes_the_only_option():
    """ux21, on a LAN: at the plain prompt every player is asked about every Action card (see
    above), and one holding no Cancel Action typed "1" for each: Enter did nothing. Enter now
    takes a question's only option, and the options say so; with two options it still does
    nothing."""
    import asyncio

    from p2pcards.ui.terminal import ONLY_ONE, TerminalPlayer

    g = rig(["girl", "robot", "queen", "shadow"], hands={0: ["scout"], 3: ["cancel_action"]},
            draw=["*"] * 6)
    t = Table(g)
    t.play(0, "scout")
    p = t.decider()  # seat 2, holding no Cancel Action
    said: list[str] = []
    feed: asyncio.Queue[str] = asyncio.Queue()

    async def source():
        while True:
            yield await feed.get()

    async def go(view, legal, seat):
        player = TerminalPlayer(seat, lines=source(), out=said.append)
        typing = asyncio.create_task(player.run_input())
        deciding = asyncio.create_task(player.decide(view, legal))
        while "Your options:" not in said:
            await asyncio.sleep(0.01)
        await feed.put("")
        try:
            return await asyncio.wait_for(asyncio.shield(deciding), 0.5)
        except TimeoutError:
            return None
        finally:
            typing.cancel()
            deciding.cancel()

    view = g.view(p)
    (only,) = view.legal(p)
    assert asyncio.run(go(view, [only], p)) == only
    assert said[said.index("Your options:") + 2] == ONLY_ONE
    said.clear()
    two = [Action("pass"), Action("cancel", slot=1)]
    assert asyncio.run(go(view, two, p)) is None
    assert ONLY_ONE not in said


def test_a_new_turn_is_no_trigger_for_the_question_on_it():
    """ux21, on a LAN: carol played Trade on her own turn and was asked "— Turn 2: carol (the
    Evil Queen): which card do you give alice? ...": the turn's heading named as what triggered
    the question. A heading starts afresh, on the screen and at the plain prompt."""
    import asyncio

    from p2pcards.ui.app import TableApp
    from p2pcards.ui.terminal import TerminalPlayer

    heard = ["bob draws a card.", "— Turn 2: carol (the Evil Queen).", "carol plays Trade → alice.",
             "(you, to alice only): here it comes"]
    player = TerminalPlayer(3)
    player.name = "carol"
    for line in heard:
        player.heard(line)
    assert player.last_other_line is None

    async def go():
        app = TableApp("girl-and-robot", 3, None, names=["bob", "x", "alice", "carol"])
        async with app.run_test(size=(100, 30)):
            app.write_log(["alice plays Scout.", "** alice is away; the table waits"])
            kept = app.last_other_line
            app.write_log(heard)
            return kept, app.last_other_line
    assert asyncio.run(go()) == ("alice plays Scout.", None)


def test_manipulate_says_a_face_up_card_on_top_stays_there():
    """ux21, on a LAN: alice played Manipulate with Magic Mirror face up on top of the Draw Pile;
    she was shown the two face-down cards under it and told "the last position is the top card,
    drawn first" -- but Magic Mirror stays on top (a face-up card stays where it lies). Rulebook:
    "Manipulate: Look at the top 3 cards of the Draw Pile, then put them back face down in an
    order of your choice." """
    from tests.games.girl_and_robot.gar_rig import rig as gar

    g = gar(["girl", "queen"], hands={0: ["manipulate"]}, draw=["*"] * 5)
    draw = g.zones["draw"]
    g.faceup.append(draw[-1])
    view = g.view(0)
    top = view.slot_name(draw[-1])
    prompt = view.arrangement_prompt(0, tuple(draw[-3:-1]))
    assert "the top card, drawn first" not in prompt
    assert prompt.endswith(f"a face-up card stays where it lies: {top} (on top).")
    # none face up: as before
    plain = gar(["girl", "queen"], hands={0: ["manipulate"]}, draw=["*"] * 5)
    assert plain.arrangement_prompt(0, tuple(plain.zones["draw"][-3:])).endswith(
        "the last position is the top card, drawn first.")
