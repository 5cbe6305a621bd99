"""Terminal user interface."""

import os

# Textual paints a change at its next frame, at most TEXTUAL_FPS times a second (default 60): up
# to 17 ms after a peer's move before the screen shows it, a third of the redraw's budget
# (scripts/bench_ui.py: median 38 -> 19 ms, p95 72 -> 47 ms at 240). A card table changes a few
# times a second, so a higher ceiling costs nothing while it is still; a person's own setting wins.
# Set here, before any module of this package imports Textual, which reads it once.
os.environ.setdefault("TEXTUAL_FPS", "240")
