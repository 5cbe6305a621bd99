"""Work in a daemon thread of its own, awaited from the event loop: a bot's search
(``bots/pacing.py``) and a hint's solver (``ui/hints.py``) may think for seconds while this
program goes on answering the table and drawing the screen.

A daemon thread, not the loop's executor: the executor's threads are joined when the program
ends, so leaving in the middle of a long search would hold the terminal until it was done.
Whatever the work raises reaches the awaiting coroutine; a ``StopIteration`` (a ``next()``
that found nothing), which a future refuses to hold, as a ``RuntimeError`` -- handed over as
it was, the loop logged a ``TypeError`` and the coroutine waited for ever (red team 25: a bot
seat stayed silent until its turn time ran out)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any


def start_in_thread(work: Callable[[], Any], name: str) -> asyncio.Future[Any]:
    """Start ``work()`` in a daemon thread called ``name``; the future holds what it returns or
    raises. Raises at once if the thread cannot start (the caller's to undo what it set up)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[Any] = loop.create_future()

    def settle(ok: bool, value: Any) -> None:
        if not done.done():
            (done.set_result if ok else done.set_exception)(value)

    def run() -> None:
        try:
            result: tuple[bool, Any] = (True, work())
        except StopIteration as exc:
            err = RuntimeError(f"the {name} raised StopIteration: {exc!r}")
            err.__cause__ = exc
            result = (False, err)
        except BaseException as exc:  # noqa: BLE001 -- handed to the awaiting coroutine
            result = (False, exc)
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
            loop.call_soon_threadsafe(settle, *result)

    threading.Thread(target=run, daemon=True, name=name).start()
    return done


async def in_thread(work: Callable[..., Any], *args: Any, name: str) -> Any:
    """``work(*args)`` in a daemon thread called ``name``, awaited."""
    return await start_in_thread(lambda: work(*args), name)
