"""A web process freezes what it holds from its start out of the garbage collector (config/gctune.py)."""

import gc
import subprocess
import sys

from config import gctune


def test_tune_freezes_what_is_alive_and_raises_the_first_threshold(monkeypatch):
    before = gc.get_threshold()
    monkeypatch.delenv("GC_THRESHOLD", raising=False)
    try:
        assert gctune.tune()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (10000, before[1], before[2])
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_gc_threshold_zero_leaves_the_collector_alone(monkeypatch):
    before = gc.get_threshold()
    monkeypatch.setenv("GC_THRESHOLD", "0")
    assert not gctune.tune()
    assert gc.get_threshold() == before


def test_the_asgi_application_starts_with_its_startup_objects_frozen():
    code = "import gc, config.asgi; print(gc.get_freeze_count(), gc.get_threshold()[0])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "DEBUG": "1", "GC_THRESHOLD": "12345"}).stdout.split()
    assert int(out[0]) > 10_000  # Django, the templates and the games, frozen after the warm-up
    assert out[1] == "12345"
