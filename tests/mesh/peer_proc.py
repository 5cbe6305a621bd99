"""A peer in its own OS process, for the crash tests: ``join HOME ADDRESS CODE NAME ROUNDS`` or
``resume HOME TABLE ROUNDS``. Prints ``round R`` after each round and ``done COMMON`` at the end.
``flood HOME ADDRESS CODE NAME COUNT`` joins, then broadcasts COUNT messages of 400 kB on a topic
nobody reads (a seated flooder) and prints ``stopped`` once the table stops it."""

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mesh.helpers import LOOPBACK, play  # noqa: E402

from protocol.identity import Identity  # noqa: E402
from protocol.mesh import Mesh, Timings  # noqa: E402


async def main(argv: list[str]) -> None:
    mode, home = argv[0], Path(argv[1])
    ident = Identity.load_or_create(home)
    if mode == "flood":
        address, code, name, count = argv[2], argv[3], argv[4], int(argv[5])
        mesh = await Mesh.join(ident, address, code, name, bind=LOOPBACK, timings=Timings.fast())
        await mesh.wait_full(10)
        for i in range(count):
            if mesh.stopped is not None:
                break
            try:
                await mesh.channel.broadcast("junk", {"i": i, "pad": "x" * 400_000})
            except Exception:  # noqa: BLE001 -- the table stopped us
                break
            await asyncio.sleep(0.005)
        for _ in range(100):
            if mesh.stopped is not None:
                break
            await asyncio.sleep(0.05)
        print("stopped" if mesh.stopped is not None else "not stopped", flush=True)
        await mesh.close()
        return
    if mode == "join":
        address, code, name, rounds = argv[2], argv[3], argv[4], int(argv[5])
        mesh = await Mesh.join(ident, address, code, name, bind=LOOPBACK, timings=Timings.fast())
        await mesh.wait_full(10)
    else:
        table, rounds = argv[2], int(argv[3])
        mesh = await Mesh.resume(ident, table, bind=LOOPBACK, timings=Timings.fast())
    print(f"seat {mesh.seat} table {mesh.table}", flush=True)

    async def report(r: int) -> None:
        print(f"round {r}", flush=True)

    result = await play(mesh.channel, rounds, report)
    print(f"done {result['common']}", flush=True)
    await mesh.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
