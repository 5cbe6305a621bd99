"""A seat in its own OS process for the pause test: ``host HOME`` prints ``ADDR ADDRESS CODE``;
``join HOME NAME ADDRESS CODE``. Each prints ``FULL`` once seated, runs the absence watcher
(wait 6 s, fast mesh timings) for SECONDS, prints what it says, then ``STOPPED <reason>`` or
``NOT STOPPED``."""

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from p2pcards.lobby import _watch_absence  # noqa: E402
from protocol.identity import Identity  # noqa: E402
from protocol.mesh import Mesh, Timings  # noqa: E402

# SECONDS: the test's stops and starts take 9.5 s from FULL (tests/table/test_own_pause.py),
# and what it checks happens as alice wakes (at once, on the watcher's next look): 3 s after
# that is time enough to see it, and to see that nobody names anyone (it was 14 s). WAIT: carol
# has 3.5 s after she resumes to be heard again (with 4 s she had 1.5 s, and a loaded run of
# the suite once saw bob name her). Loaded runs at 6 s once named carol on alice's waking, when
# alice marked her away just before her own stop, after the watcher's last look: the watcher's
# fault, fixed (test_own_pause.py, ``test_a_seat_marked_away_just_before_the_stop_...``)
WAIT, SECONDS = 6.0, 12.5


async def main(argv: list[str]) -> None:
    role, me = argv[0], Identity.load_or_create(Path(argv[1]))
    if role == "host":
        mesh = await Mesh.host(me, 3, bind="127.0.0.1", name="alice", timings=Timings.fast())
        print("ADDR", mesh.address, mesh.code, flush=True)
    else:
        mesh = await Mesh.join(me, argv[3], argv[4], argv[2], bind="127.0.0.1",
                               timings=Timings.fast())
    await mesh.wait_full(30)
    print("FULL", flush=True)
    watch = asyncio.create_task(_watch_absence(mesh, WAIT, lambda s: print("SAY", s, flush=True),
                                               bot=True))
    await asyncio.sleep(SECONDS)
    stop = mesh.stopped
    print(f"STOPPED {stop.reason}" if stop is not None else "NOT STOPPED", flush=True)
    watch.cancel()
    await mesh.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
