"""A second ``scripts/run`` from the same checkout refuses at once and leaves the running one alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# What the first scripts/run holds while it runs: an flock(2) on var/run.lock, naming it.
HOLDER = """
import fcntl, sys, time
lock = open(sys.argv[1], "a+")
try:
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
except BlockingIOError:
    print("busy", flush=True)
    sys.exit(0)
with open(sys.argv[1], "w") as f:
    f.write("pid %d, http://127.0.0.1:8765/\\n" % __import__("os").getpid())
print("locked", flush=True)
time.sleep(120)
"""


def test_a_second_scripts_run_of_the_same_checkout_refuses_at_once_naming_the_running_one():
    (ROOT / "var").mkdir(exist_ok=True)
    lock = ROOT / "var" / "run.lock"
    first = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock)], stdout=subprocess.PIPE, text=True)
    try:
        said = first.stdout.readline().strip()
        if said == "busy":
            pytest.skip("a scripts/run of this checkout is running (it holds var/run.lock)")
        assert said == "locked"
        env = {**os.environ, "PORT": "8766", "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")}
        second = subprocess.Popen([str(ROOT / "scripts" / "run")], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = second.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(second.pid, signal.SIGTERM)
            second.communicate(timeout=30)
            raise AssertionError("the second scripts/run started instead of refusing") from None
        assert second.returncode == 1, out + err
        assert "already runs from this checkout" in err and f"pid {first.pid}" in err and "8765" in err, err
        assert "Cairn at" not in out
        assert first.poll() is None, "the running one was stopped"
        assert lock.read_text().startswith(f"pid {first.pid},")
    finally:
        first.kill()
        first.wait()
