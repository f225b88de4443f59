"""The garbage collector of a long-running server process: what it has at start frozen, young collections rarer.

CPython's cyclic collector walks every tracked container of the generations it collects.  A web
process holds a few hundred thousand long-lived objects from its start (Django, DRF, the compiled
templates, the URL resolver, every game's engine and presenters), and each full collection walks them
all: in a rendering loop of the fan-out (``benchmarks/service_move_parts.py``'s parts, a loop over
positions) one full collection took about 220 ms of CPU, during which the process's event loop serves
no socket.  So after the warm-up (:func:`config.warmup.warm_up`) a process

* collects once and calls :func:`gc.freeze`: what is alive then moves to the permanent generation,
  which no collection scans again (objects made later are collected as usual);
* raises the youngest generation's threshold from 700 to ``GC_THRESHOLD`` (default 10,000)
  allocations, so that the many short-lived dicts and lists of a render are mostly freed by their
  reference counts before a collection runs, and the survivors are promoted less often.

Nothing else changes: reference counting frees what it frees, and cycles are still collected.
``GC_THRESHOLD=0`` leaves the collector as CPython sets it.
"""

from __future__ import annotations

import gc
import os


def tune() -> bool:
    """Freeze what is alive now and raise the first threshold; False (and nothing done) with ``GC_THRESHOLD=0``."""
    threshold = int(os.environ.get("GC_THRESHOLD", "10000"))
    if threshold <= 0:
        return False
    gc.collect()
    gc.freeze()
    _, second, third = gc.get_threshold()
    gc.set_threshold(threshold, second, third)
    return True
