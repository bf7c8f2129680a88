"""The GIL is released while a script runs, and Ctrl-C (KeyboardInterrupt) stops the
script at its next command and reaches the caller promptly; the shell stays usable."""

from __future__ import annotations

import _thread
import os
import signal
import threading
import time
from typing import Callable

import pytest

from shellbox import Limits, Sandbox, Shell

# Spinning scripts never hit the work limits; the time limit only turns a Ctrl-C that
# failed to stop a run into a failure instead of a hung test run.
SPIN = Limits(max_loop_iterations=10**12, max_commands=10**12, timeout=60)


def test_another_thread_makes_progress_while_a_script_spins() -> None:
    counted = 0
    done = threading.Event()

    def count() -> None:
        nonlocal counted
        while not done.is_set():
            counted += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        time.sleep(0.01)
        before = counted
        Shell(limits=SPIN).run("for i in $(seq 300000); do :; done")
        during = counted - before
    finally:
        done.set()
        t.join()
    # Were the GIL held while the script ran, the counter could not have moved.
    assert during > 10_000


def interrupt_after(delay: float, how: Callable[[], None]) -> threading.Timer:
    timer = threading.Timer(delay, how)
    timer.start()
    return timer


@pytest.mark.parametrize(
    "how",
    [_thread.interrupt_main, lambda: os.kill(os.getpid(), signal.SIGINT)],
    ids=["interrupt_main", "SIGINT"],
)
def test_ctrl_c_stops_a_shell_run(how: Callable[[], None]) -> None:
    sh = Shell(limits=SPIN)
    interrupt_after(0.2, how)
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        sh.run("echo started > log; while :; do :; done")
    assert time.perf_counter() - start < 2.0
    # The run stopped (the shell is free) and left its work behind.
    assert sh.run("cat log").stdout == b"started\n"


def test_ctrl_c_stops_a_sync_sandbox_run_and_wait() -> None:
    sb = Sandbox(limits=SPIN)
    interrupt_after(0.2, _thread.interrupt_main)
    with pytest.raises(KeyboardInterrupt):
        sb.run_sync("while :; do :; done")
    p = sb.spawn_sync("while :; do :; done")
    interrupt_after(0.2, _thread.interrupt_main)
    with pytest.raises(KeyboardInterrupt):
        p.wait_sync()
    p.kill_sync()
    assert p.returncode == 143
