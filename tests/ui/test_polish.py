"""The small things a person reads: --version, join's exit code, the audit's words, 'rules' that
say how a turn goes, line mode's word wrapping, typed moves, hints that name their option, and
structured choices built from the action model."""

from __future__ import annotations

import asyncio
import io
import random

from typer.testing import CliRunner

from p2pcards import cli
from p2pcards.engine import Decide, Decision, LocalDealer
from p2pcards.games import new_game
from p2pcards.ui.local import PromptHuman, hint_text, wrap
from p2pcards.ui.present import lookup, presenter_for
from p2pcards.ui.text import outcome_words
from tests.games.go_out_girl.rig import setup

runner = CliRunner()


def test_version():
    r = runner.invoke(cli.app, ["--version"])
    assert r.exit_code == 0 and r.output.startswith("p2pcards 0.")


def test_join_exits_non_zero_when_no_table_is_found(monkeypatch):
    import p2pcards.net as net

    async def nothing(*a, **k):
        return None

    monkeypatch.setattr(net, "join_table", nothing)
    r = runner.invoke(cli.app, ["join", "--plain"])
    assert r.exit_code == 1


def test_rules_says_how_a_turn_goes_and_cards_on_request():
    for game, words in (("go-out-girl", "On your turn, either"),
                        ("out-of-this-world", "take the top card of a stack"),
                        ("girl-and-robot", "Then end your turn")):
        r = runner.invoke(cli.app, ["rules", game])
        assert r.exit_code == 0 and words in r.output
        assert r.output.index(words) < r.output.index("House rules")  # the turn first
        r = runner.invoke(cli.app, ["rules", game, "--brief"])
        assert words in r.output and "House rules" not in r.output


def test_the_audit_names_players():
    text = outcome_words({"winner": 0, "wins": [2, 0, 1], "battles": 3}, ["Ann", "Bob", "Cy"])
    assert text == "winner Ann; wins Ann 2, Bob 0, Cy 1; battles 3"
    assert outcome_words({"team": "girl", "winners": [1, 2]}, ["A", "B", "C"]) == \
        "team girl; winners B, C"


def test_help_tables_show_no_bool_placeholders():
    r = runner.invoke(cli.app, ["play", "--help"], terminal_width=140)
    assert r.exit_code == 0 and "<bool>" not in r.output and "--plain" in r.output


def test_line_mode_wraps_by_word():
    line = "  12. " + " ".join(["word"] * 40)
    parts = wrap(line, 60)
    assert all(len(p) <= 60 for p in parts) and len(parts) > 1
    assert all(p.split()[-1] in ("word", "12.") for p in parts)  # no word cut in two
    assert all(p.startswith(" " * 6) for p in parts[1:])  # continuation under the text


def test_line_mode_takes_a_typed_move_and_answers_rules_and_card():
    s, _ = setup(3, {0: "4 4 5 5 6 6 9 G", 1: "7", 2: "3"}, {0: "nerai"}, revealed=(0,))
    view = s.view(0)
    legal = view.legal(0)
    answers = iter(["", "rules", "card guard", "say hi", "play 4 4 5 as 6"])
    out = io.StringIO()
    action = PromptHuman(0, inp=lambda p: next(answers), out=out).decide(view, legal)
    assert action.kind == "play" and action.number == 6
    assert sorted(view.number(view.values[x]) for x in action.slots) == [4, 4, 5]
    text = out.getvalue()
    assert "Not a choice" not in text  # an empty Enter is not an error
    assert "On your turn, either" in text and "Guard: play it on any tableau" in text
    assert "Nobody reads chat in a local game" in text
    assert "The field is empty" in text  # the question says what is decided


class Advice:
    def __init__(self, action):
        self.action = action

    def render(self):
        return "Hint: play Guard\n  Why: saves life"


def test_hints_name_the_option_number():
    s, _ = setup(3, {0: "4 9 G", 1: "7", 2: "3"})
    legal = s.view(0).legal(0)
    g = next(i for i, a in enumerate(legal) if a.kind == "guard")
    assert hint_text(Advice(legal[g]), legal).startswith(f"Hint: option {g + 1}, play Guard")


def decision_with(game, players, want, seeds=range(40)):
    """A seat's view and legal actions at the first decision (from seeded random playouts) where
    ``want(legal)`` holds."""
    for seed in seeds:
        s = new_game(game, players, {"names": ["Ann", "Bob", "Cy"][:players]})
        d, rng = LocalDealer(seed), random.Random(seed)
        for _ in range(3000):
            r = s.pending()
            if r is None:
                break
            if isinstance(r, Decide):
                v = s.view(r.player)
                legal = v.legal(r.player)
                if want(legal):
                    return v, legal
                s.apply(Decision(r.player, rng.choice(legal)))
            else:
                s.apply(d.fulfil(s, r))
    raise AssertionError("no such decision found")


def test_out_of_this_world_passes_are_grouped_by_the_card_passed():
    v, legal = decision_with("out-of-this-world", 3,
                             lambda lg: sum(a.kind == "pass" for a in lg) >= 6)
    p = presenter_for("out-of-this-world")
    entries = p.entries(v, legal)
    assert len(entries) < len(legal)
    groups = [e for e in entries if not e.single]
    assert groups and all(e.label.startswith(("Pass ", "Equip ", "Defeat ", "Spend ")) for e in groups)
    for e in groups:  # a group holds the options it names, and only those
        kinds = {o.action.kind for o in e.options}
        assert len(kinds) == 1
        if e.label.startswith("Pass "):
            gives = {o.action.give for o in e.options}
            assert len({v.card_name(v.values[g]) for g in gives}) == 1
    # every legal action stays reachable
    reach = {o.action for e in entries for o in e.options}
    texts = {p.option_text(v, a) for a in legal}
    assert {p.option_text(v, a) for a in reach} == texts


def test_girl_and_robot_demon_placement_by_depth():
    v, legal = decision_with("girl-and-robot", 3,
                             lambda lg: sum(a.kind == "position" for a in lg) >= 8)
    p = presenter_for("girl-and-robot")
    entries = p.entries(v, legal)
    assert len(entries) <= 4
    tops = [e.label for e in entries if e.single]
    assert any("top" in t for t in tops) and any("bottom" in t for t in tops)
    found = p.match(v, legal, "under 2")
    assert len(found) == 1 and found[0].action.index == len(v.zones["draw"]) - 2
    assert "where do you put the Demon" in p.question(v, v.viewer, legal, "Ann reveals a Demon.")


def test_card_lookup_in_every_game():
    assert lookup(presenter_for("girl-and-robot"), "provoke").startswith("Provoke (")
    assert "Foe" in lookup(presenter_for("out-of-this-world"), "alley cat")
    assert lookup(presenter_for("go-out-girl"), "7").startswith("7: a battle card")
    assert lookup(presenter_for("go-out-girl"), "").startswith("card what?")


def test_networked_prompt_says_whose_turn_and_repeats_the_options():
    from p2pcards.ui.terminal import TerminalPlayer

    s, _ = setup(3, {0: "4 9 G", 1: "7", 2: "3"}, start=1)
    s.config["names"] = ["Ann", "Bob", "Cy"]
    out: list[str] = []
    p = TerminalPlayer(0, who=lambda: ["  seat 1: Ann (you)"], out=out.append)
    p.live = lambda: s.view(0)
    asyncio.run(p.handle("who"))
    assert out[-1] == "Turn: Bob (seat 2) is deciding; the table waits for them."
    out.clear()
    asyncio.run(p.handle("card guard"))
    assert out[-1].startswith("Guard: play it on any tableau")
    mine, _ = setup(3, {0: "4 9 G", 1: "7", 2: "3"}, start=0)
    p.live = lambda: mine.view(0)
    p.view, p._legal = mine.view(0), mine.view(0).legal(0)
    out.clear()
    asyncio.run(p.handle("status"))
    assert "Your options:" in out and out[-1].endswith(mine.view(0).describe(p._legal[-1]))
    asyncio.run(p.handle("who"))
    assert out[-1].startswith("Turn: yours")


def test_a_single_option_is_not_called_a_range():
    """Found in line mode: 'type a number from 1 to 1'."""
    from p2pcards.ui.text import type_a_number

    assert type_a_number(1) == "type 1"
    assert type_a_number(4) == "type a number from 1 to 4"


def test_deal_typed_during_the_game_says_the_cards_are_dealt_not_unknown_command():
    """ux23's walk: a host whose input was not a terminal was dealt without typing 'deal'; typed
    afterwards, 'deal' answered "Unknown command 'deal'", which read as if nothing was dealt."""
    from p2pcards.ui.app import TableApp
    from p2pcards.ui.terminal import TerminalPlayer
    from p2pcards.ui.text import DEALT_ALREADY

    out: list[str] = []
    p = TerminalPlayer(0, out=out.append)
    for word in ("deal", "start", "DEAL"):
        asyncio.run(p.handle(word))
        assert out[-1] == DEALT_ALREADY
        assert "dealt already" in out[-1]

    async def go():
        s, _ = setup(3, {0: "4 9 G", 1: "7", 2: "3"}, start=1)
        view = s.view(0)

        async def driver(app):
            await asyncio.sleep(30)

        app = TableApp("go-out-girl", 0, driver, names=["Ann", "Bob", "Cy"])
        async with app.run_test(size=(100, 30)) as pilot:
            app.show(view)
            await app.handle("deal")
            await pilot.pause()
            assert app.texts.get("notice") == DEALT_ALREADY
    asyncio.run(go())
