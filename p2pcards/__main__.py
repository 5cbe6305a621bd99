"""The program's entry point: the ``p2pcards`` command (``pyproject.toml``) and
``python -m p2pcards``.

The command line (``p2pcards.cli``) imports the network stack, the games and typer before its
own handlers run: Ctrl-C in that first half second (a person who typed the wrong command) ended
in a Python traceback. Here it is one line and exit status 130, as Ctrl-C says later."""

from __future__ import annotations

import contextlib
import sys


def run() -> None:
    try:
        from .cli import main

        main()
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError):  # no terminal left to say it on
            print("Interrupted.", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    run()
