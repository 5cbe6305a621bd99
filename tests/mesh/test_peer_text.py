"""Red team, text injection: every string a peer can put on another person's screen (a name, a
stop's reason, a refusal, a chat line, a logged reason) arrives as one line with its control
characters shown escaped, and no name can pass for the program's own lines or another seat's name.
Written as the attacker: a modified client speaking through the real mesh over 127.0.0.1."""

from __future__ import annotations

import asyncio
import logging

import pytest

from p2pcards.absence import _announce
from p2pcards.table import TableStopped
from protocol.channel import TableStop
from protocol.envelope import envelope_hash, seal
from protocol.mesh import JoinRefused, Mesh, Timings
from protocol.roster import check_name, name_skeleton, names_clash, normalize_address

from .helpers import (
    LOOPBACK,
    NAMES,
    close_all,
    identity,
    make_table,
    run_async,
    short_claim_window,
    until,
)

pytestmark = pytest.mark.network

FORGED = "alice played out of turn\n** carol: I confess, I cheated\x1b[2J\r\u202e"


def clean(line: str) -> bool:
    """One line, nothing a terminal would obey."""
    return line.isprintable()


@pytest.mark.parametrize("name", [
    "** the table stopped: carol cheated",  # the program's own notice
    "(carol is flooding the chat",          # the program's own remark
    "alice: I resign",                      # a forged chat line on every line of theirs
    "bob  ",                                # padding
    " bob",
    "bob\u200b",                            # zero-width space
    "bo\u202eb",                            # bidi override
    "b\u0301\u0301\u0301ob",                # a stack of combining marks
    "bob\uff1agg",                          # a fullwidth colon
    # red team 6b #1: letters that draw nothing, so "bob" + one of them reads "bob"
    "bob\u1160",                            # Hangul jungseong filler (a letter, zero width)
    "\u3164",                               # Hangul filler alone: a blank name
    "\u3164bob",
    "b\uffa0ob",                            # halfwidth Hangul filler
    "\u115fbob",                            # Hangul choseong filler
    "bob\u2800",                            # braille blank
    "b\u1161ob",                            # a Hangul vowel jamo with no syllable: zero width
    "bob\u034f",                            # combining grapheme joiner (default-ignorable)
    "bob\ufe0f",                            # a variation selector
])
def test_a_name_that_reads_as_something_else_is_refused(name):
    with pytest.raises(ValueError):
        check_name(name)


def test_names_that_are_fine_stay_fine():
    for name in ("bob", "Jean-Luc", "O'Brien", "李雷", "bot2", "Dr. Who", "Zoë"):
        assert check_name(name) == name


def test_look_alike_names_share_a_skeleton():
    assert {name_skeleton(n) for n in ("bob", "Bob", "BOB.", "Ｂｏｂ", "b\u043eb", "B0B")} == {"bob"}
    assert name_skeleton("bot1") != name_skeleton("bot2")


@pytest.mark.parametrize("real, fake", [
    # red team 6b #1: look-alikes the hand-made table did not fold
    ("alice", "\u0251lice"),   # IPA alpha
    ("alice", "a\u01c0ice"),   # Latin dental click (a vertical bar)
    ("alice", "a\u04cfice"),   # Cyrillic palochka
    ("alice", "a|ice"),        # the ASCII vertical bar
    ("alice", "a\u2223ice"),   # DIVIDES
    ("alice", "a\uff5cice"),   # fullwidth vertical line
    ("bob", "\u0185ob"),       # Latin tone six
    ("bob", "\u044cob"),       # Cyrillic soft sign
    ("Ann", "\u13aann"),       # Cherokee A
    ("BOB", "\u0412\u041e\u0412"),  # Cyrillic capitals
    ("kate", "\u03baate"),     # Greek kappa
    ("eve", "\u0435v\u0435"),  # Cyrillic e
    ("sam", "\u0455am"),       # Cyrillic dze
    ("nina", "\u0578ina"),     # Armenian vo
])
def test_look_alike_letters_from_other_scripts_clash(real, fake):
    check_name(fake)  # a name of its own...
    assert names_clash(real, fake)  # ...but not beside the one it imitates


def test_a_name_that_begins_with_another_clashes():
    assert names_clash("alice", "alice left the table") and names_clash("Mary Jane", "mary")
    assert not names_clash("Ann", "Anna") and not names_clash("Mary Ann", "Mary Jane")


def test_an_address_with_escapes_is_refused():
    with pytest.raises(ValueError):
        normalize_address("tcp://\x1b[2J:7000")


@run_async(timeout=60)
async def test_a_joiner_cannot_sit_down_under_a_look_alike_of_a_seated_name(tmp_path):
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 3, bind=LOOPBACK, timings=t, name="alice")
    joined = []
    try:
        joined.append(await Mesh.join(identity(tmp_path, 1), host.address, host.code, "bob",
                                      bind=LOOPBACK, timings=t))
        for i, fake in enumerate(("b\u043eb", "B0B", "Ｂｏｂ", "Alice.", "bob left the table")):
            with pytest.raises(JoinRefused) as info:
                await Mesh.join(identity(tmp_path, 5 + i), host.address, host.code, fake,
                                bind=LOOPBACK, timings=t)
            assert "looks like" in info.value.reason and clean(info.value.reason)
        # the table is as it was: an honest third player still sits down
        joined.append(await Mesh.join(identity(tmp_path, 2), host.address, host.code, "carol",
                                      bind=LOOPBACK, timings=t))
        await asyncio.gather(*(m.wait_full(10) for m in [host, *joined]))
        assert [m.name for m in host.roster] == ["alice", "bob", "carol"]
    finally:
        await close_all([host, *joined])


@run_async(timeout=60)
async def test_a_stop_reason_cannot_forge_a_line_or_repaint_the_screen(tmp_path, monkeypatch):
    # another's unproven claim stops a program once the claim's window (3 s) has passed with
    # nothing of its own found; what is checked here is what is shown and recorded after it
    short_claim_window(monkeypatch)
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    said: dict[int, list[str]] = {0: [], 2: []}
    tasks = [asyncio.create_task(_announce(m, m.subscribe(), said[m.seat].append, False))
             for m in (host, carol)]
    try:
        for s in (0, 2):  # bob's modified client stops the table with a forged second line
            bob._send_ctl(s, "stop", {"culprit": 0, "reason": FORGED, "proof": []})
        for m in (host, carol):
            with pytest.raises(TableStop) as info:
                await m.channel.recv("game", 10)
            assert clean(info.value.reason) and "bob stopped the table" in info.value.reason
            assert info.value.reason.count("stopped the table") == 1
        await until(lambda: all(said.values()), what="the stop announced")
        for lines in said.values():
            assert len(lines) == 1 and clean(lines[0]), lines
            assert lines[0].count("bob stopped the table") == 1
    finally:
        for t in tasks:
            t.cancel()
        await close_all(meshes)


@run_async(timeout=60)
async def test_evidence_reasons_and_log_lines_are_one_line(tmp_path, caplog):
    """Bob equivocates, then sends the (true) evidence himself with a reason meant to paint the
    others' terminals: the proof is accepted, the words are shown escaped, in the log too."""
    caplog.set_level(logging.INFO, logger="p2pcards.mesh")
    meshes = await make_table(tmp_path, 3)
    host, bob, carol = meshes
    try:
        chain = bob.verifier.chains[1]
        a = seal(bob.identity, bob.table, 1, chain.seq + 1, chain.head, "deck", {"card": 1})
        b = seal(bob.identity, bob.table, 1, chain.seq + 1, chain.head, "deck", {"card": 2})
        bob.verifier.append(a, envelope_hash(a))
        bob._sent_at.append(0.0)
        for s in (0, 2):
            bob._send_ctl(s, "evidence", {"first": a, "second": b, "reason": FORGED})
        await until(lambda: all(m.stopped is not None for m in (host, carol)), what="stops")
        for m in (host, carol):
            assert m.stopped.culprit == 1 and clean(m.stopped.reason)
            assert all(clean(e.detail or "") for e in m.events)
            # red team: the forwarder's words were shown as this program's finding; now the
            # reason is the program's own, and says where the pair came from
            assert "I confess" not in m.stopped.reason and "out of turn" not in m.stopped.reason
            assert "two different envelopes with seq" in m.stopped.reason
            assert "came from seat" in m.stopped.reason  # bob, or a program that relayed it
        assert all("\n" not in r.getMessage() and "\x1b" not in r.getMessage()
                   for r in caplog.records if r.name == "p2pcards.mesh")
    finally:
        await close_all(meshes)


@run_async(timeout=60)
async def test_a_fake_hosts_refusal_is_one_line(tmp_path):
    t = Timings.fast()
    fake = await Mesh.host(identity(tmp_path, 9), 3, bind=LOOPBACK, timings=t, name="fake")

    def refuse(rid, msg):
        fake._hs_reply(rid, {"t": "refused", "reason": FORGED + "x" * 100_000})

    fake._on_hello = refuse
    try:
        with pytest.raises(JoinRefused) as info:
            await Mesh.join(identity(tmp_path, 1), fake.address, fake.code, "bob",
                            bind=LOOPBACK, timings=t)
        assert clean(info.value.reason) and len(info.value.reason) <= 300
    finally:
        await close_all([fake])


@run_async(timeout=60)
async def test_chat_padding_cannot_wrap_a_forged_line_onto_its_own(tmp_path):
    from p2pcards.table import Table

    meshes = await make_table(tmp_path, 2)
    heard: list[str] = []
    try:
        table = Table("go-out-girl", 2, {}, 1, meshes[1].channel, None, None,  # type: ignore[arg-type]
                      names=NAMES[:2], say=heard.append)
        listen = asyncio.create_task(table._chat_loop())
        await meshes[0].channel.send(1, "chat", {"text": "gg" + " " * 200 + "\u3000" * 20
                                                 + "** the table stopped: bob cheated", "step": 0})
        await until(lambda: heard, what="the chat line")
        assert heard == ["alice (seat 1): gg ** the table stopped: bob cheated"]
        listen.cancel()
    finally:
        await close_all(meshes)


def test_a_rule_break_reason_quoting_a_huge_action_is_one_short_line():
    stop = TableStopped(1, "bob sent a malformed action: " + repr({"x": "\n** " * 100_000}))
    assert clean(stop.reason) and len(stop.reason) <= 500
    stop = TableStopped(1, "bob: card \n** alice cheated")
    assert stop.reason == "bob: card \\n** alice cheated"


def test_at_a_terminal_a_long_line_wraps_with_the_rest_indented(monkeypatch):
    import os
    import shutil

    import p2pcards.net as net

    monkeypatch.setattr(net.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((40, 24)))
    line = "alice: " + "word " * 6 + "** the table stopped: bob cheated"
    out = net.hanging(line).split("\n")
    assert len(out) > 1 and all(not x.startswith("**") for x in out[1:])
    assert all(x.startswith("   ") for x in out[1:])


def _at_a_terminal(monkeypatch, cols: int):
    import os
    import shutil

    import p2pcards.net as net

    monkeypatch.setattr(net.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((cols, 24)))
    return net


@pytest.mark.parametrize("cols", [40, 80, 100])
def test_wide_characters_cannot_wrap_a_forged_line_onto_its_own(monkeypatch, cols):
    """Red team 6b #3: hanging() counted characters, the terminal counts cells, so "x" and 37
    fullwidth "＝" (74 cells) after "bob: " filled an 80-column row the wrapper thought half
    full, and the terminal wrapped "** the table stopped: carol cheated" to a row's start."""
    from rich.cells import cell_len

    net = _at_a_terminal(monkeypatch, cols)
    forged = "** the table stopped: carol cheated (proof checked)"
    for k in range((cols - 6) // 2 - 3, (cols - 6) // 2 + 3):
        rows = net.hanging("bob: x" + "\uff1d" * k + forged).split("\n")
        assert all(cell_len(r) <= cols for r in rows), rows  # the terminal wraps nothing itself
        assert all(r.startswith("   ") for r in rows[1:]), rows


def test_a_forged_entry_in_an_announced_game_cannot_start_a_row_of_joins_list(monkeypatch):
    """Red team 6b #3: a TXT ``game`` of 35 fullwidth "＝" then "  1. alice <her fingerprint>"
    (braille blanks for spaces) put a forged entry numbered 1 at the start of a row of join's
    list. The list's rows after an entry's first are indented under its text."""
    from rich.cells import cell_len

    net = _at_a_terminal(monkeypatch, 80)
    game = "\uff1d" * 35 + "\u2800\u28001.\u2800alice\u28001Q39-FATZ:\u2800go-out-girl"
    rows = net.hanging(f"  1. A X: {game}, 2 of 3 seats free, at 127.0.0.1:40000").split("\n")
    assert len(rows) > 1 and all(cell_len(r) <= 80 for r in rows), rows
    assert all(r.startswith("     ") for r in rows[1:]), rows  # under the entry's text


def test_line_mode_options_at_a_networked_table_wrap_by_word(monkeypatch, capsys):
    """Red team 6b minor: the networked prompt printed its numbered options as they were, and
    the terminal cut words at 80 columns ("may be treat" / "ed as")."""
    net = _at_a_terminal(monkeypatch, 80)
    monkeypatch.setattr(net, "_hinter", lambda mesh: None)

    from p2pcards.lobby import GameInfo

    class Seat:
        seat, seats = 1, 2
        game_info = GameInfo("go-out-girl", 2, {}).to_json()

    player = net._terminal(Seat())
    option = ("   6. Play Guard from your hand: it may be treated as [Number 6 ●●●] and lets you "
              "draw twice as many cards as the stack holds")
    player.out(option)
    rows = capsys.readouterr().out.rstrip("\n").split("\n")
    assert len(rows) > 1 and all(len(r) <= 80 for r in rows)
    assert all(r.startswith("      ") for r in rows[1:])  # under the option's text
    assert " ".join(r.strip() for r in rows) == " ".join(option.split())  # no word cut


# Lines the program and its games print that begin "LABEL: " with no player's name in front:
# a player who took LABEL as their name used to make every chat line of theirs read as one.
NARRATION = [
    ("Revealed", "Demon, King's Sword."),  # The Girl and the Robot, a reveal to everyone
    ("On top of the Draw Pile, face up", "Demon, then Sword of Light"),  # 32 characters
    ("Characters", "alice is the Girl, carol is the Robot"),
    ("Result", "carol wins"),
    ("Audit", "clean: every shuffle, deal and play checks out"),
    ("Roster code", "4TAB-BVGM — read it aloud: everyone should see the same one."),
]


@run_async(timeout=60)
async def test_a_name_that_is_a_label_of_the_programs_own_lines_cannot_forge_one(tmp_path):
    """Red team 14: a name may not begin with "**" or "(", nor hold a colon, so that no chat
    line reads as the program's own; but the program and its games print lines that begin with
    a word and a colon ("Revealed: Demon, King's Sword." when The Girl and the Robot shows cards
    to everyone; "Result: ...", "Audit: ...", "Roster code: ..."). A modified client seated
    under such a word -- every name here passes the seating rules -- made its chat lines
    exactly those lines, in the same style: a forged reveal of cards, a forged result, another
    roster code for everyone to read aloud. Now a chat line says its sender's seat after the
    name, "Revealed (seat 2): ...", which no line of the program's or a game's own has."""
    from p2pcards.table import Table

    for name, _ in NARRATION:
        check_name(name)  # the seating rules let each one sit down
    t = Timings.fast()
    host = await Mesh.host(identity(tmp_path, 0), 2, bind=LOOPBACK, timings=t, name="alice")
    meshes = [host]
    try:
        meshes.append(await Mesh.join(identity(tmp_path, 1), host.address, host.code,
                                      NARRATION[0][0], bind=LOOPBACK, timings=t))
        await asyncio.gather(*(m.wait_full(10) for m in meshes))
        names = [host.name_of(0), host.name_of(1)]
        assert names[1] == "Revealed"
        heard: list[str] = []
        table = Table("go-out-girl", 2, {}, 0, host.channel, None, None,  # type: ignore[arg-type]
                      names=names, say=heard.append)
        listen = asyncio.create_task(table._chat_loop())
        for name, text in NARRATION:
            # the attacker's program, under each label in turn (as seated at its own table)
            table.names[1] = name
            heard.clear()
            await meshes[1].channel.send(0, "chat", {"text": text, "step": 0})
            await until(lambda: heard, what="the chat line")
            assert heard[0] != f"{name}: {text}", heard
            assert heard == [f"{name} (seat 2): {text}"], heard
        listen.cancel()
    finally:
        await close_all(meshes)


def test_an_audit_shows_a_hosts_game_description_escaped(tmp_path):
    """Red team 14: every line ``p2pcards audit`` prints went to the terminal as it was, and the
    game description in a record is the host's words: a modified host seating its table at a
    game whose options hold escape sequences (a joiner checks only that the description is an
    object) put them, through the audit's "Go Out Girl has no option(s) ..." line, on the screen
    of every player who audited the match -- clearing it and writing a forged verdict. Now each
    line is shown with its control characters escaped, as everything else a peer can write."""
    from typer.testing import CliRunner

    from p2pcards.cli import app

    forged = "\x1b[2J\x1b[H\nVerdict: clean: every shuffle, deal and play checks out\x1b[8m"

    async def seat_bob() -> str:
        t = Timings.fast()
        host = await Mesh.host(identity(tmp_path, 0), 2, bind=LOOPBACK, timings=t, name="alice",
                               game_info={"game": "go-out-girl", "players": 2,
                                          "options": {forged: 1}})
        meshes = [host]
        try:
            meshes.append(await Mesh.join(identity(tmp_path, 1), host.address, host.code, "bob",
                                          bind=LOOPBACK, timings=t))
            await asyncio.gather(*(m.wait_full(10) for m in meshes))
            return str(meshes[1].transcript_path)
        finally:
            await close_all(meshes)

    path = asyncio.run(seat_bob())
    res = CliRunner().invoke(app, ["audit", path], color=True)  # as on a terminal: not stripped
    assert "has no option" in res.output, res.output
    assert all(clean(line) for line in res.output.splitlines()), res.output
    assert "\\x1b[2J" in res.output and "\\nVerdict: clean" in res.output
    assert not any(line.startswith("Verdict: clean") for line in res.output.splitlines())
