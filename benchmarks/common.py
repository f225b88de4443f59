"""Shared helpers for benchmark scripts: machine description and interleaved timing."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable


def machine() -> str:
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.release()}"


def interleaved(
    runs: dict[str, Callable[[], int]], seconds: float, rounds: int = 5, clock: Callable[[], float] = time.perf_counter
) -> dict[str, float]:
    """Units per second for each run, timed in alternating slices so noise hits all alike.

    Each callable does one unit of work (a game, a request …) and returns a count
    of units (usually 1).  ``clock=time.process_time`` counts this process's CPU
    time only, which a busy shared machine distorts less than the wall clock.
    """
    totals = dict.fromkeys(runs, 0)
    spent = dict.fromkeys(runs, 0.0)
    slice_s = seconds / rounds / len(runs)
    for _ in range(rounds):
        for name, run in runs.items():
            start = clock()
            deadline = start + slice_s
            count = 0
            while True:
                count += run()
                now = clock()
                if now >= deadline:
                    break
            totals[name] += count
            spent[name] += now - start
    return {name: totals[name] / spent[name] for name in runs}
