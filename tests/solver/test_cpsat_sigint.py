"""Red team: after any OR-Tools CP-SAT solve, Ctrl-C killed p2pcards with SIGINT's default
action (no message, the terminal left in the alternate screen, nothing saved): CP-SAT's
``catch_sigint_signal`` defaults to true and resets the process's SIGINT handler when a solve
ends. Each solver turns it off; here a solve is followed by a real SIGINT, which must reach
Python as a KeyboardInterrupt."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SOLVES = {
    "partition": "from solver.go_out_girl.partition import partition\n"
                 "partition([0, 2, 1, 1, 1, 0, 3, 0, 0, 1, 0, 2, 1, 1])",
    "setplan": "import random\n"
               "from solver.out_of_this_world import setplan\n"
               "from tests.solver.test_ootw_setplan import random_problem\n"
               "setplan.solve(random_problem(random.Random(1), size=3))",
}


@pytest.mark.parametrize("name", sorted(SOLVES))
def test_ctrl_c_after_a_solve_is_a_keyboard_interrupt(name):
    script = SOLVES[name] + textwrap.dedent("""
        import os, signal, time
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except KeyboardInterrupt:
            print("caught")
        """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "caught", (r.returncode, r.stderr[-2000:])
