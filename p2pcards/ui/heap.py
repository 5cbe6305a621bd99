"""The full-screen table's care of Python's garbage collector, so that a redraw after a peer's
move does not stall on a collection (measured in tests/ui/test_redraw.py)."""

from __future__ import annotations

import gc
import time

#: seconds between two walks of the whole heap (a settle otherwise walks only what is new)
WALK_ALL_EVERY = 60.0


class HeapCare:
    """Mixed into the Textual app (it needs ``is_running`` and ``call_after_refresh``)."""

    _heap_frozen = False
    _gc_held = False
    _walked_at = float("-inf")  # when the whole heap was last walked (time.monotonic)

    def _settle_heap(self) -> None:
        """Collect the garbage while nothing has to be redrawn (the screen waits for the
        person's choice, or a minute has gone by) and set what survives aside: between two of
        these the cyclic garbage collector walks only what was made since. Walking the whole
        heap (modules, card data, the widgets, the log: 60,000 objects and more) took 40-70 ms,
        a stall of a redraw after a peer's move now and then. So a settle walks only what was
        made since the last one (a few milliseconds), and the whole heap, what was set aside
        included, at most once every ``WALK_ALL_EVERY`` seconds, so that garbage among it does
        not pile up (objects freed by their last reference go at once, set aside or not)."""
        if not self.is_running:
            return
        now = time.monotonic()
        if now - self._walked_at >= WALK_ALL_EVERY:
            self._walked_at = now
            gc.unfreeze()
        self._heap_frozen = True
        gc.collect()
        gc.freeze()

    def hold_gc(self) -> None:
        """Keep the cyclic garbage collector out of the redraw now starting (a move arrived):
        automatic collection is off until the screen's next refresh, then on again and it
        catches up at once. Compositing a frame makes thousands of short-lived objects (strips,
        caches), which set off 3-10 young collections inside every redraw, and now and then a
        full one of 40-90 ms, the slowest redraws of a game. Left alone if collection is
        already off (someone else's choice)."""
        if self._gc_held or not gc.isenabled() or not self.is_running:
            return
        self._gc_held = True
        gc.disable()
        self.call_after_refresh(self._release_gc)

    def _release_gc(self) -> None:
        if self._gc_held:
            self._gc_held = False
            gc.enable()

    def _unfreeze_heap(self) -> None:
        if self._heap_frozen:
            self._heap_frozen = False
            gc.unfreeze()
