"""Round-trip costs of the Python package, measured from Python (not a test).

    python bench/bench.py [--quick]

Each figure is the median, over several repeats, of the mean time of one operation in
a tight loop. The goals of issue 22: ``Shell().run("echo hi")`` under 50 us and a
fresh shell per test (what the pytest fixture makes) under 20 us.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import threading
import time
from typing import Callable

import shellbox
from shellbox.pytest_plugin import RecordedShell


def measure(op: Callable[[], object], loops: int, repeats: int = 7) -> float:
    """Median over `repeats` of the mean microseconds of one `op()` in `loops` calls."""
    op()
    means = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        for _ in range(loops):
            op()
        means.append((time.perf_counter_ns() - start) / loops / 1000)
    return statistics.median(means)


def off_main_thread(op: Callable[[], object], loops: int) -> float:
    """`measure` on a thread other than the main one (runs stay on the caller's thread)."""
    out: list[float] = []
    t = threading.Thread(target=lambda: out.append(measure(op, loops)))
    t.start()
    t.join()
    return out[0]


def async_runs(sb: shellbox.Sandbox, loops: int) -> float:
    async def main() -> float:
        await sb.run("echo hi")
        means = []
        for _ in range(7):
            start = time.perf_counter_ns()
            for _ in range(loops):
                await sb.run("echo hi")
            means.append((time.perf_counter_ns() - start) / loops / 1000)
        return statistics.median(means)

    return asyncio.run(main())


def main() -> None:
    n = 200 if "--quick" in sys.argv else 2000
    sh = shellbox.Shell()
    sb = shellbox.Sandbox()
    template = RecordedShell(files={"src/app.py": "print('hi')\n"})
    template.run("mkdir -p build; echo ready > build/status")
    rows = [
        ("Shell().run('echo hi'), a fresh shell each time", measure(lambda: shellbox.Shell().run("echo hi"), n)),
        ("sh.run('echo hi') on one shell (main thread)", measure(lambda: sh.run("echo hi"), n)),
        ("sh.run('echo hi') on one shell (another thread)", off_main_thread(lambda: sh.run("echo hi"), n)),
        ("Shell() alone", measure(shellbox.Shell, n * 5)),
        ("the pytest fixture's shell (RecordedShell())", measure(lambda: RecordedShell(files={}, root=None), n * 5)),
        ("a shellbox_template fork (shell.fork())", measure(template.fork, n * 5)),
        ("Sandbox() alone", measure(shellbox.Sandbox, n * 5)),
        ("sb.run_sync('echo hi')", measure(lambda: sb.run_sync("echo hi"), n)),
        ("await sb.run('echo hi')", async_runs(sb, n)),
        ("sh.fs.read_bytes (small file)", measure(lambda: template.fs.read_bytes("src/app.py"), n * 5)),
    ]
    width = max(len(name) for name, _ in rows)
    for name, us in rows:
        print(f"{name:<{width}}  {us:8.2f} us")


if __name__ == "__main__":
    main()
