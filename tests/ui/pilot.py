"""Helpers for driving the full-screen table with Textual's Pilot, as a person would."""

from __future__ import annotations

import re

from textual.widgets import OptionList, Static

from p2pcards.ui.app import TableApp

PANELS = ("status", "seats", "shared", "hand", "question", "notice", "talk")


FRAME = re.compile("[\u2580-\u259f\u2500-\u257f]")  # borders and scrollbars


def screen_lines(app: TableApp) -> list[str]:
    """The whole screen as text, as a person sees it."""
    return [s.text for s in app.screen._compositor.render_strips()]


def rendered(app: TableApp, wid: str) -> list[str]:
    """The lines a panel shows on screen now (after wrapping to its width), borders left out."""
    w = app.query_one(f"#{wid}")
    geo = app.screen._compositor.full_map.get(w)
    if geo is None:
        return []
    r = geo.region.intersection(geo.clip)  # the part not scrolled out of its panel
    strips = app.screen._compositor.render_strips()
    return [FRAME.sub(" ", strips[y].crop(r.x, r.right).text)
            for y in range(r.y, min(r.bottom, len(strips)))]


def words(text: str) -> set[str]:
    return set(re.findall(r"\S+", FRAME.sub(" ", text)))


def broken_words(app: TableApp) -> list[str]:
    """Words on screen that are not words of what was written: a word cut at a line's end (or an
    ellipsis) shows up as a fragment. Empty when every panel wraps by word."""
    bad = []
    for wid in PANELS:
        if wid not in app.texts or not app.query_one(f"#{wid}", Static).display:
            continue
        source = words(app.texts[wid])
        if wid == "notice":  # the row of a notice cut to its share of the screen
            source |= words(app.MORE_TEXT)
        for line in rendered(app, wid):
            bad += [f"{wid}: {w!r}" for w in words(line) if w not in source]
    source = set().union(*(words(x) for x in app.lines_seen)) if app.lines_seen else set()
    for line in rendered(app, "log"):
        bad += [f"log: {w!r}" for w in words(line) if w not in source]
    ol = app.query_one("#options", OptionList)
    labels = set()
    for i in range(ol.option_count):
        labels |= words(str(ol.get_option_at_index(i).prompt))
    for line in rendered(app, "options"):
        bad += [f"options: {w!r}" for w in words(line) if w not in labels]
    return bad


async def play_until(pilot, app: TableApp, done, *, limit: int = 3000, keys=("enter",)) -> int:
    """Answer every question with ``keys`` until ``done()``; returns the number of answers."""
    answers = 0
    for _ in range(limit):
        if done():
            return answers
        await pilot.pause()
        if app.legal and app._pending is not None and not app._pending.done():
            await pilot.press(*keys)
            answers += 1
    raise AssertionError(f"not done after {limit} rounds")
