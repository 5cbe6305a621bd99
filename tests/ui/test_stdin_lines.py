"""Line input from a pipe (scripts, screen readers): the game's end ends the program even when
the pipe stays open."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

PROGRAM = textwrap.dedent("""
    import asyncio
    from p2pcards.ui.terminal import stdin_lines

    async def main():
        over = asyncio.Event()

        async def typing():  # the player's input, waiting for the next line as the game ends
            async for line in stdin_lines():
                print("got", line, flush=True)
                if line == "last":
                    over.set()  # the game is over; the pipe is still open

        task = asyncio.create_task(typing())
        done = asyncio.create_task(over.wait())
        await asyncio.wait([task, done], return_when=asyncio.FIRST_COMPLETED)
        await asyncio.sleep(0.2)  # the input loop is waiting for another line by now
        task.cancel()

    asyncio.run(main())
    print("ended", flush=True)
""")


def test_the_program_ends_while_its_input_pipe_stays_open():
    proc = subprocess.Popen([sys.executable, "-c", PROGRAM], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdin is not None
        proc.stdin.write("first\nlast\n")
        proc.stdin.flush()  # and never closed, like a script that keeps its pipe
        try:  # not communicate(): it would close the pipe
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("the program did not end while its standard input stayed open")
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()
    assert proc.returncode == 0, err
    assert out.splitlines() == ["got first", "got last", "ended"]


def test_lines_arrive_in_order_and_end_with_the_input():
    proc = subprocess.run([sys.executable, "-c", PROGRAM], input="a\nb\n\nc\n",
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["got a", "got b", "got ", "got c", "ended"]
